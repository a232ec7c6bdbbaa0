#!/bin/sh
# tools/run-unprivileged.sh - the suites again, as students and CI runners run
# the grader: as a normal user, and as a normal user whose machine refuses
# new user namespaces (a container runtime's seccomp profile).
#
#   tools/run-unprivileged.sh [SUITE...]     (default: integration reports pack batch batch/course hostile summary mutate order i18n)
#   UNPRIVILEGED_PASSES="crippled" tools/run-unprivileged.sh integration   (only these passes)
#
# As root (CI): creates a system user for the run (removed afterwards),
# copies the repository and the built graders into a directory of that
# user's, and runs each suite there twice with runuser:
#   [user]         as the user: namespaces through a user namespace mapping
#                  the user's own uid;
#   [no-userns]    as the user under build/tests/deny-userns: clone() and
#                  unshare() with CLONE_NEWUSER fail with EPERM, so the
#                  grader falls back (process groups, rlimits, seccomp);
# and once more [crippled] for the integration suite: user namespaces allowed
# but mount() refused (Ubuntu 24.04's AppArmor restriction); and, as root,
# [delegated]: the user's grader started in a cgroup v2 subtree delegated
# to the user as systemd does (Delegate=yes: the directory, its cgroup.procs,
# cgroup.threads and cgroup.subtree_control chowned to the user), without
# user namespaces - where accounting has least else to lean on - with
# tests/unit/test_cgroup run as the user there, one grading whose report
# must say it used that subtree, and the hostile fixtures of
# tests/hostile/DELEGATED; afterwards nothing may be left below the subtree.
# The hostile suite still runs as root inside its throwaway PID namespace;
# only the grader it starts drops to the user (HOSTILE_USER), on the part of
# its fixtures listed in tests/hostile/UNPRIVILEGED.
#
# Each pass keeps the checks whose outcome could differ at its level, and
# leaves out what the root run (or an earlier pass) already showed the same:
#   [user]       every suite above (i18n too: the catalogue found and the
#                locale made by a normal user): a normal user's paths (file modes, the
#                cache's owner checks, what the class notes say) and the
#                sandbox without root (no uid per slot, no cgroups).  The
#                integration suite grades $SANDBOX_FIXTURES: the fixtures
#                whose grading goes through what the sandbox can do (killing,
#                faults, the compiler's view, the Python host, output, -j
#                with one uid for every runner).  The others (file names,
#                languages, signatures: misnamed, utf16, py-conflict, ...) are
#                judged by the grader from the submission's files, or by the
#                compiler as compile-error is, the same at every level: the
#                root run grades them.  The rest of the suite (the reference's
#                answers computed cold, the cache's owner and mode checks,
#                usage errors on read-only directories) runs, but for selftest
#                (the problem set's soundness: the same at every level; each
#                reference is graded at this level anyway), which runs in the
#                main run only.  The reports suite leaves out the Gradescope
#                zip's setup.sh (a build of the grader and a cold selftest:
#                Gradescope runs it as root, once, when it builds its image),
#                the mutate suite the shipped p2 in full (how strong the
#                problem set's tests are: its fixture shows the mutants
#                graded at this level), the pack suite the calibration on
#                a slower machine (the limits' arithmetic).
#   [no-userns]  integration ($SANDBOX_FIXTURES: the fallback's process
#                groups, rlimits and seccomp alone), batch (the class note
#                of the fallback, its workers killed by process group),
#                hostile (tests/hostile/UNPRIVILEGED) and order.  Not
#                reports, summary, mutate and i18n (they grade through the same
#                machinery, in [user]), nor pack: it grades only the
#                reference and the template, as the integration suite does
#                at this level, and the rest of it (the tarball, its build)
#                does not change with the sandbox.
#   [crippled]   integration only, $CRIPPLED_FIXTURES: what changes from
#                [user] is the mount namespace alone (PID, network and user
#                namespaces still work), so the file views of the compiler
#                and of the Python host, not the killing, faults or output
#                (endless-loop, sleeper, stack-overflow, shrink ... are
#                graded at [user] with the same PID namespace).
# The reference answers of problems/ come from the run's seed cache
# ($TEST_SEED_CACHE, tools/seed-cache.sh) copied into the user's directory,
# except in the integration suite, which computes them cold as root and in
# [user] (a normal user's cache, written the first time), and takes the
# seed's answers in [no-userns] and [crippled]: computing them is running the
# reference in the sandbox, which grading reference/ and reference/python/
# (the suite's first checks) does at every level.
# The rule, for a new check: a pass repeats what can come out differently
# with the user or the isolation level (the sandbox, the limits, permissions,
# files, a normal user's paths); what the grader decides from the problem
# set, the submission's files or the report alone runs in the main run only
# (the suites test GRADER_EXPECT_LEVEL, which only these passes set).
#
# As a normal user the main pass already ran as one: only the no-userns pass
# runs, as that user.  Exit 0 when every pass of every suite is green; a
# suite that exits 77 (it cannot run as a normal user, and says why: starve
# needs root) is SKIPPED, as in tools/run-suites.sh, neither passed nor failed.
# With SUITE_TIMES=FILE each pass's wall-clock and CPU seconds are appended
# to FILE (tools/suite-times.sh).
set -u
cd "$(dirname "$0")/.."
top=$PWD
suites=${*:-integration reports pack batch batch/course hostile summary mutate order i18n}
wrapper=$top/build/tests/deny-userns
user=${UNPRIVILEGED_USER:-combgrader-test} # another name: two runs on one machine do not meet
# (shrink, wrong-answers and crash are graded again later in the suite, -j 1 against -j 2; not py-correct:
# a copy of reference/python, which the suite grades at every level before its fixtures, every test
# correct - py-correct's two gradings of it cost 34 s of CPU a pass and show nothing more)
SANDBOX_FIXTURES="correct wrong-answers crash stack-overflow out-of-bounds endless-loop sleeper compile-error
chatter shrink assert-fail py-exception py-endless-loop py-recursion py-import-error py-chatter"
# the file views: what the compiler and the Python host read (wrong-answers: the hidden-test checks read its report)
CRIPPLED_FIXTURES="correct wrong-answers compile-error py-exception py-import-error"

