/*
 * batch.c - see batch.h: the class, the output directory, the workers'
 * callbacks, progress, and merging shards.
 */
#define _GNU_SOURCE
#include "judge/reference.h"
#include "batch/batch.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "batch/batch_class.h"
#include "batch/batch_regrade.h"
#include "batch/batch_student.h"
#include "batch/batch_time.h"
#include "batch/gradebook_lms.h"
#include "base/interrupt.h"
#include "batch/similarity.h"
#include "base/text.h"
#include "base/version.h"
#include "base/workers.h"

#define WORKER_START_S 120 /* engine_init compiles the runtime */
#define MISSING_REASON "not graded (the batch stopped before this student: run it again with --resume)"
#define SHARD_MISSING_REASON "not graded (its shard did not finish: run that shard again with --resume, then merge)"

/* One run of batch_grade: what the workers' callbacks share. */
struct run {
	const struct batch_options *o;
	struct engine engine;        /* the parent's: reference answers; workers adopt them */
	struct batch_manifest manifest;
	struct report_options report;
	struct batch_output output;
	struct student *students;    /* this shard's, sorted by id; manifest.ids in the same order */
	int nstudents;
	enum lms_layout layout;      /* how the submissions were read */
	char *tmp;                   /* the workers' scratch: tmp/w<k> */
	int nworkers;
	int worker_jobs;             /* test slots per worker */
	struct progress {
		bool tty;
		int total, done, failed;
		uint64_t started;
	} progress;
};

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
	static const char *const subdirs[] = { "students", "state", SIMILARITY_DIR, BATCH_FEEDBACK_DIR, NULL };

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
	if (regrade_remove(outdir, err) < 0)
		return -1;
	for (int i = 0; i < 2; i++) {
		char *path = xasprintf("%s/%s", outdir, i ? "summary.html" : "grades.csv");
		if (unlink(path) < 0 && errno != ENOENT) {
			strbuf_addf(err, "cannot remove '%s': %s", path, strerror(errno));
			free(path);
			return -1;
		}
		free(path);
	}
	return gradebook_lms_remove(outdir, err);
}

/*
 * Done already (--resume): a state record for this very input and problem set, its reports, and its feedback
 * (an output written before there was feedback grades the student again, so every student has it).
 */
static bool already_graded(const struct run *r, const struct student *s)
{
	static const char *const files[][2] = { { BATCH_FEEDBACK_DIR, "txt" }, { BATCH_FEEDBACK_DIR, "md" },
						 { "students", "json" }, { "students", "txt" } };
	struct student_state st;
	bool done;
	if (state_read(r->o->outdir, s->id, &r->manifest, &st) < 0)
		return false;
	done = !st.retry && !strcmp(st.fingerprint, s->fingerprint);
	for (int k = 0; done && k < (st.graded ? 4 : 2); k++) {
		char *path = xasprintf("%s/%s/%s.%s", r->o->outdir, files[k][0], s->id, files[k][1]);
		done = access(path, F_OK) == 0;
		free(path);
	}
	student_state_release(&st);
	return done;
}

/* The per-student deadline: everything the limits allow one test slot, and then some. */
static double student_deadline(const struct engine *e)
{
	double s = 60;
	for (int i = 0; i < e->nproblems; i++) {
		const struct problem *p = e->problems[i];
		s += (e->env.compile.wall_ms ? e->env.compile.wall_ms : 30000) / 1000.0 + 5;
		for (int k = 0; k < p->ncases; k++) {
			const struct group *g = &p->groups[p->cases[k].group];
			unsigned cpu = engine_cpu_limit(e, i, p->cases[k].group);
			unsigned wall = g->limits.wall_ms ? g->limits.wall_ms : cpu * 2 + 1000;
			s += (wall > cpu ? wall : cpu) / 1000.0 + 0.05;
		}
	}
	return s;
}

