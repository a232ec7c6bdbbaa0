/*
 * batch.c - `grader batch` and `grader merge`: the class list, shards,
 * fingerprints, the output directory, and grading one student inside a
 * worker.  The workers themselves are in batch_run.c; the gradebook
 * (grades.csv, summary.html) in gradebook.c.  See batch.h.
 */
#define _GNU_SOURCE
#include "batch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch_archive.h"
#include "runner.h"
#include "sandbox.h"
#include "version.h"

#define FINGERPRINT_READ_CAP (256ull << 20)  /* bytes of one submission hashed in full */
#define DESCEND_LEVELS 3                     /* alice.zip -> alice/ -> hw3/ -> files */
#define MISSING_REASON "not graded (the batch stopped before this student: run it again with --resume)"

/* ---- the class ---- */

static bool valid_utf8(const char *s)
{
	json_t *j = json_string(s);
	if (!j)
		return false;
	json_decref(j);
	return true;
}

static int cmp_student(const void *a, const void *b)
{
	const struct student *x = a, *y = b;
	int c = strcmp(x->id, y->id);
	return c ? c : strcmp(x->name, y->name);
}

static void student_release(struct student *s)
{
	free(s->id);
	free(s->name);
	free(s->path);
	free(s->unusable);
}

/*
 * Every folder and archive of dir is a student, sorted by id.  Hidden
 * entries, __MACOSX and the output directory itself are skipped; two
 * entries for one id (alice/ and alice.zip) make one unusable row.
 */
static int collect_students(const char *dir, const char *outdir, struct student **out, int *count, struct strbuf *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct stat out_st;
	bool have_out = stat(outdir, &out_st) == 0;
	struct student *list = NULL;
	size_t alloc = 0;
	int n = 0, kept = 0;

	if (!d) {
		strbuf_addf(err, "cannot read the submissions directory '%s': %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		const char *name = de->d_name;
		struct stat st;
		size_t stem;
		char *path, *id = NULL;
		bool archive = false;

		if (name[0] == '.' || !strcmp(name, "__MACOSX"))
			continue;
		path = xasprintf("%s/%s", dir, name);
		if (stat(path, &st) < 0) {
			warning("ignoring '%s': %s", path, strerror(errno));
		} else if (have_out && st.st_dev == out_st.st_dev && st.st_ino == out_st.st_ino) {
			; /* the output directory inside the submissions */
		} else if (S_ISDIR(st.st_mode)) {
			id = xstrdup(name);
		} else if (S_ISREG(st.st_mode) && unpack_is_archive(name, &stem) && stem > 0) {
			id = xstrndup(name, stem);
			archive = true;
		} else {
			warning("ignoring '%s': not a folder, .zip or .tar.gz", path);
		}
		if (id && (!valid_utf8(id) || strpbrk(id, "\r\n\t"))) {
			warning("ignoring '%s': rename it (the name is not valid UTF-8 or has control characters)", path);
			free(id);
			id = NULL;
		}
		if (!id) {
			free(path);
			continue;
		}
		ALLOC_GROW(list, n + 1, alloc);
		memset(&list[n], 0, sizeof(list[n]));
		list[n].id = id;
		list[n].name = xstrdup(name);
		list[n].path = path;
		list[n].archive = archive;
		n++;
	}
	closedir(d);
	if (n)
		qsort(list, (size_t)n, sizeof(*list), cmp_student);
	for (int i = 0; i < n; i++) {
		if (kept && !strcmp(list[kept - 1].id, list[i].id)) {
			struct student *k = &list[kept - 1];
			char *why = xasprintf("%s%s'%s'", k->unusable ? k->unusable : "more than one submission: ",
					      k->unusable ? ", " : "", list[i].name);
			if (!k->unusable) {
				free(why);
				why = xasprintf("more than one submission: '%s', '%s'", k->name, list[i].name);
			}
			free(k->unusable);
			k->unusable = why;
			student_release(&list[i]);
			continue;
		}
		list[kept++] = list[i];
	}
	*out = list;
	*count = kept;
	return 0;
}

/* ---- fingerprints ---- */

static void hash_file(struct hash128 *h, const char *path, unsigned long long *budget)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	char buf[64 << 10];
	ssize_t n;

	if (fd < 0) {
		hash_add(h, "?", 1);
		return;
	}
	while (*budget && (n = read(fd, buf, *budget < sizeof(buf) ? (size_t)*budget : sizeof(buf))) > 0) {
		hash_add(h, buf, (size_t)n);
		*budget -= (unsigned long long)n;
	}
	close(fd);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names, types, sizes and contents of everything below dir; never follows a link. */
static void hash_tree(struct hash128 *h, const char *dir, int depth, unsigned long long *budget)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t alloc = 0;
	int n = 0;

	if (!d) {
		hash_add(h, "!", 1);
		return;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		ALLOC_GROW(names, n + 1, alloc);
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, (size_t)n, sizeof(char *), cmp_str);
	for (int i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]);
		char tag[64];
		struct stat st;
		hash_add(h, names[i], strlen(names[i]) + 1);
		if (lstat(path, &st) < 0) {
			hash_add(h, "?", 1);
		} else if (S_ISREG(st.st_mode)) {
			snprintf(tag, sizeof(tag), "F%lld", (long long)st.st_size);
			hash_add(h, tag, strlen(tag) + 1);
			hash_file(h, path, budget);
		} else if (S_ISDIR(st.st_mode)) {
			hash_add(h, "D", 2);
			if (depth < 32)
				hash_tree(h, path, depth + 1, budget);
		} else if (S_ISLNK(st.st_mode)) {
			char target[4096];
			ssize_t l = readlink(path, target, sizeof(target));
			hash_add(h, "L", 2);
			if (l > 0)
				hash_add(h, target, (size_t)l);
		} else {
			snprintf(tag, sizeof(tag), "O%o", (unsigned)st.st_mode);
			hash_add(h, tag, strlen(tag) + 1);
		}
		hash_add(h, "/", 1);
		free(path);
		free(names[i]);
	}
	free(names);
}

