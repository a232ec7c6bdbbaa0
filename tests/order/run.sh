#!/bin/sh
# tests/order/run.sh - nothing a student sees depends on a hidden test: every
# public test of a run, of every problem, ends before the first hidden test
# starts, and so does what is shown besides them - the start-up output, the
# smallest failing input, growth (engine.h, "the order tests run in").
#
# The submission (tests/order/submission) prints CLOCK_MONOTONIC readings:
# each call the time it began and ended, a Python module the time of its
# import; problem a's C calls also how many calls their runner made before
# (a page shared by the runner's tests, made by a constructor), and its
# wrong answers (the drawn group, and what shrinking finds) are the time of
# the call.  Problems (tests/order/problems): a (C) public tests, a failing
# generated group, growth, hidden tests; b (Python) public and hidden tests;
# c (Python) hidden tests only.  Graded at -j 1 and -j 2 with --growth,
# once with --show-hidden (the instructor's view holds every test's
# readings: the order is checked there) and once as a student sees it; then
# without --growth, where a hidden time limit alone has growth measured.
#
# On the engine of 3e4bb33 (each problem's hidden tests right after its
# public ones) the checks of the clock, the start-up outputs, shrinking,
# growth and the log fail.
#
# Prints "ok - ..." / "not ok - ..." and "N passed, M failed".  Some 30 s.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
lib_tmpdir grader-order
TMP=$T
need_grader

