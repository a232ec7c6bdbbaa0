#!/bin/sh
# tools/run-suites.sh - run every tests/<suite>/run.sh; each exits 0 when green,
# 77 when it cannot run here (counted as skipped, never as passed).
# The suites use $GRADER (default: the ASan/UBSan build) and print their own lines.
# With SUITE_TIMES=FILE each suite's wall-clock and CPU time (its processes'
# user + system, as `times` counts the children) is appended to FILE
# ("seconds cpu-seconds suite"), for tools/suite-times.sh.
#
# The suites that grade against problems/ start from a seed cache of its
# reference answers (tools/seed-cache.sh): $TEST_SEED_CACHE, made here when
# it names no directory yet (make test names one for this script and
# tools/run-unprivileged.sh), else in a temporary directory.
set -u
cd "$(dirname "$0")/.."
: "${GRADER:=$PWD/build/asan/grader}"
export GRADER
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

# cpu_now: sets cpu_s to the CPU seconds (user + system) of this shell's finished children so far
# (`times` in this shell itself: in a pipe or $(...) a subshell would count its own, none)
cpu_now() {
	times >"$seed/times"
	cpu_s=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } printf "%d\n", t }' "$seed/times")
}

seed=$(mktemp -d "${TMPDIR:-/tmp}/suite-seed.XXXXXX") || exit 1
trap 'rm -rf "$seed"' EXIT
trap 'exit 130' INT TERM HUP
: "${TEST_SEED_CACHE:=$seed/cache}"
export TEST_SEED_CACHE
if [ ! -d "$TEST_SEED_CACHE" ]; then
	started=$(date +%s)
	cpu_now
	cpu=$cpu_s
	tools/seed-cache.sh "$TEST_SEED_CACHE" || unset TEST_SEED_CACHE
	cpu_now
	echo "time: seed cache $(($(date +%s) - started)) s, $((cpu_s - cpu)) s of CPU"
	[ -z "${SUITE_TIMES:-}" ] || echo "$(($(date +%s) - started)) $((cpu_s - cpu)) (seed cache)" >> "$SUITE_TIMES"
fi

# The order: the suites that take longest first (a second lane that takes the rest from the end then
# finishes with the short ones: tools/run-lanes.sh), then the others by name.  With SUITE_QUEUE=DIR,
# a suite runs only in the lane that claims it first (mkdir DIR/<suite>: atomic); SUITE_ORDER=reverse
# walks the list from its end.
LONGEST_FIRST="mistakes integration hostile growth reports games fairtime pack batch"
all_suites() {
	for name in $LONGEST_FIRST; do
		[ -x "tests/$name/run.sh" ] && echo "tests/$name/run.sh"
	done
	for suite in tests/*/run.sh tests/*/*/run.sh; do # tests/batch/course: a suite beside tests/batch
		name=${suite#tests/}
		case " $LONGEST_FIRST " in *" ${name%/run.sh} "*) continue ;; esac
		[ -x "$suite" ] && echo "$suite"
	done
}
if [ "${SUITE_ORDER:-}" = reverse ]; then
	suites=$(all_suites | awk '{ a[NR] = $0 } END { for (i = NR; i > 0; i--) print a[i] }')
else
	suites=$(all_suites)
fi

passed=0
failed=0
skipped=0
for suite in $suites; do
	if [ -n "${SUITE_QUEUE:-}" ] && ! mkdir "$SUITE_QUEUE/$(echo "$suite" | tr / _)" 2>/dev/null; then
		continue # the other lane has it
	fi
	echo "== $suite"
	started=$(date +%s)
	cpu_now
	cpu=$cpu_s
	"$suite"
	rc=$?
	wall=$(($(date +%s) - started))
	cpu_now
	cpu=$((cpu_s - cpu))
	echo "time: $suite $wall s, $cpu s of CPU"
	[ -z "${SUITE_TIMES:-}" ] || echo "$wall $cpu $suite" >> "$SUITE_TIMES"
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