/*
 * What a result depends on besides the submission: the grader's version,
 * the selected problems' files, the reference sources, the report options.
 */
static void problem_key(const struct batch *b, char out[33])
{
	const struct engine *e = &b->engine;
	struct hash128 h;
	char flags[8];

	hash_init(&h);
	hash_add(&h, "combgrader-batch-1", 19);
	hash_add(&h, GRADER_VERSION, sizeof(GRADER_VERSION));
	snprintf(flags, sizeof(flags), "%d%d", b->report.show_hidden, b->report.verbose);
	hash_add(&h, flags, strlen(flags) + 1);
	for (int i = 0; i < e->nproblems; i++) {
		const struct problem *p = e->problems[i];
		char *file = build_find_source(e->opts.reference_dir, p->source);
		hash_add(&h, p->id, strlen(p->id) + 1);
		hash_add(&h, p->digest, sizeof(p->digest));
		if (file) {
			struct strbuf src = STRBUF_INIT;
			char *path = xasprintf("%s/%s", e->opts.reference_dir, file);
			if (read_file(&src, path) == 0)
				hash_add(&h, src.buf, src.len);
			strbuf_release(&src);
			free(path);
			free(file);
		}
		hash_add(&h, "\n", 1);
	}
	hash_hex(&h, out);
}

static void student_fingerprint(struct student *s, const char *key)
{
	struct hash128 h;
	unsigned long long budget = FINGERPRINT_READ_CAP;
	hash_init(&h);
	hash_add(&h, key, strlen(key));
	hash_add(&h, s->name, strlen(s->name) + 1);
	if (s->archive)
		hash_file(&h, s->path, &budget);
	else
		hash_tree(&h, s->path, 0, &budget);
	hash_hex(&h, s->fingerprint);
}

static void class_key(const struct student *all, int n, char out[33])
{
	struct hash128 h;
	hash_init(&h);
	for (int i = 0; i < n; i++)
		hash_add(&h, all[i].id, strlen(all[i].id) + 1);
	hash_hex(&h, out);
}

/* ---- the output directory ---- */

static bool dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	bool empty = true;
	if (!d)
		return false;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = false;
	closedir(d);
	return empty;
}

/* write_file_atomic's temporary files ("x.tmp.1234") left by a killed run */
static void remove_temporaries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	if (!d)
		return;
	while ((de = readdir(d))) {
		const char *t = strstr(de->d_name, ".tmp.");
		if (t && t[5] && strspn(t + 5, "0123456789") == strlen(t + 5))
			unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
}

