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
. tests/lib.sh
ROOT=$REPO

if [ -z "${BATCH_TEST_IN_NS:-}" ]; then
	# its own cgroups: the graders it SIGKILLs (section 3) leave their units behind, removed with them
	in_pid_namespace_own_cgroups BATCH_TEST_IN_NS "$0" "$@"
	echo "note: no PID namespace available (needs root): the hostile submission is left out"
	BATCH_HOSTILE=0
fi
export BATCH_HOSTILE="${BATCH_HOSTILE:-1}"

lib_tmpdir batch-test
bg_pid=
at_exit() {
	# only what this script started: the background grader (its process group)
	if [ -n "$bg_pid" ]; then
		kill -s KILL -- "-$bg_pid" 2>/dev/null
		wait "$bg_pid" 2>/dev/null
	fi
}
bad() { not_ok "$@"; }
no_sanitizer_errors() { ! grep -qE "ERROR: (Address|Leak)Sanitizer|runtime error:" "$@"; }

mkdir "$T/tmp"
chmod 711 "$T" "$T/tmp"   # the sandboxed compiler (nobody) must reach its scratch space
export TMPDIR="$T/tmp"   # the graders' scratch space, checked for leftovers
seed_cache "$T/cache"   # problems/ answers for the runs on the real problems (sections 8, 9)
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
def st_name(sid):  # the entry the student handed in, as the feedback names it
    return json.load(open(os.path.join(out, "state", sid + ".json")))["input"]
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
        check("students/%s.json is the report, compact (score %s)" % (r[0], rep["score"]),
              rep.get("compact") is True and rep["show_hidden"] is True and open(j, "rb").read().count(b"\n") == 1
              and abs(rep["score"] - float(e[2])) < 1e-9 and [p["id"] for p in rep["problems"]] == ["parity", "sum"]
              and rep["submission"].startswith(os.path.dirname(out)))
        txt = open(t, "rb").read()
        check("students/%s.txt has no colour" % r[0], b"\x1b[" not in txt and len(txt) > 0)
    else:
        check("no report files for %s" % r[0], not os.path.exists(j) and not os.path.exists(t))
    fb = [os.path.join(out, "feedback", r[0] + ext) for ext in (".txt", ".md")]
    texts = [open(f, "rb").read() if os.path.exists(f) else b"" for f in fb]
    if graded:
        check("feedback/%s.txt and .md: the student's report" % r[0],
              all(texts) and texts[1].startswith(b"## Grading results: ") and b"\x1b[" not in texts[0]
              and ("Grading " + st_name(r[0])).encode() in texts[0])
    else:
        why = e[3][len("error: "):]
        check("feedback/%s.txt and .md: not graded, and why" % r[0],
              all(texts) and b"was not graded" in texts[0] and why.encode() in texts[0] and b"Not graded" in texts[1])
    st = json.load(open(os.path.join(out, "state", r[0] + ".json")))
    check("state/%s.json: fingerprint and status" % r[0], len(st["fingerprint"]) == 64 and st["status"] == e[3])
sys.exit(1 if fails else 0)
EOF
rc=$?
cat "$T/rows.out"
passed=$((passed + $(grep -c '^ok - ' "$T/rows.out")))
failed=$((failed + $(grep -c '^FAIL - ' "$T/rows.out")))
# the feedback is the student's view: no hidden test's name, input or expected value in it, while the
# instructor's files have them (so the check can fail); the compact JSON says what the full report says
"$GRADER" --show-hidden --format json $SMALL "$T/class/bob" >"$T/bob.full.json" 2>"$T/bob.full.err"
python3 - "$T/full" "$T/bob.full.json" >"$T/feedback-check.out" 2>&1 <<'PYEOF'
import json, os, sys
out, full = sys.argv[1], json.load(open(sys.argv[2]))
fails = []
public_calls, secrets = set(), []
for p in full["problems"]:
    for t in p["tests"]:
        if t["visibility"] == "public":
            public_calls.add(t["call"])
for p in full["problems"]:
    for t in p["tests"]:
        if t["visibility"] != "hidden" or t["call"] in public_calls:
            continue
        args = t["call"][t["call"].index("(") + 1:]
        secrets += [t["name"], t["call"], args[:24]]
        if abs(t.get("expected", 0)) >= 1000:
            secrets.append(str(t["expected"]))
