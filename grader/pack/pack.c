/*
 * pack.c - `grader pack OUTDIR`: the problem files of a student pack.
 *
 * A student pack has no reference solutions and must not hold the hidden
 * tests, yet `bin/grader` has to grade with it exactly like the real thing
 * on the public tests.  So for every selected problem this writes
 * OUTDIR/<id>.yaml with libyaml's emitter, from the loaded problem and the
 * reference's answers:
 *
 *   - hidden groups are left out altogether (not marked: absent);
 *   - every public case becomes one explicit case: its name, call, literal
 *     args and `expected:` (the file's own value, else the reference's);
 *     group name, visibility, scoring, points and hint are kept;
 *   - a relative CPU limit (cpu_factor) becomes an absolute cpu_ms: the
 *     limit the grader applies here (engine_cpu_limit) x PACK_CPU_MARGIN,
 *     because students' machines and CI runners are often slower than the
 *     machine that timed the reference.  Absolute limits are kept as they
 *     are; memory and output limits too;
 *   - every CPU limit carries calibration_ms, the CPU time the calibration
 *     workload of its language took on this machine when the pack was made
 *     (calibrate.h): the student's grader times the same workload and
 *     scales the limits by how much slower or faster it ran there.
 *
 * Such a file needs no reference (reference_needed() is false), so
 * the engine never looks for reference/.  Each file is read back with
 * problem_load() and compared with what was meant before it is renamed into
 * place; a problem with no public group gets no file.
 *
 * Ownership: everything allocated here is freed before returning.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

#include "pack/calibrate.h"
#include "judge/reference.h"
#include "pack/pack.h"
#include "run/runner.h"
#include "sandbox/sandbox.h"
#include "base/version.h"

#define PACK_CPU_MARGIN 2
#define PACK_CPU_MAX_MS 600000u /* what problem.c accepts */

struct emitter {
	yaml_emitter_t em;
	bool failed;
};

/* The emitter owns and frees the event, also when it fails. */
static void emit(struct emitter *x, yaml_event_t *ev)
{
	if (x->failed) {
		yaml_event_delete(ev);
		return;
	}
	if (!yaml_emitter_emit(&x->em, ev))
		x->failed = true;
}

/* plain: numbers and booleans, which the loader wants unquoted; others as the emitter sees fit */
static void scalar(struct emitter *x, const char *s, bool plain)
{
	yaml_event_t ev;
	if (!yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s), 1, 1,
					  plain ? YAML_PLAIN_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE)) {
		x->failed = true;
		return;
	}
	emit(x, &ev);
}

__attribute__((format(printf, 2, 3)))
static void scalarf(struct emitter *x, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	scalar(x, sb.buf, true);
	strbuf_release(&sb);
}

static void key(struct emitter *x, const char *k)
{
	scalar(x, k, true);
}

static void mapping_start(struct emitter *x, bool flow)
{
	yaml_event_t ev;
	yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE);
	emit(x, &ev);
}

static void mapping_end(struct emitter *x)
{
	yaml_event_t ev;
	yaml_mapping_end_event_initialize(&ev);
	emit(x, &ev);
}

static void sequence_start(struct emitter *x, bool flow)
{
	yaml_event_t ev;
	yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
					     flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE);
	emit(x, &ev);
}

static void sequence_end(struct emitter *x)
{
	yaml_event_t ev;
	yaml_sequence_end_event_initialize(&ev);
	emit(x, &ev);
}

