#!/usr/bin/env python3
"""expect.py - check one graded submission against its EXPECTED file.

usage: expect.py NAME EXPECTED SHOWN.json STUDENT.json REPORT.txt EXIT_CODES STDERR_FILE REFERENCE.json[:MORE.json]

SHOWN.json: the instructor's JSON report (--show-hidden), which lists every
test: the EXPECTED assertions about verdicts, scores, messages and output
are checked against it.  STUDENT.json and REPORT.txt: the student's JSON
and text reports of the same submission (no --show-hidden), where a hidden
group is counts only: checked to list no hidden test and to agree with the
instructor's counts and scores; 'text' assertions read REPORT.txt.
EXIT_CODES: the two runs' exit codes, "1,1".  REFERENCE.json: the C
reference's instructor report; after ':' the reports of the other
languages' references (Python), each problem's tests compared with its
language's.

Prints one "ok - ..." or "not ok - ..." line per check; exits 0 when all pass.

EXPECTED format (one assertion per line, split like a shell does, '#' starts a comment):

    args --only p1,p4       extra grader options (read by run.sh, not here)
    exit N                  the grader's exit code (default: 0 when every
                            listed problem is asserted 'correct', else 1)
    SCOPE VERDICTS          every test in SCOPE has one of VERDICTS (a|b|c)
    SCOPE some VERDICTS     at least one test in SCOPE has one of VERDICTS
    SCOPE no VERDICTS       no test in SCOPE has any of VERDICTS
    SCOPE count N           SCOPE holds exactly N tests
    SCOPE score full|zero|partial|lost|N
                            the points of SCOPE: all, none, some but not all,
                            fewer than all (zero or partial), or exactly N
    SCOPE message TEXT      some test in SCOPE has a message containing TEXT
    SCOPE output TEXT       some test in SCOPE captured output containing TEXT
    SCOPE truncated         some test in SCOPE has output_bytes > len(output)
    PID build VERDICT       the problem's build field
    PID build-message TEXT  the problem's build_message contains TEXT
    PID source NAME         the file the grader picked for the problem
    PID shrunk CALL         the smallest failing input found (the problem's "shrunk"
                            field, its "call"), in the instructor's and the
                            student's report alike; 'none' when there is none
    text TEXT               the text report contains TEXT
    shown-text TEXT         the instructor's text report (SHOWN.json's name with
                            .txt; the run writes it) contains TEXT: what a
                            hidden group's failures say
    no-text TEXT            the text report does not contain TEXT
    text-once TEXT          the text report contains TEXT exactly once

SCOPE is PID ('*' for every problem in the report), PID/GROUP, either
followed by ':SUBSTRING' (test names containing it) or '=NAME' (that test).
A scope that matches no test fails the assertion.  VERDICTS is one verdict or
several joined with '|'.

Checked for every submission as well: every problem of the instructor's
report lists exactly the tests the reference report lists (even when it did
not compile or is missing), --only selects exactly the named problems,
scores add up, the student's report lists no test of a hidden group (only
its counts, the instructor's) and has the same scores, and the grader's
stderr has no sanitizer report.
"""
import json
import os
import shlex
import sys

VERDICTS = {"correct", "wrong-answer", "timelimit", "memory-limit", "run-error", "output-limit",
            "no-output", "compiler-error", "missing", "forbidden", "skipped", "judge-error"}
EPS = 1e-6


class Checker:
    def __init__(self, name):
        self.name = name
        self.failed = 0
        self.passed = 0

    def check(self, cond, what, detail=""):
        if cond:
            self.passed += 1
            print(f"ok - {self.name}: {what}")
        else:
            self.failed += 1
            print(f"not ok - {self.name}: {what}" + (f"  [{detail}]" if detail else ""))
        return cond


def parse_expected(path):
    lines = []
    with open(path, encoding="utf-8") as f:
        for no, raw in enumerate(f, 1):
            words = shlex.split(raw, comments=True)
            if words:
                lines.append((no, raw.strip(), words))
    return lines


