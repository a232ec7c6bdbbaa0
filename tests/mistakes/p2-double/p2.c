/*
 * Mistake: the right idea in double.  Above 2^53 a double cannot hold every
 * integer: n is rounded when compared, so the answer is wrong right at the
 * band edges, e.g. canWin(1, 9 * 18^12 + 1) = canWin(1, 10411482432835585)
 * is false but this says true.
 */
#include <stdbool.h>

bool canWin(long long k, long long n);

bool canWin(long long k, long long n)
{
    double x = (double)k;
    for (;;) {
        x *= 9;
        if (x >= n)
            return true;
        x *= 2;
        if (x >= n)
            return false;
    }
}
