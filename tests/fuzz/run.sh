#!/bin/sh
# tests/fuzz/run.sh - the fuzz harnesses' smoke run (make test): build them
# (make fuzz-build: clang-14, libFuzzer, ASan + UBSan), then for each
#   1. replay its seed corpus tests/fuzz/corpus/<h>/ (regression inputs of
#      fixed bugs included) and the reproducers tests/fuzz/crashes/<h>-*
#      (bugs reported elsewhere: each fails here until it is fixed);
#   2. fuzz it for FUZZ_SMOKE_SECONDS (default 5) from those seeds: a smoke of
#      the fuzzing loop and of code changed since the campaigns, not a search
#      (each harness has had 10 million inputs in `make fuzz`, docs/fuzzing.md).
# Any crash, leak, sanitizer report, timeout (10 s per input) or
# out-of-memory fails.  Long campaigns are `make fuzz` (docs/fuzzing.md).
# Everything temporary lives in one directory removed at the end; a crashing
# input is kept in build/fuzz/smoke-artifacts/.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

harnesses=${FUZZ_SMOKE_TARGETS:-"record yaml elf archive"}
seconds=${FUZZ_SMOKE_SECONDS:-5}
notok() { not_ok "$@"; }

# on tmpfs when there is one: fuzz_yaml and fuzz_archive make and remove a directory per input
tmp=${TMPDIR:-}
if [ -z "$tmp" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
	tmp=/dev/shm
fi
TMPDIR=${tmp:-/tmp} lib_tmpdir fuzz-smoke
work=$T
# the harnesses' own temporary directories go below $work, so nothing outlives the run
TMPDIR=$work/tmp
mkdir -p "$TMPDIR"
export TMPDIR
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:symbolize=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

if make -s --no-print-directory fuzz-build >"$work/build.log" 2>&1; then
	ok "build the harnesses (clang-14, libFuzzer, ASan + UBSan)"
else
	notok "build the harnesses (make fuzz-build)"
	sed 's/^/    /' "$work/build.log" | tail -n 20
	finish
fi

# show the end of a failed run and keep what crashed
report() {
	log=$1
	artifacts=$2
	# the sanitizer's verdict and the frames in our code, not libFuzzer's own
	grep -E 'ERROR|runtime error|SUMMARY|#[0-9]+ 0x[0-9a-f]+ in [A-Za-z_].* (/[^ ]*)?(grader|tests/fuzz)/' "$log" |
		head -n 12 | sed 's/^/    /'
	if [ -n "$(ls -A "$artifacts" 2>/dev/null)" ]; then
		mkdir -p build/fuzz/smoke-artifacts
		cp "$artifacts"/* build/fuzz/smoke-artifacts/
		echo "    input kept in build/fuzz/smoke-artifacts/"
	fi
}

for h in $harnesses; do
	bin=build/fuzz/fuzz_$h
	seeds=tests/fuzz/corpus/$h
	art=$work/artifacts-$h/
	mkdir -p "$art" "$work/corpus-$h"
	dict=""
	[ -f "tests/fuzz/$h.dict" ] && dict="-dict=tests/fuzz/$h.dict"
	nseeds=$(find "$seeds" -type f | wc -l)

	# 1. the seeds and the open reproducers, each input once
	if "$bin" -runs=0 -timeout=10 -artifact_prefix="$art" "$seeds" >"$work/$h-seeds.log" 2>&1; then
		ok "fuzz_$h: $nseeds seeds of tests/fuzz/corpus/$h"
	else
		notok "fuzz_$h: $nseeds seeds of tests/fuzz/corpus/$h"
		report "$work/$h-seeds.log" "$art"
	fi
	for crash in tests/fuzz/crashes/"$h"-*; do
		[ -f "$crash" ] || continue
		if "$bin" -timeout=10 "$crash" >"$work/$h-crash.log" 2>&1; then
			ok "fuzz_$h: $crash no longer fails"
		else
			notok "fuzz_$h: $crash (an open bug, see tests/fuzz/crashes/README.md)"
			grep -E 'runtime error|SUMMARY' "$work/$h-crash.log" | head -n 3 | sed 's/^/    /'
		fi
	done

	# 2. a short random run from the seeds (new inputs go to the throwaway corpus;
	#    slow inputs are picked less often, as tools/fuzz.sh does: see there)
	# shellcheck disable=SC2086
	if "$bin" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 -entropic_scale_per_exec_time=1 \
		-artifact_prefix="$art" $dict \
		"$work/corpus-$h" "$seeds" >"$work/$h-fuzz.log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$h-fuzz.log")
		cov=$(grep -E '^#[0-9]+' "$work/$h-fuzz.log" | tail -n 1 | sed -n 's/.*cov: \([0-9]*\) ft: \([0-9]*\).*/cov \1, features \2/p')
		ok "fuzz_$h: ${seconds} s of fuzzing, ${runs:-?} inputs, ${cov:-no coverage line}, no crash"
	else
		notok "fuzz_$h: ${seconds} s of fuzzing found a crash, leak or sanitizer report"
		report "$work/$h-fuzz.log" "$art"
	fi
done

finish
