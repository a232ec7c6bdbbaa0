"""tools/bench-pyfloor.py - the fork floor of a warm Python interpreter (make bench).

    python3 tools/bench-pyfloor.py DIR MODULE FUNCTION N

Imports MODULE from DIR once, then N times: fork; the child calls
FUNCTION(i), writes the answer to a pipe and leaves with os._exit; the
parent reads the answer and reaps the child.  Prints the total wall time
in microseconds.  This is the least a fresh process per test can cost with
this interpreter, with no sandbox, limits or protocol: the figure the
grader's own per-test cost is compared with.
"""
import importlib
import os
import sys
import time


def main():
    directory, module, function, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    sys.path.insert(0, directory)
    call = getattr(importlib.import_module(module), function)
    start = time.perf_counter_ns()
    for i in range(1, count + 1):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            os.write(w, b"%d\n" % call(i))
            os._exit(0)
        os.close(w)
        answer = os.read(r, 64)
        os.close(r)
        os.waitpid(pid, 0)
        if int(answer) != i:
            sys.exit("bench-pyfloor: wrong answer %r for %d" % (answer, i))
    print((time.perf_counter_ns() - start) // 1000)


if __name__ == "__main__":
    main()
