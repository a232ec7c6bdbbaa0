#!/bin/sh
# tools/run-suites.sh - run every tests/<suite>/run.sh; each exits 0 when green.
# The suites use $GRADER (default: the ASan/UBSan build) and print their own lines.
set -u
cd "$(dirname "$0")/.."
: "${GRADER:=$PWD/build/asan/grader}"
export GRADER
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
passed=0
failed=0
for suite in tests/*/run.sh; do
	[ -x "$suite" ] || continue
	echo "== $suite"
	if "$suite"; then
		passed=$((passed + 1))
	else
		echo "FAILED: $suite"
		failed=$((failed + 1))
	fi
done
echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
