#!/bin/bash
# tests/hostile/run.sh - hostile submissions against the sandbox.
#
# Every fixtures/<name>/ holds a submission h.c or h.py (or LINK: a symbolic
# link's target) for the problem in problems/h.yaml, and EXPECTED: the verdicts its
# tests may get ("memory-limit|run-error" when more than one is fair).  For
# each one the grader must finish with a complete JSON report, every test
# with an expected verdict (or skipped after a failure in an all-or-nothing
# group), exit code 0 (all correct) or 1, no sanitizer error, no process of
# the run left, no file outside its scratch space created or changed, and no
# secret of the problem in the report.  Then: Ctrl-C while testing and while
# compiling, the time taken by a submission that loops on every test, the
# grader's memory under an output flood, and the fallback without seccomp
# and namespaces.
#
# Placeholders in fixtures: @REPO@ (this repository) and @SCRATCH@ (the
# run's scratch directory), for the absolute paths a hostile file aims at.
# @PEER@ is the pid of a process of the sandbox's uid outside the run, with a
# secret (start_peer).  A fixture with a file LINK is a symbolic link to that
# target instead of h.c; one with h.py.gen, a Python script whose output is
# h.py (a submission too large to keep).  Fixtures with a file SLOW (each
# takes 10 s or more) run only with HOSTILE_SLOW=1.
#
# The suite re-executes itself in a throwaway PID and mount namespace: every
# process it starts dies with it, and /tmp, /var/tmp and /dev/shm are private
# tmpfs mounts, so "nothing left behind" can be checked exactly.
#
# As a normal user (tools/run-unprivileged.sh): with HOSTILE_USER=NAME the
# suite still runs as root in its namespace, but every grader it starts runs
# as that user (setpriv), under HOSTILE_WRAPPER when set (build/tests/
# deny-userns: no user namespaces).  HOSTILE_LEVEL names the isolation level
# (user, no-userns): a fixture's EXPECTED.<level>, when there is one, holds
# the verdicts expected at that level instead of EXPECTED.
#
# usage: tests/hostile/run.sh [FIXTURE...]     (GRADER: default build/asan/grader)
set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
: "${GRADER:=$repo/build/asan/grader}"
case $GRADER in /*) ;; *) GRADER=$PWD/$GRADER ;; esac

if [ -z "${HOSTILE_IN_NAMESPACE:-}" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "ok - hostile suite # SKIP needs root for its PID namespace (run it as root, as CI does)"
		echo "0 passed, 0 failed"
		exit 0
	fi
	if ! unshare --pid --fork --mount-proc true 2>/dev/null; then
		if [ -n "${CI:-}" ]; then
			echo "not ok - hostile suite: unshare --pid --fork --mount-proc fails as root"
			echo "0 passed, 1 failed"
			exit 1
		fi
		echo "ok - hostile suite # SKIP unshare --pid --fork --mount-proc is not possible here"
		echo "0 passed, 0 failed"
		exit 0
	fi
	[ -x "$GRADER" ] || { echo "not ok - hostile suite: no grader at $GRADER"; echo "0 passed, 1 failed"; exit 1; }
	export HOSTILE_IN_NAMESPACE=1 GRADER
	# A cgroup of the suite's own in each cgroup v1 hierarchy the grader uses: its graders make their
	# units below it (grader/sandbox/cgroup.c), so "nothing left behind" counts only theirs, while other
	# suites grade side by side (make test runs two lanes: tools/run-suites.sh).  Removed afterwards,
	# once every process of the namespace is gone.
	suite_cgroups=
	for ctrl in pids memory cpuacct freezer; do
		path=$(awk -F: -v c="$ctrl" '{ n = split($2, a, ","); for (i = 1; i <= n; i++) if (a[i] == c) print $3 }' /proc/self/cgroup)
		dir=/sys/fs/cgroup/$ctrl${path%/}/hostile-suite.$$
		[ -n "$path" ] && [ -d "/sys/fs/cgroup/$ctrl" ] && mkdir "$dir" 2>/dev/null || continue
		if echo $$ >"$dir/cgroup.procs" 2>/dev/null; then
			suite_cgroups="$suite_cgroups $dir"
		else
			rmdir "$dir"
		fi
	done
	unshare --pid --fork --mount-proc "$0" "$@"
	rc=$?
	for dir in $suite_cgroups; do
		echo $$ >"${dir%/*}/cgroup.procs"
		for _ in 1 2 3 4 5 6 7 8 9 10; do rmdir "$dir" 2>/dev/null && break; sleep 0.3; done
		[ -d "$dir" ] && echo "not ok - hostile suite: its cgroup $dir could not be removed" && rc=1
	done
	exit $rc
fi

# ---- inside the namespace (we are its init) ----

export LC_ALL=C
# leaks are another suite's business; any other sanitizer report fails a check
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
ulimit -c 0
# hostility stays bounded: fixtures fork a few hundred processes at most
ulimit -u 4096 2>/dev/null

JOBS=2
# the uid the sandboxed processes run as: nobody under a root grader, else the grader's user
if [ -n "${HOSTILE_USER:-}" ]; then
	sandbox_user=$HOSTILE_USER
	# shellcheck disable=SC2206
	GRADER_CMD=(setpriv --reuid="$(id -u "$HOSTILE_USER")" --regid="$(id -g "$HOSTILE_USER")" --clear-groups
		${HOSTILE_WRAPPER:-} "$GRADER")
else
	sandbox_user=nobody
	GRADER_CMD=("$GRADER")
fi
SECRETS="HOSTILE_SECRET_5b1f 4242424242 8484848484 HOSTILE_CANARY_7d3e"
AON_GROUPS=chain
FIXTURE_TIMEOUT=150
passed=0
# the graders' cgroups (grader/sandbox/cgroup.c: combgrader-*), to find any a run leaves behind
# A grader makes its units below its own cgroup in each hierarchy: where this suite sits in a cgroup of
# its own (not the root) in some hierarchy, only the units below it there are its graders' - not those of
# graders other jobs run on the same machine meanwhile.  Elsewhere every unit counts.
own_cgroups=$(awk -F: '$3 != "/" && $3 != "" { print $3 }' /proc/self/cgroup | sort -u)
cgroup_units() {
	if [ -n "$own_cgroups" ]; then
		for own in $own_cgroups; do
			find /sys/fs/cgroup -maxdepth 8 -type d -name "combgrader-*" -path "*$own/combgrader-*" 2>/dev/null
		done | sort -u
	else
		find /sys/fs/cgroup -maxdepth 5 -type d -name 'combgrader-*' 2>/dev/null | sort
	fi
}
cgroups_before=$(cgroup_units)
failed=0
started=$(date +%s)

# a grader under one of the directories about to be hidden: take a copy along
grader_copy=
case $GRADER in
/tmp/* | /var/tmp/* | /dev/shm/*)
	grader_copy=$repo/build/hostile-grader.$$
	mkdir -p "$repo/build" && cp "$GRADER" "$grader_copy" && GRADER=$grader_copy
	GRADER_CMD[${#GRADER_CMD[@]}-1]=$grader_copy ;;
esac
# The repository itself may live in one of them (a CI clone in /tmp): it is
# bound back into the private tmpfs from a descriptor opened before.
exec 9<"$repo"
for d in /tmp /var/tmp /dev/shm; do
	if ! mount -t tmpfs -o mode=1777,size=256m tmpfs "$d"; then
		echo "not ok - hostile suite: cannot mount a private tmpfs on $d"
		echo "0 passed, 1 failed"
		exit 1
	fi
done
repo_entry=
for d in /tmp /var/tmp /dev/shm; do
	case $repo/ in
	"$d"/*)
		repo_entry=$d/$(printf '%s\n' "${repo#"$d"/}" | cut -d/ -f1)
		if ! mkdir -p "$repo" || ! mount --no-canonicalize --bind /proc/self/fd/9 "$repo"; then
			echo "not ok - hostile suite: cannot bind the repository back into the private $d"
			echo "0 passed, 1 failed"
			exit 1
		fi ;;
	esac
done
exec 9<&-
cd "$repo" || exit 1

S=$(mktemp -d /tmp/hostile.XXXXXX)
chmod 755 "$S"
# a grader running as a normal user writes its reports and cache here
[ -n "${HOSTILE_USER:-}" ] && chown "$HOSTILE_USER" "$S"
export HOME=$S/home
cleanup() {
	stop_peer
	rm -rf "$S"
	[ -n "$grader_copy" ] && rm -f "$grader_copy"
}
trap cleanup EXIT
trap 'echo "# interrupted"; exit 130' INT TERM

ok() {
	echo "ok - $*"
	passed=$((passed + 1))
}

not_ok() {
	local name=$1
	shift
	echo "not ok - $name"
	for line in "$@"; do
		[ -n "$line" ] && printf '%s\n' "$line" | sed 's/^/#   /'
	done
	failed=$((failed + 1))
}

# What a run may not change: the repository's problem data and this suite.
repo_state() {
	(cd "$repo" && find problems reference tests/hostile \( -type f -o -type l -o -type d \) \
		-printf '%y %m %u %s %p -> %l\n' | sort
	 cd "$repo" && find problems reference tests/hostile -type f -print0 | sort -z | xargs -0 sha256sum)
}

# ...nor leave behind: entries of the private temporary directories.
tmp_state() {
	for d in /tmp /var/tmp /dev/shm; do
		find "$d" -mindepth 1 -maxdepth 1 ! -path "$S" ! -path "${repo_entry:-/nonexistent}" -printf "$d: %f %u\n"
	done | sort
}

# ...nor touch: files of the run outside the grader's scratch space (the
# submission, an earlier report and what the suite made of it, a canary).
run_files_state() {
	(cd "$S" && sha256sum canary submission/h.* names names.json 2>&1)
}

# Processes of a run still alive: anything of the sandbox's uids (nobody, or
# the caller's, and the uids per slot a root grader gives its sandboxes,
# 100000 and up), any runner or compiler, anything naming the scratch space.
# We are PID 1 here; this very pipeline (a subshell about to become awk) is not a leftover.
leftovers() {
	ps -eo pid=,user=,stat=,comm=,args= | awk -v self=$$ -v s="$S/" -v u="$sandbox_user" -v uid="$(id -u "$sandbox_user")" '
		$1 == 1 || $1 == self || $4 == "ps" || $4 == "awk" || index($0, "awk -v self=") { next }
		$2 == u || $2 == uid || ($2 ~ /^[0-9]+$/ && $2 + 0 >= 100000) ||
		$4 ~ /^(runner|pyhost|cc1|as|ld|collect2|gcc|grader)$/ || index($0, s) { print }'
}

# The peer: a process of the sandbox's uid outside the run (another
# submission's compiler or runner, say), in a directory that uid cannot
# reach by path, holding a secret.  Every run has one; it must survive the
# run, and its secret must not reach the report.
peer_pid=
start_peer() {
	mkdir -m 700 "$S/peer"
	mkdir "$S/peer/dir"
	echo "static const int peer_secret = 1; /* HOSTILE_SECRET_5b1f */" >"$S/peer/dir/peer-secret.h"
	chown -R "$sandbox_user" "$S/peer/dir"
	(cd "$S/peer/dir" && exec setpriv --reuid="$(id -u "$sandbox_user")" --regid="$(id -g "$sandbox_user")" --clear-groups \
		sleep 1000) &
	peer_pid=$!
}

