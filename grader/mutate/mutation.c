/* mutation.c - see mutation.h: generating the mutants, grading them in workers, the accounting */
#define _GNU_SOURCE
#include "mutate/mutation.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "base/interrupt.h"
#include "judge/reference.h"
#include "base/workers.h"

#define WORKER_START_S 120 /* engine_init compiles the runtimes */

/* What a worker found for one mutant, in a page shared with the parent. */
struct shared_fate {
	int fate;       /* enum mutant_fate, or -1 while not graded */
	int verdict;
	int test;
};

/* One run: what the workers' callbacks share (the parent's, inherited by each worker through fork). */
struct run {
	const struct mutation_options *o;
	struct engine engine;          /* the parent's: the reference answers, which workers adopt */
	struct mutation_result *res;
	int *task_problem, *task_mutant;/* per task (a mutant): its problem_mutation and index there */
	int ntasks;
	struct shared_fate *shared;    /* ntasks entries, MAP_SHARED */
	char *tmp;                     /* the workers' scratch: tmp/w<k> */
	int nworkers;
	int done;
};

const char *mutant_fate_name(enum mutant_fate f)
{
	static const char *const names[FATE_COUNT] = { "killed", "survived", "equivalent", "not-compiling", "error" };
	return f < FATE_COUNT ? names[f] : "?";
}

/* ---- generating ---- */

static int generate_one(struct run *r, int pi, struct problem_mutation *pm, struct strbuf *err)
{
	const struct problem *p = r->engine.problems[pi];
	char *dir = reference_dir(&r->engine, p->lang);
	char *found = build_find_source(dir, p->source);
	int ret = -1;

	pm->problem = p;
	pm->source = (struct strbuf)STRBUF_INIT;
	if (!found) {
		strbuf_addf(err, "no reference file '%s' in '%s'", p->source, dir);
		goto cleanup;
	}
	pm->path = xasprintf("%s/%s", dir, found);
	if (read_file(&pm->source, pm->path) < 0) {
		strbuf_addf(err, "cannot read '%s': %s", pm->path, strerror(errno));
		goto cleanup;
	}
	if (mutate_generate(p->source, pm->source.buf, pm->source.len, &pm->mutants, err) < 0)
		goto cleanup;
	pm->outcomes = xcalloc((size_t)pm->mutants.n + 1, sizeof(*pm->outcomes));
	for (int k = 0; k < pm->mutants.n; k++) {
		struct strbuf d = STRBUF_INIT;
		mutant_diff(&d, p->source, pm->source.buf, pm->source.len, &pm->mutants.v[k]);
		pm->outcomes[k].diff = strbuf_detach(&d);
		pm->outcomes[k].test = -1;
	}
	ret = 0;
cleanup:
	free(found);
	free(dir);
	return ret;
}

/* Every selected variant's reference, mutated; the tasks in order. */
static int generate(struct run *r, struct strbuf *err)
{
	struct mutation_result *res = r->res;
	res->problems = xcalloc((size_t)r->engine.nproblems + 1, sizeof(*res->problems));
	for (int i = 0; i < r->engine.nproblems; i++) {
		if (r->engine.ref[i].failure) {
			strbuf_addf(err, "the reference fails its own tests, so its mutants would mean nothing: %s",
				    r->engine.ref[i].failure);
			return MUTATION_REFERENCE_FAILS;
		}
		res->nproblems++;
		if (generate_one(r, i, &res->problems[i], err) < 0)
			return -1;
		r->ntasks += res->problems[i].mutants.n;
	}
	r->task_problem = xcalloc((size_t)r->ntasks + 1, sizeof(int));
	r->task_mutant = xcalloc((size_t)r->ntasks + 1, sizeof(int));
	r->ntasks = 0;
	for (int i = 0; i < res->nproblems; i++)
		for (int k = 0; k < res->problems[i].mutants.n; k++) {
			r->task_problem[r->ntasks] = i;
			r->task_mutant[r->ntasks++] = k;
		}
	return 0;
}

/* ---- the workers ---- */

