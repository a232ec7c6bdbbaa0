#!/bin/sh
# tests/reports/run.sh - every report format, validated by a real consumer.
#
# Grades fixtures/mixed (a partly wrong p1 printing hostile bytes, a p2 that
# does not compile, a p3 that crashes, loops and prints every byte, a p4
# failing hidden tests, no p4_dp) and a copy of reference/ (full marks) with
# the real problems/, writing every format at once, then checks them with:
# python3 json (json, gradescope), xmllint and xml.etree (junit; every JUnit
# file also against Jenkins xUnit's strict schema, xunit/junit-10.xsd, with
# xmllint --schema), jsonschema (prairielearn, prairielearn.schema.json:
# PrairieLearn's documented shape; prairielearn.py), prove and TAP::Parser
# (tap), exact workflow-command lines (github), and that no student view
# shows a hidden test's input, value, output or entry (check.py).
# Then fixtures/leak: two submissions failing different hidden tests in
# different ways give the same student reports in every format, and
# fixtures/loud: 4 KiB printed in each of 2000 tests stays within the
# per-problem output budget in every format (views.py).
# Also: the README's examples against a real run of fixtures/readme
# (readme.py); dist/gradescope's zip unpacked into a fake /autograder,
# setup.sh (AUTOGRADER_ROOT) and run_autograder run there;
# dist/prairielearn/grade.sh on a fake /grade tree (GRADE_ROOT).
# Uses $GRADER (default: the ASan build) and a private reference cache.
#
# tools/run-unprivileged.sh runs this suite again as a normal user ([user],
# GRADER_EXPECT_LEVEL set): everything but the Gradescope part, which
# Gradescope runs as root when it builds its image (setup.sh builds the
# grader and computes the reference cold: the main run shows it).  A new
# part runs in both unless what it tests is the same whoever runs it and
# costs more than a few gradings (then: inside that test of the level).
set -u
# the checkers import checklib.py: no __pycache__ left in the tree
export PYTHONDONTWRITEBYTECODE=1
cd "$(dirname "$0")/../.."
. tests/lib.sh
top=$PWD
lib_tmpdir reports-test
tmp=$T
cache=$tmp/cache
seed_cache "$cache"

# fail TEXT: not ok, with the end of the last command's stderr
fail() {
	not_ok "$1"
	[ -s "$tmp/last.err" ] && sed 's/^/     /' "$tmp/last.err" | head -20
	: >"$tmp/last.err"
}
# expect NAME WANTED_EXIT CMD...: run CMD (stderr to last.err), check its exit code
expect() {
	name=$1
	want=$2
	shift 2
	"$@" 2>"$tmp/last.err"
	rc=$?
	if grep -q 'Sanitizer\|runtime error:' "$tmp/last.err"; then
		fail "$name: the sanitizers complained (exit $rc)"
	elif [ "$rc" -eq "$want" ]; then
		ok "$name (exit $rc)"
	else
		fail "$name: exit $rc, wanted $want"
	fi
}
# xsd NAME FILE: FILE is valid against Jenkins xUnit's junit-10.xsd (xmllint --schema)
xsd() {
	if xmllint --noout --schema tests/reports/xunit/junit-10.xsd "$2" 2>"$tmp/last.err"; then
		ok "junit-10.xsd: $1 validates (xmllint --schema)"
	else
		fail "junit-10.xsd: $1 does not validate"
	fi
}
# plcheck KIND RESULTS [JSON]: a PrairieLearn results.json (prairielearn.py), with
# Debian's python3, where tools/deps.sh installs python3-jsonschema (a python3
# first on PATH, pyenv's say, may not have it)
schema_python=python3
[ -x /usr/bin/python3 ] && schema_python=/usr/bin/python3
plcheck() {
	"$schema_python" tests/reports/prairielearn.py "$@" >"$tmp/check.out" 2>&1
	tally "$tmp/check.out"
	grep -q "^ok   prairielearn $1: every test has" "$tmp/check.out" || { not_ok "prairielearn.py $1 did not finish"; tail -5 "$tmp/check.out"; }
}
# no sanitizer report in the last command's stderr
clean_stderr() {
	! grep -q 'Sanitizer\|runtime error:' "$tmp/last.err"
}
# every format of one run into DIR
grade_all() {
	dir=$1
	want=$2
	sub=$3
	mkdir -p "$dir"
	: >"$dir/summary.md"
	expect "grade $sub, eight formats at once" "$want" \
		env GITHUB_STEP_SUMMARY="$dir/summary.md" "$GRADER" --cache "$cache" --format text:"$dir/text" --format json:"$dir/json" \
		--format gradescope:"$dir/gradescope.json" --format junit:"$dir/junit.xml" --format tap:"$dir/tap" \
		--format github:"$dir/github" --format markdown:"$dir/markdown" \
		--format prairielearn:"$dir/prairielearn.json" "$sub"
}

