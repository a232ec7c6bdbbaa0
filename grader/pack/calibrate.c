/*
 * calibrate.c - see calibrate.h.
 *
 * The workload: a game's positions on a ring of 4096 cells, each given the
 * least value its neighbours 1, 3 and 4 back and one a hash picks do not
 * have (a mex, the Grundy computation of the course's games), folded into
 * an FNV-1a hash.  Table look-ups, branches and 64-bit multiplications,
 * in a few KiB: what the problems' solutions do, no memory bandwidth.
 * The C and the Python text compute the same function (CALIBRATE_CHECK:
 * both give it for n = 20000, checked on every measurement), each sized
 * to about 100 ms of CPU on the machine the project is developed on.
 */
#define _GNU_SOURCE
#include "pack/calibrate.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build/build.h"
#include "judge/engine.h"
#include "base/interrupt.h"
#include "judge/result.h"

#define PROBLEM_MAX_CPU_MS 600000u   /* what problem.c accepts */
#define PROBLEM_MAX_WALL_MS 3600000u

/* n = 20000: the answer both texts give (worked out with each, gcc -O2 and python3, and the same) */
#define CALIBRATE_CHECK_N 20000
#define CALIBRATE_CHECK 4364671733979942531LL

static const char c_workload[] =
	"/* the grader's calibration workload (calibrate.c) */\n"
	"static unsigned char g[4096];\n"
	"long long calibrate(long long n)\n"
	"{\n"
	"\tunsigned long long h = 1469598103934665603ULL;\n"
	"\tfor (long long i = 0; i < 4096; i++)\n"
	"\t\tg[i] = 0;\n"
	"\tfor (long long i = 0; i < n; i++) {\n"
	"\t\tunsigned s = (unsigned)(i & 4095), m = 0;\n"
	"\t\tunsigned a = g[(s - 1) & 4095], b = g[(s - 3) & 4095], c = g[(s - 4) & 4095];\n"
	"\t\tunsigned d = g[(s + (h & 63)) & 4095];\n"
	"\t\twhile (m == a || m == b || m == c || m == d)\n"
	"\t\t\tm++;\n"
	"\t\tg[s] = (unsigned char)(m ^ (h & 1));\n"
	"\t\th = (h ^ m) * 1099511628211ULL;\n"
	"\t}\n"
	"\treturn (long long)(h >> 1);\n"
	"}\n";

static const char python_workload[] =
	"# the grader's calibration workload (calibrate.c)\n"
	"def calibrate(n):\n"
	"    g = [0] * 4096\n"
	"    h = 1469598103934665603\n"
	"    for i in range(n):\n"
	"        s = i & 4095\n"
	"        a = g[(s - 1) & 4095]\n"
	"        b = g[(s - 3) & 4095]\n"
	"        c = g[(s - 4) & 4095]\n"
	"        d = g[(s + (h & 63)) & 4095]\n"
	"        m = 0\n"
	"        while m == a or m == b or m == c or m == d:\n"
	"            m += 1\n"
	"        g[s] = m ^ (h & 1)\n"
	"        h = ((h ^ m) * 1099511628211) & 0xFFFFFFFFFFFFFFFF\n"
	"    return h >> 1\n";

/* A language's workload and its size (about 100 ms of CPU here). */
static int workload(const struct language *lang, const char **text, long long *n)
{
	if (!strcmp(lang->name, "c")) {
		*text = c_workload;
		*n = 60000000;
	} else if (!strcmp(lang->name, "python")) {
		*text = python_workload;
		*n = 300000;
	} else {
		return -1;
	}
	return 0;
}

/* GRADER_TEST_CALIBRATION_WORK (calibrate.h): 1 unless set to 1..10. */
static long long work_multiplier(void)
{
	const char *s = getenv("GRADER_TEST_CALIBRATION_WORK");
	char *end;
	long k;
	if (!s || !*s)
		return 1;
	k = strtol(s, &end, 10);
	return *end || k < 1 || k > 10 ? 1 : k;
}

/* The workload's problem file: `runs` runs of size n, then the check. */
static void problem_text(struct strbuf *sb, const struct language *lang, long long n, int runs)
{
	strbuf_addf(sb, "id: calibrate\n"
			"title: Calibration workload\n"
			"source: calibrate%s\n"
			"functions:\n"
			"  - long long calibrate(long long n)\n"
			"limits: {cpu_ms: %u, memory_mb: %u}\n"
			"groups:\n"
			"  - name: runs\n"
			"    visibility: public\n"
			"    scoring: sum\n"
			"    points: 1\n"
			"    cases:\n",
		    lang->extension, MEASURE_CPU_MS, DEFAULT_MEMORY_MB);
	for (int k = 0; k < runs; k++)
		strbuf_addf(sb, "      - {args: [%lld]}\n", n);
	strbuf_addf(sb, "      - {args: [%d]}\n", CALIBRATE_CHECK_N);
}

