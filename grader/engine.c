/* engine.c - see engine.h */
#define _GNU_SOURCE
#include "engine.h"

#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "interrupt.h"
#include "runner.h"
#include "sandbox.h"
#include "version.h"

static char *default_cache_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	if (xdg && *xdg == '/')
		return xasprintf("%s/combgrader", xdg);
	if (home && *home == '/')
		return xasprintf("%s/.cache/combgrader", home);
	return xasprintf("/tmp/combgrader-cache-%ld", (long)getuid());
}

__attribute__((format(printf, 2, 3)))
static void note(const struct engine *e, const char *fmt, ...)
{
	va_list ap;
	if (!e->opts.log)
		return;
	fputs("grader: ", e->opts.log);
	va_start(ap, fmt);
	vfprintf(e->opts.log, fmt, ap);
	va_end(ap);
	fputc('\n', e->opts.log);
}

static int select_problems(struct engine *e, struct strbuf *err)
{
	struct problem_set *set = e->opts.set;
	e->problems = xcalloc((size_t)set->nproblems + 1, sizeof(*e->problems));
	if (!e->opts.only || !*e->opts.only) {
		for (int i = 0; i < set->nproblems; i++)
			e->problems[e->nproblems++] = &set->problems[i];
		return 0;
	}
	for (int i = 0; i < set->nproblems; i++) {
		/* keep problem-set order, whatever order --only gives */
		const char *p = e->opts.only;
		size_t idl = strlen(set->problems[i].id);
		while (*p) {
			size_t l = strcspn(p, ",");
			if (l == idl && !strncmp(p, set->problems[i].id, l)) {
				e->problems[e->nproblems++] = &set->problems[i];
				break;
			}
			p += l + (p[l] == ',');
		}
	}
	for (const char *p = e->opts.only; *p;) {
		size_t l = strcspn(p, ",");
		char *id = xstrndup(p, l);
		if (l && !problem_set_find(set, id)) {
			strbuf_addf(err, "--only: no problem '%s' (known:", id);
			for (int i = 0; i < set->nproblems; i++)
				strbuf_addf(err, " %s", set->problems[i].id);
			strbuf_addch(err, ')');
			free(id);
			return -1;
		}
		free(id);
		p += l + (p[l] == ',');
	}
	return 0;
}

static void add_hidden(struct engine *e, int *n, const char *path)
{
	char real[PATH_MAX];
	if (!path || !realpath(path, real))
		return;
	e->hidden = xrealloc(e->hidden, (size_t)(*n + 2) * sizeof(char *));
	e->hidden[(*n)++] = xstrdup(real);
	e->hidden[*n] = NULL;
}

int engine_init(struct engine *e, const struct engine_options *opts, struct strbuf *err, bool *usage)
{
	const char *tmp = opts->scratch_parent ? opts->scratch_parent : getenv("TMPDIR");
	char *tmpl;
	int nhidden = 0;

	memset(e, 0, sizeof(*e));
	e->opts = *opts;
	e->filters = (struct strbuf)STRBUF_INIT;
	*usage = false;
	if (e->opts.jobs <= 0)
		e->opts.jobs = cpu_count();
	if (!e->opts.reference_dir)
		e->opts.reference_dir = "reference";
	if (select_problems(e, err) < 0) {
		*usage = true;
		return -1;
	}
	if (!tmp || *tmp != '/')
		tmp = "/tmp";
	if (!sandbox_can_enter(tmp)) {
		/* the compiler and runners run as nobody: they must reach the scratch space */
		note(e, "warning: TMPDIR '%s' cannot be entered by the sandbox user; using /tmp", tmp);
		tmp = "/tmp";
	}
	tmpl = xasprintf("%s/grader.XXXXXX", tmp);
	if (!mkdtemp(tmpl)) {
		strbuf_addf(err, "cannot create a scratch directory '%s': %s", tmpl, strerror(errno));
		free(tmpl);
		return -1;
	}
	e->scratch = tmpl;
	e->workdir = xasprintf("%s/cwd", e->scratch);
	/* others may enter (the sandbox runs as nobody) but not list or write */
	if (chmod(e->scratch, 0711) < 0 || mkdir(e->workdir, 0555) < 0) {
		strbuf_addf(err, "cannot prepare the scratch directory: %s", strerror(errno));
		return -1;
	}
	add_hidden(e, &nhidden, e->opts.set->dir);
	add_hidden(e, &nhidden, e->opts.reference_dir);
	/* the cache holds every answer: hide the one in use, default or not,
	 * creating it first so it exists to be hidden */
	e->cache_dir = e->opts.cache_dir ? xstrdup(e->opts.cache_dir) : default_cache_dir();
	if (*e->cache_dir && mkdir_p(e->cache_dir, 0755) == 0)
		add_hidden(e, &nhidden, e->cache_dir);
	for (int i = 0; opts->extra_hidden && opts->extra_hidden[i]; i++)
		add_hidden(e, &nhidden, opts->extra_hidden[i]);
	if (!e->hidden)
		e->hidden = xcalloc(1, sizeof(char *));
	e->env.hide_paths = (const char *const *)e->hidden;
	if (build_env_init(&e->env, e->scratch, err) < 0)
		return -1;
	if (sandbox_filters(&e->filters, err) < 0)
		return -1;
	return 0;
}

