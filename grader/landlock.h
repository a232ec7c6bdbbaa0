/*
 * landlock.h - what a build command may see of the file system (isolate's
 * directory rules, with the kernel's Landlock LSM): the toolchain's system
 * directories read-only, the directories it is given read-only, its own
 * directory read-write, a few device files, nothing else - no repository,
 * no home, no /tmp.  Landlock needs no privilege and no namespace, so the
 * same view holds for root, a normal user and a container.
 *
 * landlock_restrict() runs in a child between clone() and execve(): system
 * calls only, no allocation.
 */
#ifndef GRADER_LANDLOCK_H
#define GRADER_LANDLOCK_H

/* The Landlock ABI version the kernel offers (0: none, or switched off with GRADER_NO_LANDLOCK). */
int landlock_abi(void);

struct landlock_view {
	const char *const *readable; /* NULL-terminated: read-only on top of the system directories */
	const char *writable;        /* the one directory it may change (NULL: none) */
};

/*
 * Restrict the calling process (and what it execs) to the view.  0, or -1
 * with errno.  Sets no_new_privs, which Landlock requires of an unprivileged
 * caller.
 */
int landlock_restrict(const struct landlock_view *view, int abi);

#endif