# ---- a submission where much goes wrong ----
mixed=tests/reports/fixtures/mixed
grade_all "$tmp/mixed" 1 "$mixed"
# (--no-growth here and below where a grading of mixed is not checked for its growth line: p3's time
# limits would start a measurement of 3-4 s of CPU each time; grade_all's run above is checked for it)
expect "instructor view of the same (--show-hidden)" 1 \
	"$GRADER" --cache "$cache" --no-growth --show-hidden --format json:"$tmp/mixed/hidden.json" \
	--format junit:"$tmp/mixed/hidden.xml" "$mixed"
python3 tests/reports/check.py mixed "$tmp/mixed" >"$tmp/check.out" 2>&1 || true
tally "$tmp/check.out"
grep -q '^ok   text: summary' "$tmp/check.out" || { not_ok "check.py mixed did not finish"; cat "$tmp/check.out" | tail -5; }

if xmllint --noout "$tmp/mixed/junit.xml" 2>"$tmp/last.err"; then ok "xmllint: mixed junit is well-formed"; else fail "xmllint: mixed junit"; fi
# wrong answers, a compile error, crashes, time limits, a missing file, hidden groups as counts
xsd "mixed junit, the student's view" "$tmp/mixed/junit.xml"
xsd "mixed junit, the instructor's view (--show-hidden: every hidden test listed)" "$tmp/mixed/hidden.xml"
# ...and Jenkins would have refused what this writer wrote before (skipped,
# score, max_score on <testsuites>, file on <testcase>): the schema is strict
sed 's/<testsuites name="grader"/<testsuites name="grader" skipped="0"/' "$tmp/mixed/junit.xml" >"$tmp/bad.xml"
if ! xmllint --noout --schema tests/reports/xunit/junit-10.xsd "$tmp/bad.xml" 2>/dev/null; then
	ok "junit-10.xsd: refuses an attribute it does not name (skipped on <testsuites>)"
else
	fail "junit-10.xsd: accepted skipped on <testsuites>"
fi
plcheck mixed "$tmp/mixed/prairielearn.json" "$tmp/mixed/json"
# a test point per listed test, one per hidden group
points=$(python3 -c 'import json,sys; r = json.load(open(sys.argv[1])); print(sum(len(p["tests"]) + sum(not g["listed"] for g in p["groups"]) for p in r["problems"]))' "$tmp/mixed/json")
if perl tests/reports/tap-check.pl "$tmp/mixed/tap" "$points" >"$tmp/last.err" 2>&1; then
	ok "TAP::Parser: mixed tap parses, plan matches ($points points), YAML diagnostics on every failure"
else
	fail "TAP::Parser: mixed tap"
fi
prove -e cat "$tmp/mixed/tap" >"$tmp/prove.out" 2>&1
rc=$?
if [ "$rc" -ne 0 ] && grep -q '^Result: FAIL' "$tmp/prove.out" && ! grep -q 'Parse errors' "$tmp/prove.out"; then
	ok "prove: mixed tap fails cleanly (no parse errors)"
else
	cp "$tmp/prove.out" "$tmp/last.err"
	fail "prove: mixed tap (exit $rc)"
fi

