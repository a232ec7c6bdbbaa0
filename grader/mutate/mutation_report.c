/*
 * mutation_report.c - the reports of `grader mutate` (mutation.h): text
 * for the instructor, JSON for machines, both from one mutation_result.
 */
#include "mutate/mutation.h"

#include <jansson.h>
#include <string.h>

#include "base/version.h"

#define JSON_MUTATION_VERSION 1

/* "p4 (p4.c)": the problem and the file mutated (a problem may have a C and a Python reference). */
static void label(FILE *out, const struct problem_mutation *pm)
{
	fprintf(out, "%s (%s)", pm->problem->id, pm->problem->source);
}

static const char *test_name(const struct problem_mutation *pm, const struct mutant_outcome *mo)
{
	return mo->test >= 0 && mo->test < pm->problem->ncases ? pm->problem->cases[mo->test].name : NULL;
}

/* Each line of a diff indented by four spaces. */
static void indented(FILE *out, const char *text)
{
	for (const char *p = text; *p;) {
		size_t l = strcspn(p, "\n");
		fprintf(out, "    %.*s\n", (int)l, p);
		p += l + (p[l] == '\n');
	}
}

static void text_counts(FILE *out, const struct problem_mutation *pm)
{
	bool first = true;
	label(out, pm);
	fprintf(out, ": %d mutants of %s\n", pm->mutants.n, pm->path);
	fprintf(out, "  not compiling: %d (discarded)\n", pm->count[FATE_NOT_COMPILING]);
	fprintf(out, "  killed:        %d", pm->count[FATE_KILLED]);
	for (int v = 0; v < V_COUNT; v++)
		if (pm->killed_by[v]) {
			fprintf(out, "%s%s %d", first ? " (" : ", ", verdict_name((enum verdict)v), pm->killed_by[v]);
			first = false;
		}
	fprintf(out, "%s\n", first ? "" : ")");
	fprintf(out, "  equivalent:    %d (listed in the problem file)\n", pm->count[FATE_EQUIVALENT]);
	fprintf(out, "  survived:      %d\n", pm->count[FATE_SURVIVED]);
	if (pm->count[FATE_ERROR])
		fprintf(out, "  not judged:    %d (the grader failed: see below)\n", pm->count[FATE_ERROR]);
}

static void text_mutant(FILE *out, const struct problem_mutation *pm, int k, bool verbose)
{
	const struct mutant *m = &pm->mutants.v[k];
	const struct mutant_outcome *mo = &pm->outcomes[k];
	const char *test = test_name(pm, mo);

	switch (mo->fate) {
	case FATE_SURVIVED:
		fprintf(out, "  survived   %s  %s\n", m->id, m->description);
		indented(out, mo->diff);
		break;
	case FATE_ERROR:
		fprintf(out, "  not judged %s  %s: %s\n", m->id, m->description, mo->error ? mo->error : "?");
		break;
	case FATE_EQUIVALENT:
		if (verbose)
			fprintf(out, "  equivalent %s  %s: %s\n", m->id, m->description, mo->reason);
		break;
	case FATE_KILLED:
		if (verbose)
			fprintf(out, "  killed     %s  %s: %s%s%s\n", m->id, m->description, verdict_name(mo->verdict),
				test ? " by " : " (build)", test ? test : "");
		break;
	default:
		if (verbose)
			fprintf(out, "  discarded  %s  %s: does not compile\n", m->id, m->description);
		break;
	}
	if (mo->mislisted && mo->fate == FATE_KILLED)
		fprintf(out, "  MISLISTED  %s is listed as equivalent (%s) but is killed: %s%s%s\n", m->id, mo->reason,
			verdict_name(mo->verdict), test ? " by " : " (build)", test ? test : "");
	else if (mo->mislisted)
		fprintf(out, "  MISLISTED  %s is listed as equivalent (%s) but does not compile\n", m->id, mo->reason);
}