/*
 * Make sure outdir is new (then create it), empty, or an earlier batch's
 * output: anything else is refused, so a typo never mixes grades into a
 * random directory.  Changes nothing in an existing directory.  *usage: the
 * user's fault.
 */
static int claim_outdir(const char *outdir, struct strbuf *err, bool *usage)
{
	char *manifest = xasprintf("%s/" GRADEBOOK_MANIFEST, outdir);
	struct stat st;
	int ret = -1;

	*usage = false;
	if (stat(outdir, &st) == 0) {
		if (!S_ISDIR(st.st_mode) || (access(manifest, F_OK) < 0 && !dir_is_empty(outdir))) {
			strbuf_addf(err, "'%s' is not empty and not the output of a batch: choose a new directory",
				    outdir);
			*usage = true;
			goto cleanup;
		}
	} else if (mkdir_p(outdir, 0755) < 0) {
		strbuf_addf(err, "cannot create '%s': %s", outdir, strerror(errno));
		goto cleanup;
	}
	ret = 0;
cleanup:
	free(manifest);
	return ret;
}

/*
 * Ready a claimed outdir for this run: without keep, earlier results are
 * removed; the gradebook always is, so it is only ever there when it
 * matches the results.
 */
static int reset_outdir(const char *outdir, bool keep, struct strbuf *err)
{
	static const char *const subdirs[] = { "students", "state", NULL };

	for (int i = 0; subdirs[i]; i++) {
		char *path = xasprintf("%s/%s", outdir, subdirs[i]);
		if (!keep)
			remove_tree(path);
		if (mkdir(path, 0755) < 0 && errno != EEXIST) {
			strbuf_addf(err, "cannot create '%s': %s", path, strerror(errno));
			free(path);
			return -1;
		}
		remove_temporaries(path);
		free(path);
	}
	remove_temporaries(outdir);
	for (int i = 0; i < 2; i++) {
		char *path = xasprintf("%s/%s", outdir, i ? "summary.html" : "grades.csv");
		if (unlink(path) < 0 && errno != ENOENT) {
			strbuf_addf(err, "cannot remove '%s': %s", path, strerror(errno));
			free(path);
			return -1;
		}
		free(path);
	}
	return 0;
}

static char *student_file(const struct batch *b, const char *id, const char *ext)
{
	return xasprintf("%s/students/%s.%s", b->outdir, id, ext);
}

int batch_write_failure(struct batch *b, int i, const char *reason, bool retry)
{
	const struct student *s = &b->students[i];
	struct student_state st;
	struct strbuf err = STRBUF_INIT;
	int ret;

	memset(&st, 0, sizeof(st));
	for (int k = 0; k < 2; k++) {
		char *path = student_file(b, s->id, k ? "txt" : "json");
		unlink(path);
		free(path);
	}
	st.id = s->id;
	st.input = s->name;
	st.fingerprint = (char *)s->fingerprint;
	st.status = xasprintf("error: %s", reason);
	gradebook_one_line(st.status);
	st.retry = retry;
	ret = state_write(b->outdir, &b->manifest, &st, &err);
	if (ret < 0)
		error("%s", err.buf);
	free(st.status);
	strbuf_release(&err);
	return ret;
}

/* ---- one student, inside a worker ---- */

/* The folder to grade: descend while there is no problem file but exactly one subfolder. */
static char *submission_root(const struct engine *e, const char *dir)
{
	char *cur = xstrdup(dir);
	for (int level = 0; level < DESCEND_LEVELS; level++) {
		DIR *d;
		struct dirent *de;
		char *only = NULL, *next;
		int subdirs = 0;
		for (int i = 0; i < e->nproblems; i++) {
			char *f = build_find_source(cur, e->problems[i]->source);
			if (f) {
				free(f);
				return cur;
			}
		}
		d = opendir(cur);
		if (!d)
			break;
		while ((de = readdir(d))) {
			struct stat st;
			if (de->d_name[0] == '.' || !strcmp(de->d_name, "__MACOSX"))
				continue;
			if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
				subdirs++;
				free(only);
				only = xstrdup(de->d_name);
			}
		}
		closedir(d);
		if (subdirs != 1) {
			free(only);
			break;
		}
		next = xasprintf("%s/%s", cur, only);
		free(only);
		free(cur);
		cur = next;
	}
	return cur;
}

