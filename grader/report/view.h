/*
 * view.h - what one reader may see of a grade_result.  Built once per
 * result and reader; every report writer (report_*.c) reads the view and
 * never the result, so the rule about hidden tests and the budget on
 * captured output live here and nowhere else (curl's one field table for
 * every output format; "one view per audience" in STYLE.md).
 *
 * Two readers:
 *
 *   the student (view_build(..., false), every report by default): a group
 *   that is public is listed test by test; a hidden group is counts only -
 *   how many of its tests passed, of how many, and its points.  No entry
 *   per hidden test: no verdict, message, time, memory, output or order,
 *   because a program that picks its verdict, its running time, its memory
 *   or what it prints from its input would read that input back from its
 *   own report.  For the same reason a hidden group's counts never split
 *   "failed" from "skipped", and a hidden all-or-nothing group counts as
 *   all passed or none passed (how many passed before the first failure,
 *   or how many were skipped after it, would say where it was).  The
 *   problem's figures (passed, failed, skipped, CPU time, peak memory) are
 *   sums of its groups' figures as this reader sees them.
 *
 *   the instructor (view_build(..., true): --show-hidden, and the files
 *   `grader batch` writes): every group is listed, every test in full.
 *
 * The output budget: what a student's program printed is shown cleaned
 * (text_clean()), at most VIEW_OUTPUT_MAX bytes of it per test, and a
 * problem's listed tests share VIEW_OUTPUT_BUDGET bytes of shown output
 * and long messages (failing tests first, then in case order).  A test
 * whose output does not fit any more shows none (output_left_out), and the
 * problem counts those tests and what they printed, so every writer can
 * say what was left out (report_left_out() in report.h).  A message up to
 * VIEW_MESSAGE_SHORT bytes is always shown whole; a longer one (a Python
 * exception's text) comes out of the same budget and, once it is spent, is
 * cut to its first line.  So what captured output and messages add to a
 * report is at most VIEW_OUTPUT_BUDGET bytes per problem, plus
 * VIEW_MESSAGE_SHORT per listed test, before the format's own escaping.
 * (A problem's start-up output, at most VIEW_OUTPUT_MAX bytes, and its
 * compiler message are shown once per problem and are not counted.)
 *
 * Ownership: view_build() fills the caller's struct view.  The view
 * borrows the grade_result and its problem set, which must outlive it; it
 * owns its arrays and the strings it made (cleaned messages and output),
 * which view_release() frees.  Every pointer below is borrowed from the
 * view: valid until view_release().
 */
#ifndef GRADER_VIEW_H
#define GRADER_VIEW_H

#include <stdbool.h>

#include "judge/result.h"

#define VIEW_OUTPUT_MAX 2048             /* bytes of one test's captured output looked at */
#define VIEW_OUTPUT_BUDGET (64 * 1024)   /* bytes of shown output and long messages per problem */
#define VIEW_MESSAGE_SHORT 200           /* a message this long or shorter is always shown whole */

/* Counts over some tests as the reader sees them. */
struct view_tally {
	int tests;
	int passed;                /* correct; a counts-only all-or-nothing group: all of them or none */
	int failed;                /* neither correct nor skipped; counts-only groups: tests - passed */
	int skipped;               /* not run after an earlier failure; counts-only groups: only a points-per-test
				    * group's (engine_options.skip_repeated_failures: the student is told they did not run) */
	double score, max_score;
	int unrun;                 /* the skipped tests of points-per-test groups */
	double unrun_points;       /* the points of the skipped tests of points-per-test groups: what the grade
				    * could still gain (a student's run that stopped a group early) */
	unsigned long long cpu_ms; /* CPU time of the listed tests */
	unsigned long long peak_kb;/* the largest peak memory of the listed tests */
	unsigned limit_ms;         /* the largest CPU limit that applied (the problem's, so any group's) */
	int remeasured;            /* listed tests run more than once near their CPU limit (remeasure.h);
				    * counts-only groups: 0 (how near a hidden test came is not the student's) */
};

