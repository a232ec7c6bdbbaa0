#!/usr/bin/env python3
"""tests/reports/check.py - validate the report formats with real consumers.

    check.py KIND DIR

DIR holds the reports of one grading run, named after their format
(text, json, gradescope.json, junit.xml, tap, github, markdown, summary.md,
prairielearn.json; prairielearn.py checks the last against its schema):
the student's view, where a hidden group is counts only, and, for KIND
"mixed", hidden.json: the instructor view (--show-hidden) of the same run.  KIND is "mixed" (tests/reports/fixtures/mixed: some of
everything fails) or "full" (a copy of reference/: every test passes).
Prints one "ok"/"FAIL" line per check; exits 1 when a check failed.
"""
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

from checklib import Checks

kind, d = sys.argv[1], sys.argv[2]
check = Checks()


def read(name):
    with open(os.path.join(d, name), "rb") as f:
        return f.read()


def number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


# ---- json: the machine contract ----
rep = json.loads(read("json"))
check("json: top-level keys and types",
      number(rep.get("score")) and number(rep.get("max_score")) and isinstance(rep.get("problems"), list)
      and isinstance(rep.get("grader_version"), str) and rep["grader_version"])
legacy_test_keys = {"name", "group", "verdict", "score", "max_score", "time_ms", "message"}
bad = []
for p in rep["problems"]:
    for k in ("id", "title", "score", "max_score", "tests", "groups", "limits", "peak_kb"):
        if k not in p:
            bad.append(f"{p.get('id')}: no {k}")
    for g in p["groups"]:
        lim = g.get("limits", {})
        # a group whose tests never ran (no file, no build) has no measured CPU limit
        cpu_ok = isinstance(lim.get("cpu_ms"), int) or (p["build"] != "correct" and lim.get("cpu_ms", 0) is None)
        if not (cpu_ok and isinstance(lim.get("memory_mb"), int)
                and isinstance(lim.get("output_kb"), int) and g.get("visibility") in ("public", "hidden")):
            bad.append(f"{p['id']}/{g.get('name')}: limits {lim}")
    for t in p["tests"]:
        missing = legacy_test_keys - set(t)
        if (missing or not isinstance(t.get("limit_ms"), int) or not isinstance(t.get("peak_kb"), int)
                or not isinstance(t.get("time_ms"), int)):
            bad.append(f"{p['id']} {t.get('name')}: missing {missing} or time/peak {t.get('time_ms')}/{t.get('peak_kb')}")
check("json: every problem, group and test has its keys (limits, peak memory)", not bad, "; ".join(bad[:5]))
check("json: format_version 3, the student's view", rep.get("format_version") == 3 and rep.get("show_hidden") is False)
n_tests = sum(g["tests"] for p in rep["problems"] for g in p["groups"])
summ = rep.get("summary", {})
check("json: the summary counts every test, hidden ones as their groups' counts",
      summ.get("tests") == n_tests == sum(p["tests_total"] for p in rep["problems"])
      and summ.get("passed") == sum(g["passed"] for p in rep["problems"] for g in p["groups"])
      and summ["passed"] + summ.get("failed", -1) + summ.get("skipped", -1) == n_tests, str(summ))
check("json: problem scores add up to the total, group scores to the problem's",
      abs(sum(p["score"] for p in rep["problems"]) - rep["score"]) < 1e-6
      and all(abs(sum(g["score"] for g in p["groups"]) - p["score"]) < 1e-6 for p in rep["problems"])
      and all(abs(sum(t["score"] for t in p["tests"] if t["group"] == g["name"]) - g["score"]) < 1e-6
              for p in rep["problems"] for g in p["groups"] if g["listed"]))
check("json: total and problem scores are printed without float noise",
      not re.search(rb'\n(  |      )"(max_)?score": -?[0-9]+\.[0-9]{7,}', read("json")))

