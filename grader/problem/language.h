/*
 * language.h - a submission language as a row of data (DOMjudge's
 * per-language build scripts, CMS's grading/languages/, problemtools'
 * languages.yaml): its name in problem files, its file extension, how its
 * builds are set up, checked or compiled and inspected, how its runner is
 * started, and which seccomp filters the runner gets.  The engine, build,
 * reports, batch and pack never ask which language a submission is in;
 * they ask this table.
 *
 * Adding a language: write lang_<name>.c with these operations and a
 * runner half for runtime/ (as pyhost.c is for Python: provide
 * gr_stub_init/gr_stub_load and the call function, built with runtime.c),
 * add its row to languages[] in language.c, give its problems a
 * `languages: {<name>: ...}` section and its reference files.
 *
 * Every operation returns 0, or -1 with a message in err; strings it hands
 * out are the caller's to free.
 */
#ifndef GRADER_LANGUAGE_H
#define GRADER_LANGUAGE_H

#include <stdbool.h>

#include "base/util.h"
#include "sandbox/filter.h" /* enum filter_flavour: a language names its runners' seccomp programs */

struct build_env;
struct build_facts;
struct problem;

/* How a source file is cut into tokens for the similarity check (tokens.h). */
enum token_flavour {
	TOKENS_C,        /* C-like: comments, preprocessor lines, literals */
	TOKENS_PYTHON,   /* Python: # comments, docstrings, no layout */
};

struct language {
	const char *name;          /* "c", "python": the key in problem files */
	const char *display;       /* "C", "Python 3.11.2": in reports */
	const char *extension;     /* ".c", ".py" */
	const char *true_word, *false_word; /* how a bool is written: true, True */
	bool renames;              /* may a problem's `calls:` name a function otherwise (C: no, the signature is the name) */
	enum filter_flavour filters;
	enum token_flavour tokens;
	/* Once per engine: prepare what every build shares in env->runtime_dir (a runtime, a host). */
	int (*setup)(const struct build_env *env, struct strbuf *err);
	/* The files setup leaves in runtime_dir that builds use, NULL-terminated: kept between runs (setup_cache.h) */
	const char *const *setup_products;
	/*
	 * Once per engine and problem variant of this language, after setup
	 * and before any submission is built: prepare in env->runtime_dir what
	 * every build of p shares (C: the stub's object).  Optional (NULL).
	 * 0, or -1 with the reason in err when it could not (the builds must
	 * then do without); *rejected when a copy kept in the cache was there
	 * but not trusted, and was made afresh.
	 */
	int (*share)(const struct build_env *env, const struct problem *p, bool *rejected, struct strbuf *err);
	/*
	 * dir holds the student's file as `file`: write what the build needs
	 * beside it and say which command (sandboxed) checks or compiles it.
	 */
	int (*prepare)(const struct build_env *env, const struct problem *p, const char *dir, const char *file,
		       struct strvec *argv, struct strbuf *err);
	/*
	 * After the command succeeded: the facts only this language checks
	 * (C: the linked runner's ELF), with strings in the two buffers it was
	 * given.  0, or -1 when it could not look (the grader's failure).
	 */
	int (*inspect)(const struct build_env *env, const struct problem *p, const char *dir,
		       struct build_facts *f, struct strbuf *forbidden, struct strbuf *clashes);
	/* The runner for the build in dir: the program to start and its argv. */
	void (*runner)(const struct build_env *env, const struct problem *p, const char *dir, const char *file,
		       char **program, struct strvec *argv);
};

/* The table, in the order problems list their languages by default; NULL-terminated. */
extern const struct language *const languages[];

const struct language *language_find(const char *name);
/* The language whose extension name ends with (case-insensitively), or NULL. */
const struct language *language_of_file(const char *name);
/* The index of l in languages[] (for per-language arrays). */
int language_index(const struct language *l);

/* The rows (lang_c.c, lang_python.c). */
extern const struct language language_c;
extern const struct language language_python;

#endif
