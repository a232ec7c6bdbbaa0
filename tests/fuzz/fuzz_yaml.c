/*
 * fuzz_yaml.c - libFuzzer harness for the problem-file loader
 * (grader/problem/problem.c over libyaml, with casegen.c, signature.c, value.c).
 *
 * Input: a problem file, loaded with problem_load() from an anonymous
 * memory file; or, when the first byte is NUL, a problem set: the rest
 * split at NUL bytes into at most 8 files (0.yaml, 1.yml, 2.yaml, ...) of
 * a private temporary directory loaded with problem_set_load() and
 * removed again.  On success everything the loader built is walked the
 * way the engine and the reports use it (every case formatted, every
 * group's limits read) so that ASan sees any bad pointer; on failure the
 * error must be a "file:line:column: message" text.  Leaks are reported
 * by libFuzzer (problem_release / problem_set_release must free all).
 */
#include "fuzz.h"

#include "problem/problem.h"

#define MAX_SET_FILES 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk_problem(const struct problem *p)
{
	struct strbuf sb = STRBUF_INIT;
	for (int k = 0; k < problem_nvariants((struct problem *)p); k++) {
		const struct problem *v = problem_variant((struct problem *)p, k);
		for (int i = 0; i < v->nfuncs; i++)
			strbuf_addstr(&sb, problem_call_name(v, i));
		for (int g = 0; g < v->ngroups; g++) {
			const struct group *gr = &v->groups[g];
			if (gr->first_case < 0 || gr->ncases < 0 || gr->first_case + gr->ncases > v->ncases)
				__builtin_trap();
			strbuf_addf(&sb, "%s %s %s %u", gr->name, visibility_name(gr->visibility),
				    scoring_name(gr->scoring), gr->limits.memory_mb);
			if (k)
				(void)problem_group_differs(p, v, g);
		}
		/* formatting every case of a 200 000-case file is the loader's cost again: a sample */
		for (int c = 0; c < v->ncases; c += 1 + v->ncases / 64) {
			const struct test_case *tc = &v->cases[c];
			strbuf_reset(&sb);
			test_case_format_call(&sb, v, tc);
			if (tc->has_expected)
				problem_format_answer(&sb, v, tc->func, tc->expected);
		}
		(void)problem_max_memory_mb(v);
	}
	strbuf_release(&sb);
}

static void load_one(const uint8_t *data, size_t size)
{
	struct problem p;
	struct strbuf err = STRBUF_INIT;
	struct fuzz_file f;

	fuzz_memfd(&f, data, size);
	if (problem_load(&p, f.path, &err) == 0) {
		walk_problem(&p);
		problem_release(&p);
	} else if (!err.len || strncmp(err.buf, f.path, strlen(f.path))) {
		__builtin_trap(); /* a failure must say where */
	}
	fuzz_memfd_close(&f);
	strbuf_release(&err);
}

static void load_set(const uint8_t *data, size_t size)
{
	struct problem_set set = PROBLEM_SET_INIT;
	struct strbuf err = STRBUF_INIT;
	char *dir = fuzz_tmpdir();
	const uint8_t *p = data, *end = data + size;

	for (int i = 0; i < MAX_SET_FILES && p <= end; i++) {
		const uint8_t *nul = memchr(p, '\0', (size_t)(end - p));
		const uint8_t *stop = nul ? nul : end;
		char name[16];
		snprintf(name, sizeof(name), i % 3 == 1 ? "%d.yml" : "%d.yaml", i);
		fuzz_write(dir, name, p, (size_t)(stop - p));
		p = stop + 1;
	}
	if (problem_set_load(&set, dir, &err) == 0) {
		for (int i = 0; i < set.nproblems; i++) {
			walk_problem(&set.problems[i]);
			if (problem_set_find(&set, set.problems[i].id) != &set.problems[i])
				__builtin_trap();
		}
	} else if (!err.len) {
		__builtin_trap();
	}
	problem_set_release(&set);
	strbuf_release(&err);
	fuzz_tmpdir_remove(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size && data[0] == '\0')
		load_set(data + 1, size - 1);
	else
		load_one(data, size);
	return 0;
}
