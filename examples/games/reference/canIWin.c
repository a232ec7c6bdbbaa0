/*
 * canIWin -- LeetCode 464 "Can I Win" (reference solution).
 *
 * Two players take turns picking a number from 1..maxChoosableInteger, each
 * number at most once; the running total starts at 0 and whoever first
 * brings it to desiredTotal or beyond wins.  canIWin is true when the first
 * player can force a win (both play optimally).  1 <= M <= 20, 0 <= T <= 300.
 *
 * Reasoning.  The numbers still free decide everything: what remains to be
 * reached is desiredTotal minus the sum of the used numbers.  So a position
 * is a bit mask of used numbers (bit i for the number i + 1), 2^M of them.  The
 * player to move wins iff some free number i either reaches the total
 * (i >= remaining) or leaves the opponent a losing position; each mask is
 * searched once and remembered.  A total of 0 is reached by any first pick.
 * If all numbers together stay below the total nobody ever wins: false
 * (without that check the search would call the player who makes the last
 * pick the winner).
 */
#include <stdbool.h>
#include <string.h>

bool canIWin(int maxChoosableInteger, int desiredTotal);

#define MASKS (1 << 20) /* M <= 20 */

/* known[used]: the mask was searched; win[used]: then the player to move wins */
static bool known[MASKS], win[MASKS];
static int m;

static bool wins(unsigned used, int remaining)
{
    if (!known[used]) {
        bool result = false;
        for (int i = 0; i < m && !result; i++) /* the number i + 1 */
            result = !(used >> i & 1) && (i + 1 >= remaining || !wins(used | 1u << i, remaining - i - 1));
        known[used] = true;
        win[used] = result;
    }
    return win[used];
}

bool canIWin(int maxChoosableInteger, int desiredTotal)
{
    if (maxChoosableInteger * (maxChoosableInteger + 1) / 2 < desiredTotal)
        return false;
    m = maxChoosableInteger;
    memset(known, 0, sizeof(known));
    return wins(0, desiredTotal);
}