int mutation_write_text(FILE *out, const struct mutation_result *r, bool verbose)
{
	int scored = 0, killed = 0;
	for (int i = 0; i < r->nproblems; i++) {
		const struct problem_mutation *pm = &r->problems[i];
		if (i)
			fputc('\n', out);
		text_counts(out, pm);
		for (int k = 0; k < pm->mutants.n; k++)
			text_mutant(out, pm, k, verbose);
		for (int k = 0; k < pm->nstale; k++)
			fprintf(out, "  STALE      %s is listed as equivalent but no operator generates it\n", pm->stale[k]);
		label(out, pm);
		fprintf(out, ": %d of %d mutants killed (%d%%)\n", pm->count[FATE_KILLED],
			pm->count[FATE_KILLED] + pm->count[FATE_SURVIVED], problem_mutation_percent(pm));
		scored += pm->count[FATE_KILLED] + pm->count[FATE_SURVIVED];
		killed += pm->count[FATE_KILLED];
	}
	fprintf(out, "\nTotal: %d of %d mutants killed (%d%%) in %.1f s with %d worker%s\n", killed, scored,
		scored ? killed * 100 / scored : 100, r->seconds, r->jobs, r->jobs == 1 ? "" : "s");
	return fflush(out) || ferror(out) ? -1 : 0;
}

static json_t *json_mutant(const struct problem_mutation *pm, int k)
{
	const struct mutant *m = &pm->mutants.v[k];
	const struct mutant_outcome *mo = &pm->outcomes[k];
	const char *test = test_name(pm, mo);
	json_t *j = json_object();

	json_object_set_new(j, "id", json_string(m->id));
	json_object_set_new(j, "operator", json_string(m->op));
	json_object_set_new(j, "line", json_integer(m->line));
	json_object_set_new(j, "column", json_integer(m->column));
	json_object_set_new(j, "description", json_string(m->description));
	json_object_set_new(j, "fate", json_string(mutant_fate_name(mo->fate)));
	json_object_set_new(j, "verdict", mo->fate == FATE_KILLED ? json_string(verdict_name(mo->verdict)) : json_null());
	json_object_set_new(j, "test", test && mo->fate == FATE_KILLED ? json_string(test) : json_null());
	json_object_set_new(j, "reason", mo->reason ? json_string(mo->reason) : json_null());
	json_object_set_new(j, "mislisted", json_boolean(mo->mislisted));
	json_object_set_new(j, "error", mo->error ? json_string(mo->error) : json_null());
	json_object_set_new(j, "diff", json_string(mo->diff));
	return j;
}

static json_t *json_problem(const struct problem_mutation *pm)
{
	json_t *j = json_object(), *by = json_object(), *list = json_array(), *stale = json_array();

	json_object_set_new(j, "id", json_string(pm->problem->id));
	json_object_set_new(j, "language", json_string(pm->problem->lang->name));
	json_object_set_new(j, "file", json_string(pm->path));
	json_object_set_new(j, "generated", json_integer(pm->mutants.n));
	json_object_set_new(j, "not_compiling", json_integer(pm->count[FATE_NOT_COMPILING]));
	json_object_set_new(j, "killed", json_integer(pm->count[FATE_KILLED]));
	for (int v = 0; v < V_COUNT; v++)
		if (pm->killed_by[v])
			json_object_set_new(by, verdict_name((enum verdict)v), json_integer(pm->killed_by[v]));
	json_object_set_new(j, "killed_by", by);
	json_object_set_new(j, "survived", json_integer(pm->count[FATE_SURVIVED]));
	json_object_set_new(j, "equivalent", json_integer(pm->count[FATE_EQUIVALENT]));
	json_object_set_new(j, "errors", json_integer(pm->count[FATE_ERROR]));
	json_object_set_new(j, "percent_killed", json_integer(problem_mutation_percent(pm)));
	for (int k = 0; k < pm->mutants.n; k++)
		json_array_append_new(list, json_mutant(pm, k));
	json_object_set_new(j, "mutants", list);
	for (int k = 0; k < pm->nstale; k++)
		json_array_append_new(stale, json_string(pm->stale[k]));
	json_object_set_new(j, "stale_equivalents", stale);
	return j;
}

int mutation_write_json(FILE *out, const struct mutation_result *r)
{
	json_t *root = json_object(), *problems = json_array();
	int ret;

	json_object_set_new(root, "format_version", json_integer(JSON_MUTATION_VERSION));
	json_object_set_new(root, "grader_version", json_string(GRADER_VERSION));
	json_object_set_new(root, "seconds", json_real(r->seconds));
	json_object_set_new(root, "workers", json_integer(r->jobs));
	for (int i = 0; i < r->nproblems; i++)
		json_array_append_new(problems, json_problem(&r->problems[i]));
	json_object_set_new(root, "problems", problems);
	json_object_set_new(root, "problems_found", json_integer(mutation_problems_found(r)));
	ret = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
	json_decref(root);
	if (ret == 0)
		fputc('\n', out);
	return ret || fflush(out) || ferror(out) ? -1 : 0;
}
