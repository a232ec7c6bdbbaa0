/* engine.c - see engine.h */
#define _GNU_SOURCE
#include "judge/engine.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "judge/diagnose.h"
#include "base/interrupt.h"
#include "run/runner.h"
#include "sandbox/filter.h"
#include "judge/growth.h"
#include "judge/remeasure.h"
#include "sandbox/sandbox.h"
#include "judge/shrink.h"
#include "judge/verdict.h"
#include "base/l10n.h"

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

/* The selected problems (in problem-set order, whatever order --only gives), each with its variants. */
static int select_problems(struct engine *e, struct strbuf *err)
{
	struct problem_set *set = e->opts.set;
	const char *only = e->opts.only && *e->opts.only ? e->opts.only : NULL;
	int total = 0;

	if (only && problem_set_check_only(set, only, err) < 0)
		return -1;
	for (int i = 0; i < set->nproblems; i++)
		total += problem_nvariants(&set->problems[i]);
	e->problems = xcalloc((size_t)total + 1, sizeof(*e->problems));
	e->first_variant = xcalloc((size_t)set->nproblems + 1, sizeof(int));
	for (int i = 0; i < set->nproblems; i++) {
		struct problem *p = &set->problems[i];
		int before = e->nproblems;
		if (only && !problem_only_names(only, p->id))
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

#define SKIPPED_MESSAGE N_("not run: an earlier test of this all-or-nothing group failed")
#define STOPPED_MESSAGE N_("not run: grading stopped at the first failing test")

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

/* What shrink and growth need of the engine (context.h): borrowed, valid while e is. */
static void engine_context(struct engine *e, struct judge_context *jc)
{
	memset(jc, 0, sizeof(*jc));
	jc->filters = e->filters;
	jc->jobs = e->opts.jobs;
	jc->workdir = e->workdir;
	jc->hidden = (const char *const *)e->hidden;
	jc->id_block = e->opts.id_block;
	jc->log = e->opts.log;
	jc->problems = e->problems;
	jc->nproblems = e->nproblems;
	jc->reference_dir = e->opts.reference_dir;
	jc->env = &e->env;
	jc->scratch = e->scratch;
	jc->submissions = &e->submissions;
	jc->growth = e->opts.growth;
}

static void plan_task(const struct engine *e, const struct judge_context *jc, struct plan *plan, int pi, int k,
		      const struct build_result *b, const unsigned *cpu, const struct limits_policy *lp)
{
	const struct problem *p = e->problems[pi];
	const struct test_case *tc = &p->cases[k];
	const struct group *g = &p->groups[tc->group];
	struct run_task *t = &plan->tasks[plan->ntasks];

	judge_task_init(jc, t, b, p, tc->func);
	for (int a = 0; a < p->funcs[tc->func].ninputs; a++)
		value_encode(&t->args, &tc->args[a]);
	t->cpu_ms = cpu[tc->group];
	t->wall_ms = lp->wall(g, t->cpu_ms);
	t->memory_mb = g->limits.memory_mb;
	t->output_kb = g->limits.output_kb;
	plan->problem[plan->ntasks] = pi;
	plan->kase[plan->ntasks] = k;
	plan->ntasks++;
}

/* One task per case of every selected variant that built, with the limits lp sets. */
static void plan_tests(const struct engine *e, const struct judge_context *jc, const struct selection *sel,
		       const struct build_result *builds, const struct limits_policy *lp, struct plan *plan)
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
			plan_task(e, jc, plan, pi, k, &builds[i], cpu, lp);
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

/* Task i is not run (or its run does not count): V_SKIPPED with message (taken), its facts dropped. */
static void skip_task_with(struct plan *plan, int i, char *message)
{
	struct judgement *j = &plan->judged[i];
	judgement_release(j);
	memset(j, 0, sizeof(*j));
	j->verdict = V_SKIPPED;
	j->message = message;
	free(plan->tasks[i].facts.output);
	plan->tasks[i].facts.output = NULL;
	memset(&plan->tasks[i].facts.report, 0, sizeof(plan->tasks[i].facts.report));
	plan->tasks[i].facts.wall_ms = 0;
}

static void skip_task(struct plan *plan, int i, const char *why)
{
	skip_task_with(plan, i, L10N(xstrdup(_(why))));
}

/*
 * Why a test after REPEATED_FAILURES failures in a row that ended as v was
 * not run, in words; elsewhere: after one such failure, the row having been
 * in an earlier group of the problem (note_repeated).
 */
static char *repeated_message(enum verdict v, bool elsewhere)
{
	if (elsewhere)
		return xasprintf(P_("not run: the test before it in this group failed the same way (%s) as %d test "
				    "in a row of an earlier group of this problem; the rest would most likely too. "
				    "--all-tests runs every test, as the instructor's grading does",
				    "not run: the test before it in this group failed the same way (%s) as %d tests "
				    "in a row of an earlier group of this problem; the rest would most likely too. "
				    "--all-tests runs every test, as the instructor's grading does",
				    REPEATED_FAILURES),
				 verdict_words(v), REPEATED_FAILURES);
	return xasprintf(P_("not run: the %d test before it in this group failed the same way (%s); "
			    "the rest would most likely too. --all-tests runs every test, as the instructor's grading does",
			    "not run: the %d tests before it in this group failed the same way (%s); "
			    "the rest would most likely too. --all-tests runs every test, as the instructor's grading does",
			    REPEATED_FAILURES),
			 REPEATED_FAILURES, verdict_words(v));
}

/*
 * Which tests of a student's run are past their group's stop, in order[]
 * (engine_options.skip_repeated_failures): a group stops after
 * REPEATED_FAILURES failures in a row of one costly kind (repeats), and
 * such a row makes that kind explained for the problem: a later group of
 * it stops after one such failure (p3's endless recursion then fills the
 * stack 6 times, not 10).  One walk over the final verdicts decides every
 * skip (settle_repeated); the same walk, run live over the finished prefix
 * of order[] (advance_live), tells which kinds are explained while tests
 * still run, so that tests are not handed out for nothing - and it can
 * only ever stop a group at or after where the final walk will.
 */
struct repeat_walk {
	int next;                /* the next place in order[] */
	int grp, row;            /* the group walked, and its failures in a row of one kind so far */
	bool elsewhere;          /* the group stopped after one failure of an explained kind */
	enum verdict last;       /* the kind of the row */
	unsigned *explained;     /* by problem: bit v once a row of v stopped one of its groups */
};

/*
 * The all-or-nothing policy, as the pool's client: tests in the order of
 * dispatch_order(); once a test of an all-or-nothing group fails, the rest
 * of that group is not run.  Except when the program never started (it
 * crashed or raised before its hello): then every test carries that
 * failure, at no cost, and the report says so for each rather than "not
 * run".
 */
struct grading {
	const struct engine *e;
	struct plan *plan;
	int *order;              /* the tasks in the order they are handed out (dispatch_order) */
	int npublic;             /* order[0..npublic) are the public tests, the rest the hidden ones */
	int next;
	int end;                 /* this phase hands out order[next..end) (run_phase) */
	bool compare;            /* false: measuring (no expected values, nothing skipped) */
	bool *start_failed;      /* by problem: its program failed before its tests (nothing of it is skipped) */
	bool stopped;            /* stop_at_first_failure, and a test failed: hand out nothing more */
	bool *group_failed;      /* by group_base[problem] + group */
	int *group_base;
	/* engine_options.skip_repeated_failures (NULL when off) */
	int *pos;                /* by task: its place in order[] (a group's tests are consecutive there) */
	bool *settled;           /* by task: finished with its final verdict (not to be run again) */
	int *repeated_at;        /* by group: the place in order[] of the test that made REPEATED_FAILURES
				  * failures in a row; the tests after it are not run.  INT_MAX: none yet */
	enum verdict *repeated;  /* by group: how those failures ended */
	bool *repeated_elsewhere;/* by group: after one failure, the row being an earlier group's (repeat_walk) */
	bool *finished;          /* by task: its verdict is final, or it was not handed out */
	struct repeat_walk live; /* over order[0..live.next): every test there finished */
	struct repeat_walk final;/* settle_repeated's, phase after phase */
	int *explained_at;       /* by problem * V_COUNT + verdict: where in order[] the live walk met a row
				  * of that verdict that stopped a group; INT_MAX: none */
	struct engine_progress now; /* for opts.progress: tests done, failures so far (a display, no policy) */
};

/* Tell the progress display, if any, where the run is; last: the task last handed out or finished, or -1. */
static void show_progress(struct grading *g, int last)
{
	if (!g->e->opts.progress)
		return;
	if (last >= 0) {
		const struct problem *p = g->e->problems[g->plan->problem[last]];
		g->now.problem = p->id;
		g->now.language = p->lang->display;
	}
	g->e->opts.progress(g->e->opts.progress_ctx, &g->now);
}

/* A new phase of the run, for the display. */
static void progress_phase(struct grading *g, const char *phase)
{
	g->now.phase = phase;
	show_progress(g, -1);
}

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

/* The group of task i, numbered across the run's problems (group_base). */
static int group_of(const struct grading *g, int i)
{
	const struct problem *p = g->e->problems[g->plan->problem[i]];
	return g->group_base[g->plan->problem[i]] + p->cases[g->plan->kase[i]].group;
}

/*
 * Does task i's verdict count towards failures in a row that stop its group
 * (engine_options.skip_repeated_failures)?  The costly failures only: each
 * spends a limit (time, memory, a stack filled by an endless recursion) or
 * prints too much, while a wrong answer costs what a right one does.  A
 * program that failed before its tests is not one: its failure costs nothing.
 */
static bool repeats(const struct grading *g, int i, enum verdict *v)
{
	*v = g->plan->judged[i].verdict;
	return g->settled[i] && !failed_to_start(g->plan, i) && verdict_is_costly(*v);
}

/*
 * One step of a repeat_walk: test order[w->next], whose verdict is final.
 * Returns true when it is past its group's stop (w->last and w->elsewhere
 * say why).  at (NULL: not kept): where each kind was first explained.
 */
static bool walk_step(struct grading *g, struct repeat_walk *w, int *at)
{
	int n = w->next++, i = g->order[n], prob = g->plan->problem[i];
	enum verdict v;

	if (group_of(g, i) != w->grp) {
		w->grp = group_of(g, i);
		w->row = 0;
		w->elsewhere = false;
	}
	if (w->row >= REPEATED_FAILURES || w->elsewhere)
		return true;
	if (!repeats(g, i, &v)) {
		w->row = 0;
		return false;
	}
	w->row = w->row && v == w->last ? w->row + 1 : 1;
	w->last = v;
	if (w->row >= REPEATED_FAILURES && !(w->explained[prob] & (1u << v))) {
		w->explained[prob] |= 1u << v;
		if (at)
			at[prob * V_COUNT + v] = n;
	} else if (w->row < REPEATED_FAILURES && (w->explained[prob] & (1u << v))) {
		w->elsewhere = true;
	}
	return false;
}

static void walk_init(struct repeat_walk *w, int from, int nproblems)
{
	memset(w, 0, sizeof(*w));
	w->next = from;
	w->grp = -1;
	w->explained = xcalloc((size_t)nproblems + 1, sizeof(unsigned));
}

/* The live walk over every test of order[] now finished, from where it was. */
static void advance_live(struct grading *g)
{
	while (g->live.next < g->plan->ntasks && g->finished[g->order[g->live.next]])
		walk_step(g, &g->live, g->explained_at);
}

/*
 * Task i has its final verdict: if it completes REPEATED_FAILURES failures
 * in a row of its group that ended the same way (tests not yet settled break
 * a row), or is one failure of a kind the live walk found explained before
 * it, the group's tests after it are not handed out.
 */
static void note_repeated(struct grading *g, int i)
{
	int grp = group_of(g, i), first = g->pos[i], last = g->pos[i];
	enum verdict v, w;

	advance_live(g);
	if (!repeats(g, i, &v))
		return;
	while (first > 0 && group_of(g, g->order[first - 1]) == grp && repeats(g, g->order[first - 1], &w) && w == v)
		first--;
	while (last + 1 < g->plan->ntasks && group_of(g, g->order[last + 1]) == grp &&
	       repeats(g, g->order[last + 1], &w) && w == v)
		last++;
	if (last - first + 1 >= REPEATED_FAILURES && first + REPEATED_FAILURES - 1 < g->repeated_at[grp]) {
		g->repeated_at[grp] = first + REPEATED_FAILURES - 1;
		g->repeated[grp] = v;
		g->repeated_elsewhere[grp] = false;
	}
	if (g->explained_at[g->plan->problem[i] * V_COUNT + v] < g->pos[i] && g->pos[i] < g->repeated_at[grp]) {
		g->repeated_at[grp] = g->pos[i];
		g->repeated[grp] = v;
		g->repeated_elsewhere[grp] = true;
	}
}

/*
 * The verdicts of a student's run, independent of -j and timing: the walk
 * over order[] (repeat_walk) in file order, and every test past its
 * group's stop is not run, whatever it did (with two slots, some may have
 * run meanwhile).  For the tests order[from..to): the walk goes on from
 * the phase before (a public group's row explains a hidden group's failure).
 */
static void settle_repeated(struct grading *g, int from, int to)
{
	struct repeat_walk *w = &g->final;
	w->next = from;
	while (w->next < to) {
		int i = g->order[w->next];
		if (walk_step(g, w, NULL))
			skip_task_with(g->plan, i, L10N(repeated_message(w->last, w->elsewhere)));
	}
}

/* Task i is not handed out: skipped with message (taken), and done for the display and the live walk. */
static void not_handed_out(struct grading *g, int i, char *message)
{
	skip_task_with(g->plan, i, message);
	g->now.done++;
	if (g->finished)
		g->finished[i] = true;
}

static int grading_next(void *ctx)
{
	struct grading *g = ctx;
	/* a test at the edge runs again first: its verdict settles its group (all-or-nothing) at once */
	int again = g->plan->rm ? remeasure_next(g->plan->rm) : -1;
	if (again >= 0)
		return again;
	while (g->next < g->end) {
		int i = g->order[g->next++];
		bool *failed;
		if (g->stopped) {
			not_handed_out(g, i, L10N(xstrdup(_(STOPPED_MESSAGE))));
			continue;
		}
		if (all_or_nothing(g, i, &failed) && *failed && !g->start_failed[g->plan->problem[i]]) {
			not_handed_out(g, i, L10N(xstrdup(_(SKIPPED_MESSAGE))));
			continue;
		}
		if (g->repeated_at && g->pos[i] > g->repeated_at[group_of(g, i)]) {
			int grp = group_of(g, i);
			not_handed_out(g, i, L10N(repeated_message(g->repeated[grp], g->repeated_elsewhere[grp])));
			continue;
		}
		show_progress(g, i);
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
	g->now.done++;
	g->now.failed += g->compare && g->plan->judged[i].verdict != V_CORRECT;
	show_progress(g, i);
	if (failed_to_start(g->plan, i))
		g->start_failed[g->plan->problem[i]] = true;
	if (g->compare && g->e->opts.stop_at_first_failure && g->plan->judged[i].verdict != V_CORRECT)
		g->stopped = true;
	if (all_or_nothing(g, i, &failed) && g->plan->judged[i].verdict != V_CORRECT)
		*failed = true;
	if (g->repeated_at) {
		g->finished[i] = true;
		g->settled[i] = !all_or_nothing(g, i, &failed);
		note_repeated(g, i);
	}
}

/*
 * With several slots, tests of an all-or-nothing group after its first
 * failure may already have run when the failure came in.  Make the verdicts
 * independent of -j and timing: in file order, everything after a group's
 * first failure is skipped, whatever it did.  For the tests order[from..to),
 * one phase's (a group's tests are all public or all hidden).
 */
static void settle_groups(struct grading *g, int from, int to)
{
	bool *failed;
	for (int n = from; n < to; n++) {
		all_or_nothing(g, g->order[n], &failed);
		*failed = false;
	}
	for (int n = from; n < to; n++) {
		int i = g->order[n];
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
 * The order tasks are handed to the runners: every public test of the run,
 * of every problem, before any hidden one (each kind problem by problem,
 * each problem's in file order), and the hidden tests start only once every
 * public one has finished (run_submission runs them as two phases).  What a
 * student sees of a public test - its output, its time, its verdict - is
 * then made before any hidden test ran: a public test that printed the
 * clock after hidden tests had run would tell how long they took, and a
 * program can take as long as its hidden input says (issue 29).  A runner
 * serves many tests, and a submission can carry state from test to test in
 * it (a shared mapping or a pipe a constructor made); no public test runs
 * in a runner that ran a hidden one either.  Results are collected by case,
 * so the order shows nowhere.  Sets *npublic.
 */
static int *dispatch_order(const struct engine *e, const struct plan *plan, int *npublic)
{
	int *order = xcalloc((size_t)plan->ntasks + 1, sizeof(int)), n = 0;
	for (int hidden = 0; hidden < 2; hidden++) {
		if (hidden)
			*npublic = n;
		for (int i = 0; i < plan->ntasks; i++)
			if (task_is_hidden(e, plan, i) == hidden)
				order[n++] = i;
	}
	return order;
}

static void grading_init(struct grading *g, const struct engine *e, struct plan *plan, bool compare)
{
	memset(g, 0, sizeof(*g));
	g->e = e;
	g->plan = plan;
	g->compare = compare;
	g->group_base = xcalloc((size_t)e->nproblems + 1, sizeof(int));
	for (int i = 0; i < e->nproblems; i++)
		g->group_base[i + 1] = g->group_base[i] + e->problems[i]->ngroups;
	g->group_failed = xcalloc((size_t)g->group_base[e->nproblems] + 1, sizeof(bool));
	g->start_failed = xcalloc((size_t)e->nproblems + 1, sizeof(bool));
	g->order = dispatch_order(e, plan, &g->npublic);
	if (compare && e->opts.skip_repeated_failures) {
		int ngroups = g->group_base[e->nproblems];
		g->pos = xcalloc((size_t)plan->ntasks + 1, sizeof(int));
		g->settled = xcalloc((size_t)plan->ntasks + 1, sizeof(bool));
		g->repeated_at = xcalloc((size_t)ngroups + 1, sizeof(int));
		g->repeated = xcalloc((size_t)ngroups + 1, sizeof(enum verdict));
		g->repeated_elsewhere = xcalloc((size_t)ngroups + 1, sizeof(bool));
		g->finished = xcalloc((size_t)plan->ntasks + 1, sizeof(bool));
		g->explained_at = xcalloc((size_t)e->nproblems * V_COUNT + 1, sizeof(int));
		walk_init(&g->live, 0, e->nproblems);
		walk_init(&g->final, 0, e->nproblems);
		for (int n = 0; n < plan->ntasks; n++)
			g->pos[g->order[n]] = n;
		for (int k = 0; k < ngroups; k++)
			g->repeated_at[k] = INT_MAX;
		for (int k = 0; k < e->nproblems * V_COUNT; k++)
			g->explained_at[k] = INT_MAX;
	}
	g->now.total = plan->ntasks;
	g->now.phase = compare ? "testing" : "reference";
	if (compare && !plan->rm)
		plan->rm = remeasure_new(plan->ntasks);
	/* graded tests run on past their limit to a cap, so that one far past it runs once (remeasure.h) */
	for (int n = 0; compare && n < plan->ntasks; n++)
		plan->tasks[n].cpu_cap_ms = remeasure_cap_ms(plan->tasks[n].cpu_ms);
}

static void grading_release(struct grading *g)
{
	free(g->group_base);
	free(g->group_failed);
	free(g->start_failed);
	free(g->order);
	free(g->pos);
	free(g->settled);
	free(g->repeated_at);
	free(g->repeated);
	free(g->repeated_elsewhere);
	free(g->finished);
	free(g->explained_at);
	free(g->live.explained);
	free(g->final.explained);
	memset(g, 0, sizeof(*g));
}

/*
 * Run the tasks of the order up to end (the public tests: g->npublic; then
 * the rest: plan->ntasks) on the pool, and settle their groups when
 * grading.  pool_run returns once every task it handed out has finished.
 */
static int run_phase(struct grading *g, struct pool *pool, int end, struct strbuf *err)
{
	struct pool_client client = { grading_next, grading_finished, g };
	int from = g->next;

	g->end = end;
	if (pool_run(pool, g->plan->tasks, &client) < 0) {
		if (!grader_interrupted)
			strbuf_addstr(err, "the grader's event loop failed");
		return -1;
	}
	if (g->compare)
		settle_groups(g, from, end);
	if (g->repeated_at)
		settle_repeated(g, from, end);
	return 0;
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
	tr->returned = j->returned;
	tr->recursion_limit = j->recursion_limit;
	tr->at_startup = t->facts.starting;
	tr->runs = j->verdict == V_SKIPPED ? 0 : remeasure_runs(plan->rm, i);
	/* the expected value, also for a wrong answer that is no number (None, another type) */
	if (tr->has_actual || tr->verdict == V_WRONG_ANSWER)
		tr->has_expected = expected_for(e, plan->problem[i], plan->kase[i], &tr->expected);
}

/*
 * What the runner printed before its first test: the first task of the
 * problem, of tests of visibility vis, that has it.  A runner started for
 * hidden tests started after hidden tests ran (dispatch_order): what it
 * printed then is marked for the instructor's view alone (startup_hidden).
 */
static void collect_startup(const struct engine *e, struct problem_result *pr, struct plan *plan, int i,
			    enum visibility vis)
{
	int first = plan->first_task[i];
	for (int k = 0; first >= 0 && k < pr->ntests && !pr->startup_output; k++) {
		struct run_facts *f = &plan->tasks[first + k].facts;
		if (task_is_hidden(e, plan, first + k) != (vis != VIS_PUBLIC) || !f->startup_output)
			continue;
		pr->startup_output = f->startup_output;
		pr->startup_total = f->startup_total;
		pr->startup_hidden = vis != VIS_PUBLIC;
		f->startup_output = NULL;
	}
}

/* Every test of a problem that did not build gets the build's verdict. */
static void collect_unbuilt(struct problem_result *pr, const struct build_result *b)
{
	for (int k = 0; k < pr->ntests; k++) {
		struct test_result *tr = &pr->tests[k];
		tr->verdict = pr->build_verdict;
		tr->message = L10N(xstrdup(b->status == BUILD_MISSING_FILE ? l10n_message(b->message)
				      : b->status == BUILD_COMPILE_ERROR ? _("the file does not compile (see the compiler output)")
				      : b->message ? l10n_message(b->message) : _("not built")));
	}
}

/* Are the files a and b byte for byte the same (both readable)? */
static bool same_file(const char *a, const char *b)
{
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	bool same = read_file(&x, a) == 0 && read_file(&y, b) == 0 && x.len == y.len && !memcmp(x.buf, y.buf, x.len);
	strbuf_release(&x);
	strbuf_release(&y);
	return same;
}

/* Are a and b the same directory? */
static bool same_dir(const char *a, const char *b)
{
	struct stat x, y;
	return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* The template's own file named like source (in the template or its python/), if it has one. */
static char *template_file(const char *template_dir, const char *source)
{
	static const char *const where[] = { "", "/python" };
	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		char *dir = xasprintf("%s%s", template_dir, where[i]), *f = build_find_source(dir, source), *path = NULL;
		if (f)
			path = xasprintf("%s/%s", dir, f);
		free(dir);
		free(f);
		if (path)
			return path;
	}
	return NULL;
}

/*
 * A student who copied the template and wrote their code in another file
 * (mywork/python/P1.py beside the untouched mywork/p1.c) is graded on the
 * template: say so, and name the file they wrote (issue 31).  NULL when the
 * graded file is not the template's, or dir is the template itself, or dir
 * is NULL (measuring: k would not be a problem's index).
 */
static char *template_note(const struct engine *e, const char *dir, int k, const struct build_choice *c)
{
	char *path, *tmpl, *note = NULL;
	struct strbuf elsewhere = STRBUF_INIT;
	DIR *d;
	struct dirent *de;

	if (!e->opts.template_dir || !dir || !c->file || same_dir(dir, e->opts.template_dir))
		return NULL;
	path = xasprintf("%s/%s", dir, c->file);
	tmpl = template_file(e->opts.template_dir, c->file);
	if (!tmpl || !same_file(path, tmpl)) {
		free(path);
		free(tmpl);
		return NULL;
	}
	/* the problem's file in a subdirectory (one level down), changed from the template's */
	d = opendir(dir);
	while (d && (de = readdir(d)) && !elsewhere.len) {
		char *sub;
		struct stat st;
		if (de->d_name[0] == '.')
			continue;
		sub = xasprintf("%s/%s", dir, de->d_name);
		for (int v = e->first_variant[k]; !elsewhere.len && v < e->first_variant[k + 1]; v++) {
			char *f, *fp, *ft;
			if (stat(sub, &st) < 0 || !S_ISDIR(st.st_mode) || !(f = build_find_source(sub, e->problems[v]->source)))
				continue;
			fp = xasprintf("%s/%s", sub, f);
			ft = template_file(e->opts.template_dir, f);
			if (!ft || !same_file(fp, ft))
				strbuf_addf(&elsewhere, "%s/%s", de->d_name, f);
			free(f);
			free(fp);
			free(ft);
		}
		free(sub);
	}
	if (d)
		closedir(d);
	if (elsewhere.len)
		note = L10N(xasprintf(_("%s is the template's file, unchanged, and it is the one graded here: the grader "
					"reads only the files directly in the submission directory. Your %s is not graded: "
					"move it up (and remove %s), or grade that directory."),
				      c->file, elsewhere.buf, c->file));
	else
		note = L10N(xasprintf(_("%s is the template's file, unchanged: this is not your work yet."), c->file));
	strbuf_release(&elsewhere);
	free(path);
	free(tmpl);
	return note;
}

/* The problem results, before any test ran: what the builds say, every test of a problem that did not build. */
static void collect_builds(const struct engine *e, const char *dir, const struct selection *sel,
			   const struct build_result *builds, struct grade_result *out)
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
		pr->source_note = template_note(e, dir, i, &sel->choices[i]);
		pr->build_verdict = verdict_of_build_status(b->status);
		pr->compile_ms = b->compile_ms;
		if (b->status != BUILD_OK) {
			pr->build_message = b->message ? xstrdup(b->message) : NULL;
			collect_unbuilt(pr, b);
		}
	}
}

/* The results of the tests of visibility vis, once they ran (the others keep theirs, or zeros until theirs run). */
static void collect_tests(const struct engine *e, const struct selection *sel, struct plan *plan,
			  struct grade_result *out, enum visibility vis)
{
	for (int i = 0; i < sel->n; i++) {
		struct problem_result *pr = &out->problems[i];
		int first = plan->first_task[i];
		if (first < 0)
			continue;
		for (int k = 0; k < pr->ntests; k++)
			if (task_is_hidden(e, plan, first + k) == (vis != VIS_PUBLIC))
				collect_test(&pr->tests[k], plan, first + k, e);
		collect_startup(e, pr, plan, i, vis);
	}
}

/* How many tests were run more than once near their time limit (remeasure.h)? */
static int count_remeasured(const struct grade_result *out)
{
	int n = 0;
	for (int i = 0; i < out->nproblems; i++)
		for (int k = 0; k < out->problems[i].ntests; k++)
			n += out->problems[i].tests[k].runs > 1;
	return n;
}

/* Could some test not be judged (every verdict is in)? */
static bool any_judge_error(const struct grade_result *out)
{
	for (int i = 0; i < out->nproblems; i++)
		for (int k = 0; k < out->problems[i].ntests; k++)
			if (out->problems[i].tests[k].verdict == V_JUDGE_ERROR)
				return true;
	return false;
}

/*
 * Build, plan with lp's limits, run, collect: the one way through for
 * grading and measuring alike.  In two phases (dispatch_order): the public
 * tests, then what a student sees besides them - the smallest failing
 * input, growth - and only then the hidden tests, so that nothing a student
 * sees was made after a hidden test ran.  The runners of the public tests
 * are ended before the feedback (its pools use the same sandbox uids); the
 * pool keeps what it learnt of runners that failed to start.
 */
static int run_submission(struct engine *e, const char *dir, const struct selection *sel,
			  const struct limits_policy *lp, bool compare, struct grade_result *out, struct strbuf *err)
{
	struct build_result *builds = NULL;
	struct judge_context jc;
	struct grading g;
	struct pool *pool = NULL;
	struct plan plan;
	char *tag = NULL;
	uint64_t started = now_us();
	int ret = -1;

	memset(&plan, 0, sizeof(plan));
	memset(&g, 0, sizeof(g));
	memset(out, 0, sizeof(*out));
	out->submission = xstrdup(dir);
	out->isolation = xstrdup(sandbox_describe());
	out->nproblems = sel->n;
	out->problems = xcalloc((size_t)sel->n + 1, sizeof(*out->problems));
	if (e->opts.progress) {
		struct engine_progress building = { compare ? "building" : "reference", NULL, NULL, 0, 0, 0 };
		e->opts.progress(e->opts.progress_ctx, &building);
	}
	if (build_submission(e, dir, sel, &builds, &tag, err) < 0 || grader_interrupted)
		goto cleanup;
	collect_builds(e, compare ? dir : NULL, sel, builds, out);
	engine_context(e, &jc);
	plan_tests(e, &jc, sel, builds, lp, &plan);
	grading_init(&g, e, &plan, compare);
	pool = judge_pool(&jc, 0);
	if (run_phase(&g, pool, g.npublic, err) < 0)
		goto cleanup;
	collect_tests(e, sel, &plan, out, VIS_PUBLIC);
	pool_stop_runners(pool);
	/* feedback from the public tests and the same builds: it changes no verdict or score */
	if (compare) {
		progress_phase(&g, "feedback");
		diagnose_result(out, VIS_PUBLIC);
		if (e->opts.shrink && shrink_result(&jc, builds, out) < 0)
			goto cleanup;
		growth_after_grading(&jc, builds, out, VIS_PUBLIC);
		progress_phase(&g, "hidden tests");
	}
	if (grader_interrupted || run_phase(&g, pool, plan.ntasks, err) < 0)
		goto cleanup;
	collect_tests(e, sel, &plan, out, VIS_HIDDEN);
	out->internal_error = any_judge_error(out);
	out->remeasured = count_remeasured(out);
	out->remeasured_cpu_ms = remeasure_extra_ms(plan.rm);
	grade_result_score(out);
	if (compare) {
		diagnose_result(out, VIS_HIDDEN);
		/* the measurement's runners take the same sandbox uids: RLIMIT_NPROC counts the ones still up */
		pool_stop_runners(pool);
		growth_after_grading(&jc, builds, out, VIS_HIDDEN);
		if (e->opts.reveal_hidden) {
			pool_stop_runners(pool); /* the search's pools use the same sandbox uids */
			if (shrink_hidden(&jc, builds, out) < 0)
				goto cleanup;
		}
	}
	out->elapsed_s = (double)(now_us() - started) / 1e6;
	ret = 0;
cleanup:
	pool_free(pool);
	grading_release(&g);
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