if len(secrets) < 6:
    fails.append("too few hidden inputs to look for: %r" % secrets)
instructor = open(os.path.join(out, "students", "bob.txt")).read()
if not any(s in instructor for s in secrets):
    fails.append("the instructor's students/bob.txt shows no hidden input: the check below would prove nothing")
fb = open(os.path.join(out, "feedback", "bob.txt")).read()
if "total([1, 2, 3])" not in fb or "random (hidden" not in fb or "0 of 3 passed" not in fb:
    fails.append("feedback/bob.txt lacks the public failure or the hidden group's counts")
for name in sorted(os.listdir(os.path.join(out, "feedback"))):
    text = open(os.path.join(out, "feedback", name), encoding="utf-8").read()
    for s in secrets:
        if s in text:
            fails.append("feedback/%s shows the hidden %r" % (name, s))
# compact: every test listed; what it keeps equals the full report; what it drops is the problem file's
comp = json.load(open(os.path.join(out, "students", "bob.json")))
for pf, pc in zip(full["problems"], comp["problems"]):
    if [t["name"] for t in pf["tests"]] != [t["name"] for t in pc["tests"]]:
        fails.append("%s: the compact record does not list every test" % pf["id"])
    for tf, tc in zip(pf["tests"], pc["tests"]):
        for k, v in tc.items():
            if k not in ("time_ms", "wall_ms", "peak_kb") and tf.get(k) != v:
                fails.append("%s %s: %s is %r, the full report says %r" % (pf["id"], tf["name"], k, v, tf.get(k)))
        if tf["verdict"] == "correct" and set(tc) - {"name", "group", "visibility", "verdict", "time_ms", "wall_ms",
                                                      "peak_kb"}:
            fails.append("%s %s: a quiet test keeps %s" % (pf["id"], tf["name"], sorted(tc)))
        if tf["verdict"] not in ("correct", "skipped") and "call" not in tc:
            fails.append("%s %s: a failed test lost its call" % (pf["id"], tf["name"]))
        if tc.get("visibility", "public") != tf["visibility"]:
            fails.append("%s %s: visibility" % (pf["id"], tf["name"]))
print("\n".join(fails))
sys.exit(1 if fails else 0)
PYEOF
check "feedback: the student's view, no hidden input in it; students/<id>.json compact == the full report" [ $? -eq 0 ]
grep -v '^$' "$T/feedback-check.out"
check "no file escaped from the malicious archives" sh -c \
	"! find '$T' /tmp -maxdepth 3 -name 'escaped-by-*' 2>/dev/null | grep -q ."
check "scratch space cleaned up" sh -c "[ -z \"\$(ls -A '$T/tmp')\" ]"

# ---- 2. --resume of a finished batch does nothing and changes nothing ----
cp "$T/full/grades.csv" "$T/grades.full.csv"
"$GRADER" batch "$T/class" -o "$T/full" $SMALL --resume -j 2 2>"$T/resume0.err"
check "resume of a finished batch grades nobody" grep -q "2[12] already graded: grading 0" "$T/resume0.err"
check "resume of a finished batch: same grades.csv" cmp "$T/full/grades.csv" "$T/grades.full.csv"
nrows=$(ls "$T/full/state" | wc -l)
check "resume of a finished batch: the feedback kept, a .txt and a .md per row ($nrows)" sh -c \
	"[ \$(ls '$T/full/feedback' | grep -c '[.]txt\$') -eq $nrows ] && [ \$(ls '$T/full/feedback' | grep -c '[.]md\$') -eq $nrows ]"
cp "$T/full/feedback/bob.txt" "$T/bob.feedback.txt"
rm "$T/full/feedback/bob.md" "$T/full/feedback/mallory.txt"
"$GRADER" batch "$T/class" -o "$T/full" $SMALL --resume -j 2 2>"$T/resume1.err"
check "resume: a student whose feedback is missing is graded again" grep -q "already graded: grading 2 " "$T/resume1.err"
check "... and gets it back" sh -c "[ -s '$T/full/feedback/bob.md' ] && [ -s '$T/full/feedback/mallory.txt' ] &&
	cmp -s '$T/full/feedback/bob.txt' '$T/bob.feedback.txt'"