hidden_groups = [(p, g) for p in rep["problems"] for g in p["groups"] if g["visibility"] == "hidden"]
check("json: the run has hidden groups", len(hidden_groups) > 0)
listed = [f"{p['id']}:{t['name']}" for p in rep["problems"] for t in p["tests"] if t["visibility"] == "hidden"]
check("json: the student's view lists no test of a hidden group", not listed, str(listed[:3]))
bad = [f"{p['id']}/{g['name']}" for p, g in hidden_groups
       if g["listed"] or g["peak_kb"] is not None or g["skipped"] != 0 or g["passed"] + g["failed"] != g["tests"]]
check("json: a hidden group is counts only (listed false, no peak memory, no skipped count)", not bad, str(bad[:3]))
check("json: public groups are listed, every one of their tests",
      all(g["listed"] and sum(t["group"] == g["name"] for t in p["tests"]) == g["tests"]
          for p in rep["problems"] for g in p["groups"] if g["visibility"] == "public"))

# ---- what must never reach a student: hidden inputs, values, output ----
student_views = ["text", "json", "gradescope.json", "junit.xml", "tap", "github", "markdown", "summary.md",
                 "prairielearn.json"]
secret_strings = {b"HIDDEN-OUT"}   # found anywhere (not after a letter or digit)
secret_numbers = set()             # found as whole numbers
if kind == "mixed":
    inst = json.loads(read("hidden.json"))
    for p in inst["problems"]:
        for t in p["tests"]:
            if t["visibility"] != "hidden":
                continue
            secret_strings.add(t["call"].encode())
            secret_strings.add(t["name"].encode())  # "large/3": an entry for one hidden test
            for key in ("expected", "actual"):
                v = t.get(key)
                if isinstance(v, int) and abs(v) >= 10**8:  # long values: distinctive enough to look for
                    secret_numbers.add(str(v).encode())
            secret_numbers.update(v.encode() for v in re.findall(r"-?[0-9]{9,}", t["call"]))
    check("instructor view: hidden tests do show their calls and output",
          any(b"HIDDEN-OUT" in (t.get("output") or "").encode() for p in inst["problems"] for t in p["tests"]))
    check("instructor view: every hidden group listed, every hidden test in full",
          inst["show_hidden"] is True and all(g["listed"] for p in inst["problems"] for g in p["groups"])
          and all("call" in t and isinstance(t["time_ms"], int) for p in inst["problems"] for t in p["tests"])
          and sum(len(p["tests"]) for p in inst["problems"]) == inst["summary"]["tests"])
    # (a hidden all-or-nothing group counts as all passed or none for students: compare the others)
    check("instructor view: the same counts as the student's, and per-test verdicts for hidden groups",
          [(p["id"], g["name"], g["passed"], g["tests"]) for p in inst["problems"] for g in p["groups"] if g["scoring"] == "sum"]
          == [(p["id"], g["name"], g["passed"], g["tests"]) for p in rep["problems"] for g in p["groups"] if g["scoring"] == "sum"]
          and any(t["visibility"] == "hidden" and t["verdict"] != "correct" for p in inst["problems"] for t in p["tests"]))
    check("instructor view: enough distinct secrets to look for",
          len(secret_strings) > 40 and len(secret_numbers) > 10, f"{len(secret_strings)} {len(secret_numbers)}")


def leaks(data):
    found = []
    for s in secret_strings:
        i = data.find(s)
        while i >= 0:
            if i == 0 or not data[i - 1:i].isalnum():
                found.append(s.decode(errors="replace"))
                break
            i = data.find(s, i + 1)
    found += [n.decode() for n in secret_numbers & set(re.findall(rb"-?[0-9]+", data))]
    return found


for view in student_views:
    found = leaks(read(view))
    check(f"{view}: no hidden input, value, output or test name", not found, str(found[:3]))

