/*
 * fuzz_elf.c - libFuzzer harness for elfcheck_inspect() (grader/build/elfcheck.c),
 * the ELF inspection of a linked C runner: the student controls every byte
 * of that image (sections, symbols, relocations, program headers).
 *
 * Input: the runner image, handed over as an anonymous memory file
 * (/proc/self/fd/N, nothing on disk).  The runtime's imports come from a
 * real runtime.o compiled when the harness was built (FUZZ_RUNTIME_O), so
 * the clash check runs against the names the grader really uses.
 * Checked: the call returns 0 or -1 (the memory total is not read on -1:
 * elfcheck.h promises nothing about it then, and verdict.c reads it only
 * after a 0), and the findings are NUL-terminated strings ASan can read to
 * the end.
 */
#include "fuzz.h"

#include "build/elfcheck.h"

#ifndef FUZZ_RUNTIME_O
#define FUZZ_RUNTIME_O "build/fuzz/runtime.o"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf forbidden = STRBUF_INIT, clashes = STRBUF_INIT;
	unsigned long long memsz = 1;
	struct fuzz_file f;
	int r;

	fuzz_memfd(&f, data, size);
	r = elfcheck_inspect(f.path, FUZZ_RUNTIME_O, &memsz, &forbidden, &clashes);
	if ((r != 0 && r != -1) || strlen(forbidden.buf) != forbidden.len || strlen(clashes.buf) != clashes.len)
		__builtin_trap();
	fuzz_memfd_close(&f);
	strbuf_release(&forbidden);
	strbuf_release(&clashes);
	return 0;
}
