/* report.c - the table of report formats and what every writer shares */
#include "report.h"

#include <string.h>

const struct report_format report_formats[] = {
	{ "text", "a report for students (default)", report_text },
	{ "json", "the machine-readable contract", report_json },
	{ NULL, NULL, NULL },
};

const struct report_format *report_find(const char *name)
{
	for (int i = 0; report_formats[i].name; i++)
		if (!strcmp(report_formats[i].name, name))
			return &report_formats[i];
	return NULL;
}

bool report_visible(const struct test_result *t, const struct problem *p, const struct report_options *o)
{
	return o->show_hidden || p->groups[t->tc->group].visibility == VIS_PUBLIC;
}

const char *report_message(const struct test_result *t, const struct problem *p, const struct report_options *o)
{
	if (t->verdict == V_CORRECT)
		return NULL;
	if (report_visible(t, p, o) && t->message)
		return t->message;
	return verdict_words(t->verdict);
}
