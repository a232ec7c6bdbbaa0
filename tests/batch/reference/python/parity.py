"""The batch tests' reference in Python: is n even?"""


def isEven(n):
    return n % 2 == 0