/* In worker k: an engine of its own that stops at a mutant's first failing test. */
static int worker_start(void *ctx, int k, void **state, struct strbuf *err)
{
	struct run *r = ctx;
	struct engine *e = xcalloc(1, sizeof(*e));
	struct engine_options opts = r->engine.opts;
	char **hidden = xcalloc((size_t)r->nworkers + 2, sizeof(char *));
	char *dir = workers_scratch_dir(r->tmp, k);
	int nh = 0, ret = -1;
	bool usage;

	hidden[nh++] = xstrdup(r->engine.scratch);
	workers_scratch_others(r->tmp, r->nworkers, k, hidden, &nh);
	opts.extra_hidden = (const char *const *)hidden;
	opts.scratch_parent = dir;
	opts.jobs = 1; /* one test at a time: the first failure ends the mutant, nothing runs past it */
	opts.stop_at_first_failure = true;
	opts.log = NULL;
	opts.id_block = (unsigned)k + 1;
	if (engine_init(e, &opts, err, &usage) < 0) {
		engine_release(e);
		free(e);
		goto cleanup;
	}
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

/* The fate of a graded mutant: its problem's result, the first test that failed. */
static struct shared_fate judge_mutant(const struct problem_result *pr)
{
	struct shared_fate f = { FATE_SURVIVED, V_CORRECT, -1 };
	if (pr->build_verdict == V_COMPILER_ERROR) {
		f.fate = FATE_NOT_COMPILING;
		f.verdict = V_COMPILER_ERROR;
		return f;
	}
	if (pr->build_verdict != V_CORRECT) {
		f.fate = pr->build_verdict == V_JUDGE_ERROR ? FATE_ERROR : FATE_KILLED;
		f.verdict = pr->build_verdict;
		return f;
	}
	for (int k = 0; k < pr->ntests; k++) {
		enum verdict v = pr->tests[k].verdict;
		if (v == V_CORRECT || v == V_SKIPPED)
			continue;
		f.fate = v == V_JUDGE_ERROR ? FATE_ERROR : FATE_KILLED;
		f.verdict = v;
		f.test = k;
		return f;
	}
	return f;
}

static int worker_work(void *ctx, void *state, int task)
{
	struct run *r = ctx;
	struct engine *e = state;
	struct problem_mutation *pm = &r->res->problems[r->task_problem[task]];
	const struct mutant *m = &pm->mutants.v[r->task_mutant[task]];
	char *dir = xasprintf("%s/m%d", e->scratch, task), *path = xasprintf("%s/%s", dir, pm->problem->source);
	char *text = mutant_apply(pm->source.buf, pm->source.len, m);
	struct strbuf err = STRBUF_INIT;
	struct grade_result gr;
	int ret = 0;

	r->shared[task].fate = FATE_ERROR;
	if (mkdir(dir, 0755) < 0 || write_file_atomic(path, text, strlen(text)) < 0)
		goto cleanup;
	if (engine_grade(e, dir, &gr, &err) < 0) {
		ret = grader_interrupted ? -1 : 0;
		goto cleanup;
	}
	for (int i = 0; i < gr.nproblems; i++)
		if (gr.problems[i].problem == pm->problem)
			r->shared[task] = judge_mutant(&gr.problems[i]);
	grade_result_release(&gr);
cleanup:
	remove_tree(dir);
	strbuf_release(&err);
	free(text);
	free(path);
	free(dir);
	return ret;
}

static void worker_stop(void *ctx, void *state)
{
	(void)ctx;
	if (state) {
		engine_release(state);
		free(state);
	}
}

static void mutant_finished(void *ctx, int task, const struct workers_loss *lost)
{
	struct run *r = ctx;
	struct mutant_outcome *mo = &r->res->problems[r->task_problem[task]].outcomes[r->task_mutant[task]];
	const struct shared_fate *f = &r->shared[task];

	if (lost || f->fate < 0 || f->fate >= FATE_COUNT) {
		mo->fate = FATE_ERROR;
		mo->error = xstrdup(!lost ? "the worker finished without a fate"
				    : lost->why == WORKER_OVER_DEADLINE ? "grading took longer than the deadline (stopped)"
				    : lost->why == WORKER_STOPPED ? "stopped" : "the worker died while grading it");
	} else {
		mo->fate = (enum mutant_fate)f->fate;
		mo->verdict = (enum verdict)f->verdict;
		mo->test = f->test;
		if (mo->fate == FATE_ERROR)
			mo->error = xstrdup("a test could not be judged (judge-error)");
	}
	r->done++;
	if (r->o->progress && (r->done % 50 == 0 || r->done == r->ntasks))
		fprintf(r->o->progress, "grader: mutate: %d of %d mutants graded\n", r->done, r->ntasks);
}

/* A backstop per mutant: everything its problem's limits allow one slot, and then some (batch's rule). */
static double mutant_deadline(const struct engine *e)
{
	double worst = 0;
	for (int i = 0; i < e->nproblems; i++) {
		const struct problem *p = e->problems[i];
		double s = 60 + (e->env.compile.wall_ms ? e->env.compile.wall_ms : 30000) / 1000.0;
		for (int k = 0; k < p->ncases; k++) {
			const struct group *g = &p->groups[p->cases[k].group];
			unsigned cpu = engine_cpu_limit(e, i, p->cases[k].group);
			unsigned wall = g->limits.wall_ms ? g->limits.wall_ms : cpu * 2 + 1000;
			s += (wall > cpu ? wall : cpu) / 1000.0 + 0.05;
		}
		if (s > worst)
			worst = s;
	}
	return worst;
}

static int grade_mutants(struct run *r, struct strbuf *err)
{
	struct workers_client c;
	int *tasks = xcalloc((size_t)r->ntasks + 1, sizeof(int)), ret = -1;

	for (int i = 0; i < r->ntasks; i++)
		tasks[i] = i;
	memset(&c, 0, sizeof(c));
	c.nworkers = r->nworkers;
	c.task_deadline_s = mutant_deadline(&r->engine);
	c.start_deadline_s = WORKER_START_S;
	c.start = worker_start;
	c.work = worker_work;
	c.stop = worker_stop;
	c.finished = mutant_finished;
	c.ctx = r;
	r->tmp = workers_scratch("mutate", r->nworkers, err);
	if (r->tmp)
		ret = workers_run(&c, tasks, r->ntasks, err);
	free(tasks);
	return ret;
}

/* ---- the accounting ---- */

static const struct equivalent_mutant *listed(const struct problem *p, const char *id)
{
	for (int k = 0; k < p->nequivalents; k++)
		if (!strcmp(p->equivalents[k].id, id))
			return &p->equivalents[k];
	return NULL;
}

/* Does equivalent id name a file of another variant of p's problem (to be checked there)? */
static bool other_variants_file(const struct engine *e, const struct problem *p, const char *id)
{
	for (int i = 0; i < e->nproblems; i++) {
		const struct problem *q = e->problems[i];
		size_t l = strlen(q->source);
		if (q != p && !strcmp(q->id, p->id) && !strncmp(id, q->source, l) && id[l] == ':')
			return true;
	}
	return false;
}

static void account(const struct engine *e, struct problem_mutation *pm)
{
	const struct problem *p = pm->problem;
	for (int k = 0; k < pm->mutants.n; k++) {
		struct mutant_outcome *mo = &pm->outcomes[k];
		const struct equivalent_mutant *eq = listed(p, pm->mutants.v[k].id);
		if (eq && mo->fate == FATE_SURVIVED) {
			mo->fate = FATE_EQUIVALENT;
			mo->reason = eq->reason;
		} else if (eq && (mo->fate == FATE_KILLED || mo->fate == FATE_NOT_COMPILING)) {
			mo->mislisted = true;
			mo->reason = eq->reason;
		}
		pm->count[mo->fate]++;
		if (mo->fate == FATE_KILLED)
			pm->killed_by[mo->verdict]++;
	}
	pm->stale = xcalloc((size_t)p->nequivalents + 1, sizeof(char *));
	for (int j = 0; j < p->nequivalents; j++) {
		bool found = false;
		for (int k = 0; k < pm->mutants.n && !found; k++)
			found = !strcmp(pm->mutants.v[k].id, p->equivalents[j].id);
		if (!found && !other_variants_file(e, p, p->equivalents[j].id))
			pm->stale[pm->nstale++] = xasprintf("%s (%s:%d:%d)", p->equivalents[j].id, p->path,
							    p->equivalents[j].line, p->equivalents[j].column);
	}
}

int problem_mutation_percent(const struct problem_mutation *pm)
{
	int scored = pm->count[FATE_KILLED] + pm->count[FATE_SURVIVED];
	return scored ? pm->count[FATE_KILLED] * 100 / scored : 100;
}

int mutation_problems_found(const struct mutation_result *r)
{
	int n = 0;
	for (int i = 0; i < r->nproblems; i++) {
		const struct problem_mutation *pm = &r->problems[i];
		n += pm->count[FATE_SURVIVED] + pm->nstale;
		for (int k = 0; k < pm->mutants.n; k++)
			n += pm->outcomes[k].mislisted;
	}
	return n;
}

static int start(struct run *r, struct strbuf *err, bool *usage)
{
	struct engine_options opts = r->o->engine;
	int ret;
	if (engine_init(&r->engine, &opts, err, usage) < 0)
		return -1;
	if (reference_load(&r->engine, err) < 0)
		return -1;
	ret = generate(r, err);
	if (ret < 0)
		return ret;
	r->nworkers = r->o->jobs > 0 ? r->o->jobs : cpu_count();
	if (r->nworkers > r->ntasks)
		r->nworkers = r->ntasks;
	r->shared = mmap(NULL, ((size_t)r->ntasks + 1) * sizeof(*r->shared), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r->shared == MAP_FAILED) {
		r->shared = NULL;
		strbuf_addf(err, "cannot map the workers' page: %s", strerror(errno));
		return -1;
	}
	for (int i = 0; i < r->ntasks; i++)
		r->shared[i].fate = -1;
	return 0;
}

int mutation_run(const struct mutation_options *o, struct mutation_result *out, struct strbuf *err, bool *usage)
{
	struct run r;
	uint64_t started = now_us();
	int ret = -1;

	memset(&r, 0, sizeof(r));
	memset(out, 0, sizeof(*out));
	*usage = false;
	r.o = o;
	r.res = out;
	ret = start(&r, err, usage);
	if (ret < 0)
		goto cleanup;
	ret = -1;
	out->jobs = r.nworkers;
	if (o->progress)
		fprintf(o->progress, "grader: mutate: %d mutants of %d reference file%s, %d at a time\n", r.ntasks,
			out->nproblems, out->nproblems == 1 ? "" : "s", r.nworkers);
	if (r.ntasks && grade_mutants(&r, err) < 0)
		goto cleanup;
	for (int i = 0; i < out->nproblems; i++)
		account(&r.engine, &out->problems[i]);
	ret = 0;
cleanup:
	out->seconds = (double)(now_us() - started) / 1e6;
	if (r.shared)
		munmap(r.shared, ((size_t)r.ntasks + 1) * sizeof(*r.shared));
	if (r.tmp) {
		remove_tree(r.tmp);
		free(r.tmp);
	}
	free(r.task_problem);
	free(r.task_mutant);
	engine_release(&r.engine);
	if (ret)
		mutation_result_release(out);
	return ret;
}

void mutation_result_release(struct mutation_result *r)
{
	for (int i = 0; i < r->nproblems; i++) {
		struct problem_mutation *pm = &r->problems[i];
		for (int k = 0; pm->outcomes && k < pm->mutants.n; k++) {
			free(pm->outcomes[k].diff);
			free(pm->outcomes[k].error);
		}
		free(pm->outcomes);
		mutant_list_release(&pm->mutants);
		strbuf_release(&pm->source);
		free(pm->path);
		for (int k = 0; k < pm->nstale; k++)
			free(pm->stale[k]);
		free(pm->stale);
	}
	free(r->problems);
	memset(r, 0, sizeof(*r));
}
