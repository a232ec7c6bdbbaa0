/* growth_result.c - see growth_result.h */
#include "judge/growth_result.h"

#include <stdlib.h>

void growth_result_free(struct growth_result *g)
{
	if (!g)
		return;
	free(g->call);
	free(g->target_group);
	free(g->stopped);
	free(g->sentence);
	free(g);
}
