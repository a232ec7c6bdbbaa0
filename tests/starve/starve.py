#!/usr/bin/env python3
"""tests/starve/starve.py - run a command while its tests are starved of CPU.

    starve.py [--first-run-only] SECONDS CPU -- COMMAND...

Runs COMMAND (a grader) on the CPUs other than CPU, and from its first test on a SCHED_FIFO busy loop on CPU (chrt -f 50
taskset -c CPU), which ends itself after SECONDS whatever becomes of this
script.  While COMMAND runs, every case child of its runners - a process of a per-slot
sandbox uid, 100000 + 64 x block + slot, not the block's last, the
compiler's (docs/isolation.md), whose parent (the runner's zygote) is one
too - is pinned to CPU, where the kernel leaves normal tasks only what
sched_rt_runtime_us spares (5 % by default, in bursts of 50 ms a second):
the test waits, runnable, for nearly all of its wall time.  The zygotes
are left alone, so that they start as fast as the machine lets them.

With --first-run-only the machine turns quiet once the first case child it
pinned has gone: the busy loop is ended, and later ones are left alone
(a test run again later, on a quiet machine).

Exits with COMMAND's status; prints one "# ..." line on what it did to
stderr.  Ends only the processes it started, by pid.  Root only.
"""
import os
import signal
import subprocess
import sys
import time

SLOT_UID_BASE, SLOT_BLOCK = 100000, 64
# the busy loop: bounded by its own clock, so that nothing needs to outlive it to end it
LOOP = "import sys, time\nend = time.monotonic() + float(sys.argv[1])\nwhile time.monotonic() < end:\n    pass\n"


def is_runner(uid):
    return uid >= SLOT_UID_BASE and (uid - SLOT_UID_BASE) % SLOT_BLOCK != SLOT_BLOCK - 1


def case_children():
    """The live case children: processes of a runner's sandbox uid (not the compiler's) whose parent, the
    runner's zygote, is one too.  The zygotes themselves start as fast as the machine lets them."""
    procs = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/status" % name) as f:
                fields = dict(line.split(":", 1) for line in f if line.startswith(("Uid:", "PPid:")))
            procs[int(name)] = (int(fields["Uid"].split()[0]), int(fields["PPid"]))
        except (OSError, KeyError, ValueError):
            continue
    return [pid for pid, (uid, ppid) in procs.items()
            if is_runner(uid) and ppid in procs and is_runner(procs[ppid][0])]


def pin(pid, cpu):
    """Pin every thread of pid to cpu; False when it is gone."""
    try:
        tids = [int(t) for t in os.listdir("/proc/%d/task" % pid)]
    except OSError:
        return False
    for tid in tids:
        try:
            os.sched_setaffinity(tid, {cpu})
        except OSError:
            pass
    return True


def main():
    args = sys.argv[1:]
    first_only = bool(args) and args[0] == "--first-run-only"
    if first_only:
        args = args[1:]
    if len(args) < 4 or args[2] != "--":
        sys.stderr.write(__doc__)
        return 2
    seconds, cpu, command = float(args[0]), int(args[1]), args[3:]
    loop, started, rt_seconds = None, None, None
    pinned, first = set(), None
    child = None

    def start_loop():
        nonlocal loop, started
        # chrt and taskset exec the loop: loop.pid is the loop itself
        loop = subprocess.Popen(["chrt", "-f", "50", "taskset", "-c", str(cpu), sys.executable, "-c", LOOP,
                                 str(seconds)])
        started = time.monotonic()

    def stop_loop():
        nonlocal rt_seconds
        if loop is None or rt_seconds is not None:
            return
        if loop.poll() is None:
            loop.kill()
        loop.wait()
        rt_seconds = time.monotonic() - started

    def on_signal(signo, frame):
        raise SystemExit(128 + signo)

    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, on_signal)
    try:
        others = os.sched_getaffinity(0) - {cpu}
        child = subprocess.Popen(command, preexec_fn=lambda: os.sched_setaffinity(0, others))
        while child.poll() is None:
            if loop is not None and loop.poll() is not None:
                stop_loop()  # it ended itself: its time is up
            if rt_seconds is None:
                for pid in case_children():
                    if pid not in pinned and pin(pid, cpu):
                        pinned.add(pid)
                        if first is None:
                            first = pid
                            start_loop()  # from the first test on: the grader starts as fast as it can
                if first_only and first is not None and not os.path.exists("/proc/%d" % first):
                    stop_loop()
            time.sleep(0.005)
        rc = child.returncode
    finally:
        if child is not None and child.poll() is None:
            child.kill()
            child.wait()
        stop_loop()
    sys.stderr.write("# starve.py: a SCHED_FIFO loop on CPU %d for %.1f s; %d case children pinned there%s\n"
                     % (cpu, rt_seconds or 0.0, len(pinned), ", the first one only" if first_only else ""))
    return rc


if __name__ == "__main__":
    sys.exit(main())
