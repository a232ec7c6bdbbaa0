/* elfcheck.c - see elfcheck.h */
#include "elfcheck.h"

#include <elf.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Do len bytes at off lie inside the image?  (Without overflowing.) */
static bool in_image(const struct strbuf *img, uint64_t off, uint64_t len)
{
	return off <= img->len && len <= img->len - off;
}

/*
 * Every header is copied out of the image before it is read: the image
 * chooses the offsets, and an Elf64_* at an odd one would be a misaligned
 * access.  (The ELF header itself starts the buffer, which malloc aligned.)
 */

/* Section header i of an ELF64 image into *sh: 0, or -1 when it is not inside the image. */
static int elf_section(const struct strbuf *img, int i, Elf64_Shdr *sh)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img->buf;
	uint64_t off = eh->e_shoff + (uint64_t)i * eh->e_shentsize;
	if (i < 0 || i >= eh->e_shnum || eh->e_shentsize < sizeof(Elf64_Shdr) || eh->e_shoff > img->len ||
	    !in_image(img, off, sizeof(Elf64_Shdr)))
		return -1;
	memcpy(sh, img->buf + off, sizeof(*sh));
	return 0;
}

/* The NUL-terminated string at off of the string table section strndx, or "?" when outside the image. */
static const char *elf_string(const struct strbuf *img, int strndx, uint64_t off)
{
	Elf64_Shdr strsh;
	/* the strbuf is NUL-terminated, so a string cannot run past the image */
	if (elf_section(img, strndx, &strsh) < 0 || strsh.sh_offset >= img->len || off >= img->len - strsh.sh_offset)
		return "?";
	return img->buf + strsh.sh_offset + off;
}

/* The name of section sh ("" when it cannot be read). */
static const char *section_name(const struct strbuf *img, const Elf64_Shdr *sh)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img->buf;
	const char *name = elf_string(img, eh->e_shstrndx, sh->sh_name);
	return strcmp(name, "?") ? name : "";
}

static int elf_read(struct strbuf *img, const char *path)
{
	const Elf64_Ehdr *eh;
	if (read_file(img, path) < 0 || img->len < sizeof(Elf64_Ehdr))
		return -1;
	eh = (const Elf64_Ehdr *)img->buf;
	return memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ? -1 : 0;
}

/*
 * Call fn for every entry of the image's symbol tables of type sh_type
 * (SHT_SYMTAB: .symtab; SHT_DYNSYM: .dynsym), with the entry's index in its
 * table and the table's section index.
 */
typedef void symbol_fn(const Elf64_Sym *sym, const char *name, size_t index, int table, void *data);

static void elf_each_symbol(const struct strbuf *img, unsigned sh_type, symbol_fn *fn, void *data)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img->buf;
	for (int i = 0; i < eh->e_shnum; i++) {
		Elf64_Shdr sh;
		Elf64_Sym sym;
		if (elf_section(img, i, &sh) < 0 || sh.sh_type != sh_type || sh.sh_entsize < sizeof(Elf64_Sym) ||
		    !in_image(img, sh.sh_offset, sh.sh_size))
			continue;
		for (size_t k = 0; k < sh.sh_size / sh.sh_entsize; k++) {
			memcpy(&sym, img->buf + sh.sh_offset + k * sh.sh_entsize, sizeof(sym));
			fn(&sym, elf_string(img, (int)sh.sh_link, sym.st_name), k, i, data);
		}
	}
}

/* Call fn for every RELA relocation of the image, with the section index of the symbol table it refers to. */
typedef void reloc_fn(const Elf64_Rela *r, int symtab, void *data);

