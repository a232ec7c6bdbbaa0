# tests/lib.sh - what every tests/<suite>/run.sh begins with, sourced once
# the suite has changed to the repository's top directory:
#
#   . tests/lib.sh
#   lib_tmpdir NAME          T: a fresh directory "$TMPDIR/NAME.XXXXXX",
#                            removed when the suite exits (kept with KEEP=1);
#                            the suite's own clean-up goes in at_exit()
#   ok TEXT / not_ok TEXT / skip TEXT
#                            one check: "ok - ", "not ok - " or "SKIP - "
#                            and the count; passed, failed, skipped
#   check TEXT COMMAND...    ok when COMMAND succeeds, else not_ok
#   tally FILE               show FILE, the lines a helper (a Python checker)
#                            wrote, and count its "ok ..." and "not ok ..."
#                            (or "FAIL ...") lines
#   need_grader              not ok and exit 1 unless $GRADER is executable
#   seed_cache DIR           DIR starts with the reference answers and runtimes
#                            of problems/ that tools/run-suites.sh computed once
#                            ($TEST_SEED_CACHE), copied so that they are this
#                            user's own; nothing without a seed
#   in_pid_namespace VAR "$0" "$@"
#                            as root, re-execute the suite in a throwaway PID
#                            namespace (unshare --pid --fork --mount-proc) once,
#                            VAR marking the second start; returns otherwise
#   in_pid_namespace_own_cgroups VAR "$0" "$@"
#                            the same, in a cgroup of the suite's own in each
#                            cgroup v1 hierarchy the grader uses: its graders
#                            make their units below it (grader/sandbox/cgroup.c),
#                            and what one killed on purpose (SIGKILL) could not
#                            remove is removed with it at the end
#   finish                   "N passed, M failed[, K skipped]"; exit 0 when
#                            nothing failed
#
# Sets REPO (the top directory), GRADER (default: the ASan build, made
# absolute) and the sanitizers' options unless the caller set them.
# A suite's temporary files stay in $T; every process it starts is its own to
# stop (at_exit).

REPO=$PWD
: "${GRADER:=$REPO/build/asan/grader}"
case $GRADER in /*) ;; *) GRADER=$REPO/$GRADER ;; esac
export GRADER
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

passed=0
failed=0
skipped=0
ok() { passed=$((passed + 1)); echo "ok - $*"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $*"; }
skip() { skipped=$((skipped + 1)); echo "SKIP - $*"; }
check() { # check TEXT COMMAND...
	lib_what=$1
	shift
	if "$@"; then ok "$lib_what"; else not_ok "$lib_what"; fi
}
tally() { # tally FILE
	while IFS= read -r lib_line; do
		echo "$lib_line"
		case $lib_line in
		"ok "*) passed=$((passed + 1)) ;;
		"not ok "* | "FAIL "*) failed=$((failed + 1)) ;;
		esac
	done <"$1"
}
finish() {
	# a suite none of whose checks ran tested nothing: that is no pass (a check script that broke, say)
	if [ $((passed + failed + skipped)) -eq 0 ]; then
		echo "not ok - no check ran"
		failed=1
	fi
	if [ "$skipped" -gt 0 ]; then
		echo "$passed passed, $failed failed, $skipped skipped"
	else
		echo "$passed passed, $failed failed"
	fi
	[ "$failed" -eq 0 ]
	exit
}
need_grader() {
	[ -x "$GRADER" ] && return 0
	not_ok "grader '$GRADER' is built (make build/asan/grader)"
	finish
}

T=
at_exit() { :; }
lib_exit() {
	at_exit
	if [ -n "$T" ]; then
		if [ -n "${KEEP:-}" ]; then echo "kept $T"; else rm -rf "$T"; fi
	fi
}
lib_tmpdir() { # lib_tmpdir NAME
	T=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 2
}
trap lib_exit EXIT
trap 'exit 130' INT TERM HUP

seed_cache() { # seed_cache DIR
	mkdir -p "$1" || return 1
	[ -n "${TEST_SEED_CACHE:-}" ] && [ -d "$TEST_SEED_CACHE" ] || return 0
	# a copy, not the seed itself: a suite may change its cache, and the copy is this user's own
	# with the seed's modes (an entry others may write is not trusted)
	cp -R "$TEST_SEED_CACHE"/. "$1"/
}

# lib_first_start VAR: true (and VAR marks the second start) when VAR is unset and a PID namespace can
# be made here (root)
lib_first_start() {
	eval "[ -z \"\${$1:-}\" ]" || return 1
	[ "$(id -u)" = 0 ] && unshare --pid --fork --mount-proc true 2>/dev/null || return 1
	export "$1=1"
}

in_pid_namespace() { # in_pid_namespace VAR "$0" "$@"
	lib_first_start "$1" || return 0
	shift
	exec unshare --pid --fork --mount-proc "$@"
}

# A suite that kills graders on purpose (batch: SIGKILL midway, then --resume) leaves their cgroup
# units behind: a killed grader removes nothing.  Its graders make them below a cgroup of the suite's
# own, which is emptied and removed when the namespace is gone - never another suite's (make test runs
# two lanes side by side).  Exits with the suite's status, 1 when a cgroup could not be removed.
in_pid_namespace_own_cgroups() { # in_pid_namespace_own_cgroups VAR "$0" "$@"
	lib_first_start "$1" || return 0
	shift
	lib_cgroups=
	for lib_ctrl in pids memory cpuacct freezer; do
		lib_path=$(awk -F: -v c="$lib_ctrl" '{ n = split($2, a, ","); for (i = 1; i <= n; i++) if (a[i] == c) print $3 }' \
			/proc/self/cgroup)
		lib_dir=/sys/fs/cgroup/$lib_ctrl${lib_path%/}/suite.$$
		[ -n "$lib_path" ] && [ -d "/sys/fs/cgroup/$lib_ctrl" ] && mkdir "$lib_dir" 2>/dev/null || continue
		if echo $$ >"$lib_dir/cgroup.procs" 2>/dev/null; then
			lib_cgroups="$lib_cgroups $lib_dir"
		else
			rmdir "$lib_dir"
		fi
	done
	unshare --pid --fork --mount-proc "$@"
	lib_rc=$?
	for lib_dir in $lib_cgroups; do
		echo $$ >"${lib_dir%/*}/cgroup.procs"
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			find "$lib_dir" -mindepth 1 -depth -type d -exec rmdir {} + 2>/dev/null
			rmdir "$lib_dir" 2>/dev/null && break
			sleep 0.3
		done
		[ -d "$lib_dir" ] && echo "not ok - the suite's cgroup $lib_dir could not be removed" && lib_rc=1
	done
	exit $lib_rc
}
