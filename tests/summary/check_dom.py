#!/usr/bin/env python3
"""tests/summary/check_dom.py GRADES.csv TOTALCOL PLAIN SORTED-BY-TOTAL SORTED-BY-ID-DESC

The DOMs Chromium dumped after the page's script ran: unsorted (the class
order), after one click on the Total header (#sort=TOTALCOL: ascending,
not graded first) and after two clicks on the Student header (descending).
The expected orders come from grades.csv, sorted here.  Also: the ids that
look like HTML did not become elements.  Prints ok/FAIL lines."""
import csv
import sys
from html.parser import HTMLParser

grades, col, plain, by_total, by_id_desc = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
fails = 0


def check(name, cond, detail=""):
    global fails
    print(("ok - " if cond else "FAIL - ") + name)
    if not cond:
        fails += 1
        print("   " + str(detail))


class Dom(HTMLParser):
    def __init__(self):
        super().__init__()
        self.in_students = False
        self.rows, self.cell, self.sort, self.tags, self.th = [], None, {}, {}, 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag == "table":
            self.in_students = a.get("id") == "students"
        if not self.in_students:
            return
        if tag == "th":
            if a.get("aria-sort"):
                self.sort[self.th] = a["aria-sort"]
            self.th += 1
        elif tag == "tr" and self.th:
            self.rows.append([])
        elif tag == "td":
            self.cell = [""]
            self.rows[-1].append(self.cell)

    def handle_endtag(self, tag):
        if tag == "table":
            self.in_students = False
        if tag == "td":
            self.cell = None

    def handle_data(self, d):
        if self.cell is not None:
            self.cell[0] += d


def load(path):
    d = Dom()
    d.feed(open(path, encoding="utf-8").read())
    d.close()
    return d


rows = list(csv.reader(open(grades, encoding="utf-8", newline="")))[1:]
ids = [r[0] for r in rows]
total = {r[0]: float(r[-3]) if r[-3] else float("-inf") for r in rows}

d = load(plain)
check("the DOM after the script: every student, in the class order", [r[0][0] for r in d.rows] == ids,
      [r[0][0] for r in d.rows])
check("no element made from an id (script: the page's own; img: none)",
      d.tags.get("script") == 1 and "img" not in d.tags, d.tags)
check("unsorted: no header marked as sorted", not d.sort, d.sort)

d = load(by_total)
want = sorted(ids, key=lambda i: total[i])   # stable: ties keep the class order
check("one click on Total: rows by total, ascending, ties in class order", [r[0][0] for r in d.rows] == want,
      ([r[0][0] for r in d.rows], want))
check("... the Total header says ascending", d.sort == {col: "ascending"}, d.sort)

d = load(by_id_desc)
want = sorted(ids, reverse=True)
check("two clicks on Student: rows by id, descending", [r[0][0] for r in d.rows] == want,
      ([r[0][0] for r in d.rows], want))
check("... the Student header says descending", d.sort == {0: "descending"}, d.sort)
sys.exit(1 if fails else 0)