def grader_args(expected_lines):
    """The EXPECTED file's args; when it selects no problems and problems/ holds more than the
    fixtures were written for, --only $FIXTURE_ONLY (run.sh: the problems whose reference
    tests/fixtures/correct copies), so that an instructor's added problem is not 'missing' in every fixture."""
    args = []
    for _, _, words in expected_lines:
        if words[0] == "args":
            args = words[1:]
            break
    if only_ids(args) is None and os.environ.get("FIXTURE_ONLY"):
        args = args + ["--only", os.environ["FIXTURE_ONLY"]]
    return args


def only_ids(args):
    for i, a in enumerate(args):
        if a == "--only" and i + 1 < len(args):
            return args[i + 1].split(",")
        if a.startswith("--only="):
            return a[len("--only="):].split(",")
    return None


def select(report, scope):
    """The tests (problem, test) a scope names, and a problem filter error or None."""
    name_sub = name_eq = None
    if "=" in scope:
        scope, name_eq = scope.split("=", 1)
    elif ":" in scope:
        scope, name_sub = scope.split(":", 1)
    pid, _, group = scope.partition("/")
    out = []
    for p in report["problems"]:
        if pid != "*" and p["id"] != pid:
            continue
        for t in p["tests"]:
            if group and t["group"] != group:
                continue
            if name_eq is not None and t["name"] != name_eq:
                continue
            if name_sub is not None and name_sub not in t["name"]:
                continue
            out.append((p, t))
    return out


def problem(report, pid):
    for p in report["problems"]:
        if p["id"] == pid:
            return p
    return None


def brief(tests, limit=4):
    shown = ", ".join(f"{t['name']}={t['verdict']}" for _, t in tests[:limit])
    return shown + (f", ... ({len(tests)} tests)" if len(tests) > limit else "")


def run_assertion(c, report, texts, words, raw):
    head = words[0]
    if head in ("args", "exit"):
        return
    if head == "text-once":
        n = texts[False].count(" ".join(words[1:]))
        c.check(n == 1, raw, f"found {n} times")
        return
    if head in ("text", "no-text", "shown-text"):
        needle = " ".join(words[1:])
        found = needle in texts[head == "shown-text"]
        c.check(found if head != "no-text" else not found, raw)
        return
    if len(words) < 2:
        c.check(False, raw, "cannot parse this line")
        return
    scope, op, rest = words[0], words[1], words[2:]

    if op == "shrunk":
        p = problem(report, scope)
        if not c.check(p is not None, raw, f"no problem '{scope}' in the report") or p is None:
            return
        want = " ".join(rest)
        got = (p.get("shrunk") or {}).get("call", "none")
        c.check(got == want, raw, f"shrunk is {p.get('shrunk')!r}")
        return
    if op in ("build", "build-message", "source"):
        p = problem(report, scope)
        if not c.check(p is not None, raw, f"no problem '{scope}' in the report") or p is None:
            return
        arg = " ".join(rest)
        if op == "build":
            c.check(p["build"] == arg, raw, f"build is {p['build']}")
        elif op == "build-message":
            c.check(arg in (p["build_message"] or ""), raw, f"build_message is {p['build_message']!r}")
        else:
            c.check(p["source"] == arg, raw, f"source is {p['source']!r}")
        return

    tests = select(report, scope)
    if not tests:
        c.check(False, raw, "the scope matches no test")
        return
    if op in ("some", "no") or all(v in VERDICTS for v in op.split("|")):
        vlist = (rest[0] if op in ("some", "no") and rest else op).split("|")
        bad = [v for v in vlist if v not in VERDICTS]
        if bad:
            c.check(False, raw, f"unknown verdict {bad}")
            return
        hits = [x for x in tests if x[1]["verdict"] in vlist]
        misses = [x for x in tests if x[1]["verdict"] not in vlist]
        if op == "some":
            c.check(bool(hits), raw, brief(tests))
        elif op == "no":
            c.check(not hits, raw, brief(hits))
        else:
            c.check(not misses, raw, brief(misses))
        return
    if op == "count":
        c.check(len(tests) == int(rest[0]), raw, f"{len(tests)} tests")
        return
    if op == "score":
        got = sum(t["score"] for _, t in tests)
        top = sum(t["max_score"] for _, t in tests)
        want = rest[0]
        if want == "full":
            ok = abs(got - top) < EPS
        elif want == "zero":
            ok = abs(got) < EPS
        elif want == "partial":
            ok = EPS < got < top - EPS
        elif want == "lost":
            ok = got < top - EPS
        else:
            ok = abs(got - float(want)) < EPS
        c.check(ok, raw, f"score {got:g} of {top:g}; {brief([x for x in tests if x[1]['verdict'] != 'correct'])}")
        return
    if op == "message":
        needle = " ".join(rest)
        c.check(any(needle in (t.get("message") or "") for _, t in tests), raw,
                "messages: " + "; ".join(sorted({str(t.get('message')) for _, t in tests}))[:300])
        return
    if op == "output":
        needle = " ".join(rest)
        c.check(any(needle in (t.get("output") or "") for _, t in tests), raw,
                "outputs: " + "; ".join(repr((t.get('output') or '')[:60]) for _, t in tests[:3]))
        return
    if op == "truncated":
        c.check(any((t.get("output_bytes") or 0) > len((t.get("output") or "").encode()) for _, t in tests), raw,
                "; ".join(f"{t['name']}: {len((t.get('output') or '').encode())} of {t.get('output_bytes')} bytes"
                          for _, t in tests[:3]))
        return
    c.check(False, raw, f"unknown assertion '{op}'")


