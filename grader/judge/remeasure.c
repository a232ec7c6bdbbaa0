/* remeasure.c - see remeasure.h */
#include "judge/remeasure.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct kept_run {
	bool have;
	struct run_facts facts;
	struct judgement judged;
};

struct remeasure {
	int ntasks;
	unsigned char *runs;     /* per task: runs finished */
	struct kept_run *kept;   /* per task: the best run so far, while it runs again */
	int *queue;              /* tasks to run again, queue[head..tail) */
	int head, tail;
	int count;               /* tests that ran more than once */
	unsigned long long extra_ms; /* CPU of the runs that did not count (make bench's figure) */
};

struct remeasure *remeasure_new(int ntasks)
{
	struct remeasure *rm = xcalloc(1, sizeof(*rm));
	rm->ntasks = ntasks;
	rm->runs = xcalloc((size_t)ntasks + 1, 1);
	rm->kept = xcalloc((size_t)ntasks + 1, sizeof(*rm->kept));
	/* each task is queued at most REMEASURE_RUNS - 1 times */
	rm->queue = xcalloc((size_t)ntasks * (REMEASURE_RUNS - 1) + 1, sizeof(int));
	return rm;
}

/*
 * The machine failed the run: it starved it, or it had no process to fork
 * the test with where every runner's processes share the user's one count
 * (another runner's flood, ended within moments: runner.c slot_watch_tree).
 * Such a run says nothing about the program.
 */
static bool machine_failed(const struct run_facts *f, const struct judgement *j)
{
	return (j->verdict == V_JUDGE_ERROR && f->starved) || (j->verdict != V_CORRECT && f->procs_short);
}

unsigned remeasure_cap_ms(unsigned cpu_ms)
{
	unsigned long long cap = ((unsigned long long)cpu_ms * 100 + REMEASURE_EDGE - 1) / REMEASURE_EDGE;
	return cap > UINT_MAX ? UINT_MAX : (unsigned)cap;
}

/* Was the run stopped at its cap (remeasure_cap_ms): past its limit beyond what noise explains? */
static bool reached_cap(const struct run_task *t, const struct judgement *j)
{
	return t->cpu_cap_ms > t->cpu_ms && (unsigned long long)j->cpu_ms + RUN_CPU_TIMER_SLACK_MS >= t->cpu_cap_ms;
}

/* Did the run end near its CPU limit (or starved), so that another run could end otherwise? */
static bool near_edge(const struct run_task *t, const struct judgement *j)
{
	unsigned long long used = (unsigned long long)j->cpu_ms * 100, limit = (unsigned long long)t->cpu_ms;

	if (machine_failed(&t->facts, j))
		return true;
	if (t->facts.outcome != RUN_REPORTED || !limit)
		return false;
	switch (j->verdict) {
	case V_CORRECT:
		return used >= limit * REMEASURE_EDGE;
	case V_TIMELIMIT:
	case V_RUN_ERROR:
		/* a time limit or a stack's end reached at the CPU limit (verdict.c), not a stop or a crash,
		 * nor a run that went on to its cap */
		return used >= limit * 100 && !reached_cap(t, j);
	default:
		return false;
	}
}

/* Is run a (facts, judgement) to be judged on rather than run b?  The least CPU; any finished run before one the
 * machine failed. */
static bool better(const struct run_task *ta, const struct judgement *ja, const struct run_facts *fb,
		   const struct judgement *jb)
{
	bool sa = machine_failed(&ta->facts, ja), sb = machine_failed(fb, jb);
	if (sa != sb)
		return sb;
	return ja->cpu_ms < jb->cpu_ms;
}

/* Free what a run's facts own, keeping its start-up output for the run that stays (a runner's first task has it). */
static void drop_facts(struct run_facts *f, struct run_facts *stays)
{
	if (f->startup_output && !stays->startup_output) {
		stays->startup_output = f->startup_output;
		stays->startup_total = f->startup_total;
		f->startup_output = NULL;
	}
	free(f->output);
	free(f->error);
	free(f->detail);
	free(f->startup_output);
	memset(f, 0, sizeof(*f));
}

bool remeasure_finished(struct remeasure *rm, int i, struct run_task *t, struct judgement *j)
{
	struct kept_run *k = &rm->kept[i];
	bool again;

	if (i < 0 || i >= rm->ntasks)
		return false;
	rm->runs[i]++;
	/* the better of this run and the one kept aside goes into t and j */
	if (k->have) {
		if (better(t, j, &k->facts, &k->judged)) {
			rm->extra_ms += k->judged.cpu_ms;
			drop_facts(&k->facts, &t->facts);
			judgement_release(&k->judged);
		} else {
			rm->extra_ms += j->cpu_ms;
			drop_facts(&t->facts, &k->facts);
			judgement_release(j);
			t->facts = k->facts;
			*j = k->judged;
		}
		memset(k, 0, sizeof(*k));
	}
	again = near_edge(t, j) && rm->runs[i] < (machine_failed(&t->facts, j) ? REMEASURE_RUNS : REMEASURE_EDGE_RUNS);
	if (!again)
		return false;
	if (rm->runs[i] == 1)
		rm->count++;
	k->have = true;
	k->facts = t->facts;
	k->judged = *j;
	memset(&t->facts, 0, sizeof(t->facts));
	memset(j, 0, sizeof(*j));
	t->done = false;
	t->fresh_runner = true;
	rm->queue[rm->tail++] = i;
	return true;
}

int remeasure_next(struct remeasure *rm)
{
	return rm->head < rm->tail ? rm->queue[rm->head++] : -1;
}

int remeasure_count(const struct remeasure *rm)
{
	return rm ? rm->count : 0;
}

unsigned long long remeasure_extra_ms(const struct remeasure *rm)
{
	return rm ? rm->extra_ms : 0;
}

int remeasure_runs(const struct remeasure *rm, int i)
{
	return rm && i >= 0 && i < rm->ntasks ? rm->runs[i] : 0;
}

void remeasure_free(struct remeasure *rm)
{
	if (!rm)
		return;
	for (int i = 0; i < rm->ntasks; i++)
		if (rm->kept[i].have) {
			struct run_facts none;
			memset(&none, 0, sizeof(none));
			drop_facts(&rm->kept[i].facts, &none);
			free(none.startup_output);
			judgement_release(&rm->kept[i].judged);
		}
	free(rm->runs);
	free(rm->kept);
	free(rm->queue);
	free(rm);
}
