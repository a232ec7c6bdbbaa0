/*
 * build.h - turn a submission's source file into a runner program.
 *
 * For each problem: find the file (case-insensitively, regular files only,
 * never through a symbolic link), copy it into the run's scratch space,
 * write the generated stub and declarations next to it, and compile
 * student file + stub + the precompiled runtime into one runner with a
 * single compiler run in the sandbox (time, output and file-size limits;
 * problem, reference and cache directories hidden).  Then inspect the
 * runner's ELF: ifunc resolvers (which would run before the seccomp filter)
 * are refused, and static data larger than the memory limit is a
 * memory-limit verdict without running anything.
 *
 * Ownership: build_env and build_result own their strings; release them
 * with build_env_release() and build_result_release().  The scratch
 * directory itself belongs to the caller (the engine creates one per graded
 * submission and removes it afterwards): build_env_init() writes the
 * runtime below it, build_all() a build-<id> directory per problem, and
 * neither removes anything - a result's runner lives there until the caller
 * removes the scratch directory.
 */
#ifndef GRADER_BUILD_H
#define GRADER_BUILD_H

#include "problem.h"
#include "verdict.h"

struct build_result {
	enum build_status status;
	char *runner;          /* path of the runner program (BUILD_OK) */
	char *source;          /* the file name found in the submission, or NULL */
	char *message;         /* for a student: compiler output, what is missing... */
	unsigned long long static_bytes; /* memory the runner's segments need */
	unsigned compile_ms;
};

struct build_env {
	char *scratch;         /* the scratch directory builds go in (a copy of the path; the directory is the caller's) */
	char *runtime_dir;     /* scratch/runtime: protocol.h and runtime.o */
	char *cc;              /* compiler command, default "gcc" */
	const char *const *hide_paths; /* directories the compiler must not see */
	unsigned compile_cpu_s, compile_wall_ms;
};

/* Prepare the runtime (compiled once per env).  0 or -1 with a message in err. */
int build_env_init(struct build_env *env, const char *scratch, struct strbuf *err);
void build_env_release(struct build_env *env);

/*
 * Build every problem of probs for the submission, up to `jobs` compilers at
 * a time.  results[i] belongs to probs[i].  Returns 0, or -1 when the grader
 * itself failed (then the results say BUILD_INTERNAL).
 */
int build_all(const struct build_env *env, struct problem *const *probs, int nprobs,
	      const char *submission_dir, struct build_result *results, int jobs);

void build_result_release(struct build_result *r);

/* Find `name` in dir case-insensitively (exact match preferred). NULL if absent. */
char *build_find_source(const char *dir, const char *name);

#endif