def general_checks(c, report, refs, args, stderr):
    ref = refs[0]
    ids = only_ids(args)
    got_ids = [p["id"] for p in report["problems"]]
    if ids is not None:
        c.check(got_ids == ids, f"--only {','.join(ids)} reports exactly those problems", f"got {got_ids}")
    else:
        want = [p["id"] for p in ref["problems"]]
        c.check(got_ids == want, "every problem is in the report", f"got {got_ids}, want {want}")

    # each language's reference report lists that language's tests of a problem
    ref_tests = {}
    for r in refs:
        for p in r["problems"]:
            ref_tests[(p["id"], p.get("language", "c"))] = [t["name"] for t in p["tests"]]
    def want_tests(p):
        return ref_tests.get((p["id"], p.get("language", "c")))
    listed = [p["id"] for p in report["problems"] if [t["name"] for t in p["tests"]] != want_tests(p)]
    c.check(not listed, "every problem lists all its tests (whatever its build)",
            "differ: " + ", ".join(f"{p['id']} ({len(p['tests'])} vs {len(want_tests(p) or [])})"
                                   for p in report["problems"] if p["id"] in listed))

    sums = []
    for p in report["problems"]:
        s = sum(t["score"] for t in p["tests"])
        m = sum(t["max_score"] for t in p["tests"])
        if abs(s - p["score"]) > EPS or abs(m - p["max_score"]) > EPS or p["score"] > p["max_score"] + EPS:
            sums.append(f"{p['id']}: {p['score']} / {p['max_score']} vs tests {s} / {m}")
    total = sum(p["score"] for p in report["problems"])
    if abs(total - report["score"]) > EPS:
        sums.append(f"total {report['score']} vs {total}")
    c.check(not sums, "scores add up", "; ".join(sums))

    bad_verdicts = sorted({t["verdict"] for p in report["problems"] for t in p["tests"]} - VERDICTS)
    c.check(not bad_verdicts, "every verdict is a documented one", str(bad_verdicts))

    san = [l for l in stderr.splitlines()
           if "Sanitizer" in l or "runtime error:" in l or "ERROR: LeakSanitizer" in l]
    c.check(not san, "no sanitizer report on the grader's stderr", " | ".join(san[:3]))


def steady(shrunk):
    """A shrunk field without its clock reading (the one figure two runs may differ in)."""
    return None if not shrunk else {k: v for k, v in shrunk.items() if k != "seconds"}


def near_limit(t):
    """A test whose verdict two gradings may not share: a time limit, or an answer in more than half of it
    (the CPU a test takes varies with the machine's load; an exponential mistake has a test at its edge)."""
    return t["verdict"] == "timelimit" or (t["verdict"] == "correct" and t.get("time_ms") is not None
                                           and t.get("limit_ms") and 2 * t["time_ms"] >= t["limit_ms"])