mkdir "$TMP/sub"
cp tests/order/submission/* "$TMP/sub/"
chmod -R a+rX "$TMP"

# grade NAME ARGS...: grade the submission into $TMP/NAME.{json,err,rc}
grade() {
	name=$1
	shift
	"$GRADER" grade --problems tests/order/problems --reference tests/order/reference --cache "$TMP/cache" \
		--format "json:$TMP/$name.json" "$@" "$TMP/sub" >"$TMP/$name.out" 2>"$TMP/$name.err"
	echo $? >"$TMP/$name.rc"
}

cat >"$TMP/check.py" <<'PY'
import json, re, sys

kind, path, jobs = sys.argv[1], sys.argv[2], int(sys.argv[3])
tag = f"-j {jobs}, {kind}"
report = json.load(open(path))
problems = {p["id"]: p for p in report["problems"]}


def say(cond, what, detail=""):
    print(("ok - " if cond else "not ok - ") + f"{tag}: {what}" + ("" if cond or not detail else f"  [{detail}]"))


CALL = re.compile(r"runner (\S+) (?:call (\d+) )?x (-?\d+) from (\d+) to (\d+)")
calls = []  # (problem, visibility, runner, call number or None, t0, t1)
for p in report["problems"]:
    for t in p["tests"]:
        m = CALL.search(t.get("output") or "")
        if not m and t["verdict"] == "timelimit":
            continue  # twice(105): a test stopped at its wall-clock limit keeps no output
        if not m:
            say(False, f"{p['id']} {t['name']} printed its clock readings", repr(t.get("output")))
            continue
        calls.append((p["id"], t["visibility"], m.group(1), None if m.group(2) is None else int(m.group(2)),
                      int(m.group(4)), int(m.group(5))))


def startup(pid):
    m = re.search(r"startup at (\d+)", problems[pid].get("startup_output") or "")
    return int(m.group(1)) if m else None


# per runner of a (C): the public calls are its first ones, numbered from 0 (the counter a public test
# prints is the number of public calls before it), and no public call comes after a hidden one
runners = {}
for pid, vis, runner, n, t0, t1 in calls:
    if pid == "a":
        runners.setdefault(runner, []).append((n, vis))
bad = []
for runner, seen in runners.items():
    if runner == "none":
        bad.append("no shared page")
        continue
    public = sorted(n for n, vis in seen if vis == "public")
    hidden = sorted(n for n, vis in seen if vis == "hidden")
    if public != list(range(len(public))) or (public and hidden and hidden[0] < public[-1]):
        bad.append(f"{runner}: public calls {public}, hidden calls {hidden}")
say(runners and not bad, "a public test runs only in a runner that ran no hidden test (its counter: public calls only)",
    "; ".join(bad))

if kind == "student":
    hidden = [f"{p['id']} {t['name']}" for p in report["problems"] for t in p["tests"] if t["visibility"] != "public"]
    say(not hidden, "no hidden test listed", ", ".join(hidden))
    say(problems["c"]["startup_output"] is None,
        "problem c (hidden tests only): its start-up output, printed after other hidden tests ran, is not shown",
        repr(problems["c"]["startup_output"]))
    say(startup("b") is not None, "problem b: its start-up output (from before its public tests) is shown",
        repr(problems["b"]["startup_output"]))
    say(problems["a"]["shrunk"] is not None and problems["a"]["growth"] is not None,
        "problem a: the smallest failing input and growth are shown")
    sys.exit(0)

# the instructor's view of the same run: every test's readings
public = [c for c in calls if c[1] == "public"]
hidden = [c for c in calls if c[1] == "hidden"]
say(len(public) == 9 and len(hidden) in (12, 13),
    f"{len(public)} public and {len(hidden)} hidden tests printed their readings (9, and 12 or 13: twice(105) times "
    "out, and a runner killed at the wall-clock limit keeps none of its output)")
if not public or not hidden:
    sys.exit(0)
last_public = max(public, key=lambda c: c[5])
first_hidden = min(hidden, key=lambda c: c[4])
say(last_public[5] < first_hidden[4],
    "every public test ended before the first hidden test began",
    f"public {last_public[0]} ended at {last_public[5]}, hidden {first_hidden[0]} began at {first_hidden[4]}")

b_start = startup("b")
say(b_start is not None and b_start < first_hidden[4],
    "problem b's start-up output (shown to students) was printed before any hidden test began",
    f"startup at {b_start}, first hidden test at {first_hidden[4]}")
c_start = startup("c")
say(c_start is not None and c_start > last_public[5],
    "problem c's start-up output (instructor only) comes from its runner started for hidden tests",
    f"startup at {c_start}")

shrunk = problems["a"]["shrunk"]
say(shrunk is not None and shrunk["runs"] > 0 and shrunk["returned"] is not None
    and last_public[5] < shrunk["returned"] < first_hidden[4],
    "shrinking ran after the public tests and before any hidden test (the time it returned)",
    f"shrunk {shrunk and (shrunk['call'], shrunk['returned'], shrunk['runs'])}, public until {last_public[5]}, "
    f"hidden from {first_hidden[4]}")

growth = problems["a"]["growth"]
gap_s = (first_hidden[4] - last_public[5]) / 1e6
need_s = (shrunk["seconds"] if shrunk else 0) + 0.9 * (growth["used_s"] if growth else 0) / jobs
say(growth is not None and growth["used_s"] > 0.2 and gap_s >= need_s,
    "growth was measured between the public and the hidden tests (the gap holds shrinking and growth)",
    f"gap {gap_s:.3f} s, shrinking {shrunk and shrunk['seconds']} s, growth {growth and growth['used_s']} s of CPU "
    f"at -j {jobs}")
PY

for j in 1 2; do
	grade shown-j$j -j $j --show-hidden --growth
	grade student-j$j -j $j --growth
	for v in shown student; do
		n=$v-j$j
		if [ "$(cat "$TMP/$n.rc")" = 1 ]; then
			ok "-j $j, $v: exit 1 (problem a's drawn tests fail)"
		else
			not_ok "-j $j, $v: exit $(cat "$TMP/$n.rc"), not 1: $(tail -3 "$TMP/$n.err")"
		fi
		if grep -qE 'Sanitizer|runtime error:' "$TMP/$n.err"; then
			not_ok "-j $j, $v: sanitizer report: $(grep -E 'Sanitizer|runtime error:' "$TMP/$n.err" | head -2)"
		fi
		[ -s "$TMP/$n.json" ] || continue
		kind=$v
		[ $v = shown ] && kind=instructor
		python3 "$TMP/check.py" $kind "$TMP/$n.json" $j >"$TMP/$n.checks" 2>&1 ||
			echo "not ok - -j $j, $v: the checks failed: $(tail -1 "$TMP/$n.checks")" >>"$TMP/$n.checks"
		tally "$TMP/$n.checks"
	done
done

# Without --growth, only the hidden time limit (twice(105)) has growth measured: after the hidden tests,
# for the instructor alone - in no student's report, and not in the log a CI job shows students.
grade shown-nogrowth -j 2 --show-hidden
grade student-nogrowth -j 2
python3 - "$TMP/shown-nogrowth.json" "$TMP/student-nogrowth.json" "$TMP/student-nogrowth.err" >"$TMP/nogrowth.checks" 2>&1 <<'PY'
import json, sys
def growth(path):
    try:
        return [p for p in json.load(open(path))["problems"] if p["id"] == "a"][0]["growth"]
    except (OSError, ValueError, IndexError, KeyError) as e:
        return f"no report: {e}"
shown, student, log = growth(sys.argv[1]), growth(sys.argv[2]), open(sys.argv[3]).read()
print(("ok - " if isinstance(shown, dict) else "not ok - ") +
      "without --growth, the hidden time limit has growth measured for the instructor" +
      ("" if isinstance(shown, dict) else f"  [{shown}]"))
print(("ok - " if student is None else "not ok - ") +
      "...and the student's report shows none" + ("" if student is None else f"  [{student}]"))
print(("ok - " if "grows like" not in log else "not ok - ") +
      "...nor does the grader's log" + ("" if "grows like" not in log else f"  [{log.strip()}]"))
PY
tally "$TMP/nogrowth.checks"

finish
