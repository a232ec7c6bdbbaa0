#!/bin/sh
# tools/bench.sh - performance figures for the grader (make bench).  Prints
# figures, not pass/fail:
#   (a) the grader's own cost per test case beyond the student's compute: a
#       trivial function (returns its argument) graded on 5000 cases, minus
#       the same with 1 case (start-up, compilation, first runner), per case;
#   (b) the whole reference graded, compilation included, answers cached;
#   (c) (a) and (b) with the sandbox's isolation switched off
#       (GRADER_NO_SECCOMP=1 GRADER_NO_NAMESPACES=1): what the sandbox costs;
#   (a') next to three baselines measured in the same run, as ratios: the
#       in-process call loop, the fork floor (tools/bench-floor.c: fork, call,
#       answer over a pipe, wait; at -j 2 two of them at once) and a
#       process-per-test shell harness (exec, timeout, compare);
#   (e) a generated class of 100 at -j 1 and -j 2 (tools/bench-batch.sh), with
#       the share spent compiling (BENCH_BATCH=0 skips it);
#   (d) for Python: (a) with the function written in Python, next to the fork
#       floor of the same warm interpreter (tools/bench-pyfloor.py: import
#       once, fork per call, no sandbox) and next to a per-test harness
#       (`python3 -c 'import bench; print(bench.ident(7))'` per test), as
#       ratios of figures measured in the same run;
#   (e) `grader mutate` on the shipped problem set at -j 2 (every mutant of
#       every reference, C and Python, graded; one run, answers cached);
#   (f) a student's first minute (issue 31): a submission with typical
#       mistakes (tests/fixtures/typical-mistakes: an off-by-one, int overflows,
#       an endless recursion in p3, an O(N^3) p4_dp; py-typical-mistakes the
#       same in Python) beside the reference, graded as a student grades
#       (default options: shrinking and growth on), C and Python, medians and
#       their ratio;
#   (h) the stack limit's cost: the CPU a recursion without a base case
#       spends filling its stack (256 MiB, the memory limit) until the
#       overflow is reported, per test, beside the same tests answered at
#       once;
#   (g) how many tests of the whole reference (C and Python, hidden tests
#       too) were measured again near their CPU limit and the CPU that cost,
#       against the tests' CPU and the grader's, idle and beside two busy
#       loops per core (each in its own session, setsid); medians.
# Each figure is the median wall time of several runs (hyperfine when installed,
# else 3 runs; the reference answers are cached beforehand).  Uses bin/grader, the optimised build.
# $GRADER overrides the grader, $BENCH_RUNS the number of runs, BENCH_ONLY=c,
# BENCH_ONLY=python, BENCH_ONLY=mutate, BENCH_ONLY=mistakes, BENCH_ONLY=stack or BENCH_ONLY=remeasure runs
# only that part.
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
busy="" # (f)'s busy loops: each the leader of its own session
trap 'for p in $busy; do kill -- "-$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT
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
# the C baselines, linked with the same ident(), bound at start-up as the grader's runners are (-z now: a lazily
# bound floor would look up write() and _exit() again in every child, 10 of its 21 page faults per call)
cc -O2 -Wl,-z,now -o "$TMP/floor" "$REPO/tools/bench-floor.c" "$TMP/ref/bench.c" || exit 2

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

# c_floor JOBS [MODE]: the fork floor per call in microseconds (JOBS floors at once, CASES calls in all);
# MODE local keeps each child on its parent's CPU (bench-floor.c)
c_floor() {
	us=$(median_us sh -c "for k in \$(seq $1); do '$TMP/floor' ${2:-fork} $((CASES / $1)) & done; wait")
	awk -v us="$us" -v n="$CASES" 'BEGIN { printf "%.0f", us / n }'
}

# c_loop: the in-process call, in nanoseconds
c_loop() {
	"$TMP/floor" loop 10000000 | awk '{ printf "%.1f", $1 * 1000 / 10000000 }'
}