static int render(report_writer write, const struct grade_result *r, const struct report_options *o,
		  struct strbuf *out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;
	if (!f)
		return -1;
	ret = write(f, r, o);
	if (fclose(f) != 0)
		ret = -1;
	if (!ret)
		strbuf_add(out, buf, len);
	free(buf);
	return ret;
}

static int write_reports(struct batch *b, const struct student *s, const struct grade_result *r, struct strbuf *err)
{
	struct strbuf json = STRBUF_INIT, text = STRBUF_INIT;
	char *jpath = student_file(b, s->id, "json"), *tpath = student_file(b, s->id, "txt");
	int ret = -1;

	if (render(report_json, r, &b->report, &json) < 0 || render(report_text, r, &b->report, &text) < 0) {
		strbuf_addstr(err, "cannot render the reports");
		goto cleanup;
	}
	if (write_file_atomic(jpath, json.buf, json.len) < 0 || write_file_atomic(tpath, text.buf, text.len) < 0) {
		strbuf_addf(err, "cannot write the reports in '%s/students': %s", b->outdir, strerror(errno));
		goto cleanup;
	}
	ret = 0;
cleanup:
	strbuf_release(&json);
	strbuf_release(&text);
	free(jpath);
	free(tpath);
	return ret;
}

int batch_grade_student(struct batch *b, struct engine *e, int i)
{
	struct student *s = &b->students[i];
	struct unpack_limits lim = UNPACK_LIMITS_INIT;
	struct strbuf err = STRBUF_INIT, status = STRBUF_INIT;
	struct grade_result r;
	struct student_state st;
	bool have_result = false;
	char *unpacked = NULL, *root = NULL;
	uint64_t started = now_us();
	int ret = 0;

	memset(&st, 0, sizeof(st));
	if (b->crash_id && !strcmp(b->crash_id, s->id))
		kill(getpid(), SIGKILL);
	if (s->unusable) {
		batch_write_failure(b, i, s->unusable, false);
		goto cleanup;
	}
	if (s->archive) {
		unpacked = xasprintf("%s/in-%d", e->scratch, i);
		remove_tree(unpacked);
		if (unpack_archive(s->path, unpacked, &lim, &err) < 0) {
			char *why = xasprintf("archive rejected: %s", err.buf);
			batch_write_failure(b, i, why, false);
			free(why);
			goto cleanup;
		}
	}
	root = submission_root(e, unpacked ? unpacked : s->path);
	if (engine_grade(e, root, &r, &err) < 0) {
		if (grader_interrupted) {
			ret = -1;
			goto cleanup;
		}
		batch_write_failure(b, i, err.buf, true);
		goto cleanup;
	}
	have_result = true;
	/* the report names the submission as handed in, not the unpacked copy */
	free(r.submission);
	r.submission = xstrdup(s->path);
	if (write_reports(b, s, &r, &err) < 0) {
		batch_write_failure(b, i, err.buf, true);
		goto cleanup;
	}
	st.id = s->id;
	st.input = s->name;
	st.fingerprint = s->fingerprint;
	gradebook_status(&status, &r, &st.retry);
	gradebook_one_line(status.buf);
	st.status = status.buf;
	st.graded = true;
	st.score = r.score;
	st.scores = xcalloc((size_t)r.nproblems + 1, sizeof(double));
	for (int p = 0; p < r.nproblems; p++) {
		st.scores[p] = r.problems[p].score;
		st.compile_ms += r.problems[p].compile_ms;
		for (int k = 0; k < r.problems[p].ntests; k++)
			st.cpu_ms += r.problems[p].tests[k].time_ms;
	}
	st.seconds = (double)(now_us() - started) / 1e6;
	if (state_write(b->outdir, &b->manifest, &st, &err) < 0)
		error("%s", err.buf);
	free(st.scores);
cleanup:
	if (have_result)
		grade_result_release(&r);
	if (unpacked) {
		remove_tree(unpacked);
		free(unpacked);
	}
	free(root);
	strbuf_release(&err);
	strbuf_release(&status);
	return ret;
}

/* ---- grader batch ---- */