# text on a terminal-less stdout: no colour; --color always: colour; NO_COLOR honoured
"$GRADER" --cache "$cache" --only p1 "$mixed" >"$tmp/plain.txt" 2>"$tmp/last.err"
if clean_stderr && ! grep -q "$(printf '\033')" "$tmp/plain.txt" && grep -q '^Total:' "$tmp/plain.txt"; then ok "text: piped, no colour"; else fail "text: piped"; fi
"$GRADER" --cache "$cache" --only p1 --color always "$mixed" >"$tmp/colour.txt" 2>"$tmp/last.err"
if clean_stderr && grep -q "$(printf '\033')\[31m" "$tmp/colour.txt"; then ok "text: --color always colours"; else fail "text: --color always"; fi
# on a terminal (script(1) gives it one): colour, unless NO_COLOR
if command -v script >/dev/null 2>&1; then
	script -qec "\"$GRADER\" --cache \"$cache\" --only p4 $mixed 2>/dev/null" /dev/null >"$tmp/tty.txt" 2>&1
	NO_COLOR=1 script -qec "\"$GRADER\" --cache \"$cache\" --only p4 $mixed 2>/dev/null" /dev/null >"$tmp/nocolour.txt" 2>&1
	: >"$tmp/last.err"
	if grep -q "$(printf '\033')\[" "$tmp/tty.txt" && grep -q '^Total:' "$tmp/nocolour.txt" &&
		! grep -q "$(printf '\033')" "$tmp/nocolour.txt"; then
		ok "text: colour on a terminal, none with NO_COLOR"
	else
		fail "text: terminal colours / NO_COLOR"
	fi
fi
# the same format twice (two files) works and agrees
expect "the same format twice in one run" 1 "$GRADER" --cache "$cache" --only p4 \
	--format junit:"$tmp/j1.xml" --format junit:"$tmp/j2.xml" "$mixed"
if cmp -s "$tmp/j1.xml" "$tmp/j2.xml" && xmllint --noout "$tmp/j1.xml" 2>"$tmp/last.err"; then ok "junit twice: identical, well-formed"; else fail "junit twice"; fi
# one problem at a time: each of the problem set's, in C
for p in p1 p2 p3 p4 p4_dp; do
	"$GRADER" --cache "$cache" --no-growth --only "$p" --format junit:"$tmp/only-$p.xml" "$mixed" >/dev/null 2>"$tmp/last.err"
	xsd "--only $p of mixed" "$tmp/only-$p.xml"
done

# ---- hidden tests do not leak through verdicts, times, memory, output or order ----
# fixtures/leak: a/ and b/ pass as many hidden tests but fail different ones in
# different ways; graded from the same folder, their student reports must match
# (views.py), while --show-hidden tells them apart.
leak=tests/reports/fixtures/leak
for s in a b; do
	mkdir -p "$tmp/leak-sub" "$tmp/leak-$s"
	cp "$leak/$s/leak.c" "$tmp/leak-sub/leak.c"
	d=$tmp/leak-$s
	expect "leak/$s: every format of the student's view" 1 \
		"$GRADER" --problems "$leak/problems" --reference "$leak/reference" --cache "$cache" \
		--format text:"$d/text" --format json:"$d/json" --format gradescope:"$d/gradescope.json" \
		--format junit:"$d/junit.xml" --format tap:"$d/tap" --format github:"$d/github" \
		--format markdown:"$d/markdown" --format prairielearn:"$d/prairielearn.json" "$tmp/leak-sub"
	expect "leak/$s: the instructor's view (--show-hidden)" 1 \
		"$GRADER" --problems "$leak/problems" --reference "$leak/reference" --cache "$cache" --show-hidden \
		--format json:"$d/hidden.json" --format junit:"$d/hidden.xml" "$tmp/leak-sub"
	if xmllint --noout "$d/junit.xml" 2>"$tmp/last.err" && perl tests/reports/tap-check.pl "$d/tap" 6 >"$tmp/last.err" 2>&1; then
		ok "leak/$s: junit well-formed (xmllint), tap parses with 6 points (4 tests, 2 hidden groups)"
	else
		fail "leak/$s: junit or tap"
	fi
	xsd "leak/$s, the student's view" "$d/junit.xml"
	xsd "leak/$s, the instructor's view" "$d/hidden.xml"
