"""Problem 2 -- the multiplication game.

A number x starts at k (1 <= k < n).  The two players alternately
multiply x by any of 2, 3, ..., 9.  Whoever first makes x >= n wins.

    canWin(k, n): True if the first player can force a win.

n goes up to about 10^18, so searching every game is out of the
question: reason backwards from n.  Python integers never overflow, but
floating point (/, math.ceil, math.log) is exact only up to 2^53: keep to
integers (// and %).
"""


def canWin(k, n):
    """True if the first player, starting from x = k, can force x >= n first."""
    return False  # TODO: replace with your solution


def main():
    """The course's self-test."""
    cases = [
        ((10, 100), False), ((11, 100), False), ((12, 100), True), ((13, 100), True),
        ((50, 100), True), ((99, 100), True),
        ((124, 10**7), False), ((452, 10**7), True), ((7051, 10**7), True),
        ((40297, 10**7), False), ((170029, 10**7), True), ((605018, 10**7), False),
        ((2189729, 10**7), True),
    ]
    all_correct = True
    for (k, n), expected in cases:
        if canWin(k, n) != expected:
            print("Incorrect output for input", (k, n))
            all_correct = False
    if all_correct:
        print("Correct for all inputs")


main()
