/*
 * record.h - the records a runner sends the grader (runtime/protocol.h),
 * taken apart.  The bytes are untrusted (code before main can write on the
 * channel), so this is the one place that decides whether they are our
 * protocol, and it is a pure function: tests/fuzz feeds it anything.
 */
#ifndef GRADER_RECORD_H
#define GRADER_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/protocol.h"

enum record_kind {
	RECORD_INCOMPLETE, /* not enough bytes yet for the next record */
	RECORD_SANDBOX,    /* the runner could not install its filter (only while starting) */
	RECORD_HELLO,      /* the runner is ready (only while starting) */
	RECORD_FORBID,     /* the runner itself made a forbidden call */
	RECORD_REPORT,     /* a report on the task in progress */
	RECORD_INVALID,    /* not our protocol (or not now) */
};

/* What the runner may send now. */
struct record_expect {
	bool starting;     /* before its hello */
	bool running;      /* a task is in progress... */
	uint32_t case_id;  /* ...with this id */
	uint64_t nonce;    /* the runner's secret: a hello, report or forbidden-call record without it is not ours */
};

struct record {
	enum record_kind kind;
	size_t size;              /* bytes the record takes, payload included (complete records) */
	struct gr_hello hello;    /* RECORD_HELLO */
	struct gr_report report;  /* RECORD_REPORT; RECORD_FORBID: its syscall_nr */
	const char *payload;      /* hello: start-up output then detail; report: output then detail */
};

/* The record at the front of buf[0..len). */
void record_next(const char *buf, size_t len, const struct record_expect *x, struct record *out);

#endif
