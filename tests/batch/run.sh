#!/bin/sh
# tests/batch/run.sh - `grader batch` and `grader merge` end to end:
#   a mixed class graded row by row (folders, archives, malicious archives,
#   endless and hostile code), --resume after SIGKILL (byte-identical
#   grades.csv), shards 1/2 + 2/2 merged == one run, a crashing and a hung
#   worker, the HTML summary (headless Chromium when present), one run
#   on the real problems/, and LMS downloads (Canvas, Moodle, Gradescope:
#   tests/batch/make-lms.py builds them, check-lms.py reads the import files
#   back cell by cell) with resume, shards, the CSV formula guard and the
#   classes in which no student is found.
# Uses $GRADER (default: the ASan build).  Prints one line per check and
# "N passed, M failed"; exits 0 when green.
#
# Hostile submissions run only inside a throwaway PID namespace: the script
# re-executes itself under `unshare --pid --fork --mount-proc` (root).  It
# signals only processes it started itself.
set -u
cd "$(dirname "$0")/../.."
ROOT=$PWD
: "${GRADER:=$ROOT/build/asan/grader}"
export GRADER

if [ -z "${BATCH_TEST_IN_NS:-}" ]; then
	if [ "$(id -u)" = 0 ] && unshare --pid --fork --mount-proc true 2>/dev/null; then
		BATCH_TEST_IN_NS=1 exec unshare --pid --fork --mount-proc "$0" "$@"
	fi
	echo "note: no PID namespace available (needs root): the hostile submission is left out"
	BATCH_HOSTILE=0
fi
export BATCH_HOSTILE="${BATCH_HOSTILE:-1}"