/* Done already (--resume): a state record for this very input and problem set, and its reports. */
static bool already_graded(const struct batch *b, const struct student *s)
{
	struct student_state st;
	bool done;
	if (state_read(b->outdir, s->id, &b->manifest, &st) < 0)
		return false;
	done = !st.retry && !strcmp(st.fingerprint, s->fingerprint);
	for (int k = 0; done && st.graded && k < 2; k++) {
		char *path = student_file(b, s->id, k ? "txt" : "json");
		done = access(path, F_OK) == 0;
		free(path);
	}
	student_state_release(&st);
	return done;
}

/* The per-student deadline: everything the limits allow one test slot, and then some. */
static double student_deadline(const struct engine *e)
{
	const char *env = getenv("GRADER_BATCH_TIMEOUT");
	double s = 60;
	if (env && *env) {
		char *end;
		double v = strtod(env, &end);
		if (!*end && v > 0)
			return v;
		warning("ignoring GRADER_BATCH_TIMEOUT='%s' (seconds expected)", env);
	}
	for (int i = 0; i < e->nproblems; i++) {
		const struct problem *p = e->problems[i];
		s += (e->env.compile_wall_ms ? e->env.compile_wall_ms : 30000) / 1000.0 + 5;
		for (int k = 0; k < p->ncases; k++) {
			const struct group *g = &p->groups[p->cases[k].group];
			unsigned cpu = engine_cpu_limit(e, i, p->cases[k].group);
			unsigned wall = g->limits.wall_ms ? g->limits.wall_ms : cpu * 2 + 1000;
			s += (wall > cpu ? wall : cpu) / 1000.0 + 0.05;
		}
	}
	return s;
}

static void fill_manifest(struct batch *b, const char *key, const char *ckey, int class_size)
{
	struct batch_manifest *m = &b->manifest;
	const struct engine *e = &b->engine;
	m->grader_version = xstrdup(GRADER_VERSION);
	m->problem_key = xstrdup(key);
	m->class_key = xstrdup(ckey);
	m->class_size = class_size;
	m->shard_index = b->cli->shard_count ? b->cli->shard_index : 1;
	m->shard_count = b->cli->shard_count ? b->cli->shard_count : 1;
	m->nproblems = e->nproblems;
	m->problems = xcalloc((size_t)e->nproblems + 1, sizeof(*m->problems));
	for (int i = 0; i < e->nproblems; i++) {
		m->problems[i].id = xstrdup(e->problems[i]->id);
		m->problems[i].title = xstrdup(e->problems[i]->title);
		m->problems[i].max_score = e->problems[i]->max_score;
		m->problems[i].all_or_nothing = xcalloc((size_t)e->problems[i]->ngroups + 1, sizeof(char *));
		for (int g = 0; g < e->problems[i]->ngroups; g++)
			if (e->problems[i]->groups[g].scoring == SCORE_ALL_OR_NOTHING)
				m->problems[i].all_or_nothing[m->problems[i].nall_or_nothing++] =
					xstrdup(e->problems[i]->groups[g].name);
	}
	m->nids = b->nstudents;
	m->ids = xcalloc((size_t)b->nstudents + 1, sizeof(char *));
	for (int i = 0; i < b->nstudents; i++)
		m->ids[i] = xstrdup(b->students[i].id);
}

static void batch_release(struct batch *b)
{
	if (b->tmp) {
		remove_tree(b->tmp);
		free(b->tmp);
	}
	if (b->have_engine)
		engine_release(&b->engine);
	manifest_release(&b->manifest);
	for (int i = 0; i < b->nstudents; i++)
		student_release(&b->students[i]);
	free(b->students);
	free(b->todo);
	problem_set_release(&b->set); /* last: the engine borrowed it */
}

