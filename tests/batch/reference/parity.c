/* Reference for tests/batch/problems/parity.yaml */
#include <stdbool.h>

bool isEven(int n);

bool isEven(int n)
{
    return n % 2 == 0;
}