T=$(mktemp -d "${TMPDIR:-/tmp}/batch-test.XXXXXX")
bg_pid=
cleanup() {
	# only what this script started: the background grader (its process group)
	if [ -n "$bg_pid" ]; then
		kill -s KILL -- "-$bg_pid" 2>/dev/null
		wait "$bg_pid" 2>/dev/null
	fi
	if [ -n "${KEEP:-}" ]; then echo "kept $T"; else rm -rf "$T"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - $1"; }
bad() { failed=$((failed + 1)); echo "FAIL - $1"; }
check() { # check NAME COMMAND...
	name=$1
	shift
	if "$@"; then ok "$name"; else bad "$name"; fi
}
no_sanitizer_errors() { ! grep -qE "ERROR: (Address|Leak)Sanitizer|runtime error:" "$@"; }

mkdir "$T/tmp"
chmod 711 "$T" "$T/tmp"   # the sandboxed compiler (nobody) must reach its scratch space
export TMPDIR="$T/tmp"   # the graders' scratch space, checked for leftovers
SMALL="--problems tests/batch/problems --reference tests/batch/reference --cache $T/cache"
export GRADER_BATCH_TIMEOUT= GRADER_TEST_BATCH_CRASH=

python3 tests/batch/make-class.py "$T/class" || { echo "FAIL - cannot build the class"; exit 1; }

# ---- 1. the whole class, row by row ----
"$GRADER" batch "$T/class" -o "$T/full" $SMALL -j 2 >"$T/full.out" 2>"$T/full.err"
rc=$?
check "batch exits 1 when some students could not be graded (rc=$rc)" [ "$rc" -eq 1 ]
check "no sanitizer reports (full run)" no_sanitizer_errors "$T/full.err"
check "notes.txt ignored with a warning" grep -q "ignoring .*notes.txt" "$T/full.err"
# what a class run cannot enforce is said once: nothing as root; as a normal
# user the uid note, or the fallback's warning where namespaces are refused
notes=$(grep -cE "every submission runs as your own uid|without full isolation" "$T/full.err")
if [ "$(id -u)" = 0 ]; then want_notes=0; else want_notes=1; fi
check "what the sandbox cannot enforce for a class is said $want_notes time(s) (got $notes)" [ "$notes" -eq "$want_notes" ]
check "plain progress lines when stderr is not a terminal" grep -qE '^grader: \[[0-9]+/[0-9]+\] alice: 13/13 ok' "$T/full.err"

python3 - "$T/full" <<'EOF' > "$T/rows.out" 2>&1
import csv, json, os, sys
out = sys.argv[1]
hostile = os.environ.get("BATCH_HOSTILE") == "1"
expected = {
    # id: (parity, sum, total, status, prefix-match?)
    "alice": ("5", "8", "13", "ok"),
    "pablo": ("5", "8", "13", "ok"),
    "pat": ("5", "8", "13", "ok"),
    "polly": ("5", "0", "5", "compile-error: sum"),
    "priya": ("0", "8", "8", "ok"),
    "bob": ("2", "0", "2", "ok"),
    "carol": ("5", "0", "5", "compile-error: sum"),
    "dave": ("0", "8", "8", "missing: parity.c"),
    "erin": ("0", "0", "0", "ok"),
    "frank": ("5", "8", "13", "ok"),
    "grace": ("5", "8", "13", "ok"),
    "heidi": ("5", "8", "13", "ok"),
    "mallory": ("", "", "", "error: archive rejected: entry '../escaped-by-mallory.c' has a '..' path"),
    "mike": ("", "", "", "error: archive rejected: 'null' is a device or special file"),
    "oscar": ("", "", "", "error: archive rejected: symbolic link 'sum.c' points out of the folder"),
    "peggy": ("", "", "", "error: more than one submission: 'peggy', 'peggy.zip'"),
    'quinn, "q"': ("5", "8", "13", "ok"),
    "sybil": ("", "", "", "error: archive rejected: hard link 'sum.c' points out of the folder"),
    "trudy": ("", "", "", "error: archive rejected: it expands to more than 64 MiB"),
    "ursula": ("", "", "", "error: archive rejected: it expands to more than 64 MiB"),
    "walter": ("", "", "", "error: archive rejected: entry '/tmp/escaped-by-walter.c' has an absolute path"),
}
if hostile:
    expected["zed"] = ("0", "0", "0", "ok")
raw = open(os.path.join(out, "grades.csv"), "rb").read()
fails = 0
def check(name, cond):
    global fails
    print(("ok - " if cond else "FAIL - ") + name)
    fails += not cond
check("grades.csv lines end with CRLF (RFC 4180)", raw.count(b"\r\n") == raw.count(b"\n") and raw.endswith(b"\r\n"))
check("quoted id in grades.csv", b'"quinn, ""q""",5,8,13,13,ok\r\n' in raw)
rows = list(csv.reader(raw.decode().splitlines()))
check("header", rows[0] == ["id", "parity", "sum", "total", "max", "status"])
ids = [r[0] for r in rows[1:]]
check("one row per student, sorted by id", ids == sorted(expected) and ids == sorted(ids))
for r in rows[1:]:
    e = expected.get(r[0])
    if e is None:
        check("row %s expected" % r[0], False)
        continue
    got = (r[1], r[2], r[3], r[5])
    check("row %-12s %s" % (r[0], r[5]), got == e and r[4] == "13")
    if got != e:
        print("   got %r, expected %r" % (got, e))
    graded = e[0] != ""
    j = os.path.join(out, "students", r[0] + ".json")
    t = os.path.join(out, "students", r[0] + ".txt")
    if graded:
        rep = json.load(open(j))
        check("students/%s.json is the report (score %s)" % (r[0], rep["score"]),
              abs(rep["score"] - float(e[2])) < 1e-9 and [p["id"] for p in rep["problems"]] == ["parity", "sum"]
              and rep["submission"].startswith(os.path.dirname(out)))
        txt = open(t, "rb").read()
        check("students/%s.txt has no colour" % r[0], b"\x1b[" not in txt and len(txt) > 0)
    else:
        check("no report files for %s" % r[0], not os.path.exists(j) and not os.path.exists(t))
    st = json.load(open(os.path.join(out, "state", r[0] + ".json")))
    check("state/%s.json: fingerprint and status" % r[0], len(st["fingerprint"]) == 64 and st["status"] == e[3])
sys.exit(1 if fails else 0)
EOF
rc=$?
cat "$T/rows.out"
passed=$((passed + $(grep -c '^ok - ' "$T/rows.out")))
failed=$((failed + $(grep -c '^FAIL - ' "$T/rows.out")))
check "no file escaped from the malicious archives" sh -c \
	"! find '$T' /tmp -maxdepth 3 -name 'escaped-by-*' 2>/dev/null | grep -q ."
check "scratch space cleaned up" sh -c "[ -z \"\$(ls -A '$T/tmp')\" ]"

# ---- 2. --resume of a finished batch does nothing and changes nothing ----
cp "$T/full/grades.csv" "$T/grades.full.csv"
"$GRADER" batch "$T/class" -o "$T/full" $SMALL --resume -j 2 2>"$T/resume0.err"
check "resume of a finished batch grades nobody" grep -q "2[12] already graded: grading 0" "$T/resume0.err"
check "resume of a finished batch: same grades.csv" cmp "$T/full/grades.csv" "$T/grades.full.csv"

# ---- 3. SIGKILL midway, then --resume: byte-identical gradebook ----
setsid "$GRADER" batch "$T/class" -o "$T/killed" $SMALL -j 1 >/dev/null 2>"$T/killed.err" &
bg_pid=$!
n=0
while [ "$(ls "$T/killed/state" 2>/dev/null | grep -c '\.json$')" -lt 5 ] && [ $n -lt 600 ]; do
	sleep 0.1
	n=$((n + 1))
done
graded_before=$(ls "$T/killed/state" 2>/dev/null | grep -c '\.json$')
pgid=$(awk '{print $5}' "/proc/$bg_pid/stat" 2>/dev/null)
if [ "$pgid" = "$bg_pid" ]; then
	kill -s KILL -- "-$bg_pid"
	wait "$bg_pid" 2>/dev/null
	bg_pid=
	ok "SIGKILLed the batch's process group after $graded_before students"
else
	bad "the background batch is not a process group leader (pgid=$pgid)"
fi
sleep 0.5
survivors() { # processes (not this test's) whose command line mentions $1
	PATTERN=$1 python3 -c '
import os, sys
me, hits = os.getpid(), []
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        cmd = open("/proc/%s/cmdline" % pid, "rb").read()
    except OSError:
        continue
    if int(pid) != me and os.environ["PATTERN"].encode() in cmd:
        hits.append(pid)
hits and print("survivors:", " ".join(hits))
sys.exit(1 if hits else 0)'
}
check "no grader process of the killed batch survives" survivors "$T/killed"
check "no gradebook after a kill" [ ! -e "$T/killed/grades.csv" ]
"$GRADER" batch "$T/class" -o "$T/killed" $SMALL -j 2 --resume >/dev/null 2>"$T/resume.err"
check "resume reports the students already graded" grep -q "already graded" "$T/resume.err"
check "killed + resumed grades.csv == uninterrupted run, byte for byte" cmp "$T/killed/grades.csv" "$T/grades.full.csv"
check "killed + resumed summary.html == uninterrupted run" cmp "$T/killed/summary.html" "$T/full/summary.html"
check "no write_file_atomic leftovers" sh -c "! ls '$T/killed/state' '$T/killed/students' | grep -q '\.tmp\.'"

# ---- 4. shards 1/2 and 2/2, merged == one run ----
"$GRADER" batch "$T/class" -o "$T/s1" $SMALL --shard 1/2 -j 1 >/dev/null 2>"$T/s1.err" &
p1=$!
"$GRADER" batch "$T/class" -o "$T/s2" $SMALL --shard 2/2 -j 1 >/dev/null 2>"$T/s2.err"
wait $p1
n1=$(($(wc -l <"$T/s1/grades.csv") - 1))
n2=$(($(wc -l <"$T/s2/grades.csv") - 1))
nall=$(($(wc -l <"$T/grades.full.csv") - 1))
check "shards split the class ($n1 + $n2 = $nall)" [ $((n1 + n2)) -eq "$nall" -a "$n1" -gt 0 -a "$n2" -gt 0 ]
"$GRADER" merge "$T/s1" -o "$T/m0" 2>"$T/m0.err"
rc=$?
check "merge refuses a missing shard (rc=$rc)" sh -c "[ $rc -eq 2 ] && grep -q 'shard 2/2 is missing' '$T/m0.err'"
"$GRADER" merge "$T/s2" "$T/s1" -o "$T/merged" 2>"$T/merge.err"
rc=$?
check "merge exit status matches batch (rc=$rc)" [ "$rc" -eq 1 ]
check "merged grades.csv == single run" cmp "$T/merged/grades.csv" "$T/grades.full.csv"
check "merged summary.html == single run" cmp "$T/merged/summary.html" "$T/full/summary.html"
check "merged batch.json == single run" cmp "$T/merged/batch.json" "$T/full/batch.json"
check "merged students/ has the same files" sh -c "[ \"\$(ls '$T/merged/students')\" = \"\$(ls '$T/full/students')\" ]"
check "no sanitizer reports (resume, shards, merge)" no_sanitizer_errors "$T/resume.err" "$T/s1.err" "$T/s2.err" "$T/merge.err"

# ---- 5. the HTML summary ----
python3 - "$T/full/summary.html" <<'EOF'
import sys
from html.parser import HTMLParser
VOID = {"meta", "br", "img", "hr", "input", "link", "rect", "line"}
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.errors, self.tags, self.text = [], [], set(), []
    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        for k, v in attrs:
            # links to the students' reports (relative) are fine; nothing may be loaded or leave the folder
            local = k == "href" and v and v.startswith("students/") and ":" not in v and ".." not in v
            if (k in ("src", "href") and not local) or (v and ("http://" in v or "https://" in v) and k != "xmlns"):
                self.errors.append("external reference %s=%s" % (k, v))
        if tag not in VOID:
            self.stack.append(tag)
    def handle_startendtag(self, tag, attrs):
        self.tags.add(tag)
    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("unbalanced </%s> (open: %s)" % (tag, self.stack[-3:]))
        else:
            self.stack.pop()
    def handle_data(self, d):
        self.text.append(d)
p = P()
src = open(sys.argv[1], encoding="utf-8").read()
p.feed(src)
p.close()
text = "".join(p.text)
problems = list(p.errors)
if p.stack:
    problems.append("unclosed: %s" % p.stack)
for need in ("svg", "rect", "table", "style", "pre"):
    if need not in p.tags:
        problems.append("no <%s>" % need)
for words in ("Score distribution", "Tests most students fail", "Compile errors (2)", "carol", "Not graded (8)",
              "expands to more than 64 MiB", "more than one submission: 'peggy', 'peggy.zip'"):
    if words not in text:
        problems.append("missing text %r" % words)
for m in __import__("re").finditer(r"<script[^>]*>", src):
    if m.group(0) != "<script>":
        problems.append("a script that is not inline: %s" % m.group(0))
print("\n".join(problems) if problems else "html ok")
sys.exit(1 if problems else 0)
EOF
check "summary.html: well formed, self-contained, has histogram, rates, compile errors" [ $? -eq 0 ]
NO_INSTALL=1 tools/render-summary.sh "$T/full/summary.html" "$T/summary.png" >"$T/render.out" 2>&1
rc=$?
if [ $rc -eq 77 ]; then
	echo "note: chromium is not installed: summary.html validated with python3's html.parser only"
else
	check "summary.html renders in headless Chromium ($(cat "$T/render.out" | tail -n 1))" [ $rc -eq 0 ]
fi

# ---- 6. a worker that crashes, a student that exceeds the deadline ----
mkdir -p "$T/class2/sid"
cp -r "$T/class/alice" "$T/class2/alice"
cp -r "$T/class/alice" "$T/class2/victor"
cp tests/batch/fixtures/sleeping/*.c "$T/class2/sid/"
GRADER_TEST_BATCH_CRASH=victor GRADER_BATCH_TIMEOUT=4 \
	"$GRADER" batch "$T/class2" -o "$T/out2" $SMALL -j 1 >/dev/null 2>"$T/out2.err"
rc=$?
check "crash/deadline batch finishes with rc=1 (rc=$rc)" [ "$rc" -eq 1 ]
check "a crashed worker gives its student a row with the reason" \
	grep -q '^victor,,,,13,error: the grader.s worker died while grading this student (killed by signal 9' "$T/out2/grades.csv"
check "a student over the deadline gets a row with the reason" \
	grep -q '^sid,,,,13,error: grading took longer than the per-student deadline of 4 s' "$T/out2/grades.csv"
check "the other students are graded by fresh workers" grep -q '^alice,5,8,13,13,ok' "$T/out2/grades.csv"
GRADER_BATCH_TIMEOUT=4 "$GRADER" batch "$T/class2" -o "$T/out2" $SMALL -j 2 --resume >/dev/null 2>"$T/out2r.err"
check "--resume grades the crashed and timed-out students again" grep -q "1 already graded: grading 2" "$T/out2r.err"
check "... the crashed one now has its scores" grep -q '^victor,5,8,13,13,ok' "$T/out2/grades.csv"

# ---- 7. usage errors ----
"$GRADER" batch "$T/class" $SMALL >/dev/null 2>&1
check "batch without -o is a usage error" [ $? -eq 2 ]
mkdir "$T/random" && echo hello >"$T/random/file"
"$GRADER" batch "$T/class" -o "$T/random" $SMALL >/dev/null 2>"$T/random.err"
check "batch refuses a non-empty directory that is not a batch output" sh -c "[ $? -eq 2 ] && [ -f '$T/random/file' ]"

# ---- 8. a hostile student beside honest ones ----
# Its constructor floods the process slots with spinning, memory-holding
# helpers and its parity.c #includes a solution kept in the repository; the
# three honest copies graded at the same time must compile and keep full
# marks, and nothing may end in judge-error.
if [ "$BATCH_HOSTILE" = 1 ]; then
	for s in honest1 honest2 honest3; do
		mkdir -p "$T/class4/$s" && cp tests/batch/reference/sum.c tests/batch/reference/parity.c "$T/class4/$s/"
	done
	mkdir -p "$T/class4/mallory"
	cp tests/batch/fixtures/ctor-hostile/sum.c "$T/class4/mallory/"
	sed "s|@ROOT@|$ROOT|" tests/batch/fixtures/ctor-hostile/parity.c >"$T/class4/mallory/parity.c"
	"$GRADER" batch "$T/class4" -o "$T/out4" $SMALL -j 2 >/dev/null 2>"$T/out4.err"
	rc=$?
	check "hostile beside honest: batch rc=$rc (every student graded)" [ "$rc" -eq 0 ]
	check "hostile beside honest: every honest copy compiles and keeps full marks" sh -c \
		"for s in honest1 honest2 honest3; do grep -q \"^\$s,5,8,13,13,ok\" '$T/out4/grades.csv' || exit 1; done"
	check "hostile beside honest: the hostile student gets nothing, and no judge-error" python3 - "$T/out4" <<'EOF'
import json, os, sys
out = sys.argv[1]
rows = {l.split(",")[0]: l.strip() for l in open(os.path.join(out, "grades.csv"))}
assert rows["mallory"].startswith("mallory,0,0,0,13"), rows["mallory"]
r = json.load(open(os.path.join(out, "students", "mallory.json")))
verdicts = {p["id"]: {t["verdict"] for t in p["tests"]} for p in r["problems"]}
assert verdicts["parity"] == {"compiler-error"}, verdicts
assert verdicts["sum"] <= {"forbidden", "skipped"}, verdicts
for name in os.listdir(os.path.join(out, "students")):
    if name.endswith(".json"):
        s = json.load(open(os.path.join(out, "students", name)))
        assert not s.get("internal_error"), name
        assert all(t["verdict"] != "judge-error" for p in s["problems"] for t in p["tests"]), name
EOF
	check "no sanitizer reports (hostile beside honest)" no_sanitizer_errors "$T/out4.err"
fi

# ---- 9. the real problem set ----
mkdir -p "$T/class3"
cp -r student_template "$T/class3/template"
mkdir "$T/class3/ref" && cp reference/p4.c reference/p4_dp.c "$T/class3/ref/"
(cd "$T/class3" && tar czf ref2.tar.gz -C ref .)
"$GRADER" batch "$T/class3" -o "$T/out3" --only p4,p4_dp --cache "$T/cache" -j 2 >/dev/null 2>"$T/out3.err"
rc=$?
check "real problems/: batch rc=$rc" [ "$rc" -eq 0 ]
check "real problems/: the reference copies get full marks" sh -c \
	"grep -q '^ref,31,26,57,57,ok' '$T/out3/grades.csv' && grep -q '^ref2,31,26,57,57,ok' '$T/out3/grades.csv'"
check "real problems/: the template is graded" grep -q '^template,[0-9.]*,[0-9.]*,[0-9.]*,57,ok' "$T/out3/grades.csv"
check "no sanitizer reports (crash, real problems)" no_sanitizer_errors "$T/out2.err" "$T/out2r.err" "$T/out3.err"

# ---- 10. LMS downloads: Canvas, Moodle, Gradescope; their import files; the formula guard ----
lms_check() { # lms_check LAYOUT OUTDIR [ASSIGNMENT]: the files read back cell by cell (check-lms.py)
	python3 tests/batch/check-lms.py "$1" "$2" "$T/lms/expected.json" ${3:+"$3"} >"$T/lms-check.out" 2>&1
	grep -v '^ok - ' "$T/lms-check.out"
	passed=$((passed + $(grep -c '^ok - ' "$T/lms-check.out")))
	failed=$((failed + $(grep -c '^FAIL - ' "$T/lms-check.out")))
	grep -q '^ok - ' "$T/lms-check.out" || bad "check-lms.py $1 ran no check"
}
python3 tests/batch/make-lms.py "$T/lms" || bad "cannot build the LMS classes"
"$GRADER" batch "$T/lms/canvas" -o "$T/lms-canvas" $SMALL -j 2 --assignment "Problem set 1 (4242)" \
	>/dev/null 2>"$T/lms-canvas.err"
rc=$?
check "Canvas download: every student graded (rc=$rc)" [ "$rc" -eq 0 ]
check "Canvas download: detected and said so" grep -q '^grader: 6 students (a Canvas download)' "$T/lms-canvas.err"
check "Canvas download: the highest re-upload number is graded" \
	grep -q "ignoring '.*_9005_parity-1.c': '.*_9006_parity-2.c' is a later upload of 'parity.c'" "$T/lms-canvas.err"
check "Canvas download: a stray file is ignored with a warning" \
	grep -q "ignoring '.*/notes.txt': not named like a Canvas submission file" "$T/lms-canvas.err"
lms_check canvas "$T/lms-canvas" "Problem set 1 (4242)"
"$GRADER" batch "$T/lms/moodle" -o "$T/lms-moodle" $SMALL -j 2 >/dev/null 2>"$T/lms-moodle.err"
rc=$?
check "Moodle download: every student graded (rc=$rc)" [ "$rc" -eq 0 ]
check "Moodle download: detected and said so" grep -q '^grader: 7 students (a Moodle download)' "$T/lms-moodle.err"
lms_check moodle "$T/lms-moodle"
"$GRADER" batch "$T/lms/gradescope" -o "$T/lms-gradescope" $SMALL -j 2 >/dev/null 2>"$T/lms-gs.err"
rc=$?
check "Gradescope export (unzipped with its folder): every student graded (rc=$rc)" [ "$rc" -eq 0 ]
check "Gradescope export: detected and said so" grep -q '^grader: 4 students (a Gradescope export)' "$T/lms-gs.err"
lms_check gradescope "$T/lms-gradescope"
check "no sanitizer reports (LMS downloads)" no_sanitizer_errors "$T/lms-canvas.err" "$T/lms-moodle.err" "$T/lms-gs.err"

# resume: nothing to do when nothing changed; one student again when one file did
cp "$T/lms-canvas/canvas-import.csv" "$T/canvas-import.first.csv"
"$GRADER" batch "$T/lms/canvas" -o "$T/lms-canvas" $SMALL -j 2 --resume --assignment "Problem set 1 (4242)" \
	>/dev/null 2>"$T/lms-resume.err"
check "Canvas resume: every student already graded" grep -q "6 already graded: grading 0" "$T/lms-resume.err"
check "Canvas resume: the same canvas-import.csv" cmp "$T/lms-canvas/canvas-import.csv" "$T/canvas-import.first.csv"
cp tests/batch/fixtures/wrong/parity.c "$T/lms/canvas/lovelaceada_101_9002_parity.c"
"$GRADER" batch "$T/lms/canvas" -o "$T/lms-canvas" $SMALL -j 2 --resume --assignment "Problem set 1 (4242)" \
	>/dev/null 2>"$T/lms-resume2.err"
check "Canvas resume after one file changed: that student only" grep -q "5 already graded: grading 1" "$T/lms-resume2.err"
check "... and the import has the new score" grep -q '^lovelaceada,101,,,,10' "$T/lms-canvas/canvas-import.csv"

# shards of a Moodle class merge into what one run wrote, import file included
"$GRADER" batch "$T/lms/moodle" -o "$T/lms-m1" $SMALL --shard 1/2 -j 2 >/dev/null 2>"$T/lms-m1.err"
"$GRADER" batch "$T/lms/moodle" -o "$T/lms-m2" $SMALL --shard 2/2 -j 2 >/dev/null 2>"$T/lms-m2.err"
"$GRADER" merge "$T/lms-m2" "$T/lms-m1" -o "$T/lms-mm" >/dev/null 2>"$T/lms-mm.err"
check "Moodle shards merged: moodle-import.csv == one run" cmp "$T/lms-mm/moodle-import.csv" "$T/lms-moodle/moodle-import.csv"
check "Moodle shards merged: batch.json (with the roster) == one run" cmp "$T/lms-mm/batch.json" "$T/lms-moodle/batch.json"

# forcing the layout, and classes in which no student is found: exit 2, saying what was there
"$GRADER" batch "$T/lms/canvas" -o "$T/lms-forced" $SMALL --layout moodle >/dev/null 2>"$T/lms-forced.err"
rc=$?
check "--layout moodle on a Canvas download: no student, exit 2 (rc=$rc)" [ "$rc" -eq 2 ]
check "... saying what the folder holds" \
	grep -q "no student found in '.*' (read as a Moodle download, as --layout says): it holds '+1_105_9009_sum.c', " \
	"$T/lms-forced.err"
check "... and grading nothing" [ ! -e "$T/lms-forced" ]
mkdir "$T/empty-class" "$T/odd-class"
echo hello >"$T/odd-class/readme.txt"
echo jpeg >"$T/odd-class/photo.jpg"
"$GRADER" batch "$T/empty-class" -o "$T/out-empty" $SMALL >/dev/null 2>"$T/empty.err"
rc=$?
check "an empty class is an error (rc=$rc)" sh -c "[ $rc -eq 2 ] && grep -q \"no student found in .*: it is empty\" '$T/empty.err'"
check "... and leaves no output directory" [ ! -e "$T/out-empty" ]
"$GRADER" batch "$T/odd-class" -o "$T/out-odd" $SMALL >/dev/null 2>"$T/odd.err"
rc=$?
check "a class of unrecognised files is an error listing them (rc=$rc)" sh -c \
	"[ $rc -eq 2 ] && grep -q \"it holds 'photo.jpg', 'readme.txt' (2 files, 0 folders)\" '$T/odd.err'"
check "no sanitizer reports (LMS resume, shards, no students)" no_sanitizer_errors "$T/lms-resume.err" \
	"$T/lms-resume2.err" "$T/lms-m1.err" "$T/lms-m2.err" "$T/lms-mm.err" "$T/lms-forced.err" "$T/empty.err" "$T/odd.err"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
