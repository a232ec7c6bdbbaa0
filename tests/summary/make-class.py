#!/usr/bin/env python3
"""tests/summary/make-class.py CLASSDIR - the class of tests/summary/run.sh.

For tests/batch's small problems (sum, parity): correct students, a pair
copied with renamed identifiers and new comments and layout (carl, cara),
a third copy with a few lines added (cody), an independent solution of
the same length (ivan), the same for Python (pya, pyb), a student whose
sum loops forever (tim), one whose sum crashes (rex), one that does not
compile (ced), and two students named like HTML (<script>..., <img ...>).
Prints nothing; the expected figures live in run.sh.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BATCH = os.path.join(HERE, "..", "batch")

CARL = b"""/* Carl's solution: pairwise summation, so the partial sums stay small */
#include <stddef.h>

long long total(const int *L, int n);

static long long sum_range(const int *values, int lo, int hi)
{
    if (hi - lo == 0)
        return 0;
    if (hi - lo == 1)
        return values[lo];
    int mid = lo + (hi - lo) / 2;
    long long left = sum_range(values, lo, mid);
    long long right = sum_range(values, mid, hi);
    return left + right;
}

long long total(const int *L, int n)
{
    if (L == NULL || n <= 0)
        return 0;
    long long result = sum_range(L, 0, n);
    return result;
}
"""

# carl's, renamed, recommented, laid out anew: identical after normalising
CARA = b"""// sum.c -- Cara
// divide and conquer
#include <stddef.h>
long long total(const int *L, int n);
static long long add_part(const int *arr, int a, int b) {
  if (b - a == 0) return 0;          /* empty */
  if (b - a == 1) return arr[a];     /* one */
  int m = a + (b - a) / 2;
  long long x = add_part(arr, a, m); long long y = add_part(arr, m, b);
  return x + y;
}
long long total(const int *L, int n) {
  if (L == NULL || n <= 0) return 0;
  long long r = add_part(L, 0, n);
  return r;
}
"""

# carl's with a few lines added: near-identical
CODY = b"""#include <stddef.h>

long long total(const int *L, int n);

static int calls;

static long long sum_range(const int *values, int lo, int hi)
{
    if (hi - lo == 0)
        return 0;
    if (hi - lo == 1)
        return values[lo];
    int mid = lo + (hi - lo) / 2;
    long long left = sum_range(values, lo, mid);
    long long right = sum_range(values, mid, hi);
    return left + right;
}

long long total(const int *L, int n)
{
    calls++;
    if (L == NULL || n <= 0)
        return 0;
    long long result = sum_range(L, 0, n);
    return result;
}
"""

# the same task, written independently
IVAN = b"""/* ivan: walk the row from the back */
long long total(const int *L, int n);

long long total(const int *L, int n)
{
    long long acc = 0;
    int k = n;
    while (k > 0) {
        k--;
        acc = acc + (long long)L[k];
    }
    if (n < 0) {
        acc = -1;
    }
    return acc;
}
"""

PYA = b'''"""Sum of a row, by halves."""


def _half_sum(values, lo, hi):
    if hi - lo == 0:
        return 0
    if hi - lo == 1:
        return values[lo]
    mid = (lo + hi) // 2
    left = _half_sum(values, lo, mid)
    right = _half_sum(values, mid, hi)
    return left + right


def total(L):
    if not L:
        return 0
    return _half_sum(L, 0, len(L))
'''

PYB = b'''# my own work!!
def part(xs, a, b):
  # base cases
  if b - a == 0:
      return 0
  if b - a == 1: return xs[a]
  m = (a + b) // 2
  p = part(xs, a, m)

  q = part(xs, m, b)
  return p + q
def total(L):
  if not L: return 0
  return part(L, 0, len(L))
'''

REX = b"""/* crashes on every call */
long long total(const int *L, int n);

long long total(const int *L, int n)
{
    volatile int *p = 0;
    (void)L;
    return *p + n;
}
"""


def read(*parts):
    with open(os.path.join(*parts), "rb") as f:
        return f.read()


def folder(cls, name, files):
    d = os.path.join(cls, name)
    os.makedirs(d)
    for rel, data in files.items():
        with open(os.path.join(d, rel), "wb") as f:
            f.write(data)


def main():
    cls = sys.argv[1]
    os.makedirs(cls)
    ref = {n: read(BATCH, "reference", n) for n in ("sum.c", "parity.c")}
    parity_py = read(BATCH, "reference", "python", "parity.py")
    folder(cls, "alice", ref)
    folder(cls, "<script>alert(1)", ref)
    folder(cls, "<img src=x onerror=alert(1)>", ref)
    folder(cls, "carl", {"sum.c": CARL, "parity.c": ref["parity.c"]})
    folder(cls, "cara", {"sum.c": CARA, "parity.c": ref["parity.c"]})
    folder(cls, "cody", {"sum.c": CODY, "parity.c": ref["parity.c"]})
    folder(cls, "ivan", {"sum.c": IVAN, "parity.c": ref["parity.c"]})
    folder(cls, "pya", {"sum.py": PYA, "parity.py": parity_py})
    folder(cls, "pyb", {"sum.py": PYB, "parity.py": parity_py})
    folder(cls, "rex", {"sum.c": REX, "parity.c": ref["parity.c"]})
    folder(cls, "tim", {"sum.c": read(BATCH, "fixtures", "endless", "sum.c"), "parity.c": ref["parity.c"]})
    folder(cls, "ced", {"sum.c": read(BATCH, "fixtures", "compile-error", "sum.c"), "parity.c": ref["parity.c"]})


if __name__ == "__main__":
    main()
