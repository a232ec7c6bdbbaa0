/* reference.c - see reference.h */
#define _GNU_SOURCE
#include "judge/reference.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/version.h"

void reference_adopt(struct engine *dst, struct engine *src)
{
	dst->ref = src->ref;
	dst->ref_loaded = src->ref_loaded;
	dst->reference_cached = src->reference_cached;
	dst->reference_seconds = src->reference_seconds;
	src->ref = NULL;
	src->ref_loaded = false;
}

bool reference_needed(const struct problem *p)
{
	for (int g = 0; g < p->ngroups; g++)
		if (p->groups[g].limits.cpu_factor)
			return true;
	for (int k = 0; k < p->ncases; k++)
		if (!p->cases[k].has_expected)
			return true;
	return false;
}

char *reference_dir(const struct engine *e, const struct language *lang)
{
	char *own = xasprintf("%s/%s", e->opts.reference_dir, lang->name);
	struct stat st;
	if (stat(own, &st) == 0 && S_ISDIR(st.st_mode))
		return own;
	free(own);
	return xstrdup(e->opts.reference_dir);
}

void reference_key_add(const struct engine *e, const struct problem *p, struct digest *d)
{
	struct strbuf src = STRBUF_INIT;
	char *dir = reference_dir(e, p->lang), *file = build_find_source(dir, p->source);
	digest_add_str(d, p->lang->display); /* the language and its version: Python 3.11.2 */
	if (file) {
		char *path = xasprintf("%s/%s", dir, file);
		if (read_file(&src, path) == 0)
			digest_add(d, src.buf, src.len);
		free(path);
		free(file);
	}
	strbuf_release(&src);
	free(dir);
}

static void cache_key(const struct engine *e, const struct problem *p, char out[DIGEST_HEX_SIZE])
{
	struct digest d;
	digest_init(&d);
	digest_add_str(&d, GRADER_VERSION);
	digest_add_str(&d, p->digest);
	reference_key_add(e, p, &d);
	digest_hex(&d, out);
}

static char *cache_path(const struct engine *e, const struct problem *p, const char *dir)
{
	char key[DIGEST_HEX_SIZE];
	cache_key(e, p, key);
	return xasprintf("%s/%s-%s-%s.ref", dir, p->id, p->lang->name, key);
}

/* Load answers from a cache file: "index answer time_us" lines.  0 when complete. */
static int cache_read(const char *path, const struct problem *p, struct reference_answers *ra)
{
	struct strbuf sb = STRBUF_INIT;
	int n = 0, ret = -1;
	char *line, *save = NULL;
	if (read_file(&sb, path) < 0)
		goto cleanup;
	for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int k;
		long long ans;
		unsigned t;
		if (sscanf(line, "%d %lld %u", &k, &ans, &t) != 3 || k < 0 || k >= p->ncases)
			goto cleanup;
		ra->have[k] = true;
		ra->answer[k] = ans;
		ra->time_us[k] = t;
		n++;
	}
	ret = n == p->ncases ? 0 : -1;
cleanup:
	strbuf_release(&sb);
	return ret;
}

static void cache_write(const struct engine *e, const char *path, const struct problem *p,
			const struct reference_answers *ra)
{
	struct strbuf sb = STRBUF_INIT;
	for (int k = 0; k < p->ncases; k++)
		if (ra->have[k])
			strbuf_addf(&sb, "%d %lld %u\n", k, ra->answer[k], ra->time_us[k]);
	/* a cache is an optimisation: failing to write it is not an error */
	if (write_file_atomic(path, sb.buf, sb.len) < 0)
		engine_log(e, "warning: cannot write the reference cache '%s': %s", path, strerror(errno));
	strbuf_release(&sb);
}

