#!/bin/sh
# tests/batch/course/run.sh - what a course needs of `grader batch` beyond grades (docs/batch.md):
# 1. --policy FILE ("Deadlines and late work"):
#   classes built by make-late.py with fixed times: git repositories (commits with fixed
#   GIT_COMMITTER_DATE before and after the deadline, clones with fixed reflog times), a Canvas
#   download with _LATE_ files, a Moodle download, plain folders; every row's late, penalty, final,
#   submitted time and whether it is flagged, worked out by hand below; the repositories left as they
#   were; the LMS import files' final scores; --resume under another policy re-prices without grading;
#   shards merged == one run, shards under different policies refused; policy mistakes as FILE:LINE:COL.
#   The price where people look: the feedback's first lines (English, Korean), re-priced by --resume and
#   taken out without a policy; summary.html's late, penalty and final columns.  A repository whose git
#   hangs (HEAD a FIFO) is given up after GRADER_GIT_TIMEOUT and its row says why.
#   Stray entries in a Canvas and a Moodle download (a folder, a .c file): rows of their own, warned
#   before grading, counted, left out of the import files; notes.txt a warning only.
# 2. regrades: --resume after the reference changed writes regrade.md/.csv with the old and new score
#   and the tests whose verdict moved; --regrade ID grades one student again; an unknown id is refused.
#   --regrade-problem P: everybody again, regrade.md with P's rows first; an unknown problem is refused.
# 4. --reveal-hidden: a failed hidden group's smallest failing input in the feedback, only with it.
# 3. the CI template (dist/github/grade.yml and grade.sh, which tools/pack.sh copies into the student
#   pack): graded once per push, "public tests only" in the workflow's and the reporter step's names,
#   the job named as Classroom's reporter looks it up; grade.sh run as on GitHub Actions says it too.
# Uses $GRADER (default: the ASan build).  Prints one line per check and "N passed, M failed".
set -u
cd "$(dirname "$0")/../../.."
ROOT=$PWD
: "${GRADER:=$ROOT/build/asan/grader}"

T=$(mktemp -d "${TMPDIR:-/tmp}/batch-late.XXXXXX")
cleanup() { if [ -n "${KEEP:-}" ]; then echo "kept $T"; else rm -rf "$T"; fi; }
trap cleanup EXIT
trap 'exit 130' INT TERM

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - $1"; }
bad() { failed=$((failed + 1)); echo "FAIL - $1"; }
check() { name=$1; shift; if "$@"; then ok "$name"; else bad "$name"; fi; }
no_sanitizer_errors() { ! grep -qE "ERROR: (Address|Leak)Sanitizer|runtime error:" "$@"; }

mkdir "$T/tmp"
chmod 711 "$T" "$T/tmp"   # the sandboxed compiler (nobody) must reach its scratch space
export TMPDIR="$T/tmp"
SMALL="--problems tests/batch/problems --reference tests/batch/reference --cache $T/cache"
python3 tests/batch/course/make-late.py "$T/in" || { echo "FAIL - cannot build the classes"; exit 1; }
chmod -R go+rX "$T/in"
POLICY=$T/in/policy.yaml
# git on the repository 'hang' (HEAD a FIFO) blocks: it is killed after 1 s (the default is 60 s)
export GRADER_GIT_TIMEOUT=1

# the repositories before grading: every file's bytes and times, and git's own view of the work tree
tree_state() { (cd "$1" && find . -type f -printf '%p %T@ %s\n' | sort && find . -type f -exec sha256sum {} + | sort); }
# (git status first: it refreshes the index, which the snapshot must already include)
git -C "$T/in/git/latefix" status --porcelain >"$T/latefix-status-before" 2>&1
tree_state "$T/in/git" >"$T/git-before"

for c in git canvas moodle folders; do
	"$GRADER" batch "$T/in/$c" -o "$T/out-$c" $SMALL --policy "$POLICY" -j 2 >"$T/$c.out" 2>"$T/$c.err"
	echo $? >"$T/$c.rc"
	check "no sanitizer reports ($c)" no_sanitizer_errors "$T/$c.err"
done
check "git: exit 1, rows with status error: (toolate: nothing before late_until; broken: no repository; hang: git killed)" [ "$(cat "$T/git.rc")" = 1 ]
check "a hanging git is killed: no git process left in the batch's session" sh -c "! pgrep -s 0 -x git >/dev/null"
check "... and its student gets feedback saying why" grep -q "git rev-list did not finish within 1 s" "$T/out-git/feedback/hang.txt"
for c in canvas moodle folders; do
	check "$c: exit 0 (every student graded)" [ "$(cat "$T/$c.rc")" = 0 ]
done
first_line() { grep -n "$1" "$2" | head -1 | cut -d: -f1; }
w=$(first_line 'extension to .lovelaceada_101., who is not in the class' "$T/git.err")
g=$(first_line '^grader: \[1/' "$T/git.err")
check "an extension for an id not in the class is a warning before grading (line ${w:-none} < ${g:-none})" \
	[ "${w:-9999}" -lt "${g:-0}" ]