/* The shortest decimal that reads back as d (points: 0.4, not 0.40000000000000002). */
static void number(struct emitter *x, double d)
{
	char buf[64];
	for (int prec = 6; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	scalar(x, buf, true);
}

static void value(struct emitter *x, const struct value *v)
{
	if (value_type_is_array(v->type)) {
		sequence_start(x, true);
		for (size_t k = 0; k < v->len; k++)
			scalarf(x, "%lld", v->arr[k]);
		sequence_end(x);
	} else if (v->type == VT_BOOL) {
		scalar(x, v->i ? "true" : "false", true);
	} else {
		scalarf(x, "%lld", v->i);
	}
}

/* What a packed group looks like: the problem's group with its limits made absolute. */
static unsigned packed_cpu_ms(const struct engine *e, int pi, int g)
{
	const struct group *grp = &e->problems[pi]->groups[g];
	unsigned long long ms;
	if (!grp->limits.cpu_factor)
		return grp->limits.cpu_ms ? grp->limits.cpu_ms : DEFAULT_CPU_MS;
	ms = (unsigned long long)engine_cpu_limit(e, pi, g) * PACK_CPU_MARGIN;
	return ms > PACK_CPU_MAX_MS ? PACK_CPU_MAX_MS : (unsigned)ms;
}

static unsigned packed_wall_ms(const struct group *grp, unsigned cpu_ms)
{
	/* an explicit backstop below the new CPU limit would not load: use the default */
	return grp->limits.wall_ms >= cpu_ms ? grp->limits.wall_ms : 0;
}

/* The answer a public case expects: the file's own, else the reference's. */
static int case_answer(const struct engine *e, int pi, int k, long long *out, struct strbuf *err)
{
	const struct problem *p = e->problems[pi];
	const struct test_case *tc = &p->cases[k];
	if (tc->has_expected) {
		*out = tc->expected;
		return 0;
	}
	if (e->ref_loaded && e->ref[pi].have[k]) {
		*out = e->ref[pi].answer[k];
		return 0;
	}
	strbuf_addf(err, "%s: the reference gave no answer for the public test '%s'%s%s (see grader selftest)",
		    p->id, tc->name, e->ref[pi].failure ? ": " : "", e->ref[pi].failure ? e->ref[pi].failure : "");
	return -1;
}

/* The calibration workload's time for lang when the pack is made, 0 when not measured. */
static unsigned calibration_of(const struct pack_calibration *cal, const struct language *lang)
{
	for (int i = 0; cal && i < cal->n; i++)
		if (cal->c[i].lang == lang)
			return cal->c[i].there_ms;
	return 0;
}

/* The group's limits, absolute: {cpu_ms, calibration_ms, wall_ms, memory_mb, output_kb}. */
static void emit_limits(struct emitter *x, const struct engine *e, int pi, int g, const struct pack_calibration *cal)
{
	const struct group *grp = &e->problems[pi]->groups[g];
	unsigned cpu_ms = packed_cpu_ms(e, pi, g), wall_ms = packed_wall_ms(grp, cpu_ms);
	unsigned calib_ms = calibration_of(cal, e->problems[pi]->lang);

	mapping_start(x, true);
	key(x, "cpu_ms");
	scalarf(x, "%u", cpu_ms);
	if (calib_ms) {
		key(x, "calibration_ms");
		scalarf(x, "%u", calib_ms);
	}
	if (wall_ms) {
		key(x, "wall_ms");
		scalarf(x, "%u", wall_ms);
	}
	key(x, "memory_mb");
	scalarf(x, "%u", grp->limits.memory_mb);
	key(x, "output_kb");
	scalarf(x, "%u", grp->limits.output_kb);
	mapping_end(x);
}

/* The group's cases, each explicit with its name, C function, args and expected answer. */
static void emit_cases(struct emitter *x, const struct engine *e, int pi, int g, const long long *answers)
{
	const struct problem *p = e->problems[pi];
	const struct group *grp = &p->groups[g];

	sequence_start(x, false);
	for (int k = grp->first_case; k < grp->first_case + grp->ncases; k++) {
		const struct test_case *tc = &p->cases[k];
		const struct signature *sig = &p->funcs[tc->func];
		mapping_start(x, true);
		key(x, "name");
		scalar(x, tc->name, false);
		key(x, "call");
		scalar(x, sig->name, false);
		key(x, "args");
		sequence_start(x, true);
		for (int a = 0; a < sig->ninputs; a++)
			value(x, &tc->args[a]);
		sequence_end(x);
		key(x, "expected");
		if (sig->ret == VT_BOOL)
			scalar(x, answers[k] ? "true" : "false", true);
		else
			scalarf(x, "%lld", answers[k]);
		mapping_end(x);
	}
	sequence_end(x);
}

static void emit_group(struct emitter *x, const struct engine *e, int pi, int g, const long long *answers,
		       const struct pack_calibration *cal)
{
	const struct group *grp = &e->problems[pi]->groups[g];

	mapping_start(x, false);
	key(x, "name");
	scalar(x, grp->name, false);
	key(x, "visibility");
	scalar(x, visibility_name(grp->visibility), true);
	key(x, "scoring");
	scalar(x, scoring_name(grp->scoring), true);
	key(x, "points");
	number(x, grp->points);
	if (grp->hint) {
		key(x, "hint");
		scalar(x, grp->hint, false);
	}
	if (grp->hint_ko) {
		key(x, "hint_ko");
		scalar(x, grp->hint_ko, false);
	}
	key(x, "limits");
	emit_limits(x, e, pi, g, cal);
	key(x, "cases");
	emit_cases(x, e, pi, g, answers);
	mapping_end(x);
}

/* languages.<lang> of a further variant: its source, its calls, and every public group's own hint, cases and limits. */
static void emit_language(struct emitter *x, const struct engine *e, int pi, const long long *answers,
			  const struct pack_calibration *cal)
{
	const struct problem *p = e->problems[pi];

	mapping_start(x, false);
	key(x, "source");
	scalar(x, p->source, false);
	key(x, "calls");
	mapping_start(x, true);
	for (int f = 0; f < p->nfuncs; f++) {
		key(x, p->funcs[f].name);
		scalar(x, problem_call_name(p, f), false);
	}
	mapping_end(x);
	key(x, "groups");
	mapping_start(x, false);
	for (int g = 0; g < p->ngroups; g++) {
		if (p->groups[g].visibility != VIS_PUBLIC)
			continue;
		key(x, p->groups[g].name);
		mapping_start(x, false);
		if (p->groups[g].hint) {
			key(x, "hint");
			scalar(x, p->groups[g].hint, false);
		}
		if (p->groups[g].hint_ko) {
			key(x, "hint_ko");
			scalar(x, p->groups[g].hint_ko, false);
		}
		key(x, "limits");
		emit_limits(x, e, pi, g, cal);
		key(x, "cases");
		emit_cases(x, e, pi, g, answers);
		mapping_end(x);
	}
	mapping_end(x);
	mapping_end(x);
}

static void emit_functions(struct emitter *x, const struct problem *p)
{
	sequence_start(x, false);
	for (int f = 0; f < p->nfuncs; f++) {
		struct strbuf sb = STRBUF_INIT;
		signature_format(&sb, &p->funcs[f]);
		scalar(x, sb.buf, false);
		strbuf_release(&sb);
	}
	sequence_end(x);
}

/* The problem's variants e->problems[first .. first + n), with their answers. */
static void emit_problem(struct emitter *x, const struct engine *e, int first, int n, long long *const *answers,
			 const struct pack_calibration *cal)
{
	const struct problem *p = e->problems[first];
	yaml_event_t ev;

	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	emit(x, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	emit(x, &ev);
	mapping_start(x, false);
	key(x, "id");
	scalar(x, p->id, false);
	key(x, "title");
	scalar(x, p->title, false);
	key(x, "source");
	scalar(x, p->source, false);
	key(x, "functions");
	emit_functions(x, p);
	key(x, "groups");
	sequence_start(x, false);
	for (int g = 0; g < p->ngroups; g++)
		if (p->groups[g].visibility == VIS_PUBLIC)
			emit_group(x, e, first, g, answers[0], cal);
	sequence_end(x);
	if (n > 1) {
		key(x, "languages");
		mapping_start(x, false);
		key(x, p->lang->name);
		scalar(x, "", true);
		for (int v = 1; v < n; v++) {
			key(x, e->problems[first + v]->lang->name);
			emit_language(x, e, first + v, answers[v], cal);
		}
		mapping_end(x);
	}
	mapping_end(x);
	yaml_document_end_event_initialize(&ev, 1);
	emit(x, &ev);
	yaml_stream_end_event_initialize(&ev);
	emit(x, &ev);
}

/* Does the written file q say what p's public part and the answers say?  0, or -1 with err. */
static int verify(const struct engine *e, int pi, const struct problem *q, const long long *answers,
		  const struct pack_calibration *cal, struct strbuf *err)
{
	const struct problem *p = e->problems[pi];
	int qg = 0, qk = 0;

	if (reference_needed(q)) {
		strbuf_addf(err, "%s: still needs the reference", q->path);
		return -1;
	}
	if (strcmp(p->id, q->id) || strcmp(p->title, q->title) || strcmp(p->source, q->source) ||
	    p->nfuncs != q->nfuncs || p->lang != q->lang) {
		strbuf_addf(err, "%s: id, title, language, source or functions differ", q->path);
		return -1;
	}
	for (int f = 0; f < p->nfuncs; f++)
		if (strcmp(problem_call_name(p, f), problem_call_name(q, f))) {
			strbuf_addf(err, "%s: the %s name of %s differs", q->path, p->lang->name, p->funcs[f].name);
			return -1;
		}
	for (int g = 0; g < p->ngroups; g++) {
		const struct group *a = &p->groups[g], *b;
		if (a->visibility != VIS_PUBLIC)
			continue;
		if (qg >= q->ngroups) {
			strbuf_addf(err, "%s: group '%s' is missing", q->path, a->name);
			return -1;
		}
		b = &q->groups[qg++];
		if (strcmp(a->name, b->name) || b->visibility != VIS_PUBLIC || a->scoring != b->scoring ||
		    a->points != b->points || a->ncases != b->ncases || !a->hint != !b->hint ||
		    (a->hint && strcmp(a->hint, b->hint)) || !a->hint_ko != !b->hint_ko ||
		    (a->hint_ko && strcmp(a->hint_ko, b->hint_ko)) || b->limits.cpu_ms != packed_cpu_ms(e, pi, g) ||
		    b->limits.calibration_ms != calibration_of(cal, p->lang) ||
		    a->limits.memory_mb != b->limits.memory_mb || a->limits.output_kb != b->limits.output_kb) {
			strbuf_addf(err, "%s: group '%s' does not read back as written", q->path, a->name);
			return -1;
		}
		for (int k = a->first_case; k < a->first_case + a->ncases; k++, qk++) {
			const struct test_case *x = &p->cases[k], *y = &q->cases[qk];
			bool same = !strcmp(x->name, y->name) && x->func == y->func && y->has_expected &&
				    y->expected == answers[k];
			for (int i = 0; same && i < p->funcs[x->func].ninputs; i++)
				same = value_equal(&x->args[i], &y->args[i]);
			if (!same) {
				strbuf_addf(err, "%s: case '%s' does not read back as written", q->path, x->name);
				return -1;
			}
		}
	}
	if (qg != q->ngroups || qk != q->ncases) {
		strbuf_addf(err, "%s: more groups or cases than written", q->path);
		return -1;
	}
	return 0;
}

/* The answers of variant pi's public cases: the file's own, else the reference's. */
static long long *public_answers(const struct engine *e, int pi, int *publics, int *hidden, struct strbuf *err)
{
	const struct problem *p = e->problems[pi];
	long long *answers = xcalloc((size_t)p->ncases + 1, sizeof(long long));
	*publics = *hidden = 0;
	for (int k = 0; k < p->ncases; k++) {
		if (p->groups[p->cases[k].group].visibility != VIS_PUBLIC) {
			(*hidden)++;
			continue;
		}
		(*publics)++;
		if (case_answer(e, pi, k, &answers[k], err) < 0) {
			free(answers);
			return NULL;
		}
	}
	return answers;
}

/* Emit the file to tmp.  0, or -1 with err. */
static int write_yaml(const char *tmp, const struct engine *e, int first, int n, long long *const *answers,
		      const struct pack_calibration *cal, struct strbuf *err)
{
	const struct problem *p = e->problems[first];
	struct emitter x;
	FILE *f = fopen(tmp, "w");
	int ret = -1;

	memset(&x, 0, sizeof(x));
	if (!f) {
		strbuf_addf(err, "cannot write '%s': %s", tmp, strerror(errno));
		return -1;
	}
	fprintf(f, "# %s.yaml - the student pack's copy of %s, made by `grader pack` (grader %s).\n"
		   "# Public groups only; every answer written out as `expected:`; CPU limits\n"
		   "# absolute (%d x the limit the reference's times give, for slower machines),\n"
		   "# scaled on each machine by how fast it runs the calibration workload\n"
		   "# (calibration_ms: its CPU time where the pack was made).\n"
		   "# Generated: change the original and make the pack again rather than edit this.\n",
		p->id, p->path, GRADER_VERSION, PACK_CPU_MARGIN);
	if (!yaml_emitter_initialize(&x.em)) {
		strbuf_addstr(err, "cannot initialise the YAML emitter");
		fclose(f);
		return -1;
	}
	yaml_emitter_set_output_file(&x.em, f);
	yaml_emitter_set_unicode(&x.em, 1);
	yaml_emitter_set_width(&x.em, 100);
	emit_problem(&x, e, first, n, answers, cal);
	if (x.failed || !yaml_emitter_flush(&x.em))
		strbuf_addf(err, "cannot write '%s': %s", tmp, x.em.problem ? x.em.problem : "YAML emitter error");
	else
		ret = 0;
	yaml_emitter_delete(&x.em);
	if (fclose(f) != 0 && !ret) {
		strbuf_addf(err, "cannot write '%s': %s", tmp, strerror(errno));
		ret = -1;
	}
	return ret;
}

/* Load tmp back and compare every variant with what was meant.  0, or -1 with err. */
static int verify_file(const char *tmp, const struct engine *e, int first, int n, long long *const *answers,
		       const struct pack_calibration *cal, struct strbuf *err)
{
	struct strbuf load_err = STRBUF_INIT;
	struct problem q;
	int ret = -1;

	if (problem_load(&q, tmp, &load_err) < 0) {
		strbuf_addf(err, "the generated file does not load:\n%s", load_err.buf);
		strbuf_release(&load_err);
		return -1;
	}
	if (problem_nvariants(&q) != n) {
		strbuf_addf(err, "%s: %d languages read back, %d written", tmp, problem_nvariants(&q), n);
		goto cleanup;
	}
	for (int v = 0; v < n; v++)
		if (verify(e, first + v, problem_variant(&q, v), answers[v], cal, err) < 0)
			goto cleanup;
	ret = 0;
cleanup:
	problem_release(&q);
	strbuf_release(&load_err);
	return ret;
}

/* Write dir/<id>.yaml for the selected problem k, every language of it.  1 when written, 0 when it has no public group, -1 on error. */
int pack_problem(const struct engine *e, int k, const char *dir, const struct pack_calibration *cal,
		 struct strbuf *err)
{
	int first = e->first_variant[k], n = e->first_variant[k + 1] - first;
	const struct problem *p = e->problems[first];
	long long **answers = xcalloc((size_t)n + 1, sizeof(*answers));
	char *path = xasprintf("%s/%s.yaml", dir, p->id), *tmp = xasprintf("%s.tmp", path);
	int ret = -1, publics = 0, hidden = 0;

	for (int v = 0; v < n; v++) {
		int pub, hid;
		answers[v] = public_answers(e, first + v, &pub, &hid, err);
		if (!answers[v])
			goto cleanup;
		if (!v) {
			publics = pub;
			hidden = hid;
		}
	}
	if (!publics) {
		printf("pack: %s has no public tests: left out\n", p->id);
		ret = 0;
		goto cleanup;
	}
	if (write_yaml(tmp, e, first, n, answers, cal, err) < 0 ||
	    verify_file(tmp, e, first, n, answers, cal, err) < 0)
		goto cleanup;
	if (rename(tmp, path) < 0) {
		strbuf_addf(err, "cannot rename '%s' to '%s': %s", tmp, path, strerror(errno));
		goto cleanup;
	}
	printf("pack: %s: %d public tests written, %d hidden tests left out%s\n", path, publics, hidden,
	       n > 1 ? " (first language; the others alike)" : "");
	ret = 1;
cleanup:
	if (ret < 0)
		unlink(tmp);
	for (int v = 0; v < n; v++)
		free(answers[v]);
	free(answers);
	free(path);
	free(tmp);
	return ret;
}
