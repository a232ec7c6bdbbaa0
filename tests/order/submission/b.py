# tests/order's submission for problem b (Python): what it prints at import
# is its start-up output, with the CLOCK_MONOTONIC time; each call prints the
# time it began and ended (tests/order/run.sh compares them).
import time


def now_us():
    return time.monotonic_ns() // 1000


print("startup at %d" % now_us(), flush=True)


def thrice(x):
    t0 = now_us()
    print("runner py x %d from %d to %d" % (x, t0, now_us()), flush=True)
    return 3 * x
