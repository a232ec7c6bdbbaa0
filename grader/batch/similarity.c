/* similarity.c - see similarity.h */
#define _GNU_SOURCE
#include "batch/similarity.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/jsontext.h"
#include "batch/tokens.h"

#define PRINT_MASK ((1ULL << 53) - 1) /* exact in every JSON reader */

/* ---- fingerprints ---- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The hash of the run of SIMILARITY_K tokens starting at t. */
static uint64_t run_hash(const uint64_t *t)
{
	uint64_t h = 0;
	for (int i = 0; i < SIMILARITY_K; i++)
		h = (h ^ t[i]) * 0x100000001b3ULL + (h >> 29);
	return h & PRINT_MASK;
}

/*
 * Winnowing: in every window of SIMILARITY_W consecutive run hashes keep the
 * smallest (the rightmost on a tie); a file shorter than one window keeps
 * its smallest.  Then sorted and made distinct: the file's fingerprints.
 */
static void winnow(struct sim_file *f, const struct token_stream *ts)
{
	size_t nruns = ts->n >= SIMILARITY_K ? ts->n - SIMILARITY_K + 1 : 0, w = SIMILARITY_W, last = (size_t)-1;
	uint64_t *runs, *out;
	int n = 0;

	if (!nruns)
		return;
	runs = xcalloc(nruns, sizeof(*runs));
	out = xcalloc(nruns, sizeof(*out));
	for (size_t i = 0; i < nruns; i++)
		runs[i] = run_hash(&ts->v[i]);
	if (w > nruns)
		w = nruns;
	for (size_t start = 0; start + w <= nruns; start++) {
		size_t min = start;
		for (size_t i = start; i < start + w; i++)
			if (runs[i] <= runs[min])
				min = i;
		if (min != last)
			out[n++] = runs[min];
		last = min;
	}
	qsort(out, (size_t)n, sizeof(*out), cmp_u64);
	f->nprints = 0;
	for (int i = 0; i < n; i++)
		if (!f->nprints || out[f->nprints - 1] != out[i])
			out[f->nprints++] = out[i];
	f->prints = out;
	free(runs);
}

/* Read at most SIMILARITY_MAX_BYTES of path, never following a link. */
static int read_head(struct strbuf *sb, const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t got;
	if (fd < 0)
		return -1;
	strbuf_grow(sb, SIMILARITY_MAX_BYTES);
	while (sb->len < SIMILARITY_MAX_BYTES &&
	       (got = read(fd, sb->buf + sb->len, SIMILARITY_MAX_BYTES - sb->len)) != 0) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			return -1;
		}
		sb->len += (size_t)got;
	}
	sb->buf[sb->len] = '\0';
	close(fd);
	return 0;
}

int sim_file_make(struct sim_file *f, const char *problem, const char *path, enum token_flavour flavour,
		  struct strbuf *err)
{
	struct token_stream ts = TOKEN_STREAM_INIT;
	struct strbuf src = STRBUF_INIT;
	struct digest d;
	const char *base = strrchr(path, '/');

	memset(f, 0, sizeof(*f));
	if (read_head(&src, path) < 0) {
		strbuf_addf(err, "cannot read '%s': %s", path, strerror(errno));
		strbuf_release(&src);
		return -1;
	}
	f->problem = xstrdup(problem);
	f->file = xstrdup(base ? base + 1 : path);
	digest_init(&d);
	digest_add(&d, src.buf, src.len);
	digest_hex(&d, f->bytes);
	tokenize(&ts, flavour, src.buf, src.len);
	f->tokens = (int)ts.n;
	digest_init(&d);
	digest_add(&d, ts.v, ts.n * sizeof(*ts.v));
	digest_hex(&d, f->normalised);
	winnow(f, &ts);
	token_stream_release(&ts);
	strbuf_release(&src);
	return 0;
}

void sim_file_release(struct sim_file *f)
{
	free(f->problem);
	free(f->file);
	free(f->prints);
	memset(f, 0, sizeof(*f));
}

void sim_files_free(struct sim_file *files, int n)
{
	for (int i = 0; i < n; i++)
		sim_file_release(&files[i]);
	free(files);
}

/* ---- the stored record ---- */

static char *record_path(const char *outdir, const char *id)
{
	return xasprintf("%s/" SIMILARITY_DIR "/%s.json", outdir, id);
}