check "... with the same gradebook" cmp "$T/full/grades.csv" "$T/grades.full.csv"

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
check "no write_file_atomic leftovers" sh -c "! ls '$T/killed/state' '$T/killed/students' '$T/killed/feedback' | grep -q '\.tmp\.'"
check "killed + resumed: the same feedback files as the uninterrupted run" \
	sh -c "[ \"\$(ls '$T/killed/feedback')\" = \"\$(ls '$T/full/feedback')\" ]"

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
check "merged feedback/ has the same files" sh -c "[ \"\$(ls '$T/merged/feedback')\" = \"\$(ls '$T/full/feedback')\" ]"
check "merged feedback/bob.md == single run" cmp "$T/merged/feedback/bob.md" "$T/full/feedback/bob.md"
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
	# eve plants files in every scratch space she can name (issue 29, class 5): none may appear
	tag=planted-by-eve-$$
	mkdir -p "$T/class4/eve"
	sed -e "s|@TAG@|$tag|g" -e "s|@TMP@|$TMPDIR|g" tests/batch/fixtures/scratch-planter/sum.c >"$T/class4/eve/sum.c"
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
	# written anywhere: the batch's directory, the scratch space, /tmp (what a runner could name)
	planted=$(find "$T" /tmp -maxdepth 6 -name "$tag*" 2>/dev/null | head -5)
	check "a student's runner plants nothing in any scratch space or /tmp${planted:+: $planted}" [ -z "$planted" ]
	# her file-creating calls are refused as forbidden (a trap) or fail quietly (then her answers are right)
	check "the planting student is graded: every sum test forbidden or correct ($(grep '^eve,' "$T/out4/grades.csv"))" \
		python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))
