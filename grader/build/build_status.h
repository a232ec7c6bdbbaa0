/*
 * build_status.h - what a build of a submission's file means: the facts
 * build.c gathered (the compiler's exit, its output, the ELF inspection) in,
 * a status and a message in words a student understands out.  The verdict
 * that status gives every test of the problem is judge/verdict.h's
 * (verdict_of_build_status); nothing a build reports makes the grader blame
 * itself but what the grader itself could not do (BUILD_INTERNAL).
 *
 * Ownership: the message is a new string the caller frees; the facts are
 * borrowed.
 */
#ifndef GRADER_BUILD_STATUS_H
#define GRADER_BUILD_STATUS_H

#include <stdbool.h>

enum build_status {
	BUILD_OK,
	BUILD_MISSING_FILE,    /* no such file in the submission */
	BUILD_COMPILE_ERROR,
	BUILD_FORBIDDEN,       /* e.g. an ifunc resolver */
	BUILD_TOO_BIG,         /* static data above the memory limit */
	BUILD_INTERNAL,        /* the grader could not build (not the student's fault) */
};

/* What one compilation of a submission's file did (build.c measures, build_status_of decides). */
struct build_facts {
	bool missing;                /* no such file in the submission (source: the names looked for, quoted) */
	const char *conflict;        /* files for several languages of one problem ("'p1.c' and 'p1.py'") */
	const char *lookalikes;      /* missing: advice on files that look meant for it, or NULL */
	const char *source;          /* the file as found in the submission */
	const char *copy_error;      /* the file could not be taken (a link, not a regular file, too big) */
	bool interrupted;            /* Ctrl-C while compiling */
	bool timed_out;              /* the compiler's wall-clock limit */
	int status;                  /* the compiler's wait status */
	const char *output;          /* what the compiler printed */
	unsigned cpu_limit_s, wall_limit_ms;
	bool inspected;              /* the ELF inspection ran (the fields below are valid) */
	const char *forbidden;       /* why the linked runner is refused (an ifunc), or "" */
	const char *clashes;         /* its symbols named like libc functions the runtime calls, or "" */
	unsigned long long static_bytes, memory_limit_bytes;
	const char *signatures;      /* the required declarations, one a line, for compile errors */
};

/* The status of a build and the message for the student (a new string, NULL when BUILD_OK). */
enum build_status build_status_of(const struct build_facts *f, char **message);

#endif