# c_harness: a process per test - exec under timeout, compare - the median per test in microseconds
c_harness() {
	us=$(median_us sh -c "i=0; while [ \$i -lt $HARNESS_TESTS ]; do
		out=\$(timeout 2 '$TMP/floor' call \$i) && [ \"\$out\" = \$i ] || exit 1; i=\$((i + 1)); done")
	awk -v us="$us" -v n="$HARNESS_TESTS" 'BEGIN { printf "%.0f", us / n }'
}

# py_loop: the in-process call of the Python function, in nanoseconds
py_loop() {
	"$PYTHON" -c 'import sys, time
sys.path.insert(0, sys.argv[1])
from bench import ident
n = 1000000
t = time.perf_counter_ns()
for i in range(n):
    ident(i)
print("%.1f" % ((time.perf_counter_ns() - t) / n))' "$TMP/py-sub"
}

# ratios GRADER_J1 GRADER_J2 LOOP_NS FLOOR_J1 FLOOR_J2 HARNESS [HOW_J2]: the comparison lines
ratios() {
	awk -v a="$1" -v b="$2" -v l="$3" -v f1="$4" -v f2="$5" -v h="$6" -v how="${7:-two at once}" 'BEGIN {
		printf "  baselines: in-process call %s ns, fork floor %d us (-j 1) / %d us (-j 2, %s), shell harness %d us per test\n", l, f1, f2, how, h
		printf "  grader / fork floor: %.2fx at -j 1, %.2fx at -j 2 (target <= 1.3x)\n", a / f1, b / f2
		printf "  shell harness / grader: %.1fx at -j 1, %.1fx at -j 2 (target >= 10x)\n", h / a, h / b
		printf "  grader / in-process call: %.0fx at -j 1\n", a * 1000 / l }'
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
# (f) typical mistakes against the reference, as a student runs the grader (shrink and growth on)
mistakes_bench() {
	echo
	echo "(f) a student's run: typical mistakes beside the reference (default options, -j 2, answers cached)"
	for lang in C Python; do
		if [ $lang = C ]; then
			ref=reference mis=tests/fixtures/typical-mistakes
		else
			ref=reference/python mis=tests/fixtures/py-typical-mistakes
		fi
		r=$(median_us "$GRADER" -q --cache "$CACHE" -j 2 "$ref")
		m=$(median_us "$GRADER" -q --cache "$CACHE" -j 2 "$mis")
		awk -v l="$lang" -v r="$r" -v m="$m" -v d="$mis" 'BEGIN {
			printf "  %-6s reference %6.2f s   %s %6.2f s   ratio %.1fx (goal: 3x)\n", l, r / 1e6, d, m / 1e6, m / r }'
	done
}
# (h) the stack limit's cost: STACK_TESTS tests of a recursion without a base case, each to the stack's
# end, against the same tests answered at once: the grader's CPU (its process tree, from wait4), user
# and system, medians of BENCH_RUNS runs (-j 1; --all-tests: every test runs)
STACK_TESTS=10
stack_runs() { # stack_runs SUBMISSION: BENCH_RUNS lines "SUBMISSION user_ms system_ms overflows tests"
	i=0
	while [ "$i" -lt "$BENCH_RUNS" ]; do
		python3 - "$GRADER" "$CACHE" "$TMP" "$1" <<'PY'
import json, os, subprocess, sys
grader, cache, tmp, sub = sys.argv[1:5]
with open(os.devnull, "w") as null:
    p = subprocess.Popen([grader, "--cache", cache, "-j", "1", "--all-tests", "--no-shrink", "--no-growth",
                          "--problems", tmp + "/stack-problems", "--reference", tmp + "/stack-ref",
                          "--format", "json:" + tmp + "/stack.json", tmp + "/" + sub], stdout=null, stderr=null)
    _, status, ru = os.wait4(p.pid, 0)
msgs = [t.get("message") or "" for p in json.load(open(tmp + "/stack.json"))["problems"] for t in p["tests"]]
print(sub, round(ru.ru_utime * 1000), round(ru.ru_stime * 1000), sum("stack overflow" in m for m in msgs), len(msgs))
PY
		i=$((i + 1))
	done
}
stack_bench() {
	mkdir -p "$TMP/stack-problems" "$TMP/stack-ref" "$TMP/stack-sub"
	cat >"$TMP/stack-problems/dive.yaml" <<EOF
# the stack limit's cost (tools/bench.sh, part h)
id: dive
title: Stack benchmark
source: dive.c
functions:
  - long long dive(long long x)
limits:
  cpu_ms: 10000
  memory_mb: 256
groups:
  - name: deep
    visibility: public
    scoring: sum
    points: 1
    cases:
      - args: [{range: [1, $STACK_TESTS]}]
EOF
	printf 'long long dive(long long x);\nlong long dive(long long x) { return x; }\n' >"$TMP/stack-ref/dive.c"
	# not a tail call, which gcc -O2 makes a loop: the first call recurses until the stack ends
	printf 'long long dive(long long x);\nlong long dive(long long x) { return dive(x + 1) ^ dive(x + 2); }\n' \
		>"$TMP/stack-sub/dive.c"
	echo
	echo "(h) the stack limit's cost: $STACK_TESTS tests of a recursion without a base case, each to the end of its"
	echo "    256 MiB stack (-j 1, --all-tests; THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo none))"
	stack_runs stack-ref >/dev/null # the reference's answers, cached
	{ stack_runs stack-ref; stack_runs stack-sub; } | awk -v n="$STACK_TESTS" '
	function median(a, k,   i, j, t) {
		for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
	}
	$1 == "stack-sub" { k++; u[k] = $2; s[k] = $3; c[k] = $2 + $3; so = $4; tests = $5 }
	$1 == "stack-ref" { r++; ru[r] = $2; rs[r] = $3; rc[r] = $2 + $3 }
	END {
		mr = median(rc, r); ms = median(c, k)
		printf "  answered at once: %d ms CPU (user %d, system %d); to the stack'"'"'s end: %d ms (user %d, system %d)\n",
			mr, median(ru, r), median(rs, r), ms, median(u, k), median(s, k)
		printf "  the stack'"'"'s end costs %.0f ms of CPU per test (%d of %d tests reported as a stack overflow)\n",
			(ms - mr) / n, so, tests
	}'
}
if [ "${BENCH_ONLY:-}" = mutate ]; then
	mutate_bench
	exit 0
