"""Runs three times over, on a fresh runner each time (issue 29; red team 41c).

Top-level code takes every file descriptor the runner may hold (RUNNER_NOFILE,
32: os.pipe() until EMFILE), then spins 0.8 s of its 1 s start-up limit.  The
runtime cannot make a test's pipes, and reports GR_SPAWN_FAILED - the same
flag as a fork that failed for want of a process.  Without user namespaces
runner.c calls that run_facts.procs_short ("another runner's flood"), and
remeasure.c runs the test again, up to REMEASURE_RUNS (3), each on a fresh
runner that spends its start-up again: 1 + 2 x tests start-ups instead of 1.
"""
import os
import time

held = []
while True:
    try:
        held.append(os.pipe())
    except OSError:
        break

_t = time.process_time()
while time.process_time() - _t < 0.8:
    pass


def twice(x):
    return 2 * x
