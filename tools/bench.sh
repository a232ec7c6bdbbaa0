#!/bin/sh
# tools/bench.sh - performance figures for the grader (make bench).  Prints
# figures, not pass/fail:
#   (a) the grader's own cost per test case beyond the student's compute: a
#       trivial function (returns its argument) graded on 5000 cases, minus
#       the same with 1 case (start-up, compilation, first runner), per case;
#   (b) the whole reference graded, compilation included, answers cached;
#   (c) (a) and (b) with the sandbox's isolation switched off
#       (GRADER_NO_SECCOMP=1 GRADER_NO_NAMESPACES=1): what the sandbox costs;
#   (d) for Python: (a) with the function written in Python, next to the fork
#       floor of the same warm interpreter (tools/bench-pyfloor.py: import
#       once, fork per call, no sandbox) and next to a per-test harness
#       (`python3 -c 'import bench; print(bench.ident(7))'` per test), as
#       ratios of figures measured in the same run;
#   (e) `grader mutate` on the shipped problem set at -j 2 (every mutant of
#       every reference, C and Python, graded; one run, answers cached).
# Each figure is the median wall time of several runs (hyperfine when installed,
# else 3 runs; the reference answers are cached beforehand).  Uses bin/grader, the optimised build.
# $GRADER overrides the grader, $BENCH_RUNS the number of runs, BENCH_ONLY=c,
# BENCH_ONLY=python or BENCH_ONLY=mutate runs only that part.
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

# ---- the same in Python: def ident(x), graded by the embedded interpreter ----
PYTHON=/usr/bin/python3 # the interpreter the grader embeds (Debian's), not the first on PATH
for n in many one; do
	mkdir -p "$TMP/py-problems-$n"
	sed -e 's/^source: bench.c/source: bench.py/' "$TMP/problems-$n/bench.yaml" >"$TMP/py-problems-$n/bench.yaml"
	printf 'languages:\n  python:\n' >>"$TMP/py-problems-$n/bench.yaml"
done
mkdir -p "$TMP/py-ref" "$TMP/py-sub"
printf 'def ident(x):\n    return x\n' >"$TMP/py-ref/bench.py"
cp "$TMP/py-ref/bench.py" "$TMP/py-sub/bench.py"

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

overhead() { # overhead JOBS [py-]: prints a line; $per_case is the figure in microseconds
	many=$(median_us "$GRADER" --cache "$CACHE" --problems "$TMP/${2:-}problems-many" --reference "$TMP/${2:-}ref" \
		-j "$1" --only bench "$TMP/${2:-}sub")
	one=$(median_us "$GRADER" --cache "$CACHE" --problems "$TMP/${2:-}problems-one" --reference "$TMP/${2:-}ref" \
		-j "$1" --only bench "$TMP/${2:-}sub")
	rc=$(code "$GRADER" --cache "$CACHE" --problems "$TMP/${2:-}problems-many" --reference "$TMP/${2:-}ref" -j "$1" \
		"$TMP/${2:-}sub")
	per_case=$(awk -v m="$many" -v o="$one" -v n="$CASES" 'BEGIN { printf "%.0f", (m - o) / (n - 1) }')
	awk -v j="$1" -v m="$many" -v o="$one" -v n="$CASES" -v p="$per_case" -v rc="$rc" 'BEGIN {
		printf "  -j %s: %d cases %.2f s, 1 case %.2f s  ->  %d us per case%s\n", j, n, m / 1e6, o / 1e6,
			p, rc == 0 ? "" : "   (exit code " rc ": not all correct!)" }'
}

# python_floor: the median of BENCH_RUNS fork-floor runs over CASES calls, in microseconds per call
python_floor() {
	i=0
	while [ "$i" -lt "$BENCH_RUNS" ]; do
		"$PYTHON" "$REPO/tools/bench-pyfloor.py" "$TMP/py-sub" bench ident "$CASES"
		i=$((i + 1))
	done | sort -n | awk -v n="$CASES" '{ v[NR] = $1 } END { printf "%.0f", v[int((NR + 1) / 2)] / n }'
}

# python_harness: a fresh interpreter per test, HARNESS_TESTS of them; the median per test in microseconds
HARNESS_TESTS=100
python_harness() {
	us=$(median_us sh -c "cd '$TMP/py-sub' && i=0 && while [ \$i -lt $HARNESS_TESTS ]; do
		'$PYTHON' -c 'import bench; print(bench.ident(7))' >/dev/null; i=\$((i + 1)); done")
	awk -v us="$us" -v n="$HARNESS_TESTS" 'BEGIN { printf "%.0f", us / n }'
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

# (e) mutation analysis: one run (it takes minutes), figures from its own JSON
mutate_bench() {
	echo
	echo "(e) grader mutate on the shipped problems, -j 2 (one run, reference answers cached)"
	s=$(date +%s%N)
	"$GRADER" mutate --cache "$CACHE" -j 2 --format "json:$TMP/mutate.json" >/dev/null 2>&1
	rc=$?
	e=$(date +%s%N)
	python3 - "$TMP/mutate.json" "$(((e - s) / 1000000))" "$rc" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = sum(p["generated"] for p in d["problems"])
k = sum(p["killed"] for p in d["problems"])
sc = k + sum(p["survived"] for p in d["problems"])
print("  %d mutants of %d reference files in %.1f s (%.0f ms a mutant): %d of %d killed, exit %s"
      % (n, len(d["problems"]), int(sys.argv[2]) / 1000, int(sys.argv[2]) / max(n, 1), k, sc, sys.argv[3]))
PY
}
if [ "${BENCH_ONLY:-}" = mutate ]; then
	mutate_bench
	exit 0
fi

modes="on off"
[ "${BENCH_ONLY:-}" = python ] && modes=""
for mode in $modes; do
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

[ "${BENCH_ONLY:-}" = c ] && exit 0
echo
echo "== Python ($("$PYTHON" --version 2>&1), sandbox isolation on)"
"$GRADER" --cache "$CACHE" --problems "$TMP/py-problems-many" --reference "$TMP/py-ref" "$TMP/py-sub" >/dev/null 2>&1
"$GRADER" --cache "$CACHE" --problems "$TMP/py-problems-one" --reference "$TMP/py-ref" "$TMP/py-sub" >/dev/null 2>&1
ENV_PREFIX=""
echo "(d) the grader's overhead per test case (a Python function returning its argument)"
overhead 1 py-
py_j1=$per_case
overhead 2 py-
py_j2=$per_case
floor=$(python_floor)
harness=$(python_harness)
echo "  fork floor of the same warm interpreter (fork, call, pipe, exit, wait; no sandbox): $floor us per call"
echo "  per-test harness (python3 -c 'import bench; print(bench.ident(7))'): $harness us per test"
awk -v a="$py_j1" -v b="$py_j2" -v f="$floor" -v h="$harness" 'BEGIN {
	printf "  grader / fork floor: %.2fx at -j 1 (target <= 2x), %.2fx at -j 2\n", a / f, b / f
	printf "  per-test harness / grader: %.0fx at -j 1, %.0fx at -j 2 (target >= 20x)\n", h / a, h / b }'
[ "${BENCH_ONLY:-}" = python ] && exit 0
mutate_bench