v = {t["verdict"] for p in r["problems"] if p["id"] == "sum" for t in p["tests"]}
sys.exit(not v or not v <= {"forbidden", "correct"})' "$T/out4/students/eve.json"
	rm -rf $planted
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
mkdir -p "$T/class5/full" "$T/class5/empty" "$T/class5/chatty"
cp reference/*.c "$T/class5/full/"
# a correct submission with a debugging print left in: every test of p2 and p3 prints (2.46 MB before
# correct tests that print were made quiet in the compact record)
cp reference/*.c "$T/class5/chatty/"
python3 - "$T/class5/chatty" <<'PYEOF' || bad "cannot add the debugging prints"
import sys
for f, sig in (("p2.c", "bool canWin(long long k, long long n)\n{"), ("p3.c", "bool canWin(int n)\n{")):
    path = "%s/%s" % (sys.argv[1], f)
    src = open(path).read()
    assert sig in src, f
    open(path, "w").write("#include <stdio.h>\n" + src.replace(sig, sig + '\n\tprintf("debug: called\\n");', 1))
PYEOF
echo "nothing yet" >"$T/class5/empty/README"
"$GRADER" batch "$T/class5" -o "$T/out5" --cache "$T/cache" -j 2 >/dev/null 2>"$T/out5.err"
rc=$?
check "real problems/, every problem: the reference gets full marks (rc=$rc)" sh -c \
	"[ $rc -eq 0 ] && grep -q '^full,25.2,36.5,23,31,26,141.7,141.7,ok' '$T/out5/grades.csv'"
check "... and so does it with a debugging print in p2 and p3" grep -q '^chatty,25.2,36.5,23,31,26,141.7,141.7,ok' "$T/out5/grades.csv"
check "chatty: a printing correct test is quiet plus its output" python3 -c 'import json,sys
t = [t for p in json.load(open(sys.argv[1]))["problems"] if p["id"] == "p2" for t in p["tests"]][0]
sys.exit(0 if sorted(t) == ["group", "name", "output", "peak_kb", "time_ms", "verdict", "wall_ms"] and t["output"] == "debug: called\n" else 1)' "$T/out5/students/chatty.json"
for s in full empty chatty; do
	size=$(wc -c <"$T/out5/students/$s.json")
	tests=$(python3 -c 'import json,sys; print(sum(len(p["tests"]) for p in json.load(open(sys.argv[1]))["problems"]))' \
		"$T/out5/students/$s.json")
	check "real problems/: students/$s.json lists all $tests tests in $size bytes (< 1 MiB)" \
		[ "$size" -lt 1048576 -a "$tests" -gt 7000 ]
done
check "no sanitizer reports (crash, real problems)" no_sanitizer_errors "$T/out2.err" "$T/out2r.err" "$T/out3.err" \
	"$T/out5.err"

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

# ---- 11. nobody lost: names that are not UTF-8, archives of other kinds, entries that cannot be read ----
# Latin-1 names as old zip tools write them (\351 = é, \350 = è), made with printf: the folder is graded under
# the id '\xe9l\xe8ve' (the warning gives the Latin-1 reading), an archive named in Latin-1 beside a folder
# literally named '\xe9mile' is one id twice (one row naming both), a zip and a tarball whose entries are named
# in Latin-1 are graded, a .rar and a dangling link are rows saying why; every warning before any grading.
C6=$T/class6
mkdir -p "$C6/alice" "$C6/$(printf '\351l\350ve')" "$C6/$(printf 'tab\tname')" "$C6/\\xe9mile"
for d in alice "$(printf '\351l\350ve')" "$(printf 'tab\tname')" '\xe9mile'; do
	cp tests/batch/reference/sum.c tests/batch/reference/parity.c "$C6/$d/"
done
python3 - "$C6" <<'PYEOF'
import io, os, sys, tarfile, zipfile
cls = sys.argv[1]
ok = {n: open(os.path.join("tests/batch/reference", n), "rb").read() for n in ("sum.c", "parity.c")}
# zoe.zip: her folder zipped by a tool that wrote its name in Latin-1, no UTF-8 flag (written with a
# placeholder of the same length, then patched in both headers)
with zipfile.ZipFile(os.path.join(cls, "zoe.zip"), "w") as z:
    for n, d in ok.items():
        z.writestr("XlXve/" + n, d)
path = os.path.join(cls, "zoe.zip")
data = open(path, "rb").read()
assert data.count(b"XlXve/") == 4
open(path, "wb").write(data.replace(b"XlXve/", b"\xe9l\xe8ve/"))
with tarfile.open(os.path.join(cls, "tom.tar.gz"), "w:gz", format=tarfile.GNU_FORMAT, encoding="latin-1") as t:
    for n, d in ok.items():
        ti = tarfile.TarInfo("\xe9l\xe8ve/" + n)
        ti.size, ti.mtime = len(d), 1700000000
        t.addfile(ti, io.BytesIO(d))
PYEOF
cp "$C6/zoe.zip" "$C6/$(printf '\351mile.zip')"
printf 'Rar!\032\007\000' >"$C6/bob.rar"
ln -s "$T/nowhere" "$C6/dangling"
"$GRADER" batch "$C6" -o "$T/out6" $SMALL -j 2 >/dev/null 2>"$T/out6.err"
rc=$?
check "a class with rows that say why: exit 1 as docs/batch.md promises (rc=$rc)" [ "$rc" -eq 1 ]
check "no sanitizer reports (names that are not UTF-8)" no_sanitizer_errors "$T/out6.err"
python3 - "$T/out6" "$T/out6.err" >"$T/nobody.out" 2>&1 <<'PYEOF'
import csv, io, json, os, sys
out, err = sys.argv[1], open(sys.argv[2], "rb").read()
fails = 0
def check(name, cond):
    global fails
    print(("ok - " if cond else "FAIL - ") + name)
    fails += not cond
rows = {r[0]: r for r in csv.reader(io.StringIO(open(os.path.join(out, "grades.csv"), encoding="utf-8").read()))}
expected = {
    "alice": "ok", "\\xe9l\\xe8ve": "ok", "tab\\x09name": "ok", "zoe": "ok", "tom": "ok",
    "\\xe9mile": "error: more than one submission: '\\xe9mile', '\\xe9mile.zip' (a name that is not UTF-8 or has "
                 "control characters)",
    "bob": "error: 'bob.rar' is an archive the grader does not unpack (it reads .zip, .tar.gz, .tgz and .tar): "
           "unpack it into a folder 'bob' or pack it again as a .zip",
    "dangling": "error: cannot read 'dangling': No such file or directory",
}
check("every entry has a row: %s" % sorted(rows), sorted(rows) == sorted(list(expected) + ["id"]))
for sid, status in expected.items():
    r = rows.get(sid, [""] * 6)
    check("row %r: %s" % (sid, status[:40]), r[5] == status and (r[3] == "13") == (status == "ok"))
    check("state, feedback for %r" % sid, all(os.path.exists(os.path.join(out, d, sid + ext)) for d, ext in
                                           (("state", ".json"), ("feedback", ".txt"), ("feedback", ".md"))))
check("no raw Latin-1 byte on stderr (names are escaped)", b"\xe9" not in err and b"\xe8" not in err)
lines = err.decode("utf-8").splitlines()
# (as a normal user the sandbox's own warning comes first: not one about the entries)
warn = [i for i, l in enumerate(lines) if l.startswith("grader: warning: ") and
        ("the name of '" in l or "' will not be graded: " in l)]
first = min([i for i, l in enumerate(lines) if l.startswith("grader: [")] or [len(lines)])
start = min([i for i, l in enumerate(lines) if l.startswith("grader: 8 students")] or [len(lines)])
check("every warning about the entries comes before grading starts (%s < %d)" % (warn, start),
      len(warn) == 6 and max(warn) < start < first)
check("the Latin-1 reading is given, and the id", any("is not UTF-8 (read as Latin-1, a guess: '\u00e9l\u00e8ve'): its "
      "row's id is '\\xe9l\\xe8ve'" in l for l in lines))
check("the control character is escaped in the id", any("has control characters: its row's id is 'tab\\x09name'" in l
                                                        for l in lines))
check("the count covers every row", any(l.startswith("grader: 5 of 8 students graded (3 rows with status 'error: ...';"
                                                     " 6 warnings about the class's entries above)") for l in lines))
rep = json.load(open(os.path.join(out, "students", "\\xe9l\\xe8ve.json")))
check("the report names the submission escaped", rep["submission"].endswith("/\\xe9l\\xe8ve") and rep["score"] == 13)
fb = open(os.path.join(out, "feedback", "bob.txt"), encoding="utf-8").read()
check("bob's feedback says why", "'bob.rar' was not graded" in fb and "does not unpack" in fb)
sys.exit(1 if fails else 0)
PYEOF
grep -v '^ok - ' "$T/nobody.out"
passed=$((passed + $(grep -c '^ok - ' "$T/nobody.out")))
failed=$((failed + $(grep -c '^FAIL - ' "$T/nobody.out")))

# an LMS download too: a Moodle folder whose full name is Latin-1 keeps its row and its import line
M7=$T/class7
mkdir -p "$M7/Ada Lovelace_201_assignsubmission_file_" "$M7/$(printf '\311lodie Dupont')_202_assignsubmission_file_"
cp tests/batch/reference/sum.c tests/batch/reference/parity.c "$M7/Ada Lovelace_201_assignsubmission_file_/"
cp tests/batch/reference/sum.c tests/batch/reference/parity.c "$M7/$(printf '\311lodie Dupont')_202_assignsubmission_file_/"
"$GRADER" batch "$M7" -o "$T/out7" $SMALL -j 2 >/dev/null 2>"$T/out7.err"
rc=$?
check "Moodle, a name that is not UTF-8: graded (rc=$rc)" sh -c \
	"[ $rc -eq 0 ] && grep -q '^.xc9lodie Dupont_202,5,8,13,13,ok' '$T/out7/grades.csv'"
check "... its import line, the name escaped (valid UTF-8)" python3 -c '
import sys
raw = open(sys.argv[1], "rb").read()
raw.decode("utf-8")
sys.exit(0 if b"Participant 202,\\xc9lodie Dupont,13,13," in raw else 1)' "$T/out7/moodle-import.csv"
check "no sanitizer reports (Moodle, Latin-1)" no_sanitizer_errors "$T/out7.err"

finish
