/*
 * Problem 1 -- a partizan stone game (reference solution).
 *
 * There are n stones.  A may remove 1-6 stones, B may remove 2, 3, 5 or 7.
 * A player whose allowed amount exceeds what is left may take everything
 * that is left.  Whoever takes the last stone wins.
 *
 * Reasoning.  Write a(i) = "A, to move with i stones left, can force a win"
 * and b(i) likewise for B.  With no stones left the player to move has
 * already lost (the opponent took the last stone), so a(0) = b(0) = false.
 * Taking m stones from i leaves max(i - m, 0) stones (an amount larger than
 * what is left takes everything), so
 *
 *     a(i) = some m in {1..6}      with  b(max(i - m, 0)) false,
 *     b(i) = some m in {2,3,5,7}   with  a(max(i - m, 0)) false.
 *
 * Both only look back at most 7 stones, so we fill the two tables for
 * i = 1, 2, ..., n while keeping only the last 8 entries (indices modulo 8):
 * O(n) time and O(1) memory.
 */
#include <stdbool.h>

bool AcanWin(int n);
bool BcanWin(int n);

#define WINDOW 8 /* > largest amount anyone may remove (7) */
#define N_A_MOVES (sizeof A_MOVES / sizeof A_MOVES[0])
#define N_B_MOVES (sizeof B_MOVES / sizeof B_MOVES[0])

static const int A_MOVES[] = {1, 2, 3, 4, 5, 6};
static const int B_MOVES[] = {2, 3, 5, 7};

/*
 * The window slot of the position that taking m of i stones leaves:
 * max(i - m, 0).  The slot is computed in unsigned arithmetic, so it lies
 * in 0..WINDOW-1 whatever the operands are (no negative index, even for a
 * changed sign in a mutant: grader mutate, docs/test-strength.md).
 */
static unsigned after_move(int i, int m)
{
    return (unsigned)(i > m ? i - m : 0) % WINDOW;
}

/* Fill a(i) and b(i) for i = 1..n; return a(n) if want_a, else b(n). */
static bool solve(int n, bool want_a)
{
    /* every slot starts as the value of 0 stones: a(0) = b(0) = false */
    bool a[WINDOW] = {false}, b[WINDOW] = {false};

    if (n <= 0)
        return false;

    for (int i = 1; i <= n; i++) {
        bool a_wins = false, b_wins = false;

        for (unsigned j = 0; j < N_A_MOVES; j++)
            if (!b[after_move(i, A_MOVES[j])])
                a_wins = true;
        for (unsigned j = 0; j < N_B_MOVES; j++)
            if (!a[after_move(i, B_MOVES[j])])
                b_wins = true;
        /* slot i % WINDOW last held i - WINDOW, which no move reaches */
        a[i % WINDOW] = a_wins;
        b[i % WINDOW] = b_wins;
    }
    return want_a ? a[n % WINDOW] : b[n % WINDOW];
}

bool AcanWin(int n)
{
    return solve(n, true);
}

bool BcanWin(int n)
{
    return solve(n, false);
}