[ -x "$wrapper" ] || { echo "run-unprivileged: no $wrapper (make build/tests/deny-userns)"; exit 1; }
[ -x "$top/build/asan/grader" ] || { echo "run-unprivileged: no build/asan/grader"; exit 1; }

stage=$(mktemp -d "${TMPDIR:-/tmp}/unprivileged.XXXXXX") || exit 1
created_user=
cleanup() {
	rm -rf "$stage"
	[ -n "$created_user" ] && userdel "$user" 2>/dev/null
	return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
chmod 755 "$stage"

if [ "$(id -u)" = 0 ]; then
	if ! id "$user" >/dev/null 2>&1; then
		useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$user" || exit 1
		created_user=1
	fi
	as_user() { runuser -u "$user" -- "$@"; }
	passes="user no-userns crippled delegated"
else
	user=$(id -un)
	as_user() { "$@"; }
	passes="no-userns"
fi
passes=${UNPRIVILEGED_PASSES:-$passes}

# A copy the user owns: the work tree without .git and build/, plus the graders.
repo=$stage/repo
mkdir -p "$repo/build/asan" "$repo/build/tests" "$repo/bin" "$stage/home" "$stage/tmp"
tar -C "$top" --exclude=./.git --exclude=./build --exclude=./bin -cf - . | tar -C "$repo" -xf - || exit 1
cp "$top/build/asan/grader" "$repo/build/asan/grader"
cp "$top/bin/grader" "$repo/bin/grader"
cp "$wrapper" "$repo/build/tests/deny-userns"
[ -x "$top/build/tests/test_cgroup" ] && cp "$top/build/tests/test_cgroup" "$repo/build/tests/test_cgroup"
# the students' language: the catalogue beside the graders (l10n.h)
[ -d "$top/build/locale" ] && cp -R "$top/build/locale" "$repo/build/locale"
# the Makefile's dependency stamps, so that `make` in the copy does not look for apt-get
cp "$top"/build/.deps-ok "$top"/build/.test-deps-ok "$repo/build/" 2>/dev/null
# the reference answers of problems/, once for every pass (the suites copy them: their own files)
seed=$stage/seed
if [ -n "${TEST_SEED_CACHE:-}" ] && [ -d "$TEST_SEED_CACHE" ]; then
	cp -R "$TEST_SEED_CACHE" "$seed"
else
	(cd "$top" && tools/seed-cache.sh "$seed") || seed=
fi
[ "$(id -u)" = 0 ] && chown -R "$user" "$stage"

failed=0
ran=0
delegated_sub= # the [delegated] pass's subtree while its hostile fixtures run (delegated_pass)
# cpu_now: sets cpu_s to the CPU seconds (user + system) of this shell's finished children so far
cpu_now() {
	times >"$stage/times"
	cpu_s=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } printf "%d\n", t }' "$stage/times")
}
# living_of USER: the pids of USER's processes that are not zombies, after waiting up to 3 s for them to go
living_of() {
	for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		pids=$(ps -u "$1" -o pid=,stat= 2>/dev/null | awk '$2 !~ /^Z/ { print $1 }')
		[ -z "$pids" ] && return 1
		sleep 0.2
	done
	echo $pids
}

