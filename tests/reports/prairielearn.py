#!/usr/bin/env python3
"""tests/reports/prairielearn.py - a PrairieLearn results.json against its consumer's contract.

    prairielearn.py KIND RESULTS [JSON]

RESULTS is a results.json written by --format prairielearn (or by
dist/prairielearn/grade.sh); JSON the json report of the same run, when
there is one, for the figures.  Every KIND: valid against
prairielearn.schema.json (written from PrairieLearn's documented shape,
checked with the jsonschema package), parsed by Python's json, under 1 MB.
Then per KIND:

  mixed          fixtures/mixed: gradable, score = points / max points of the
                 json report, one test per group, p2's compiler message in
                 format_errors, hidden groups as counts only
  full           full marks: score 1, no format_errors
  compile-error  only a p2.c that does not compile: not gradable, score 0,
                 the compiler's message in format_errors
  failed         the grader itself failed: not gradable, saying so
  only-p1        COMBGRADER_ONLY=p1: p1's groups only

Prints one "ok"/"FAIL" line per check; exits 1 when a check failed.
"""
import json
import os
import sys

import jsonschema

from checklib import Checks

check = Checks()
kind, path = sys.argv[1], sys.argv[2]
rep = json.load(open(sys.argv[3])) if len(sys.argv) > 3 else None
schema = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "prairielearn.schema.json")))
jsonschema.Draft7Validator.check_schema(schema)
with open(path, "rb") as f:
    raw = f.read()
res = json.loads(raw)
errors = [e.message for e in jsonschema.Draft7Validator(schema).iter_errors(res)]
check(f"prairielearn {kind}: valid against PrairieLearn's results schema (jsonschema)", not errors, str(errors[:3]))
check(f"prairielearn {kind}: under 1 MB ({len(raw)} bytes)", len(raw) < 1_000_000)
tests = res.get("tests", [])
complete = all(isinstance(t.get(k), str) for t in tests for k in ("name", "message", "output")) and all(
    isinstance(t.get(k), (int, float)) for t in tests for k in ("points", "max_points"))
check(f"prairielearn {kind}: every test has name, points, max_points, message, output", complete)
errs = res.get("format_errors") or []

if kind in ("mixed", "full", "only-p1"):
    groups = [(p["id"], g) for p in rep["problems"] for g in p["groups"]]
    check(f"prairielearn {kind}: gradable, score = points / max points of the json report",
          res["gradable"] is True and abs(res["score"] - rep["score"] / rep["max_score"]) < 1e-9,
          f"{res.get('gradable')} {res.get('score')} {rep['score']}/{rep['max_score']}")
    check(f"prairielearn {kind}: one test per group, points adding up to the json report's",
          len(tests) == len(groups)
          and abs(sum(t["points"] for t in tests) - rep["score"]) < 1e-6
          and abs(sum(t["max_points"] for t in tests) - rep["max_score"]) < 1e-6
          and all(t["name"].startswith(p + " ") and t["name"].endswith(": " + g["name"])
                  for t, (p, g) in zip(tests, groups)),
          str([t["name"] for t in tests][:4]))
if kind == "mixed":
    check("prairielearn mixed: p2's compiler message in format_errors, once",
          len(errs) == 1 and "p2.c:8:" in errs[0] and "does not compile" in errs[0], str(errs)[:300])
    hidden = [t for t in tests if "hidden: only how many passed" in t.get("description", "")]
    graded = [t["name"].rsplit(": ", 1)[1] for t in hidden if t["message"].startswith("hidden tests: ")]
    check("prairielearn mixed: hidden groups are counts only (no failing test listed)",
          sorted(graded) == ["big-values", "large", "large"]
          and all("\nx " not in t["output"] and "returned" not in t["output"] for t in hidden),
          str(hidden)[:400])
    check("prairielearn mixed: a failing public test shows its call and values",
          any("AcanWin(3) returned false, expected true" in t["output"] for t in tests))
    check("prairielearn mixed: the message totals the run",
          res["message"].startswith("Total: ") and "p2 " in res["message"] and "(does not compile)" in res["message"])
if kind == "full":
    check("prairielearn full: score 1, no format_errors, every group full",
          res["score"] == 1 and "format_errors" not in res and all(t["points"] == t["max_points"] for t in tests))
if kind == "only-p1":
    check("prairielearn only-p1: p1's groups only", tests and all(t["name"].startswith("p1 ") for t in tests))
if kind == "compile-error":
    check("prairielearn compile-error: not gradable (no attempt used), score 0",
          res["gradable"] is False and res["score"] == 0, f"{res.get('gradable')} {res.get('score')}")
    check("prairielearn compile-error: the compiler's message in format_errors",
          len(errs) == 1 and "p2.c:8:" in errs[0] and "error:" in errs[0], str(errs)[:300])
if kind == "failed":
    check("prairielearn failed: not gradable, saying the autograder failed",
          res["gradable"] is False and "autograder failed" in res["message"]
          and errs and "autograder failed" in errs[0], str(res)[:300])
sys.exit(check.exit_code())
