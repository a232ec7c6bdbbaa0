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

#include "diagnose.h"
#include "interrupt.h"
#include "runner.h"
#include "filter.h"
#include "growth.h"
#include "remeasure.h"
#include "sandbox.h"
#include "shrink.h"
#include "verdict.h"

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

void engine_log(const struct engine *e, const char *fmt, ...)
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

/* Does the comma-separated list only name id? */
static bool names(const char *only, const char *id)
{
	size_t idl = strlen(id);
	for (const char *p = only; *p;) {
		size_t l = strcspn(p, ",");
		if (l == idl && !strncmp(p, id, l))
			return true;
		p += l + (p[l] == ',');
	}
	return false;
}

/* Every name of --only must be a problem. */
static int check_only(const struct problem_set *set, const char *only, struct strbuf *err)
{
	for (const char *p = only; *p;) {
		size_t l = strcspn(p, ",");
		char *id = xstrndup(p, l);
		bool known = !l || problem_set_find(set, id);
		if (!known) {
			strbuf_addf(err, "--only: no problem '%s' (known:", id);
			for (int i = 0; i < set->nproblems; i++)
				strbuf_addf(err, " %s", set->problems[i].id);
			strbuf_addch(err, ')');
		}
		free(id);
		if (!known)
			return -1;
		p += l + (p[l] == ',');
	}
	return 0;
}

/* The selected problems (in problem-set order, whatever order --only gives), each with its variants. */
static int select_problems(struct engine *e, struct strbuf *err)
{
	struct problem_set *set = e->opts.set;
	const char *only = e->opts.only && *e->opts.only ? e->opts.only : NULL;
	int total = 0;

	if (only && check_only(set, only, err) < 0)
		return -1;
	for (int i = 0; i < set->nproblems; i++)
		total += problem_nvariants(&set->problems[i]);
	e->problems = xcalloc((size_t)total + 1, sizeof(*e->problems));
	e->first_variant = xcalloc((size_t)set->nproblems + 1, sizeof(int));
	for (int i = 0; i < set->nproblems; i++) {
		struct problem *p = &set->problems[i];
		int before = e->nproblems;
		if (only && !names(only, p->id))
			continue;
		for (int k = 0; k < problem_nvariants(p); k++)
			if (!e->opts.language || problem_variant(p, k)->lang == e->opts.language)
				e->problems[e->nproblems++] = problem_variant(p, k);
		if (e->nproblems > before)
			e->first_variant[e->nids++] = before;
	}
	e->first_variant[e->nids] = e->nproblems;
	return 0;
}

/* The languages of the selected variants, each once, NULL-terminated (the caller frees the array). */
static const struct language **used_languages(const struct engine *e)
{
	const struct language **langs = xcalloc((size_t)e->nproblems + 1, sizeof(*langs));
	int n = 0;
	for (int i = 0; i < e->nproblems; i++) {
		int seen = 0;
		for (int k = 0; k < n; k++)
			seen |= langs[k] == e->problems[i]->lang;
		if (!seen)
			langs[n++] = e->problems[i]->lang;
	}
	return langs;
}

