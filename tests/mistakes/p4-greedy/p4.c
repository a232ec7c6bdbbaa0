/* Mistake: both players greedily take the larger end card. */
long long f(const int *L, int n);

long long f(const int *L, int n)
{
    int i = 0, j = n - 1;
    long long mine = 0;
    for (int turn = 0; i <= j; turn++) {
        int card;
        if (L[i] >= L[j])
            card = L[i++];
        else
            card = L[j--];
        if (turn % 2 == 0)
            mine += card;
    }
    return mine;
}