void engine_release(struct engine *e)
{
	if (e->ref) {
		for (int i = 0; i < e->nproblems; i++) {
			free(e->ref[i].have);
			free(e->ref[i].answer);
			free(e->ref[i].time_us);
			free(e->ref[i].failure);
		}
		free(e->ref);
	}
	build_env_release(&e->env);
	if (e->scratch)
		remove_tree(e->scratch);
	free(e->scratch);
	free(e->workdir);
	free(e->cache_dir);
	for (int i = 0; e->hidden && e->hidden[i]; i++)
		free(e->hidden[i]);
	free(e->hidden);
	free(e->problems);
	strbuf_release(&e->filters);
	memset(e, 0, sizeof(*e));
}

unsigned engine_cpu_limit(const struct engine *e, int problem_index, int group)
{
	const struct problem *p = e->problems[problem_index];
	const struct group *g = &p->groups[group];
	unsigned slowest_us = 0;
	double ms;

	if (!g->limits.cpu_factor)
		return g->limits.cpu_ms ? g->limits.cpu_ms : DEFAULT_CPU_MS;
	if (!e->ref_loaded)
		return 20000; /* measuring the reference itself: generous */
	for (int k = g->first_case; k < g->first_case + g->ncases; k++)
		if (e->ref[problem_index].have[k] && e->ref[problem_index].time_us[k] > slowest_us)
			slowest_us = e->ref[problem_index].time_us[k];
	ms = g->limits.cpu_factor * slowest_us / 1000.0;
	if (ms < g->limits.cpu_floor_ms)
		ms = g->limits.cpu_floor_ms;
	if (ms < 1)
		ms = 1;
	return (unsigned)(ms + 0.999);
}

/* ---- grading ---- */

struct judge_ctx {
	struct engine *e;
	const struct run_task *tasks;
	int *task_problem;   /* per task: index into e->problems */
	int *task_case;      /* per task: case index */
	bool reference_mode;
};

static bool expected_for(const struct engine *e, int pi, int k, long long *out)
{
	const struct test_case *tc = &e->problems[pi]->cases[k];
	if (tc->has_expected) {
		*out = tc->expected;
		return true;
	}
	if (e->ref_loaded && e->ref[pi].have[k]) {
		*out = e->ref[pi].answer[k];
		return true;
	}
	return false;
}

/* pool_run's callback: is this answered task right?  (Used to stop all-or-nothing groups early.) */
static bool judge_task(const struct run_task *t, void *vctx)
{
	struct judge_ctx *ctx = vctx;
	int idx = (int)(t - ctx->tasks);
	long long expected;
	if (!expected_for(ctx->e, ctx->task_problem[idx], ctx->task_case[idx], &expected))
		return false;
	return value_answer_equal(ctx->e->problems[ctx->task_problem[idx]]->funcs[t->function].ret, expected, t->answer);
}

static enum verdict build_verdict(enum build_status s)
{
	switch (s) {
	case BUILD_OK:
		return V_CORRECT;
	case BUILD_MISSING_FILE:
		return V_MISSING;
	case BUILD_COMPILE_ERROR:
		return V_COMPILER_ERROR;
	case BUILD_FORBIDDEN:
		return V_FORBIDDEN;
	case BUILD_TOO_BIG:
		return V_MEMORY_LIMIT;
	case BUILD_INTERNAL:
		return V_JUDGE_ERROR;
	}
	return V_JUDGE_ERROR;
}