peer_alive() {
	[ -n "$peer_pid" ] && [ -e "/proc/$peer_pid" ] && [ "$(awk '{ print $3 }' "/proc/$peer_pid/stat")" != Z ]
}

stop_peer() {
	[ -n "$peer_pid" ] || return 0
	kill -KILL "$peer_pid"
	wait "$peer_pid" 2>/dev/null
	peer_pid=
	rm -rf "$S/peer"
}

# Fill in the placeholders of a fixture into the submission directory.
prepare() {
	local dir=$1
	rm -rf "$S/submission" "$S/gone.c"
	mkdir "$S/submission"
	start_peer
	if [ -f "$dir/LINK" ]; then
		ln -s "$(sed "s|@REPO@|$repo|g" "$dir/LINK")" "$S/submission/h.c"
	elif [ -f "$dir/h.py.gen" ]; then
		python3 "$dir/h.py.gen" >"$S/submission/h.py"
	else
		# h.c, or h.py for a Python fixture
		for src in "$dir"/h.c "$dir"/h.py; do
			[ -f "$src" ] || continue
			sed "s|@REPO@|$repo|g; s|@SCRATCH@|$S|g; s|@PEER@|$peer_pid|g" "$src" >"$S/submission/$(basename "$src")"
		done
	fi
	echo "HOSTILE_CANARY_7d3e: a file of the run that no submission may touch" >"$S/canary"
	chmod -R a+rX "$S/submission"
}

