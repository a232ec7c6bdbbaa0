"""Mistake: the band idea with math.ceil and true division (/): floats are
exact only up to 2^53, so n is rounded right at the band edges above that,
e.g. canWin(1, 9 * 18^12 + 1) = canWin(1, 10411482432835585) is False but
this says True."""
import math


def canWin(k, n):
    threshold = n
    winning = True
    while True:
        threshold = math.ceil(threshold / (9 if winning else 2))
        if k >= threshold:
            return winning
        winning = not winning
