#!/bin/sh
# tools/run-suites.sh - run every tests/<suite>/run.sh; each exits 0 when green,
# 77 when it cannot run here (counted as skipped, never as passed).
# The suites use $GRADER (default: the ASan/UBSan build) and print their own lines.
# With SUITE_TIMES=FILE each suite's time is appended to FILE ("seconds suite"),
# for tools/suite-times.sh.
set -u
cd "$(dirname "$0")/.."
: "${GRADER:=$PWD/build/asan/grader}"
export GRADER
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
passed=0
failed=0
skipped=0
for suite in tests/*/run.sh; do
	[ -x "$suite" ] || continue
	echo "== $suite"
	started=$(date +%s)
	"$suite"
	rc=$?
	echo "time: $suite $(($(date +%s) - started)) s"
	[ -z "${SUITE_TIMES:-}" ] || echo "$(($(date +%s) - started)) $suite" >> "$SUITE_TIMES"
	if [ $rc -eq 0 ]; then
		passed=$((passed + 1))
	elif [ $rc -eq 77 ]; then   # the suite cannot run here (e.g. needs root): not a pass
		echo "SKIPPED: $suite"
		skipped=$((skipped + 1))
	else
		echo "FAILED: $suite"
		failed=$((failed + 1))
	fi
done
echo "suites: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
