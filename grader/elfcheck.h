/*
 * elfcheck.h - what a linked C runner would do before the sandbox is in
 * place, read from its ELF image (never run):
 *
 *   - ifunc resolvers (STT_GNU_IFUNC symbols and IRELATIVE relocations) run
 *     while the program loads, before the .preinit_array hook installs the
 *     seccomp filter: refused;
 *   - a global symbol of the submission named like a C library function the
 *     runtime calls (write, fork, prctl...) replaces it for the runtime too:
 *     a clash;
 *   - the memory its loadable segments need (static data).
 *
 * The runtime's imports are the undefined symbols of runtime.o.  Malformed
 * images are read defensively (every offset checked against the image).
 */
#ifndef GRADER_ELFCHECK_H
#define GRADER_ELFCHECK_H

#include "util.h"

/*
 * Inspect the runner at path.  *memsz: the loadable segments' size;
 * forbidden: why it is refused ("" when it is not); clashes: "'write', 'fork'"
 * ("" when none).  0, or -1 when path is not an ELF64 image.
 */
int elfcheck_inspect(const char *path, const char *runtime_o, unsigned long long *memsz,
		     struct strbuf *forbidden, struct strbuf *clashes);

#endif
