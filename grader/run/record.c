/* record.c - see record.h */
#include "run/record.h"

#include <string.h>

static void hello_record(const char *buf, size_t len, const struct record_expect *x, struct record *out)
{
	size_t size;
	if (len < sizeof(out->hello))
		return;
	memcpy(&out->hello, buf, sizeof(out->hello));
	if (out->hello.nonce != x->nonce || out->hello.startup_len > GR_OUTPUT_KEEP ||
	    out->hello.detail_len > GR_DETAIL_MAX) {
		out->kind = RECORD_INVALID;
		return;
	}
	size = sizeof(out->hello) + out->hello.startup_len + out->hello.detail_len;
	if (len < size)
		return;
	out->kind = RECORD_HELLO;
	out->size = size;
	out->payload = buf + sizeof(out->hello);
}

static void report_record(const char *buf, size_t len, uint32_t magic, const struct record_expect *x,
			  struct record *out)
{
	const struct gr_report *r = &out->report;
	size_t size;
	if (len < sizeof(out->report))
		return;
	memcpy(&out->report, buf, sizeof(out->report));
	if (r->nonce != x->nonce) {
		/* written by code of the submission's, not by the runtime (protocol.h GR_NONCE_LEN) */
		out->kind = RECORD_INVALID;
		return;
	}
	if (magic == GR_MAGIC_FORBID) {
		out->kind = RECORD_FORBID;
		out->size = sizeof(out->report);
		return;
	}
	if (r->output_kept > GR_OUTPUT_KEEP || r->detail_len > GR_DETAIL_MAX || r->case_id != x->case_id) {
		out->kind = RECORD_INVALID;
		return;
	}
	size = sizeof(*r) + r->output_kept + r->detail_len;
	if (len < size)
		return;
	out->kind = RECORD_REPORT;
	out->size = size;
	out->payload = buf + sizeof(*r);
}

void record_next(const char *buf, size_t len, const struct record_expect *x, struct record *out)
{
	uint32_t magic;

	memset(out, 0, sizeof(*out));
	out->kind = RECORD_INCOMPLETE;
	if (len < sizeof(magic))
		return;
	memcpy(&magic, buf, sizeof(magic));
	if (x->starting && magic == GR_MAGIC_SANDBOX) {
		out->kind = RECORD_SANDBOX;
		out->size = sizeof(magic);
	} else if (x->starting && magic == GR_MAGIC_HELLO) {
		hello_record(buf, len, x, out);
	} else if (magic == GR_MAGIC_FORBID || (x->running && magic == GR_MAGIC_REPORT)) {
		report_record(buf, len, magic, x, out);
	} else {
		out->kind = RECORD_INVALID; /* anything else: the runner is not speaking our protocol */
	}
}