check "no such warning where the id is there (canvas)" sh -c "! grep -q 'not in the class' '$T/canvas.err'"
# the git students with nothing to grade are known before grading: warned then, as a .rar is, and counted
for id in toolate broken hang; do
	w=$(first_line "^grader: warning: '$id' will not be graded: " "$T/git.err")
	check "git: '$id' will not be graded, said before grading (line ${w:-none} < ${g:-none})" [ "${w:-9999}" -lt "${g:-0}" ]
done
check "git: the last line counts those warnings (4: three students and the extension)" \
	grep -q "^grader: .* graded (3 rows with status 'error: ...'; 4 warnings about the class's entries above)" "$T/git.err"

# every row, worked out by hand from make-late.py's times and the policy
# (deadline 2026-11-20T23:59+01:00, late_until 2026-11-23T23:59+01:00, 10 % per started day, cap 30 %)
python3 - "$T" <<'PY' >"$T/rows.out" 2>&1
import csv, sys
T = sys.argv[1]
# id: (total, late hours, penalty %, final, submitted, flagged, status starts with)
want = {
 "git": {
  "ontime":    ("13", "0", "0", "13", "2026-11-20T10:00:00+01:00", False, "ok"),
  "latefix":   ("8", "0", "0", "8", "2026-11-20T20:00:00+01:00", True, "ok"),       # the fix is not graded
  "late":      ("13", "30", "20", "10.4", "2026-11-22T05:59:00+01:00", True, "ok"),
  "future":    ("13", "12", "10", "11.7", "2026-11-21T11:59:00+01:00", True, "ok"), # the clone's time
  "backdated": ("13", "36.02", "20", "10.4", "2026-11-22T12:00:00+01:00", True, "ok"),
  "toolate":   ("", "80.02", "100", "0", "2026-11-24T08:00:00+01:00", True, "error: no commit at or before late_until"),
  "broken":    ("", "", "", "", "", False, "error: cannot read the git repository 'broken': git rev-list: "),
  "hang":      ("", "", "", "", "", False, "error: cannot read the git repository 'hang': git rev-list did not finish within 1 s"),
 },
 "canvas": {
  "babbagecharles_102": ("13", "0", "0", "13", "", False, "ok"),
  "hopper_103":         ("13", "50", "30", "9.1", "2026-11-23T01:59:00+01:00", False, "ok"),
  "turingalan_104":     ("13", "24", "10", "11.7", "", False, "ok"),
  "lovelaceada_101":    ("13", "2", "10", "11.7", "2026-11-23T01:59:00+01:00", False, "ok"),
  "knuthdonald_105":    ("13", "84.02", "100", "0", "2026-11-24T12:00:00+01:00", False, "ok"),
 },
 "moodle": {
  "Ada Lovelace_201": ("13", "0", "0", "13", "2026-11-20T23:00:00+01:00", False, "ok"),
  "Grace Hopper_205": ("13", "1", "10", "11.7", "2026-11-21T00:59:00+01:00", False, "ok"),
 },
 "folders": {
  "yan": ("13", "0", "0", "13", "2026-11-20T00:59:00+01:00", True, "ok"),
  "zoe": ("13", "73", "100", "0", "2026-11-24T00:59:00+01:00", True, "ok"),
 },
}
bad = 0
for c, rows in want.items():
    with open(f"{T}/out-{c}/grades.csv", newline="") as f:
        got = {r["id"]: r for r in csv.DictReader(f)}
    if set(got) != set(rows):
        print(f"FAIL {c}: ids {sorted(got)}"); bad += 1
    for i, (total, late, pen, final, sub, flagged, status) in rows.items():
        r = got.get(i)
        if not r:
            continue
        have = (r["total"], r["late"], r["penalty"], r["final"], r["submitted"],
                r["time_source"].startswith("UNVERIFIED: "), r["status"][:len(status)])
        if have != (total, late, pen, final, sub, flagged, status):
            print(f"FAIL {c}/{i}: {have} != {(total, late, pen, final, sub, flagged, status)}"); bad += 1
        else:
            print(f"ok {c}/{i}")
        if not r["time_source"] or (not r["late_note"] and not r["status"].startswith("error: cannot read")):
            print(f"FAIL {c}/{i}: no time_source or late_note"); bad += 1
sys.exit(1 if bad else 0)
PY
check "every row: total, late, penalty, final, submitted, flagged, status as worked out by hand" \
	sh -c "cat '$T/rows.out' | grep -v '^ok' ; ! grep -q FAIL '$T/rows.out'"
check "latefix graded at its on-time commit: parity 0 (the later fix not counted), sum 8 (not the work tree's broken sum.c)" \
	grep -q '^latefix,0,8,8,13,' "$T/out-git/grades.csv"
