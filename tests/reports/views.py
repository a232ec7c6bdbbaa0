#!/usr/bin/env python3
"""tests/reports/views.py - what each reader's view of a result may hold.

    views.py leak A B       A, B: every format of the student's view of
                            fixtures/leak/a and fixtures/leak/b (text, json,
                            gradescope.json, junit.xml, tap, github, markdown,
                            prairielearn.json),
                            plus hidden.json: the instructor's view
    views.py budget LOUD QUIET
                            every format of fixtures/loud/loud (4 KiB printed
                            in each of 2000 tests) and of fixtures/loud/quiet
                            (the same answers, nothing printed)

leak: a/ and b/ pass as many tests of each hidden group but fail different
ones in different ways (wrong answers, crashes, loops, memory, exit(0),
time, printed input): once the figures every run measures afresh (times,
memory of the public tests, the run's duration) are set aside, every
student-facing report of a must equal b's byte for byte - nothing in them
tells the hidden tests apart - while the instructor's views differ.

budget: what captured output adds to each format (loud minus quiet) stays
under the per-problem budget (view.h: 64 KiB) plus a few bytes per test,
and every format that shows output says how much it left out.

Prints one "ok"/"FAIL" line per check; exits 1 when a check failed.
"""
import json
import os
import re
import sys

from checklib import Checks

FORMATS = ["text", "json", "gradescope.json", "junit.xml", "tap", "github", "markdown", "prairielearn.json"]
BUDGET = 64 * 1024
PER_TEST = 16  # bytes a test may add for its output besides the budget ("output_bytes": 4096 ...)
check = Checks()


def read(d, name):
    with open(os.path.join(d, name), "rb") as f:
        return f.read()


def normal_json(data, gradescope=False):
    """The report without what every run measures afresh."""
    r = json.loads(data)
    for p in r.get("problems", []):
        for k in ("compile_ms", "cpu_ms", "peak_kb"):
            p.pop(k, None)
        for g in p.get("groups", []):
            if g.get("listed"):
                g.pop("peak_kb", None)
        for t in p.get("tests", []):
            for k in ("time_ms", "wall_ms", "peak_kb"):
                t.pop(k, None)
    return json.dumps(r, sort_keys=True, indent=1).encode()


def normal(fmt, data):
    if fmt == "json":
        return normal_json(data)
    if fmt == "gradescope.json":
        return normal_json(data, gradescope=True)
    if fmt == "junit.xml":
        return re.sub(rb' time="[0-9.]+"', b' time=""', data)
    if fmt == "text":
        return re.sub(rb"tests passed, [0-9.]+ s\)", b"tests passed, ... s)", data)
    return data