def timing_slack(problem):
    """How far two gradings of this problem may differ because of tests at their time limit, in the
    instructor's view: per group the number of such tests, and the points they (or, in an all-or-nothing
    group, the whole group) are worth."""
    tests, points = {}, 0.0
    for g in problem["groups"]:
        near = [t for t in problem["tests"] if t.get("group") == g["name"] and near_limit(t)]
        tests[g["name"]] = len(near)
        if near:
            points += g["max_score"] if g["scoring"] != "sum" else sum(t["max_score"] for t in near)
    return tests, points


REPEATED = 3  # grader/judge/result.h REPEATED_FAILURES
COSTLY = {"timelimit", "memory-limit", "run-error", "output-limit"}


def repeated_rule(sp):
    """In the student's listed groups, a test of a points-per-test group is skipped only after REPEATED tests
    in a row (file order) ended with the same costly verdict, or after one that ended as REPEATED in a row of
    an earlier group of the problem did; and then every later test of the group is.  (The converse - such a
    row always stops the group - does not hold where the program failed before its tests, which costs
    nothing: tests/integration's typical-mistakes fixtures check that it stops.)"""
    bad = []
    explained = set()  # costly verdicts an earlier group failed REPEATED times in a row
    for g in sp["groups"]:
        if not g["listed"] or g["scoring"] != "sum":
            continue
        row, last, stopped, rows = 0, None, False, set()
        for t in [t for t in sp["tests"] if t.get("group") == g["name"]]:
            v = t["verdict"]
            may_stop = row >= REPEATED or (row >= 1 and last in explained)
            if stopped != (v == "skipped") and (stopped or not may_stop):
                bad.append(f"{sp['id']}/{t['name']}: {v} after {row} {last} in a row (explained: {sorted(explained)})")
                break
            stopped = v == "skipped"
            if not stopped:
                row = row + 1 if v in COSTLY and v == last else (1 if v in COSTLY else 0)
                last = v
                if row >= REPEATED:
                    rows.add(v)
        explained |= rows
    return bad


