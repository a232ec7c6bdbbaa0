/* elfcheck.c - see elfcheck.h */
#include "build/elfcheck.h"

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
 * An ELF64 image and its table sizes as they really are: with more than
 * 65,279 sections e_shnum is 0 and the count sits in section 0's sh_size,
 * e_shstrndx is SHN_XINDEX and the index sits in section 0's sh_link, and
 * e_phnum PN_XNUM puts the program header count in section 0's sh_info.
 * elf_parse() checks both tables lie inside the image, so every loop below
 * runs over what is there, never over what the header claims.
 *
 * Every header is copied out of the image before it is read: the image
 * chooses the offsets, and an Elf64_* at an odd one would be a misaligned
 * access.
 */
struct elf {
	const struct strbuf *img;
	Elf64_Ehdr eh;
	uint64_t shnum, shstrndx, phnum;
};

/* Linux reads at most 64 KiB of program headers (fs/binfmt_elf.c, elf_read_phdrs) */
#define ELF_MAX_PHDR_BYTES 65536u

/*
 * Read the header of img into e.  0; -1 when it is not an ELF64 image at
 * all; 1 when its tables are malformed (why, for a student, in bad).
 */
static int elf_parse(struct elf *e, const struct strbuf *img, struct strbuf *bad)
{
	const Elf64_Ehdr *eh = &e->eh;
	Elf64_Shdr sh0;

	memset(e, 0, sizeof(*e));
	e->img = img;
	if (img->len < sizeof(Elf64_Ehdr))
		return -1;
	memcpy(&e->eh, img->buf, sizeof(e->eh));
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return -1;
	memset(&sh0, 0, sizeof(sh0));
	if (eh->e_shoff) {
		if (eh->e_shentsize != sizeof(Elf64_Shdr) || !in_image(img, eh->e_shoff, sizeof(sh0))) {
			strbuf_addstr(bad, "its section table is malformed (entry size, or outside the file)");
			return 1;
		}
		memcpy(&sh0, img->buf + eh->e_shoff, sizeof(sh0));
		e->shnum = eh->e_shnum ? eh->e_shnum : sh0.sh_size;
		e->shstrndx = eh->e_shstrndx == SHN_XINDEX ? sh0.sh_link : eh->e_shstrndx;
		if (e->shnum > (img->len - eh->e_shoff) / sizeof(Elf64_Shdr)) {
			strbuf_addf(bad, "its section table (%llu sections) runs past the end of the file",
				    (unsigned long long)e->shnum);
			return 1;
		}
		if (e->shstrndx >= e->shnum) {
			strbuf_addstr(bad, "its section name table is not one of its sections");
			return 1;
		}
	}
	e->phnum = eh->e_phnum == PN_XNUM ? sh0.sh_info : eh->e_phnum;
	if (e->phnum && (eh->e_phentsize != sizeof(Elf64_Phdr) || e->phnum > ELF_MAX_PHDR_BYTES / sizeof(Elf64_Phdr) ||
			 !in_image(img, eh->e_phoff, e->phnum * sizeof(Elf64_Phdr)))) {
		strbuf_addf(bad, "its program header table (%llu entries of %u bytes) is malformed, too large for "
			    "Linux to load, or outside the file", (unsigned long long)e->phnum, eh->e_phentsize);
		return 1;
	}
	return 0;
}

/* Section header i into *sh: 0, or -1 when there is no such section. */
static int elf_section(const struct elf *e, uint64_t i, Elf64_Shdr *sh)
{
	if (i >= e->shnum)
		return -1;
	memcpy(sh, e->img->buf + e->eh.e_shoff + i * sizeof(*sh), sizeof(*sh));
	return 0;
}

/* Program header i into *ph (i < e->phnum). */
static void elf_segment(const struct elf *e, uint64_t i, Elf64_Phdr *ph)
{
	memcpy(ph, e->img->buf + e->eh.e_phoff + i * sizeof(*ph), sizeof(*ph));
}

/* The NUL-terminated string at off of the string table section strndx, or "?" when outside the image. */
static const char *elf_string(const struct elf *e, uint64_t strndx, uint64_t off)
{
	const struct strbuf *img = e->img;
	Elf64_Shdr strsh;
	/* the strbuf is NUL-terminated, so a string cannot run past the image */
	if (elf_section(e, strndx, &strsh) < 0 || strsh.sh_offset >= img->len || off >= img->len - strsh.sh_offset)
		return "?";
	return img->buf + strsh.sh_offset + off;
}

