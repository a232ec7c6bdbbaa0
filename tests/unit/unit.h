/*
 * unit.h - helpers shared by the cmocka tests of tests/unit.
 *
 * Include after <cmocka.h> (the helpers fail tests with fail_msg()) and
 * with _GNU_SOURCE defined (asprintf).
 */
#ifndef TESTS_UNIT_H
#define TESTS_UNIT_H

#include <stdio.h>
#include <string.h>

/* cmocka's assert_in_range compares as unsigned: no good for negative bounds */
#define assert_between(v, lo, hi)                                                       \
	do {                                                                            \
		long long v_ = (long long)(v);                                          \
		if (v_ < (long long)(lo) || v_ > (long long)(hi))                       \
			fail_msg("%s is %lld, not in [%lld, %lld]", #v, v_, (long long)(lo), \
				 (long long)(hi));                                      \
	} while (0)

/* tests/unit/<under><rel>, found from this file's own path; the caller frees the path */
static inline char *unit_relative_path(const char *under, const char *rel)
{
	const char *file = __FILE__, *slash = strrchr(file, '/');
	int dirlen = slash ? (int)(slash - file + 1) : 0;
	char *p = NULL;
	if (asprintf(&p, "%.*s%s%s", dirlen, file, under, rel) < 0)
		fail_msg("asprintf");
	return p;
}

/* tests/unit/data/<rel>, next to this file; the caller frees the path */
static inline char *data_path(const char *rel)
{
	return unit_relative_path("data/", rel);
}

/* <rel> in the repository (two levels above this file); the caller frees the path */
static inline char *repo_path(const char *rel)
{
	return unit_relative_path("../../", rel);
}

#endif
