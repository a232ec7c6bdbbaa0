/*
 * batch_git.h - reading a student's git repository (a GitHub Classroom
 * assignment cloned with `gh classroom clone student-repos`) without
 * touching it: its history and the clone's time, and one commit's files
 * copied out into scratch space.
 *
 * Only git's plumbing runs (rev-list, ls-tree, cat-file), with
 * --git-dir=REPO/.git (no discovery of a repository above it), no system or
 * global configuration, no optional locks and no pager: commands that run
 * no hook, filter, fsmonitor or signature program a repository's own
 * configuration could name, and that write nothing into it.
 *
 * Ownership: git_commits() hands an array freed with git_commits_free().
 */
#ifndef GRADER_BATCH_GIT_H
#define GRADER_BATCH_GIT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/util.h"

struct git_commit {
	char hash[41];
	int64_t committed;          /* committer date: set by whoever made the commit */
};

/* Is dir a repository's work tree (a .git directory in it)? */
bool git_is_repo(const char *dir);

/*
 * The first-parent history of HEAD, newest first (at most max commits).
 * 0, or -1 with git's words in err (no commit at all is an error too).
 */
int git_commits(const char *dir, int max, struct git_commit **out, int *n, struct strbuf *err);
void git_commits_free(struct git_commit *c);

/* When the repository was cloned: the first entry of HEAD's reflog, when it says "clone:".  0, or -1. */
int git_clone_time(const char *dir, int64_t *when);

/*
 * Copy the files of commit into dest (created, mode 0700): regular and
 * executable files only (links and submodules are left out), never through
 * a link, at most max_entries files and max_bytes together.  0, or -1 with
 * the reason in err; dest does not exist after a failure.
 */
int git_export(const char *dir, const char *commit, const char *dest, int max_entries, unsigned long long max_bytes,
	       struct strbuf *err);

#endif
