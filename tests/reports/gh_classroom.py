#!/usr/bin/env python3
"""tests/reports/gh_classroom.py - GitHub's annotation cap and GitHub Classroom's result.

    gh_classroom.py NAME DIR

DIR holds one grading run's github, classroom, json and summary.md
($GITHUB_STEP_SUMMARY).  Checks that

  - github: at most 10 annotations of each level (GitHub shows no more per
    step), every problem that lost points annotated at least once, and, when
    some were left out, a last ::notice saying how many and that the rest is
    in the step summary (which holds every problem);
  - classroom: base64 of the JSON GitHub Classroom's autograding-grading-reporter
    reads (version, status, max_score, tests: name, status, score, message,
    test_code, filename, line_no), one test per problem, the tests' scores
    adding up to the JSON report's score, max_score its max_score.

Prints one "ok"/"FAIL" line per check; exits 1 when a check failed.
"""
import base64
import binascii
import json
import os
import re
import sys

from checklib import Checks

name, d = sys.argv[1], sys.argv[2]
check = Checks(f"{name}: ")


def read(f):
    with open(os.path.join(d, f), encoding="utf-8") as fh:
        return fh.read()


rep = json.loads(read("json"))
losing = [p for p in rep["problems"] if p["score"] < p["max_score"]]

# ---- github: the cap ----
lines = read("github").splitlines()
levels = {lv: [l for l in lines if l.startswith(f"::{lv} ")] for lv in ("error", "warning", "notice")}
check("github: every line is a workflow command", sum(map(len, levels.values())) == len(lines))
check("github: at most 10 ::error, 10 ::warning, 10 ::notice lines",
      all(len(v) <= 10 for v in levels.values()), {k: len(v) for k, v in levels.items()})
missing = [p["id"] for p in losing
           if not any(re.search(rf"title={re.escape(p['id'])} ", l) or f"/{p['source']}," in l
                      or f"file={p['source']}," in l or f"'{p['source']}'" in l for l in levels["error"])]
check("github: every problem that lost points is annotated at least once", not missing, missing)
# which problem each error is about, in order: grouped by problem, in the report's order
order = [next((p["id"] for p in rep["problems"] if re.search(rf"title={re.escape(p['id'])} ", l)
               or re.search(rf"title={re.escape(p['id'])}\.[a-z]+ does not compile", l)), "?") for l in levels["error"]]
check("github: errors grouped by problem, in the problems' order",
      order == sorted(order, key=lambda i: [p["id"] for p in rep["problems"]].index(i) if i != "?" else -1), order)
left = [l for l in levels["notice"] if l.startswith("::notice title=Annotations left out::")]
failing_tests = sum(1 for p in rep["problems"] if p["build"] == "correct"
                    for t in p["tests"] if t["verdict"] not in ("correct", "skipped"))
m = re.fullmatch(r"::notice title=Annotations left out::([0-9]+) more annotations? left out "
                 r"\(GitHub shows at most 10 errors per step\): the rest is in the step summary", lines[-1])
if left or name == "student_template":
    # the untouched template fails 160 public tests: most are left out
    check("github: the last line is a notice: how many were left out, the rest in the step summary",
          len(left) == 1 and m and int(m.group(1)) >= failing_tests - len(levels["error"]), lines[-1])
check("github: a notice about what was left out only when 10 errors were written",
      not left or len(levels["error"]) == 10, (len(left), len(levels["error"])))
summary = read("summary.md")
check("github: the step summary has every problem",
      all(f"| {p['id'].replace('_', '&#95;')} " in summary for p in rep["problems"]))

# ---- classroom: the reporter's contract ----
raw = read("classroom")
check("classroom: one line of base64", re.fullmatch(r"[A-Za-z0-9+/]+={0,2}\n", raw) is not None, raw[:80])
try:
    res = json.loads(base64.b64decode(raw.strip(), validate=True).decode("utf-8"))
except (binascii.Error, ValueError) as e:
    res = None
    check("classroom: decodes (base64, UTF-8, JSON)", False, str(e))
if res is not None:
    def num(x):
        return isinstance(x, (int, float)) and not isinstance(x, bool)
    check("classroom: version 1, status, max_score, tests",
          res.get("version") == 1 and res.get("status") in ("pass", "fail", "error")
          and num(res.get("max_score")) and isinstance(res.get("tests"), list), {k: v for k, v in res.items() if k != "tests"})
    tests = res.get("tests") or []
    shape = all(isinstance(t.get("name"), str) and t.get("status") in ("pass", "fail") and num(t.get("score"))
                and num(t.get("max_score")) and isinstance(t.get("message"), str) and len(t["message"]) <= 300
                and t.get("line_no") == 0 and isinstance(t.get("test_code"), str)
                and isinstance(t.get("filename"), str) for t in tests)
    check("classroom: every test has name, status pass/fail, score, max_score, a short message, line_no 0", shape)
    check("classroom: one test per problem, named 'p1 ...'",
          [t["name"].split(" ")[0] for t in tests] == [p["id"] for p in rep["problems"]], [t.get("name") for t in tests])
    check("classroom: the tests' scores add up to the JSON report's score, max_score is its max_score",
          abs(sum(t["score"] for t in tests) - rep["score"]) < 1e-6 and abs(res["max_score"] - rep["max_score"]) < 1e-6
          and abs(sum(t["max_score"] for t in tests) - rep["max_score"]) < 1e-6,
          (sum(t["score"] for t in tests), rep["score"], res["max_score"], rep["max_score"]))
    check("classroom: a test passes exactly when its problem has full marks; status fail when one does not",
          all((t["status"] == "pass") == (p["score"] == p["max_score"]) for t, p in zip(tests, rep["problems"]))
          and res["status"] == ("fail" if losing else "pass"))
sys.exit(check.exit_code())
