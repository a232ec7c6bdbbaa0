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
 *
 * Before any of that the image itself is checked, and refused (a message in
 * forbidden) when the checks could not read all of it or Linux could not
 * start it: section and program header tables inside the file with entries
 * of the right size, counts read as the ELF format says (more than 65,279
 * sections: e_shnum 0 and e_shstrndx SHN_XINDEX, the real values in section
 * 0; PN_XNUM program headers likewise), no more program headers than Linux
 * reads, every section with contents and every loadable segment inside the
 * file, no image without sections, and one interpreter (PT_INTERP) of 2 to
 * PATH_MAX bytes ending in a NUL that is the system's loader (the grader's
 * own interpreter) and nothing more.  This is feedback, not the sandbox:
 * the filters and Landlock installed before execve are the boundary.
 *
 * The runtime's imports are the undefined symbols of runtime.o.  Every
 * offset is checked against the image before it is read.
 */
#ifndef GRADER_ELFCHECK_H
#define GRADER_ELFCHECK_H

#include "base/util.h"

/*
 * Inspect the runner at path against the runtime object it was linked
 * with.  *memsz: the static data's size (saturates, never wraps);
 * forbidden: why it is refused ("" when it is not); clashes: "'write',
 * 'fork'" ("" when none).  0 (a malformed image too: forbidden says why,
 * *memsz 0), or -1 (and *memsz 0) when path cannot be read or is not an
 * ELF64 image at all (the linker made it), or runtime_o cannot be read: the
 * grader's fault, not the submission's.  The caller owns both strbufs.
 */
int elfcheck_inspect(const char *path, const char *runtime_o, unsigned long long *memsz,
		     struct strbuf *forbidden, struct strbuf *clashes);

#endif
