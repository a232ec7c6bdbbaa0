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

in_pid_namespace() { # in_pid_namespace VAR "$0" "$@"
	lib_var=$1
	shift
	eval "[ -z \"\${$lib_var:-}\" ]" || return 0
	[ "$(id -u)" = 0 ] && unshare --pid --fork --mount-proc true 2>/dev/null || return 0
	export "$lib_var=1"
	exec unshare --pid --fork --mount-proc "$@"
}
