#!/usr/bin/env python3
"""on-a-tty.py - run a command with its stderr on a pseudo-terminal (stdout to
a file), the way a student's terminal runs it, and say what reached stderr when.
usage: on-a-tty.py STDOUT_FILE STDERR_FILE COMMAND...
Writes the stderr bytes to STDERR_FILE and prints one line:
"EXIT FIRST_BYTE_SECONDS TOTAL_SECONDS" (FIRST_BYTE_SECONDS -1: nothing came)."""
import os
import pty
import select
import sys
import time


def main():
    out, err, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
    master, slave = pty.openpty()
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.close(master)
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd, 1)
        os.dup2(slave, 2)
        os.execvp(argv[0], argv)
    os.close(slave)
    first, data = -1.0, b""
    while True:
        ready, _, _ = select.select([master], [], [], 1.0)
        if not ready:
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every writer is gone
            break
        if not chunk:
            break
        if first < 0:
            first = time.monotonic() - started
        data += chunk
    _, status = os.waitpid(pid, 0)
    with open(err, "wb") as f:
        f.write(data)
    print(os.waitstatus_to_exitcode(status), "%.3f" % first, "%.3f" % (time.monotonic() - started))


main()