fi
if [ "${BENCH_ONLY:-}" = stack ]; then
	stack_bench
	exit 0
fi
if [ "${BENCH_ONLY:-}" = mistakes ]; then
	mistakes_bench
	exit 0
fi

# (g) verdicts at the edge measured again (remeasure.h): the whole reference,
# C and Python, graded as an instructor would (--show-hidden), idle and under
# load; per run the JSON's tests measured again and the CPU their extra runs
# took ("remeasured_cpu_ms"), against the CPU of the tests' counted runs and
# of the whole grader (its process tree, from wait4); medians of BENCH_RUNS runs
remeasure_runs() { # remeasure_runs LABEL: BENCH_RUNS gradings of reference/ and reference/python/
	i=0
	while [ "$i" -lt "$BENCH_RUNS" ]; do
		for dir in reference reference/python; do
			python3 - "$GRADER" "$CACHE" "$dir" "$TMP/rm.json" <<'PY'
import json, os, resource, subprocess, sys
grader, cache, d, out = sys.argv[1:5]
with open(os.devnull, "w") as null:
    p = subprocess.Popen([grader, "--cache", cache, "-j", "2", "--show-hidden", "--no-growth",
                          "--format", "json:" + out, d], stdout=null, stderr=null)
    _, status, ru = os.wait4(p.pid, 0)
j = json.load(open(out))
tests = [t for p in j["problems"] for t in p["tests"]]
print(d, os.waitstatus_to_exitcode(status), j["summary"]["remeasured"], j["summary"]["remeasured_cpu_ms"],
      sum(t["time_ms"] or 0 for t in tests), len(tests), round((ru.ru_utime + ru.ru_stime) * 1000))
PY
		done
		i=$((i + 1))
	done
}
remeasure_report() { # remeasure_report LABEL < lines from remeasure_runs
	awk -v label="$1" '
	function median(a, n,   i, j, t) {
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{ k = $1; n[k]++; rc[k] = rc[k] " " $2; cnt[k, n[k]] = $3; ex[k, n[k]] = $4; tc[k, n[k]] = $5; tests[k] = $6; all[k, n[k]] = $7
	  pt[k, n[k]] = $5 ? 100 * $4 / $5 : 0; pa[k, n[k]] = $7 ? 100 * $4 / $7 : 0 }
	END {
		for (k in n) {
			for (i = 1; i <= n[k]; i++) { a1[i] = cnt[k, i]; a2[i] = ex[k, i]; a3[i] = tc[k, i]; a4[i] = all[k, i]; a5[i] = pt[k, i]; a6[i] = pa[k, i] }
			printf "  %s, %s: %s of %d tests measured again, +%s ms CPU = %.2f%% of the tests'"'"' %s ms, %.2f%% of the grader'"'"'s %s ms (medians of %d; exit codes%s)\n",
				label, k, median(a1, n[k]), tests[k], median(a2, n[k]), median(a5, n[k]), median(a3, n[k]),
				median(a6, n[k]), median(a4, n[k]), n[k], rc[k]
		}
	}'
}
remeasure_bench() {
	echo
	echo "(f) tests measured again near their CPU limit, the whole reference at -j 2 (--show-hidden --no-growth)"
	"$GRADER" --cache "$CACHE" -j 2 reference/python >/dev/null 2>&1 # the Python reference's answers, cached
	remeasure_runs | remeasure_report "idle (load $(cut -d' ' -f1 /proc/loadavg))"
	# two busy loops per core, each in a session of its own (setsid), ended by their session's id
	busy=""
	for k in $(seq $(($(nproc) * 2))); do
		setsid sh -c 'while :; do :; done' &
		busy="$busy $!"
	done
	sleep 1
	remeasure_runs | remeasure_report "$(($(nproc) * 2)) busy loops"
	for pid in $busy; do
		kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null
	done
	busy=""
	wait
}
if [ "${BENCH_ONLY:-}" = remeasure ]; then
	remeasure_bench
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
	c_j1=$per_case
	overhead 2
	c_j2=$per_case
	if [ "$mode" = on ]; then
		echo "(a') against the baselines, measured now"
		ratios "$c_j1" "$c_j2" "$(c_loop)" "$(c_floor 1)" "$(c_floor 2)" "$(c_harness)"
		# what the scheduler's placement of each new process costs here: not a target, an explanation
		# (a child started on another core than its parent's pays for the cross-core wake-ups)
		awk -v l="$(c_floor 1 local)" -v f="$(c_floor 1)" 'BEGIN {
			printf "  fork floor with each child kept on its parent'"'"'s core: %d us at -j 1 (%d us, the scheduler'"'"'s placement)\n", l, f - l }'
	fi
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
ratios "$py_j1" "$py_j2" "$(py_loop)" "$floor" "$floor" "$harness" "sequential"
[ "${BENCH_ONLY:-}" = python ] && exit 0
mutate_bench
mistakes_bench
stack_bench
remeasure_bench

[ "${BENCH_BATCH:-1}" = 0 ] && exit 0
echo
echo "== a generated class of 100 (tools/bench-batch.sh)"
GRADER="$GRADER" tools/bench-batch.sh 100