/* The least CPU time of the runs in r, after checking every answer.  0, or -1 with err. */
static int least_time(const struct grade_result *r, const struct language *lang, int runs, unsigned *ms,
		      struct strbuf *err)
{
	const struct problem_result *pr = r->nproblems == 1 ? &r->problems[0] : NULL;
	long long first = 0;

	if (!pr || pr->build_message || pr->ntests != runs + 1) {
		strbuf_addf(err, "the %s calibration workload did not build%s%s", lang->display,
			    pr && pr->build_message ? ": " : "", pr && pr->build_message ? pr->build_message : "");
		return -1;
	}
	*ms = 0;
	for (int k = 0; k <= runs; k++) {
		const struct test_result *t = &pr->tests[k];
		if (!t->has_actual || t->verdict != V_CORRECT) {
			strbuf_addf(err, "the %s calibration workload failed: %s%s%s", lang->display,
				    verdict_name(t->verdict), t->message ? ": " : "", t->message ? t->message : "");
			return -1;
		}
		if (k == runs) {
			if (t->actual != CALIBRATE_CHECK) {
				strbuf_addf(err, "the %s calibration workload computed %lld for n = %d, not %lld",
					    lang->display, t->actual, CALIBRATE_CHECK_N, CALIBRATE_CHECK);
				return -1;
			}
			break;
		}
		if (k && t->actual != first) {
			strbuf_addf(err, "the %s calibration workload gave two answers for one input", lang->display);
			return -1;
		}
		first = t->actual;
		if (!*ms || t->time_ms < *ms)
			*ms = t->time_ms;
	}
	if (!*ms)
		*ms = 1; /* below the clock's resolution: as fast as can be told */
	return 0;
}

int calibrate_measure(const struct calibrate_options *o, const struct language *lang, int runs, unsigned *ms,
		      struct strbuf *err)
{
	const char *tmp = o->scratch_parent ? o->scratch_parent : getenv("TMPDIR");
	struct problem_set set = PROBLEM_SET_INIT;
	struct engine_options opts;
	struct engine e;
	struct grade_result r;
	struct strbuf text = STRBUF_INIT;
	char *dir, *problems = NULL, *src = NULL, *file = NULL;
	const char *code;
	long long n;
	bool usage, have_engine = false, have_result = false;
	int ret = -1;

	if (workload(lang, &code, &n) < 0) {
		strbuf_addf(err, "no calibration workload for %s", lang->display);
		return -1;
	}
	n *= work_multiplier();
	dir = xasprintf("%s/calibrate.XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		strbuf_addf(err, "cannot create a directory for the calibration in '%s': %s",
			    tmp && *tmp == '/' ? tmp : "/tmp", strerror(errno));
		free(dir);
		return -1;
	}
	problems = xasprintf("%s/problems", dir);
	src = xasprintf("%s/src", dir);
	file = xasprintf("%s/calibrate.yaml", problems);
	if (runs < 1 || runs > 100)
		runs = CALIBRATE_RUNS;
	problem_text(&text, lang, n, runs);
	if (mkdir_p(problems, 0700) < 0 || mkdir_p(src, 0700) < 0 || write_file_atomic(file, text.buf, text.len) < 0) {
		strbuf_addf(err, "cannot write the calibration's files in '%s': %s", dir, strerror(errno));
		goto cleanup;
	}
	free(file);
	file = xasprintf("%s/calibrate%s", src, lang->extension);
	if (write_file_atomic(file, code, strlen(code)) < 0) {
		strbuf_addf(err, "cannot write '%s': %s", file, strerror(errno));
		goto cleanup;
	}
	if (problem_set_load(&set, problems, err) < 0)
		goto cleanup;
	memset(&opts, 0, sizeof(opts));
	opts.set = &set;
	opts.jobs = 1; /* one run at a time: the runs must not compete with each other */
	opts.cache_dir = o->cache_dir;
	opts.scratch_parent = o->scratch_parent;
	opts.id_block = o->id_block;
	opts.growth = GROWTH_NEVER;
	have_engine = true; /* engine_release undoes a partial engine_init too */
	if (engine_init(&e, &opts, err, &usage) < 0)
		goto cleanup;
	if (engine_measure(&e, src, lang, &r, err) < 0)
		goto cleanup;
	have_result = true;
	ret = least_time(&r, lang, runs, ms, err);
cleanup:
	if (have_result)
		grade_result_release(&r);
	if (have_engine)
		engine_release(&e);
	problem_set_release(&set);
	remove_tree(dir);
	strbuf_release(&text);
	free(file);
	free(src);
	free(problems);
	free(dir);
	return ret;
}

