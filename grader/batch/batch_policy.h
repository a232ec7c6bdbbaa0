/*
 * batch_policy.h - deadlines and late work for `grader batch --policy FILE`.
 *
 * The policy file (YAML):
 *
 *   deadline: 2026-11-20T23:59:00+01:00     # ISO 8601, with an offset (or Z)
 *   late_until: 2026-11-23T23:59:00+01:00   # last moment late work is taken
 *   penalty:
 *     per: day                              # hour or day; every started one counts
 *     percent: 10                           # of the raw score, per hour or day late
 *     cap: 30                               # percent at most (default: 100)
 *   extensions:                             # per student id (the row's id)
 *     lovelaceada_101: 2026-11-22T23:59:00+01:00      # a new deadline; late_until moves as much
 *     carol: { deadline: 2026-11-21T12:00:00Z, late_until: 2026-11-25T12:00:00Z }
 *
 * Mistakes are errors "FILE:LINE:COL: ..." (libyaml's marks, counted from 1).
 *
 * A submission's time (struct late_time) is found by batch_time.h; the
 * price (struct late_price) is computed here, from the policy and that
 * time alone, so a resumed run and `grader merge` price every row alike.
 *
 * Ownership: a policy owns its strings and extensions (late_policy_release);
 * a late_time owns its words (late_time_release); a late_price owns its
 * note (late_price_release).
 */
#ifndef GRADER_BATCH_POLICY_H
#define GRADER_BATCH_POLICY_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/util.h"

enum late_unit { LATE_PER_HOUR, LATE_PER_DAY };

struct late_extension {
	char *id;
	int64_t deadline, late_until;   /* seconds since the epoch */
};

struct late_policy {
	int64_t deadline, late_until;   /* seconds since the epoch */
	int offset_s;                   /* the deadline's UTC offset: times are written in it */
	enum late_unit unit;
	double percent, cap;            /* per unit; at most cap (both in percent of the raw score) */
	struct late_extension *ext;     /* sorted by id */
	int next;
};

/* 0, or -1 with "FILE:LINE:COL: what is wrong" in err. */
int late_policy_load(const char *path, struct late_policy *p, struct strbuf *err);
void late_policy_release(struct late_policy *p);
/* A deep copy (merge copies a shard's policy). */
void late_policy_copy(struct late_policy *dst, const struct late_policy *src);
/* The manifest's "policy" object, and back (0, or -1 with a message in err). */
json_t *late_policy_to_json(const struct late_policy *p);
int late_policy_from_json(json_t *j, struct late_policy *p, struct strbuf *err);
/* Same rules?  (--resume into an output graded under another policy re-prices, which is fine; merge refuses.) */
bool late_policy_equal(const struct late_policy *a, const struct late_policy *b);
/* The student's deadline and late_until, extensions applied; the extension or NULL. */
const struct late_extension *late_policy_for(const struct late_policy *p, const char *id, int64_t *deadline,
					     int64_t *late_until);

/* When a student handed in, and how the grader knows (batch_time.h finds it). */
struct late_time {
	bool known;                     /* when holds a time */
	int64_t when;                   /* seconds since the epoch */
	bool late_marker;               /* the LMS marked it late (Canvas' _LATE_) */
	bool flagged;                   /* the time is one the student can set: the row says so */
	char *source;                   /* how the time was found, in words (one line) */
	char *commit;                   /* git: the commit graded (full hash), or NULL */
};
void late_time_release(struct late_time *t);
json_t *late_time_to_json(const struct late_time *t);
void late_time_from_json(json_t *j, struct late_time *t);

struct late_price {
	double late_hours;              /* 0 when on time */
	double penalty;                 /* percent taken off the raw score */
	bool too_late;                  /* after late_until: the final score is 0 */
	char *note;                     /* one line for the row: on time / N days late: P% / after late_until */
	/* the figures behind the note, for words in another language (feedback_late.h) */
	int64_t late_s;                 /* seconds after the deadline (1 when only marked late) */
	bool marker_only;               /* marked late, no time says how late: charged one unit */
	long long units;                /* started hours or days charged */
	bool per_hour;                  /* the unit is an hour (else a day) */
	double percent;                 /* the policy's percent per unit */
	bool capped;                    /* units x percent was more than the cap */
	int64_t deadline, late_until;   /* the student's, extensions applied */
	int offset_s;                   /* the policy's UTC offset, to write times in */
};
void late_price(const struct late_policy *p, const char *id, const struct late_time *t, struct late_price *out);
double late_final(const struct late_price *pr, double raw);
void late_price_release(struct late_price *pr);

/* "2026-11-20T23:59:00+01:00": t written at the given UTC offset. */
void late_format_time(struct strbuf *sb, int64_t t, int offset_s);
/* Parse ISO 8601 "YYYY-MM-DD[T ]HH:MM[:SS](Z|+HH:MM|-HH:MM)"; an offset is required.  0, or -1. */
int late_parse_time(const char *s, int64_t *t, int *offset_s);

#endif
