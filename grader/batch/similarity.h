/*
 * similarity.h - fingerprints of a student's files, and the pairs of
 * students whose files are identical or nearly so: the idea behind MOSS
 * (Schleimer, Wilkerson, Aiken, "Winnowing: local algorithms for document
 * fingerprinting", SIGMOD 2003) and JPlag, as a first step.  A flagged
 * pair is a reason to read two files side by side, never proof: short
 * problems have few ways to be solved.
 *
 * A file is cut into normalised tokens (tokens.h: layout, comments and
 * identifier names do not count), every run of SIMILARITY_K tokens is
 * hashed, and winnowing keeps the smallest hash of every window of
 * SIMILARITY_W consecutive ones: any common run of at least K + W - 1
 * tokens leaves at least one common fingerprint, whatever surrounds it.
 *
 * Stored per student beside the reports, so that `grader merge` and the
 * summary need neither the submissions nor the grading engine:
 *
 *   OUTDIR/similarity/<id>.json
 *     {"format": "combgrader-similarity-1",
 *      "files": [{"problem": "p1", "file": "p1.c", "tokens": 212,
 *                 "bytes": "<sha-256 of the file>", "normalised": "<sha-256 of the tokens>",
 *                 "fingerprints": [123, ...]}]}     sorted, distinct, < 2^53
 *
 * Ownership: a sim_file owns its strings and fingerprints
 * (sim_file_release()); similarity_read() hands out an array the caller
 * releases with sim_files_free().  Pairs refer to the caller's arrays by index.
 */
#ifndef GRADER_SIMILARITY_H
#define GRADER_SIMILARITY_H

#include <stdbool.h>
#include <stdint.h>

#include "base/digest.h"
#include "problem/language.h"
#include "base/util.h"

#define SIMILARITY_DIR "similarity"
#define SIMILARITY_K 8             /* tokens per hashed run */
#define SIMILARITY_W 4             /* winnowing window: runs of K + W - 1 = 11 tokens always match */
#define SIMILARITY_MIN_TOKENS 50   /* shorter files are not compared: too little to tell */
#define SIMILARITY_THRESHOLD 0.8   /* flagged when this share of either file's fingerprints is shared */
#define SIMILARITY_COMMON_MIN 10   /* a fingerprint in more than max(this, half the files) is common code */
#define SIMILARITY_MAX_BYTES (1 << 20) /* only a file's first MiB is read */

struct sim_file {
	char *problem;                 /* the problem's id */
	char *file;                    /* the file's name as found ("p1.c") */
	int tokens;
	char bytes[DIGEST_HEX_SIZE];       /* sha-256 of the file */
	char normalised[DIGEST_HEX_SIZE];  /* sha-256 of its token stream */
	uint64_t *prints;              /* winnowed fingerprints, sorted, distinct */
	int nprints;
};

/* Fingerprint the file at path (its first SIMILARITY_MAX_BYTES).  0, or -1 with a message. */
int sim_file_make(struct sim_file *f, const char *problem, const char *path, enum token_flavour flavour,
		  struct strbuf *err);
void sim_file_release(struct sim_file *f);
void sim_files_free(struct sim_file *files, int n);

/* Write OUTDIR/similarity/<id>.json atomically.  0, or -1 with a message. */
int similarity_write(const char *outdir, const char *id, const struct sim_file *files, int n, struct strbuf *err);
/* Read it: 0 and *files (n entries), or -1 when it is missing or unreadable. */
int similarity_read(const char *outdir, const char *id, struct sim_file **files, int *n);
/* Remove it (a student not graded any more); a missing file is fine. */
void similarity_remove(const char *outdir, const char *id);

enum sim_kind {
	SIM_IDENTICAL,                 /* the same bytes */
	SIM_NORMALISED,                /* the same tokens: only layout, comments or names differ */
	SIM_SIMILAR,                   /* many fingerprints in common */
};

struct sim_pair {
	int a, b;                      /* indexes into the files compared, a < b */
	enum sim_kind kind;
	int shared;                    /* fingerprints in common (common code left out) */
	double share_a, share_b;       /* shared / each file's fingerprints */
};

/*
 * Compare the files of one problem, one per student, every pair: fills
 * *pairs (the caller frees it) with the flagged ones, the most alike first,
 * and returns how many.  *compared: the files long enough to compare.
 */
int similarity_pairs(const struct sim_file *const *files, int n, struct sim_pair **pairs, int *compared);

#endif
