/* Mistake: the classic game with k = 1 only; k is ignored. */
#include <stdbool.h>

bool canWin(long long k, long long n);

bool canWin(long long k, long long n)
{
    long long x = 1;
    (void)k;
    for (;;) {
        if (x >= (n + 8) / 9)
            return true;
        x *= 9;
        if (x >= (n + 1) / 2)
            return false;
        x *= 2;
    }
}
