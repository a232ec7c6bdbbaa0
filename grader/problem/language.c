/* language.c - see language.h */
#include "problem/language.h"

#include <string.h>
#include <strings.h>

const struct language *const languages[] = { &language_c, &language_python, NULL };

const struct language *language_find(const char *name)
{
	for (int i = 0; languages[i]; i++)
		if (!strcmp(languages[i]->name, name))
			return languages[i];
	return NULL;
}

const struct language *language_of_file(const char *name)
{
	size_t l = strlen(name);
	for (int i = 0; languages[i]; i++) {
		size_t e = strlen(languages[i]->extension);
		if (l > e && !strcasecmp(name + l - e, languages[i]->extension))
			return languages[i];
	}
	return NULL;
}

int language_index(const struct language *l)
{
	for (int i = 0; languages[i]; i++)
		if (languages[i] == l)
			return i;
	return 0;
}
