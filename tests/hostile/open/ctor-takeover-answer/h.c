/* A constructor takes over the runner with protocol.h's records, whole: says
 * hello, then answers every request in-process, correctly and at once, with
 * a report claiming the case child's sandbox was in place (GR_CASE_READY).
 * No test runs in a case child, under its filter and limits.  The grader
 * must not count such answers (issue 29: "answer tests itself"; the twin of
 * py-takeover-answer; ctor-hijack's hello is short of protocol.h's, so it
 * ends at the start-up wall clock before any request).  Red team of 32f7ced. */
#include <stdint.h>
#include <string.h>
#include <unistd.h>
struct hello { uint32_t magic, nfunctions; uint64_t present; uint32_t filtered, pid, load_kind, startup_len;
	uint64_t startup_total; uint32_t detail_len, pad; };
struct request { uint32_t magic, size, case_id, function, cpu_ms, memory_mb, output_kb, pad; };
struct report { uint32_t magic, case_id; int32_t wait_status; uint32_t flags; int64_t answer;
	uint64_t cpu_us, maxrss_kb, output_total, nomem_bytes; int32_t syscall_nr; uint32_t output_kept, value_kind, detail_len, stop_signal, pad; };
static int rd(void *b, size_t n)
{
	char *p = b;
	while (n) {
		ssize_t k = read(3, p, n);
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}
__attribute__((constructor)) static void take_over(void)
{
	struct hello h = { 0x4f4c4548u, 1, 1, 1, (uint32_t)getpid(), 0, 0, 0, 0, 0 };
	if (write(4, &h, sizeof h) < 0)
		_exit(0);
	for (;;) {
		struct request rq;
		static unsigned char buf[1 << 16];
		int64_t v;
		struct report r;
		if (rd(&rq, sizeof rq) || rq.size > sizeof buf || rd(buf, rq.size))
			_exit(0);
		memcpy(&v, buf + 1, 8);

		memset(&r, 0, sizeof r);
		r.magic = 0x50455247u;
		r.case_id = rq.case_id;
		r.flags = 1 | 64;
		r.answer = 2 * v;
		r.cpu_us = 1000;
		if (write(4, &r, sizeof r) < 0)
			_exit(0);
	}
}
long long twice(long long x) { return 2 * x; }