static int grade_dir(struct engine *e, const char *dir, bool reference_mode, struct grade_result *out,
		     struct strbuf *err)
{
	struct build_result *builds = xcalloc((size_t)e->nproblems + 1, sizeof(*builds));
	struct run_task *tasks = NULL;
	struct judge_ctx ctx = { e, NULL, NULL, NULL, reference_mode };
	struct pool *pool = NULL;
	struct build_env env = e->env;
	char *tag = NULL;
	int ntasks = 0, ret = -1, group_keys = 0;
	uint64_t started = now_us();

	memset(out, 0, sizeof(*out));
	out->submission = xstrdup(dir);
	out->isolation = xstrdup(sandbox_describe());
	out->nproblems = e->nproblems;
	out->problems = xcalloc((size_t)e->nproblems + 1, sizeof(*out->problems));

	/* each graded directory builds in its own part of the scratch space */
	tag = xasprintf("%s/s%d", e->scratch, e->submissions++);
	if (mkdir(tag, 0711) < 0) {
		strbuf_addf(err, "cannot create '%s': %s", tag, strerror(errno));
		goto cleanup;
	}
	env.scratch = tag;
	if (build_all(&env, e->problems, e->nproblems, dir, builds, e->opts.jobs) < 0)
		out->internal_error = true;
	if (grader_interrupted)
		goto cleanup;

	for (int i = 0; i < e->nproblems; i++)
		if (builds[i].status == BUILD_OK)
			ntasks += e->problems[i]->ncases;
	tasks = xcalloc((size_t)ntasks + 1, sizeof(*tasks));
	ctx.task_problem = xcalloc((size_t)ntasks + 1, sizeof(int));
	ctx.task_case = xcalloc((size_t)ntasks + 1, sizeof(int));
	ntasks = 0;
	for (int i = 0; i < e->nproblems; i++) {
		const struct problem *p = e->problems[i];
		unsigned zmem = problem_max_memory_mb(p);
		unsigned *cpu = NULL;
		if (builds[i].status != BUILD_OK) {
			group_keys += p->ngroups;
			continue;
		}
		cpu = xcalloc((size_t)p->ngroups + 1, sizeof(*cpu));
		for (int g = 0; g < p->ngroups; g++)
			cpu[g] = engine_cpu_limit(e, i, g);
		for (int k = 0; k < p->ncases; k++) {
			const struct test_case *tc = &p->cases[k];
			const struct group *g = &p->groups[tc->group];
			struct run_task *t = &tasks[ntasks];
			t->runner = builds[i].runner;
			t->function = tc->func;
			t->function_name = p->funcs[tc->func].name;
			t->args = (struct strbuf)STRBUF_INIT;
			for (int a = 0; a < p->funcs[tc->func].ninputs; a++)
				value_encode(&t->args, &tc->args[a]);
			t->cpu_ms = cpu[tc->group];
			if (reference_mode && t->cpu_ms < 20000)
				t->cpu_ms = t->cpu_ms * 10 < 20000 ? t->cpu_ms * 10 : 20000;
			/* a backstop well above the CPU limit: it catches sleeping and stopped programs */
			t->wall_ms = g->limits.wall_ms && !reference_mode ? g->limits.wall_ms : t->cpu_ms * 2 + 1000;
			if (t->wall_ms < t->cpu_ms)
				t->wall_ms = t->cpu_ms;
			t->memory_mb = g->limits.memory_mb;
			t->output_kb = g->limits.output_kb;
			t->zygote_memory_mb = zmem;
			t->group_key = g->scoring == SCORE_ALL_OR_NOTHING ? group_keys + tc->group : -1;
			ctx.task_problem[ntasks] = i;
			ctx.task_case[ntasks] = k;
			ntasks++;
		}
		free(cpu);
		group_keys += p->ngroups;
	}
	pool = pool_new(e->opts.jobs, &e->filters, e->workdir, (const char *const *)e->hidden);
	ctx.tasks = tasks;
	if (pool_run(pool, tasks, ntasks, !reference_mode, reference_mode ? NULL : judge_task, &ctx) < 0) {
		if (!grader_interrupted)
			strbuf_addstr(err, "the grader's event loop failed");
		goto cleanup;
	}