/* The name of section sh ("" when it cannot be read). */
static const char *section_name(const struct elf *e, const Elf64_Shdr *sh)
{
	const char *name = elf_string(e, e->shstrndx, sh->sh_name);
	return strcmp(name, "?") ? name : "";
}

/*
 * Every section with contents lies inside the file, and every table the
 * checks read has entries of its type's size: a table the checks would have
 * to skip would hide what is in it.  0, or 1 with why in bad.
 */
static int check_sections(const struct elf *e, struct strbuf *bad)
{
	if (!e->shnum) {
		strbuf_addstr(bad, "it has no section table, so it cannot be checked");
		return 1;
	}
	for (uint64_t i = 1; i < e->shnum; i++) {
		Elf64_Shdr sh;
		uint64_t entsize = 0;
		elf_section(e, i, &sh);
		if (sh.sh_type == SHT_NOBITS || sh.sh_type == SHT_NULL)
			continue;
		if (!in_image(e->img, sh.sh_offset, sh.sh_size)) {
			strbuf_addf(bad, "its section %llu ('%s') lies outside the file", (unsigned long long)i,
				    section_name(e, &sh));
			return 1;
		}
		if (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM)
			entsize = sizeof(Elf64_Sym);
		else if (sh.sh_type == SHT_RELA)
			entsize = sizeof(Elf64_Rela);
		if (entsize && sh.sh_size && sh.sh_entsize < entsize) {
			strbuf_addf(bad, "its section %llu ('%s') has entries of %llu bytes, not %llu",
				    (unsigned long long)i, section_name(e, &sh), (unsigned long long)sh.sh_entsize,
				    (unsigned long long)entsize);
			return 1;
		}
	}
	return 0;
}

static int elf_read(struct strbuf *img, struct elf *e, const char *path, struct strbuf *bad)
{
	if (read_file(img, path) < 0)
		return -1;
	return elf_parse(e, img, bad);
}

/*
 * Call fn for every entry of the image's symbol tables of type sh_type
 * (SHT_SYMTAB: .symtab; SHT_DYNSYM: .dynsym), with its name.
 */
typedef void symbol_fn(const Elf64_Sym *sym, const char *name, void *data);

static void elf_each_symbol(const struct elf *e, unsigned sh_type, symbol_fn *fn, void *data)
{
	for (uint64_t i = 0; i < e->shnum; i++) {
		Elf64_Shdr sh;
		Elf64_Sym sym;
		/* check_sections refused an image whose tables would be skipped here (runtime.o is ours) */
		if (elf_section(e, i, &sh) < 0 || sh.sh_type != sh_type || sh.sh_entsize < sizeof(Elf64_Sym) ||
		    !in_image(e->img, sh.sh_offset, sh.sh_size))
			continue;
		for (uint64_t k = 0; k < sh.sh_size / sh.sh_entsize; k++) {
			memcpy(&sym, e->img->buf + sh.sh_offset + k * sh.sh_entsize, sizeof(sym));
			fn(&sym, elf_string(e, sh.sh_link, sym.st_name), data);
		}
	}
}

/* Call fn for every RELA relocation of the image. */
typedef void reloc_fn(const Elf64_Rela *r, void *data);

