#!/bin/sh
# tests/house/run.sh - the house rules of grader/ (tools/check-house.py):
# no function over 100 lines, the library apart from the command layer, no
# module calling back into a module that uses it (by its functions or its
# struct, union and enum types), every include going to
# the same folder or a lower layer (grader/README.md).
cd "$(dirname "$0")/../.." || exit 2
exec python3 tools/check-house.py grader
