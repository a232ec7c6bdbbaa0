#!/bin/sh
# tests/integration/run.sh - the grader end to end, as students and instructors use it.
#
# Grades every submission in tests/fixtures/ and checks the reports against
# the EXPECTED file beside it (see tests/integration/expect.py), then the
# command line itself: exit codes, usage and problem-file errors, selftest,
# the reference and the untouched template, hidden tests, -j, colours.
#
# $GRADER: the grader to test (default build/asan/grader).  Reference answers
# are cached in a private temporary directory, never in ~/.cache.
# $INTEGRATION_FIXTURES: only these fixtures (names, space-separated; default
# all): tools/run-unprivileged.sh's fallback passes grade the ones whose
# grading depends on the sandbox's level, not every verdict again.  In those
# passes (GRADER_EXPECT_LEVEL set) the suite also leaves out what comes out
# the same at every level - selftest, the problem set's own check - and
# [no-userns] and [crippled] start from the seeded reference answers (below);
# a new check that cannot depend on the user or the level goes under the same
# test (docs/testing.md, "What the normal-user passes repeat").
# Prints "ok - ..." / "not ok - ..." per check and "N passed, M failed";
# exits 0 when everything passed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
export REPO
unset NO_COLOR
EXPECT="$REPO/tests/integration/expect.py"
FIXTURES="$REPO/tests/fixtures"

# A cache of its own, empty: this suite computes the reference answers cold, as root and as a normal
# user with user namespaces (tools/run-unprivileged.sh's [user]: the cache a normal user writes).  The
# fallback passes ([no-userns], [crippled]) start from the run's seeded answers (*.ref only): computing
# them is running the reference in the sandbox, which grading reference/ and reference/python/ below
# does at that level, and writing the cache, which [user] did as the same user (a few seconds of CPU a
# pass: [user] seeded took 154 s against 160 cold).  The runtime and the stubs are compiled at every level.
lib_tmpdir grader-integration
TMP=$T
CACHE="$TMP/cache"
case ${GRADER_EXPECT_LEVEL:-} in
no-userns | crippled)
	mkdir -p "$CACHE"
	[ -n "${TEST_SEED_CACHE:-}" ] && [ -d "$TEST_SEED_CACHE" ] && cp "$TEST_SEED_CACHE"/*.ref "$CACHE"/ 2>/dev/null
	;;
esac

# The problem set as problems/ holds it, read from the files (not from the grader): the ids in the
# grader's order (strcmp), the file names a submission may hold (the source, and its .py when the
# file accepts Python), how many accept C.  An instructor who adds a problem keeps this suite green.
IDS=$(sed -n 's/^id: *//p' problems/*.yaml | LC_ALL=C sort | tr '\n' ' ')
SOURCES=$(for f in problems/*.yaml; do
	src=$(sed -n 's/^source: *//p' "$f")
	echo "$src"
	grep -q '^  python:' "$f" && echo "${src%.c}.py"
done | LC_ALL=C sort | tr '\n' ' ')
NSOURCES=$(echo $SOURCES | wc -w)
NC=$(grep -l '^source: .*\.c$' problems/*.yaml | wc -l)
export IDS
# The fixtures (tests/fixtures/) are written for the problems whose reference tests/fixtures/correct copies;
# when problems/ holds more (an instructor added one), each fixture is graded on those alone
# (expect.py adds --only $FIXTURE_ONLY to a fixture that selects none).
FIXTURE_ONLY=
for f in problems/*.yaml; do
	src=$(sed -n 's/^source: *//p' "$f")
	if grep -q "reference/$src\b" tests/fixtures/correct/setup.sh; then
		FIXTURE_ONLY="$FIXTURE_ONLY${FIXTURE_ONLY:+,}$(sed -n 's/^id: *//p' "$f")"
	fi
done
[ "$(echo "$FIXTURE_ONLY" | tr ',' '\n' | LC_ALL=C sort | tr '\n' ' ')" = "$IDS" ] && FIXTURE_ONLY=
export FIXTURE_ONLY
has() { grep -qF -- "$2" "$1"; }         # has FILE TEXT
hasnt() { ! grep -qF -- "$2" "$1"; }     # hasnt FILE TEXT
no_sanitizer() { ! grep -qE 'Sanitizer|runtime error:' "$1"; }
json_ok() { python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" 2>/dev/null; }

# grade NAME DIR [ARGS...]: grade DIR into $TMP/NAME.{json,txt,err,rc}
grade() {
	g_name=$1
	g_dir=$2
	shift 2
	"$GRADER" --cache "$CACHE" --color never --format "json:$TMP/$g_name.json" --format "text:$TMP/$g_name.txt" \
		"$@" "$g_dir" >"$TMP/$g_name.out" 2>"$TMP/$g_name.err"
	echo $? >"$TMP/$g_name.rc"
}
rc() { cat "$TMP/$1.rc"; }
# same_sources DIR REFDIR: DIR holds exactly REFDIR's source files (*.c, *.py; not its folders), byte for byte
same_sources() {
	s_mine=$(cd "$1" && ls -A)
	s_ref=$(cd "$2" && ls -A | grep -E '[.](c|py)$')
	[ -n "$s_mine" ] && [ "$s_mine" = "$s_ref" ] || return 1
	for s_f in $s_mine; do
		cmp -s "$1/$s_f" "$2/$s_f" || return 1
	done
}
# reuse_grading FROM TO: TO's files are FROM's (a grading already done with the same command on the same bytes)
reuse_grading() {
	for r_ext in json txt out err rc; do
		cp "$TMP/$1.$r_ext" "$TMP/$2.$r_ext" || return 1
	done
}

need_grader

# ---- the reference: full marks (this also fills the private cache) ----
# The instructor's view (--show-hidden): every test listed, hidden ones too; the
# fixtures' instructor reports are compared with it test by test.
grade reference reference --show-hidden
check "reference: exit 0 (got $(rc reference))" [ "$(rc reference)" = 0 ]
check "reference: no sanitizer report" no_sanitizer "$TMP/reference.err"

# ---- the isolation level this pass expects (tools/run-unprivileged.sh sets it) ----
# root and a normal user with user namespaces: full isolation, no warning;
# user namespaces refused: the fallback, and exactly one line saying so;
# crippled (no mount namespace): one line, unless Landlock keeps the
# compiler's view without it (then nothing is missing for one's own code).
level=${GRADER_EXPECT_LEVEL:-}
[ -z "$level" ] && [ "$(id -u)" = 0 ] && level=root
warnings=$(grep -c 'without full isolation' "$TMP/reference.err")
isolation=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["isolation"])' "$TMP/reference.json" 2>/dev/null)
landlock=0
case $isolation in *"compiler view landlock"*) landlock=1 ;; esac
case $level in
root) want_warnings=0 want_isolation="namespaces on; a uid per slot; cgroups v" ;;
user) want_warnings=0 want_isolation="namespaces on (user namespace); runs as the invoking user; no cgroups" ;;
no-userns) want_warnings=1 want_isolation="namespaces off; runs as the invoking user; no cgroups" ;;
crippled) want_warnings=$((1 - landlock)) want_isolation="namespaces on (user namespace, no mount namespace); runs as the invoking user" ;;
*) want_warnings= ;;
esac
if [ -n "$want_warnings" ]; then
	check "isolation level '$level': $want_warnings warning line(s) (got $warnings), isolation '$isolation'" \
		sh -c '[ "$1" = "$2" ] && case "$3" in *"$4"*) true ;; *) false ;; esac' sh "$warnings" "$want_warnings" \
		"$isolation" "$want_isolation"
