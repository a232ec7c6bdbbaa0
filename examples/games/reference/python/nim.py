"""nim -- normal-play Nim (reference solution in Python).

The player to move loses exactly when the XOR of the pile sizes is 0
(Bouton's theorem, 1901).  nimWin(piles) is True when the player to move
can force a win.
"""


def nimWin(piles):
    nim_sum = 0
    for p in piles:
        nim_sum ^= p
    return nim_sum != 0
