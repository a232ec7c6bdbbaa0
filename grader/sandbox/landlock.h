/*
 * landlock.h - what a sandboxed process may see of the file system
 * (isolate's directory rules, with the kernel's Landlock LSM), and, where
 * the kernel offers them, whom it may reach outside its own domain (TCP,
 * abstract unix sockets, signals).  Landlock needs no privilege and no
 * namespace, so the same view holds for root, a normal user and a
 * container.
 *
 * Two bases, each with what the caller adds:
 *   LANDLOCK_TOOLCHAIN (the compiler): the system directories read-only
 *     (programs, libraries, headers) and executable, the directories it is
 *     given read-only, its own directory read-write;
 *   LANDLOCK_RUNNER (a runner, installed before its execve): the shared
 *     libraries and the Python standard library read-only, the files it is
 *     given read-only, and execve of exactly the files it is given (the
 *     runner) and of the dynamic loader the grader itself was started
 *     with - nothing written anywhere.
 * Both: /dev/null read-write, nothing else - no repository, no home, no
 * /tmp, no other student's scratch.
 *
 * Hidden directories (the grader's problems, references, answer cache and
 * reports) are cut out of every rule that would cover them, wherever they
 * are installed (a `make install` under /usr/local/share is below /usr):
 * Landlock can only grant, so a granted directory that holds a hidden one
 * is granted entry by entry instead, down to the hidden one's parent.
 *
 * The rules are planned in the parent (landlock_plan_build: it lists
 * directories and allocates) and installed in the child between clone()
 * and execve() (landlock_restrict: system calls only, no allocation).
 * Ownership: a plan owns its strings; landlock_plan_release() frees them.
 */
#ifndef GRADER_LANDLOCK_H
#define GRADER_LANDLOCK_H

#include <stddef.h>

#include "base/util.h"

/* The Landlock ABI version the kernel offers (0: none, or switched off with GRADER_NO_LANDLOCK). */
int landlock_abi(void);

enum landlock_base {
	LANDLOCK_TOOLCHAIN,
	LANDLOCK_RUNNER,
};

struct landlock_view {
	enum landlock_base base;
	const char *const *readable;   /* NULL-terminated: read-only on top of the base */
	const char *const *executable; /* NULL-terminated: files it may execve (LANDLOCK_RUNNER) */
	const char *writable;          /* the one directory it may change (NULL: none) */
	const char *const *hidden;     /* NULL-terminated real paths no rule may cover (NULL: none) */
};

struct landlock_rule {
	char *path;
	unsigned long long rights; /* LANDLOCK_ACCESS_FS_* (those the kernel handles are kept at install) */
};

struct landlock_plan {
	struct landlock_rule *rules;
	size_t n, alloc;
};
#define LANDLOCK_PLAN_INIT { NULL, 0, 0 }

/* The rules for view, appended to plan (which the caller releases).  0, or -1 with a message in err. */
int landlock_plan_build(struct landlock_plan *plan, const struct landlock_view *view, struct strbuf *err);
void landlock_plan_release(struct landlock_plan *plan);

/*
 * Restrict the calling process (and what it execs) to the plan: every
 * file-system right this ABI knows is handled (denied unless a rule grants
 * it); from ABI 4 on TCP bind and connect are denied, from ABI 6 on
 * abstract unix sockets and signals outside the domain.  0, or -1 with
 * errno.  Sets no_new_privs, which Landlock requires of an unprivileged
 * caller.  A rule whose path does not exist is skipped.
 */
int landlock_restrict(const struct landlock_plan *plan, int abi);

#endif
