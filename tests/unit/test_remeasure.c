/*
 * test_remeasure.c - cmocka tests for grader/judge/remeasure.c: which runs are run
 * again, how many times, and which run a test is judged on.
 *
 * The runs are facts and judgements written by hand (what the pool and
 * verdict.c would give), so each expected choice follows from the CPU times
 * written below.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#undef malloc
#undef calloc
#undef realloc
#undef free

#include <stdlib.h>
#include <string.h>

#include "judge/remeasure.h"
#include "base/util.h"

#define LIMIT 1000u

/* Task t has just run: outcome reported, this verdict and CPU time, this output (owned by the facts). */
static void ran(struct run_task *t, struct judgement *j, enum verdict v, unsigned cpu_ms, const char *output)
{
	memset(&t->facts, 0, sizeof(t->facts));
	memset(j, 0, sizeof(*j));
	t->cpu_ms = LIMIT;
	t->done = true;
	t->facts.outcome = RUN_REPORTED;
	t->facts.output = output ? xstrdup(output) : NULL;
	j->verdict = v;
	j->cpu_ms = cpu_ms;
	j->message = v == V_CORRECT ? NULL : xstrdup("why");
}

static void starved_run(struct run_task *t, struct judgement *j)
{
	ran(t, j, V_JUDGE_ERROR, 120, NULL);
	t->facts.outcome = RUN_WALL_TIMEOUT;
	t->facts.starved = true;
}

static void release(struct run_task *t, struct judgement *j)
{
	run_task_release(t);
	judgement_release(j);
}

/* Far from the limit: one run, whatever the verdict. */
static void test_far_runs_once(void **state)
{
	struct remeasure *rm = remeasure_new(3);
	struct run_task t;
	struct judgement j;
	(void)state;
	memset(&t, 0, sizeof(t));
	ran(&t, &j, V_CORRECT, 749, NULL); /* just under REMEASURE_EDGE */
	assert_false(remeasure_finished(rm, 0, &t, &j));
	release(&t, &j);
	ran(&t, &j, V_WRONG_ANSWER, 990, NULL); /* near, but a wrong answer does not depend on time */
	assert_false(remeasure_finished(rm, 1, &t, &j));
	release(&t, &j);
	ran(&t, &j, V_RUN_ERROR, 400, NULL); /* a crash before the limit */
	assert_false(remeasure_finished(rm, 2, &t, &j));
	release(&t, &j);
	assert_int_equal(remeasure_next(rm), -1);
	assert_int_equal(remeasure_count(rm), 0);
	assert_int_equal(remeasure_extra_ms(rm), 0); /* nothing ran twice: measuring again cost nothing */
	assert_int_equal(remeasure_runs(rm, 0), 1);
	remeasure_free(rm);
}

/* A time limit, then a correct run: judged on the correct one (least CPU), with its output. */
static void test_timelimit_then_correct(void **state)
{
	struct remeasure *rm = remeasure_new(1);
	struct run_task t;
	struct judgement j;
	(void)state;
	memset(&t, 0, sizeof(t));
	ran(&t, &j, V_TIMELIMIT, 1004, "first");
	assert_true(remeasure_finished(rm, 0, &t, &j));
	assert_false(t.done);
	assert_true(t.fresh_runner);
	assert_null(t.facts.output);
	assert_int_equal(remeasure_next(rm), 0);
	assert_int_equal(remeasure_next(rm), -1);
	ran(&t, &j, V_CORRECT, 810, "second");
	assert_false(remeasure_finished(rm, 0, &t, &j));
	assert_int_equal(j.verdict, V_CORRECT);
	assert_int_equal(j.cpu_ms, 810);
	assert_string_equal(t.facts.output, "second");
	assert_int_equal(remeasure_count(rm), 1);
	assert_int_equal(remeasure_extra_ms(rm), 1004); /* the run set aside: the first */
	assert_int_equal(remeasure_runs(rm, 0), 2);
	release(&t, &j);
	remeasure_free(rm);
}

