#!/bin/sh
# tests/unit/handler_calls.sh - the runtime's SIGSYS handler calls no function.
#
# A test may make the runtime's GOT (RELRO) writable with mprotect() and
# point a slot at code of its own; a handler that called write() or memset()
# through it would jump back into the test, and a forbidden call would pass
# unseen (hostile fixture forbid-got-write).  So gr_on_sigsys makes raw
# system calls only.  This compiles runtime.c as the grader does - for C
# runners (lang_c.c c_setup) and for the Python host (lang_python.c) - each
# function in a section of its own, and fails on any call instruction or any
# relocation to a function (PLT, GOT) in gr_on_sigsys: a compiler that turns
# the record's initialisation into a memset() call, say.
# usage: tests/unit/handler_calls.sh   ($PYTHON_CFLAGS: the Python host's, optional)
set -u
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
failed=0
check() { # check NAME CFLAGS...
	name=$1
	shift
	if ! gcc "$@" -ffunction-sections -c grader/runtime/runtime.c -Igrader/runtime -o "$tmp/$name.o" 2>"$tmp/$name.err"; then
		echo "not ok - $name: runtime.c does not compile: $(head -c 300 "$tmp/$name.err")"
		failed=1
		return
	fi
	objdump -dr --no-show-raw-insn -j .text.gr_on_sigsys "$tmp/$name.o" >"$tmp/$name.dis" 2>&1
	if ! grep -q '<gr_on_sigsys>:' "$tmp/$name.dis"; then
		echo "not ok - $name: no gr_on_sigsys in its own section ($(head -c 200 "$tmp/$name.dis"))"
		failed=1
		return
	fi
	bad=$(grep -E '\s(call|callq|bl|blr|jmp\s+\*)(\s|$)|R_[A-Z0-9_]*(PLT|GOT|CALL|JUMP)' "$tmp/$name.dis")
	calls=$(grep -cE '\s(syscall|svc)(\s|$)' "$tmp/$name.dis")
	if [ -n "$bad" ]; then
		echo "not ok - $name: gr_on_sigsys calls a function: $(echo "$bad" | head -3 | tr '\n' ' ')"
		failed=1
	elif [ "$calls" -lt 4 ]; then
		# write, getpid, gettid, tgkill, rt_sigprocmask, exit_group: fewer seen means the check looked at nothing
		echo "not ok - $name: only $calls system call instructions seen in gr_on_sigsys"
		failed=1
	else
		echo "ok - $name: gr_on_sigsys calls no function ($calls system call instructions)"
	fi
}
check c-runner -std=gnu11 -O2 -pipe -fno-stack-protector
# the Python host is built without -fno-stack-protector: whatever the compiler's default is
check python-host -std=gnu11 -O2 -pipe -DGR_FILTER_IN_MAIN ${PYTHON_CFLAGS:-$(pkg-config --cflags python3-embed 2>/dev/null)}
exit $failed
