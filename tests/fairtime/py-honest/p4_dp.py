"""Not a mistake: the textbook bottom-up DP with a full N x N table of
lists and min(); about 130 MB and half a second for N = 2200, within the
limits Python gets."""


def f(L):
    n = len(L)
    if n == 0:
        return 0
    dp = [[0] * n for _ in range(n)]
    prefix = [0]
    for x in L:
        prefix.append(prefix[-1] + x)
    for i in range(n):
        dp[i][i] = L[i]
    for length in range(2, n + 1):
        for i in range(n - length + 1):
            j = i + length - 1
            total = prefix[j + 1] - prefix[i]
            dp[i][j] = total - min(dp[i + 1][j], dp[i][j - 1])
    return dp[0][n - 1]
