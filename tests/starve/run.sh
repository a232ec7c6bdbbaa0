#!/bin/sh
# tests/starve/run.sh - a test the machine really starves of CPU is never the
# student's timelimit (issue 30, part 1; docs/verdicts.md).
#
# Grades tests/starve/submission (problems/s.yaml: honest code that needs
# 200 ms of CPU against a 400 ms limit and a 400 ms wall-clock backstop, so
# the bound on the waiting time given back, RUN_STARVED_WALL_FACTOR x 400 ms,
# is 1.6 s; problems/n.yaml: a test that sleeps past its 1000 ms backstop)
# three times with $GRADER:
#   idle      s correct, n timelimit (sleeping);
#   starved   starve.py pins every test process to one CPU where a SCHED_FIFO
#             busy loop leaves normal tasks 50 ms a second: s waits, runnable,
#             past the bound in each of its runs - judge-error naming the
#             machine's load, 3 runs (remeasure.h), never timelimit; n still
#             the sleeping timelimit, starved or not;
#   re-run    the same, but the machine turns quiet after s's first run: the
#             run again later counts, correct after 2 runs.
# The busy loop is this suite's own: started from the first test on, ended
# by pid when the grader is done (and by its own clock after 10 s at most),
# in the suite's throwaway PID namespace (whatever it starts dies with it).
# Needs root (SCHED_FIFO, the namespace), two CPUs and the kernel's RT
# throttling (sched_rt_runtime_us not -1: else the loop would hold its CPU
# whole); otherwise it says which is missing and exits 77 (skipped, never
# passed).  Prints "ok - ..." / "not ok - ..." per check and
# "N passed, M failed".  About 15 s.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

# cannot_run REASON: this check cannot run here; say why and count it skipped
cannot_run() {
	echo "SKIP (the starved-test checks cannot run here: $1)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 77
}
rt_runtime=$(cat /proc/sys/kernel/sched_rt_runtime_us 2>/dev/null || echo missing)
rt_period=$(cat /proc/sys/kernel/sched_rt_period_us 2>/dev/null || echo 0)
cpus=$(python3 -c 'import os; print(len(os.sched_getaffinity(0)))' 2>/dev/null || echo 0)
if [ "$(id -u)" != 0 ]; then
	cannot_run "a SCHED_FIFO busy loop and a PID namespace need root; run it as root, as CI does"
elif [ "$rt_runtime" = -1 ]; then
	cannot_run "the kernel's RT throttling is off (sched_rt_runtime_us = -1): a SCHED_FIFO busy loop would hold its CPU whole"
elif [ "$rt_runtime" = missing ] || [ "$rt_period" -le 0 ] || [ $((rt_runtime * 10)) -lt $((rt_period * 9)) ]; then
	cannot_run "sched_rt_runtime_us = $rt_runtime of sched_rt_period_us = $rt_period: a busy loop must be able to take 90 % of a CPU"
elif [ "$cpus" -lt 2 ]; then
	cannot_run "one CPU only: the grader needs one the busy loop leaves alone"
elif ! chrt -f 50 true 2>/dev/null; then
	cannot_run "chrt -f 50 fails here (SCHED_FIFO refused)"
fi
in_pid_namespace STARVE_TEST_IN_NS "$0" "$@"
if [ -z "${STARVE_TEST_IN_NS:-}" ]; then
	if [ -n "${CI:-}" ]; then
		not_ok "starved-test checks: unshare --pid --fork --mount-proc fails as root"
		finish
	fi
	cannot_run "unshare --pid --fork --mount-proc fails: no throwaway PID namespace for the busy loop"
fi
need_grader
lib_tmpdir grader-starve
TMP=$T
echo "# sched_rt_runtime_us = $rt_runtime of sched_rt_period_us = $rt_period, $cpus CPUs"
cpu=$(python3 -c 'import os; print(max(os.sched_getaffinity(0)))')

# grade LABEL [starve.py option] [grader options]: into $TMP/LABEL.json, .out, .rc, .wall (ms)
grade() {
	label=$1
	shift
	start=$(date +%s%N)
	case ${1:-} in
	idle)
		shift
		"$GRADER" grade --problems tests/starve/problems --reference tests/starve/reference \
			--cache "$TMP/cache" --no-growth --no-shrink "$@" --format "json:$TMP/$label.json" \
			tests/starve/submission >"$TMP/$label.out" 2>&1 ;;
	*)
		tests/starve/starve.py "$@" -- "$GRADER" grade --problems tests/starve/problems \
			--reference tests/starve/reference --cache "$TMP/cache" --no-growth --no-shrink $only \
			--format "json:$TMP/$label.json" tests/starve/submission >"$TMP/$label.out" 2>&1 ;;
	esac
	echo $? >"$TMP/$label.rc"
	echo $((($(date +%s%N) - start) / 1000000)) >"$TMP/$label.wall"
}