check "the row says which commit and that later ones were not counted" \
	grep -q '^latefix,.*committer date of [0-9a-f]\{7\} (1 later commit not counted)' "$T/out-git/grades.csv"
check "a clone made before the deadline is trusted, and says why" \
	grep -q '^ontime,.*cloned at 2026-11-20T23:59:00+01:00, before the deadline' "$T/out-git/grades.csv"
check "a date after the clone is refused: the clone's time is used" \
	grep -q '^future,.*dated after the clone (2026-11-21T11:59:00+01:00), which cannot be' "$T/out-git/grades.csv"
check "dates going backwards are flagged" grep -q '^backdated,.*commit dates go backwards' "$T/out-git/grades.csv"
check "after late_until: the row says final score 0" \
	grep -q '^zoe,.*after late_until (2026-11-23T23:59:00+01:00): final score 0' "$T/out-folders/grades.csv"
check "an extension is named in the row" grep -q '^lovelaceada_101,.*(extension to 2026-11-22T23:59:00+01:00)' "$T/out-canvas/grades.csv"
tree_state "$T/in/git" >"$T/git-after"
check "the students' repositories are untouched (every file's bytes, size and time)" cmp -s "$T/git-before" "$T/git-after"
git -C "$T/in/git/latefix" status --porcelain >"$T/latefix-status-after" 2>&1
check "the uncommitted change is still there (git status: ' M sum.c')" \
	sh -c "cmp -s '$T/latefix-status-before' '$T/latefix-status-after' && grep -qx ' M sum.c' '$T/latefix-status-after'"

# the LMS gets the final score
check "canvas-import.csv carries the final scores" sh -c "printf '%s\r\n' \
	'Student,ID,SIS User ID,SIS Login ID,Section,combgrader' 'Points Possible,,,,,13' 'babbagecharles,102,,,,13' \
	'hopper,103,,,,9.1' 'knuthdonald,105,,,,0' 'lovelaceada,101,,,,11.7' 'turingalan,104,,,,11.7' | cmp -s - '$T/out-canvas/canvas-import.csv'"
check "moodle-import.csv carries the final scores" sh -c "grep -q '^Participant 205,Grace Hopper,11.7,13,' '$T/out-moodle/moodle-import.csv' && \
	grep -q '^Participant 201,Ada Lovelace,13,13,' '$T/out-moodle/moodle-import.csv'"

# stray entries in an LMS download (issue 32, nobody lost): a folder, a .c file, a folder named like a
# student's id are rows of their own saying why (their feedback too), warned before grading and counted;
# notes.txt stays a warning; the import files are the same as without them (a stray has no LMS id).
# A folder makes auto-detection read a Canvas download as folders: --layout canvas.
for c in canvas moodle; do
	cp -a "$T/in/$c" "$T/in/$c-stray"
	mkdir "$T/in/$c-stray/alice"
	cp tests/batch/reference/parity.c "$T/in/$c-stray/alice/"
	cp tests/batch/reference/sum.c "$T/in/$c-stray/bob.c"
	echo "to do: grade" >"$T/in/$c-stray/notes.txt"
done
mkdir "$T/in/canvas-stray/lovelaceada_101"
chmod -R go+rX "$T/in"
"$GRADER" batch "$T/in/canvas-stray" -o "$T/out-canvas-stray" --layout canvas $SMALL --policy "$POLICY" -j 2 \
	>/dev/null 2>"$T/canvas-stray.err"
echo $? >"$T/canvas-stray.rc"
"$GRADER" batch "$T/in/moodle-stray" -o "$T/out-moodle-stray" $SMALL --policy "$POLICY" -j 2 \
	>/dev/null 2>"$T/moodle-stray.err"
echo $? >"$T/moodle-stray.rc"
for c in canvas moodle; do
	check "$c with stray entries: exit 1 (rows not graded)" [ "$(cat "$T/$c-stray.rc")" = 1 ]
	check "$c with stray entries: the import file is the one without them" \
		cmp "$T/out-$c/$c-import.csv" "$T/out-$c-stray/$c-import.csv"
	check "$c with stray entries: notes.txt is a warning, not a row" sh -c \
		"grep -q \"^grader: warning: ignoring '.*/notes.txt': not named like\" '$T/$c-stray.err' && \
		 ! grep -q '^notes' '$T/out-$c-stray/grades.csv'"
	lms=Canvas; [ "$c" = moodle ] && lms=Moodle
	check "$c with stray entries: alice's feedback says why" \
		grep -q "^Why: 'alice' is not named like an entry of a $lms download" "$T/out-$c-stray/feedback/alice.txt"
done
g=$(first_line '^grader: \[1/' "$T/canvas-stray.err")
for id in alice bob.c lovelaceada_101_stray; do
	w=$(first_line "^grader: warning: '$id' will not be graded: '.*' is not named like an entry of a Canvas download" \
		"$T/canvas-stray.err")
	check "canvas: stray '$id' warned before grading (line ${w:-none} < ${g:-none})" [ "${w:-9999}" -lt "${g:-0}" ]
