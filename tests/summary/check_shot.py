#!/usr/bin/env python3
"""tests/summary/check_shot.py SHOT.png - Chromium's screenshot of summary.html
drew the page: not blank, the histogram's bars (#4a6fa5), and the student
table (the link colour of the students' names, with score digits to their
right on the same lines).  Prints ok/FAIL lines."""
import sys

from PIL import Image

img = Image.open(sys.argv[1]).convert("RGB")
w, h = img.size
px = img.load()
fails = 0


def check(name, cond, detail=""):
    global fails
    print(("ok - " if cond else "FAIL - ") + name)
    if not cond:
        fails += 1
        print("   " + str(detail))


def near(c, want, tol=40):
    return all(abs(a - b) <= tol for a, b in zip(c, want))


step = 2
ink = bars = 0
link_rows = {}
for y in range(0, h, step):
    for x in range(0, w, step):
        c = px[x, y]
        if sum(c) < 600:
            ink += 1
        if near(c, (74, 111, 165), 12):
            bars += 1
        if c[2] > 150 and c[0] < 90 and c[1] < 90:   # a link: blue text
            link_rows.setdefault(y, []).append(x)
total = (w // step) * (h // step)
check("screenshot %dx%d is not blank (%.1f%% ink)" % (w, h, 100.0 * ink / total), ink > total * 0.01, ink)
check("the histogram's bars are drawn (%d pixels)" % bars, bars > 500, bars)
# the student table: lines with a linked name, and dark digits further right on those lines
lines = sorted(link_rows)
right_ink = 0
for y in lines:
    xs = link_rows[y]
    right = min(xs) + 150
    right_ink += sum(1 for x in range(right, min(w, right + 500), step) if sum(px[x, y]) < 300)
bands = len({y // 17 for y in lines})
check("the student table is drawn: %d text lines of links, %d dark pixels beside them" % (bands, right_ink),
      bands >= 12 and right_ink > 50, (bands, right_ink))
sys.exit(1 if fails else 0)