/* One listed test. */
struct view_test;
/* vt's message in the language being written: its translation inside l10n_begin/l10n_end, else English. */
const char *view_message(const struct view_test *vt);

struct view_test {
	const struct test_result *t;/* verdict, score, time, memory, values, output_total */
	char *message;             /* why (cleaned), NULL when correct; the verdict in words when there is no message */
	bool message_cut;          /* a long message cut to its first line (budget spent) */
	char *message_local;       /* message in the students' language (l10n.h), cut alike, or NULL: the same
				    * as message; read it through view_message() */
	char *output;              /* captured output to show (cleaned, at most VIEW_OUTPUT_MAX), or NULL */
	bool output_cut;           /* less is shown than the program printed (also when left out) */
	bool output_left_out;      /* it printed, but the problem's budget was spent: output NULL */
};

struct view_group {
	const struct group *group;
	bool listed;               /* its tests are listed: a public group, or the instructor's view */
	struct view_tally tally;
	struct view_test *tests;   /* listed: its tests, in case order (inside view_problem.tests); else NULL */
	int ntests;                /* listed: tally.tests; else 0 */
	const struct shrunk_input *revealed; /* not listed: its smallest failing input, when the grading was asked
				    * to reveal it (engine_options.reveal_hidden, after the deadline); else NULL */
	bool stopped_elsewhere;    /* its tests not run came after one failure of a kind an earlier group of the
				    * problem failed REPEATED_FAILURES times in a row (engine.c repeat_walk) */
	enum returned_kind returned; /* every failing test returned None (RETURNED_NONE), or no number
				  * (RETURNED_OTHER_TYPE): the hint says so instead of the group's
				  * (report_hint).  Also for a hidden group: one bit about its failures,
				  * less than its count of passed tests says */
};

struct view_problem {
	const struct problem *problem;
	const char *source;        /* as in struct problem_result */
	const char *source_note;   /* as in struct problem_result (names only files of the submission) */
	enum verdict build_verdict;
	const char *build_message;
	unsigned compile_ms;
	const char *startup_output;/* NULL for the student when a runner started for hidden tests printed it */
	unsigned long long startup_total;
	double score, max_score;
	struct view_group *groups; /* problem->ngroups, in the file's order */
	int ngroups;
	struct view_test *tests;   /* every listed test, in case order */
	int ntests;
	struct view_tally tally;   /* the whole problem (the sum of its groups' tallies) */
	struct view_tally unlisted;/* its counts-only groups together (tests == 0: there are none) */
	int output_left_out;       /* listed tests whose output the budget left out */
	unsigned long long output_left_out_bytes; /* what those tests printed in all */
	int messages_cut;          /* long messages cut to their first line */
	const struct growth_result *growth; /* how its time grows (growth.h), or NULL: not measured, or
				  * measured only because a hidden group failed by time (the instructor's) */
	const struct shrunk_input *shrunk; /* the smallest failing input (shrink.h), only from a listed group; or NULL */
};

struct view {
	bool instructor;           /* every test listed (--show-hidden, batch) */
	const char *submission;    /* the graded directory (untrusted bytes: clean before showing) */
	const char *isolation;     /* sandbox_describe() at grading time, or NULL */
	const char *calibration;   /* grade_result.calibration: this machine's speed against the pack's, or NULL */
	unsigned long long remeasured_cpu_ms; /* instructor only (it counts hidden tests' runs): else 0 */
	double score, max_score;
	double elapsed_s;          /* the whole run's wall-clock time; -1: withheld (hidden tests ran) */
	bool internal_error;       /* some test could not be judged */
	struct view_problem *problems;
	int nproblems;
	struct view_tally tally;   /* every problem */
};

/* Build the view of r for a student (instructor false) or an instructor. */
void view_build(struct view *v, const struct grade_result *r, bool instructor);
void view_release(struct view *v);

#endif
