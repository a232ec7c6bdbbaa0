#!/bin/sh
# tools/bench.sh - performance figures for the grader (make bench).  Prints
# figures, not pass/fail:
#   (a) the grader's own cost per test case beyond the student's compute: a
#       trivial function (returns its argument) graded on 5000 cases, minus
#       the same with 1 case (start-up, compilation, first runner), per case;
#   (b) the whole reference graded, compilation included, answers cached;
#   (c) (a) and (b) with the sandbox's isolation switched off
#       (GRADER_NO_SECCOMP=1 GRADER_NO_NAMESPACES=1): what the sandbox costs.
# Each figure is the median wall time of several runs (hyperfine when installed,
# else 3 runs; the reference answers are cached beforehand).  Uses bin/grader, the optimised build.
# $GRADER overrides the grader, $BENCH_RUNS the number of runs.
set -u
cd "$(dirname "$0")/.." || exit 2
REPO=$PWD
: "${GRADER:=$REPO/bin/grader}"
: "${BENCH_RUNS:=3}"
CASES=5000

if [ ! -x "$GRADER" ]; then
	echo "bench: no grader at $GRADER (make bin/grader)" >&2
	exit 2
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/grader-bench.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM HUP
CACHE="$TMP/cache"
HYPERFINE=$(command -v hyperfine || true)

# ---- the benchmark problem: long long ident(long long x), N cases ----
bench_problem() { # bench_problem DIR N
	mkdir -p "$1"
	cat >"$1/bench.yaml" <<EOF
# grader overhead benchmark: the student's function does no work
id: bench
title: Overhead benchmark
source: bench.c
functions:
  - long long ident(long long x)
limits:
  cpu_ms: 2000
  memory_mb: 64
groups:
  - name: many
    visibility: public
    scoring: sum
    points: 1
    cases:
      - args: [{range: [1, $2]}]
EOF
}
bench_problem "$TMP/problems-many" "$CASES"
bench_problem "$TMP/problems-one" 1
mkdir -p "$TMP/ref" "$TMP/sub"
cat >"$TMP/ref/bench.c" <<'EOF'
long long ident(long long x);
long long ident(long long x) { return x; }
EOF
cp "$TMP/ref/bench.c" "$TMP/sub/bench.c"

# median_us CMD...: the median wall time of CMD in microseconds (its output discarded)
median_us() {
	if [ -n "$HYPERFINE" ]; then
		cmd=""
		for a in "$@"; do
			cmd="$cmd '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"
		done
		"$HYPERFINE" --style none --warmup 1 --runs "$BENCH_RUNS" --export-json "$TMP/h.json" \
			"env ${ENV_PREFIX:-} $cmd" >/dev/null 2>&1 &&
			python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["results"][0]["median"] * 1e6))' \
				"$TMP/h.json" && return
	fi
	i=0
	while [ "$i" -lt "$BENCH_RUNS" ]; do
		s=$(date +%s%N)
		env ${ENV_PREFIX:-} "$@" >/dev/null 2>&1
		e=$(date +%s%N)
		echo $(((e - s) / 1000))
		i=$((i + 1))
	done | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
secs() { awk -v us="$1" 'BEGIN { printf "%.2f s", us / 1e6 }'; }

# Sanity: the runs grade what we think, with the isolation we think.
isolation() {
	env ${ENV_PREFIX:-} "$GRADER" --cache "$CACHE" --problems "$TMP/problems-one" --reference "$TMP/ref" \
		--format json "$TMP/sub" 2>/dev/null |
		python3 -c 'import json,sys; print(json.load(sys.stdin).get("isolation", "?"))' 2>/dev/null || echo "?"
}
code() {
	env ${ENV_PREFIX:-} "$@" >/dev/null 2>&1
	echo $?
}

overhead() { # overhead JOBS
	many=$(median_us "$GRADER" --cache "$CACHE" --problems "$TMP/problems-many" --reference "$TMP/ref" -j "$1" \
		--only bench "$TMP/sub")
	one=$(median_us "$GRADER" --cache "$CACHE" --problems "$TMP/problems-one" --reference "$TMP/ref" -j "$1" \
		--only bench "$TMP/sub")
	rc=$(code "$GRADER" --cache "$CACHE" --problems "$TMP/problems-many" --reference "$TMP/ref" -j "$1" "$TMP/sub")
	awk -v j="$1" -v m="$many" -v o="$one" -v n="$CASES" -v rc="$rc" 'BEGIN {
		printf "  -j %s: %d cases %.2f s, 1 case %.2f s  ->  %.0f us per case%s\n", j, n, m / 1e6, o / 1e6,
			(m - o) / (n - 1), rc == 0 ? "" : "   (exit code " rc ": not all correct!)" }'
}

whole() { # whole JOBS: median wall time of grading reference/
	us=$(median_us "$GRADER" --cache "$CACHE" -j "$1" reference)
	rc=$(code "$GRADER" --cache "$CACHE" -j "$1" reference)
	echo "$us $rc"
}

echo "grader: $GRADER ($("$GRADER" --version 2>/dev/null)), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "$HYPERFINE" ]; then
	echo "timing: hyperfine, median of $BENCH_RUNS runs"
else
	echo "timing: median of $BENCH_RUNS runs (no hyperfine)"
fi
# fill the cache once: the reference's answers are not what we measure
"$GRADER" --cache "$CACHE" -j 2 reference >/dev/null 2>&1
"$GRADER" --cache "$CACHE" --problems "$TMP/problems-many" --reference "$TMP/ref" "$TMP/sub" >/dev/null 2>&1
"$GRADER" --cache "$CACHE" --problems "$TMP/problems-one" --reference "$TMP/ref" "$TMP/sub" >/dev/null 2>&1

for mode in on off; do
	if [ "$mode" = on ]; then
		ENV_PREFIX=""
	else
		ENV_PREFIX="GRADER_NO_SECCOMP=1 GRADER_NO_NAMESPACES=1"
	fi
	echo
	echo "== sandbox isolation $mode: $(isolation)"
	echo "(a) the grader's overhead per test case (a function returning its argument)"
	overhead 1
	overhead 2
	echo "(b) the whole reference graded (compilation included, answers cached)"
	set -- $(whole 1)
	j1=$1 rc1=$2
	set -- $(whole 2)
	j2=$1 rc2=$2
	printf "  -j 1: %s%s    -j 2: %s%s\n" "$(secs "$j1")" "$([ "$rc1" = 0 ] || echo " (exit $rc1!)")" \
		"$(secs "$j2")" "$([ "$rc2" = 0 ] || echo " (exit $rc2!)")"
	if [ "$mode" = on ]; then
		on_j1=$j1 on_j2=$j2
	else
		awk -v a="$on_j1" -v b="$j1" -v c="$on_j2" -v d="$j2" 'BEGIN {
			printf "  the sandbox costs %+.0f%% at -j 1 and %+.0f%% at -j 2 on the whole reference\n",
				(a - b) * 100 / b, (c - d) * 100 / d }'
	fi
done
