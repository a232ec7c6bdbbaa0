/*
 * workers.h - a pool of worker processes that run numbered tasks, driven
 * by callbacks (the shape of git's run_processes_parallel): the pool knows
 * nothing of what a task means.
 *
 * Processes
 * ---------
 *   caller (parent)
 *     └─ worker k (k < nworkers), forked: start(k) once, then work(task)
 *        for each task it is given, one at a time, then stop()
 *
 * The parent hands out tasks in order, enforces a deadline per task
 * (SIGKILL to the worker, whose own children die with it when they set
 * PR_SET_PDEATHSIG), starts a fresh worker for one that died, and calls
 * finished() for every task exactly once: with lost == NULL when the worker
 * said it was done, or with why the worker could not finish it.  A
 * worker that cannot start - start() fails, or it dies before saying it is
 * ready - is tried again; after WORKERS_MAX_START_FAILURES such failures the
 * pool gives up with the first reason.
 *
 * Wire between parent and worker: one line per message on two pipes,
 *   worker -> parent   "ready" | "fail <why>" (cannot start) | "done <task>"
 *   parent -> worker   "<task>" | end of file (finish and exit)
 *
 * Ownership: the client and everything it points to are the caller's; the
 * pool keeps nothing after workers_run() returns.  Callbacks run in the
 * parent (finished) or in a worker (start, work, stop), never both.
 */
#ifndef GRADER_WORKERS_H
#define GRADER_WORKERS_H

#include "base/util.h"

#define WORKERS_MAX_START_FAILURES 3

/* Why a task was not finished: facts, for the caller to put in words. */
struct workers_loss {
	enum { WORKER_DIED, WORKER_OVER_DEADLINE, WORKER_STOPPED } why;
	int status;          /* WORKER_DIED: the worker's wait status */
	double deadline_s;   /* WORKER_OVER_DEADLINE: the deadline it passed */
};

struct workers_client {
	int nworkers;
	double task_deadline_s;      /* a task taking longer loses its worker */
	double start_deadline_s;     /* a worker not ready by then is killed */

	/* In worker k, once: set up its state.  0, or -1 with a message in err (the worker exits). */
	int (*start)(void *ctx, int worker, void **state, struct strbuf *err);
	/* In a worker: do the task.  0 when done, -1 to stop the worker at once (interrupted). */
	int (*work)(void *ctx, void *state, int task);
	/* In a worker, before it exits. */
	void (*stop)(void *ctx, void *state);
	/* In the parent, once per task: done (lost NULL) or not (why). */
	void (*finished)(void *ctx, int task, const struct workers_loss *lost);
	void *ctx;
};

/*
 * Run tasks[0 .. ntasks) (task numbers of the caller's choosing) on
 * client->nworkers workers.  Returns 0 when every task finished, or -1 when
 * interrupted (grader_interrupted) or when no worker could start (the
 * reason in err).  Every task handed out has had its finished() call.
 */
int workers_run(const struct workers_client *client, const int *tasks, int ntasks, struct strbuf *err);

/*
 * The workers' scratch space: $TMPDIR (or /tmp)/grader-<what>.XXXXXX, mode
 * 0711 (the sandbox's users may enter it but not list it), with one folder
 * workers_scratch_dir(k) per worker.  Returns the new directory (the
 * caller's: it removes the tree and frees the string), or NULL with a
 * message in err (nothing left behind but what remove_tree() of a partial
 * tree would find: the caller gets NULL and nothing to remove).
 */
char *workers_scratch(const char *what, int nworkers, struct strbuf *err);
/* Worker k's folder in the scratch space (a new string). */
char *workers_scratch_dir(const char *scratch, int k);
/* Append the folders of every worker but k to list[*n ...] (new strings): what worker k must not see. */
void workers_scratch_others(const char *scratch, int nworkers, int k, char **list, int *n);

#endif
