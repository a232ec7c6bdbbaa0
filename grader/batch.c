/* batch.c - `grader batch` and `grader merge` (placeholder until implemented) */
#include "cli.h"

int cmd_batch(struct cli *cli)
{
	(void)cli;
	error("batch: not implemented yet");
	return GRADER_EXIT_USAGE;
}

int cmd_merge(struct cli *cli)
{
	(void)cli;
	error("merge: not implemented yet");
	return GRADER_EXIT_USAGE;
}
