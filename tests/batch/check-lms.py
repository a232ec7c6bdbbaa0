#!/usr/bin/env python3
"""tests/batch/check-lms.py LAYOUT OUTDIR EXPECTED.json [ASSIGNMENT]

Reads back what `grader batch` wrote for an LMS class (tests/batch/make-lms.py)
with python3's csv module and checks it cell by cell:

  grades.csv         id (formula-guarded), parity, sum, total, max, status
  canvas-import.csv  Student, ID, SIS User ID, SIS Login ID, Section, ASSIGNMENT;
                     the "Points Possible" row; one row per student (Canvas)
  moodle-import.csv  Identifier ("Participant <id>"), Full name, Grade,
                     Maximum Grade, Last modified (grade) (Moodle)
  batch.json         the roster: layout, id, name, LMS id, late

and that no cell of any of them starts with = + - @ tab or CR, while every
score cell is a plain number.  Prints "ok - ..." / "FAIL - ..." lines; exits 1
on a failure.
"""
import csv
import json
import os
import sys

layout, out, expected_path = sys.argv[1:4]
assignment = sys.argv[4] if len(sys.argv) > 4 else "combgrader"
expected = json.load(open(expected_path))[layout]
ids = sorted(expected, key=lambda s: s.encode())   # the grader sorts ids with strcmp
fails = 0


def check(name, cond, detail=""):
    global fails
    print(("ok - " if cond else "FAIL - ") + "%s: %s" % (layout, name))
    if not cond:
        fails += 1
        if detail:
            print("   " + detail)


def guarded(s):
    """What a text cell must read back as (OWASP: a leading apostrophe)."""
    return "'" + s if s[:1] in ("=", "+", "-", "@", "\t", "\r") else s


def read_csv(name):
    raw = open(os.path.join(out, name), "rb").read()
    check("%s ends every line with CRLF" % name, raw.count(b"\r\n") == raw.count(b"\n") and raw.endswith(b"\r\n"))
    return list(csv.reader(raw.decode("utf-8").splitlines()))


def is_number(s):
    try:
        float(s)
        return not s.startswith("'")
    except ValueError:
        return False


def no_formula(name, rows):
    bad = [c for r in rows for c in r if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
    check("%s: no cell starts with = + - @ tab or CR" % name, not bad, "unguarded: %r" % bad)


# ---- grades.csv ----
rows = read_csv("grades.csv")
check("grades.csv header", rows[0] == ["id", "parity", "sum", "total", "max", "status"], repr(rows[0]))
check("grades.csv: one row per student, in id order", [r[0] for r in rows[1:]] == [guarded(i) for i in ids],
      repr([r[0] for r in rows[1:]]))
for r, i in zip(rows[1:], ids):
    e = expected[i]
    want = [guarded(i)] + e[0:3] + ["13", e[3]]
    check("grades.csv row %r" % i, r == want, "got %r, expected %r" % (r, want))
    check("grades.csv row %r: scores are numbers" % i, all(is_number(c) for c in r[1:5]), repr(r))
no_formula("grades.csv", rows)
hostile = [i for i in ids if i[:1] in "=+-@"]
check("the formula-like students are there (%d)" % len(hostile), len(hostile) >= 1)
for i in hostile:
    row = [r for r in rows[1:] if r[0] == "'" + i]
    check("grades.csv: %r is written as text, an apostrophe first" % i, len(row) == 1)

# ---- the LMS import file ----
canvas = os.path.join(out, "canvas-import.csv")
moodle = os.path.join(out, "moodle-import.csv")
check("canvas-import.csv exactly for a Canvas class", os.path.exists(canvas) == (layout == "canvas"))
check("moodle-import.csv exactly for a Moodle class", os.path.exists(moodle) == (layout == "moodle"))
if layout == "canvas":
    rows = read_csv("canvas-import.csv")
    head = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", assignment]
    check("canvas-import.csv header", rows[0] == head, repr(rows[0]))
    check("canvas-import.csv Points Possible row", rows[1] == ["Points Possible", "", "", "", "", "13"], repr(rows[1]))
    check("canvas-import.csv: a row per graded student", len(rows) == 2 + len(ids), "%d rows" % len(rows))
    for r, i in zip(rows[2:], ids):
        e = expected[i]
        want = [guarded(e[4]), e[5], "", "", "", e[2]]
        check("canvas-import.csv row %r" % i, r == want, "got %r, expected %r" % (r, want))
        check("canvas-import.csv row %r: the score is a number" % i, is_number(r[5]), repr(r))
    no_formula("canvas-import.csv", rows)
if layout == "moodle":
    rows = read_csv("moodle-import.csv")
    head = ["Identifier", "Full name", "Grade", "Maximum Grade", "Last modified (grade)"]
    check("moodle-import.csv header", rows[0] == head, repr(rows[0]))
    check("moodle-import.csv: a row per graded student", len(rows) == 1 + len(ids), "%d rows" % len(rows))
    for r, i in zip(rows[1:], ids):
        e = expected[i]
        want = ["Participant " + e[5], guarded(e[4]), e[2], "13", ""]
        check("moodle-import.csv row %r" % i, r == want, "got %r, expected %r" % (r, want))
        check("moodle-import.csv row %r: grade and maximum are numbers" % i, is_number(r[2]) and is_number(r[3]))
    no_formula("moodle-import.csv", rows)

# ---- the roster in the manifest ----
lms = json.load(open(os.path.join(out, "batch.json"))).get("lms", {})
check("batch.json: layout", lms.get("layout") == layout, repr(lms.get("layout")))
people = {p["id"]: p for p in lms.get("students", [])}
check("batch.json: a roster entry per student", sorted(people) == sorted(ids), repr(sorted(people)))
for i in ids:
    p, e = people.get(i, {}), expected[i]
    got = [p.get("name"), p.get("lms_id"), p.get("late", False)]
    check("batch.json roster %r" % i, got == e[4:7], "got %r, expected %r" % (got, e[4:7]))

sys.exit(1 if fails else 0)