done
python3 tests/reports/views.py leak "$tmp/leak-a" "$tmp/leak-b" >"$tmp/check.out" 2>&1 || true
tally "$tmp/check.out"
grep -q '^ok   leak: --show-hidden shows' "$tmp/check.out" || { not_ok "views.py leak did not finish"; tail -5 "$tmp/check.out"; }

# ---- a hidden group first in the file: its inputs cannot reach a later public test's output ----
order=tests/reports/fixtures/order
for j in 1 2; do
	expect "order -j $j: a submission that carries hidden inputs over to later tests" 0 \
		"$GRADER" --problems "$order/problems" --reference "$order/reference" --cache "$cache" -j "$j" \
		--format json:"$tmp/order-$j.json" --format text:"$tmp/order-$j.txt" "$order/carry"
	if ! grep -q 4242424 "$tmp/order-$j.json" "$tmp/order-$j.txt" &&
		python3 -c 'import json,sys; r = json.load(open(sys.argv[1])); sys.exit(not [t for t in r["problems"][0]["tests"] if t["visibility"] == "public"])' "$tmp/order-$j.json"; then
		ok "order -j $j: public tests ran before the hidden ones: no hidden input in the student's reports"
	else
		fail "order -j $j: a hidden input reached the student's report"
	fi
done

# ---- the output budget: 4 KiB printed in each of 2000 tests ----
loud=tests/reports/fixtures/loud
for s in loud quiet; do
	mkdir -p "$tmp/loud-sub" "$tmp/loud-$s"
	cp "$loud/$s/loud.c" "$tmp/loud-sub/loud.c"
	d=$tmp/loud-$s
	expect "loud/$s: every format" 1 \
		"$GRADER" --problems "$loud/problems" --reference "$loud/reference" --cache "$cache" \
		--format text:"$d/text" --format json:"$d/json" --format gradescope:"$d/gradescope.json" \
		--format junit:"$d/junit.xml" --format tap:"$d/tap" --format github:"$d/github" \
		--format markdown:"$d/markdown" --format prairielearn:"$d/prairielearn.json" "$tmp/loud-sub"
done
xsd "loud (2000 tests printing 4 KiB each)" "$tmp/loud-loud/junit.xml"
if xmllint --noout "$tmp/loud-loud/junit.xml" 2>"$tmp/last.err" &&
	perl tests/reports/tap-check.pl "$tmp/loud-loud/tap" 2000 >"$tmp/last.err" 2>&1; then
	ok "loud: junit well-formed (xmllint), tap parses (TAP::Parser)"
else
	fail "loud: junit or tap"
fi
python3 tests/reports/views.py budget "$tmp/loud-loud" "$tmp/loud-quiet" >"$tmp/check.out" 2>&1 || true
tally "$tmp/check.out"
grep -q '^ok   budget: markdown: says' "$tmp/check.out" || { not_ok "views.py budget did not finish"; tail -5 "$tmp/check.out"; }

