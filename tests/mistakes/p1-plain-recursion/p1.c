/* Mistake: the game tree searched without memoisation (exponential). */
#include <stdbool.h>

bool AcanWin(int n);
bool BcanWin(int n);

bool AcanWin(int n)
{
    if (n <= 0)
        return false;
    for (int m = 1; m <= 6; m++)
        if (!BcanWin(n - m > 0 ? n - m : 0))
            return true;
    return false;
}

bool BcanWin(int n)
{
    static const int bm[] = {2, 3, 5, 7};
    if (n <= 0)
        return false;
    for (int j = 0; j < 4; j++)
        if (!AcanWin(n - bm[j] > 0 ? n - bm[j] : 0))
            return true;
    return false;
}
