#!/usr/bin/env python3
"""tests/games/check_reference.py - the games references (C and Python)
against independent brute force and the values the course publishes.

The brute forces search the game trees directly (sets of used numbers,
tuples of piles, positions by recursion) and know nothing of bit masks,
Bouton's XOR or the mex table.  The C references are compiled into a
shared library with cc and called through ctypes.  Prints "ok - ..." /
"not ok - ..." lines; exit 1 on any failure.
"""
import ctypes
import functools
import importlib.util
import itertools
import os
import subprocess
import sys
import tempfile

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
REF = os.path.join(REPO, "examples", "games", "reference")
failed = 0


def check(ok, what):
    global failed
    print(("ok - " if ok else "not ok - ") + what)
    failed += not ok


# ---- independent brute forces ----

def bf_can_i_win(m, t):
    """LeetCode 464: nobody wins when 1 + ... + m < t (false); t <= 0 is won at once."""
    if t <= 0:
        return True
    if m * (m + 1) // 2 < t:
        return False

    @functools.lru_cache(maxsize=None)
    def to_move_wins(free, total):
        return any(total + i >= t or not to_move_wins(free - {i}, total + i) for i in free)

    return to_move_wins(frozenset(range(1, m + 1)), 0)


@functools.lru_cache(maxsize=None)
def bf_nim(piles):
    """the player to move wins iff some move leaves a lost position (no move: lost)"""
    for i, p in enumerate(piles):
        for take in range(1, p + 1):
            rest = tuple(sorted(piles[:i] + (p - take,) + piles[i + 1:]))
            if not bf_nim(rest):
                return True
    return False


def bf_grundy(n, moves):
    @functools.lru_cache(maxsize=None)
    def g(v):
        options = {g(v - m) for m in moves if 0 < m <= v}
        return next(x for x in itertools.count() if x not in options)
    return g(n)


# ---- the references ----

def load_py(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(REF, "python", name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def load_c(tmp):
    lib = os.path.join(tmp, "games.so")
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", lib] +
                   [os.path.join(REF, f) for f in ("canIWin.c", "nim.c", "grundy.c")], check=True)
    c = ctypes.CDLL(lib)
    c.canIWin.restype = ctypes.c_bool
    c.canIWin.argtypes = [ctypes.c_int, ctypes.c_int]
    c.nimWin.restype = ctypes.c_bool
    c.nimWin.argtypes = [ctypes.POINTER(ctypes.c_int), ctypes.c_int]
    c.grundy.restype = ctypes.c_int
    c.grundy.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_int), ctypes.c_int]
    return c


def ints(values):
    return (ctypes.c_int * max(1, len(values)))(*values)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        c = load_c(tmp)
        py = {name: load_py(name) for name in ("canIWin", "nim", "grundy")}
        impls = {
            "C": (lambda m, t: bool(c.canIWin(m, t)),
                  lambda piles: bool(c.nimWin(ints(piles), len(piles))),
                  lambda n, moves: c.grundy(n, ints(moves), len(moves))),
            "Python": (py["canIWin"].canIWin, py["nim"].nimWin, py["grundy"].grundy),
        }
        for lang, (can_i_win, nim_win, grundy) in impls.items():
            # published values: LeetCode 464's examples and the course's (4, 8) / (4, 9) trees
            published = {(10, 11): False, (10, 0): True, (10, 1): True, (4, 8): True, (4, 9): False,
                         (4, 6): True, (5, 50): False}
            check(all(can_i_win(m, t) == v for (m, t), v in published.items()),
                  f"{lang} canIWin: the published values ((4, 8) true, (4, 9) false, LeetCode's examples)")
            bad = [(m, t) for m in range(1, 9) for t in range(0, 40) if can_i_win(m, t) != bf_can_i_win(m, t)]
            check(not bad, f"{lang} canIWin agrees with the brute force for M <= 8, T < 40 (first differences: {bad[:3]})")
            # Bouton's examples, then every position of up to 3 piles of up to 5 stones
            check(not nim_win([1, 2, 3]) and nim_win([3, 4, 5]) and not nim_win([]) and not nim_win([1, 1]),
                  f"{lang} nimWin: Bouton's examples ([1, 2, 3] and [1, 1] lost, [3, 4, 5] won, no piles lost)")
            bad = [p for k in range(0, 4) for p in itertools.product(range(6), repeat=k)
                   if nim_win(list(p)) != bf_nim(tuple(sorted(p)))]
            check(not bad, f"{lang} nimWin agrees with the brute force on every position of <= 3 piles <= 5 (first differences: {bad[:3]})")
            # subtraction games with published periods: {1, 2, 3} gives n mod 4; {2, 3} 0 0 1 1 2
            check(all(grundy(n, [1, 2, 3]) == n % 4 for n in range(40)) and
                  all(grundy(n, [2, 3]) == [0, 0, 1, 1, 2][n % 5] for n in range(40)),
                  f"{lang} grundy: the published periods of S = {{1, 2, 3}} and S = {{2, 3}}")
            bad = [(n, ms) for ms in ([1], [2], [1, 4], [2, 5, 7], [3, 1, 9, 4], [6], [], [1, 2, 3, 4, 5, 6, 7, 8])
                   for n in range(0, 60) if grundy(n, list(ms)) != bf_grundy(n, tuple(ms))]
            check(not bad, f"{lang} grundy agrees with the brute force for n < 60 on 8 move sets (first differences: {bad[:3]})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
