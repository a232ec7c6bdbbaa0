/* context.c - see context.h */
#include "judge/context.h"

#include <string.h>

void judge_task_init(const struct judge_context *c, struct run_task *t, const struct build_result *b,
		     const struct problem *p, int func)
{
	memset(t, 0, sizeof(*t));
	t->runner = b->runner;
	t->runner_argv = (const char *const *)b->runner_argv;
	t->runner_dir = b->runner_dir;
	t->filters = &c->filters[p->lang->filters];
	t->function = func;
	t->args = (struct strbuf)STRBUF_INIT;
	t->zygote_memory_mb = problem_max_memory_mb(p);
	t->startup_ms = p->limits.startup_ms;
}

struct pool *judge_pool(const struct judge_context *c, int most)
{
	int slots = most > 0 && most < c->jobs ? most : c->jobs;
	return pool_new(slots, c->workdir, c->hidden, c->id_block);
}
