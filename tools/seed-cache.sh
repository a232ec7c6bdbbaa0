#!/bin/sh
# tools/seed-cache.sh DIR - the reference answers of problems/ (C and Python)
# and the compiled runtimes and stubs, computed once into the cache DIR by
# grading reference/ with $GRADER: the suites that grade against problems/
# start their private caches from a copy of DIR (tests/lib.sh seed_cache,
# $TEST_SEED_CACHE) instead of each computing the same answers again.  The
# integration suite does not: it tests that computation itself, cold, at
# every isolation level.  DIR appears only when the grading succeeded (a
# failure is no check of its own: the integration suite grades the
# reference); prints one line, and exits 1 on failure.
set -u
cd "$(dirname "$0")/.."
: "${GRADER:=$PWD/build/asan/grader}"
[ $# -eq 1 ] || { echo "usage: tools/seed-cache.sh DIR"; exit 2; }
dir=$1
rm -rf "$dir.tmp"
started=$(date +%s)
if "$GRADER" --cache "$dir.tmp" --format json -o /dev/null reference >/dev/null 2>"$dir.err" && mv "$dir.tmp" "$dir"; then
	echo "seed cache: the reference answers of problems/ in $(($(date +%s) - started)) s ($dir)"
	rm -f "$dir.err"
else
	echo "seed cache: grading reference/ failed, every suite computes the answers itself:"
	tail -n 5 "$dir.err" | sed 's/^/    /'
	rm -rf "$dir.tmp" "$dir.err"
	exit 1
fi