fi
case $level in
no-userns) check "no-userns: the warning says user namespaces are refused" has "$TMP/reference.err" "user namespaces refused" ;;
crippled)
	if [ "$landlock" = 1 ]; then
		check "crippled with Landlock: no warning (the compiler's view holds without a mount namespace)" \
			sh -c '! grep -q "without full isolation" "$1"' sh "$TMP/reference.err"
	else
		check "crippled: the warning says the mount namespace is missing" has "$TMP/reference.err" "no mount namespace"
	fi ;;
esac
if json_ok "$TMP/reference.json"; then
	ok "reference: JSON report parses"
	python3 - "$TMP/reference.json" >"$TMP/reference.checks" <<'EOF'
import json, os, sys
r = json.load(open(sys.argv[1]))
def say(cond, what, detail=""):
    print(("ok - " if cond else "not ok - ") + "reference: " + what + ("" if cond or not detail else f"  [{detail}]"))
say(abs(r["score"] - r["max_score"]) < 1e-6 and r["max_score"] > 0, "full marks", f"{r['score']} / {r['max_score']}")
say([p["id"] for p in r["problems"]] == os.environ["IDS"].split(), "every problem of problems/ graded",
    str([p["id"] for p in r["problems"]]))
bad = [f"{p['id']}:{t['name']}={t['verdict']}" for p in r["problems"] for t in p["tests"] if t["verdict"] != "correct"]
say(not bad, "every test correct", ", ".join(bad[:5]))
say(all(p["build"] == "correct" for p in r["problems"]), "every problem builds")
say(all(p["tests"] for p in r["problems"]), "every problem has tests")
EOF
	tally "$TMP/reference.checks"
else
	not_ok "reference: JSON report parses (stderr: $(tail -c 300 "$TMP/reference.err" | tr "\n" " "))"
	finish
fi
check "reference: text report says 'Total: 107 / 107'-like full marks" \
	python3 -c 'import re,sys; m=re.search(r"Total: ([0-9.]+) / ([0-9.]+)", open(sys.argv[1]).read()); sys.exit(not (m and m.group(1)==m.group(2)))' "$TMP/reference.txt"
check "reference: a second run uses the cache (no 'computing the reference answers')" sh -c '
	"$1" --cache "$2" --only p4 --format json -o /dev/null reference 2>"$3/cached.err"; [ $? = 0 ] &&
	! grep -q "computing the reference" "$3/cached.err"' sh "$GRADER" "$CACHE" "$TMP"

# ---- the compiled runtime kept between runs (grader/build/setup_cache.h) ----
# one entry per language, its checksums right by sha256sum's reading
runtime_entry=$(ls -d "$CACHE"/runtime/c-[0-9a-f]* 2>/dev/null | head -1)
check "runtime cache: the C runtime is kept, its SHA256SUMS right (sha256sum -c)" sh -c '
	[ -n "$1" ] && [ -f "$1/runtime.o" ] && cd "$1" && sha256sum --quiet -c SHA256SUMS' sh "$runtime_entry"
inode_before=$(stat -c %i "$runtime_entry" 2>/dev/null)
grade runtime-kept reference --only p4
check "runtime cache: a run with it grades the same (exit $(rc runtime-kept), no warning) and keeps the entry" sh -c '
	[ "$1" = 0 ] && ! grep -q "runtime kept" "$2" && [ "$(stat -c %i "$3")" = "$4" ]' \
	sh "$(rc runtime-kept)" "$TMP/runtime-kept.err" "$runtime_entry" "$inode_before"
# a changed object (as a half-written copy or a tampering would be) is not used: compiled again, entry replaced
printf 'x' >>"$runtime_entry/runtime.o"
grade runtime-tampered reference --only p4
check "runtime cache: a runtime.o that does not match its checksum is not used: warning, still full marks" sh -c '
	[ "$1" = 0 ] && grep -q "runtime kept in .* was not used" "$2" && python3 -c "