# run_grader OUT_PREFIX [ARGS...]: grade $S/submission in the background
# (with the environment assignments in grader_env), following the grader's
# peak memory (VmHWM) until it ends.  Sets rc, elapsed (seconds), hwm_kb, hung.
grader_env=()
run_grader() {
	local out=$1 pid v t0 deadline
	shift
	t0=$(date +%s.%N)
	deadline=$(($(date +%s) + FIXTURE_TIMEOUT))
	env "${grader_env[@]}" "${GRADER_CMD[@]}" grade --problems "$here/problems" --reference "$here/reference" --cache "$S/cache" \
		-j $JOBS --format json -o "$out.json" "$@" "$S/submission" >"$out.out" 2>"$out.err" &
	pid=$!
	hwm_kb=0
	hung=
	while kill -0 $pid 2>/dev/null; do
		v=$(awk '/^VmHWM/ { print $2 }' /proc/$pid/status 2>/dev/null)
		[ -n "$v" ] && [ "$v" -gt "$hwm_kb" ] && hwm_kb=$v
		if [ "$(date +%s)" -ge $deadline ]; then
			hung=1
			kill -KILL $pid
			break
		fi
		sleep 0.05
	done
	wait $pid
	rc=$?
	elapsed=$(echo "$(date +%s.%N) - $t0" | bc)
}

