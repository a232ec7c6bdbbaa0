/*
 * build.h - turn a submission's files into runners, for any language.
 *
 * For each problem: find the student's file (case-insensitively, regular
 * files only, never through a symbolic link) - a problem accepting several
 * languages takes the one file that is there, and two files for one
 * problem (p1.c and p1.py) are an error naming both - copy it into the
 * scratch space under its own name, and let its language (language.h)
 * prepare the command that checks or compiles it; run up to `jobs` such
 * commands at a time in the sandbox (compile.h); then let the language
 * inspect the result, and build_status.h decide what it means.
 *
 * Ownership: build_env, build_choice and build_result own their strings;
 * release them with build_env_release(), build_choice_release() and
 * build_result_release().  The scratch directory itself belongs to the
 * caller (the engine creates one per graded submission and removes it
 * afterwards): build_env_init() writes the shared runtime below it,
 * build_all() a build-<id> directory per problem, and neither removes
 * anything - a result's runner lives there until the caller removes the
 * scratch directory.
 */
#ifndef GRADER_BUILD_H
#define GRADER_BUILD_H

#include "build/compile.h"
#include "problem/language.h"
#include "problem/problem.h"
#include "build/build_status.h"

struct build_env {
	char *scratch;         /* the scratch directory builds go in (a copy of the path; the directory is the caller's) */
	char *runtime_dir;     /* scratch/runtime: what the languages' set-up prepared (runtime.o, the Python host) */
	char *cc;              /* the C compiler, default "gcc" */
	struct compile_limits compile; /* every build command's limits, view and ids (build_env_init fills the defaults) */
	const char *compile_readable[2]; /* the runtime directory: compile.readable */
	const char *cache_dir;  /* where set-up products are kept between runs (setup_cache.h); NULL or "": not kept */
	unsigned setup_rejected; /* bit i: needed[i]'s cached products were there but not trusted (compiled afresh) */
	unsigned shared_rejected; /* how many problems' shared products (language.h, share) were, and made afresh */
};

/*
 * Prepare env in scratch and set up every language of `needed`
 * (NULL-terminated): its products from env->cache_dir when kept there,
 * else its set-up, kept afterwards.  0, or -1 with a message in err.
 */
int build_env_init(struct build_env *env, const char *scratch, const struct language *const *needed,
		   struct strbuf *err);
/*
 * After build_env_init, before any build: let each problem's language
 * prepare what all its builds share (language.h, share), problems[0..n).
 * Failures are not errors - those builds do without - but each is said
 * in failures, a line per problem ("p1: reason").  How many failed.
 */
int build_env_share(struct build_env *env, const struct problem *const *problems, int n, struct strbuf *failures);
void build_env_release(struct build_env *env);

/* What a submission holds for one problem. */
struct build_choice {
	const struct problem *problem; /* the variant to build: its language's (the first one when no file was found) */
	char *file;            /* the student's file for it, or NULL */
	char *looked_for;      /* no file: the names looked for, "'p1.c' or 'p1.py'" */
	char *conflict;        /* files for several languages: "'p1.c' and 'p1.py'" */
	char *lookalikes;      /* no file: advice on files that look meant for it (lookalike.h), or NULL */
};

/* Which of a problem's variants (its languages) the files in dir are for. */
void build_choose(const char *dir, struct problem *const *variants, int nvariants, struct build_choice *out);
void build_choice_release(struct build_choice *c);

struct build_result {
	enum build_status status;
	const struct problem *problem; /* the variant built */
	char *runner;          /* the program to start (BUILD_OK) */
	char **runner_argv;    /* and its argv, NULL-terminated (BUILD_OK) */
	char *runner_dir;      /* the build's directory, which the runner may read (BUILD_OK) */
	char *source;          /* the file found in the submission, or NULL */
	char *message;         /* for a student: compiler output, what is missing... */
	unsigned long long static_bytes; /* memory the runner's segments need (C) */
	unsigned compile_ms;
};

/*
 * Build every choice, up to `jobs` commands at a time.  results[i] belongs
 * to choices[i].  Returns 0, or -1 when the grader itself failed (then the
 * results say BUILD_INTERNAL).
 */
int build_all(const struct build_env *env, const struct build_choice *choices, int n, const char *submission_dir,
	      struct build_result *results, int jobs);

void build_result_release(struct build_result *r);

/* Find `name` in dir case-insensitively (exact match preferred).  NULL if absent. */
char *build_find_source(const char *dir, const char *name);

#endif
