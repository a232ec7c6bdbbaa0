#!/bin/sh
# tools/suite-times.sh FILE - the suites' times that tools/run-suites.sh and
# tools/run-unprivileged.sh appended to FILE ("seconds suite" per line), the
# longest first, with their sum: printed at the end of `make test` so the
# test-time budget (30 minutes here, docs in README "Tests and benchmarks")
# shows in every CI log.
set -u
[ -s "${1:-}" ] || { echo "suite times: none recorded"; exit 0; }
echo "== suite times (longest first)"
sort -rn "$1" | awk '{ t += $1; printf "%6d s  %s\n", $1, substr($0, index($0, " ") + 1) } END { printf "%6d s  in all (%d min)\n", t, t / 60 }'