import json, sys; r = json.load(open(sys.argv[1])); sys.exit(not (r[\"max_score\"] > 0 and r[\"score\"] == r[\"max_score\"]))" "$3"' \
	sh "$(rc runtime-tampered)" "$TMP/runtime-tampered.err" "$TMP/runtime-tampered.json"
check "runtime cache: ...and the entry is stored afresh (sha256sum -c passes again)" sh -c '
	cd "$1" && sha256sum --quiet -c SHA256SUMS' sh "$runtime_entry"
# an entry closed to everyone but its owner (chmod -R go-rwx ~/.cache) is used, and the copy is still
# readable by the sandbox's compiler, which runs as a uid of its own when root
chmod 600 "$runtime_entry/runtime.o"
grade runtime-closed reference --only p4
check "runtime cache: a runtime.o of mode 600 in the cache still builds every problem (exit $(rc runtime-closed))" sh -c '
	[ "$1" = 0 ] && ! grep -q "runtime kept" "$2"' sh "$(rc runtime-closed)" "$TMP/runtime-closed.err"
# an entry others may write is not trusted either (the runtime installs the sandbox's filters)
chmod g+w "$runtime_entry"
grade runtime-writable reference --only p4
check "runtime cache: an entry writable by the group is not used: warning, full marks, replaced by a closed one" sh -c '
	[ "$1" = 0 ] && grep -q "runtime kept in .* was not used" "$2" && [ "$(stat -c %a "$3")" = 755 ]' \
	sh "$(rc runtime-writable)" "$TMP/runtime-writable.err" "$runtime_entry"

# ---- each C problem's stub compiled once per engine and kept (lang_c.c c_share) ----
# the reference runs above built every C problem: one entry each (p4 and p4_dp differ in their name)
check "stub cache: an entry per C problem of the reference ($NC), each a grader_stub.o and right SHA256SUMS" sh -c '
	n=0; for e in "$1"/runtime/c-stub-*; do
		[ -f "$e/grader_stub.o" ] && (cd "$e" && sha256sum --quiet -c SHA256SUMS) || exit 1; n=$((n + 1)); done
	[ "$n" = "$2" ]' sh "$CACHE" "$NC"
# what a trusted entry holds is what a build links: a copy of the cache whose stubs are empty objects
# (with checksums to match) fails to link every C problem - a stub compiled beside the file would not
rm -rf "$TMP/stub-cache" && cp -a "$CACHE" "$TMP/stub-cache"
for e in "$TMP"/stub-cache/runtime/c-stub-*; do
	: >"$e/grader_stub.o" && (cd "$e" && sha256sum grader_stub.o >SHA256SUMS)
done
"$GRADER" --cache "$TMP/stub-cache" --format "json:$TMP/stub-linked.json" --only p4 reference \
	>/dev/null 2>"$TMP/stub-linked.err"
check "stub cache: a trusted entry is what the build links (empty stubs: p4 does not link)" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
p = r["problems"][0]
sys.exit(not (p["build"] == "compiler-error" and "undefined reference to `gr_stub_init" in p["build_message"]))' \
	"$TMP/stub-linked.json"
rm -rf "$TMP/stub-cache"
# a changed object is not used: compiled afresh, full marks (a stub cut short that was linked would not
# link), a warning, the entry stored again
for e in "$CACHE"/runtime/c-stub-*; do truncate -s 100 "$e/grader_stub.o"; done
grade stub-tampered reference --only p4,p4_dp
check "stub cache: stubs that do not match their checksums are not used: warning, full marks (exit $(rc stub-tampered))" sh -c '
	[ "$1" = 0 ] && grep -q "2 compiled stubs kept in .* were not used" "$3" && python3 -c "
import json, sys; r = json.load(open(sys.argv[1])); sys.exit(not (r[\"max_score\"] > 0 and r[\"score\"] == r[\"max_score\"]))" "$2"' \
	sh "$(rc stub-tampered)" "$TMP/stub-tampered.json" "$TMP/stub-tampered.err"
check "stub cache: ...and p4's and p4_dp's entries are stored afresh (two pass sha256sum -c again)" sh -c '
	n=0; for e in "$1"/runtime/c-stub-*; do (cd "$e" && sha256sum --quiet -c SHA256SUMS >/dev/null 2>&1) && n=$((n + 1)); done
	[ "$n" = 2 ]' sh "$CACHE"
grade stub-restored reference
check "stub cache: a run of every problem restores the rest (exit $(rc stub-restored), all entries right)" sh -c '
	[ "$1" = 0 ] && for e in "$2"/runtime/c-stub-*; do (cd "$e" && sha256sum --quiet -c SHA256SUMS) || exit 1; done' \
	sh "$(rc stub-restored)" "$CACHE"

# ---- the Python reference (reference/python/): full marks too ----
grade reference-python reference/python --show-hidden
check "python reference: exit 0 (got $(rc reference-python))" [ "$(rc reference-python)" = 0 ]
check "python reference: full marks, every problem in Python" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(not (abs(r["score"] - r["max_score"]) < 1e-6 and r["max_score"] > 0 and
              all(p["language"] == "python" and p["build"] == "correct" for p in r["problems"])))' "$TMP/reference-python.json"

# ---- selftest and list ----
# selftest checks the problem set (both references graded, the languages agreeing, the expected
# values): the same at every isolation level, and each reference is graded above at this one; so
# in the main run only, not again in tools/run-unprivileged.sh's passes (25 s of CPU each)
if [ -z "${GRADER_EXPECT_LEVEL:-}" ]; then
	"$GRADER" selftest --cache "$CACHE" >"$TMP/selftest.out" 2>&1
	code=$?
	check "selftest: exit 0 (got $code)" [ "$code" = 0 ]
	check "selftest: no sanitizer report" no_sanitizer "$TMP/selftest.out"
	[ "$code" = 0 ] || tail -n 20 "$TMP/selftest.out" | sed 's/^/#   /'
fi
"$GRADER" list >"$TMP/list.out" 2>&1
code=$?
check "list: exit 0 (got $code)" [ "$code" = 0 ]
check "list: names every problem and the required signatures" sh -c '
	for w in $2 "bool AcanWin(int n)" "bool canWin(long long k, long long n)" \
		"long long f(const int *L, int n)"; do grep -qF -- "$w" "$1" || exit 1; done' sh "$TMP/list.out" "$IDS"
check "list: names the Python calls (p3.py: P3_CanWin(n), p4.py: f(L))" sh -c '
	grep -q "Python 3[.0-9]* *p3.py: P3_CanWin(n)$" "$1" && grep -q "Python 3[.0-9]* *p4.py: f(L)$" "$1"' \
	sh "$TMP/list.out"
# p3.yaml gives Python its own cases and hint for large and its own hint for course
check "list: says which groups differ in Python (p3: course hint; large cases and hint)" python3 -c '
import re, sys
text = open(sys.argv[1]).read()
p3 = text[text.index("p3  "):text.index("p4  ")]
course = p3[p3.index("group course"):p3.index("group small")]
large = p3[p3.index("group large"):]
medium = p3[p3.index("group medium"):p3.index("group large")]
sys.exit(not (re.search(r"in Python 3[.0-9]*: its own hint\n", course) and
              re.search(r"in Python 3[.0-9]*: its own cases, hint\n", large) and "in Python" not in medium))' "$TMP/list.out"
"$GRADER" list --sources >"$TMP/sources.out" 2>&1
check "list --sources: the $NSOURCES file names of problems/, one a line" sh -c '
	[ "$(LC_ALL=C sort "$1" | tr "\n" " ")" = "$2" ]' \
	sh "$TMP/sources.out" "$SOURCES"

# ---- the untouched template: a clear report, exit 1 ----
grade template "$REPO/student_template"
check "template: exit 1 (got $(rc template))" [ "$(rc template)" = 1 ]
check "template: no sanitizer report" no_sanitizer "$TMP/template.err"
check "template: text report has a total" has "$TMP/template.txt" "Total: "
check "template: text report shows a failing public test (call/expected/returned)" sh -c '
	grep -q "^  x small/AcanWin(1): wrong answer" "$1" && grep -q "^      call:     AcanWin(1)" "$1" &&
	grep -q "^      expected: true" "$1" && grep -q "^      returned: false" "$1"' sh "$TMP/template.txt"
check "template: text report gives per-problem counts and hints" sh -c '
	grep -q "passed [0-9]* of [0-9]* tests (hidden tests: [0-9]* of [0-9]* passed)" "$1" && grep -q "hint (" "$1"' \
	sh "$TMP/template.txt"
for id in $IDS; do
	check "template: text report has a section for $id" grep -q "^$id  " "$TMP/template.txt"
done
if json_ok "$TMP/template.json"; then
	ok "template: JSON report parses"
else
	not_ok "template: JSON report parses"
fi
# the default submission directory is student_template/
(cd "$REPO" && "$GRADER" --cache "$CACHE" --only p4 --color never >"$TMP/default.txt" 2>"$TMP/default.err")
code=$?
check "no directory given: grades student_template/ (exit 1, got $code)" sh -c \
	'[ "$1" = 1 ] && grep -q "^Grading .*student_template" "$2"' sh "$code" "$TMP/default.txt"

# ---- the progress line (issue 31): on a terminal at once, updated in place; nothing on a pipe; -q ----
set -- $(python3 "$REPO/tests/integration/on-a-tty.py" "$TMP/tty.out" "$TMP/tty.err" \
	"$GRADER" --cache "$CACHE" --only p1 "$FIXTURES/typical-mistakes")
check "progress: on a terminal the first line comes within 1 s (after $2 s), exit 1 (got $1)" \
	python3 -c 'import sys; sys.exit(not (0 <= float(sys.argv[1]) < 1 and sys.argv[2] == "1"))' "$2" "$1"
check "progress: the line names the problem, tests done of all and the failures, redrawn in place" python3 -c '
import re, sys
d = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
# the one line a level without namespaces prints about what it cannot enforce (checked above) is not progress
d = re.sub(r"[^\r\n]*without full isolation[^\n]*\n", "", d)
lines = d.split("\r")
sys.exit(not (any(re.search(r"p1 \(C\): \d+/\d+ tests done, \d+ failed", l) for l in lines) and
              "\n" not in d and "\x1b" not in d and d.endswith("\r") and not d.split("\r")[-2].strip()))' "$TMP/tty.err"
check "progress: the report on stdout is the same as without a terminal" sh -c '
	"$1" --cache "$2" --only p1 "$3" >"$4" 2>/dev/null; cmp -s "$4" "$5"' sh "$GRADER" "$CACHE" \
	"$FIXTURES/typical-mistakes" "$TMP/tty-pipe.out" "$TMP/tty.out"
"$GRADER" --cache "$CACHE" --only p1 "$FIXTURES/typical-mistakes" 2>&1 >/dev/null | cat >"$TMP/pipe.err"
check "progress: stderr to a pipe gets none of it (no carriage return, no escape)" sh -c '
	! grep -q "$(printf "\r")" "$1" && ! grep -q "$(printf "\033")" "$1"' sh "$TMP/pipe.err"
set -- $(python3 "$REPO/tests/integration/on-a-tty.py" "$TMP/tty-q.out" "$TMP/tty-q.err" \
	"$GRADER" --cache "$CACHE" -q --only p1 "$FIXTURES/typical-mistakes")
check "progress: -q on a terminal: nothing on stderr but the isolation warning (first byte: $2), exit 1 (got $1)" \
	python3 -c 'import re, sys
d = open(sys.argv[2], "rb").read().decode("utf-8", "replace")
# nothing but the isolation warning of a level without namespaces (checked above)
sys.exit(not (sys.argv[1] == "1" and not re.sub(r"[^\r\n]*without full isolation[^\n]*\n", "", d)))' "$1" "$TMP/tty-q.err"

# ---- the fixtures ----
# selected NAME...: every one of these fixtures is graded in this run ($INTEGRATION_FIXTURES);
# the checks after the loop that reuse a fixture's submission or report run only then
selected() {
	for want in "$@"; do
		case " ${INTEGRATION_FIXTURES:-$want} " in *" $want "*) ;; *) return 1 ;; esac
	done
}
for fx in "$FIXTURES"/*/; do
	fx=${fx%/}
	name=$(basename "$fx")
	[ -f "$fx/EXPECTED" ] || continue
	selected "$name" || continue
	sub="$TMP/sub/$name"
	mkdir -p "$sub"
	cp -R "$fx"/. "$sub"/
	rm -f "$sub/EXPECTED" "$sub/setup.sh"
	if [ -f "$fx/setup.sh" ] && ! sh "$fx/setup.sh" "$sub"; then
		not_ok "$name: setup.sh"
		continue
	fi
	args=$(python3 "$EXPECT" --args "$fx/EXPECTED")
	# the student's view (json, text), then the instructor's (--show-hidden) that EXPECTED is about;
	# a fixture that is a copy of a reference (correct, py-correct) takes the reference's instructor
	# view graded above: the same command on the same bytes (23 s of CPU a pass for py-correct)
	eval "grade fx-$name \"\$sub\" $args"
	if [ -z "$args" ] && same_sources "$sub" reference; then
		reuse_grading reference "fx-$name.shown"
	elif [ -z "$args" ] && same_sources "$sub" reference/python; then
		reuse_grading reference-python "fx-$name.shown"
	else
		eval "grade fx-$name.shown \"\$sub\" --show-hidden $args"
	fi
	cat "$TMP/fx-$name.shown.err" >>"$TMP/fx-$name.err"
	python3 "$EXPECT" "$name" "$fx/EXPECTED" "$TMP/fx-$name.shown.json" "$TMP/fx-$name.json" "$TMP/fx-$name.txt" \
		"$(rc "fx-$name"),$(rc "fx-$name.shown")" "$TMP/fx-$name.err" "$TMP/reference.json:$TMP/reference-python.json" \
		>"$TMP/fx-$name.checks" 2>&1
	tally "$TMP/fx-$name.checks"
done

# ---- --all-tests: a student's run with every test, as the instructor's view runs them (issue 31) ----
if selected typical-mistakes; then
	grade all-tests "$TMP/sub/typical-mistakes" --only p1,p4_dp --no-growth --all-tests
	check "--all-tests: no test left out after failures in a row, the instructor's score (exit $(rc all-tests))" \
		python3 -c '
import json, sys
a, shown = (json.load(open(p)) for p in sys.argv[1:3])
text = open(sys.argv[3]).read()
summed = lambda p: {g["name"] for g in p["groups"] if g["scoring"] == "sum"}
sys.exit(not (a["show_hidden"] is False
              and all(t["verdict"] != "skipped" for p in a["problems"] for t in p["tests"] if t["group"] in summed(p))
              and all(g["skipped"] == 0 for p in a["problems"] for g in p["groups"] if g["scoring"] == "sum")
              and abs(a["score"] - shown["score"]) < 1e-6 and "--all-tests runs" not in text and "(up to " not in text))
' "$TMP/all-tests.json" "$TMP/fx-typical-mistakes.shown.json" "$TMP/all-tests.txt"
	# p3's endless recursion: course stops after 3 stack overflows in a row, and every later group after
	# one (small; medium is all-or-nothing; large, hidden) - the same tests at -j 1 and -j 2
	grade explained-j1 "$TMP/sub/typical-mistakes" --only p3 --no-growth --no-shrink -j 1
	grade explained-j2 "$TMP/sub/typical-mistakes" --only p3 --no-growth --no-shrink -j 2
	check "p3 stops a later group after one failure a group before explained, at -j 1 as at -j 2" \
		python3 -c '
import json, sys
runs = [json.load(open(p)) for p in sys.argv[1:3]]
texts = [open(p).read() for p in sys.argv[3:5]]
verdicts = [[(t["name"], t["verdict"]) for t in r["problems"][0]["tests"]] for r in runs]
groups = {g["name"]: g for g in runs[0]["problems"][0]["groups"]}
ran = lambda g: [v for n, v in verdicts[0] if n.startswith(g + "/") and v != "skipped"]
print(ran("course"), ran("small"), file=sys.stderr)
sys.exit(not (verdicts[0] == verdicts[1] and ran("course") == ["run-error"] * 3 and ran("small") == ["run-error"]
              and groups["small"]["skipped"] == groups["small"]["tests"] - 1
              and (groups["large"]["passed"], groups["large"]["failed"], groups["large"]["skipped"]) == (0, 1, 19)
              and all("tests not run: the test before them failed the same way as 3 tests in a row of an earlier group"
                      in t for t in texts)))
' "$TMP/explained-j1.json" "$TMP/explained-j2.json" "$TMP/explained-j1.txt" "$TMP/explained-j2.txt"
fi

# ---- a link error comes before the compile's warnings (issue 31) ----
if selected link-error; then
	check "link-error: the linker's 'undefined reference' line comes before the compile's warning" awk '
		/undefined reference to/ && !u { u = NR } /warning:/ && !w { w = NR }
		END { exit !(u && w && u < w) }' "$TMP/fx-link-error.txt"
fi

# ---- the smallest failing input: the same with -j 1, none with --no-shrink ----
# (the student's and the instructor's gradings of each fixture agree: expect.py)
if selected shrink; then
	grade shrink-j1 "$TMP/sub/shrink" --only p4_dp --show-hidden -j 1
	grade shrink-off "$TMP/sub/shrink" --only p4 --no-shrink
	check "shrink: -j 1 finds what the default -j found (f([-901, -901]))" python3 -c '
import json, sys
def steady(path, pid):
    p = [p for p in json.load(open(path))["problems"] if p["id"] == pid][0]
    return {k: v for k, v in (p["shrunk"] or {}).items() if k != "seconds"}
a, b = steady(sys.argv[1], "p4_dp"), steady(sys.argv[2], "p4_dp")
sys.exit(not (a == b and a.get("call") == "f([-901, -901])"))' "$TMP/shrink-j1.json" "$TMP/fx-shrink.shown.json"
	check "shrink: no sanitizer report with -j 1" no_sanitizer "$TMP/shrink-j1.err"
	check "shrink: --no-shrink gives no smallest failing input (JSON null, no text)" sh -c '
		python3 -c "import json,sys; sys.exit(json.load(open(sys.argv[1]))[\"problems\"][0][\"shrunk\"] is not None)" "$1" &&
		! grep -q "smallest failing input" "$2"' sh "$TMP/shrink-off.json" "$TMP/shrink-off.txt"
fi

# ---- a test run on a spare maps nothing under its memory limit ----
# The zygote forks each test's child ahead, with the limits in force (runtime.c gr_spare_fork).  A
# submission whose static data leave almost nothing of a 16 MiB limit, graded at -j 1 on one runner:
# the first test (an empty row) sizes the array pages at one page, the next ones need two.  A spare that
# mapped them itself, under the limit, failed them as "could not be sandboxed"; all must be correct.
mkdir -p "$TMP/arrays/problems" "$TMP/arrays/ref" "$TMP/arrays/sub"
cat >"$TMP/arrays/problems/arrays.yaml" <<'EOF'
id: arrays
title: Arrays near the memory limit
source: arrays.c
functions:
  - long long f(const int *L, int n)
limits:
  cpu_ms: 1000
  memory_mb: 16
groups:
  - name: rows
    visibility: public
    scoring: sum
    points: 1
    cases:
      - args: [[]]
      - args: [[1, 2, 3]]
      - args: [[4, 5]]
      - args: [[7]]
      - args: [[1, 1, 1, 1]]
      # rows of some 100 pages each, more than the room the test below leaves (ROOM_PAGES)
      - args: [{array: {length: [100000, 100000], values: [1, 1]}}]
        count: 2
        seed: 7
EOF
printf 'long long f(const int *L, int n);\n%s\n' \
	'long long f(const int *L, int n) { long long s = 0; for (int i = 0; i < n; i++) s += L[i]; return s; }' \
	>"$TMP/arrays/ref/arrays.c"
# The table leaves the test ROOM_PAGES of the limit, fewer than a long row's array needs: a runner whose
# address space at its hello is over a test's limit is memory-limit for every test (runner.c
# take_hello), so the largest table that still starts is searched for, a page at a time (some 10
# gradings: the runner's own pages differ by machine, and by up to some 20 pages from one start to the next),
# and ROOM_PAGES taken off it.  A spare that mapped a request's arrays itself would fail the long rows.
ROOM_PAGES=48
arrays_table() { # arrays_table PAGES: the submission with a table of PAGES pages of 4 KiB
	printf 'long long f(const int *L, int n);\nchar table[%d << 12];\n%s\n' "$1" \
		'long long f(const int *L, int n) { long long s = table[0]; for (int i = 0; i < n; i++) s += L[i]; return s; }' \
		>"$TMP/arrays/sub/arrays.c"
}
arrays_grade() {
	"$GRADER" --cache "$CACHE" --problems "$TMP/arrays/problems" --reference "$TMP/arrays/ref" -j 1 \
		"$TMP/arrays/sub" >"$TMP/arrays/out" 2>&1
}
lo=$((8 << 8)) hi=$((16 << 8)) # pages: a table of lo starts, one of hi (the whole limit) cannot
while [ $((hi - lo)) -gt 1 ]; do
	mid=$(((lo + hi) / 2))
	arrays_table $mid
	arrays_grade
	if grep -q "0 of 7 tests passed" "$TMP/arrays/out"; then hi=$mid; else lo=$mid; fi
done
arrays_table $((lo - ROOM_PAGES))
arrays_grade
check "spare: a submission $ROOM_PAGES pages short of its memory limit at its start gets every array test right at -j 1, rows of 100 pages too" \
	grep -q "7 of 7 tests passed" "$TMP/arrays/out"
arrays_table $((hi + ROOM_PAGES))
arrays_grade
check "spare: a submission over its memory limit before its tests is memory-limit ($((hi + ROOM_PAGES)) pages of table)" \
	grep -q "already held" "$TMP/arrays/out"

# ---- a missing function costs no idle time ----
# A problem with two functions; the submission defines only one, and 200 tests of a
# sum group call the other.  Each missing test should cost about what a run costs,
# not an idle wait: 200 of them with -j 1 well under 5 s.
mkdir -p "$TMP/two/problems" "$TMP/two/ref" "$TMP/two/sub"
cat >"$TMP/two/problems/two.yaml" <<'EOF'
id: two
title: Two functions
source: two.c
functions:
  - long long one(long long x)
  - long long two(long long x)
limits:
  cpu_ms: 1000
  memory_mb: 64
groups:
  - name: ones
    visibility: public
    scoring: sum
    points: 1
    cases:
      - call: one
        args: [{range: [1, 5]}]
  - name: twos
    visibility: public
    scoring: sum
    points: 1
    cases:
      - call: two
        args: [{range: [1, 200]}]
EOF
printf 'long long one(long long x);\nlong long two(long long x);\n%s\n%s\n' \
	'long long one(long long x) { return x; }' 'long long two(long long x) { return 2 * x; }' >"$TMP/two/ref/two.c"
printf 'long long one(long long x);\nlong long one(long long x) { return x; }\n' >"$TMP/two/sub/two.c"
# the reference answers, into the cache
"$GRADER" --cache "$CACHE" --problems "$TMP/two/problems" --reference "$TMP/two/ref" "$TMP/two/ref" >/dev/null 2>&1
"$GRADER" --cache "$CACHE" --problems "$TMP/two/problems" --reference "$TMP/two/ref" -j 1 --format json \
	-o "$TMP/two.json" "$TMP/two/sub" >/dev/null 2>"$TMP/two.err"
python3 - "$TMP/two.json" >"$TMP/two.checks" <<'EOF'
import json, sys
def say(cond, what, detail=""):
    print(("ok - " if cond else "not ok - ") + "missing function: " + what + ("" if cond or not detail else f"  [{detail}]"))
try:
    r = json.load(open(sys.argv[1]))
except (OSError, ValueError) as e:
    say(False, "the JSON report parses", str(e))
    sys.exit()
tests = r["problems"][0]["tests"]
say(all(t["verdict"] == "correct" for t in tests if t["group"] == "ones"), "the defined function's tests are correct")
say(all(t["verdict"] == "missing" for t in tests if t["group"] == "twos"), "the other's 200 tests are missing")
say(r["execution_time"] < 5, f"200 missing tests with -j 1 take under 5 s (took {r['execution_time']:.1f} s)")
EOF
tally "$TMP/two.checks"

# ---- hidden tests never show their inputs, values or verdicts (only counts) ----
"$GRADER" --cache "$CACHE" --show-hidden --format json "$REPO/student_template" >"$TMP/shown.json" 2>/dev/null
python3 - "$TMP/shown.json" "$TMP/template.json" "$TMP/template.txt" "$TMP/fx-wrong-answers.txt" \
	>"$TMP/hidden.checks" <<'EOF'
import json, sys
shown = json.load(open(sys.argv[1]))
default = json.load(open(sys.argv[2]))
text = open(sys.argv[3]).read() + open(sys.argv[4]).read()
def say(cond, what, detail=""):
    print(("ok - " if cond else "not ok - ") + "hidden: " + what + ("" if cond or not detail else f"  [{detail}]"))
hidden = [(p["id"], t) for p in shown["problems"] for t in p["tests"] if t["visibility"] == "hidden"]
say(len(hidden) > 0 and all("call" in t for _, t in hidden), "--show-hidden reveals the hidden calls",
    f"{len(hidden)} hidden tests")
calls = {t["call"] for _, t in hidden if "call" in t}
leaks = [c for c in calls if c in text]
say(not leaks, "the text report never shows a hidden test's call", ", ".join(leaks[:3]))
dump = json.dumps(default)
leaks = [c for c in calls if json.dumps(c)[1:-1] in dump]
say(not leaks, "the default JSON never shows a hidden test's call", ", ".join(leaks[:3]))
entries = [f"{p['id']}:{t['name']}" for p in default["problems"] for t in p["tests"] if t["visibility"] == "hidden"]
say(not entries, "the default JSON lists no hidden test (a hidden group is counts only)", ", ".join(entries[:3]))
groups = [(p["id"], g["name"], g["listed"], g["tests"], g["passed"]) for p in default["problems"] for g in p["groups"]
          if g["visibility"] == "hidden"]
want = [(p["id"], g["name"], False, g["tests"], g["passed"]) for p in shown["problems"] for g in p["groups"]
        if g["visibility"] == "hidden"]
say(groups and groups == want, "the default JSON's hidden groups: the instructor's counts, not listed", str(groups[:2]))
names = [t["name"] for _, t in hidden]
words = [n for n in names if n in text or json.dumps(n)[1:-1] in dump]
say(not words, "no hidden test's name in the text report or the default JSON", ", ".join(words[:3]))
say("(hidden tests: " in text, "the text report counts the hidden tests")
EOF
tally "$TMP/hidden.checks"

# ---- -j 1 and -j 2 agree ----
# compare_jobs NAME STRICT: $TMP/j1-NAME.json against $TMP/j2-NAME.json.  Not strict: a test
# may be 'skipped' with one -j and have run with the other (an all-or-nothing group that
# failed while the other slot was busy); strict: every verdict must be the same.
compare_jobs() {
	python3 - "$1" "$2" "$TMP/j1-$1.json" "$TMP/j2-$1.json" >"$TMP/j-$1.checks" <<'EOF'
import json, sys
name, strict = sys.argv[1], sys.argv[2] == "strict"
try:
    a, b = json.load(open(sys.argv[3])), json.load(open(sys.argv[4]))
except (OSError, ValueError) as e:
    print(f"not ok - -j 1 vs -j 2 ({name}): both reports parse  [{e}]")
    sys.exit()
def say(cond, what, detail=""):
    print(("ok - " if cond else "not ok - ") + f"-j 1 vs -j 2 ({name}): " + what + ("" if cond or not detail else f"  [{detail}]"))
ta = [(p["id"], t["name"], t["verdict"]) for p in a["problems"] for t in p["tests"]]
tb = [(p["id"], t["name"], t["verdict"]) for p in b["problems"] for t in p["tests"]]
say([x[:2] for x in ta] == [x[:2] for x in tb], "the same tests")
say(abs(a["score"] - b["score"]) < 1e-6 and
    all(abs(x["score"] - y["score"]) < 1e-6 for x, y in zip(a["problems"], b["problems"])),
    "the same scores", f"{a['score']} vs {b['score']}")
diff = [f"{x[1]}: {x[2]} vs {y[2]}" for x, y in zip(ta, tb)
        if x[2] != y[2] and (strict or "skipped" not in (x[2], y[2]))]
say(not diff, "the same verdict for every test" + ("" if strict else " (but 'skipped')"),
    f"{len(diff)} differ: " + "; ".join(diff[:3]))
EOF
	tally "$TMP/j-$1.checks"
}
for fx in wrong-answers crash; do
	selected "$fx" || continue
	grade "j1-$fx" "$TMP/sub/$fx" $(python3 "$EXPECT" --args "$FIXTURES/$fx/EXPECTED") -j 1
	grade "j2-$fx" "$TMP/sub/$fx" $(python3 "$EXPECT" --args "$FIXTURES/$fx/EXPECTED") -j 2
	compare_jobs "$fx" loose
done
# The first test of an all-or-nothing group fails slowly: with -j 2 the other slot runs
# the rest of the group meanwhile.  The verdicts must still not depend on -j.
grade j1-race "$REPO/tests/integration/jobs-race" --only p1 -j 1
grade j2-race "$REPO/tests/integration/jobs-race" --only p1 -j 2
compare_jobs race strict

# ---- usage errors: exit 2 ----
usage_error() { # usage_error DESCRIPTION EXPECTED-STDERR-TEXT ARGS...
	what=$1
	text=$2
	shift 2
	"$GRADER" --cache "$CACHE" "$@" >"$TMP/usage.out" 2>"$TMP/usage.err"
	code=$?
	if [ "$code" = 2 ] && grep -qiF -- "$text" "$TMP/usage.err"; then
		ok "usage error: $what (exit 2)"
	else
		not_ok "usage error: $what (want exit 2 and '$text' on stderr; got $code: $(head -c 200 "$TMP/usage.err" | tr "\n" " "))"
	fi
	check "usage error: $what: no sanitizer report" no_sanitizer "$TMP/usage.err"
}
usage_error "unknown --only id" "nosuch" --only p1,nosuch reference
usage_error "nonexistent submission directory" "$TMP/no/such/dir" "$TMP/no/such/dir"
usage_error "unknown option" "unrecognized" --frobnicate reference
usage_error "-j 0" "-j" -j 0 reference
usage_error "unknown format" "nosuchformat" --format nosuchformat reference
usage_error "two submission directories" "one submission" reference student_template
usage_error "nonexistent --problems directory" "$TMP/noproblems" --problems "$TMP/noproblems" reference

# ---- broken problem files: exit 2 with file:line:column ----
mkdir -p "$TMP/bad-syntax" "$TMP/bad-value"
cp "$REPO"/problems/*.yaml "$TMP/bad-syntax/"
cp "$REPO"/problems/*.yaml "$TMP/bad-value/"
# line 4: a flow sequence that is never closed
printf 'id: zz\ntitle: Broken\nsource: zz.c\nfunctions: [bool zz(int n)\ngroups:\n  - name: a\n' >"$TMP/bad-syntax/zz.yaml"
# line 9, column 14: not a scoring rule
cat >"$TMP/bad-value/zz.yaml" <<'EOF'
id: zz
title: Broken
source: zz.c
functions:
  - bool zz(int n)
groups:
  - name: a
    visibility: public
    scoring: sometimes
    points: 1
    cases:
      - {args: [1], expected: true}
EOF
for kind in bad-syntax bad-value; do
	"$GRADER" --cache "$CACHE" --problems "$TMP/$kind" reference >"$TMP/$kind.out" 2>"$TMP/$kind.err"
	code=$?
	check "$kind problem file: exit 2 (got $code)" [ "$code" = 2 ]
	check "$kind problem file: stderr names zz.yaml:LINE:COLUMN ($(head -c 160 "$TMP/$kind.err" | tr "\n" " "))" \
		grep -qE 'zz\.yaml:[0-9]+:[0-9]+' "$TMP/$kind.err"
	check "$kind problem file: no sanitizer report" no_sanitizer "$TMP/$kind.err"
done
check "bad-value problem file: the position is 9:14 (the scoring value)" grep -qE "zz\.yaml:9:14:" "$TMP/bad-value.err"
check "bad-syntax problem file: the position is line 4 or 5 (the unclosed list)" \
	grep -qE "zz\.yaml:[45]:[0-9]+:" "$TMP/bad-syntax.err"
"$GRADER" selftest --cache "$CACHE" --problems "$TMP/bad-value" >"$TMP/bad-selftest.out" 2>&1
code=$?
check "selftest with a broken problem file: exit 2 (got $code)" [ "$code" = 2 ]
check "selftest with a broken problem file: names zz.yaml:9:14" grep -q "zz\.yaml:9:14:" "$TMP/bad-selftest.out"
check "selftest with a broken problem file: no sanitizer report" no_sanitizer "$TMP/bad-selftest.out"

# ---- colours: none when piped or with NO_COLOR; --color always forces them ----
esc=$(printf '\033')
"$GRADER" --cache "$CACHE" --only p1 "$REPO/student_template" >"$TMP/piped.txt" 2>"$TMP/piped.err"
check "piped text report has no escape codes" hasnt "$TMP/piped.txt" "$esc"
check "piped stderr has no escape codes" hasnt "$TMP/piped.err" "$esc"
NO_COLOR=1 "$GRADER" --cache "$CACHE" --only p1 --color auto "$REPO/student_template" >"$TMP/nocolor.txt" 2>&1
check "NO_COLOR: no escape codes" hasnt "$TMP/nocolor.txt" "$esc"
"$GRADER" --cache "$CACHE" --only p1 --color always "$REPO/student_template" >"$TMP/always.txt" 2>/dev/null
check "--color always: escape codes even when piped" has "$TMP/always.txt" "$esc"
if command -v script >/dev/null 2>&1; then
	# on a terminal: colour by default, none with NO_COLOR
	script -qec "\"$GRADER\" --cache \"$CACHE\" --only p1 \"$REPO/student_template\"" /dev/null \
		</dev/null >"$TMP/tty.txt" 2>&1
	check "on a terminal: colour by default" has "$TMP/tty.txt" "$esc["
	NO_COLOR=1 script -qec "\"$GRADER\" --cache \"$CACHE\" --only p1 \"$REPO/student_template\"" /dev/null \
		</dev/null >"$TMP/tty-nocolor.txt" 2>&1
	check "on a terminal with NO_COLOR: no escape codes" hasnt "$TMP/tty-nocolor.txt" "$esc["
else
	echo "# script(1) not found: terminal colour checks skipped"
fi

# ---- -o FILE ----
"$GRADER" --cache "$CACHE" --only p4 --format json -o "$TMP/o.json" reference >"$TMP/o.out" 2>/dev/null
code=$?
check "-o FILE: exit 0, the JSON goes to FILE and nothing to stdout" sh -c \
	'[ "$1" = 0 ] && [ ! -s "$2" ] && python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$3"' \
	sh "$code" "$TMP/o.out" "$TMP/o.json"

# ---- an output that closes early, an output that is full (README "Exit codes") ----
# a reader that stops early (`| head`) is not the grader's failure: no message, no exit 3 ("internal
# error"); it ends by SIGPIPE, as git and grep do (141 in the shell).  The verbose report of p1 and p2
# (about 140 KiB) is more than a pipe holds, so its writing must meet the closed end.
{ "$GRADER" --cache "$CACHE" --color never --only p1,p2 --show-hidden -v reference 2>"$TMP/pipe.err"
	echo $? >"$TMP/pipe.rc"; } | head -n 1 >/dev/null
# (nothing but the one line a level without full isolation prints at every run, checked above)
check "| head: the grader ends by SIGPIPE (status $(cat "$TMP/pipe.rc"), want 141) and says nothing on stderr" \
	sh -c '[ "$(cat "$1")" = 141 ] && ! grep -v "without full isolation" "$2" | grep -q .' sh "$TMP/pipe.rc" "$TMP/pipe.err"
# a full disk is a real failure: said, exit 3 (/dev/full: every write fails with ENOSPC)
"$GRADER" --cache "$CACHE" --only p4 reference >/dev/full 2>"$TMP/full.err"
code=$?
check "stdout on a full disk (/dev/full): exit 3 (got $code), 'No space left on device' said" sh -c \
	'[ "$1" = 3 ] && grep -q "cannot write to standard output: No space left on device" "$2"' sh "$code" "$TMP/full.err"
"$GRADER" --cache "$CACHE" --only p4 --format json:/dev/full reference >/dev/null 2>"$TMP/full-report.err"
code=$?
check "--format json:/dev/full: exit 3 (got $code), the report's write error said" sh -c \
	'[ "$1" = 3 ] && grep -q "cannot write .*/dev/full.*No space left on device" "$2"' sh "$code" "$TMP/full-report.err"

# ---- honest command line (issue 14, item 6): refused at once, exit 2, before any grading ----
# usage_case NAME MESSAGE ARGS...: the grader with ARGS exits 2, says MESSAGE on stderr, grades nothing
usage_case() {
	u_name=$1
	u_msg=$2
	shift 2
	"$GRADER" "$@" >"$TMP/cl-$u_name.out" 2>"$TMP/cl-$u_name.err"
	u_rc=$?
	check "command line, $u_name: exit 2 (got $u_rc)" [ "$u_rc" = 2 ]
	check "command line, $u_name: says \"$u_msg\"" has "$TMP/cl-$u_name.err" "$u_msg"
	check "command line, $u_name: grades nothing" sh -c '[ ! -s "$1" ] && ! grep -q "computing the reference" "$2"' \
		sh "$TMP/cl-$u_name.out" "$TMP/cl-$u_name.err"
}
: >"$TMP/cl-file"
mkdir -p "$TMP/cl-class" "$TMP/cl-ro"
usage_case submission-file "'$TMP/cl-file' is not a directory" --cache "$CACHE" "$TMP/cl-file"
usage_case problems-file "'$TMP/cl-file' is not a directory" --cache "$CACHE" --problems "$TMP/cl-file" reference
usage_case reference-file "'$TMP/cl-file' is not a directory" --cache "$CACHE" --reference "$TMP/cl-file" reference
usage_case cache-parent-file "'$TMP/cl-file' is not a directory" --cache "$TMP/cl-file/cache" reference
usage_case batch-class-file "'$TMP/cl-file' is not a directory" batch --cache "$CACHE" "$TMP/cl-file" -o "$TMP/cl-out"
usage_case reference-missing "cannot open the reference directory '$TMP/nowhere'" --cache "$CACHE" \
	--reference "$TMP/nowhere" reference
usage_case problems-missing "cannot open the problems directory '$TMP/nowhere'" --cache "$CACHE" \
	--problems "$TMP/nowhere" reference
usage_case format-no-dir "cannot write the json report to '$TMP/nowhere/r.json'" --cache "$CACHE" \
	--format "text:$TMP/cl-first.txt" --format "json:$TMP/nowhere/r.json" reference
check "command line, format-no-dir: the other report file is not left behind" [ ! -e "$TMP/cl-first.txt" ]
usage_case format-is-dir "cannot write the json report to '$TMP/cl-class': Is a directory" --cache "$CACHE" \
	--format "json:$TMP/cl-class" reference
if [ "$(id -u)" != 0 ]; then
	chmod 555 "$TMP/cl-ro"
	usage_case format-no-permission "cannot write the junit report to '$TMP/cl-ro/r.xml': Permission denied" \
		--cache "$CACHE" --format "junit:$TMP/cl-ro/r.xml" reference
	chmod 755 "$TMP/cl-ro"
else
	echo "# as root: the unwritable-report case runs in the unprivileged pass"
fi
# a problem file that fails to load after the report files were opened: neither kept nor created
echo "an earlier report" >"$TMP/cl-keep.json"
mkdir -p "$TMP/cl-badprob"
printf 'id: [\n' >"$TMP/cl-badprob/zz.yaml"
usage_case report-kept "zz.yaml:2:" --cache "$CACHE" --problems "$TMP/cl-badprob" \
	--format "json:$TMP/cl-keep.json" --format "tap:$TMP/cl-new.tap" reference
check "command line, report-kept: an existing report file is left as it was" has "$TMP/cl-keep.json" "an earlier report"
check "command line, report-kept: a new report file is not left behind" [ ! -e "$TMP/cl-new.tap" ]
usage_case grade-resume "--resume belongs to 'grader batch'" --cache "$CACHE" --resume reference
usage_case grade-shard "--shard belongs to 'grader batch'" --cache "$CACHE" --shard 1/2 reference

# a repeated --only adds up, each problem once
"$GRADER" --cache "$CACHE" --only p1 --only p3,p1 --only p3 --format "json:$TMP/cl-only.json" reference \
	>/dev/null 2>"$TMP/cl-only.err"
code=$?
check "command line, --only p1 --only p3,p1 --only p3: exit 0 (got $code), grades p1 and p3 once each" python3 -c '
import json, sys
ids = [p["id"] for p in json.load(open(sys.argv[1]))["problems"]]
sys.exit(0 if sys.argv[2] == "0" and ids == ["p1", "p3"] else 1)' "$TMP/cl-only.json" "$code"

# make install: the installed grader finds its problems, reference and template from any directory
if make -q bin/grader 2>/dev/null; then
	prefix=$TMP/prefix
	share=$prefix/share/combgrader
	make install PREFIX="$prefix" >"$TMP/cl-install.out" 2>&1
	code=$?
	check "make install PREFIX=...: exit 0 (got $code), problems, reference and template under share/combgrader" \
		sh -c '[ "$1" = 0 ] && [ -f "$2/problems/p1.yaml" ] && [ -f "$2/reference/python/p1.py" ] &&
			[ -f "$2/student_template/python/P1.py" ]' sh "$code" "$share"
	(cd / && "$prefix/bin/grader" list --sources) >"$TMP/cl-inst-list.out" 2>&1
	check "installed grader, from /: list --sources names the $NSOURCES files" \
		[ "$(grep -c . "$TMP/cl-inst-list.out")" = "$NSOURCES" ]
	(cd / && "$prefix/bin/grader" --cache "$CACHE" --only p1 "$share/reference") >/dev/null 2>"$TMP/cl-inst-ref.err"
	code=$?
	check "installed grader, from /: the installed reference gets full marks (exit 0, got $code)" [ "$code" = 0 ]
	(cd / && "$prefix/bin/grader" --cache "$CACHE" --only p1) >"$TMP/cl-inst-tmpl.out" 2>&1
	code=$?
	check "installed grader, from /: no directory grades the installed template (exit 1, got $code)" [ "$code" = 1 ]
	rm -rf "$prefix"
else
	echo "# bin/grader is not up to date: make install checks skipped"
fi

finish