/* The answers of one problem result of a measuring run, or the reason the reference failed. */
static void take_answers(const struct engine *e, const struct problem_result *pr, struct reference_answers *ra)
{
	int failed = 0;
	for (int k = 0; k < pr->ntests; k++) {
		const struct test_result *t = &pr->tests[k];
		if (t->has_actual && t->verdict == V_CORRECT) {
			ra->have[k] = true;
			ra->answer[k] = t->actual;
			ra->time_us[k] = t->time_ms * 1000u;
		} else if (!failed++) {
			free(ra->failure);
			ra->failure = xasprintf("reference %s (%s), test '%s': %s%s%s", pr->problem->id,
						pr->problem->lang->name, t->tc->name, verdict_name(t->verdict),
						t->message ? ": " : "", t->message ? t->message : "");
		}
	}
	if (pr->build_message) {
		free(ra->failure);
		ra->failure = xasprintf("reference %s (%s): %s", pr->problem->id, pr->problem->lang->name,
					pr->build_message);
	}
	if (ra->failure)
		engine_log(e, "warning: %s", ra->failure);
}

static int variant_of(const struct engine *e, const struct problem *p)
{
	for (int i = 0; i < e->nproblems; i++)
		if (e->problems[i] == p)
			return i;
	return -1;
}

/* Run language lang's reference on its variants whose answers are still missing (run[i]). */
static int measure_language(struct engine *e, const struct language *lang, char **paths, const bool *run,
			    struct strbuf *err)
{
	char *dir = reference_dir(e, lang);
	struct grade_result r;
	int ret = -1;

	if (access(dir, R_OK | X_OK) < 0) {
		strbuf_addf(err, "cannot read the reference directory '%s': %s", dir, strerror(errno));
		goto cleanup;
	}
	engine_log(e, "computing the reference answers from '%s' (%s, cached afterwards)", dir, lang->display);
	if (engine_measure(e, dir, lang, &r, err) < 0)
		goto cleanup;
	for (int j = 0; j < r.nproblems; j++) {
		int i = variant_of(e, r.problems[j].problem);
		if (i < 0 || !run[i])
			continue;
		take_answers(e, &r.problems[j], &e->ref[i]);
		if (!e->ref[i].failure && paths[i] && mkdir_p(e->cache_dir, 0755) == 0)
			cache_write(e, paths[i], e->problems[i], &e->ref[i]);
	}
	grade_result_release(&r);
	ret = 0;
cleanup:
	free(dir);
	return ret;
}

/* Allocate every variant's answers; from the cache where it has them.  run[i]: still to measure. */
static bool from_cache(struct engine *e, char **paths, bool *run)
{
	bool need_run = false;
	e->ref = xcalloc((size_t)e->nproblems + 1, sizeof(*e->ref));
	for (int i = 0; i < e->nproblems; i++) {
		const struct problem *p = e->problems[i];
		struct reference_answers *ra = &e->ref[i];
		ra->have = xcalloc((size_t)p->ncases + 1, sizeof(bool));
		ra->answer = xcalloc((size_t)p->ncases + 1, sizeof(long long));
		ra->time_us = xcalloc((size_t)p->ncases + 1, sizeof(unsigned));
		if (!reference_needed(p))
			continue; /* every answer is in the file and every limit absolute (a student pack) */
		if (*e->cache_dir) {
			paths[i] = cache_path(e, p, e->cache_dir);
			if (cache_read(paths[i], p, ra) == 0)
				continue;
			memset(ra->have, 0, (size_t)p->ncases * sizeof(bool));
		}
		run[i] = need_run = true;
	}
	return need_run;
}

int reference_load(struct engine *e, struct strbuf *err)
{
	char **paths = xcalloc((size_t)e->nproblems + 1, sizeof(char *));
	bool *run = xcalloc((size_t)e->nproblems + 1, sizeof(bool));
	uint64_t started = now_us();
	int ret = -1;

	e->reference_cached = !from_cache(e, paths, run);
	for (int l = 0; languages[l]; l++) {
		bool any = false;
		for (int i = 0; i < e->nproblems; i++)
			any |= run[i] && e->problems[i]->lang == languages[l];
		if (any && measure_language(e, languages[l], paths, run, err) < 0)
			goto cleanup;
	}
	e->ref_loaded = true;
	e->reference_seconds = (double)(now_us() - started) / 1e6;
	ret = 0;
cleanup:
	for (int i = 0; i < e->nproblems; i++)
		free(paths[i]);
	free(paths);
	free(run);
	return ret;
}

void reference_lend(struct engine *dst, struct reference_answers *ra)
{
	dst->ref = ra;
	dst->ref_loaded = true;
	dst->ref_borrowed = true;
}