static void elf_each_rela(const struct strbuf *img, reloc_fn *fn, void *data)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img->buf;
	for (int i = 0; i < eh->e_shnum; i++) {
		Elf64_Shdr sh;
		Elf64_Rela r;
		if (elf_section(img, i, &sh) < 0 || sh.sh_type != SHT_RELA || sh.sh_entsize < sizeof(Elf64_Rela) ||
		    !in_image(img, sh.sh_offset, sh.sh_size))
			continue;
		for (size_t k = 0; k < sh.sh_size / sh.sh_entsize; k++) {
			memcpy(&r, img->buf + sh.sh_offset + k * sh.sh_entsize, sizeof(r));
			fn(&r, (int)sh.sh_link, data);
		}
	}
}

/* The relocations that run an ifunc resolver while the program loads and that copy a library's object in. */
struct machine_relocs {
	unsigned irelative, copy; /* 0 when unknown */
};

static struct machine_relocs machine_relocs(unsigned machine)
{
	struct machine_relocs m = { 0, 0 };
	switch (machine) {
#ifdef R_X86_64_IRELATIVE
	case EM_X86_64:
		m.irelative = R_X86_64_IRELATIVE;
		m.copy = R_X86_64_COPY;
		break;
#endif
#ifdef R_AARCH64_IRELATIVE
	case EM_AARCH64:
		m.irelative = R_AARCH64_IRELATIVE;
		m.copy = R_AARCH64_COPY;
		break;
#endif
#ifdef R_PPC64_IRELATIVE
	case EM_PPC64:
		m.irelative = R_PPC64_IRELATIVE;
		m.copy = R_PPC64_COPY;
		break;
#endif
#ifdef R_390_IRELATIVE
	case EM_S390:
		m.irelative = R_390_IRELATIVE;
		m.copy = R_390_COPY;
		break;
#endif
	default:
		break;
	}
	return m;
}

static void add_saturating(unsigned long long *sum, uint64_t v)
{
	*sum = v > ULLONG_MAX - *sum ? ULLONG_MAX : *sum + v;
}

/*
 * The memory the static data needs: the loadable segments, and the
 * thread-local storage block the loader allocates for the main thread
 * apart from them (PT_TLS: .tdata and .tbss; 1 GiB of __thread data is
 * not in any PT_LOAD).  -1 when a program header lies outside the image.
 */
static int static_size(const struct strbuf *img, unsigned long long *memsz)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img->buf;
	*memsz = 0;
	for (int i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;
		uint64_t off = eh->e_phoff + (uint64_t)i * eh->e_phentsize;
		if (eh->e_phoff > img->len || eh->e_phentsize < sizeof(ph) || !in_image(img, off, sizeof(ph)))
			return -1;
		memcpy(&ph, img->buf + off, sizeof(ph));
		if (ph.p_type == PT_LOAD || ph.p_type == PT_TLS)
			add_saturating(memsz, ph.p_memsz);
	}
	return 0;
}

/* Bytes of pre-initialisation array: sections named .preinit_array or of that type. */
static uint64_t preinit_bytes(const struct strbuf *img)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img->buf;
	unsigned long long sum = 0;
	for (int i = 0; i < eh->e_shnum; i++) {
		Elf64_Shdr sh;
		if (elf_section(img, i, &sh) == 0 &&
		    (sh.sh_type == SHT_PREINIT_ARRAY || !strcmp(section_name(img, &sh), ".preinit_array")))
			add_saturating(&sum, sh.sh_size);
	}
	return sum;
}

/*
 * Names the runtime takes from the C library: the undefined symbols of
 * runtime.o.  (Should it ever use one that libc_nonshared.a links into the
 * executable itself, atexit say, that name would need an exception here.)
 */
static void collect_import(const Elf64_Sym *sym, const char *name, size_t index, int table, void *data)
{
	struct strbuf *names = data;
	unsigned bind = ELF64_ST_BIND(sym->st_info);
	(void)index;
	(void)table;
	/* the stub provides gr_*, --wrap provides __real_* */
	if (sym->st_shndx != SHN_UNDEF || !*name || (bind != STB_GLOBAL && bind != STB_WEAK) ||
	    !strncmp(name, "gr_", 3) || !strncmp(name, "__real_", 7) || !strcmp(name, "_GLOBAL_OFFSET_TABLE_"))
		return;
	strbuf_addstr(names, name);
	strbuf_addch(names, '\n');
}