static void print_duration(FILE *out, double s)
{
	long t = (long)(s + 0.5);
	if (t >= 3600)
		fprintf(out, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		fprintf(out, "%ld:%02ld", t / 60, t % 60);
}

int cmd_batch(struct cli *cli)
{
	struct batch b;
	struct engine_options opts;
	struct strbuf err = STRBUF_INIT;
	struct student *all = NULL;
	struct gradebook_totals totals;
	const char *hidden[3];
	char key[33], ckey[33];
	const char *tmpenv = getenv("TMPDIR");
	int nall = 0, ret = GRADER_EXIT_INTERNAL, resumed = 0;
	bool usage = false;
	uint64_t started = now_us();

	memset(&b, 0, sizeof(b));
	b.cli = cli;
	b.parent = getpid();
	if (cli->nargs != 1 || !cli->output) {
		error("usage: grader batch SUBMISSIONS -o OUTDIR [-j N] [--resume] [--shard I/N] [--problems DIR] "
		      "[--reference DIR] [--only IDS]");
		return GRADER_EXIT_USAGE;
	}
	b.submissions = cli->args[0];
	b.outdir = cli->output;
	b.crash_id = getenv("GRADER_TEST_BATCH_CRASH");
	b.report.color = false;
	b.report.show_hidden = cli->show_hidden;
	b.report.verbose = cli->verbose;
	b.report.version = GRADER_VERSION;
	if (access(b.submissions, R_OK | X_OK) < 0) {
		error("cannot open the submissions directory '%s': %s", b.submissions, strerror(errno));
		return GRADER_EXIT_USAGE;
	}
	if (cli_load_problems(cli, &b.set) < 0) {
		ret = GRADER_EXIT_USAGE;
		goto cleanup;
	}
	if (claim_outdir(b.outdir, &err, &usage) < 0) {
		error("%s", err.buf);
		ret = usage ? GRADER_EXIT_USAGE : GRADER_EXIT_INTERNAL;
		goto cleanup;
	}
	if (collect_students(b.submissions, b.outdir, &all, &nall, &err) < 0) {
		error("%s", err.buf);
		ret = GRADER_EXIT_USAGE;
		goto cleanup;
	}
	class_key(all, nall, ckey);
	/* the shard rule: the i-th student (0-based, sorted by id) belongs to shard i mod N + 1 */
	b.students = xcalloc((size_t)nall + 1, sizeof(*b.students));
	for (int i = 0; i < nall; i++) {
		if (!cli->shard_count || i % cli->shard_count == cli->shard_index - 1)
			b.students[b.nstudents++] = all[i];
		else
			student_release(&all[i]);
	}
	free(all);
	all = NULL;

	cli_engine_options(cli, &opts, &b.set);
	hidden[0] = b.outdir;
	hidden[1] = b.submissions;
	hidden[2] = NULL;
	opts.extra_hidden = hidden;
	sandbox_warn_once(SANDBOX_CLASS);
	if (engine_init(&b.engine, &opts, &err, &usage) < 0) {
		b.have_engine = true;
		error("%s", err.buf);
		ret = usage ? GRADER_EXIT_USAGE : GRADER_EXIT_INTERNAL;
		goto cleanup;
	}
	b.have_engine = true;
	if (engine_load_reference(&b.engine, &err) < 0) {
		error("%s", err.buf);
		goto cleanup;
	}
	/* only now, with the problems and the reference known good, touch earlier results */
	if (reset_outdir(b.outdir, cli->resume, &err) < 0) {
		error("%s", err.buf);
		goto cleanup;
	}
	problem_key(&b, key);
	for (int i = 0; i < b.nstudents; i++)
		student_fingerprint(&b.students[i], key);
	fill_manifest(&b, key, ckey, nall);
	if (manifest_write(b.outdir, &b.manifest, &err) < 0) {
		error("%s", err.buf);
		goto cleanup;
	}

	b.todo = xcalloc((size_t)b.nstudents + 1, sizeof(int));
	for (int i = 0; i < b.nstudents; i++) {
		if (cli->resume && already_graded(&b, &b.students[i]))
			resumed++;
		else
			b.todo[b.ntodo++] = i;
	}
	b.nworkers = cli->jobs > 0 ? cli->jobs : cpu_count();
	if (b.nworkers > b.ntodo)
		b.nworkers = b.ntodo;
	b.worker_jobs = b.nworkers ? cpu_count() / b.nworkers : 1;
	if (b.worker_jobs < 1)
		b.worker_jobs = 1;
	b.deadline_s = student_deadline(&b.engine);
	fprintf(stderr, "grader: %d student%s", b.nstudents, b.nstudents == 1 ? "" : "s");
	if (cli->shard_count)
		fprintf(stderr, " (shard %d/%d of a class of %d)", cli->shard_index, cli->shard_count, nall);
	if (resumed)
		fprintf(stderr, ", %d already graded", resumed);
	fprintf(stderr, ": grading %d with %d worker%s\n", b.ntodo, b.nworkers, b.nworkers == 1 ? "" : "s");

	if (b.ntodo) {
		b.tmp = xasprintf("%s/grader-batch.XXXXXX", tmpenv && *tmpenv == '/' ? tmpenv : "/tmp");
		if (!mkdtemp(b.tmp)) {
			error("cannot create a scratch directory '%s': %s", b.tmp, strerror(errno));
			free(b.tmp);
			b.tmp = NULL;
			goto cleanup;
		}
		chmod(b.tmp, 0711);
		if (batch_run(&b) < 0) {
			if (grader_interrupted) {
				ret = 130;
				error("interrupted: the students graded so far are saved in '%s'; run the same command "
				      "with --resume to finish", b.outdir);
			}
			goto cleanup;
		}
	}
	if (gradebook_write(b.outdir, &b.manifest, MISSING_REASON, &totals, &err) < 0) {
		error("%s", err.buf);
		goto cleanup;
	}
	fprintf(stderr, "grader: %d of %d student%s graded", totals.graded, totals.students,
		totals.students == 1 ? "" : "s");
	if (totals.errors)
		fprintf(stderr, " (%d row%s with status 'error: ...')", totals.errors, totals.errors == 1 ? "" : "s");
	fputs(" in ", stderr);
	print_duration(stderr, (double)(now_us() - started) / 1e6);
	fprintf(stderr, "; wrote %s/grades.csv and %s/summary.html\n", b.outdir, b.outdir);
	ret = totals.errors ? GRADER_EXIT_FAILED : GRADER_EXIT_OK;
cleanup:
	for (int i = 0; all && i < nall; i++)
		student_release(&all[i]);
	free(all);
	batch_release(&b);
	strbuf_release(&err);
	return ret;
}

/* ---- grader merge ---- */

static int copy_file(const char *from, const char *to, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;
	if (read_file(&sb, from) < 0) {
		if (errno != ENOENT) {
			strbuf_addf(err, "cannot read '%s': %s", from, strerror(errno));
			ret = -1;
		}
	} else if (write_file_atomic(to, sb.buf, sb.len) < 0) {
		strbuf_addf(err, "cannot write '%s': %s", to, strerror(errno));
		ret = -1;
	}
	strbuf_release(&sb);
	return ret;
}

/* Do the shard outputs belong together, and is every shard there exactly once? */
static int check_shards(char **dirs, const struct batch_manifest *ms, int n, struct strbuf *err)
{
	int count = ms[0].shard_count;
	bool *seen = xcalloc((size_t)count + 1, sizeof(bool));
	int ret = -1;

	for (int i = 0; i < n; i++) {
		const struct batch_manifest *m = &ms[i];
		if (strcmp(m->problem_key, ms[0].problem_key)) {
			strbuf_addf(err, "'%s' and '%s' were graded with different problems, reference, options or "
				    "grader versions", dirs[0], dirs[i]);
			goto cleanup;
		}
		if (strcmp(m->class_key, ms[0].class_key) || m->shard_count != count) {
			strbuf_addf(err, "'%s' and '%s' are not shards of one batch (different class lists or --shard N)",
				    dirs[0], dirs[i]);
			goto cleanup;
		}
		if (seen[m->shard_index]) {
			strbuf_addf(err, "shard %d/%d is given twice ('%s')", m->shard_index, count, dirs[i]);
			goto cleanup;
		}
		seen[m->shard_index] = true;
	}
	for (int k = 1; k <= count; k++)
		if (!seen[k]) {
			strbuf_addf(err, "shard %d/%d is missing", k, count);
			goto cleanup;
		}
	ret = 0;
cleanup:
	free(seen);
	return ret;
}

int cmd_merge(struct cli *cli)
{
	struct batch_manifest *ms = NULL, merged;
	struct strbuf err = STRBUF_INIT;
	struct gradebook_totals totals;
	const char *out = cli->output;
	int nread = 0, ret = GRADER_EXIT_INTERNAL, total = 0;
	bool usage = false;

	memset(&merged, 0, sizeof(merged));
	if (cli->nargs < 1 || !out) {
		error("usage: grader merge OUTDIR... -o MERGED");
		return GRADER_EXIT_USAGE;
	}
	ms = xcalloc((size_t)cli->nargs + 1, sizeof(*ms));
	for (int i = 0; i < cli->nargs; i++) {
		struct stat a, o;
		if (stat(cli->args[i], &a) == 0 && stat(out, &o) == 0 && a.st_dev == o.st_dev && a.st_ino == o.st_ino) {
			error("the merged output '%s' cannot be one of the shards", out);
			ret = GRADER_EXIT_USAGE;
			goto cleanup;
		}
		if (manifest_read(cli->args[i], &ms[i], &err) < 0) {
			error("%s", err.buf);
			ret = GRADER_EXIT_USAGE;
			goto cleanup;
		}
		nread++;
		total += ms[i].nids;
	}
	if (check_shards(cli->args, ms, cli->nargs, &err) < 0) {
		error("%s", err.buf);
		ret = GRADER_EXIT_USAGE;
		goto cleanup;
	}
	if (claim_outdir(out, &err, &usage) < 0 || reset_outdir(out, false, &err) < 0) {
		error("%s", err.buf);
		ret = usage ? GRADER_EXIT_USAGE : GRADER_EXIT_INTERNAL;
		goto cleanup;
	}
	merged.grader_version = xstrdup(ms[0].grader_version);
	merged.problem_key = xstrdup(ms[0].problem_key);
	merged.class_key = xstrdup(ms[0].class_key);
	merged.class_size = ms[0].class_size;
	merged.shard_index = merged.shard_count = 1;
	merged.nproblems = ms[0].nproblems;
	merged.problems = xcalloc((size_t)merged.nproblems + 1, sizeof(*merged.problems));
	for (int i = 0; i < merged.nproblems; i++) {
		merged.problems[i].id = xstrdup(ms[0].problems[i].id);
		merged.problems[i].title = xstrdup(ms[0].problems[i].title);
		merged.problems[i].max_score = ms[0].problems[i].max_score;
		merged.problems[i].all_or_nothing =
			xcalloc((size_t)ms[0].problems[i].nall_or_nothing + 1, sizeof(char *));
		for (int g = 0; g < ms[0].problems[i].nall_or_nothing; g++)
			merged.problems[i].all_or_nothing[merged.problems[i].nall_or_nothing++] =
				xstrdup(ms[0].problems[i].all_or_nothing[g]);
	}
	merged.ids = xcalloc((size_t)total + 1, sizeof(char *));
	for (int i = 0; i < cli->nargs; i++) {
		for (int k = 0; k < ms[i].nids; k++) {
			static const char *const files[][2] = { { "state", "json" }, { "students", "json" },
								{ "students", "txt" } };
			const char *id = ms[i].ids[k];
			for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
				char *from = xasprintf("%s/%s/%s.%s", cli->args[i], files[f][0], id, files[f][1]);
				char *to = xasprintf("%s/%s/%s.%s", out, files[f][0], id, files[f][1]);
				int r = copy_file(from, to, &err);
				free(from);
				free(to);
				if (r < 0) {
					error("%s", err.buf);
					goto cleanup;
				}
			}
			merged.ids[merged.nids++] = xstrdup(id);
		}
	}
	qsort(merged.ids, (size_t)merged.nids, sizeof(char *), cmp_str);
	if (manifest_write(out, &merged, &err) < 0 ||
	    gradebook_write(out, &merged,
			    "not graded (its shard did not finish: run that shard again with --resume, then merge)",
			    &totals, &err) < 0) {
		error("%s", err.buf);
		goto cleanup;
	}
	fprintf(stderr, "grader: merged %d shard%s: %d of %d student%s graded; wrote %s/grades.csv and "
		"%s/summary.html\n", cli->nargs, cli->nargs == 1 ? "" : "s", totals.graded, totals.students,
		totals.students == 1 ? "" : "s", out, out);
	ret = totals.errors ? GRADER_EXIT_FAILED : GRADER_EXIT_OK;
cleanup:
	for (int i = 0; i < nread; i++)
		manifest_release(&ms[i]);
	free(ms);
	manifest_release(&merged);
	strbuf_release(&err);
	return ret;
}
