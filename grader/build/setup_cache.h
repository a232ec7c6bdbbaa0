/*
 * setup_cache.h - what a language's set-up compiles once per engine (the
 * C runtime object, the Python host: language.h, setup_products) kept
 * between runs in the cache directory, so that a student who grades again,
 * or an instructor's next batch, does not compile them again (about 0.2 s
 * of CPU for runtime.o and 0.5 s for the Python host, before any test).
 *
 * Beside them, other products the grader compiles of its own code the same
 * way (setup_item: the C stub of each problem, lang_c.c), keyed on their
 * source as well.
 *
 * An entry is CACHE/runtime/<kind>-<key>/: the products and a SHA256SUMS
 * file.  The key covers the grader's version and its own file (a rebuilt
 * grader is a new key), the runtime's sources as compiled into it, the
 * item's own source text when it has one, the compiler the sandbox runs
 * (its resolved path, size and modification time), the C library's version
 * and the Python build flags: any change compiles afresh under a new key.
 *
 * The runtime installs the sandbox's filters, so an entry is trusted only
 * as far as its owner: it is used when the cache directory, the entry and
 * every product are this user's, not writable by group or others, not
 * symbolic links, and every product matches its checksum.  Anything else
 * is ignored, and the next store replaces it.  Storing is an optimisation:
 * a failure to store is not an error and says nothing.
 */
#ifndef GRADER_SETUP_CACHE_H
#define GRADER_SETUP_CACHE_H

#include "problem/language.h"

enum setup_cache_fetch {
	SETUP_CACHE_HIT,      /* the products were copied into dest_dir */
	SETUP_CACHE_MISS,     /* no entry, or caching is off (cache_dir NULL or "", no compiler found) */
	SETUP_CACHE_REJECTED, /* an entry was there but not trusted (owner, mode, checksum): ignored */
};

/* What one entry keeps. */
struct setup_item {
	const char *kind;             /* the entry's name before its key: a language's name, "c-stub" */
	const char *extra_key;        /* what else the products depend on (a digest of a stub's text), or NULL */
	const char *const *products;  /* the file names, NULL-terminated */
};

/* Copy item's products for compiler cc from the cache into dest_dir (which must not hold them yet). */
enum setup_cache_fetch setup_cache_fetch_item(const char *cache_dir, const struct setup_item *it, const char *cc,
					      const char *dest_dir);
/* Keep item's products as src_dir holds them, replacing an entry of the same key. */
void setup_cache_store_item(const char *cache_dir, const struct setup_item *it, const char *cc, const char *src_dir);

/* The same for lang's set-up (the item of its name and setup_products). */
enum setup_cache_fetch setup_cache_fetch(const char *cache_dir, const struct language *lang, const char *cc,
					 const char *dest_dir);

/* Keep the products lang's set-up left in src_dir, replacing an entry of the same key. */
void setup_cache_store(const char *cache_dir, const struct language *lang, const char *cc, const char *src_dir);

#endif
