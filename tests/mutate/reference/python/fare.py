"""fare: the price of a ticket by age."""


def fare(age):
    if age < 6:
        return 0
    if age < 18:
        return 5
    return 10
