/*
 * summary_model.h - every figure summary.html shows, computed once
 * (summary.c: collect) and then rendered (summary_html.c: render), the
 * curl tool_writeout way: each html section reads only this struct.
 * Private to the summary module.
 *
 * Strings are borrowed from the manifest, the caller's rows and the class
 * statistics, which outlive the summary; summary_release() frees what the
 * struct itself allocated.
 */
#ifndef GRADER_SUMMARY_MODEL_H
#define GRADER_SUMMARY_MODEL_H

#include <stdbool.h>

#include "judge/result.h"
#include "batch/similarity.h"
#include "batch/summary.h"

#define HISTOGRAM_BINS 10
#define TESTS_PER_GROUP 5        /* tests listed under a group, lowest pass rate first */
#define PAIRS_LISTED 50          /* flagged pairs listed per problem */
#define COMPILE_LINES 6          /* compiler output lines shown per student */

/* Verdicts of test runs: how many runs, and how many students had at least one. */
struct verdict_counts {
	int runs[V_COUNT];
	int students[V_COUNT];
};

struct summary_student {       /* a row of "Students" */
	const char *id;
	bool graded;
	const double *scores;      /* per problem, graded only */
	double total;
	bool priced;               /* --policy: late_hours, penalty and final hold (graded, or too late) */
	double late_hours, penalty, final;
	const char *status;
};

struct summary_problem {       /* a row of "Problems" and of "Verdicts" */
	const char *id, *title;    /* the manifest's */
	double max;
	double mean;               /* over graded students, unrounded */
	double share;              /* mean / max, for the bar */
	int full, built, compile_errors, missing;
	struct verdict_counts verdicts;
};

struct summary_test {          /* a test under its group */
	const char *name;
	int passed;                /* of the graded students */
	double rate;
	const int *verdicts;       /* [V_COUNT]: what the graded students got */
};

struct summary_group {         /* a group of "Tests most students fail, by group" */
	const char *problem, *name;
	bool hidden;               /* the group holds a hidden test */
	int tests, failing;        /* its tests; those not passed by everyone */
	long long passed, total;   /* test runs (all-or-nothing rule applied) */
	double rate;
	struct summary_test *hardest;  /* up to TESTS_PER_GROUP of the failing, lowest rate first */
	int nhardest;
};

struct summary_pair {          /* a flagged pair */
	const char *a, *b;         /* student ids, a before b in the class order */
	const char *file_a, *file_b;
	enum sim_kind kind;
	int shared;
	double share_a, share_b;
};

struct summary_similar {       /* one problem's part of "Similar submissions" */
	const char *problem;
	int files, compared;       /* files found; long enough to compare */
	struct summary_pair *pairs;
	int npairs, nflagged;      /* listed (at most PAIRS_LISTED); flagged in all */
};

struct summary_not_graded {    /* a row of "Not graded" */
	const char *id, *why;
};

struct summary_compile_error {
	const char *id, *problem;
	const char *text;          /* the first COMPILE_LINES lines */
};

struct summary {
	int students, graded;
	bool policy;               /* --policy: the student table has late, penalty and final columns */
	int shard_index, shard_count, class_size;
	double max;                /* the manifest's maximum score */
	/* score distribution: the figures are set when graded > 0 */
	int bins[HISTOGRAM_BINS];
	double mean, median, lowest, highest;
	struct summary_student *rows;      /* every student, in the manifest's order */
	struct summary_problem *problems;
	int nproblems;
	bool verdict_seen[V_COUNT];        /* the verdict columns worth showing */
	struct summary_group *groups;
	int ngroups;
	struct summary_similar *similar;   /* one per problem */
	int nflagged;                      /* pairs flagged, every problem */
	const struct summary_compile_error *errors;
	int nerrors;
	struct summary_not_graded *not_graded;
	int nnot_graded;
};

void summary_release(struct summary *s);

/* The page (summary_html.c). */
void summary_html(struct strbuf *sb, const struct summary *s);

#endif