/* Is name (up to a symbol version "@...") one of the "name\n" list? */
static bool is_import(const char *imports, const char *name)
{
	size_t len = strcspn(name, "@");
	const char *end;
	for (const char *p = imports; len && (end = strchr(p, '\n')); p = end + 1)
		if ((size_t)(end - p) == len && !strncmp(p, name, len))
			return true;
	return false;
}

struct elf_findings {
	const char *imports;      /* "name\n" list from collect_import */
	struct machine_relocs relocs;
	struct strbuf copied;     /* uint64_t addresses a COPY relocation fills (a library object copied in) */
	struct strbuf *forbidden;
	struct strbuf *clashes;
};

static void add_clash(struct elf_findings *f, const char *name)
{
	size_t len = strcspn(name, "@");
	char *quoted = xasprintf("'%.*s'", (int)len, name);
	if (!strstr(f->clashes->buf, quoted))
		strbuf_addf(f->clashes, "%s%s", f->clashes->len ? ", " : "", quoted);
	free(quoted);
}

static void collect_copy(const Elf64_Rela *r, int symtab, void *data)
{
	struct elf_findings *f = data;
	(void)symtab;
	if (f->relocs.copy && ELF64_R_TYPE(r->r_info) == f->relocs.copy)
		strbuf_add(&f->copied, &r->r_offset, sizeof(r->r_offset));
}

/* Is sym a library object a COPY relocation put in the program (stdout: the runtime's import, not a definition)? */
static bool is_copied(const struct elf_findings *f, const Elf64_Sym *sym)
{
	for (size_t i = 0; i + sizeof(uint64_t) <= f->copied.len; i += sizeof(uint64_t)) {
		uint64_t addr;
		memcpy(&addr, f->copied.buf + i, sizeof(addr));
		if (addr == sym->st_value)
			return true;
	}
	return false;
}

/*
 * .symtab: ifunc symbols are refused; a defined global symbol of any type
 * (FUNC, OBJECT, TLS, COMMON, NOTYPE, IFUNC, absolute) with the name of an
 * import is a clash, unless it is a library object a COPY relocation put
 * there (stdout, or "stdout@GLIBC_2.2.5" as newer linkers name it).
 */
static void check_symbol(const Elf64_Sym *sym, const char *name, size_t index, int table, void *data)
{
	struct elf_findings *f = data;
	unsigned type = ELF64_ST_TYPE(sym->st_info), bind = ELF64_ST_BIND(sym->st_info);

	(void)index;
	(void)table;
	if (sym->st_shndx == SHN_UNDEF || type == STT_SECTION || type == STT_FILE)
		return;
	if (type == STT_GNU_IFUNC && !f->forbidden->len)
		strbuf_addf(f->forbidden, "'%s' is an ifunc (indirect function): those run code while "
			    "the program loads, before the sandbox is in place, and are not allowed", name);
	if ((bind == STB_GLOBAL || bind == STB_WEAK || bind == STB_GNU_UNIQUE) && is_import(f->imports, name) &&
	    !is_copied(f, sym))
		add_clash(f, name);
}

/*
 * .dynsym: every import must be left to the dynamic linker - undefined
 * there, or a library object copied in by a COPY relocation.  An import
 * defined in the program without a COPY relocation, or missing from
 * .dynsym altogether, was bound at link time to something of the
 * submission (a hidden-visibility definition shows in .symtab as a local
 * symbol, indistinguishable from a static one).
 */
struct dyn_seen {
	struct elf_findings *f;
	struct strbuf names; /* "name\n" of the imports bound dynamically */
};