done
cat >"$T/alice-row" <<'ROW' # grades.csv's lines end in CRLF: compared without the CR
alice,,,,13,,,,,not graded,,"error: 'alice' is not named like an entry of a Canvas download (files <name>_<user id>_<file id>_<file name>, no folders): not graded; if it is a student's work, upload it for them in the LMS and download again, or grade it as a class of its own; if not, move it out of the download"
ROW
check "canvas: the stray rows, each saying why and what to do; the student whose id a stray folder has is graded" \
	sh -c "tr -d '\\r' <'$T/out-canvas-stray/grades.csv' | grep -qxFf '$T/alice-row' && \
	grep -q \"^bob.c,,,,13,.*,\\\"error: 'bob.c' is not named like an entry of a Canvas download\" '$T/out-canvas-stray/grades.csv' && \
	grep -q \"^lovelaceada_101_stray,,,,13,.*,\\\"error: 'lovelaceada_101' is not named like\" '$T/out-canvas-stray/grades.csv' && \
	grep -q '^lovelaceada_101,5,8,13,13,2,10,11.7,' '$T/out-canvas-stray/grades.csv'"
check "canvas: the last line counts the stray rows" \
	grep -q "^grader: 5 of 8 students graded (3 rows with status 'error: ...'; 4 warnings about the class's entries above)" \
	"$T/canvas-stray.err"
check "moodle: the stray rows, and the last line counts them" \
	sh -c "grep -q \"^alice,.*\\\"error: 'alice' is not named like an entry of a Moodle download (folders <full name>_<participant id>_assignsubmission_file_ or such files): not graded; \" '$T/out-moodle-stray/grades.csv' && \
	grep -q \"^bob.c,.*\\\"error: 'bob.c' is not named like an entry of a Moodle download\" '$T/out-moodle-stray/grades.csv' && \
	grep -q \"^grader: 2 of 4 students graded (2 rows with status 'error: ...';\" '$T/moodle-stray.err'"

# --resume under another policy: nobody graded again, every row priced again
sed 's/percent: 10/percent: 5/' "$POLICY" >"$T/policy5.yaml"
"$GRADER" batch "$T/in/canvas" -o "$T/out-canvas" $SMALL --policy "$T/policy5.yaml" --resume -j 2 >/dev/null 2>"$T/resume.err"
check "--resume under another policy grades nobody again" grep -q '5 already graded: grading 0' "$T/resume.err"
check "... and prices again: hopper 3 days x 5 % = 15 %: 11.05" grep -q '^hopper_103,5,8,13,13,50,15,11.05,' "$T/out-canvas/grades.csv"

# the price where students and instructors look: the feedback's first lines, the summary's columns
printf '%s\n' '== Deadline and late work ==' \
	'Handed in 1 day 6 hours after the deadline (2026-11-20T23:59:00+01:00).' \
	'Late penalty: 20% (2 started days x 10%).' \
	'Score before the penalty: 13 / 13; final score: 10.4 / 13.' '' 'Grading late' >"$T/late-want.txt"
check "feedback/late.txt opens with how late, the penalty and the final score (worked out by hand)" \
	sh -c "head -6 '$T/out-git/feedback/late.txt' | cmp - '$T/late-want.txt'"
check "... and feedback/late.md too" sh -c "grep -q '^<!-- late -->\$' '$T/out-git/feedback/late.md' && \
	grep -qF 'Late penalty: 20% (2 started days x 10%).<br>' '$T/out-git/feedback/late.md' && \
	grep -qF 'final score: 10.4 / 13.' '$T/out-git/feedback/late.md' && grep -q '^## Grading results' '$T/out-git/feedback/late.md'"
check "feedback: on time says so" grep -qx 'Handed in on time (deadline 2026-11-20T23:59:00+01:00).' "$T/out-git/feedback/ontime.txt"
check "feedback: after late_until (not graded) says the final score is 0" sh -c \
	"grep -qF 'after the last moment late work was taken (2026-11-23T23:59:00+01:00).' '$T/out-git/feedback/toolate.txt' && \
	 grep -qx 'Late penalty: 100%: the final score is 0.' '$T/out-git/feedback/toolate.txt'"
check "feedback after --resume under another policy: priced again, one block (3 days x 5 % = 15 %: 11.05)" sh -c \
	"[ \$(grep -c '^== Deadline and late work ==\$' '$T/out-canvas/feedback/hopper_103.txt') = 1 ] && \
	 [ \$(grep -c '^<!-- late -->\$' '$T/out-canvas/feedback/hopper_103.md') = 1 ] && \
	 grep -qx 'Late penalty: 15% (3 started days x 5%).' '$T/out-canvas/feedback/hopper_103.txt' && \
	 grep -qF 'final score: 11.05 / 13.' '$T/out-canvas/feedback/hopper_103.txt'"
