/*
 * filter.h - the seccomp programs of a runner: what its zygote and its case
 * children may ask of the kernel (see docs/isolation.md).
 *
 * Every rule that looks at an argument must compare it as the kernel reads
 * it (an int argument on its low 32 bits); tests/unit/test_filter.c runs
 * each such rule against the kernel.
 */
#ifndef GRADER_FILTER_H
#define GRADER_FILTER_H

#include "base/util.h"

/* Which seccomp programs a runner gets: each language names its own (language.h). */
enum filter_flavour {
	FILTER_NATIVE,   /* C: every path-based call traps (forbidden) */
	FILTER_PYTHON,   /* Python: path-based calls fail with EACCES, the interpreter copes; the rest traps */
	FILTER_FLAVOURS
};

/*
 * Build the two seccomp programs (zygote, case) as raw BPF into out, in the
 * format runtime.c reads from GR_FD_FILTER: u32 len, bytes, u32 len, bytes.
 * The case program is loaded on top of the zygote's, which stays in force
 * in the case child: it only takes away what the zygote may do and a test
 * may not, so that the pair holds a test to the case policy below.
 * Without seccomp support writes two zero lengths.  Returns 0 or -1.
 */
int filter_programs(enum filter_flavour flavour, struct strbuf *out, struct strbuf *err);

/*
 * The case policy as one allow-list program ("u32 len, bytes"; a zero
 * length without seccomp): what a test may ask of the kernel.  No runner
 * loads it - it is the specification the zygote's program and the case
 * program together must meet, which tests/unit/test_filter.c checks for
 * every system call number.  Returns 0 or -1.
 */
int filter_case_policy(enum filter_flavour flavour, struct strbuf *out, struct strbuf *err);

/*
 * The outer program ("u32 len, bytes"; a zero length without seccomp):
 * what the dynamic loader and the runtime need before the runtime's own
 * filter, execve included, on top of everything the zygote's program
 * allows.  sandbox_spawn() installs it right before execve (struct
 * sandbox_spawn seccomp_program), so no code of the runner runs without a
 * filter.  Its kill and tgkill rule may hold the pid placeholder
 * (GR_PID_PLACEHOLDER), which the installer replaces with the process's
 * own pid.  The same program for every flavour.  Returns 0 or -1.
 */
int filter_outer_program(struct strbuf *out, struct strbuf *err);

/* Name of a system call of this architecture, or "system call N". Static storage. */
const char *filter_syscall_name(int nr);

#endif
