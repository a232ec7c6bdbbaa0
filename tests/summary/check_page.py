#!/usr/bin/env python3
"""tests/summary/check_page.py OUTDIR - summary.html against what
tests/summary/make-class.py put in the class (expected values written here,
from the class's design, not from the grader).  Prints ok/FAIL lines."""
import json
import os
import sys
import urllib.parse
from html.parser import HTMLParser

out = sys.argv[1]
src = open(os.path.join(out, "summary.html"), encoding="utf-8").read()
fails = 0


def check(name, cond, detail=""):
    global fails
    print(("ok - " if cond else "FAIL - ") + name)
    if not cond:
        fails += 1
        if detail:
            print("   " + str(detail))


class Page(HTMLParser):
    """Tables as lists of rows of (text, attrs) cells, with the table's attributes."""
    def __init__(self):
        super().__init__()
        self.tables, self.cell, self.hrefs, self.scripts = [], None, [], 0
        self.tags = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag == "script":
            self.scripts += 1
        if tag == "table":
            self.tables.append((a, []))
        elif tag == "tr" and self.tables:
            self.tables[-1][1].append([])
        elif tag in ("td", "th") and self.tables:
            self.cell = ["", a]
            self.tables[-1][1][-1].append(self.cell)
        elif tag == "a":
            self.hrefs.append(a.get("href", ""))

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.cell = None

    def handle_data(self, d):
        if self.cell is not None:
            self.cell[0] += d


p = Page()
p.feed(src)
p.close()

# -- escaping: ids that look like HTML stay text
check("no id reaches the page as markup", "<script>alert" not in src and "<img src=x" not in src)
check("the ids are there, escaped", "&lt;script&gt;alert(1)" in src and "&lt;img src=x onerror=alert(1)&gt;" in src)
check("one script element (the page's own), no img element", p.scripts == 1 and "img" not in p.tags, p.tags)
check("the script is inline", "<script>\n" in src and "<script src" not in src)

# -- the student table
students = [t for t in p.tables if t[0].get("id") == "students"]
check("a sortable student table", len(students) == 1 and "sortable" in students[0][0].get("class", ""))
rows = students[0][1][1:] if students else []
ids = sorted(["alice", "<script>alert(1)", "<img src=x onerror=alert(1)>", "carl", "cara", "cody", "ivan",
              "pya", "pyb", "rex", "tim", "ced"])
check("one row per student, in id order", [r[0][0] for r in rows] == ids, [r[0][0] for r in rows])
want = {"rex": ("5", "0", "5"), "tim": ("5", "0", "5"), "ced": ("5", "0", "5"), "alice": ("5", "8", "13")}
for r in rows:
    if r[0][0] in want:
        check("student row %s: %s" % (r[0][0], "/".join(want[r[0][0]])),
              tuple(c[0] for c in r[1:4]) == want[r[0][0]], [c[0] for c in r])
links = [h for h in p.hrefs if h.startswith("students/")]
check("every graded student links to students/<id>.txt",
      sorted(urllib.parse.unquote(h)[len("students/"):-len(".txt")] for h in set(links)) == ids, links)
check("the links are percent-encoded and lead to the reports",
      all(os.path.isfile(os.path.join(out, urllib.parse.unquote(h))) and "<" not in h and " " not in h
          for h in links))

# -- verdicts per problem: sum got 5 time limits (tim), 5 crashes (rex), 5 compile errors (ced)
verdicts = [t for t in p.tables if t[1] and t[1][0] and t[1][0][0][0] == "Problem"
            and any(c[1].get("data-verdict") for r in t[1] for c in r)]
check("a verdict table", len(verdicts) == 1)
got = {}
if verdicts:
    head = [c[0] for c in verdicts[0][1][0]]
    for r in verdicts[0][1][1:]:
        got[r[0][0]] = {head[i]: r[i][0].split() for i in range(1, len(r))}
want = {"sum": {"correct": ["45", "(9)"], "timelimit": ["5", "(1)"], "run-error": ["5", "(1)"],
                "compiler-error": ["5", "(1)"]},
        "parity": {"correct": ["480", "(12)"], "timelimit": ["0"], "run-error": ["0"], "compiler-error": ["0"]}}
check("verdicts per problem: sum has 5 time limits, 5 crashes, 5 compile errors (one student each)",
      got == want, got)
# the same counts, from the students' own reports
runs = {}
for name in os.listdir(os.path.join(out, "students")):
    if name.endswith(".json"):
        for pr in json.load(open(os.path.join(out, "students", name)))["problems"]:
            for t in pr["tests"]:
                runs[(pr["id"], t["verdict"])] = runs.get((pr["id"], t["verdict"]), 0) + 1
check("... and they add up to the reports' verdicts",
      all(int(v[0]) == runs.get((prob, verdict), 0) for prob, row in got.items() for verdict, v in row.items()),
      runs)

# -- hardest tests by group
text = " ".join(c[0] for t in p.tables for r in t[1] for c in r)
check("hardest tests: sum's tests list what the others got",
      "timelimit 1, run-error 1, compiler-error 1" in text and "total([1, 2, 3])" in text)
check("hardest tests: parity's groups were passed by everyone", "every test passed by every graded student" in text)

# -- similar submissions
pairs = set()
for attrs, trs in p.tables:
    if attrs.get("class") == "pairs":
        for r in trs[1:]:
            a, b = (r[0][0].rsplit(" ", 1)[0].strip(), r[1][0].rsplit(" ", 1)[0].strip())
            kind = r[2][0]
            kind = "similar" if "fingerprints" in kind else kind
            pairs.add((a, b, kind))
want = {
    ("<img src=x onerror=alert(1)>", "<script>alert(1)", "identical files"),
    ("<img src=x onerror=alert(1)>", "alice", "identical files"),
    ("<script>alert(1)", "alice", "identical files"),
    ("cara", "carl", "identical after normalising layout, comments and names"),
    ("pya", "pyb", "identical after normalising layout, comments and names"),
    ("cara", "cody", "similar"),
    ("carl", "cody", "similar"),
}
check("flagged pairs: the copies, the renamed copies (C and Python), the padded copy; not ivan",
      pairs == want, sorted(pairs ^ want))
check("the page says a flag is a first step, not proof", "A first step, not proof" in src)
check("parity's files are too short to compare", "0 long enough to compare: 0 pairs flagged" in src)
sys.exit(1 if fails else 0)