run_pass() { # run_pass PASS SUITE
	pass=$1
	suite=$2
	fixtures=$(echo $SANDBOX_FIXTURES)
	case $pass in
	user) wrap= ;;
	no-userns | delegated) wrap=$repo/build/tests/deny-userns ;;
	crippled) wrap="$repo/build/tests/deny-userns --crippled" fixtures=$(echo $CRIPPLED_FIXTURES) ;;
	esac
	echo "== [$pass] tests/$suite/run.sh as $user"
	ran=$((ran + 1))
	started=$(date +%s)
	cpu_now
	cpu=$cpu_s
	if [ "$suite" = hostile ]; then
		if [ "$(id -u)" != 0 ]; then
			echo "[$pass] the hostile suite needs root for its PID namespace: not run as $user"
			return
		fi
		# [delegated]: the fixtures of DELEGATED, at level no-userns's verdicts, in the subtree ($delegated_sub)
		level=$pass list=UNPRIVILEGED
		[ "$pass" = delegated ] && level=no-userns list=DELEGATED
		# shellcheck disable=SC2046
		(${delegated_sub:+in_cgroup "$delegated_sub"} env HOSTILE_USER="$user" HOSTILE_WRAPPER="$wrap" \
			HOSTILE_LEVEL="$level" GRADER="$repo/build/asan/grader" "$repo/tests/hostile/run.sh" \
			$(grep -v '^#' "$repo/tests/hostile/$list"); echo $? >"$stage/rc") 2>&1 |
			sed "s/^/[$pass] /"
	else
		(cd "$repo" && as_user env -i HOME="$stage/home" PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 \
			TMPDIR="$stage/tmp" CI="${CI:-}" GRADER="$repo/build/asan/grader" \
			ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}" \
			UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
			GRADER_EXPECT_LEVEL="$pass" INTEGRATION_FIXTURES="$fixtures" TEST_SEED_CACHE="$seed" \
			$wrap sh "tests/$suite/run.sh"
			echo $? >"$stage/rc") 2>&1 |
			sed "s/^/[$pass] /"
	fi
	wall=$(($(date +%s) - started))
	cpu_now
	cpu=$((cpu_s - cpu))
	echo "time: [$pass] tests/$suite/run.sh $wall s, $cpu s of CPU"
	[ -z "${SUITE_TIMES:-}" ] || echo "$wall $cpu [$pass] tests/$suite/run.sh" >> "$SUITE_TIMES"
	if [ "$(cat "$stage/rc" 2>/dev/null)" = 77 ]; then
		# the suite cannot run as a normal user (it said why, e.g. it needs root): skipped, not passed
		echo "SKIPPED: [$pass] tests/$suite/run.sh"
	elif [ "$(cat "$stage/rc" 2>/dev/null)" != 0 ]; then
		echo "FAILED: [$pass] tests/$suite/run.sh"
		failed=$((failed + 1))
	fi
	# nothing the suite's graders started may outlive them (all of it ran as $user); a process that
	# ended a moment ago may still be a zombie waiting for init (a browser's helpers): give those 3 s
	if [ "$(id -u)" = 0 ] && left=$(living_of "$user") && [ -n "$left" ]; then
		echo "FAILED: [$pass] tests/$suite/run.sh left processes of $user: $(ps -o pid=,etime=,cmd= -p "$(echo $left | tr ' ' ,)" | tr '\n' ';')"
		failed=$((failed + 1))
		# shellcheck disable=SC2086
		kill -9 $left 2>/dev/null
	fi
}