# ---- full marks: a copy of the reference as a submission ----
mkdir -p "$tmp/ref-submission"
cp reference/*.c "$tmp/ref-submission/"
grade_all "$tmp/full" 0 "$tmp/ref-submission"
python3 tests/reports/check.py full "$tmp/full" >"$tmp/check.out" 2>&1 || true
tally "$tmp/check.out"
grep -q '^ok   github: no error annotation' "$tmp/check.out" || { not_ok "check.py full did not finish"; tail -5 "$tmp/check.out"; }
if xmllint --noout "$tmp/full/junit.xml" 2>"$tmp/last.err"; then ok "xmllint: full junit is well-formed"; else fail "xmllint: full junit"; fi
xsd "full marks" "$tmp/full/junit.xml"
plcheck full "$tmp/full/prairielearn.json" "$tmp/full/json"
if prove -e cat "$tmp/full/tap" >"$tmp/last.err" 2>&1 && grep -q '^Result: PASS' "$tmp/last.err"; then
	ok "prove: full-marks tap passes"
else
	fail "prove: full-marks tap"
fi
: >"$tmp/last.err"
if grep -Eq '^Total: ([0-9.]+) / \1 ' "$tmp/full/text"; then ok "text: full marks"; else fail "text: full marks"; fi

# ---- the examples of docs/reports.md and README.md: what the grader prints for fixtures/readme ----
d=$tmp/readme
mkdir -p "$d"
expect "grade fixtures/readme (the README's example), every format it shows" 1 \
	"$GRADER" --cache "$cache" --only p1 --format text:"$d/text" --format json:"$d/json" \
	--format gradescope:"$d/gradescope.json" --format junit:"$d/junit.xml" --format tap:"$d/tap" \
	--format github:"$d/github" --format prairielearn:"$d/prairielearn.json" tests/reports/fixtures/readme
for doc in docs/reports.md "--front README.md"; do
	# shellcheck disable=SC2086 # "--front README.md" is two words on purpose
	python3 tests/reports/readme.py $doc "$d" >"$tmp/check.out" 2>&1 || true
	tally "$tmp/check.out"
	grep -q '^ok   readme: an example of every format' "$tmp/check.out" || { not_ok "readme.py $doc did not finish"; tail -5 "$tmp/check.out"; }
done

# ---- Gradescope: run_autograder on a fake /autograder ----
# Gradescope runs setup.sh (a build of the grader from the zip, a cold selftest) and run_autograder
# as root in its image: in the main run only, not again in tools/run-unprivileged.sh's [user] pass
# (about 100 s of CPU there: the build, the cold reference, the Python reference graded)
if [ -z "${GRADER_EXPECT_LEVEL:-}" ]; then
	ag=$tmp/autograder
	mkdir -p "$ag/source/bin" "$ag/submission/nested/deeper"
	ln -s "$GRADER" "$ag/source/bin/grader"
	ln -s "$top/problems" "$ag/source/problems"
	ln -s "$top/reference" "$ag/source/reference"
	ln -s "$cache" "$ag/source/cache"
	cp "$mixed"/*.c "$ag/submission/nested/"
	cp reference/p4.c "$ag/submission/nested/deeper/p4.c" # deeper: the shallower p4.c wins
	expect "gradescope: run_autograder" 0 env AUTOGRADER_ROOT="$ag" dist/gradescope/run_autograder >"$tmp/ag.out"
	if python3 - "$ag/results/results.json" "$tmp/mixed/gradescope.json" >"$tmp/last.err" 2>&1 <<'EOF'; then
import json, sys
got, want = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert abs(got["score"] - want["score"]) < 1e-6, (got["score"], want["score"])
assert [t["name"] for t in got["tests"]] == [t["name"] for t in want["tests"]]
assert got["stdout_visibility"] == "hidden"
EOF
		ok "gradescope: run_autograder wrote results.json (same score as the direct run)"
	else
		fail "gradescope: run_autograder results.json"
	fi

	# ...and a Python submission, in a folder of the upload, with the course's
	# capitalised names (P1.py ... P4_DP.py): every problem graded in Python, full marks
	rm -rf "$ag/submission" "$ag/results"
	mkdir -p "$ag/submission/mine"
	for f in reference/python/*.py; do
		cp "$f" "$ag/submission/mine/$(basename "$f" .py | tr 'a-z' 'A-Z').py"
	done
	expect "gradescope: run_autograder, Python" 0 env AUTOGRADER_ROOT="$ag" dist/gradescope/run_autograder >"$tmp/ag-py.out"
	if python3 - "$ag/results/results.json" >"$tmp/last.err" 2>&1 <<'EOF'; then
import json, sys
r = json.load(open(sys.argv[1]))
assert r["tests"] and all(t["status"] == "passed" for t in r["tests"]), [t["name"] for t in r["tests"] if t["status"] != "passed"]
assert abs(r["score"] - sum(t["max_score"] for t in r["tests"])) < 1e-6, r["score"]
EOF
		ok "gradescope: run_autograder grades P1.py ... P4_DP.py: every test passed, full score"
	else
		fail "gradescope: run_autograder results.json for Python"
	fi

	# ...and the zip itself, as Gradescope uses it: tools/gradescope-zip.sh,
	# unpacked into a fake root's source/, setup.sh (AUTOGRADER_ROOT: nothing
	# to install here, so no root and no network; builds bin/grader and fills
	# the cache with selftest), then run_autograder on the README's example
	zroot=$tmp/zroot
	mkdir -p "$zroot/source" "$zroot/submission"
	if tools/gradescope-zip.sh "$tmp/autograder.zip" >/dev/null 2>"$tmp/last.err" &&
		python3 - "$tmp/autograder.zip" "$zroot/source" 2>"$tmp/last.err" <<'EOF'; then
import os, sys, zipfile
# as unzip does: the files and their mode bits (setup.sh, run_autograder, tools/*.sh are executable)
with zipfile.ZipFile(sys.argv[1]) as z:
    for info in z.infolist():
        path = z.extract(info, sys.argv[2])
        mode = info.external_attr >> 16
        if mode:
            os.chmod(path, mode & 0o777)
EOF
		ok "gradescope: the zip unpacks into a fake /autograder/source"
	else
		fail "gradescope: making or unpacking the zip"
	fi
	expect "gradescope: setup.sh in the fake root (AUTOGRADER_ROOT)" 0 \
		env AUTOGRADER_ROOT="$zroot" "$zroot/source/setup.sh" >"$tmp/setup.out"
	if [ -x "$zroot/source/bin/grader" ] && [ -n "$(ls "$zroot/source/cache" 2>/dev/null)" ] &&
		grep -q '^selftest passed' "$tmp/setup.out"; then
		ok "gradescope: setup.sh built the grader and filled the cache inside the fake root only"
	else
		cp "$tmp/setup.out" "$tmp/last.err"
		fail "gradescope: setup.sh in the fake root"
	fi
	cp tests/reports/fixtures/readme/p1.c "$zroot/submission/p1.c"
	expect "gradescope: run_autograder with setup.sh's grader" 0 env AUTOGRADER_ROOT="$zroot" "$zroot/source/run_autograder" >"$tmp/ag-z.out"
	if python3 - "$zroot/results/results.json" >"$tmp/last.err" 2>&1 <<'EOF'; then
import json, sys
r = json.load(open(sys.argv[1]))
p1 = [t for t in r["tests"] if t["name"].startswith("p1 ")]
# the README's figures for this file: 19.8 of p1's 25.2 points, nothing else handed in
assert abs(sum(t["score"] for t in p1) - 19.8) < 1e-6 and abs(r["score"] - 19.8) < 1e-6, r["score"]
assert abs(sum(t["max_score"] for t in p1) - 25.2) < 1e-6
EOF
		ok "gradescope: the zip grades the README's p1 example: 19.8 of 25.2"
	else
		fail "gradescope: the zip's results.json"
	fi
fi

# ---- PrairieLearn: dist/prairielearn/grade.sh on a fake /grade ----
# GRADE_ROOT stands for /grade; the grader, problems, reference and cache
# are given through the script's environment as info.json would.
pl_run() { # pl_run NAME WANT_EXIT [VAR=VALUE...]: grade.sh on $gr with this environment
	name=$1
	want=$2
	shift 2
	rm -rf "$gr/results"
	expect "prairielearn: grade.sh, $name" "$want" env GRADE_ROOT="$gr" COMBGRADER="$GRADER" COMBGRADER_CACHE="$cache" \
		COMBGRADER_PROBLEMS="$top/problems" COMBGRADER_REFERENCE="$top/reference" "$@" dist/prairielearn/grade.sh >"$tmp/pl.out"
}
gr=$tmp/grade
mkdir -p "$gr/student/upload" "$gr/data" "$gr/tests" "$gr/serverFilesCourse"
echo '{"params": {}, "submitted_answers": {}}' >"$gr/data/data.json"
cp "$mixed"/*.c "$gr/student/upload/"
pl_run "fixtures/mixed in a folder" 0
plcheck mixed "$gr/results/results.json" "$tmp/mixed/json"
# (the figures, not the words: a loop's message depends on how busy the machine was)
if python3 - "$gr/results/results.json" "$tmp/mixed/prairielearn.json" >"$tmp/last.err" 2>&1 <<'EOF'; then
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
fig = lambda r: (r["gradable"], r["score"], r.get("format_errors"),
                 [(t["name"], t["points"], t["max_points"], t["message"]) for t in r["tests"]])
assert fig(a) == fig(b), (fig(a), fig(b))
EOF
	ok "prairielearn: grade.sh wrote the same results as --format prairielearn (scores, tests, compiler message)"
else
	fail "prairielearn: grade.sh's results differ from the direct run's"
fi
pl_run "one question per problem (COMBGRADER_ONLY=p1)" 0 COMBGRADER_ONLY=p1
"$GRADER" --cache "$cache" --only p1 --format json:"$tmp/mixed-p1.json" "$mixed" >/dev/null 2>&1
plcheck only-p1 "$gr/results/results.json" "$tmp/mixed-p1.json"
rm -rf "$gr/student"
mkdir -p "$gr/student"
cp "$mixed/p2.c" "$gr/student/p2.c"
pl_run "only a p2.c that does not compile" 0 COMBGRADER_ONLY=p2
plcheck compile-error "$gr/results/results.json"
pl_run "the grader itself fails (COMBGRADER=false)" 0 COMBGRADER=false
plcheck failed "$gr/results/results.json"
rm -rf "$gr/student"
mkdir -p "$gr/student"
cp reference/python/*.py "$gr/student/"
# (p1 and p4: every file is copied and picked all the same; grading all five problems in Python,
# twice, took 30 s of CPU and checked nothing more)
pl_run "the Python reference (COMBGRADER_ONLY=p1,p4)" 0 COMBGRADER_ONLY=p1,p4
"$GRADER" --cache "$cache" --only p1,p4 --format json:"$tmp/py-ref.json" reference/python >/dev/null 2>&1
plcheck full "$gr/results/results.json" "$tmp/py-ref.json"
# the question's info.json: valid JSON, the documented externalGradingOptions, pointing at this script
if python3 - dist/prairielearn/info.json >"$tmp/last.err" 2>&1 <<'EOF'; then
import json, os, sys
o = json.load(open(sys.argv[1]))["externalGradingOptions"]
assert o["enabled"] is True and isinstance(o["image"], str) and 0 < o["timeout"] <= 600, o
assert o["entrypoint"] == "/grade/serverFilesCourse/" + o["serverFilesCourse"][0] + "grade.sh", o["entrypoint"]
assert os.path.exists(os.path.join("problems", o["environment"]["COMBGRADER_ONLY"] + ".yaml")), o["environment"]
EOF
	ok "prairielearn: info.json's externalGradingOptions point at grade.sh and a real problem"
else
	fail "prairielearn: info.json"
fi

# ---- GitHub: at most 10 annotations per level; GitHub Classroom's result ----
# (issue 14, item 3; gh_classroom.py) GitHub shows at most 10 error
# annotations per step: the untouched template (every problem failing) gets
# at most 10 ::error lines, every failing problem among them, and a last
# ::notice saying how many were left out; --format classroom is the base64
# JSON of GitHub Classroom's autograding-grading-reporter, one test per
# problem, its scores adding up to the JSON report's.  The same on mixed.
d=$tmp/template
mkdir -p "$d"
: >"$d/summary.md"
expect "grade student_template: github, classroom, json" 1 \
	env GITHUB_STEP_SUMMARY="$d/summary.md" "$GRADER" --cache "$cache" --format github:"$d/github" \
	--format classroom:"$d/classroom" --format json:"$d/json" student_template
expect "grade $mixed: classroom" 1 "$GRADER" --cache "$cache" --no-growth --format classroom:"$tmp/mixed/classroom" "$mixed"
for s in student_template mixed; do
	[ "$s" = mixed ] && d=$tmp/mixed
	python3 tests/reports/gh_classroom.py "$s" "$d" >"$tmp/check.out" 2>&1 || true
	tally "$tmp/check.out"
	grep -q "^ok   $s: classroom: a test passes" "$tmp/check.out" || { not_ok "gh_classroom.py $s did not finish"; tail -5 "$tmp/check.out"; }
done

finish