check "summary.html: late, penalty and final columns (late: 30 h, 20 %, 10.4)" sh -c \
	"grep -qF '<th class=\"n\">Total</th><th class=\"n\">Late (h)</th><th class=\"n\">Penalty (%)</th><th class=\"n\">Final</th>' '$T/out-git/summary.html' && \
	 grep -qF '>late</a></td><td class=\"n\" data-v=\"5.000000\">5</td><td class=\"n\" data-v=\"8.000000\">8</td><td class=\"n\" data-v=\"13.000000\">13</td><td class=\"n\" data-v=\"30.000000\">30</td><td class=\"n\" data-v=\"20.000000\">20</td><td class=\"n\" data-v=\"10.400000\">10.4</td>' '$T/out-git/summary.html'"
# per started hour, and a cap that bites: 1 % an hour, at most 40 % (worked out by hand from make-late.py's times)
sed -e 's/per: day/per: hour/' -e 's/percent: 10/percent: 1/' -e 's/cap: 30/cap: 40/' "$POLICY" >"$T/policy-hour.yaml"
"$GRADER" batch "$T/in/canvas" -o "$T/out-canvas" $SMALL --policy "$T/policy-hour.yaml" --resume -j 2 >/dev/null 2>"$T/resume-hour.err"
check "per: hour and a cap: hopper 50 h x 1 % = 50 %, capped at 40 %: 7.8; turing 1 h charged: 12.87; lovelace 2 h: 12.74" sh -c \
	"grep -q '^hopper_103,5,8,13,13,50,40,7.8,.*50 hours x 1% = 50%, capped at 40%' '$T/out-canvas/grades.csv' && \
	 grep -q '^turingalan_104,5,8,13,13,1,1,12.87,' '$T/out-canvas/grades.csv' && \
	 grep -q '^lovelaceada_101,[^,]*,[^,]*,13,13,2,2,12.74,' '$T/out-canvas/grades.csv' && \
	 grep -q '^knuthdonald_105,5,8,13,13,84.02,100,0,' '$T/out-canvas/grades.csv' && \
	 grep -qx 'Late penalty: 40% (50 started hours x 1%, at most 40%).' '$T/out-canvas/feedback/hopper_103.txt'"
"$GRADER" batch "$T/in/canvas" -o "$T/out-canvas" $SMALL --resume -j 2 >/dev/null 2>"$T/resume-nopolicy.err"
check "--resume without a policy takes the block out of the feedback" sh -c \
	"! grep -q 'Deadline and late work' '$T/out-canvas/feedback/hopper_103.txt' '$T/out-canvas/feedback/hopper_103.md' && \
	 head -1 '$T/out-canvas/feedback/hopper_103.txt' | grep -q '^Grading '"
# the folders class and a .rar the grader does not unpack: a student not graded (times kept: -p)
cp -Rp "$T/in/folders" "$T/in/folders-ko" && printf 'Rar!' >"$T/in/folders-ko/bob.rar" &&
	touch -d 2026-11-20T12:00:00+01:00 "$T/in/folders-ko/bob.rar"
"$GRADER" batch "$T/in/folders-ko" -o "$T/out-ko" $SMALL --policy "$POLICY" --lang ko -j 2 >/dev/null 2>"$T/ko.err"
check "--lang ko: the block in Korean (zoe after late_until, yan on time)" sh -c \
	"head -1 '$T/out-ko/feedback/zoe.txt' | grep -qx '== 마감과 지각 제출 ==' && \
	 grep -qx '지각 감점: 100%, 최종 점수는 0점입니다.' '$T/out-ko/feedback/zoe.txt' && \
	 grep -qx '기한 안에 제출했습니다 (마감 2026-11-20T23:59:00+01:00).' '$T/out-ko/feedback/yan.txt'"
check "--lang ko: a student not graded is told so, and why, in Korean (feedback/bob.txt and .md)" sh -c \
	"grep -qxF \"제출물 'bob.rar'은(는) 채점되지 않았습니다.\" '$T/out-ko/feedback/bob.txt' && \
	 grep -qF \"이유: 'bob.rar' is an archive the grader does not unpack\" '$T/out-ko/feedback/bob.txt' && \
	 grep -qx '이 부분을 고쳐 다시 제출하거나 담당 교수자에게 문의하세요.' '$T/out-ko/feedback/bob.txt' && \
	 grep -qx '## 채점되지 않음' '$T/out-ko/feedback/bob.md' && \
	 grep -qF '제출물 <code>bob.rar</code>은(는) 채점되지 않았습니다.' '$T/out-ko/feedback/bob.md' && \
	 grep -qF '**이유:** ' '$T/out-ko/feedback/bob.md'"

