/*
 * growth_result.h - what a growth measurement found (growth.h measures and
 * fits; reports show it): the points, the fitted class, the sentence.  Its
 * own module so that the result model (result.h), which owns a problem's
 * growth result and frees it, needs nothing of the measuring.
 *
 * Ownership: a growth_result owns its points and strings;
 * growth_result_free() frees it and the struct.  A problem_result owns its
 * growth result (result.c frees it).
 */
#ifndef GRADER_GROWTH_RESULT_H
#define GRADER_GROWTH_RESULT_H

#include <stdbool.h>

#define GROWTH_MAX_POINTS 40

struct growth_point {
	long long size;
	double ms;                 /* least CPU time of its runs; for a capped point: at least this */
	double second;             /* the second least time (= ms after one run) */
	double scatter;            /* ln(second / ms): how far two runs of the same call differ */
	int runs;
	bool capped;               /* a run went over GROWTH_RUN_CAP_MS */
};

struct growth_result {
	char *call;                /* the function as the student's language calls it */
	int expected;              /* the declared order: k of N^k, or GROWTH_EXPONENTIAL (problem.h) */
	struct growth_point points[GROWTH_MAX_POINTS];
	int npoints;
	int nused;                 /* points the fit used */
	double fixed_ms;           /* the fixed cost of a call, subtracted before the fit */
	bool known;                /* at least two usable points that grew: the exponent means something */
	double exponent;           /* fitted p of t ~ N^p */
	bool exponential;
	double base;               /* exponential: the time's factor per +1 of N */
	int lo, hi;                /* the classes N^lo ... N^hi the points allow (or, uneven: floor, ceil of p) */
	bool uneven;               /* no class fits every point within the tolerance */
	long long set_aside;       /* the size whose time was left out of the fit as slowed down, 0: none */
	bool decided;              /* exactly one class fits (lo == hi), or exponential: name it */
	int order;                 /* the class when decided (when not exponential) */
	bool flat;                 /* the time did not grow: exponent under GROWTH_FLAT_EXPONENT */
	double tolerance;          /* the fit's tolerance: max(GROWTH_TOLERANCE, scatter), ln */
	char *stopped;             /* why the sizes stopped (NULL: reached the declared end), in words */
	long long target;          /* the size extrapolated to, 0: none */
	char *target_group;        /* its group, or NULL */
	double extrapolated_s;     /* the estimated CPU time at target, -1: none */
	bool from_hidden;          /* measured only because a hidden group failed by time: instructor's view only */
	double used_s;             /* CPU time the measurement used */
	char *sentence;            /* the finding in words (always set) */
};

void growth_result_free(struct growth_result *g);

#endif