/* Correct near the edge, then a time limit: the first run stays (noise only adds time). */
static void test_correct_then_timelimit(void **state)
{
	struct remeasure *rm = remeasure_new(1);
	struct run_task t;
	struct judgement j;
	(void)state;
	memset(&t, 0, sizeof(t));
	ran(&t, &j, V_CORRECT, 900, "first");
	assert_true(remeasure_finished(rm, 0, &t, &j));
	assert_int_equal(remeasure_next(rm), 0);
	ran(&t, &j, V_TIMELIMIT, 1003, "second");
	assert_false(remeasure_finished(rm, 0, &t, &j));
	assert_int_equal(j.verdict, V_CORRECT);
	assert_int_equal(j.cpu_ms, 900);
	assert_string_equal(t.facts.output, "first");
	assert_null(j.message);
	assert_int_equal(remeasure_extra_ms(rm), 1003); /* the run set aside: the second */
	release(&t, &j);
	remeasure_free(rm);
}

/* At the limit twice: settled after the second run (REMEASURE_EDGE_RUNS). */
static void test_timelimit_twice(void **state)
{
	struct remeasure *rm = remeasure_new(1);
	struct run_task t;
	struct judgement j;
	(void)state;
	memset(&t, 0, sizeof(t));
	ran(&t, &j, V_TIMELIMIT, 1004, NULL);
	assert_true(remeasure_finished(rm, 0, &t, &j));
	assert_int_equal(remeasure_next(rm), 0);
	ran(&t, &j, V_TIMELIMIT, 1002, NULL);
	assert_false(remeasure_finished(rm, 0, &t, &j));
	assert_int_equal(j.verdict, V_TIMELIMIT);
	assert_int_equal(j.cpu_ms, 1002);
	assert_int_equal(remeasure_runs(rm, 0), REMEASURE_EDGE_RUNS);
	release(&t, &j);
	remeasure_free(rm);
}

/* Starved: run again up to REMEASURE_RUNS in all; any finished run wins over a starved one, even with more CPU. */
static void test_starved(void **state)
{
	struct remeasure *rm = remeasure_new(2);
	struct run_task t;
	struct judgement j;
	(void)state;
	memset(&t, 0, sizeof(t));
	starved_run(&t, &j);
	assert_true(remeasure_finished(rm, 0, &t, &j));
	assert_int_equal(remeasure_next(rm), 0);
	starved_run(&t, &j);
	assert_true(remeasure_finished(rm, 0, &t, &j));
	assert_int_equal(remeasure_next(rm), 0);
	starved_run(&t, &j);
	assert_false(remeasure_finished(rm, 0, &t, &j));
	assert_int_equal(j.verdict, V_JUDGE_ERROR);
	assert_int_equal(remeasure_runs(rm, 0), REMEASURE_RUNS);
	release(&t, &j);

	starved_run(&t, &j);
	assert_true(remeasure_finished(rm, 1, &t, &j));
	ran(&t, &j, V_CORRECT, 600, "ran");
	assert_false(remeasure_finished(rm, 1, &t, &j));
	assert_int_equal(j.verdict, V_CORRECT);
	assert_string_equal(t.facts.output, "ran");
	assert_int_equal(remeasure_count(rm), 2);
	/* two starved runs of 120 ms set aside for task 0 (the third counts), one for task 1 */
	assert_int_equal(remeasure_extra_ms(rm), 3 * 120);
	release(&t, &j);
	remeasure_free(rm);
}

/* The zygote could not fork the test where every runner's processes share the user's count (runner.c). */
static void procs_short_run(struct run_task *t, struct judgement *j)
{
	ran(t, j, V_RUN_ERROR, 0, NULL);
	t->facts.procs_short = true;
}

/*
 * A test that could not be forked for want of a process is run again, up to REMEASURE_RUNS, like a
 * starved one; a run that got further counts before it whatever its CPU; one that always fails so keeps
 * its run-error (self-inflicted: code before main lowered its own process limit).
 */
