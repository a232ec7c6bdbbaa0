/* elfcheck.c - see elfcheck.h */
#include "elfcheck.h"

#include <elf.h>
#include <stdbool.h>
#include <string.h>

/* Do len bytes at off lie inside the image?  (Without overflowing.) */
static bool in_image(const struct strbuf *img, uint64_t off, uint64_t len)
{
	return off <= img->len && len <= img->len - off;
}

/* Section header i of an ELF64 image, or NULL when it is not inside the image. */
static const Elf64_Shdr *elf_section(const struct strbuf *img, int i)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img->buf;
	uint64_t off = eh->e_shoff + (uint64_t)i * eh->e_shentsize;
	if (i < 0 || i >= eh->e_shnum || eh->e_shentsize < sizeof(Elf64_Shdr) || eh->e_shoff > img->len ||
	    !in_image(img, off, sizeof(Elf64_Shdr)))
		return NULL;
	return (const Elf64_Shdr *)(img->buf + off);
}

static int elf_read(struct strbuf *img, const char *path)
{
	const Elf64_Ehdr *eh;
	if (read_file(img, path) < 0 || img->len < sizeof(Elf64_Ehdr))
		return -1;
	eh = (const Elf64_Ehdr *)img->buf;
	return memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ? -1 : 0;
}

/* Call fn for every entry of the image's static symbol tables (.symtab). */
static void elf_each_symbol(const struct strbuf *img,
			    void (*fn)(const Elf64_Sym *sym, const char *name, void *data), void *data)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img->buf;
	for (int i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *sh = elf_section(img, i), *strsh;
		if (!sh || sh->sh_type != SHT_SYMTAB || sh->sh_entsize < sizeof(Elf64_Sym) ||
		    !in_image(img, sh->sh_offset, sh->sh_size))
			continue;
		strsh = elf_section(img, (int)sh->sh_link);
		if (!strsh || strsh->sh_offset >= img->len)
			continue;
		for (size_t k = 0; k < sh->sh_size / sh->sh_entsize; k++) {
			const Elf64_Sym *sym = (const Elf64_Sym *)(img->buf + sh->sh_offset + k * sh->sh_entsize);
			const char *name = "?";
			/* the strbuf is NUL-terminated, so a name cannot run past the image */
			if (strsh->sh_offset + sym->st_name < img->len)
				name = img->buf + strsh->sh_offset + sym->st_name;
			fn(sym, name, data);
		}
	}
}

/* The relocation that runs an ifunc resolver while the program loads, or 0 when unknown. */
static unsigned irelative_type(unsigned machine)
{
	switch (machine) {
#ifdef R_X86_64_IRELATIVE
	case EM_X86_64:
		return R_X86_64_IRELATIVE;
#endif
#ifdef R_AARCH64_IRELATIVE
	case EM_AARCH64:
		return R_AARCH64_IRELATIVE;
#endif
#ifdef R_PPC64_IRELATIVE
	case EM_PPC64:
		return R_PPC64_IRELATIVE;
#endif
#ifdef R_390_IRELATIVE
	case EM_S390:
		return R_390_IRELATIVE;
#endif
	default:
		return 0;
	}
}

/*
 * Names the runtime takes from the C library: the undefined symbols of
 * runtime.o.  (Should it ever use one that libc_nonshared.a links into the
 * executable itself, atexit say, that name would need an exception here.)
 */
static void collect_import(const Elf64_Sym *sym, const char *name, void *data)
{
	struct strbuf *names = data;
	unsigned bind = ELF64_ST_BIND(sym->st_info);
	/* the stub provides gr_*, --wrap provides __real_* */
	if (sym->st_shndx != SHN_UNDEF || !*name || (bind != STB_GLOBAL && bind != STB_WEAK) ||
	    !strncmp(name, "gr_", 3) || !strncmp(name, "__real_", 7) || !strcmp(name, "_GLOBAL_OFFSET_TABLE_"))
		return;
	strbuf_addstr(names, name);
	strbuf_addch(names, '\n');
}

