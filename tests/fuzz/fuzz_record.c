/*
 * fuzz_record.c - libFuzzer harness for record_next() (grader/run/record.c),
 * the decoder of what a runner writes on its status channel.
 *
 * Input: byte 0 says what the grader expects (bit 0: the runner is
 * starting, bit 1: a task is running), bytes 1-4 the running task's case id
 * and bytes 5-12 the runner's secret (host order), the rest is the stream of
 * bytes the runner sent.  The
 * harness walks the stream as runner.c's slot_input() does (a hello ends
 * the start-up, records are consumed one by one) and checks what the
 * decoder promises:
 *   - a complete record fits in the bytes it was given, is at least its
 *     header, and its payload (hello: start-up output then detail; report:
 *     output then detail) lies inside it;
 *   - lengths stay within GR_OUTPUT_KEEP / GR_DETAIL_MAX;
 *   - a report is about the running case;
 *   - a hello, report or forbidden-call record carries the runner's secret;
 *   - decoding is prefix-stable: every shorter prefix of a complete record
 *     is RECORD_INCOMPLETE (the grader reads in pieces and decodes after
 *     each read, so a record must not be taken, or refused, early).
 * A broken promise aborts (a libFuzzer crash); the payload is copied out of
 * the input so that ASan sees any read past it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "run/record.h"

#define CHECK(cond)                                                                                            \
	do {                                                                                                   \
		if (!(cond))                                                                                   \
			__builtin_trap();                                                                      \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Touch every payload byte, as take_hello()/take_report() copy them. */
static void copy_payload(const char *payload, size_t len)
{
	char *copy;
	if (!len)
		return;
	copy = malloc(len);
	CHECK(copy);
	memcpy(copy, payload, len);
	free(copy);
}

static void check_complete(const char *buf, size_t len, const struct record_expect *x, const struct record *r)
{
	size_t header = 0, payload = 0;

	CHECK(r->size > 0 && r->size <= len);
	switch (r->kind) {
	case RECORD_SANDBOX:
		CHECK(x->starting);
		CHECK(r->size == sizeof(uint32_t));
		return;
	case RECORD_HELLO:
		CHECK(x->starting);
		CHECK(r->hello.magic == GR_MAGIC_HELLO && r->hello.nonce == x->nonce);
		CHECK(r->hello.startup_len <= GR_OUTPUT_KEEP && r->hello.detail_len <= GR_DETAIL_MAX);
		header = sizeof(struct gr_hello);
		payload = (size_t)r->hello.startup_len + r->hello.detail_len;
		break;
	case RECORD_FORBID:
		CHECK(r->report.magic == GR_MAGIC_FORBID && r->report.nonce == x->nonce);
		CHECK(r->size == sizeof(struct gr_report));
		return;
	case RECORD_REPORT:
		CHECK(x->running);
		CHECK(r->report.magic == GR_MAGIC_REPORT && r->report.case_id == x->case_id &&
		      r->report.nonce == x->nonce);
		CHECK(r->report.output_kept <= GR_OUTPUT_KEEP && r->report.detail_len <= GR_DETAIL_MAX);
		header = sizeof(struct gr_report);
		payload = (size_t)r->report.output_kept + r->report.detail_len;
		break;
	default:
		CHECK(0);
	}
	CHECK(r->size == header + payload);
	CHECK(r->payload == buf + header);
	copy_payload(r->payload, payload);
}

/* Every shorter prefix of a complete record decodes as "not yet". */
static void check_prefixes(const char *buf, const struct record_expect *x, const struct record *full)
{
	size_t cuts[] = { 0, 1, 3, 4, 5, sizeof(struct gr_hello) - 1, sizeof(struct gr_report) - 1,
			  full->size / 2, full->size ? full->size - 1 : 0 };
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		struct record r;
		if (cuts[i] >= full->size)
			continue;
		record_next(buf, cuts[i], x, &r);
		CHECK(r.kind == RECORD_INCOMPLETE && r.size == 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct record_expect x;
	const char *buf;
	size_t len;

	if (size < 13)
		return 0;
	x.starting = data[0] & 1;
	x.running = (data[0] & 2) != 0;
	memcpy(&x.case_id, data + 1, sizeof(x.case_id));
	memcpy(&x.nonce, data + 5, sizeof(x.nonce));
	buf = (const char *)data + 13;
	len = size - 13;
	for (;;) {
		struct record r;
		record_next(buf, len, &x, &r);
		if (r.kind == RECORD_INCOMPLETE || r.kind == RECORD_INVALID) {
			CHECK(r.size == 0);
			break;
		}
		check_complete(buf, len, &x, &r);
		check_prefixes(buf, &x, &r);
		if (r.kind == RECORD_SANDBOX || r.kind == RECORD_FORBID)
			break; /* the slot is done for */
		if (r.kind == RECORD_HELLO)
			x.starting = false;
		else
			x.case_id++; /* the next task */
		buf += r.size;
		len -= r.size;
	}
	return 0;
}
