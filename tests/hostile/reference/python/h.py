"""The hostile suite's reference in Python: twice(x) = 2 x."""


def twice(x):
    return 2 * x