	ntasks = 0;
	for (int i = 0; i < e->nproblems; i++) {
		const struct problem *p = e->problems[i];
		struct problem_result *pr = &out->problems[i];
		struct build_result *b = &builds[i];
		pr->problem = p;
		pr->ntests = p->ncases;
		pr->tests = xcalloc((size_t)p->ncases + 1, sizeof(*pr->tests));
		pr->source = b->source ? xstrdup(b->source) : NULL;
		pr->build_verdict = build_verdict(b->status);
		pr->compile_ms = b->compile_ms;
		if (b->status != BUILD_OK) {
			pr->build_message = b->message ? xstrdup(b->message) : NULL;
			if (b->status == BUILD_INTERNAL)
				out->internal_error = true;
		}
		for (int k = 0; k < p->ncases; k++) {
			struct test_result *tr = &pr->tests[k];
			tr->tc = &p->cases[k];
			if (b->status != BUILD_OK) {
				tr->verdict = pr->build_verdict;
				tr->message = xstrdup(b->status == BUILD_MISSING_FILE ? b->message
						      : b->status == BUILD_COMPILE_ERROR ? "the file does not compile (see the compiler output)"
						      : b->message ? b->message : "not built");
				continue;
			}
			{
				struct run_task *t = &tasks[ntasks++];
				tr->verdict = t->verdict;
				tr->time_ms = t->cpu_used_ms;
				tr->wall_ms = t->wall_used_ms;
				tr->limit_ms = t->cpu_ms;
				tr->peak_kb = t->peak_kb;
				tr->output = t->output;
				tr->output_total = t->output_total;
				tr->message = t->message;
				t->output = t->message = NULL;
				tr->has_actual = t->answered;
				tr->actual = t->answer;
				if (tr->verdict == V_JUDGE_ERROR)
					out->internal_error = true;
				if (reference_mode || !t->answered)
					continue;
				tr->has_expected = expected_for(e, i, k, &tr->expected);
				if (!tr->has_expected) {
					tr->verdict = V_JUDGE_ERROR;
					tr->message = xstrdup("no expected answer: the reference solution failed on this test");
					out->internal_error = true;
				} else if (!value_answer_equal(p->funcs[tr->tc->func].ret, tr->expected, tr->actual)) {
					struct strbuf m = STRBUF_INIT;
					tr->verdict = V_WRONG_ANSWER;
					strbuf_addstr(&m, "returned ");
					answer_format(&m, p->funcs[tr->tc->func].ret, tr->actual);
					strbuf_addstr(&m, ", expected ");
					answer_format(&m, p->funcs[tr->tc->func].ret, tr->expected);
					tr->message = strbuf_detach(&m);
				}
			}
		}
	}
	grade_result_score(out);
	out->elapsed_s = (double)(now_us() - started) / 1e6;
	ret = 0;
cleanup:
	pool_free(pool);
	for (int i = 0; i < ntasks; i++)
		run_task_release(&tasks[i]);
	free(tasks);
	free(ctx.task_problem);
	free(ctx.task_case);
	for (int i = 0; i < e->nproblems; i++)
		build_result_release(&builds[i]);
	free(builds);
	if (tag) {
		remove_tree(tag);
		free(tag);
	}
	if (grader_interrupted) {
		strbuf_addstr(err, "interrupted");
		ret = -1;
	}
	if (ret)
		grade_result_release(out); /* on failure the caller gets nothing to free */
	return ret;
}

int engine_grade(struct engine *e, const char *submission, struct grade_result *out, struct strbuf *err)
{
	return grade_dir(e, submission, false, out, err);
}

/* ---- reference answers and their cache ---- */

void engine_adopt_reference(struct engine *dst, struct engine *src)
{
	dst->ref = src->ref;
	dst->ref_loaded = src->ref_loaded;
	dst->reference_cached = src->reference_cached;
	dst->reference_seconds = src->reference_seconds;
	src->ref = NULL;
	src->ref_loaded = false;
}

bool problem_needs_reference(const struct problem *p)
{
	for (int g = 0; g < p->ngroups; g++)
		if (p->groups[g].limits.cpu_factor)
			return true;
	for (int k = 0; k < p->ncases; k++)
		if (!p->cases[k].has_expected)
			return true;
	return false;
}