# shards merged == one run; shards under different policies are refused
"$GRADER" batch "$T/in/git" -o "$T/s1" $SMALL --policy "$POLICY" --shard 1/2 -j 1 >/dev/null 2>&1
"$GRADER" batch "$T/in/git" -o "$T/s2" $SMALL --policy "$POLICY" --shard 2/2 -j 1 >/dev/null 2>&1
"$GRADER" merge "$T/s1" "$T/s2" -o "$T/merged" >/dev/null 2>"$T/merge.err"
check "merged shards give the one run's grades.csv byte for byte" cmp "$T/merged/grades.csv" "$T/out-git/grades.csv"
"$GRADER" batch "$T/in/git" -o "$T/s2b" $SMALL --policy "$T/policy5.yaml" --shard 2/2 -j 1 >/dev/null 2>&1
"$GRADER" merge "$T/s1" "$T/s2b" -o "$T/merged2" >/dev/null 2>"$T/merge2.err"
rc=$?
check "shards under different policies: merge refuses (exit 2, says why)" \
	sh -c "[ $rc = 2 ] && grep -q 'graded under different --policy files' '$T/merge2.err'"

# mistakes in the policy: exit 2 before anything is graded, FILE:LINE:COL and what is wrong
mistake() { # mistake NAME EXPECTED-MESSAGE (the file is on stdin)
	cat >"$T/$1.yaml"
	"$GRADER" batch "$T/in/folders" -o "$T/out-$1" $SMALL --policy "$T/$1.yaml" >/dev/null 2>"$T/$1.err"
	rc=$?
	check "policy mistake '$1': exit 2 and '$2'" sh -c "[ $rc = 2 ] && grep -qF \"grader: error: $T/$1.yaml:$2\" '$T/$1.err' && [ ! -e '$T/out-$1' ]"
}
printf 'deadline: 2026-11-20 23:59\nlate_until: 2026-11-23T23:59:00+01:00\npenalty: {per: day, percent: 10}\n' |
	mistake no-offset "1:11: 'deadline' takes a date and time in ISO 8601 with its UTC offset"
printf 'deadline: 2026-11-20T23:59:00+01:00\nlate_until: 2026-11-23T23:59:00+01:00\npenalty:\n  per: week\n  percent: 10\n' |
	mistake per-week "4:8: 'per' takes hour or day, not 'week'"
printf 'dealine: 2026-11-20T23:59:00+01:00\n' | mistake typo-key "1:1: unknown key 'dealine'"
printf 'deadline: 2026-11-20T23:59:00+01:00\nlate_until: 2026-11-19T23:59:00+01:00\npenalty: {per: day, percent: 10}\n' |
	mistake backwards "2:13: late_until is before the deadline"
printf 'deadline: 2026-11-20T23:59:00+01:00\nlate_until: 2026-11-23T23:59:00+01:00\npenalty: {per: hour, percent: 150}\n' |
	mistake percent "3:31: 'percent' takes a percentage from 0 to 100, not '150'"
printf 'deadline: 2026-11-20T23:59:00+01:00\nlate_until: 2026-11-23T23:59:00+01:00\npenalty: {per: day, percent: 10}\nextensions:\n  alice: 2026-02-30T12:00:00Z\n' |
	mistake bad-date "5:10: 'alice' takes a date and time in ISO 8601"
printf 'deadline: 2026-11-20T23:59:00+01:00\npenalty: [per: day\n' | mistake syntax "3:1: YAML syntax error"
printf 'deadline: 2026-11-20T23:59:00+01:00\npenalty: {per: day, percent: 10}\n' | mistake no-late-until "1:1: the policy needs 'late_until'"

# ---- 2. regrades ----
mkdir "$T/rg"
cp -r tests/batch/problems tests/batch/reference "$T/rg/"
RG="--problems $T/rg/problems --reference $T/rg/reference --cache $T/rg-cache -j 2"
"$GRADER" batch "$T/in/folders" -o "$T/out-rg" $RG >/dev/null 2>"$T/rg0.err"
check "no regrade.md without --resume" [ ! -e "$T/out-rg/regrade.md" ]
# the reference "fixed": 3 is now even, so every student's small/isEven(3) fails and parity loses 0.5
sed -i 's/return n % 2 == 0;/return n % 2 == 0 || n == 3;/' "$T/rg/reference/parity.c"
grep -q 'n == 3' "$T/rg/reference/parity.c" || bad "the reference could not be changed"
"$GRADER" batch "$T/in/folders" -o "$T/out-rg" $RG --resume >/dev/null 2>"$T/rg1.err"
check "--resume after the reference changed grades both again and points at regrade.md" \
	sh -c "grep -q 'grading 2 with' '$T/rg1.err' && grep -q 'what the regrade moved: .*/regrade.md' '$T/rg1.err'"
printf '%s\r\n' 'id,problem,old_score,new_score,old_status,new_status,changed_tests' \
	'yan,parity,5,4.5,ok,ok,small/isEven(3): correct → wrong-answer' \
	'zoe,parity,5,4.5,ok,ok,small/isEven(3): correct → wrong-answer' >"$T/rg-want.csv"
check "regrade.csv: per student and problem the old and new score and the test whose verdict changed" \
	cmp "$T/rg-want.csv" "$T/out-rg/regrade.csv"
