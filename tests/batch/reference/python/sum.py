"""The batch tests' reference in Python: the sum of a row."""


def total(L):
    return sum(L)
