#!/bin/sh
# Build and run the cmocka unit tests of the reference solutions.
# Run from the repository root:  sh tests/unit/build_reference_test.sh
# p2/p3 both define canWin and p4/p4_dp both define f, so each reference
# is compiled under a new name with -D.
set -eu
CFLAGS="-std=gnu11 -O2 -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes -Werror"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM

gcc $CFLAGS -c reference/p1.c -o "$T/ref_p1.o"
gcc $CFLAGS -c reference/p2.c -DcanWin=ref_p2_canWin -o "$T/ref_p2.o"
gcc $CFLAGS -c reference/p3.c -DcanWin=ref_p3_canWin -o "$T/ref_p3.o"
gcc $CFLAGS -c reference/p4.c -Df=ref_p4_f -o "$T/ref_p4.o"
gcc $CFLAGS -c reference/p4_dp.c -Df=ref_p4dp_f -o "$T/ref_p4dp.o"
gcc $CFLAGS tests/unit/test_reference.c "$T/ref_p1.o" "$T/ref_p2.o" \
    "$T/ref_p3.o" "$T/ref_p4.o" "$T/ref_p4dp.o" -lcmocka -o "$T/test_reference"
"$T/test_reference"
