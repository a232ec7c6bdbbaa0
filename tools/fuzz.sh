#!/bin/sh
# tools/fuzz.sh - run one libFuzzer harness of tests/fuzz (built by
# `make fuzz-build` into build/fuzz/) on its seeds plus what earlier runs
# found, niced, with its dictionary when it has one.
#
#   tools/fuzz.sh HARNESS [libFuzzer options...]
#   tools/fuzz.sh record -runs=10000000
#   tools/fuzz.sh yaml -runs=10000000 >build/fuzz/logs/yaml.log 2>&1
#
# New inputs go to build/fuzz/corpus/HARNESS (the seeds in
# tests/fuzz/corpus/HARNESS are only read), crashes, leaks and timeouts to
# build/fuzz/artifacts/HARNESS/ ($FUZZ_DIR instead of build/fuzz when set,
# as for `make FUZZ_DIR=...`).  FUZZ_BIN runs another build of the harness
# (one with other sanitizer flags, say) on the same corpus; FUZZ_NICE is the
# niceness (19).  The last lines libFuzzer prints (executions, coverage,
# corpus size) are what docs/fuzzing.md records.
#
# -entropic_scale_per_exec_time=1: libFuzzer picks slow inputs less often
# for mutation (they still run and stay in the corpus).  A problem file that
# expands to thousands of tests takes 10-80 ms, a small one 0.1 ms: without
# it fuzz_yaml spends most of its time on the former (~600 executions/s
# against ~4000, with less coverage in the same time).  Options given on
# the command line come after it and win.
set -eu
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: tools/fuzz.sh HARNESS [libFuzzer options...]" >&2; exit 2; }
h=$1
shift
dir=${FUZZ_DIR:-build/fuzz}
bin=${FUZZ_BIN:-$dir/fuzz_$h}
[ -x "$bin" ] || { echo "fuzz: $bin is not built (make fuzz-build)" >&2; exit 2; }
[ -d "tests/fuzz/corpus/$h" ] || { echo "fuzz: no seeds tests/fuzz/corpus/$h" >&2; exit 2; }
mkdir -p "$dir/corpus/$h" "$dir/artifacts/$h"
set -- -artifact_prefix="$dir/artifacts/$h/" -print_final_stats=1 -entropic_scale_per_exec_time=1 "$@"
[ -f "tests/fuzz/$h.dict" ] && set -- -dict="tests/fuzz/$h.dict" "$@"
# the harnesses' temporary files (made and removed per input) on tmpfs when there is one
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
	TMPDIR=/dev/shm
	export TMPDIR
fi
: "${ASAN_OPTIONS:=detect_leaks=1:abort_on_error=1:symbolize=1}"
: "${UBSAN_OPTIONS:=print_stacktrace=1:halt_on_error=1}"
export ASAN_OPTIONS UBSAN_OPTIONS
echo "fuzz: $bin $* $dir/corpus/$h tests/fuzz/corpus/$h (TMPDIR=${TMPDIR:-/tmp}, nice ${FUZZ_NICE:-19})" >&2
exec nice -n "${FUZZ_NICE:-19}" "$bin" "$@" "$dir/corpus/$h" "tests/fuzz/corpus/$h"