def student_checks(c, student, shown):
    """The student's report: hidden groups as counts only, the instructor's counts and scores.  Two gradings
    may differ only where a test of the instructor's ran near its time limit (timing_slack)."""
    c.check(student.get("show_hidden") is False and shown.get("show_hidden") is True
            and student.get("format_version") == 3, "the student's and the instructor's views (format 3)")
    listed = [f"{p['id']}:{t['name']}" for p in student["problems"] for t in p["tests"] if t["visibility"] == "hidden"]
    c.check(not listed, "the student's report lists no test of a hidden group", ", ".join(listed[:5]))
    bad = []
    total_slack = total_unrun = 0.0
    for sp, ip in zip(student["problems"], shown["problems"]):
        public = [t["name"] for t in ip["tests"] if t["visibility"] == "public"]
        slack_tests, slack_points = timing_slack(ip)
        total_slack += slack_points
        if [t["name"] for t in sp["tests"]] != public:
            bad.append(f"{sp['id']}: listed tests differ from the instructor's public ones")
        # a student's run leaves out the rest of a points-per-test group after REPEATED failures in a
        # row of one costly kind (--all-tests and --show-hidden run all): the student's score is the
        # instructor's but for those tests' points, which the report names ("up to ...")
        unrun = sum(sg["max_score"] / max(sg["tests"], 1) * sg["skipped"]
                    for sg in sp["groups"] if sg["scoring"] == "sum")
        total_unrun += unrun
        if not (ip["score"] - unrun - slack_points - EPS <= sp["score"] <= ip["score"] + slack_points + EPS):
            bad.append(f"{sp['id']}: score {sp['score']} vs {ip['score']} ({unrun} points not run)")
        for sg, ig in zip(sp["groups"], ip["groups"]):
            if sg["visibility"] == "hidden":
                counts = (sg["listed"], sg["tests"], sg["peak_kb"])
                if counts != (False, ig["tests"], None) or sg["passed"] + sg["failed"] + sg["skipped"] != sg["tests"] \
                        or (sg["skipped"] and sg["scoring"] != "sum"):
                    bad.append(f"{sp['id']}/{sg['name']}: {counts}, passed {sg['passed']} failed {sg['failed']} "
                               f"skipped {sg['skipped']}")
                if sg["scoring"] == "sum" and not (ig["passed"] - sg["skipped"] - slack_tests.get(sg["name"], 0)
                                                   <= sg["passed"] <= ig["passed"] + slack_tests.get(sg["name"], 0)):
                    bad.append(f"{sp['id']}/{sg['name']}: {sg['passed']} passed ({sg['skipped']} not run), "
                               f"the instructor's {ig['passed']}")
            elif not sg["listed"]:
                bad.append(f"{sp['id']}/{sg['name']}: a public group not listed")
        bad += repeated_rule(sp)
        # two gradings of one submission find the same smallest failing input (shrink.h: deterministic),
        # unless the search ran out of its time budget in either (the one clock-dependent cut, which
        # the report states): then only where it started is the same
        a, b = sp.get("shrunk"), ip.get("shrunk")
        ran = {t["name"] for t in sp["tests"] if t["verdict"] not in ("correct", "skipped")}
        if unrun:
            # the student's run left tests out (the instructor's search may start from one of them): the
            # student's starts from a failing test that ran
            if a and a.get("from_test") not in ran:
                bad.append(f"{sp['id']}: shrunk from {a.get('from_test')}, not a failing test that ran")
        elif a and b and (a.get("budget_spent") or b.get("budget_spent")):
            if a.get("from_test") != b.get("from_test"):
                bad.append(f"{sp['id']}: shrunk from {a.get('from_test')} vs {b.get('from_test')} (budget spent)")
        elif steady(a) != steady(b):
            bad.append(f"{sp['id']}: shrunk {str(steady(a))[:300]} vs {str(steady(b))[:300]}")
        if sp.get("shrunk") and sp["shrunk"]["from_test"] not in public:
            bad.append(f"{sp['id']}: shrunk from a test not public")
    if len(student["problems"]) != len(shown["problems"]) or \
            not shown["score"] - total_unrun - total_slack - EPS <= student["score"] <= shown["score"] + total_slack + EPS:
        bad.append(f"total {student['score']} vs {shown['score']} ({total_unrun} points not run)")
    c.check(not bad, "the student's report: hidden groups as the instructor's counts, the same scores "
            "and smallest failing inputs (from public tests)",
            "; ".join(bad[:4]))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--args":
        print(" ".join(shlex.quote(a) for a in grader_args(parse_expected(sys.argv[2]))))
        return 0
    if len(sys.argv) != 9:
        print(__doc__, file=sys.stderr)
        return 2
    name, expected, json_path, student_path, text_path, codes, stderr_path, ref_path = sys.argv[1:]
    c = Checker(name)
    lines = parse_expected(expected)
    args = grader_args(lines)
    with open(stderr_path, encoding="utf-8", errors="replace") as f:
        stderr = f.read()
    try:
        with open(json_path, encoding="utf-8") as f:
            report = json.load(f)
        with open(student_path, encoding="utf-8") as f:
            student = json.load(f)
        c.check(True, "the JSON reports parse (the instructor's and the student's)")
    except (OSError, ValueError) as e:
        c.check(False, "the JSON reports parse (the instructor's and the student's)", f"{e}; stderr: {stderr[-300:]}")
        return 1
    texts = []
    for path in (text_path, json_path[:-len(".json")] + ".txt"):
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                texts.append(f.read())
        except OSError:
            texts.append("")
    refs = []
    for path in ref_path.split(":"):  # the C reference's report first, then other languages'
        with open(path, encoding="utf-8") as f:
            refs.append(json.load(f))

    want_exit = None
    correct_ids = set()
    for _, raw, words in lines:
        if words[0] == "exit":
            want_exit = int(words[1])
        elif len(words) == 2 and words[1] == "correct" and "/" not in words[0] and ":" not in words[0] \
                and "=" not in words[0]:
            correct_ids.add(words[0])
    if want_exit is None:
        all_ids = {p["id"] for p in report["problems"]}
        want_exit = 0 if "*" in correct_ids or (all_ids and all_ids <= correct_ids) else 1
    c.check(all(int(code) == want_exit for code in codes.split(",")), f"exit code {want_exit}",
            f"got {codes}; stderr: {stderr[-300:]!r}")

    general_checks(c, report, refs, args, stderr)
    student_checks(c, student, report)
    for _, raw, words in lines:
        run_assertion(c, report, texts, words, raw)
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