static void test_procs_short(void **state)
{
	struct remeasure *rm = remeasure_new(2);
	struct run_task t;
	struct judgement j;
	(void)state;
	memset(&t, 0, sizeof(t));
	procs_short_run(&t, &j);
	assert_true(remeasure_finished(rm, 0, &t, &j));
	assert_int_equal(remeasure_next(rm), 0);
	assert_true(t.fresh_runner);
	ran(&t, &j, V_CORRECT, 300, "ran");
	assert_false(remeasure_finished(rm, 0, &t, &j));
	assert_int_equal(j.verdict, V_CORRECT); /* 300 ms of CPU, but it ran: the 0 ms failure does not count */
	assert_string_equal(t.facts.output, "ran");
	release(&t, &j);

	for (int run = 1; run < REMEASURE_RUNS; run++) {
		procs_short_run(&t, &j);
		assert_true(remeasure_finished(rm, 1, &t, &j));
		assert_int_equal(remeasure_next(rm), 1);
	}
	procs_short_run(&t, &j);
	assert_false(remeasure_finished(rm, 1, &t, &j));
	assert_int_equal(j.verdict, V_RUN_ERROR);
	assert_int_equal(remeasure_runs(rm, 1), REMEASURE_RUNS);
	release(&t, &j);
	remeasure_free(rm);
}

/* A run kept aside when grading stops (interrupted) is freed with the struct (ASan checks). */
/*
 * Graded tests run to a cap above their limit (remeasure_cap_ms): one that reached the cap needed more
 * than 100 / REMEASURE_EDGE times its limit, which noise does not explain - one run; one that ended
 * between the limit and the cap is run again, as one at the limit was before.
 */
static void test_cap(void **state)
{
	struct remeasure *rm = remeasure_new(3);
	struct run_task t;
	struct judgement j;
	unsigned cap = remeasure_cap_ms(LIMIT);
	(void)state;
	/* 1000 ms at REMEASURE_EDGE 75 %: 1334 ms, the first whole ms at or above 1000 / 0.75 */
	assert_int_equal(cap, (LIMIT * 100 + REMEASURE_EDGE - 1) / REMEASURE_EDGE);
	assert_true(cap * REMEASURE_EDGE >= LIMIT * 100 && (cap - 1) * REMEASURE_EDGE < LIMIT * 100);
	memset(&t, 0, sizeof(t));
	ran(&t, &j, V_TIMELIMIT, cap, NULL);
	t.cpu_cap_ms = cap;
	assert_false(remeasure_finished(rm, 0, &t, &j)); /* stopped at the cap */
	release(&t, &j);
	ran(&t, &j, V_TIMELIMIT, LIMIT + 100, NULL);
	t.cpu_cap_ms = cap;
	assert_true(remeasure_finished(rm, 1, &t, &j)); /* ended past the limit, before the cap */
	ran(&t, &j, V_TIMELIMIT, cap, NULL);
	t.cpu_cap_ms = cap;
	assert_false(remeasure_finished(rm, 1, &t, &j));
	assert_int_equal(j.cpu_ms, LIMIT + 100); /* judged on its least CPU */
	release(&t, &j);
	ran(&t, &j, V_TIMELIMIT, cap, NULL); /* no cap (not a graded test): at the limit is near the edge */
	t.cpu_cap_ms = 0;
	assert_true(remeasure_finished(rm, 2, &t, &j));
	assert_int_equal(remeasure_count(rm), 2);
	assert_int_equal(remeasure_runs(rm, 0), 1);
	remeasure_free(rm);
}

static void test_free_kept(void **state)
{
	struct remeasure *rm = remeasure_new(1);
	struct run_task t;
	struct judgement j;
	(void)state;
	memset(&t, 0, sizeof(t));
	ran(&t, &j, V_TIMELIMIT, 1010, "kept");
	t.facts.startup_output = xstrdup("hello");
	assert_true(remeasure_finished(rm, 0, &t, &j));
	remeasure_free(rm);
	remeasure_free(NULL);
	release(&t, &j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_far_runs_once),
		cmocka_unit_test(test_timelimit_then_correct),
		cmocka_unit_test(test_correct_then_timelimit),
		cmocka_unit_test(test_timelimit_twice),
		cmocka_unit_test(test_starved),
		cmocka_unit_test(test_procs_short),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_free_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