/* The runtimes of the languages in use, and their seccomp programs. */
static int prepare_languages(struct engine *e, struct strbuf *err)
{
	const struct language **langs = used_languages(e);
	int ret;

	e->env.cache_dir = e->cache_dir;
	ret = build_env_init(&e->env, e->scratch, langs, err);
	for (int k = 0; ret == 0 && langs[k] && k < 32; k++)
		if (e->env.setup_rejected & (1u << k))
			engine_log(e, "warning: the %s runtime kept in '%s/runtime' was not used (not this user's, writable "
				   "by others, or not matching its checksum): compiled afresh and kept again",
				   langs[k]->display, e->cache_dir);
	if (ret == 0) {
		struct strbuf failures = STRBUF_INIT;
		if (build_env_share(&e->env, (const struct problem *const *)e->problems, e->nproblems, &failures) > 0)
			engine_log(e, "warning: what every build of a problem shares could not be prepared ahead, so "
				   "each build of it prepares it again (slower):\n%s", failures.buf);
		strbuf_release(&failures);
		if (e->env.shared_rejected)
			engine_log(e, "warning: %u compiled stub%s kept in '%s/runtime' %s not used (not this user's, "
				   "writable by others, or not matching its checksum): compiled afresh and kept again",
				   e->env.shared_rejected, e->env.shared_rejected == 1 ? "" : "s", e->cache_dir,
				   e->env.shared_rejected == 1 ? "was" : "were");
	}
	for (int k = 0; ret == 0 && langs[k]; k++) {
		struct strbuf *f = &e->filters[langs[k]->filters];
		if (!f->len)
			ret = filter_programs(langs[k]->filters, f, err);
	}
	free(langs);
	return ret;
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
	for (int k = 0; k < FILTER_FLAVOURS; k++)
		e->filters[k] = (struct strbuf)STRBUF_INIT;
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
		engine_log(e, "warning: TMPDIR '%s' cannot be entered by the sandbox user; using /tmp", tmp);
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
	e->env.compile.hide_paths = (const char *const *)e->hidden;
	/* a block of uids no other grader uses while this engine lives; builds run as its last uid,
	 * runners as the others (sandbox_ids) */
	e->uid_lease = sandbox_lease_block(e->opts.id_block, &e->opts.id_block);
	e->uid_leased = e->uid_lease >= 0;
	sandbox_ids(e->opts.id_block, SANDBOX_BLOCK - 1, &e->env.compile.uid, &e->env.compile.gid);
	return prepare_languages(e, err);
}

