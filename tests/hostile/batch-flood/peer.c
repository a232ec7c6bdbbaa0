/* An honest student graded beside h.c in the same `grader batch`: correct,
 * with a start-up of 600 ms (a table built in a constructor, say), so that
 * some of the class is graded while h.c's constructor holds its processes. */
#include <time.h>
__attribute__((constructor)) static void warm(void) { struct timespec t = { 0, 600000000 }; nanosleep(&t, 0); }
long long twice(long long x);
long long twice(long long x) { return 2 * x; }