# ---- gradescope: results.json ----
gs = json.loads(read("gradescope.json"))
ok = (number(gs.get("score")) and ("execution_time" not in gs or isinstance(gs["execution_time"], int)) and isinstance(gs.get("output"), str)
      and gs.get("visibility") in ("visible", "hidden", "after_due_date", "after_published")
      and gs.get("stdout_visibility") in ("visible", "hidden", "after_due_date", "after_published")
      and isinstance(gs.get("tests"), list) and gs["tests"])
check("gradescope: top-level keys and types", ok)
bad = []
for t in gs["tests"]:
    if not (isinstance(t.get("name"), str) and number(t.get("score")) and number(t.get("max_score"))
            and t.get("status") in ("passed", "failed") and isinstance(t.get("output"), str)
            and t.get("visibility") in ("visible", "after_published") and isinstance(t.get("tags"), list)
            and all(isinstance(x, str) for x in t["tags"])):
        bad.append(t.get("name"))
check("gradescope: every test has name, score, max_score, status, output, visibility, tags", not bad, str(bad[:3]))
check("gradescope: test scores add up to the score",
      abs(sum(t["score"] for t in gs["tests"]) - gs["score"]) < 1e-6 and abs(gs["score"] - rep["score"]) < 1e-6)
groups = {(p["id"], g["name"]): g for p in rep["problems"] for g in p["groups"]}
check("gradescope: one test per group, hidden groups after_published, public visible",
      len(gs["tests"]) == len(groups)
      and all((t["visibility"] == "after_published") == ("hidden" in t["tags"]) for t in gs["tests"])
      and all(groups[(t["tags"][0], t["tags"][1])]["visibility"] == ("hidden" if "hidden" in t["tags"] else "public")
              for t in gs["tests"]))

# ---- junit: well-formed, counts consistent ----
root = ET.fromstring(read("junit.xml"))
check("junit: root is testsuites with one testsuite per problem",
      root.tag == "testsuites" and len(root.findall("testsuite")) == len(rep["problems"]))
bad = []
total = 0
for ts in root.findall("testsuite"):
    cases = ts.findall("testcase")
    total += len(cases)
    counts = {"tests": len(cases), "failures": sum(1 for c in cases if c.find("failure") is not None),
              "errors": sum(1 for c in cases if c.find("error") is not None),
              "skipped": sum(1 for c in cases if c.find("skipped") is not None)}
    for k, v in counts.items():
        if int(ts.get(k)) != v:
            bad.append(f"{ts.get('name')} {k}={ts.get(k)} but {v}")
    for c in cases:
        try:
            float(c.get("time"))
        except (TypeError, ValueError):
            bad.append(f"{c.get('name')}: time {c.get('time')}")
        if not c.get("classname") or not c.get("name"):
            bad.append("a testcase without classname or name")
check("junit: testsuite counts match their testcases; classname, name, time (s) set", not bad, "; ".join(bad[:5]))
check("junit: a testcase per listed test and one per hidden group",
      total == sum(len(p["tests"]) for p in rep["problems"]) + len(hidden_groups))
check("junit: total counts on testsuites",
      int(root.get("tests")) == total
      and int(root.get("failures")) == sum(int(ts.get("failures")) for ts in root.findall("testsuite")))

# ---- github: workflow commands ----
gh = read("github").decode()
check("github: every line is a workflow command (nothing injected)",
      all(line.startswith("::error ") or line.startswith("::notice ") or line.startswith("::warning ")
          for line in gh.splitlines()), next((l for l in gh.splitlines() if not l.startswith("::")), ""))
check("github: a notice with the total", re.search(r"^::notice title=Score [0-9.]+ / [0-9.]+::", gh, re.M))
summary = read("summary.md").decode()
check("github: $GITHUB_STEP_SUMMARY got the Markdown summary", summary.startswith("## Grading results: "))
check("markdown: the summary has a table row per problem",
      all(f"| {p['id'].replace('_', '&#95;')} " in read("markdown").decode() for p in rep["problems"]))