static json_t *file_json(const struct sim_file *f)
{
	json_t *o = json_object(), *prints = json_array();
	json_object_set_new(o, "problem", json_text(f->problem));
	json_object_set_new(o, "file", json_text(f->file));
	json_object_set_new(o, "tokens", json_integer(f->tokens));
	json_object_set_new(o, "bytes", json_string(f->bytes));
	json_object_set_new(o, "normalised", json_string(f->normalised));
	for (int i = 0; i < f->nprints; i++)
		json_array_append_new(prints, json_integer((json_int_t)f->prints[i]));
	json_object_set_new(o, "fingerprints", prints);
	return o;
}

int similarity_write(const char *outdir, const char *id, const struct sim_file *files, int n, struct strbuf *err)
{
	json_t *root = json_object(), *arr = json_array();
	char *path = record_path(outdir, id), *text;
	int ret = -1;

	json_object_set_new(root, "format", json_string("combgrader-similarity-1"));
	for (int i = 0; i < n; i++)
		json_array_append_new(arr, file_json(&files[i]));
	json_object_set_new(root, "files", arr);
	text = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
	if (!text)
		strbuf_addf(err, "cannot encode '%s'", path);
	else if (write_file_atomic(path, text, strlen(text)) < 0)
		strbuf_addf(err, "cannot write '%s': %s", path, strerror(errno));
	else
		ret = 0;
	free(text);
	free(path);
	json_decref(root);
	return ret;
}

static void copy_hex(char out[DIGEST_HEX_SIZE], json_t *v)
{
	const char *s = json_string_value(v);
	snprintf(out, DIGEST_HEX_SIZE, "%s", s ? s : "");
}

/* One entry of "files"; -1 when it is not one this grader wrote. */
static int file_from_json(struct sim_file *f, json_t *o)
{
	json_t *prints = json_object_get(o, "fingerprints");
	const char *problem = json_string_value(json_object_get(o, "problem"));
	const char *file = json_string_value(json_object_get(o, "file"));

	memset(f, 0, sizeof(*f));
	if (!problem || !file || !json_is_array(prints))
		return -1;
	f->problem = xstrdup(problem);
	f->file = xstrdup(file);
	f->tokens = (int)json_integer_value(json_object_get(o, "tokens"));
	copy_hex(f->bytes, json_object_get(o, "bytes"));
	copy_hex(f->normalised, json_object_get(o, "normalised"));
	f->prints = xcalloc(json_array_size(prints) + 1, sizeof(*f->prints));
	for (size_t i = 0; i < json_array_size(prints); i++)
		f->prints[f->nprints++] = (uint64_t)json_integer_value(json_array_get(prints, i));
	return 0;
}

int similarity_read(const char *outdir, const char *id, struct sim_file **files, int *n)
{
	char *path = record_path(outdir, id);
	json_t *root = json_load_file(path, 0, NULL), *arr = json_object_get(root, "files");
	int ret = -1;

	*files = NULL;
	*n = 0;
	if (!root || !json_is_array(arr))
		goto cleanup;
	*files = xcalloc(json_array_size(arr) + 1, sizeof(**files));
	for (size_t i = 0; i < json_array_size(arr); i++)
		if (file_from_json(&(*files)[*n], json_array_get(arr, i)) == 0)
			(*n)++;
	ret = 0;
cleanup:
	json_decref(root);
	free(path);
	return ret;
}

void similarity_remove(const char *outdir, const char *id)
{
	char *path = record_path(outdir, id);
	unlink(path);
	free(path);
}

/* ---- pairs ---- */

/* Fingerprints in more than max(SIMILARITY_COMMON_MIN, n / 2) files: starter code, the idiom everybody writes. */
static void find_common(const struct sim_file *const *files, int n, uint64_t **common, int *ncommon)
{
	size_t total = 0, k = 0;
	int limit = n / 2 > SIMILARITY_COMMON_MIN ? n / 2 : SIMILARITY_COMMON_MIN;
	uint64_t *all;

	for (int i = 0; i < n; i++)
		total += (size_t)files[i]->nprints;
	all = xcalloc(total + 1, sizeof(*all));
	for (int i = 0; i < n; i++) {
		memcpy(all + k, files[i]->prints, (size_t)files[i]->nprints * sizeof(*all));
		k += (size_t)files[i]->nprints;
	}
	qsort(all, total, sizeof(*all), cmp_u64);
	*common = xcalloc(total + 1, sizeof(**common));
	*ncommon = 0;
	for (size_t i = 0, j; i < total; i = j) {
		for (j = i; j < total && all[j] == all[i]; j++)
			;
		if ((int)(j - i) > limit)
			(*common)[(*ncommon)++] = all[i];
	}
	free(all);
}