def leak(a, b):
    for fmt in FORMATS:
        na, nb = normal(fmt, read(a, fmt)), normal(fmt, read(b, fmt))
        detail = ""
        if na != nb:
            la, lb = na.splitlines(), nb.splitlines()
            diff = [(x, y) for x, y in zip(la, lb) if x != y][:2]
            detail = f"{len(la)} vs {len(lb)} lines; first differences: {diff}"
        check(f"leak: {fmt}: the student's reports of a and b are the same (times aside)", na == nb, detail)
    for fmt in FORMATS:
        data = read(a, fmt)
        found = [s for s in (b"secret/", b"vault/", b"secret input", b"twice(10", b"twice(11", b"twice(20")
                 if s in data]
        check(f"leak: {fmt}: no hidden test, input or output of a", not found, str(found))
    text = read(a, "text")
    check("leak: text: hidden groups as counts and points",
          b"\n  secret (hidden, 0.5 points per test): 6 of 16 passed, 3 / 8\n" in text
          and b"\n  vault (hidden, all or nothing, 2 points): not all of 8 passed, 0 / 2\n" in text
          and b"\n  passed 10 of 28 tests (hidden tests: 6 of 24 passed)\n" in text, text.decode(errors="replace"))
    rep = json.loads(read(a, "json"))
    gs = json.loads(read(a, "gradescope.json"))
    tops = re.findall(rb"<testsuites [^>]*>", read(a, "junit.xml"))
    check("leak: the run's wall-clock time (it includes the hidden tests') is withheld: json null, "
          "no gradescope execution_time, no junit testsuites time, no seconds in the text total",
          rep["execution_time"] is None and "execution_time" not in gs and tops and b" time=" not in tops[0]
          and re.search(rb"Total:.*tests passed\)", text) is not None
          and json.loads(read(a, "hidden.json"))["execution_time"] > 0, f"{rep['execution_time']} {tops[:1]}")
    groups = {g["name"]: g for g in rep["problems"][0]["groups"]}
    check("leak: json: hidden groups are counts only",
          [t["group"] for t in rep["problems"][0]["tests"]] == ["open"] * 4
          and (groups["secret"]["passed"], groups["secret"]["failed"], groups["secret"]["skipped"]) == (6, 10, 0)
          and (groups["vault"]["passed"], groups["vault"]["failed"], groups["vault"]["skipped"]) == (0, 8, 0)
          and not groups["secret"]["listed"] and groups["secret"]["peak_kb"] is None
          and {k: v for k, v in rep["summary"].items() if k != "remeasured"}
          == {"tests": 28, "passed": 10, "failed": 18, "skipped": 0}
          # tests measured again: the listed ones only (how near a hidden test came is not the student's)
          and 0 <= rep["summary"].get("remeasured", -1) <= 4, str(groups))
    ia, ib = json.loads(read(a, "hidden.json")), json.loads(read(b, "hidden.json"))
    va = {t["name"]: t["verdict"] for t in ia["problems"][0]["tests"]}
    vb = {t["name"]: t["verdict"] for t in ib["problems"][0]["tests"]}
    kinds = {va[f"secret/{k}"] for k in range(1, 17)}
    check("leak: --show-hidden lists every hidden test: a's fail in many ways, b's differently",
          len(va) == 28 and va != vb and len(kinds) >= 5 and va["vault/1"] == "wrong-answer"
          and vb["vault/8"] == "wrong-answer", f"a: {sorted(kinds)}")
    check("leak: --show-hidden shows what a printed and its inputs",
          any("secret input 10" in (t.get("output") or "") for t in ia["problems"][0]["tests"])
          and any(t.get("call") == "twice(107)" for t in ia["problems"][0]["tests"]))


def budget(loud, quiet):
    rep = json.loads(read(loud, "json"))
    ntests = rep["summary"]["tests"]
    limit = BUDGET + PER_TEST * ntests
    for fmt in FORMATS:
        grown = len(read(loud, fmt)) - len(read(quiet, fmt))
        check(f"budget: {fmt}: 4 KiB printed in each of {ntests} tests adds {grown} bytes (at most {limit})",
              grown <= limit)
    p = rep["problems"][0]
    shown = sum(len((t.get("output") or "").encode()) for t in p["tests"])
    left = p["output_left_out"]
    check("budget: json: at most 64 KiB of output shown, the rest counted as left out",
          shown <= BUDGET and left["tests"] > 1900 and left["bytes"] >= 4096 * left["tests"]
          and sum(t["output_left_out"] for t in p["tests"]) == left["tests"]
          and all(t["output_bytes"] == 4096 for t in p["tests"]),
          f"shown {shown}, left out {left}")
    check("budget: json: failing tests get the budget first",
          all(t["output"] for t in [x for x in p["tests"] if x["verdict"] != "correct"][:32]))
    note = re.compile(rb"output of (19[0-9][0-9]) tests not shown \(7\.[0-9] MiB\)")
    for fmt in ("text", "gradescope.json", "junit.xml", "tap", "markdown", "prairielearn.json"):
        check(f"budget: {fmt}: says how much output was left out", note.search(read(loud, fmt)))


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("leak", "budget"):
        print(__doc__, file=sys.stderr)
        return 2
    (leak if sys.argv[1] == "leak" else budget)(sys.argv[2], sys.argv[3])
    return check.exit_code()


if __name__ == "__main__":
    sys.exit(main())