md = read("markdown").decode()
shrunk = [p["shrunk"]["call"] for p in rep["problems"] if p.get("shrunk")]
md_escape = lambda s: "".join(f"&#{ord(c)};" if c in "&<>|`*_[]\\~$" else c for c in s)
check("markdown: the smallest failing input of each problem that has one, as in the JSON",
      md.count("**smallest failing input found:** ") == len(shrunk)
      and all(f"**smallest failing input found:** {md_escape(c)}: " in md for c in shrunk), str(shrunk))
growing = [p["id"] for p in rep["problems"] if p.get("growth")]
check("markdown: the growth found for each problem that has one, as in the JSON",
      md.count("**growth:** ") == len(growing), str(growing))
if kind == "mixed":
    check("markdown: mixed has a smallest failing input (p1's, p3's) and a growth (p3's) to show",
          len(shrunk) >= 2 and growing)

if kind == "full":
    check("json: full marks", rep["score"] == rep["max_score"] and all(
        t["verdict"] == "correct" for p in rep["problems"] for t in p["tests"]))
    check("gradescope: every test passed, full score",
          all(t["status"] == "passed" for t in gs["tests"]) and abs(gs["score"] - rep["max_score"]) < 1e-6)
    # (junit-10.xsd: skipped counts are on each <testsuite>, not on <testsuites>)
    check("junit: no failure, error or skipped",
          root.get("failures") == "0" and root.get("errors") == "0"
          and all(ts.get("skipped") == "0" for ts in root.findall("testsuite")))
    check("github: no error annotation", "::error" not in gh)
    sys.exit(check.exit_code())

# ---- mixed: the hostile details ----
def find_test(pid, name):
    for p in rep["problems"]:
        if p["id"] == pid:
            for t in p["tests"]:
                if t["name"] == name:
                    return p, t
    return None, None


_, t = find_test("p1", "small/AcanWin(3)")
check("json: a public test's output is kept (valid UTF-8, truncated flag)",
      t and "line one" in t["output"] and "]]>" in t["output"] and isinstance(t["output_truncated"], bool))
check("json: values of a wrong answer", t and t["expected"] == 1 and t["actual"] == 0 and t["call"] == "AcanWin(3)")
p2 = next(p for p in rep["problems"] if p["id"] == "p2")
check("json: a compile error is the problem's build verdict",
      p2["build"] == "compiler-error" and all(t["verdict"] == "compiler-error" for t in p2["tests"]))

cases = {(ts.get("name"), c.get("name")): c for ts in root.findall("testsuite") for c in ts.findall("testcase")}
c = cases[("p1", "small/AcanWin(3)")]
f = c.find("failure")
out = c.findtext("system-out") or ""
check("junit: a wrong answer is a <failure> with message and type",
      f is not None and f.get("type") == "wrong-answer" and f.get("message") == "AcanWin(3) returned false, expected true")