check "regrade.md: the counts and one table row per student and problem that moved" sh -c \
	"grep -q '^2 students graded again: 2 compared with their earlier result, 0 had none.  2 moved' '$T/out-rg/regrade.md' && \
	 grep -qF '| yan | parity | 5 | 4.5 | small/isEven(3): correct → wrong-answer |' '$T/out-rg/regrade.md' && \
	 [ \$(grep -c '^| [yz]' '$T/out-rg/regrade.md') = 2 ]"
check "grades.csv has the new scores" grep -q '^yan,4.5,8,12.5,13,ok' "$T/out-rg/grades.csv"
"$GRADER" batch "$T/in/folders" -o "$T/out-rg" $RG --regrade yan >/dev/null 2>"$T/rg2.err"
check "--regrade yan: yan graded again (1 of 2), zoe kept" grep -q '1 already graded: grading 1 with' "$T/rg2.err"
check "... and regrade.md says nothing moved" sh -c \
	"grep -q '^1 student graded again: 1 compared' '$T/out-rg/regrade.md' && grep -qx 'Nothing moved.' '$T/out-rg/regrade.md'"
"$GRADER" batch "$T/in/folders" -o "$T/out-rg" $RG >/dev/null 2>&1
check "a run without --resume removes the earlier regrade.md" [ ! -e "$T/out-rg/regrade.md" ]
# --regrade-problem: sum's reference "fixed" (now one too many: every hidden sum test fails), parity's change
# undone at the same time: sum's rows come first, parity's under "Other problems"
sed -i 's/return s;/return s + 1;/' "$T/rg/reference/sum.c"
sed -i 's/ || n == 3;/;/' "$T/rg/reference/parity.c"
"$GRADER" batch "$T/in/folders" -o "$T/out-rg" $RG --regrade-problem sum >/dev/null 2>"$T/rg4.err"
check "--regrade-problem sum: every student graded again, regrade.md written" \
	sh -c "grep -q ': grading 2 with' '$T/rg4.err' && grep -q 'what the regrade moved: .*/regrade.md' '$T/rg4.err'"
cat >"$T/rg4-want.md" <<'MD'
# Regrade of problem sum: what moved

