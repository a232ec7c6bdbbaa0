#!/bin/sh
# tools/suite-times.sh FILE - the suites' times that tools/run-suites.sh and
# tools/run-unprivileged.sh appended to FILE ("wall-seconds cpu-seconds suite"
# per line), the longest first, with their sums: printed at the end of
# `make test` so the test-time budget (30 minutes here, docs/performance.md
# "test-time budget") shows in every CI log.  On a machine shared with other
# work the CPU seconds (the suite's processes, user + system) say more than
# the wall-clock ones, which include the waits for a CPU.
set -u
[ -s "${1:-}" ] || { echo "suite times: none recorded"; exit 0; }
echo "== suite times (longest first): wall-clock, CPU"
sort -rn "$1" | awk '{ w += $1; c += $2; printf "%6d s %6d s  %s\n", $1, $2, substr($0, index($0, $3)) }
	END { printf "%6d s %6d s  in all (%d min wall-clock)\n", w, c, w / 60 }'
