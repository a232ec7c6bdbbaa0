/*
 * Mistake: the right idea (Stan multiplies by 9, Ollie by 2, see who
 * reaches n first) computed in int.  Fine while n fits in an int, wrong
 * for n in the trillions and beyond.
 */
#include <stdbool.h>

bool canWin(long long k, long long n);

bool canWin(long long k, long long n)
{
    int x = (int)k;
    int goal = (int)n;
    for (;;) {
        x *= 9;
        if (x >= goal)
            return true;
        x *= 2;
        if (x >= goal)
            return false;
    }
}