void engine_release(struct engine *e)
{
	if (e->ref && !e->ref_borrowed) {
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
	free(e->first_variant);
	for (int k = 0; k < FILTER_FLAVOURS; k++)
		strbuf_release(&e->filters[k]);
	if (e->uid_leased)
		close(e->uid_lease);
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
		return MEASURE_CPU_MS; /* before the reference's times are known: generous */
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

/* ---- grading: build, plan, run, collect ---- */

#define SKIPPED_MESSAGE "not run: an earlier test of this all-or-nothing group failed"
#define STOPPED_MESSAGE "not run: grading stopped at the first failing test"

/*
 * What one run builds: per problem of the result, the variant (an index
 * into e->problems) and what the directory holds for it.
 */
struct selection {
	int n;
	int *variant;
	struct build_choice *choices;
};

/* A submission's tests, planned: one run task per case of every problem that built. */
struct plan {
	struct run_task *tasks;
	int ntasks;
	int *problem, *kase;         /* per task: index into e->problems (the variant), and the case */
	int *first_task;             /* per selection entry: its first task, or -1 when it did not build */
	struct judgement *judged;    /* per task, once finished */
	struct remeasure *rm;        /* grading: the tests at the edge run again (remeasure.h), or NULL */
};

static int variant_index(const struct engine *e, const struct problem *p)
{
	for (int i = 0; i < e->nproblems; i++)
		if (e->problems[i] == p)
			return i;
	return 0;
}

/* Grading: per selected problem, the variant whose file dir holds (build_choose). */
static void select_for_grading(const struct engine *e, const char *dir, struct selection *sel)
{
	sel->n = e->nids;
	sel->variant = xcalloc((size_t)e->nids + 1, sizeof(int));
	sel->choices = xcalloc((size_t)e->nids + 1, sizeof(*sel->choices));
	for (int k = 0; k < e->nids; k++) {
		build_choose(dir, &e->problems[e->first_variant[k]], e->first_variant[k + 1] - e->first_variant[k],
			     &sel->choices[k]);
		sel->variant[k] = variant_index(e, sel->choices[k].problem);
	}
}

/* Measuring: every variant of lang, from its file in dir. */
static void select_for_measuring(const struct engine *e, const char *dir, const struct language *lang,
				 struct selection *sel)
{
	sel->variant = xcalloc((size_t)e->nproblems + 1, sizeof(int));
	sel->choices = xcalloc((size_t)e->nproblems + 1, sizeof(*sel->choices));
	for (int i = 0; i < e->nproblems; i++)
		if (e->problems[i]->lang == lang) {
			build_choose(dir, &e->problems[i], 1, &sel->choices[sel->n]);
			sel->variant[sel->n++] = i;
		}
}

static void selection_release(struct selection *sel)
{
	for (int i = 0; i < sel->n; i++)
		build_choice_release(&sel->choices[i]);
	free(sel->choices);
	free(sel->variant);
	memset(sel, 0, sizeof(*sel));
}

/* How the limits of a planned test are set. */
struct limits_policy {
	unsigned (*cpu)(const struct engine *e, int pi, int g);
	unsigned (*wall)(const struct group *g, unsigned cpu_ms);
};

/* Build the selection from dir in its own part of the scratch space (*tag, removed by the caller). */
static int build_submission(struct engine *e, const char *dir, const struct selection *sel,
			    struct build_result **builds, char **tag, struct strbuf *err)
{
	struct build_env env = e->env;
	*builds = xcalloc((size_t)sel->n + 1, sizeof(**builds));
	*tag = xasprintf("%s/s%d", e->scratch, e->submissions++);
	if (mkdir(*tag, 0711) < 0) {
		strbuf_addf(err, "cannot create '%s': %s", *tag, strerror(errno));
		return -1;
	}
	env.scratch = *tag;
	build_all(&env, sel->choices, sel->n, dir, *builds, e->opts.jobs);
	return 0;
}

static void plan_release(struct plan *plan)
{
	for (int i = 0; i < plan->ntasks; i++) {
		run_task_release(&plan->tasks[i]);
		if (plan->judged)
			judgement_release(&plan->judged[i]);
	}
	free(plan->tasks);
	free(plan->problem);
	free(plan->kase);
	free(plan->first_task);
	free(plan->judged);
	remeasure_free(plan->rm);
	memset(plan, 0, sizeof(*plan));
}

static void plan_task(const struct engine *e, struct plan *plan, int pi, int k, const struct build_result *b,
		      const unsigned *cpu, const struct limits_policy *lp)
{
	const struct problem *p = e->problems[pi];
	const struct test_case *tc = &p->cases[k];
	const struct group *g = &p->groups[tc->group];
	struct run_task *t = &plan->tasks[plan->ntasks];

	t->runner = b->runner;
	t->runner_argv = (const char *const *)b->runner_argv;
	t->filters = &e->filters[p->lang->filters];
	t->function = tc->func;
	t->args = (struct strbuf)STRBUF_INIT;
	for (int a = 0; a < p->funcs[tc->func].ninputs; a++)
		value_encode(&t->args, &tc->args[a]);
	t->cpu_ms = cpu[tc->group];
	t->wall_ms = lp->wall(g, t->cpu_ms);
	t->memory_mb = g->limits.memory_mb;
	t->output_kb = g->limits.output_kb;
	t->zygote_memory_mb = problem_max_memory_mb(p);
	t->startup_ms = p->limits.startup_ms;
	plan->problem[plan->ntasks] = pi;
	plan->kase[plan->ntasks] = k;
	plan->ntasks++;
}

/* One task per case of every selected variant that built, with the limits lp sets. */
static void plan_tests(const struct engine *e, const struct selection *sel, const struct build_result *builds,
		       const struct limits_policy *lp, struct plan *plan)
{
	int n = 0;
	memset(plan, 0, sizeof(*plan));
	for (int i = 0; i < sel->n; i++)
		if (builds[i].status == BUILD_OK)
			n += e->problems[sel->variant[i]]->ncases;
	plan->tasks = xcalloc((size_t)n + 1, sizeof(*plan->tasks));
	plan->problem = xcalloc((size_t)n + 1, sizeof(int));
	plan->kase = xcalloc((size_t)n + 1, sizeof(int));
	plan->judged = xcalloc((size_t)n + 1, sizeof(*plan->judged));
	plan->first_task = xcalloc((size_t)sel->n + 1, sizeof(int));
	for (int i = 0; i < sel->n; i++) {
		int pi = sel->variant[i];
		const struct problem *p = e->problems[pi];
		unsigned *cpu;
		plan->first_task[i] = -1;
		if (builds[i].status != BUILD_OK)
			continue;
		cpu = xcalloc((size_t)p->ngroups + 1, sizeof(*cpu));
		for (int g = 0; g < p->ngroups; g++)
			cpu[g] = lp->cpu(e, pi, g);
		plan->first_task[i] = plan->ntasks;
		for (int k = 0; k < p->ncases; k++)
			plan_task(e, plan, pi, k, &builds[i], cpu, lp);
		free(cpu);
	}
}

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

/* The verdict of a finished task: its facts judged, and compared when grading. */
static void judge_task(const struct engine *e, struct plan *plan, int i, bool compare)
{
	const struct problem *p = e->problems[plan->problem[i]];
	const struct signature *sig = &p->funcs[p->cases[plan->kase[i]].func];
	struct judgement *j = &plan->judged[i];
	long long expected = 0;

	verdict_of_run(j, &plan->tasks[i], sig);
	if (compare) {
		bool have = expected_for(e, plan->problem[i], plan->kase[i], &expected);
		verdict_compare(j, p, p->cases[plan->kase[i]].func, have, expected);
	}
}

static void skip_task(struct plan *plan, int i, const char *why)
{
	struct judgement *j = &plan->judged[i];
	judgement_release(j);
	memset(j, 0, sizeof(*j));
	j->verdict = V_SKIPPED;
	j->message = xstrdup(why);
	free(plan->tasks[i].facts.output);
	plan->tasks[i].facts.output = NULL;
	memset(&plan->tasks[i].facts.report, 0, sizeof(plan->tasks[i].facts.report));
	plan->tasks[i].facts.wall_ms = 0;
}

/*
 * The all-or-nothing policy, as the pool's client: tests in file order;
 * once a test of an all-or-nothing group fails, the rest of that group is
 * not run.  Except when the program never started (it crashed or raised
 * before its hello): then every test carries that failure, at no cost, and
 * the report says so for each rather than "not run".
 */
struct grading {
	const struct engine *e;
	struct plan *plan;
	int *order;              /* the tasks in the order they are handed out (dispatch_order) */
	int next;
	bool compare;            /* false: measuring (no expected values, nothing skipped) */
	bool *start_failed;      /* by problem: its program failed before its tests (nothing of it is skipped) */
	bool stopped;            /* stop_at_first_failure, and a test failed: hand out nothing more */
	bool *group_failed;      /* by group_base[problem] + group */
	int *group_base;
};

static bool all_or_nothing(const struct grading *g, int task, bool **failed)
{
	const struct problem *p = g->e->problems[g->plan->problem[task]];
	int group = p->cases[g->plan->kase[task]].group;
	*failed = &g->group_failed[g->group_base[g->plan->problem[task]] + group];
	return g->compare && p->groups[group].scoring == SCORE_ALL_OR_NOTHING;
}

/* Did this task's program fail before any test (its verdict is that of every test)? */
static bool failed_to_start(const struct plan *plan, int i)
{
	return plan->tasks[i].done && plan->tasks[i].facts.starting;
}

static int grading_next(void *ctx)
{
	struct grading *g = ctx;
	/* a test at the edge runs again first: its verdict settles its group (all-or-nothing) at once */
	int again = g->plan->rm ? remeasure_next(g->plan->rm) : -1;
	if (again >= 0)
		return again;
	while (g->next < g->plan->ntasks) {
		int i = g->order[g->next++];
		bool *failed;
		if (g->stopped) {
			skip_task(g->plan, i, STOPPED_MESSAGE);
			continue;
		}
		if (all_or_nothing(g, i, &failed) && *failed && !g->start_failed[g->plan->problem[i]]) {
			skip_task(g->plan, i, SKIPPED_MESSAGE);
			continue;
		}
		return i;
	}
	return -1;
}

static void grading_finished(void *ctx, int i)
{
	struct grading *g = ctx;
	bool *failed;
	judge_task(g->e, g->plan, i, g->compare);
	if (g->plan->rm && remeasure_finished(g->plan->rm, i, &g->plan->tasks[i], &g->plan->judged[i]))
		return;
	if (failed_to_start(g->plan, i))
		g->start_failed[g->plan->problem[i]] = true;
	if (g->compare && g->e->opts.stop_at_first_failure && g->plan->judged[i].verdict != V_CORRECT)
		g->stopped = true;
	if (all_or_nothing(g, i, &failed) && g->plan->judged[i].verdict != V_CORRECT)
		*failed = true;
}

/*
 * With several slots, tests of an all-or-nothing group after its first
 * failure may already have run when the failure came in.  Make the verdicts
 * independent of -j and timing: in file order, everything after a group's
 * first failure is skipped, whatever it did.
 */
static void settle_groups(struct grading *g)
{
	int ngroups = g->group_base[g->e->nproblems];
	memset(g->group_failed, 0, (size_t)ngroups + 1);
	for (int i = 0; i < g->plan->ntasks; i++) {
		bool *failed;
		if (!all_or_nothing(g, i, &failed))
			continue;
		if (*failed && g->plan->judged[i].verdict != V_SKIPPED && !failed_to_start(g->plan, i))
			skip_task(g->plan, i, SKIPPED_MESSAGE);
		else if (g->plan->judged[i].verdict != V_CORRECT)
			*failed = true;
	}
}

static bool task_is_hidden(const struct engine *e, const struct plan *plan, int i)
{
	const struct problem *p = e->problems[plan->problem[i]];
	return p->groups[p->cases[plan->kase[i]].group].visibility != VIS_PUBLIC;
}

/*
 * The order tasks are handed to the runners: a problem's tasks together (one
 * warm runner serves them), its public tests before its hidden ones whatever
 * the file's order.  A runner is one process for many tests, and code of the
 * submission can carry state from test to test in it (a shared mapping or a
 * pipe a constructor made); a public test that ran after a hidden one could
 * print the hidden input into the student's report.  Results are collected
 * by case, so the order shows nowhere.
 */
static int *dispatch_order(const struct engine *e, const struct plan *plan)
{
	int *order = xcalloc((size_t)plan->ntasks + 1, sizeof(int)), n = 0;
	for (int start = 0, end; start < plan->ntasks; start = end) {
		for (end = start; end < plan->ntasks && plan->problem[end] == plan->problem[start]; end++)
			;
		for (int hidden = 0; hidden < 2; hidden++)
			for (int i = start; i < end; i++)
				if (task_is_hidden(e, plan, i) == hidden)
					order[n++] = i;
	}
	return order;
}

/* Run the plan on a fresh pool; compare: grading (expected values, all-or-nothing) or measuring. */
static int run_plan(struct engine *e, struct plan *plan, bool compare, struct strbuf *err)
{
	struct grading g = { e, plan, NULL, 0, compare, NULL, false, NULL, NULL };
	struct pool_client client = { grading_next, grading_finished, &g };
	struct pool *pool;
	int ret;

	g.group_base = xcalloc((size_t)e->nproblems + 1, sizeof(int));
	for (int i = 0; i < e->nproblems; i++)
		g.group_base[i + 1] = g.group_base[i] + e->problems[i]->ngroups;
	g.group_failed = xcalloc((size_t)g.group_base[e->nproblems] + 1, sizeof(bool));
	g.start_failed = xcalloc((size_t)e->nproblems + 1, sizeof(bool));
	g.order = dispatch_order(e, plan);
	if (compare)
		plan->rm = remeasure_new(plan->ntasks);
	pool = pool_new(e->opts.jobs, e->workdir, (const char *const *)e->hidden, e->opts.id_block);
	ret = pool_run(pool, plan->tasks, &client);
	pool_free(pool);
	if (ret < 0 && !grader_interrupted)
		strbuf_addstr(err, "the grader's event loop failed");
	if (ret == 0 && compare)
		settle_groups(&g);
	free(g.group_base);
	free(g.group_failed);
	free(g.start_failed);
	free(g.order);
	return ret;
}

/* The result of one test of a problem that built, from its task. */
static void collect_test(struct test_result *tr, struct plan *plan, int i, const struct engine *e)
{
	struct run_task *t = &plan->tasks[i];
	struct judgement *j = &plan->judged[i];

	tr->verdict = j->verdict;
	tr->message = j->message;
	j->message = NULL;
	tr->time_ms = j->cpu_ms;
	tr->peak_kb = j->peak_kb;
	tr->wall_ms = t->facts.wall_ms;
	tr->limit_ms = t->cpu_ms;
	tr->output = t->facts.output;
	t->facts.output = NULL;
	tr->output_total = t->facts.report.output_total;
	tr->has_actual = j->answered;
	tr->actual = j->answer;
	tr->at_startup = t->facts.starting;
	tr->runs = j->verdict == V_SKIPPED ? 0 : remeasure_runs(plan->rm, i);
	/* the expected value, also for a wrong answer that is no number (None, another type) */
	if (tr->has_actual || tr->verdict == V_WRONG_ANSWER)
		tr->has_expected = expected_for(e, plan->problem[i], plan->kase[i], &tr->expected);
}

/* What the runner printed before its first test (the first task that has it). */
static void collect_startup(struct problem_result *pr, struct plan *plan, int i)
{
	int first = plan->first_task[i];
	for (int k = 0; first >= 0 && k < pr->ntests && !pr->startup_output; k++) {
		struct run_facts *f = &plan->tasks[first + k].facts;
		if (f->startup_output) {
			pr->startup_output = f->startup_output;
			pr->startup_total = f->startup_total;
			f->startup_output = NULL;
		}
	}
}

/* Every test of a problem that did not build gets the build's verdict. */
static void collect_unbuilt(struct problem_result *pr, const struct build_result *b)
{
	for (int k = 0; k < pr->ntests; k++) {
		struct test_result *tr = &pr->tests[k];
		tr->verdict = pr->build_verdict;
		tr->message = xstrdup(b->status == BUILD_MISSING_FILE ? b->message
				      : b->status == BUILD_COMPILE_ERROR ? "the file does not compile (see the compiler output)"
				      : b->message ? b->message : "not built");
	}
}

static void collect(const struct engine *e, const struct selection *sel, const struct build_result *builds,
		    struct plan *plan, struct grade_result *out)
{
	for (int i = 0; i < sel->n; i++) {
		const struct problem *p = e->problems[sel->variant[i]];
		struct problem_result *pr = &out->problems[i];
		const struct build_result *b = &builds[i];
		pr->problem = p;
		pr->ntests = p->ncases;
		pr->tests = xcalloc((size_t)p->ncases + 1, sizeof(*pr->tests));
		for (int k = 0; k < p->ncases; k++)
			pr->tests[k].tc = &p->cases[k];
		pr->source = b->source ? xstrdup(b->source) : NULL;
		pr->build_verdict = verdict_of_build_status(b->status);
		pr->compile_ms = b->compile_ms;
		if (b->status != BUILD_OK) {
			pr->build_message = b->message ? xstrdup(b->message) : NULL;
			collect_unbuilt(pr, b);
			continue;
		}
		for (int k = 0; k < p->ncases; k++)
			collect_test(&pr->tests[k], plan, plan->first_task[i] + k, e);
		collect_startup(pr, plan, i);
	}
	for (int i = 0; i < out->nproblems; i++)
		for (int k = 0; k < out->problems[i].ntests; k++) {
			out->internal_error |= out->problems[i].tests[k].verdict == V_JUDGE_ERROR;
			out->remeasured += out->problems[i].tests[k].runs > 1;
		}
}

/* Build, plan with lp's limits, run, collect: the one way through for grading and measuring alike. */
static int run_submission(struct engine *e, const char *dir, const struct selection *sel,
			  const struct limits_policy *lp, bool compare, struct grade_result *out, struct strbuf *err)
{
	struct build_result *builds = NULL;
	struct plan plan;
	char *tag = NULL;
	uint64_t started = now_us();
	int ret = -1;

	memset(&plan, 0, sizeof(plan));
	memset(out, 0, sizeof(*out));
	out->submission = xstrdup(dir);
	out->isolation = xstrdup(sandbox_describe());
	out->nproblems = sel->n;
	out->problems = xcalloc((size_t)sel->n + 1, sizeof(*out->problems));
	if (build_submission(e, dir, sel, &builds, &tag, err) < 0 || grader_interrupted)
		goto cleanup;
	plan_tests(e, sel, builds, lp, &plan);
	if (run_plan(e, &plan, compare, err) < 0)
		goto cleanup;
	collect(e, sel, builds, &plan, out);
	grade_result_score(out);
	if (compare)
		diagnose_result(out);
	/* feedback after grading, from the same builds: it changes no verdict or score */
	if (compare && e->opts.shrink && shrink_result(e, builds, out) < 0)
		goto cleanup;
	if (compare)
		growth_after_grading(e, builds, out);
	out->elapsed_s = (double)(now_us() - started) / 1e6;
	ret = 0;
cleanup:
	plan_release(&plan);
	for (int i = 0; builds && i < sel->n; i++)
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

/* Grading: the problem's limits; the wall-clock backstop well above the CPU limit catches sleepers. */
static unsigned grading_wall(const struct group *g, unsigned cpu_ms)
{
	unsigned wall = g->limits.wall_ms ? g->limits.wall_ms : cpu_ms * 2 + 1000;
	return wall < cpu_ms ? cpu_ms : wall;
}

int engine_grade(struct engine *e, const char *submission, struct grade_result *out, struct strbuf *err)
{
	static const struct limits_policy grading = { engine_cpu_limit, grading_wall };
	struct selection sel;
	int ret;
	memset(&sel, 0, sizeof(sel));
	select_for_grading(e, submission, &sel);
	ret = run_submission(e, submission, &sel, &grading, true, out, err);
	selection_release(&sel);
	return ret;
}

/* Measuring the reference: generous limits (10 x an absolute one, 20 s at most). */
static unsigned measuring_cpu(const struct engine *e, int pi, int g)
{
	const struct limits *lim = &e->problems[pi]->groups[g].limits;
	unsigned base = lim->cpu_factor ? MEASURE_CPU_MS : lim->cpu_ms ? lim->cpu_ms : DEFAULT_CPU_MS;
	return base < MEASURE_CPU_MS / 10 ? base * 10 : MEASURE_CPU_MS;
}

static unsigned measuring_wall(const struct group *g, unsigned cpu_ms)
{
	(void)g;
	return cpu_ms * 2 + 1000;
}

int engine_measure(struct engine *e, const char *dir, const struct language *lang, struct grade_result *out,
		   struct strbuf *err)
{
	static const struct limits_policy measuring = { measuring_cpu, measuring_wall };
	struct selection sel;
	int ret;
	memset(&sel, 0, sizeof(sel));
	select_for_measuring(e, dir, lang, &sel);
	ret = run_submission(e, dir, &sel, &measuring, false, out, err);
	selection_release(&sel);
	return ret;
}
