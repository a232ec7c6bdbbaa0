/*
 * canIWin -- LeetCode 464 "Can I Win" (reference solution).
 *
 * Two players take turns picking a number from 1..maxChoosableInteger, each
 * number at most once; the running total starts at 0 and whoever first
 * brings it to desiredTotal or beyond wins.  canIWin is true when the first
 * player can force a win (both play optimally).
 *
 * Reasoning.  The numbers still free decide everything: the total so far
 * is desiredTotal minus what remains, and what remains is desiredTotal
 * minus the sum of the used numbers.  So a position is a bit mask of used
 * numbers (2^M of them, M <= 20: 1 MiB of memo).  The player to move wins
 * iff some free number i either reaches the total (i >= remaining) or
 * leaves the opponent a losing position.  Two cases need no search: a
 * desired total of 0 or less is reached before anyone moves (true), and if
 * all numbers together stay below it nobody ever wins (false).
 */
#include <stdbool.h>
#include <stdlib.h>

bool canIWin(int maxChoosableInteger, int desiredTotal);

/* memo[used]: 0 not known yet, 1 the player to move wins, 2 loses */
static unsigned char *memo;
static int m;

static bool wins(unsigned used, int remaining)
{
    bool result = false;

    if (memo[used] != 0)
        return memo[used] == 1;
    for (int i = 1; i <= m; i++) {
        unsigned bit = 1u << (i - 1);
        if ((used & bit) == 0 && (i >= remaining || !wins(used | bit, remaining - i))) {
            result = true;
            break;
        }
    }
    memo[used] = result ? 1 : 2;
    return result;
}

bool canIWin(int maxChoosableInteger, int desiredTotal)
{
    bool result;

    if (desiredTotal <= 0)
        return true;
    if (maxChoosableInteger * (maxChoosableInteger + 1) / 2 < desiredTotal)
        return false;
    m = maxChoosableInteger;
    memo = calloc((size_t)1 << m, 1);
    if (memo == NULL)
        abort();
    result = wins(0, desiredTotal);
    free(memo);
    memo = NULL;
    return result;
}
