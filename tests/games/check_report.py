#!/usr/bin/env python3
"""tests/games/check_report.py - checks on a grader JSON report (--show-hidden).

    check_report.py chosen REPORT     the tests the generators chose hold what the files ask
    check_report.py expect REPORT FILE   the report meets the lines of an EXPECTED file

EXPECTED lines (one check each, '#' comments):
    problem ID fraction <= X    score / max_score of problem ID at most X
    problem ID below max        score below max_score
    problem ID full             score equal to max_score
    group ID NAME score = X     the group's score
    growth ID CLASS [LO HI]     the growth measurement of ID (docs/growth.md): CLASS is N, N^2, ...,
                                exponential, or none (the grader says it cannot say), or several joined
                                by '|'; a class needs 3 usable points and an exponent (for
                                exponential: a base per +1 of N) within [LO, HI] - margins, never times
Prints "ok - ..." / "not ok - ..." lines; exit 1 on any failure.
"""
import collections
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(__file__))
from check_reference import bf_can_i_win  # noqa: E402  (an independent brute force)

failed = 0


def check(ok, what):
    global failed
    print(("ok - " if ok else "not ok - ") + what)
    failed += not ok


def problems(report):
    return {p["id"]: p for p in report["problems"]}


def tests_of(p, group):
    return [t for t in p["tests"] if t["group"] == group]


def chosen(report, label):
    ps = problems(report)
    c = ps["canIWin"]
    for group in ("small", "medium"):
        ts = tests_of(c, group)
        counts = collections.Counter(t["expected"] for t in ts)
        check(counts == {0: 10, 1: 10}, f"{label}: canIWin {group} is balanced, 10 false and 10 true ({dict(counts)})")
        wrong = []
        for t in ts:
            m, total = map(int, re.fullmatch(r"canIWin\((-?\d+), (-?\d+)\)", t["call"]).groups())
            if bool(t["expected"]) != bf_can_i_win(m, total) or not 1 <= total <= m * (m + 1) // 2:
                wrong.append(t["call"])
        check(not wrong and len(ts) == 20,
              f"{label}: canIWin {group}: every total within reach, answers as the brute force says ({wrong[:3]})")
    ts = tests_of(c, "large-losing")
    check(len(ts) == 6 and all(t["expected"] == 0 for t in ts),
          f"{label}: canIWin large-losing holds 6 losing positions ({[t['expected'] for t in ts]})")
    ts = tests_of(c, "large")
    check(collections.Counter(t["expected"] for t in ts) == {0: 5, 1: 5}, f"{label}: canIWin large is 5 false, 5 true")
    n = ps["nim"]
    ts = tests_of(n, "medium")
    check(collections.Counter(t["expected"] for t in ts) == {0: 10, 1: 10},
          f"{label}: nim medium holds 10 losing (XOR 0) and 10 winning positions")
    ts = tests_of(n, "small")
    check(collections.Counter(t["expected"] for t in ts) == {0: 10, 1: 10}, f"{label}: nim small is balanced")
    ts = tests_of(n, "large")
    check(len(ts) == 6 and sorted(t["expected"] for t in ts) == [0, 0, 0, 1, 1, 1],
          f"{label}: nim large holds 3 losing and 3 winning rows")
    ts = tests_of(ps["grundy"], "zero")
    check(len(ts) == 16 and sum(t["expected"] == 0 for t in ts) >= 6,
          f"{label}: grundy zero holds at least 6 positions of value 0")


def check_growth(p, wants, margin, path):
    g = p.get("growth")
    label = f"{path}: {p['id']} growth"
    if g is None:
        check(False, f"{label}: not measured")
        return
    msg, cls = g["message"], g["class"]
    said = f"({msg!r}; points {g['points']}, {g['points_used']} used)"
    if cls is None and g["between"] is None:
        # cannot say: no class, no exponent, and a sentence that says so
        check("none" in wants and "cannot say" in msg and g["exponent"] is None,
              f"{label} is one of {wants}: the grader cannot say {said}")
        return
    if cls is None:
        check(False, f"{label}: between {g['between']}, wanted one of {wants} {said}")
        return
    used = [ms for n, ms in g["points"] if 5 <= ms < g["capped_ms"]]
    value = g["exponent"]
    if cls == "exponential":
        m = re.search(r"about ([0-9.]+)\^N", msg)
        value = float(m.group(1)) if m else None
    ok = (cls in wants and len(used) >= 3 and g["points_used"] >= 3 and value is not None
          and (not margin or margin[0] <= value <= margin[1])
          and ((", as expected" in msg) == (cls == g["expected"] or (cls == "exponential" and g["expected"] == "2^N"))))
    what = "base" if cls == "exponential" else "exponent"
    check(ok, f"{label}: {cls} ({what} {value}, wanted one of {wants} within {margin}, 'as expected' only when "
              f"it is) {said}")


def expect(report, path):
    ps = problems(report)
    for line in open(path):
        line = line.split("#")[0].strip()
        if not line:
            continue
        w = line.split()
        p = ps.get(w[1])
        if p is None:
            check(False, f"{path}: no problem {w[1]} in the report")
            continue
        if w[0] == "problem" and w[2] == "fraction":
            check(p["score"] <= float(w[4]) * p["max_score"] + 1e-9,
                  f"{path}: {w[1]} scores {p['score']} of {p['max_score']}, at most {w[4]} of it")
        elif w[0] == "problem" and w[2:] == ["below", "max"]:
            check(p["score"] < p["max_score"] - 1e-9, f"{path}: {w[1]} scores {p['score']}, below {p['max_score']}")
        elif w[0] == "problem" and w[2] == "full":
            check(abs(p["score"] - p["max_score"]) < 1e-9, f"{path}: {w[1]} full marks ({p['score']})")
        elif w[0] == "growth":
            check_growth(p, w[2].split("|"), [float(x) for x in w[3:5]], path)
        elif w[0] == "group":
            g = next((g for g in p["groups"] if g["name"] == w[2]), None)
            check(g is not None and abs(g["score"] - float(w[5])) < 1e-9,
                  f"{path}: {w[1]} group {w[2]} scores {g and g['score']}, expected {w[5]}")
        else:
            check(False, f"{path}: cannot read '{line}'")


def main():
    report = json.load(open(sys.argv[2]))
    if sys.argv[1] == "chosen":
        chosen(report, sys.argv[3] if len(sys.argv) > 3 else sys.argv[2])
    else:
        expect(report, sys.argv[3])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