struct elf_findings {
	const char *imports;    /* "name\n" list from collect_import */
	struct strbuf *forbidden;
	struct strbuf *clashes;
};

static void check_symbol(const Elf64_Sym *sym, const char *name, void *data)
{
	struct elf_findings *f = data;
	unsigned type = ELF64_ST_TYPE(sym->st_info), bind = ELF64_ST_BIND(sym->st_info);
	size_t len = strlen(name);

	if (sym->st_shndx == SHN_UNDEF)
		return;
	if (type == STT_GNU_IFUNC && !f->forbidden->len)
		strbuf_addf(f->forbidden, "'%s' is an ifunc (indirect function): those run code while "
			    "the program loads, before the sandbox is in place, and are not allowed", name);
	/*
	 * A global function of the submission with the name of one the runtime
	 * calls replaces it for the runtime too (write, read, fork...): the
	 * runner would not work, or would run the test outside its sandbox.
	 */
	/* FUNC, and NOTYPE too: a bare asm label ("prctl: ret") is a function all the same */
	if ((type == STT_FUNC || type == STT_NOTYPE || type == STT_GNU_IFUNC) &&
	    (bind == STB_GLOBAL || bind == STB_WEAK) && len && f->imports) {
		for (const char *p = f->imports; (p = strstr(p, name)); p += len)
			if ((p == f->imports || p[-1] == '\n') && p[len] == '\n') {
				strbuf_addf(f->clashes, "%s'%s'", f->clashes->len ? ", " : "", name);
				break;
			}
	}
}

/*
 * Inspect the runner: the memory its segments need, no ifunc resolvers (they
 * run during relocation, before our seccomp hook: refused as symbols and as
 * IRELATIVE relocations, which is what runs them), and no global function
 * that takes the name of a C library function the runtime uses (clashes).
 */
int elfcheck_inspect(const char *path, const char *runtime_o, unsigned long long *memsz,
		     struct strbuf *forbidden, struct strbuf *clashes)
{
	struct strbuf img = STRBUF_INIT, rt = STRBUF_INIT, imports = STRBUF_INIT;
	struct elf_findings f = { NULL, forbidden, clashes };
	const Elf64_Ehdr *eh;
	unsigned irelative;
	int ret = -1;

	*memsz = 0;
	if (elf_read(&img, path) < 0)
		goto cleanup;
	eh = (const Elf64_Ehdr *)img.buf;
	for (int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph;
		uint64_t off = eh->e_phoff + (uint64_t)i * eh->e_phentsize;
		if (eh->e_phoff > img.len || !in_image(&img, off, sizeof(*ph)))
			goto cleanup;
		ph = (const Elf64_Phdr *)(img.buf + off);
		if (ph->p_type == PT_LOAD)
			*memsz += ph->p_memsz;
	}
	if (elf_read(&rt, runtime_o) == 0) {
		elf_each_symbol(&rt, collect_import, &imports);
		f.imports = imports.buf;
	}
	elf_each_symbol(&img, check_symbol, &f);
	irelative = irelative_type(eh->e_machine);
	for (int i = 0; irelative && !forbidden->len && i < eh->e_shnum; i++) {
		const Elf64_Shdr *sh = elf_section(&img, i);
		if (!sh || sh->sh_type != SHT_RELA || sh->sh_entsize < sizeof(Elf64_Rela) ||
		    !in_image(&img, sh->sh_offset, sh->sh_size))
			continue;
		for (size_t k = 0; k < sh->sh_size / sh->sh_entsize; k++) {
			const Elf64_Rela *r = (const Elf64_Rela *)(img.buf + sh->sh_offset + k * sh->sh_entsize);
			if (ELF64_R_TYPE(r->r_info) == irelative) {
				strbuf_addstr(forbidden, "the program has an ifunc (indirect function) relocation: "
					      "those run code while the program loads, before the sandbox is in "
					      "place, and are not allowed");
				break;
			}
		}
	}
	ret = 0;
cleanup:
	strbuf_release(&img);
	strbuf_release(&rt);
	strbuf_release(&imports);
	return ret;
}