check("junit: <system-out> keeps ]]>, <, & and escapes control characters and invalid UTF-8",
      "]]> <![CDATA[ & </system-out>" in out and "\\x01" in out and "\\xff" in out and "\\u202e" in out
      and not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", out))
c9 = cases[("p3", "small/canWin(9)")]
check("junit: every byte 1..255 printed by a program comes out well-formed",
      "\\x01" in (c9.findtext("system-out") or "") and "\\xff" in (c9.findtext("system-out") or ""))
check("junit: a crash is an <error type=run-error>, a timeout <error type=timelimit>",
      cases[("p3", "small/canWin(7)")].find("error") is not None
      and cases[("p3", "small/canWin(7)")].find("error").get("type") == "run-error"
      and cases[("p3", "small/canWin(8)")].find("error").get("type") == "timelimit")
p2first = cases[("p2", p2["tests"][0]["name"])].find("error")
check("junit: a compile error is an <error> carrying the compiler's message once",
      p2first is not None and p2first.get("type") == "compiler-error" and "expected" in (p2first.text or ""))
check("junit: skipped tests are <skipped/>",
      any(c.find("skipped") is not None for (s, _), c in cases.items() if s == "p1"))
hidden_junit = [c for (s, n), c in cases.items() if c.get("classname") in ("p1.large", "p3.large", "p4.big-values")]
check("junit: a hidden group is one testcase with its counts: no <system-out>, no time, no verdict of a test",
      len(hidden_junit) == 3 and all(
          re.fullmatch(r"[a-z-]+ \(hidden, [0-9]+ tests\)", c.get("name")) and c.get("time") == "0.000"
          and c.find("system-out") is None and c.find("error") is None and c.find("skipped") is None
          and all(e.get("type") == "hidden-tests" and (e.text or "") == ""
                  and re.fullmatch(r"hidden tests: ([0-9]+ of|not all of) [0-9]+ passed, [0-9.]+ / [0-9.]+ points",
                                   e.get("message", "")) for e in c.findall("failure"))
          for c in hidden_junit))

check("github: the failing public test is annotated on its file",
      "::error file=tests/reports/fixtures/mixed/p1.c,title=p1 small/AcanWin(3)%3A wrong answer::"
      "AcanWin(3) returned false, expected true\n" in gh)
check("github: compiler errors are annotated at their line and column",
      re.search(r"^::error file=tests/reports/fixtures/mixed/p2\.c,line=8,col=[0-9]+,title=p2\.c does not compile::", gh, re.M))
check("github: a missing file is annotated without a file", re.search(r"^::error title=p4_dp .*::no file 'p4_dp\.c'", gh, re.M))
check("github: hidden failures only as counts",
      re.search(r"^::error file=[^ ]*p4\.c,title=p4 .*::.*; hidden group big-values: [0-9]+ of 14 passed", gh, re.M))
check("markdown: a student's output cannot open HTML or close the table",
      "</system-out>" not in summary and "<![CDATA[" not in summary and "<b>\"" not in summary)

text = read("text")
check("text: no colour when piped", b"\x1b" not in text)
check("text: control bytes escaped, never raw", not re.search(rb"[\x00-\x08\x0b-\x1f\x7f]", text) and b"\\x01" in text)
check("text: compact failure block (name, verdict, call, values, output)",
      b"\n  x small/AcanWin(3): wrong answer\n      call:     AcanWin(3)\n      expected: true\n"
      b"      returned: false\n      printed:  184 bytes:\n        | " in text)
check("text: crash and timeout say why, and what was used",
      re.search(rb"\n  x small/canWin\(7\): crashed \(run error\)\n      call:     canWin\(7\)\n      why:      crashed", text)
      and re.search(rb"\n  x small/canWin\(8\): time limit exceeded\n(      .*\n)*      used:     [0-9]+ ms CPU \(limit", text))
check("text: skipped tests summarised",
      re.search(rb"\n  [0-9]+ tests? not run: an earlier test of this all-or-nothing group failed\n", text))
check("text: hidden groups as counts, hints per failing group",
      re.search(rb"\n  large \(hidden, 0.4 points per test\): 0 of ([0-9]+) passed, 0 / [0-9.]+\n  passed [0-9]+ of [0-9]+ "
                rb"tests \(hidden tests: 0 of \1 passed\)\n(  hint \(course\): .*\n(      .*\n)*)?  hint \(small\): .*\n(      .*\n)*"
                rb"  hint \(medium\): .*\n(      .*\n)*"
                rb"  hint \(large\): ", text))
check("text: compiler output and missing file", b"p2.c:8:" in text and b"missing: no file 'p4_dp.c'" in text)
check("text: summary and total", re.search(rb"\nSummary\n(  .*\n){5}Total: [0-9.]+ / [0-9.]+ ", text))
sys.exit(check.exit_code())