only=
grade idle idle
grade starved 10 "$cpu"
only="--only s"
grade rerun --first-run-only 10 "$cpu"
# nothing real-time is left behind: the loops are gone (the namespace holds only this suite)
left=$(ps -eo pid=,cls=,args= | awk '$2 != "TS" && $2 != "-" { print }')
check "no real-time busy loop is left after the grader is done${left:+: $left}" [ -z "$left" ]

python3 - "$TMP" <<'PY' >"$TMP/checks"
import json, sys
tmp = sys.argv[1]
def ok(cond, what):
    print(("ok - " if cond else "not ok - ") + what)
def run(label):
    try:
        d = json.load(open("%s/%s.json" % (tmp, label)))
    except (OSError, ValueError):
        d = None
    out = open("%s/%s.out" % (tmp, label)).read()
    rc, wall = (open("%s/%s.%s" % (tmp, label, k)).read().strip() for k in ("rc", "wall"))
    ok(d is not None, "%s: graded (exit %s, %s ms)%s" % (label, rc, wall, "" if d else ": " + out[-300:]))
    if d is None:
        return None, rc, out
    return {p["id"]: p["tests"][0] for p in d["problems"]}, rc, out, d["summary"]
def show(t):
    return "%s after %s run(s), %s ms CPU, %s ms wall: %s" % (t["verdict"], t["runs"], t["time_ms"], t["wall_ms"],
                                                              (t.get("message") or "")[:160])
SLEEPING = "no answer within the wall-clock limit of 1000 ms: the program was sleeping"

r = run("idle")
if r[0]:
    t, rc, out, summary = r
    ok(t["s"]["verdict"] == "correct" and t["s"]["runs"] == 1,
       "idle: the honest test is correct at once (%s)" % show(t["s"]))
    ok(t["n"]["verdict"] == "timelimit" and t["n"]["message"].startswith(SLEEPING),
       "idle: the sleeping test is timelimit, sleeping (%s)" % show(t["n"]))

r = run("starved")
if r[0]:
    t, rc, out, summary = r
    s, n = t["s"], t["n"]
    note = [line for line in out.splitlines() if line.startswith("# starve.py")]
    print(note[0] if note else "# starve.py said nothing")
    ok(s["verdict"] != "timelimit", "starved: the honest test is not the student's timelimit (%s)" % show(s))
    ok(s["verdict"] == "judge-error" and "the machine was too busy to judge this test" in s["message"]
       and "not your program's fault" in s["message"],
       "starved: it is a judge-error that names the machine's load")
    ok(s["runs"] == 3 and summary.get("remeasured") == 1,
       "starved: it was run again twice, on a machine starved each time (runs %s, remeasured %s)"
       % (s["runs"], summary.get("remeasured")))
    # the message: "... waited W ms of E ms for a CPU ...": it had less than its 400 ms to run, and was
    # given back waiting time up to the bound, 4 x 400 ms
    import re
    m = re.search(r"waited (\d+) ms of (\d+) ms", s["message"] or "")
    ok(m is not None and int(m.group(2)) >= 1600 and int(m.group(2)) - int(m.group(1)) < 400,
       "starved: the message's figures show the bound reached, with less than the limit to run (%s)"
       % (m.group(0) if m else "no figures"))
    ok(n["verdict"] == "timelimit" and n["message"].startswith(SLEEPING),
       "starved: the sleeping test is still its own timelimit, sleeping (%s)" % show(n))
    ok(rc == "3", "starved: the grader exits 3, its own failure to judge, not 1 (exit %s)" % rc)

r = run("rerun")
if r[0]:
    t, rc, out, summary = r
    s = t["s"]
    note = [line for line in out.splitlines() if line.startswith("# starve.py")]
    print(note[0] if note else "# starve.py said nothing")
    ok(s["verdict"] == "correct" and s["runs"] == 2 and summary.get("remeasured") == 1,
       "re-run: starved once, run again later on a quiet machine, the run that counts is correct (%s)" % show(s))
    ok(rc == "0", "re-run: the grader exits 0 (exit %s)" % rc)
PY
tally "$TMP/checks"
finish