static void fill_manifest(struct run *r, const char *key, const char *ckey, int class_size)
{
	struct batch_manifest *m = &r->manifest;
	const struct engine *e = &r->engine;
	m->grader_version = xstrdup(GRADER_VERSION);
	m->problem_key = xstrdup(key);
	m->class_key = xstrdup(ckey);
	m->class_size = class_size;
	m->shard_index = r->o->shard_count ? r->o->shard_index : 1;
	m->shard_count = r->o->shard_count ? r->o->shard_count : 1;
	/* one entry per problem (its first language: every language has the same groups and points) */
	m->nproblems = e->nids;
	m->problems = xcalloc((size_t)e->nids + 1, sizeof(*m->problems));
	for (int i = 0; i < e->nids; i++) {
		const struct problem *p = e->problems[e->first_variant[i]];
		m->problems[i].id = xstrdup(p->id);
		m->problems[i].title = xstrdup(p->title);
		m->problems[i].max_score = p->max_score;
		m->problems[i].all_or_nothing = xcalloc((size_t)p->ngroups + 1, sizeof(char *));
		for (int g = 0; g < p->ngroups; g++)
			if (p->groups[g].scoring == SCORE_ALL_OR_NOTHING)
				m->problems[i].all_or_nothing[m->problems[i].nall_or_nothing++] = xstrdup(p->groups[g].name);
	}
	m->nids = r->nstudents;
	m->ids = xcalloc((size_t)r->nstudents + 1, sizeof(char *));
	for (int i = 0; i < r->nstudents; i++)
		m->ids[i] = xstrdup(r->students[i].id);
	/* who they are in the LMS: the import files are written from the manifest (gradebook_lms.h) */
	m->lms.layout = r->layout;
	m->lms.assignment = r->o->assignment ? xstrdup(r->o->assignment) : NULL;
	for (int i = 0; i < r->nstudents; i++)
		if (r->students[i].lms)
			lms_roster_add(&m->lms, &r->students[i].lms->person);
	lms_roster_sort(&m->lms);
}

/*
 * --policy: when each student of this shard handed in (batch_time.h), into the manifest; a git repository is
 * graded at the commit this chooses, so it runs before the fingerprints.  A student it leaves with nothing to
 * grade (a repository git cannot read, no commit before late_until) is said in notes, before grading as every
 * other student who will not be graded (class_collect).
 */
static void find_times(struct run *r, struct strbuf *notes)
{
	struct batch_manifest *m = &r->manifest;
	if (!r->o->policy)
		return;
	m->policy = xcalloc(1, sizeof(*m->policy));
	late_policy_copy(m->policy, r->o->policy);
	for (int i = 0; i < r->nstudents; i++) {
		struct late_time t;
		bool was_unusable = r->students[i].unusable != NULL;
		batch_time_find(&r->students[i], r->layout, r->o->policy, &t);
		if (!was_unusable && r->students[i].unusable)
			strbuf_addf(notes, "'%s' will not be graded: %s\n", r->students[i].id, r->students[i].unusable);
		manifest_add_late(m, r->students[i].id, &t);
		late_time_release(&t);
	}
	manifest_sort_late(m);
}

/* An extension for an id the class does not have is a typo the instructor wants to hear of before grading. */
static void check_extensions(const struct late_policy *p, const struct student *all, int n, struct strbuf *notes)
{
	for (int k = 0; p && k < p->next; k++) {
		bool found = false;
		for (int i = 0; i < n && !found; i++)
			found = !strcmp(all[i].id, p->ext[k].id);
		if (!found)
			strbuf_addf(notes, "the policy gives an extension to '%s', who is not in the class (ids are the "
				    "rows' ids in grades.csv)\n", p->ext[k].id);
	}
}

/* ---- progress ---- */