static void check_dynamic(const Elf64_Sym *sym, const char *name, size_t index, int table, void *data)
{
	struct dyn_seen *d = data;
	if (!*name || !is_import(d->f->imports, name))
		return;
	(void)index;
	(void)table;
	if (sym->st_shndx == SHN_UNDEF || is_copied(d->f, sym)) {
		strbuf_addstr(&d->names, name);
		strbuf_addch(&d->names, '\n');
	} else {
		add_clash(d->f, name);
	}
}

static void check_dynamic_imports(const struct strbuf *img, struct elf_findings *f)
{
	struct dyn_seen d = { f, STRBUF_INIT };
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img->buf;
	bool dynamic = false;

	for (int i = 0; i < eh->e_shnum && !dynamic; i++) {
		Elf64_Shdr sh;
		dynamic = elf_section(img, i, &sh) == 0 && sh.sh_type == SHT_DYNSYM;
	}
	if (!dynamic) /* a static link: everything is bound in the program, .symtab says by what */
		goto cleanup;
	elf_each_symbol(img, SHT_DYNSYM, check_dynamic, &d);
	for (const char *p = f->imports, *end; (end = strchr(p, '\n')); p = end + 1) {
		char *name = xstrndup(p, (size_t)(end - p));
		if (!is_import(d.names.buf, name))
			add_clash(f, name);
		free(name);
	}
cleanup:
	strbuf_release(&d.names);
}

struct irelative_scan {
	unsigned type;
	bool found;
};

static void find_irelative(const Elf64_Rela *r, int symtab, void *data)
{
	struct irelative_scan *s = data;
	(void)symtab;
	if (s->type && ELF64_R_TYPE(r->r_info) == s->type)
		s->found = true;
}

/*
 * Inspect the runner: the memory its static data needs, no ifunc resolvers
 * (they run during relocation, before our seccomp hook: refused as symbols
 * and as IRELATIVE relocations, which is what runs them), no entry of its
 * own in .preinit_array, and no symbol that takes the place of something
 * the runtime imports from the C library (clashes).
 */
int elfcheck_inspect(const char *path, const char *runtime_o, unsigned long long *memsz,
		     struct strbuf *forbidden, struct strbuf *clashes)
{
	struct strbuf img = STRBUF_INIT, rt = STRBUF_INIT, imports = STRBUF_INIT;
	struct elf_findings f = { NULL, { 0, 0 }, STRBUF_INIT, forbidden, clashes };
	struct irelative_scan irel = { 0, false };
	const Elf64_Ehdr *eh;
	int ret = -1;

	*memsz = 0;
	if (elf_read(&img, path) < 0 || elf_read(&rt, runtime_o) < 0 || static_size(&img, memsz) < 0)
		goto cleanup;
	eh = (const Elf64_Ehdr *)img.buf;
	elf_each_symbol(&rt, SHT_SYMTAB, collect_import, &imports);
	f.imports = imports.buf;
	f.relocs = machine_relocs(eh->e_machine);
	elf_each_rela(&img, collect_copy, &f);
	elf_each_symbol(&img, SHT_SYMTAB, check_symbol, &f);
	check_dynamic_imports(&img, &f);
	if (!forbidden->len && preinit_bytes(&img) > preinit_bytes(&rt))
		strbuf_addstr(forbidden, "the program puts a function in .preinit_array: code there runs before "
			      "the runner has set up its sandbox, and is not allowed");
	irel.type = f.relocs.irelative;
	elf_each_rela(&img, find_irelative, &irel);
	if (!forbidden->len && irel.found)
		strbuf_addstr(forbidden, "the program has an ifunc (indirect function) relocation: "
			      "those run code while the program loads, before the sandbox is in "
			      "place, and are not allowed");
	ret = 0;
cleanup:
	if (ret < 0)
		*memsz = 0;
	strbuf_release(&img);
	strbuf_release(&rt);
	strbuf_release(&imports);
	strbuf_release(&f.copied);
	return ret;
}