2 students graded again: 2 compared with their earlier result, 0 had none.  2 moved (a score, a status or a test's verdict), 0 did not; 8 test verdicts changed.

## Problem sum: 2 rows moved

| student | problem | old score | new score | what changed |
|---|---|---|---|---|
| yan | sum | 8 | 2 | random/1: correct → wrong-answer; random/2: correct → wrong-answer; random/3: correct → wrong-answer |
| zoe | sum | 8 | 2 | random/1: correct → wrong-answer; random/2: correct → wrong-answer; random/3: correct → wrong-answer |

## Other problems, graded again with it: 2 rows moved

| student | problem | old score | new score | what changed |
|---|---|---|---|---|
| yan | parity | 4.5 | 5 | small/isEven(3): wrong-answer → correct |
| zoe | parity | 4.5 | 5 | small/isEven(3): wrong-answer → correct |
MD
check "regrade.md: sum's rows (8 → 2, its three hidden tests), then the other problems' (parity 4.5 → 5)" \
	sh -c "diff '$T/rg4-want.md' '$T/out-rg/regrade.md'"
"$GRADER" batch "$T/in/folders" -o "$T/out-rg" $RG --regrade-problem nope >/dev/null 2>"$T/rg5.err"
rc=$?
check "--regrade-problem of a problem not graded: exit 2, names the problems" \
	sh -c "[ $rc = 2 ] && grep -qF \"regrade-problem 'nope': no such problem is graded ('parity', 'sum')\" '$T/rg5.err'"
"$GRADER" batch "$T/in/folders" -o "$T/out-rg" $RG --regrade nobody >/dev/null 2>"$T/rg3.err"
rc=$?
check "--regrade of an id not in the class: exit 2, says so" \
	sh -c "[ $rc = 2 ] && grep -q \"regrade 'nobody': no such student in the class\" '$T/rg3.err'"

# ---- 4. --reveal-hidden: after the deadline, each failed hidden group's smallest failing input ----
mkdir -p "$T/rv/neg"
cp tests/batch/reference/parity.c "$T/rv/neg/"
cat >"$T/rv/neg/sum.c" <<'C'
long long total(const int *L, int n);
/* forgets negative values: the public examples have none, the hidden random rows do */
long long total(const int *L, int n)
{
    long long s = 0;
    for (int i = 0; i < n; i++)
        if (L[i] > 0)
            s += L[i];
    return s;
}
C
chmod -R go+rX "$T/rv"
"$GRADER" batch "$T/rv" -o "$T/out-rv0" $SMALL -j 1 >/dev/null 2>"$T/rv0.err"
"$GRADER" batch "$T/rv" -o "$T/out-rv1" $SMALL -j 1 --reveal-hidden >/dev/null 2>"$T/rv1.err"
# the smallest row the generator allows (length 1) with the value nearest 0 that still fails: [-1]
check "--reveal-hidden: the hidden group's smallest failing input in feedback/neg.txt" grep -qx \
	'    smallest failing input (shown after the deadline): total(\[-1\]): expected -1, returned 0' "$T/out-rv1/feedback/neg.txt"
check "... and in feedback/neg.md" grep -qF \
	'**smallest failing input (shown after the deadline):** total(&#91;-1&#93;): expected -1, returned 0' "$T/out-rv1/feedback/neg.md"
check "... under its group, the hidden one: 0 of 3 passed" sh -c \
	"grep -B1 'smallest failing input (shown after the deadline)' '$T/out-rv1/feedback/neg.txt' | head -1 | grep -q '^  random (hidden, .*0 of 3 passed'"
# what the hidden tests were (the instructor's record): their calls appear in no student's feedback, either way
python3 -c 'import json,sys
for p in json.load(open(sys.argv[1]))["problems"]:
    for t in p["tests"]:
        if t.get("visibility") == "hidden": print(t["call"])' "$T/out-rv0/students/neg.json" >"$T/rv-hidden-calls"
check "the instructor's record lists the 3 failed hidden calls" [ "$(grep -c '^total(\[' "$T/rv-hidden-calls")" = 3 ]
check "without --reveal-hidden: no hidden input in feedback/ (neither [-1] nor a hidden call)" sh -c \
	"! grep -rqF -e 'total([-1])' -e 'total(&#91;-1&#93;)' -e 'shown after the deadline' -f '$T/rv-hidden-calls' '$T/out-rv0/feedback'"
check "with it: still none of the hidden tests' own inputs in feedback/" sh -c "! grep -rqF -f '$T/rv-hidden-calls' '$T/out-rv1/feedback'"
check "--reveal-hidden changes no score" cmp "$T/out-rv0/grades.csv" "$T/out-rv1/grades.csv"

# ---- 3. the CI template ----
if python3 -c 'import yaml' 2>/dev/null; then
	python3 - dist/github/grade.yml >"$T/ci-yml.out" 2>&1 <<'PY'
import sys, yaml
w = yaml.safe_load(open(sys.argv[1]))
on = w.get("on", w.get(True))   # PyYAML reads the key on as True
assert "push" in on and "pull_request" not in on and "pull_request_target" not in on, on
assert "public tests only" in w["name"], w["name"]
# autograding-grading-reporter@v1 updates the check run named run-autograding-tests (src/notify-classroom.js)
assert list(w["jobs"]) == ["run-autograding-tests"], list(w["jobs"])
steps = w["jobs"]["run-autograding-tests"]["steps"]
rep = [s for s in steps if str(s.get("uses", "")).startswith("classroom-resources/autograding-grading-reporter@")]
assert len(rep) == 1 and "public tests only" in rep[0]["name"], rep
PY
	check "grade.yml: once per push (no pull_request), 'public tests only' in its names, the job Classroom's reporter finds" \
		sh -c "cat '$T/ci-yml.out'; [ ! -s '$T/ci-yml.out' ]"
else
	echo "note: no python3-yaml: grade.yml's structure not checked"
fi
check "tools/pack.sh copies grade.yml and grade.sh into the student pack" \
	sh -c "grep -q 'cp dist/github/grade.yml ' tools/pack.sh && grep -q 'cp dist/github/grade.sh ' tools/pack.sh"
mkdir -p "$T/ci/.github" "$T/ci/bin" "$T/ci/student_template"
cp dist/github/grade.sh "$T/ci/.github/"
cp "$GRADER" "$T/ci/bin/grader"
cp -r tests/batch/problems tests/batch/reference "$T/ci/"
cp tests/batch/reference/parity.c tests/batch/reference/sum.c "$T/ci/student_template/"
chmod -R go+rX "$T/ci"
: >"$T/ci-summary.md"
(cd "$T/ci" && GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY="$T/ci-summary.md" GITHUB_OUTPUT="$T/ci-output" \
	.github/grade.sh >"$T/ci.out" 2>"$T/ci.err")
rc=$?
check "grade.sh as on GitHub Actions: exit 0 on a correct submission, a 'Public tests only' annotation" \
	sh -c "[ $rc = 0 ] && grep -q '^::notice title=Public tests only::this score counts the public tests' '$T/ci.out'"
check "... and the job summary says the score counts the public tests only" \
	grep -q '^> \*\*Public tests only.\*\* The score above, and the one GitHub Classroom shows' "$T/ci-summary.md"
check "... and the Classroom result is still written" grep -q '^result=' "$T/ci-output"

check "no sanitizer reports (resume, shards, mistakes)" no_sanitizer_errors "$T"/*.err
left=$(find "$T/tmp" -mindepth 1 | head -3)
check "nothing left in TMPDIR" [ -z "$left" ]

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