/* The entry of lang in c[0..n), added when absent (n < max); NULL when full. */
static struct calibration *entry(struct calibration *c, int *n, int max, const struct language *lang,
				 unsigned there_ms)
{
	for (int i = 0; i < *n; i++)
		if (c[i].lang == lang)
			return &c[i];
	if (*n >= max)
		return NULL;
	memset(&c[*n], 0, sizeof(c[*n]));
	c[*n].lang = lang;
	c[*n].there_ms = there_ms;
	c[*n].factor = c[*n].applied = 1;
	return &c[(*n)++];
}

static unsigned scaled(unsigned ms, double f, unsigned max)
{
	double v = ceil(ms * f);
	return v > max ? max : v < 1 ? 1 : (unsigned)v;
}

/* Does the submission hold p's file (in p's language)?  Without a submission: every language counts. */
static bool has_source(const char *submission, const struct problem *p)
{
	char *file = submission ? build_find_source(submission, p->source) : NULL;
	free(file);
	return !submission || file;
}

int calibrate_apply(struct problem_set *set, const char *submission, const struct calibrate_options *o,
		    struct calibration *out, int max, int *n, FILE *log)
{
	int measured = 0;

	*n = 0;
	/* the languages to measure, with the time the pack was made with: those the submission is in */
	for (int i = 0; i < set->nproblems; i++)
		for (int v = 0; v <= set->problems[i].nvariants; v++) {
			struct problem *p = problem_variant(&set->problems[i], v);
			for (int g = 0; g < p->ngroups; g++)
				if (p->groups[g].limits.calibration_ms && has_source(submission, p))
					entry(out, n, max, p->lang, p->groups[g].limits.calibration_ms);
		}
	for (int i = 0; i < *n; i++) {
		struct calibration *c = &out[i];
		struct strbuf err = STRBUF_INIT;
		if (grader_interrupted)
			break; /* the caller's engine says so next */
		if (calibrate_measure(o, c->lang, CALIBRATE_RUNS, &c->here_ms, &err) < 0) {
			if (log && !grader_interrupted)
				fprintf(log, "grader: warning: %s; the %s time limits are used as written\n", err.buf,
					c->lang->display);
			c->here_ms = 0;
			strbuf_release(&err);
			continue;
		}
		strbuf_release(&err);
		measured++;
		c->factor = (double)c->here_ms / c->there_ms;
		c->applied = c->factor;
		c->clamped = c->factor < CALIBRATE_MIN || c->factor > CALIBRATE_MAX;
		if (c->factor < CALIBRATE_MIN)
			c->applied = CALIBRATE_MIN;
		if (c->factor > CALIBRATE_MAX)
			c->applied = CALIBRATE_MAX;
	}
	/* every group with a calibrated limit, scaled by its language's factor */
	for (int i = 0; i < set->nproblems; i++)
		for (int v = 0; v <= set->problems[i].nvariants; v++) {
			struct problem *p = problem_variant(&set->problems[i], v);
			for (int g = 0; g < p->ngroups; g++) {
				struct limits *lim = &p->groups[g].limits;
				struct calibration *c = lim->calibration_ms ? entry(out, n, 0, p->lang, 0) : NULL;
				if (!c || !c->here_ms)
					continue;
				lim->cpu_ms = scaled(lim->cpu_ms, c->applied, PROBLEM_MAX_CPU_MS);
				if (lim->wall_ms)
					lim->wall_ms = scaled(lim->wall_ms, c->applied, PROBLEM_MAX_WALL_MS);
			}
		}
	return measured;
}

char *calibrate_note(const struct calibration *c, int n)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < n; i++) {
		const struct calibration *x = &c[i];
		const char *lang = x->lang->display;
		if (sb.len)
			strbuf_addch(&sb, '\n');
		if (!x->here_ms) {
			strbuf_addf(&sb, "The speed of this machine could not be measured for %s: its time limits are "
				    "the pack's as written.", lang);
			continue;
		}
		if (x->factor >= 1.0 / CALIBRATE_SAME && x->factor <= CALIBRATE_SAME)
			strbuf_addf(&sb, "This machine ran the %s calibration workload about as fast as the machine the "
				    "pack was made on (%u ms of CPU here, %u ms there)", lang, x->here_ms, x->there_ms);
		else
			strbuf_addf(&sb, "This machine looked %.1fx %s than the machine the pack was made on for %s "
				    "(calibration workload: %u ms of CPU here, %u ms there)",
				    x->factor >= 1 ? x->factor : 1 / x->factor, x->factor >= 1 ? "slower" : "faster", lang,
				    x->here_ms, x->there_ms);
		if (x->clamped)
			strbuf_addf(&sb, "; that is more than the grader trusts, so its time limits are scaled by "
				    "x%.2f only: time verdicts here may differ from the real grading.", x->applied);
		else
			strbuf_addf(&sb, ": its time limits are scaled by x%.2f.", x->applied);
	}
	if (!sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}
