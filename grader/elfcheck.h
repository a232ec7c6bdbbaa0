/*
 * elfcheck.h - what a linked C runner would do before the sandbox is in
 * place, read from its ELF image (never run):
 *
 *   - ifunc resolvers (STT_GNU_IFUNC symbols and IRELATIVE relocations) run
 *     while the program loads, before the .preinit_array hook installs the
 *     seccomp filter: refused;
 *   - a .preinit_array bigger than the runtime's own: an entry of the
 *     submission there runs beside the hook that installs the filter, as
 *     early as the hook itself: refused;
 *   - a symbol of the submission named like a C library function (or object)
 *     the runtime uses (write, fork, stdout...) takes its place for the
 *     runtime too, whatever its type (FUNC, OBJECT, TLS, COMMON, NOTYPE,
 *     IFUNC) or visibility: a clash.  Two checks: every defined global
 *     symbol of .symtab against the runtime's imports, and every import
 *     must be left to the dynamic linker (undefined in .dynsym, or a libc
 *     object copied in by a COPY relocation);
 *   - the memory its static data needs: the loadable segments and the
 *     thread-local storage block (PT_TLS), which the loader allocates apart.
 *
 * The runtime's imports are the undefined symbols of runtime.o.  Malformed
 * images are read defensively (every offset checked against the image).
 */
#ifndef GRADER_ELFCHECK_H
#define GRADER_ELFCHECK_H

#include "util.h"

/*
 * Inspect the runner at path against the runtime object it was linked
 * with.  *memsz: the static data's size (saturates, never wraps);
 * forbidden: why it is refused ("" when it is not); clashes: "'write',
 * 'fork'" ("" when none).  0, or -1 (and *memsz 0) when path is not an
 * ELF64 image or runtime_o cannot be read: the grader's fault, not the
 * submission's.  The caller owns both strbufs.
 */
int elfcheck_inspect(const char *path, const char *runtime_o, unsigned long long *memsz,
		     struct strbuf *forbidden, struct strbuf *clashes);

#endif
