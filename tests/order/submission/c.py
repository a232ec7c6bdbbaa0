# tests/order's submission for problem c (Python, hidden tests only): its
# import runs after other problems' hidden tests, so what it prints then -
# the CLOCK_MONOTONIC time - must not reach the student.
import time


def now_us():
    return time.monotonic_ns() // 1000


print("startup at %d" % now_us(), flush=True)


def plus1(x):
    t0 = now_us()
    print("runner py x %d from %d to %d" % (x, t0, now_us()), flush=True)
    return x + 1
