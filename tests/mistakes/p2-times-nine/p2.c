/*
 * Mistake: long long everywhere, but the test x * 9 >= n is written
 * directly: x * 9 overflows when x is above about 1.02e18, which happens
 * for n near 9.2e18.
 */
#include <stdbool.h>

bool canWin(long long k, long long n);

bool canWin(long long k, long long n)
{
    long long x = k;
    for (;;) {
        if (x * 9 >= n)
            return true;
        x *= 9;
        if (x * 2 >= n)
            return false;
        x *= 2;
    }
}