static void elf_each_rela(const struct elf *e, reloc_fn *fn, void *data)
{
	for (uint64_t i = 0; i < e->shnum; i++) {
		Elf64_Shdr sh;
		Elf64_Rela r;
		if (elf_section(e, i, &sh) < 0 || sh.sh_type != SHT_RELA || sh.sh_entsize < sizeof(Elf64_Rela) ||
		    !in_image(e->img, sh.sh_offset, sh.sh_size))
			continue;
		for (uint64_t k = 0; k < sh.sh_size / sh.sh_entsize; k++) {
			memcpy(&r, e->img->buf + sh.sh_offset + k * sh.sh_entsize, sizeof(r));
			fn(&r, data);
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
 * The system's dynamic loader: the interpreter of the grader's own
 * executable, which the same toolchain linked.  "" when the grader has none
 * (linked statically, or started as "ld.so grader"): then any interpreter
 * that passes the kernel's checks is taken.
 */
static const char *system_loader(void)
{
	static char loader[PATH_MAX];
	static bool known;
	struct strbuf self = STRBUF_INIT, bad = STRBUF_INIT;
	struct elf e;

	if (known)
		return loader;
	known = true;
	if (read_file(&self, "/proc/self/exe") == 0 && elf_parse(&e, &self, &bad) == 0)
		for (uint64_t i = 0; i < e.phnum; i++) {
			Elf64_Phdr ph;
			elf_segment(&e, i, &ph);
			if (ph.p_type == PT_INTERP && ph.p_filesz <= sizeof(loader) && in_image(&self, ph.p_offset, ph.p_filesz)) {
				memcpy(loader, self.buf + ph.p_offset, ph.p_filesz);
				loader[sizeof(loader) - 1] = '\0';
				break;
			}
		}
	strbuf_release(&self);
	strbuf_release(&bad);
	return loader;
}

/*
 * The interpreter the kernel would start for the image (PT_INTERP): as
 * Linux reads it (load_elf_binary: at most PATH_MAX bytes, NUL as the last
 * one - else execve fails with ENOEXEC), and the system's loader followed by
 * nothing but NULs (a section .interp of the program's own lands after the
 * linker's, and would be the whole string were the linker's missing).
 * 0, or 1 with why in bad.
 */
static int check_interp(const struct elf *e, const Elf64_Phdr *ph, struct strbuf *bad)
{
	const char *seg, *loader = system_loader();
	size_t len;

	if (ph->p_filesz > PATH_MAX || ph->p_filesz < 2 || !in_image(e->img, ph->p_offset, ph->p_filesz)) {
		strbuf_addf(bad, "its interpreter path (PT_INTERP, the section .interp) is %llu bytes long: Linux "
			    "starts only one of 2 to %d bytes in the file", (unsigned long long)ph->p_filesz, PATH_MAX);
		return 1;
	}
	/* only now: buf + an offset the image chose is undefined behaviour when it points past the buffer */
	seg = e->img->buf + ph->p_offset;
	if (seg[ph->p_filesz - 1]) {
		strbuf_addstr(bad, "its interpreter path (PT_INTERP, the section .interp) does not end with a NUL "
			      "byte within its segment");
		return 1;
	}
	len = strlen(seg);
	for (size_t i = len; *loader && i < ph->p_filesz; i++)
		if (seg[i]) {
			strbuf_addf(bad, "its interpreter segment (PT_INTERP) holds more than the system's loader "
				    "'%s': the program adds to the section .interp", loader);
			return 1;
		}
	if (*loader && strcmp(seg, loader)) {
		strbuf_addf(bad, "its interpreter (PT_INTERP, the section .interp) is '%.*s', not the system's loader "
			    "'%s'", len > 200 ? 200 : (int)len, seg, loader);
		return 1;
	}
	return 0;
}

/*
 * The memory the static data needs: the loadable segments, and the
 * thread-local storage block the loader allocates for the main thread
 * apart from them (PT_TLS: .tdata and .tbss; 1 GiB of __thread data is
 * not in any PT_LOAD).  On the way, every segment with contents lies
 * inside the file and the interpreter is the system's: 0, or 1 with why in
 * bad.
 */
static int check_segments(const struct elf *e, unsigned long long *memsz, struct strbuf *bad)
{
	int interps = 0;

	*memsz = 0;
	if (!e->phnum) {
		strbuf_addstr(bad, "it has no program headers: Linux cannot start it");
		return 1;
	}
	for (uint64_t i = 0; i < e->phnum; i++) {
		Elf64_Phdr ph;
		elf_segment(e, i, &ph);
		if (ph.p_type == PT_LOAD && (!in_image(e->img, ph.p_offset, ph.p_filesz) || ph.p_filesz > ph.p_memsz)) {
			strbuf_addf(bad, "its loadable segment %llu lies outside the file or is larger in the file "
				    "than in memory", (unsigned long long)i);
			return 1;
		}
		if (ph.p_type == PT_INTERP && (interps++ || check_interp(e, &ph, bad))) {
			if (!bad->len)
				strbuf_addstr(bad, "it names more than one interpreter (PT_INTERP)");
			return 1;
		}
		if (ph.p_type == PT_LOAD || ph.p_type == PT_TLS)
			add_saturating(memsz, ph.p_memsz);
	}
	return 0;
}

/* Bytes of pre-initialisation array: sections named .preinit_array or of that type. */
static uint64_t preinit_bytes(const struct elf *e)
{
	unsigned long long sum = 0;
	for (uint64_t i = 0; i < e->shnum; i++) {
		Elf64_Shdr sh;
		if (elf_section(e, i, &sh) == 0 &&
		    (sh.sh_type == SHT_PREINIT_ARRAY || !strcmp(section_name(e, &sh), ".preinit_array")))
			add_saturating(&sum, sh.sh_size);
	}
	return sum;
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

static void collect_copy(const Elf64_Rela *r, void *data)
{
	struct elf_findings *f = data;
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
static void check_symbol(const Elf64_Sym *sym, const char *name, void *data)
{
	struct elf_findings *f = data;
	unsigned type = ELF64_ST_TYPE(sym->st_info), bind = ELF64_ST_BIND(sym->st_info);

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

static void check_dynamic(const Elf64_Sym *sym, const char *name, void *data)
{
	struct dyn_seen *d = data;
	if (!*name || !is_import(d->f->imports, name))
		return;
	if (sym->st_shndx == SHN_UNDEF || is_copied(d->f, sym)) {
		strbuf_addstr(&d->names, name);
		strbuf_addch(&d->names, '\n');
	} else {
		add_clash(d->f, name);
	}
}

static void check_dynamic_imports(const struct elf *e, struct elf_findings *f)
{
	struct dyn_seen d = { f, STRBUF_INIT };
	bool dynamic = false;

	for (uint64_t i = 0; i < e->shnum && !dynamic; i++) {
		Elf64_Shdr sh;
		dynamic = elf_section(e, i, &sh) == 0 && sh.sh_type == SHT_DYNSYM;
	}
	if (!dynamic) /* a static link: everything is bound in the program, .symtab says by what */
		goto cleanup;
	elf_each_symbol(e, SHT_DYNSYM, check_dynamic, &d);
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

static void find_irelative(const Elf64_Rela *r, void *data)
{
	struct irelative_scan *s = data;
	if (s->type && ELF64_R_TYPE(r->r_info) == s->type)
		s->found = true;
}

/*
 * Inspect the runner: its tables and interpreter (an image the checks
 * could not read whole is refused, not skipped), the memory its static data
 * needs, no ifunc resolvers (they run during relocation, before our seccomp
 * hook: refused as symbols and as IRELATIVE relocations, which is what runs
 * them), no entry of its own in .preinit_array, and no symbol that takes
 * the place of something the runtime imports from the C library (clashes).
 */
int elfcheck_inspect(const char *path, const char *runtime_o, unsigned long long *memsz,
		     struct strbuf *forbidden, struct strbuf *clashes)
{
	struct strbuf img = STRBUF_INIT, rt = STRBUF_INIT, imports = STRBUF_INIT, bad = STRBUF_INIT;
	struct elf_findings f = { NULL, { 0, 0 }, STRBUF_INIT, forbidden, clashes };
	struct irelative_scan irel = { 0, false };
	struct elf e, r;
	int ret = -1, parsed;

	*memsz = 0;
	/* runtime.o is the grader's: anything wrong with it is the grader's fault */
	if (elf_read(&rt, &r, runtime_o, &bad) != 0 || check_sections(&r, &bad))
		goto cleanup;
	strbuf_reset(&bad);
	parsed = elf_read(&img, &e, path, &bad);
	if (parsed < 0)
		goto cleanup;
	if (parsed > 0 || check_sections(&e, &bad) || check_segments(&e, memsz, &bad)) {
		strbuf_addf(forbidden, "the linked program is not an image the grader can check and run: %s", bad.buf);
		*memsz = 0;
		ret = 0;
		goto cleanup;
	}
	elf_each_symbol(&r, SHT_SYMTAB, collect_import, &imports);
	f.imports = imports.buf;
	f.relocs = machine_relocs(e.eh.e_machine);
	elf_each_rela(&e, collect_copy, &f);
	elf_each_symbol(&e, SHT_SYMTAB, check_symbol, &f);
	check_dynamic_imports(&e, &f);
	if (!forbidden->len && preinit_bytes(&e) > preinit_bytes(&r))
		strbuf_addstr(forbidden, "the program puts a function in .preinit_array: code there runs before "
			      "the runner has set up its sandbox, and is not allowed");
	irel.type = f.relocs.irelative;
	elf_each_rela(&e, find_irelative, &irel);
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
	strbuf_release(&bad);
	strbuf_release(&f.copied);
	return ret;
}