# in_cgroup DIR CMD...: CMD run with this shell's child moved into the cgroup v2 directory DIR first
in_cgroup() {
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' in_cgroup "$@"
}

# The [delegated] pass (see the top of this file); SKIPPED, neither passed nor failed, where the machine has
# no cgroup v2 hierarchy root may write (this machine's is the hybrid one at /sys/fs/cgroup/unified).
delegated_pass() {
	echo "== [delegated] a cgroup v2 subtree delegated to $user, without user namespaces"
	v2=$(awk '{ for (i = 7; i < NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") print $5; break } }' \
		/proc/self/mountinfo | head -1)
	own=$(sed -n 's/^0:://p' /proc/self/cgroup)
	sub=$v2${own%/}/delegated-test.$$
	if [ -z "$v2" ] || ! mkdir "$sub" 2>/dev/null; then
		echo "SKIPPED: [delegated] no cgroup v2 hierarchy here that root can write (${v2:-none mounted})"
		return
	fi
	chown "$user" "$sub" "$sub/cgroup.procs" "$sub/cgroup.threads" "$sub/cgroup.subtree_control"
	unit=$(cd "$repo" && in_cgroup "$sub" runuser -u "$user" -- build/tests/deny-userns build/tests/test_cgroup 2>&1)
	echo "$unit" | sed 's/^/[delegated] /'
	# the CPU of a child the kernel reaps is what only a cgroup counts: that test must have run, not skipped
	if ! echo "$unit" | grep -q 'OK \] test_cpu_of_a_child_the_kernel_reaps' ||
		echo "$unit" | grep -q 'FAILED'; then
		echo "FAILED: [delegated] tests/unit/test_cgroup as $user in $sub"
		failed=$((failed + 1))
	fi
	(cd "$repo" && in_cgroup "$sub" runuser -u "$user" -- env -i HOME="$stage/home" PATH=/usr/bin:/bin \
		LANG=C.UTF-8 TMPDIR="$stage/tmp" build/tests/deny-userns bin/grader --only p1 \
		--format json:"$stage/tmp/delegated.json" reference >/dev/null 2>&1)
	isolation=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["isolation"], d["score"] == d["max_score"])' \
		"$stage/tmp/delegated.json" 2>&1)
	echo "[delegated] reference p1: $isolation"
	case $isolation in
	*"cgroups v2 (delegated"*True) ;;
	*) echo "FAILED: [delegated] the reference's p1 graded in $sub did not use it with full marks"
		failed=$((failed + 1)) ;;
	esac
	delegated_sub=$sub
	run_pass delegated hostile
	delegated_sub=
	# the graders' units went with them; the subtree itself goes once its last process has
	for _ in 1 2 3 4 5 6 7 8 9 10; do rmdir "$sub" 2>/dev/null && break; sleep 0.3; done
	if [ -d "$sub" ]; then
		echo "FAILED: [delegated] $sub left behind: $(ls -d "$sub"/*/ 2>/dev/null | tr '\n' ' ')$(tr '\n' ' ' <"$sub/cgroup.procs")"
		failed=$((failed + 1))
	fi
}

for pass in $passes; do
	if [ "$pass" = delegated ]; then
		[ "$(id -u)" = 0 ] && delegated_pass
		continue
	fi
	for suite in $suites; do
		# the crippled pass: one suite is enough to show the fallback it takes; the no-userns pass:
		# the suites whose outcome depends on the sandbox (see the top of this file)
		[ "$pass" = crippled ] && [ "$suite" != integration ] && continue
		[ "$pass" = no-userns ] && [ "$(id -u)" = 0 ] &&
			case $suite in reports | summary | mutate | pack | i18n) true ;; *) false ;; esac && continue
		run_pass "$pass" "$suite"
	done
done
echo "unprivileged passes: $ran run, $failed failed"
[ "$failed" -eq 0 ]