static void progress_draw(const struct run *r)
{
	const struct progress *p = &r->progress;
	double elapsed = (double)(now_us() - p->started) / 1e6;
	double rate = elapsed > 0 ? p->done / elapsed : 0;
	struct strbuf eta = STRBUF_INIT;
	char bar[31];
	int fill = p->total ? (int)(30.0 * p->done / p->total) : 30;

	for (int i = 0; i < 30; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[30] = '\0';
	if (p->done && rate > 0)
		text_duration(&eta, (p->total - p->done) / rate);
	else
		strbuf_addch(&eta, '?');
	fprintf(r->o->progress, "\r[%s] %d/%d  %.2f/s  left %s  failed %d\033[K", bar, p->done, p->total, rate,
		eta.buf, p->failed);
	fflush(r->o->progress);
	strbuf_release(&eta);
}

/* One student finished: st (or NULL) tells how. */
static void progress_student(struct run *r, int i, const struct student_state *st)
{
	struct progress *p = &r->progress;
	const char *status = st ? st->status : "error: no result";
	bool failed = !st || !st->graded;
	FILE *out = r->o->progress;

	p->done++;
	p->failed += failed;
	if (!out)
		return;
	if (p->tty) {
		if (failed)
			fprintf(out, "\r\033[Kgrader: %s: %s\n", r->students[i].id, status);
		progress_draw(r);
		return;
	}
	fprintf(out, "grader: [%d/%d] %s: ", p->done, p->total, r->students[i].id);
	if (st && st->graded) {
		struct strbuf sb = STRBUF_INIT;
		text_score(&sb, st->score);
		strbuf_addch(&sb, '/');
		text_score(&sb, manifest_max_score(&r->manifest));
		fprintf(out, "%s %s (%.1f s)\n", sb.buf, status, st->seconds);
		strbuf_release(&sb);
	} else {
		fprintf(out, "%s\n", status);
	}
}

/* ---- the workers' callbacks ---- */

/* In worker k: an engine of its own, in a scratch space no other worker's compiler sees. */
static int worker_start(void *ctx, int k, void **state, struct strbuf *err)
{
	struct run *r = ctx;
	struct engine *e = xcalloc(1, sizeof(*e));
	struct engine_options opts = r->engine.opts;
	char **hidden = xcalloc((size_t)r->nworkers + 4, sizeof(char *));
	char *dir = workers_scratch_dir(r->tmp, k);
	int nh = 0, ret = -1;
	bool usage;

	hidden[nh++] = xstrdup(r->o->outdir);
	hidden[nh++] = xstrdup(r->o->submissions);
	hidden[nh++] = xstrdup(r->engine.scratch);
	workers_scratch_others(r->tmp, r->nworkers, k, hidden, &nh);
	opts.extra_hidden = (const char *const *)hidden;
	opts.scratch_parent = dir;
	opts.jobs = r->worker_jobs;
	opts.log = NULL;
	opts.id_block = (unsigned)k + 1; /* uids of its own: no student shares a limit with another */
	if (engine_init(e, &opts, err, &usage) < 0) {
		engine_release(e);
		free(e);
		goto cleanup;
	}
	/* the parent's reference answers, inherited through fork, become this engine's */
	reference_adopt(e, &r->engine);
	*state = e;
	ret = 0;
cleanup:
	for (int i = 0; i < nh; i++)
		free(hidden[i]);
	free(hidden);
	free(dir);
	return ret;
}

static int worker_work(void *ctx, void *state, int i)
{
	struct run *r = ctx;
	return batch_student_grade(&r->output, &r->students[i], state);
}

static void worker_stop(void *ctx, void *state)
{
	(void)ctx;
	if (state) {
		engine_release(state);
		free(state);
	}
}

/* Why a student has no result, for the gradebook's status column. */
static char *loss_words(const struct workers_loss *lost)
{
	int st = lost->status;
	switch (lost->why) {
	case WORKER_OVER_DEADLINE:
		return xasprintf("grading took longer than the per-student deadline of %.0f s (stopped)", lost->deadline_s);
	case WORKER_STOPPED:
		return xstrdup("the batch stopped while grading this student");
	case WORKER_DIED:
		break;
	}
	if (WIFSIGNALED(st))
		return xasprintf("the grader's worker died while grading this student (killed by signal %d (%s)); "
				 "--resume grades it again", WTERMSIG(st), strsignal(WTERMSIG(st)));
	return xasprintf("the grader's worker died while grading this student (exit status %d); --resume grades it "
			 "again", WIFEXITED(st) ? WEXITSTATUS(st) : st);
}

/* In the parent: read back what the worker wrote; a student without a record gets one. */
static void student_finished(void *ctx, int i, const struct workers_loss *lost)
{
	struct run *r = ctx;
	struct student_state st;
	struct strbuf err = STRBUF_INIT;

	if (lost || state_read(r->o->outdir, r->students[i].id, &r->manifest, &st) < 0) {
		char *why = lost ? loss_words(lost) : xstrdup("the worker finished without saving a result");
		batch_student_fail(&r->output, &r->students[i], why, true, &err);
		free(why);
		if (state_read(r->o->outdir, r->students[i].id, &r->manifest, &st) < 0) {
			progress_student(r, i, NULL);
			strbuf_release(&err);
			return;
		}
	}
	progress_student(r, i, &st);
	student_state_release(&st);
	strbuf_release(&err);
}

/* ---- merging shards ---- */

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
static int check_shards(char *const *dirs, const struct batch_manifest *ms, int n, struct strbuf *err)
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
		if (!m->policy != !ms[0].policy || (m->policy && !late_policy_equal(m->policy, ms[0].policy))) {
			strbuf_addf(err, "'%s' and '%s' were graded under different --policy files", dirs[0], dirs[i]);
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


static void copy_manifest_head(struct batch_manifest *dst, const struct batch_manifest *src)
{
	dst->grader_version = xstrdup(src->grader_version);
	dst->problem_key = xstrdup(src->problem_key);
	dst->class_key = xstrdup(src->class_key);
	dst->class_size = src->class_size;
	dst->shard_index = dst->shard_count = 1;
	dst->lms.layout = src->lms.layout;
	dst->lms.assignment = src->lms.assignment ? xstrdup(src->lms.assignment) : NULL;
	if (src->policy) {
		dst->policy = xcalloc(1, sizeof(*dst->policy));
		late_policy_copy(dst->policy, src->policy);
	}
	dst->nproblems = src->nproblems;
	dst->problems = xcalloc((size_t)src->nproblems + 1, sizeof(*dst->problems));
	for (int i = 0; i < src->nproblems; i++) {
		const struct batch_problem *p = &src->problems[i];
		dst->problems[i].id = xstrdup(p->id);
		dst->problems[i].title = xstrdup(p->title);
		dst->problems[i].max_score = p->max_score;
		dst->problems[i].all_or_nothing = xcalloc((size_t)p->nall_or_nothing + 1, sizeof(char *));
		for (int g = 0; g < p->nall_or_nothing; g++)
			dst->problems[i].all_or_nothing[dst->problems[i].nall_or_nothing++] = xstrdup(p->all_or_nothing[g]);
	}
}

/* Copy one shard's students (state, reports) into out and add their ids to merged. */
static int copy_shard(const char *dir, const struct batch_manifest *m, const char *out, struct batch_manifest *merged,
		      struct strbuf *err)
{
	static const char *const files[][2] = { { "state", "json" }, { "students", "json" }, { "students", "txt" },
						 { SIMILARITY_DIR, "json" }, { BATCH_FEEDBACK_DIR, "txt" },
						 { BATCH_FEEDBACK_DIR, "md" } };
	for (int k = 0; k < m->nids; k++) {
		for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
			char *from = xasprintf("%s/%s/%s.%s", dir, files[f][0], m->ids[k], files[f][1]);
			char *to = xasprintf("%s/%s/%s.%s", out, files[f][0], m->ids[k], files[f][1]);
			int rc = copy_file(from, to, err);
			free(from);
			free(to);
			if (rc < 0)
				return -1;
		}
		merged->ids[merged->nids++] = xstrdup(m->ids[k]);
		if (manifest_late(m, m->ids[k]))
			manifest_add_late(merged, m->ids[k], manifest_late(m, m->ids[k]));
		if (lms_roster_find(&m->lms, m->ids[k]))
			lms_roster_add(&merged->lms, lms_roster_find(&m->lms, m->ids[k]));
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Read every shard's manifest; the merged output must not be one of them. */
static int read_shards(char *const *dirs, int ndirs, const char *out, struct batch_manifest *ms, int *nread,
		       struct strbuf *err)
{
	for (int i = 0; i < ndirs; i++) {
		struct stat a, o;
		if (stat(dirs[i], &a) == 0 && stat(out, &o) == 0 && a.st_dev == o.st_dev && a.st_ino == o.st_ino) {
			strbuf_addf(err, "the merged output '%s' cannot be one of the shards", out);
			return -1;
		}
		if (manifest_read(dirs[i], &ms[i], err) < 0)
			return -1;
		(*nread)++;
	}
	return check_shards(dirs, ms, ndirs, err);
}

int batch_merge(char *const *dirs, int ndirs, const char *out, struct gradebook_totals *totals,
		struct strbuf *err, bool *usage)
{
	struct batch_manifest *ms = xcalloc((size_t)ndirs + 1, sizeof(*ms)), merged;
	int nread = 0, total = 0, ret = -1;

	memset(&merged, 0, sizeof(merged));
	*usage = true;
	if (read_shards(dirs, ndirs, out, ms, &nread, err) < 0)
		goto cleanup;
	*usage = false;
	if (claim_outdir(out, err, usage) < 0 || reset_outdir(out, false, err) < 0)
		goto cleanup;
	copy_manifest_head(&merged, &ms[0]);
	for (int i = 0; i < ndirs; i++)
		total += ms[i].nids;
	merged.ids = xcalloc((size_t)total + 1, sizeof(char *));
	for (int i = 0; i < ndirs; i++)
		if (copy_shard(dirs[i], &ms[i], out, &merged, err) < 0)
			goto cleanup;
	qsort(merged.ids, (size_t)merged.nids, sizeof(char *), cmp_str);
	lms_roster_sort(&merged.lms);
	manifest_sort_late(&merged);
	if (manifest_write(out, &merged, err) < 0 || gradebook_write(out, &merged, SHARD_MISSING_REASON, totals, err) < 0 ||
	    gradebook_lms_write(out, &merged, &totals->lms_file, err) < 0)
		goto cleanup;
	ret = 0;
cleanup:
	for (int i = 0; i < nread; i++)
		manifest_release(&ms[i]);
	free(ms);
	manifest_release(&merged);
	return ret;
}

/* ---- grading the class ---- */

/* Keep this shard's students (the i-th of the sorted class belongs to shard i mod N + 1). */
static void select_shard(struct run *r, struct student *all, int nall)
{
	const struct batch_options *o = r->o;
	r->students = xcalloc((size_t)nall + 1, sizeof(*r->students));
	for (int i = 0; i < nall; i++) {
		if (!o->shard_count || i % o->shard_count == o->shard_index - 1)
			r->students[r->nstudents++] = all[i];
		else
			student_release(&all[i]);
	}
	free(all);
}

/* The engine of the parent: problems, hidden directories, reference answers. */
static int start_engine(struct run *r, struct strbuf *err, bool *usage)
{
	struct engine_options opts = r->o->engine;
	const char *hidden[3] = { r->o->outdir, r->o->submissions, NULL };
	opts.extra_hidden = hidden;
	if (engine_init(&r->engine, &opts, err, usage) < 0)
		return -1;
	return reference_load(&r->engine, err);
}

/* The class in the layout --layout names or the submissions show, knowing the problem files' names (batch_lms.h). */
static int collect_class(struct run *r, struct student **all, int *nall, struct strbuf *notes, struct strbuf *err)
{
	const struct problem_set *set = r->o->engine.set;
	struct lms_options lo;
	struct strvec wanted = STRVEC_INIT;
	int ret;

	for (int i = 0; set && i < set->nproblems; i++)
		for (int k = 0; k < problem_nvariants(&set->problems[i]); k++)
			strvec_push(&wanted, problem_variant(&set->problems[i], k)->source);
	lo.layout = r->o->layout;
	lo.outdir = r->o->outdir;
	lo.wanted = (const char *const *)wanted.v;
	ret = class_collect(r->o->submissions, &lo, &r->layout, all, nall, notes, err);
	strvec_clear(&wanted);
	return ret;
}

/*
 * Everything before the workers: the output directory claimed, the class
 * listed and fingerprinted, the engine up, the manifest written.
 */
static int open_run(struct run *r, struct batch_summary *out, struct strbuf *notes, struct strbuf *err, bool *usage)
{
	const struct batch_options *o = r->o;
	struct student *all = NULL;
	char key[DIGEST_HEX_SIZE], ckey[DIGEST_HEX_SIZE];
	int nall = 0;

	if (access(o->submissions, R_OK | X_OK) < 0) {
		strbuf_addf(err, "cannot open the submissions directory '%s': %s", o->submissions, strerror(errno));
		*usage = true;
		return -1;
	}
	/* the class first: a folder holding no student leaves no output directory behind */
	if (collect_class(r, &all, &nall, notes, err) < 0) {
		*usage = true;
		return -1;
	}
	if (claim_outdir(o->outdir, err, usage) < 0) {
		class_release(all, nall);
		return -1;
	}
	class_key(all, nall, ckey);
	check_extensions(o->policy, all, nall, notes);
	select_shard(r, all, nall);
	out->class_size = nall;
	out->students = r->nstudents;
	if (start_engine(r, err, usage) < 0)
		return -1;
	/* only now, with the problems and the reference known good, touch earlier results */
	if (reset_outdir(o->outdir, o->resume, err) < 0)
		return -1;
	/* the students' files are the instructor's view (batch_student.h): "show hidden" in the key */
	class_problem_key(&r->engine, true, o->verbose, key);
	find_times(r, notes);
	for (int i = 0; i < r->nstudents; i++)
		student_fingerprint(&r->students[i], key);
	fill_manifest(r, key, ckey, nall);
	return manifest_write(o->outdir, &r->manifest, err);
}

/*
 * The notes about the class's entries (entries skipped, names escaped), printed before any student is graded so
 * that they are not lost in the progress; each line cleaned (names are untrusted bytes).  The lines printed.
 */
static int print_notes(FILE *to, struct strbuf *notes)
{
	int lines = 0;
	for (const char *p = notes->buf; *p;) {
		size_t l = strcspn(p, "\n");
		char *line = xstrndup(p, l);
		struct strbuf clean = STRBUF_INIT;
		text_clean(&clean, line, 0);
		fprintf(to, "grader: warning: %s\n", clean.buf);
		strbuf_release(&clean);
		free(line);
		lines++;
		p += l + (p[l] == '\n');
	}
	strbuf_reset(notes);
	return lines;
}

static bool asked_to_regrade(const struct batch_options *o, const char *id)
{
	if (o->regrade_problem)
		return true; /* every student: their reports are whole, so all their problems are graded again */
	for (int k = 0; k < o->nregrade; k++)
		if (!strcmp(o->regrade[k], id))
			return true;
	return false;
}

/*
 * Every --regrade id must be a student of the class (of this shard, or of another one), and --regrade-problem a
 * problem graded: 0, or -1 saying which.
 */
static int check_regrade(const struct run *r, struct strbuf *err)
{
	if (r->o->regrade_problem) {
		bool found = false;
		for (int i = 0; i < r->manifest.nproblems && !found; i++)
			found = !strcmp(r->manifest.problems[i].id, r->o->regrade_problem);
		if (!found) {
			strbuf_addf(err, "--regrade-problem '%s': no such problem is graded (", r->o->regrade_problem);
			for (int i = 0; i < r->manifest.nproblems; i++)
				strbuf_addf(err, "%s'%s'", i ? ", " : "", r->manifest.problems[i].id);
			strbuf_addstr(err, ")");
			return -1;
		}
	}
	for (int k = 0; k < r->o->nregrade; k++) {
		bool found = false;
		for (int i = 0; i < r->nstudents && !found; i++)
			found = !strcmp(r->students[i].id, r->o->regrade[k]);
		if (!found && !r->o->shard_count) {
			strbuf_addf(err, "--regrade '%s': no such student in the class (ids as grades.csv spells them)",
				    r->o->regrade[k]);
			return -1;
		}
	}
	return 0;
}

/* The students still to grade (all, or those --resume does not find done, and every --regrade one). */
static int *todo_list(const struct run *r, int *ntodo, int *resumed)
{
	int *todo = xcalloc((size_t)r->nstudents + 1, sizeof(int));
	*ntodo = *resumed = 0;
	for (int i = 0; i < r->nstudents; i++) {
		if (r->o->resume && !asked_to_regrade(r->o, r->students[i].id) && already_graded(r, &r->students[i]))
			(*resumed)++;
		else
			todo[(*ntodo)++] = i;
	}
	return todo;
}

static int grade_students(struct run *r, const int *todo, int ntodo, struct strbuf *err)
{
	struct workers_client c;
	const char *term = getenv("TERM");

	memset(&c, 0, sizeof(c));
	c.nworkers = r->nworkers;
	c.task_deadline_s = r->o->deadline_s > 0 ? r->o->deadline_s : student_deadline(&r->engine);
	c.start_deadline_s = WORKER_START_S;
	c.start = worker_start;
	c.work = worker_work;
	c.stop = worker_stop;
	c.finished = student_finished;
	c.ctx = r;
	r->tmp = workers_scratch("batch", r->nworkers, err);
	if (!r->tmp)
		return -1;
	r->progress.tty = r->o->progress && isatty(fileno(r->o->progress)) && !(term && !strcmp(term, "dumb"));
	r->progress.total = ntodo;
	r->progress.started = now_us();
	if (r->progress.tty)
		progress_draw(r);
	if (workers_run(&c, todo, ntodo, err) < 0)
		return -1;
	if (r->progress.tty) {
		progress_draw(r);
		fputc('\n', r->o->progress);
	}
	return 0;
}

static void close_run(struct run *r)
{
	if (r->tmp) {
		remove_tree(r->tmp);
		free(r->tmp);
	}
	engine_release(&r->engine);
	manifest_release(&r->manifest);
	class_release(r->students, r->nstudents);
}

int batch_grade(const struct batch_options *o, struct batch_summary *out, struct strbuf *notes,
		struct strbuf *err, bool *usage)
{
	struct run r;
	struct regrade *before = NULL;
	uint64_t started = now_us();
	int *todo = NULL, ntodo = 0, ret = -1;

	memset(&r, 0, sizeof(r));
	memset(out, 0, sizeof(*out));
	*usage = false;
	r.o = o;
	r.report.verbose = o->verbose;
	r.report.version = GRADER_VERSION;
	r.output.outdir = o->outdir;
	r.output.manifest = &r.manifest;
	r.output.report = &r.report;
	if (open_run(&r, out, notes, err, usage) < 0)
		goto cleanup;
	if (check_regrade(&r, err) < 0) {
		*usage = true;
		goto cleanup;
	}
	if (o->progress)
		out->warnings = print_notes(o->progress, notes);
	todo = todo_list(&r, &ntodo, &out->resumed);
	if (o->resume) {
		/* what the students about to be graded again have now, for regrade.md (batch_regrade.h) */
		char **ids = xcalloc((size_t)ntodo + 1, sizeof(char *));
		for (int k = 0; k < ntodo; k++)
			ids[k] = r.students[todo[k]].id;
		before = regrade_snapshot(o->outdir, ids, ntodo);
		free(ids);
	}
	r.nworkers = o->jobs > 0 ? o->jobs : cpu_count();
	if (r.nworkers > ntodo)
		r.nworkers = ntodo;
	r.worker_jobs = r.nworkers ? cpu_count() / r.nworkers : 1;
	if (r.worker_jobs < 1)
		r.worker_jobs = 1;
	if (o->progress) {
		fprintf(o->progress, "grader: %d student%s", r.nstudents, r.nstudents == 1 ? "" : "s");
		if (r.layout != LMS_FOLDERS)
			fprintf(o->progress, " (%s)", lms_layout_words(r.layout));
		if (o->shard_count)
			fprintf(o->progress, " (shard %d/%d of a class of %d)", o->shard_index, o->shard_count, out->class_size);
		if (out->resumed)
			fprintf(o->progress, ", %d already graded", out->resumed);
		fprintf(o->progress, ": grading %d with %d worker%s\n", ntodo, r.nworkers, r.nworkers == 1 ? "" : "s");
	}
	if (ntodo && grade_students(&r, todo, ntodo, err) < 0)
		goto cleanup;
	out->graded_now = r.progress.done;
	if (gradebook_write(o->outdir, &r.manifest, MISSING_REASON, &out->totals, err) < 0 ||
	    gradebook_lms_write(o->outdir, &r.manifest, &out->totals.lms_file, err) < 0)
		goto cleanup;
	if (before && regrade_write(before, o->outdir, o->regrade_problem, err) < 0)
		goto cleanup;
	out->regrade_written = before != NULL;
	ret = 0;
cleanup:
	out->seconds = (double)(now_us() - started) / 1e6;
	regrade_free(before);
	free(todo);
	close_run(&r);
	return ret;
}
