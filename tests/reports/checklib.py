"""tests/reports/checklib.py - the "ok"/"FAIL" line per check that every
report checker here prints (check.py, views.py, gh_classroom.py), and the
exit code they end with."""


class Checks:
    """check(what, cond, detail): one line per check; exit_code(): 1 when any failed."""

    def __init__(self, prefix=""):
        self.prefix = prefix
        self.failures = 0

    def __call__(self, what, cond, detail=""):
        if cond:
            print(f"ok   {self.prefix}{what}")
        else:
            self.failures += 1
            print(f"FAIL {self.prefix}{what}" + (f": {detail}" if detail else ""))

    def exit_code(self):
        return 1 if self.failures else 0