/* A file's fingerprints without the common ones (a new sorted array). */
static uint64_t *without_common(const struct sim_file *f, const uint64_t *common, int ncommon, int *n)
{
	uint64_t *out = xcalloc((size_t)f->nprints + 1, sizeof(*out));
	*n = 0;
	for (int i = 0; i < f->nprints; i++)
		if (!bsearch(&f->prints[i], common, (size_t)ncommon, sizeof(*common), cmp_u64))
			out[(*n)++] = f->prints[i];
	return out;
}

static int count_shared(const uint64_t *x, int nx, const uint64_t *y, int ny)
{
	int i = 0, j = 0, shared = 0;
	while (i < nx && j < ny) {
		if (x[i] == y[j]) {
			shared++;
			i++;
			j++;
		} else if (x[i] < y[j]) {
			i++;
		} else {
			j++;
		}
	}
	return shared;
}

static double pair_share(const struct sim_pair *p)
{
	return p->share_a > p->share_b ? p->share_a : p->share_b;
}

static int cmp_pairs(const void *x, const void *y)
{
	const struct sim_pair *a = x, *b = y;
	double sa = pair_share(a), sb = pair_share(b);
	if (a->kind != b->kind)
		return (int)a->kind - (int)b->kind;
	if (sa != sb)
		return sa > sb ? -1 : 1;
	if (a->a != b->a)
		return a->a - b->a;
	return a->b - b->b;
}

/* Is the pair (i, j) to be flagged?  Fills *p when it is. */
static bool compare_two(const struct sim_file *const *files, uint64_t *const *prints, const int *nprints, int i,
			int j, struct sim_pair *p)
{
	memset(p, 0, sizeof(*p));
	p->a = i;
	p->b = j;
	p->shared = count_shared(prints[i], nprints[i], prints[j], nprints[j]);
	p->share_a = nprints[i] ? (double)p->shared / nprints[i] : 0;
	p->share_b = nprints[j] ? (double)p->shared / nprints[j] : 0;
	if (!strcmp(files[i]->bytes, files[j]->bytes))
		p->kind = SIM_IDENTICAL;
	else if (!strcmp(files[i]->normalised, files[j]->normalised))
		p->kind = SIM_NORMALISED;
	else if (pair_share(p) >= SIMILARITY_THRESHOLD)
		p->kind = SIM_SIMILAR;
	else
		return false;
	return true;
}

int similarity_pairs(const struct sim_file *const *files, int n, struct sim_pair **pairs, int *compared)
{
	uint64_t *common, **prints = xcalloc((size_t)n + 1, sizeof(*prints));
	int ncommon, *nprints = xcalloc((size_t)n + 1, sizeof(int)), npairs = 0;
	size_t alloc = 0;

	*pairs = NULL;
	*compared = 0;
	find_common(files, n, &common, &ncommon);
	for (int i = 0; i < n; i++) {
		prints[i] = without_common(files[i], common, ncommon, &nprints[i]);
		*compared += files[i]->tokens >= SIMILARITY_MIN_TOKENS;
	}
	for (int i = 0; i < n; i++) {
		if (files[i]->tokens < SIMILARITY_MIN_TOKENS)
			continue;
		for (int j = i + 1; j < n; j++) {
			struct sim_pair p;
			if (files[j]->tokens < SIMILARITY_MIN_TOKENS || !compare_two(files, prints, nprints, i, j, &p))
				continue;
			ALLOC_GROW(*pairs, npairs + 1, alloc);
			(*pairs)[npairs++] = p;
		}
	}
	if (npairs)
		qsort(*pairs, (size_t)npairs, sizeof(**pairs), cmp_pairs);
	for (int i = 0; i < n; i++)
		free(prints[i]);
	free(prints);
	free(nprints);
	free(common);
	return npairs;
}
