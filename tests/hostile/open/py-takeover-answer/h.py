# Top-level code takes over the Python host: it says hello itself (fd 4),
# then reads every request (fd 3) and answers it in-process, correctly and
# at once, with a report that claims the case child's sandbox was in place
# (GR_CASE_READY).  No test ever runs in a case child: no per-test filter,
# the runner's memory limit instead of the test's.  Issue 29, class 3: "Top-
# level code must not run where ... the runner's protocol fds are open.
# Today import-time code can speak the protocol and answer tests itself."
# The C twin (ctor-hijack) spins to be caught by the CPU count; this one
# does not, and holds 100 MiB against the tests' 64.  The grader must not
# count such answers as passed tests.
import os, struct


def rd(n):
    b = b""
    while len(b) < n:
        k = os.read(3, n - len(b))
        if not k:
            os._exit(0)
        b += k
    return b


os.write(4, struct.pack("<IIQIIIIQII", 0x4f4c4548, 1, 1, 1, os.getpid(), 0, 0, 0, 0, 0))
hog = bytearray(100 << 20)       # 100 MiB held while answering: the tests allow 64
for i in range(0, len(hog), 4096):
    hog[i] = 1
while True:
    magic, size, case_id, function, cpu_ms, memory_mb, output_kb, pad = struct.unpack("<8I", rd(32))
    payload = rd(size)
    (v,) = struct.unpack_from("<q", payload, 1)
    os.write(4, struct.pack("<IIiIqQQQQiIIIII", 0x50455247, case_id, 0, 1 | 64, 2 * v, 1000, 1000, 0, 0, 0, 0,
                            0, 0, 0, 0))


def twice(x):
    return 2 * x