# Sanitizer reports or a crash of the grader in a run's stderr.
sanitizer_errors() {
	grep -E 'ERROR: (Address|Leak|Thread|Memory)Sanitizer|runtime error:|SUMMARY: .*Sanitizer' "$1" | head -5
}

# Everything a fixture must satisfy.  check_fixture NAME [ENV=VALUE...]
names_file=
check_fixture() {
	local name=$1 dir=$here/fixtures/$1 msgs=() now_repo now_tmp sums_before out verdicts procs expected
	shift
	prepare "$dir"
	sums_before=$(run_files_state)
	out=$S/run-$name
	grader_env=("$@")
	run_grader "$out"
	grader_env=()
	peer_alive || msgs+=("the peer, a process of the sandbox's uid outside the run, was killed")
	stop_peer
	[ -n "$hung" ] && msgs+=("the grader did not finish within ${FIXTURE_TIMEOUT} s (killed)")
	case $rc in
	0 | 1) ;;
	*) msgs+=("grader exit code $rc (a crash or an internal error); stderr:" "$(tail -5 "$out.err")") ;;
	esac
	v=$(sanitizer_errors "$out.err")
	[ -n "$v" ] && msgs+=("sanitizer: $v")
	expected=$dir/EXPECTED
	[ -n "${HOSTILE_LEVEL:-}" ] && [ -f "$dir/EXPECTED.$HOSTILE_LEVEL" ] && expected=$dir/EXPECTED.$HOSTILE_LEVEL
	if verdicts=$(python3 "$here/check_report.py" "$out.json" "$(grep -v "^#" "$expected")" "$rc" \
			"$names_file" "$AON_GROUPS" $SECRETS 2>&1); then
		:
	else
		msgs+=("$verdicts")
	fi
	procs=$(leftovers)
	[ -n "$procs" ] && msgs+=("processes left:" "$procs")
	# against the state before the suite (after a change: before this run)
	now_repo=$(repo_state)
	if [ "$now_repo" != "$base_repo" ]; then
		msgs+=("the repository changed:" "$(diff <(echo "$base_repo") <(echo "$now_repo") | head -10)")
		base_repo=$now_repo
	fi
	now_tmp=$(tmp_state)
	if [ "$now_tmp" != "$base_tmp" ]; then
		msgs+=("temporary directories changed:" "$(diff <(echo "$base_tmp") <(echo "$now_tmp") | head -10)")
		base_tmp=$now_tmp
	fi
	[ "$(run_files_state)" = "$sums_before" ] ||
		msgs+=("the submission or a file of the run changed:" "$(diff <(echo "$sums_before") <(run_files_state))")
	[ ! -e "$S/gone.c" ] || msgs+=("the submission was renamed")
	if [ ${#msgs[@]} -eq 0 ]; then
		ok "$name${1:+ ($*)}: $verdicts ($(printf '%.1f' "$elapsed") s)"
	else
		not_ok "$name${1:+ ($*)}" "${msgs[@]}"
	fi
}

# ---- the fixtures ----

if [ $# -gt 0 ]; then
	fixtures="$*"
else
	fixtures=correct
	for d in "$here"/fixtures/*/; do
		n=$(basename "$d")
		[ "$n" = correct ] && continue
		[ -f "$d/SLOW" ] && [ -z "${HOSTILE_SLOW:-}" ] && continue
		fixtures="$fixtures $n"
	done
fi

base_repo=$(repo_state)
base_tmp=$(tmp_state)

# the correct fixture's report lists the tests every report must hold
prepare "$here/fixtures/correct"
run_grader "$S/names"
stop_peer
if [ "$rc" -eq 0 ] && python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print("\n".join(t["name"] for p in r["problems"] for t in p["tests"]))' "$S/names.json" >"$S/names" &&
	[ -s "$S/names" ]; then
	names_file=$S/names
	baseline_kb=$hwm_kb
else
	not_ok "the reference run: grading fixtures/correct failed (exit code $rc)" "$(tail -5 "$S/names.err")"
	baseline_kb=
fi
ntests=$(wc -l <"$S/names" 2>/dev/null || echo 0)

for name in $fixtures; do
	[ "$name" = batch-flood ] && continue # not a fixture: the check below, by name
	if [ ! -f "$here/fixtures/$name/EXPECTED" ]; then
		not_ok "$name: no such fixture"
		continue
	fi
	check_fixture "$name"
	case $name in
	loop) loop_elapsed=$elapsed ;;
	stdout-flood) flood_kb=$hwm_kb ;;
	esac
done

# ---- behaviour checks ----

# A submission that loops on every test: bounded by the tests, the limits
# and the jobs (cpu_ms 1000, wall_ms 1500 in h.yaml), generously.
if [ -n "${loop_elapsed:-}" ]; then
	bound=$(( (ntests + JOBS - 1) / JOBS * 3 + 30 ))
	if [ "$(echo "$loop_elapsed < $bound" | bc)" = 1 ]; then
		ok "endless loop on every test graded in $(printf '%.1f' "$loop_elapsed") s (bound $bound s)"
	else
		not_ok "endless loop on every test took $(printf '%.1f' "$loop_elapsed") s, above $bound s"
	fi
fi

# A test that stops itself is ended at once, by the zygote's SIGCHLD, not at
# the wall-clock limit: its message says so (without a PID namespace the
# runtime reports the stop its trapped raise() would have made).
stop_expected=$here/fixtures/sigstop-self/EXPECTED
[ -f "$stop_expected.${HOSTILE_LEVEL:-none}" ] && stop_expected=$stop_expected.$HOSTILE_LEVEL
if [ -f "$S/run-sigstop-self.json" ] && grep -q '^timelimit' "$stop_expected"; then
	if v=$(python3 - "$S/run-sigstop-self.json" <<'PY'
import json, sys
tests = [t for p in json.load(open(sys.argv[1]))['problems'] for t in p['tests'] if t['verdict'] == 'timelimit']
bad = [(t['name'], t['message']) for t in tests if t['visibility'] != 'hidden' and 'stopped itself' not in t['message']]
print(bad if bad or not tests else '%d tests' % len(tests))
sys.exit(1 if bad or not tests else 0)
PY
	); then
		ok "sigstop-self: judged as stopped at once ($v)"
	else
		not_ok "sigstop-self: not judged as stopped" "$v"
	fi
fi

# The CPU timer, apart from the wall clock (which a busy machine reaches
# first with h.yaml's limits): the same problem with 300 ms of CPU and 20 s
# of wall clock, against the endless loop.  Meanwhile another grader of the
# same user grades ctor-sigqueue-flood, whose runner fills its signal queue:
# where a runner's queue count is its own (root's uid per slot, a user
# namespace) this run's timers must still be made.  Without user namespaces
# every runner's count is the user's, which no limit can share out.
if [ -z "${1:-}" ] || [[ " $fixtures " == *" loop "* ]]; then
	mkdir -p "$S/cpu-problems" "$S/flood"
	sed 's/^  cpu_ms: .*/  cpu_ms: 300/; s/^  wall_ms: .*/  wall_ms: 20000/' "$here/problems/h.yaml" \
		>"$S/cpu-problems/h.yaml"
	flood_pid= flood_full=
	if [ "${HOSTILE_LEVEL:-}" != no-userns ]; then
		cp "$here/fixtures/ctor-sigqueue-flood/h.c" "$S/flood/h.c"
		chmod -R a+rwX "$S/flood"
		"${GRADER_CMD[@]}" grade --problems "$here/problems" --reference "$here/reference" --no-cache -j 1 \
			--format json -o "$S/flood.json" "$S/flood" >/dev/null 2>"$S/flood.err" &
		flood_pid=$!
		# until its runner's queue is full (SigQ: the signals queued for its user, 64 at the most where
		# the count is its own): else the check below would test nothing
		for _ in $(seq 300); do
			for st in /proc/[0-9]*/status; do
				awk '$1 == "Name:" { runner = $2 == "runner" } $1 == "SigQ:" { split($2, q, "/");
					if (runner && q[1] >= 64) found = 1 } END { exit !found }' "$st" 2>/dev/null &&
					flood_full=1 && break 2
			done
			sleep 0.1
		done
	fi
	prepare "$here/fixtures/loop"
	timeout -s KILL 150 "${GRADER_CMD[@]}" grade --problems "$S/cpu-problems" --reference "$here/reference" --no-cache -j $JOBS --show-hidden \
		--format json -o "$S/cpu.json" "$S/submission" >/dev/null 2>"$S/cpu.err"
	rc=$?
	stop_peer
	if v=$(python3 - "$S/cpu.json" <<'PY'
import json, sys
tests = [t for p in json.load(open(sys.argv[1]))['problems'] for t in p['tests']]
bad = [(t['name'], t['verdict'], t['time_ms'], t['message']) for t in tests
       if t['verdict'] != 'skipped' and not (t['verdict'] == 'timelimit' and 300 <= t['time_ms'] < 1000 and
                                            (t['visibility'] == 'hidden' or 'CPU time limit' in t['message']))]
print(bad if bad or not tests else 'killed at %s ms of CPU' % sorted(t['time_ms'] for t in tests if t['verdict'] != 'skipped'))
sys.exit(1 if bad or not tests else 0)
PY
	) && [ $rc -eq 1 ] && [ -z "$(sanitizer_errors "$S/cpu.err")" ] && { [ -z "$flood_pid" ] || { [ -n "$flood_full" ] &&
		{ wait $flood_pid || [ $? -eq 1 ]; }; }; } && [ -z "$(leftovers)" ]; then
		ok "CPU timer: an endless loop with a 300 ms CPU limit is $v${flood_pid:+ (a runner beside it filling its signal queue)}"
	else
		[ -n "$flood_pid" ] && wait $flood_pid
		[ -n "$flood_pid" ] && [ -z "$flood_full" ] && v="$v (the runner beside it never filled its signal queue)"
		not_ok "CPU timer (exit code $rc)" "$v" "$(tail -3 "$S/cpu.err")"
	fi
fi

# A process flood (red team 41): a constructor forks until EAGAIN and holds its children.  Without user
# namespaces every runner's processes, the grader's and the user's others share one RLIMIT_NPROC, so
# while the flood lasts no other fork of the user works: an honest student graded beside it in the same
# `batch` got run-error on every test, and one student's `grade` judge-error (the other problems' runners
# could not be forked), exit 3.  The grader watches a starting runner's processes (runner.c
# slot_watch_tree) and ends a flood within moments; a fork that failed meanwhile is tried again.  The user's
# limit is 300 here (prlimit), as the red team had it: the flood fills it at once.  Every level: root and
# user hold by a process count of the runner's own, and must keep doing so.
if [ -z "${1:-}" ] || [[ " $fixtures " == *" batch-flood "* ]]; then
	rm -rf "$S/class" "$S/flood-grade"
	mkdir -p "$S/class/a-flood" "$S/flood-grade"
	cp "$here/batch-flood/flood.c" "$S/class/a-flood/h.c"
	for peer in b c d e f g h i j k l m; do
		mkdir "$S/class/$peer-peer"
		sed "1s|^|/* student $peer */\n|" "$here/batch-flood/peer.c" >"$S/class/$peer-peer/h.c"
	done
	# the same constructor in one student's grade of two problems (h, and h2 beside it: the same problem
	# under another name), sleeping past h's start-up backstop while h2's runners are to start
	mkdir -p "$S/two-problems" "$S/two-reference"
	cp "$here/problems/h.yaml" "$S/two-problems/h.yaml"
	sed 's/^id: h$/id: h2/; s/^source: h.c$/source: h2.c/' "$here/problems/h.yaml" >"$S/two-problems/h2.yaml"
	mkdir -p "$S/two-reference/python"
	for id in h h2; do
		cp "$here/reference/h.c" "$S/two-reference/$id.c"
		cp "$here/reference/python/h.py" "$S/two-reference/python/$id.py"
	done
	sed 's/{ 8, 0 }/{ 30, 0 }/' "$here/batch-flood/flood.c" >"$S/flood-grade/h.c"
	cp "$here/batch-flood/peer.c" "$S/flood-grade/h2.c"
	chmod -R a+rwX "$S/class" "$S/flood-grade" "$S/two-problems" "$S/two-reference"
	stop_peer
	(cd "$S" && timeout -s KILL 240 prlimit --nproc=300 "${GRADER_CMD[@]}" batch "$S/class" -o "$S/class-out" -j 2 \
		--problems "$here/problems" --reference "$here/reference" --no-cache >/dev/null 2>"$S/class.err")
	rc=$?
	hurt=$(tr -d '\r' <"$S/class-out/grades.csv" 2>/dev/null | grep -- '-peer,' | grep -v ',7,7,7,ok$')
	peers=$(grep -c -- '-peer,' "$S/class-out/grades.csv" 2>/dev/null)
	if [ $rc -le 1 ] && [ -z "$hurt" ] && [ "$peers" = 12 ] && [ -z "$(leftovers)" ]; then
		ok "process flood in a batch: the 12 honest students beside it 7/7 each ($(grep a-flood "$S/class-out/grades.csv" | tr -d '\r'))"
	else
		not_ok "process flood in a batch (exit code $rc, $peers peers)" "$hurt" "$(tail -3 "$S/class.err")"
	fi
	(cd "$S" && timeout -s KILL 240 prlimit --nproc=300 "${GRADER_CMD[@]}" grade --problems "$S/two-problems" \
		--reference "$S/two-reference" --no-cache -j 2 --show-hidden --format json -o "$S/flood-grade.json" \
		"$S/flood-grade" >/dev/null 2>"$S/flood-grade.err")
	rc=$?
	if v=$(python3 - "$S/flood-grade.json" <<'PY'
import collections, json, sys
r = json.load(open(sys.argv[1]))
said = {p["id"]: dict(collections.Counter(t["verdict"] for t in p["tests"])) for p in r["problems"]}
bad = (r["internal_error"] or not set(said.get("h", {"none": 0})) <= {"forbidden", "timelimit"}
       or set(said.get("h2", {"none": 0})) != {"correct"})
print(said)
sys.exit(1 if bad else 0)
PY
	) && [ $rc -eq 1 ] && [ -z "$(leftovers)" ]; then
		ok "process flood in one problem's constructor: that one forbidden or timelimit, the other correct ($v)"
	else
		not_ok "process flood in one problem's constructor (exit code $rc)" "$v" "$(tail -3 "$S/flood-grade.err")"
	fi
fi

# The same flood from a runner that waits between two tests (red team 41b, hijack-idle-flood: a taken-over
# zygote forks until EAGAIN when no request comes for 30 ms; a grade started beside it got judge-error):
# the grader watches idle runners too, and looks at them again when a pool run begins.  As a normal
# user (whose processes ps can count): the user's processes never near the limit of 300 while it grades.
if [ -n "${HOSTILE_USER:-}" ] && { [ -z "${1:-}" ] || [[ " $fixtures " == *" batch-flood "* ]]; }; then
	prepare "$here/fixtures/hijack-idle-flood"
	stop_peer
	(cd "$S" && timeout -s KILL 120 prlimit --nproc=300 "${GRADER_CMD[@]}" grade --problems "$here/problems" \
		--reference "$here/reference" --no-cache -j 2 --show-hidden --format json -o "$S/idle.json" \
		"$S/submission" >/dev/null 2>"$S/idle.err") &
	idle_pid=$!
	most=0
	while kill -0 $idle_pid 2>/dev/null; do
		n=$(ps -u "$HOSTILE_USER" --no-headers 2>/dev/null | wc -l)
		[ "$n" -gt "$most" ] && most=$n
		sleep 0.01
	done
	wait $idle_pid
	rc=$?
	if [ $rc -le 1 ] && [ "$most" -lt 200 ] && [ -z "$(leftovers)" ]; then
		ok "an idle runner's process flood is ended: at most $most processes of $HOSTILE_USER at once (limit 300)"
	else
		not_ok "an idle runner's process flood (exit code $rc): $most processes of $HOSTILE_USER at once (limit 300)" \
			"$(tail -3 "$S/idle.err")"
	fi
fi

# An output flood: the grader's memory stays that of an ordinary run.
if [ -n "${flood_kb:-}" ] && [ -n "$baseline_kb" ]; then
	if [ "$flood_kb" -le $((baseline_kb + 64 * 1024)) ]; then
		ok "stdout flood: grader peak memory ${flood_kb} KiB (ordinary run ${baseline_kb} KiB)"
	else
		not_ok "stdout flood: grader peak memory ${flood_kb} KiB, ordinary run ${baseline_kb} KiB"
	fi
fi

# The include-problem check means something: outside the sandbox the
# compiler does show the problem file's secret marker.
if [ -z "${1:-}" ] || [[ " $fixtures " == *" include-problem "* ]]; then
	prepare "$here/fixtures/include-problem"
	stop_peer
	if (cd "$S/submission" && gcc -fsyntax-only -fmax-errors=20 h.c 2>&1) | grep -q HOSTILE_SECRET_5b1f; then
		ok "include-problem is a real leak outside the sandbox (gcc shows the secret marker)"
	else
		not_ok "include-problem: even outside the sandbox gcc does not show the secret marker"
	fi
fi

# ...and so does proc-peer: outside the sandbox, a process of its uid reads
# the peer's secret through /proc/<pid>/cwd.
if [ -z "${1:-}" ] || [[ " $fixtures " == *" proc-peer "* ]]; then
	start_peer
	sleep 0.1
	if setpriv --reuid="$(id -u "$sandbox_user")" --regid="$(id -g "$sandbox_user")" --clear-groups \
		cat "/proc/$peer_pid/cwd/peer-secret.h" 2>/dev/null | grep -q HOSTILE_SECRET_5b1f; then
		ok "proc-peer is a real leak outside the sandbox ($sandbox_user reads the peer's file through /proc)"
	else
		not_ok "proc-peer: even outside the sandbox $sandbox_user cannot read the peer's file through /proc"
	fi
	stop_peer
fi

# interrupt NAME WHAT PATTERN: Ctrl-C (SIGINT) to the grader once a process
# matching PATTERN (pgrep -f) runs: the grader must end with 130, promptly,
# leaving nothing behind.
interrupt() {
	local name=$1 what=$2 pattern=$3 before_tmp pid i t0 msgs=() procs
	prepare "$here/fixtures/$name"
	before_tmp=$(tmp_state)
	"${GRADER_CMD[@]}" grade --problems "$here/problems" --reference "$here/reference" --cache "$S/cache" \
		-j $JOBS --format json -o "$S/int.json" "$S/submission" >/dev/null 2>"$S/int.err" &
	pid=$!
	for i in $(seq 200); do
		pgrep -f "$pattern" >/dev/null && break
		sleep 0.05
	done
	pgrep -f "$pattern" >/dev/null || msgs+=("no process matching $pattern appeared")
	sleep 0.3
	t0=$(date +%s.%N)
	kill -INT $pid
	for i in $(seq 200); do
		kill -0 $pid 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 $pid 2>/dev/null; then
		msgs+=("still running 10 s after SIGINT")
		kill -KILL $pid
	fi
	wait $pid
	rc=$?
	stop_peer
	[ $rc -eq 130 ] || msgs+=("exit code $rc, expected 130")
	v=$(sanitizer_errors "$S/int.err")
	[ -n "$v" ] && msgs+=("sanitizer: $v")
	sleep 0.2 # the kernel finishes tearing down the runners' namespaces
	procs=$(leftovers)
	[ -n "$procs" ] && msgs+=("processes left:" "$procs")
	[ "$(tmp_state)" = "$before_tmp" ] ||
		msgs+=("temporary files left:" "$(diff <(echo "$before_tmp") <(tmp_state) | head -10)")
	if [ ${#msgs[@]} -eq 0 ]; then
		ok "Ctrl-C while $what ($name): exit 130 in $(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)") s, nothing left"
	else
		not_ok "Ctrl-C while $what ($name)" "${msgs[@]}"
	fi
}

if [ $# -eq 0 ]; then
	interrupt loop "testing" '^runner$'
	interrupt compile-bomb "compiling" '^[^ ]*cc1 .*h\.c'

	# The fallback: exactly one warning, and a correct submission still passes.
	prepare "$here/fixtures/correct"
	grader_env=(GRADER_NO_SECCOMP=1 GRADER_NO_NAMESPACES=1)
	run_grader "$S/fallback"
	grader_env=()
	stop_peer
	warnings=$(grep -c 'warning' "$S/fallback.err")
	isolation=$(grep -c 'without full isolation' "$S/fallback.err")
	if [ "$rc" -eq 0 ] && [ "$warnings" -eq 1 ] && [ "$isolation" -eq 1 ] &&
		python3 "$here/check_report.py" "$S/fallback.json" correct 0 "$names_file" "" >/dev/null &&
		[ -z "$(sanitizer_errors "$S/fallback.err")" ] && [ -z "$(leftovers)" ]; then
		ok "without seccomp and namespaces: one warning, correct graded correct"
	else
		not_ok "without seccomp and namespaces (exit code $rc, $warnings warnings)" "$(head -5 "$S/fallback.err")"
	fi
	# ...and an endless loop is still stopped, by the process group.
	check_fixture loop GRADER_NO_SECCOMP=1 GRADER_NO_NAMESPACES=1
	# ...and a forged "the sandbox could not be installed" is the program's: no filter was handed over
	check_fixture ctor-forge-sandbox GRADER_NO_SECCOMP=1 GRADER_NO_NAMESPACES=1
	# Without a PID namespace seccomp alone keeps signals from the peer.
	check_fixture kill-all GRADER_NO_NAMESPACES=1
	check_fixture ctor-kill GRADER_NO_NAMESPACES=1
fi

# Nothing of any run is left: no scratch space, no process, no cgroup.
left=$(find /tmp /var/tmp /dev/shm -mindepth 1 -maxdepth 1 -name 'grader.*')
procs=$(leftovers)
left="$left$(comm -13 <(printf '%s\n' "$cgroups_before") <(cgroup_units))"
if [ -z "$left$procs" ]; then
	ok "nothing left behind (no /tmp/grader.*, no process, no cgroup)"
else
	not_ok "left behind" "$left" "$procs"
fi

echo "# $(($(date +%s) - started)) s"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