static void cache_key(const struct engine *e, const struct problem *p, char out[DIGEST_HEX_SIZE])
{
	struct digest h;
	struct strbuf src = STRBUF_INIT;
	char *file = build_find_source(e->opts.reference_dir, p->source);
	digest_init(&h);
	digest_add_str(&h, GRADER_VERSION);
	digest_add_str(&h, p->digest);
	if (file) {
		char *path = xasprintf("%s/%s", e->opts.reference_dir, file);
		if (read_file(&src, path) == 0)
			digest_add(&h, src.buf, src.len);
		free(path);
		free(file);
	}
	digest_hex(&h, out);
	strbuf_release(&src);
}

static char *cache_path(const struct engine *e, const struct problem *p, const char *dir)
{
	char key[DIGEST_HEX_SIZE];
	cache_key(e, p, key);
	return xasprintf("%s/%s-%s.ref", dir, p->id, key);
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
		note(e, "warning: cannot write the reference cache '%s': %s", path, strerror(errno));
	strbuf_release(&sb);
}

int engine_load_reference(struct engine *e, struct strbuf *err)
{
	const char *dir = e->cache_dir;
	bool use_cache = *dir != '\0';
	bool need_run = false;
	char **paths = xcalloc((size_t)e->nproblems + 1, sizeof(char *));
	int ret = -1;
	uint64_t started = now_us();

	e->ref = xcalloc((size_t)e->nproblems + 1, sizeof(*e->ref));
	for (int i = 0; i < e->nproblems; i++) {
		const struct problem *p = e->problems[i];
		struct reference_answers *ra = &e->ref[i];
		ra->have = xcalloc((size_t)p->ncases + 1, sizeof(bool));
		ra->answer = xcalloc((size_t)p->ncases + 1, sizeof(long long));
		ra->time_us = xcalloc((size_t)p->ncases + 1, sizeof(unsigned));
		if (!problem_needs_reference(p))
			continue; /* every answer is in the file and every limit absolute (a student pack) */
		if (use_cache) {
			paths[i] = cache_path(e, p, dir);
			if (cache_read(paths[i], p, ra) == 0)
				continue;
			memset(ra->have, 0, (size_t)p->ncases * sizeof(bool));
		}
		need_run = true;
	}
	e->reference_cached = !need_run;
	if (need_run) {
		struct grade_result r;
		if (access(e->opts.reference_dir, R_OK | X_OK) < 0) {
			strbuf_addf(err, "cannot read the reference directory '%s': %s", e->opts.reference_dir,
				    strerror(errno));
			goto cleanup;
		}
		note(e, "computing the reference answers from '%s' (cached afterwards)", e->opts.reference_dir);
		if (grade_dir(e, e->opts.reference_dir, true, &r, err) < 0)
			goto cleanup;
		for (int i = 0; i < e->nproblems; i++) {
			const struct problem_result *pr = &r.problems[i];
			struct reference_answers *ra = &e->ref[i];
			int failed = 0;
			for (int k = 0; k < pr->ntests; k++) {
				const struct test_result *t = &pr->tests[k];
				if (t->has_actual && t->verdict == V_CORRECT) {
					ra->have[k] = true;
					ra->answer[k] = t->actual;
					ra->time_us[k] = t->time_ms * 1000u;
				} else if (!failed++) {
					free(ra->failure);
					ra->failure = xasprintf("reference %s, test '%s': %s%s%s", e->problems[i]->id,
								t->tc->name, verdict_name(t->verdict),
								t->message ? ": " : "", t->message ? t->message : "");
				}
			}
			if (pr->build_message) {
				free(ra->failure);
				ra->failure = xasprintf("reference %s: %s", e->problems[i]->id, pr->build_message);
			}
			if (ra->failure)
				note(e, "warning: %s", ra->failure);
			else if (use_cache && mkdir_p(dir, 0755) == 0)
				cache_write(e, paths[i], e->problems[i], ra);
		}
		grade_result_release(&r);
	}
	e->ref_loaded = true;
	e->reference_seconds = (double)(now_us() - started) / 1e6;
	ret = 0;
cleanup:
	for (int i = 0; i < e->nproblems; i++)
		free(paths[i]);
	free(paths);
	return ret;
}
