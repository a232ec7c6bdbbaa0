/*
 * test_elfcheck.c - cmocka tests for elfcheck_inspect (grader/build/elfcheck.c)
 * on real ELF files: programs linked by gcc here, some with their headers
 * patched afterwards as a hostile image would have them.
 *
 * The "runtime" the runners are checked against is a small object of our
 * own that imports write() and fork() from the C library, linked into every
 * runner as lang_c.c links runtime.o; the real runtime needs the grader's
 * stub, which is not the point here.
 *
 * The cases: a clean runner passes and its static size is counted; an ifunc
 * is seen; with more than 65,279 sections (e_shnum 0, e_shstrndx
 * SHN_XINDEX: the counts in section 0) an ifunc, a clash and a
 * .preinit_array entry are still seen and a clean one still passes; an
 * interpreter path over PATH_MAX (which the kernel refuses: shown by
 * execve), one not NUL-terminated in its segment, one that is not the
 * system's loader or has bytes after it, are refused; section and program
 * header tables that lie outside the file, wrap around, or claim absurd
 * counts are refused, never skipped; a file that is not ELF is the grader's
 * error (-1).
 *
 * Files go to a fresh mkdtemp() directory made once for the group and
 * removed after it.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#undef malloc
#undef calloc
#undef realloc
#undef free

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build/elfcheck.h"
#include "unit.h"
#include "base/util.h"

/* sections of the many-sections runners: more than SHN_LORESERVE - 1 (65,279) */
#define MANY_SECTIONS 70000

static char dir[] = "/tmp/test_elfcheck.XXXXXX";

static char *tmp_path(const char *name)
{
	char *p = NULL;
	if (asprintf(&p, "%s/%s", dir, name) < 0)
		fail_msg("asprintf");
	return p;
}

/* Run a shell command in the test directory; fail the test when it fails. */
static void run(const char *fmt, ...)
{
	va_list ap;
	char *cmd = NULL, *full = NULL;
	int rc;
	va_start(ap, fmt);
	if (vasprintf(&cmd, fmt, ap) < 0)
		fail_msg("vasprintf");
	va_end(ap);
	if (asprintf(&full, "cd '%s' && %s", dir, cmd) < 0)
		fail_msg("asprintf");
	rc = system(full);
	if (rc != 0)
		fail_msg("'%s' failed (%d)", cmd, rc);
	free(cmd);
	free(full);
}

static void write_text(const char *name, const char *text)
{
	char *p = tmp_path(name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
	free(p);
}

static const char runtime_c[] =
	"#include <unistd.h>\n"
	"void fake_runtime(void) { if (fork() == 0) write(1, \"\", 0); }\n";

static const char clean_c[] = "char data[1 << 20] = { 1 };\n"
			      "int main(void) { return data[0] - 1; }\n";

static const char ifunc_c[] = "static int impl(void) { return 0; }\n"
			      "static void *resolve(void) { return (void *)impl; }\n"
			      "int f(void) __attribute__((ifunc(\"resolve\")));\n"
			      "int main(void) { return f(); }\n";

static const char clash_c[] = "#include <stddef.h>\n"
			      "long write(int fd, const void *b, size_t n) { (void)fd; (void)b; return (long)n; }\n"
			      "int main(void) { return 0; }\n";

static const char preinit_c[] = "static void early(void) {}\n"
				"__attribute__((section(\".preinit_array\"), used)) static void (*e)(void) = early;\n"
				"int main(void) { return 0; }\n";

/* A runner as lang_c.c links one: the runtime object first, the program, -z now. */
static void link_runner(const char *out, const char *src, const char *extra)
{
	run("gcc -O1 -o %s runtime.o %s %s -Wl,-z,now 2>/dev/null", out, src, extra ? extra : "");
}

static int group_setup(void **state)
{
	FILE *f;
	char *p;
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	write_text("runtime.c", runtime_c);
	write_text("clean.c", clean_c);
	write_text("ifunc.c", ifunc_c);
	write_text("clash.c", clash_c);
	write_text("preinit.c", preinit_c);
	/* MANY_SECTIONS one-byte sections, each its own output section (an orphan keeps its name) */
	p = tmp_path("many.s");
	f = fopen(p, "w");
	free(p);
	if (!f)
		return -1;
	for (int i = 0; i < MANY_SECTIONS; i++)
		fprintf(f, ".section .s_%d,\"a\"\n.byte 1\n", i);
	fprintf(f, ".section .note.GNU-stack,\"\",@progbits\n");
	if (fclose(f) != 0)
		return -1;
	run("gcc -c -o runtime.o runtime.c && gcc -c -o many.o many.s");
	link_runner("clean", "clean.c", NULL);
	link_runner("ifunc", "ifunc.c", NULL);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	return remove_tree(dir);
}

struct check {
	int ret;
	unsigned long long memsz;
	struct strbuf forbidden, clashes;
};

static void inspect(const char *name, struct check *c)
{
	char *img = tmp_path(name), *rt = tmp_path("runtime.o");
	c->forbidden = (struct strbuf)STRBUF_INIT;
	c->clashes = (struct strbuf)STRBUF_INIT;
	c->memsz = 12345;
	c->ret = elfcheck_inspect(img, rt, &c->memsz, &c->forbidden, &c->clashes);
	free(img);
	free(rt);
}

static void check_release(struct check *c)
{
	strbuf_release(&c->forbidden);
	strbuf_release(&c->clashes);
}

/* inspect name and expect it refused with a message containing want */
static void expect_refused(const char *name, const char *want)
{
	struct check c;
	inspect(name, &c);
	assert_int_equal(c.ret, 0);
	if (!strstr(c.forbidden.buf, want))
		fail_msg("%s: expected a refusal mentioning '%s', got '%s'", name, want, c.forbidden.buf);
	check_release(&c);
}

/* ---- reading and patching images, independently of elfcheck.c ---- */

struct image {
	char *path;
	unsigned char *buf;
	size_t len;
};

/* Copy the runner `from` to `to` and read it into memory. */
static void image_copy(struct image *im, const char *from, const char *to)
{
	FILE *f;
	long n;
	run("cp %s %s", from, to);
	im->path = tmp_path(to);
	f = fopen(im->path, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	im->len = (size_t)n;
	im->buf = malloc(im->len);
	assert_non_null(im->buf);
	assert_int_equal(fread(im->buf, 1, im->len, f), im->len);
	fclose(f);
}

static void image_save(struct image *im)
{
	FILE *f = fopen(im->path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(im->buf, 1, im->len, f), im->len);
	assert_int_equal(fclose(f), 0);
	free(im->buf);
	free(im->path);
}

static Elf64_Ehdr *ehdr(struct image *im)
{
	return (Elf64_Ehdr *)im->buf;
}

static Elf64_Shdr *shdr(struct image *im, size_t i)
{
	return (Elf64_Shdr *)(im->buf + ehdr(im)->e_shoff + i * sizeof(Elf64_Shdr));
}

static Elf64_Phdr *phdr_of_type(struct image *im, uint32_t type)
{
	for (size_t i = 0; i < ehdr(im)->e_phnum; i++) {
		Elf64_Phdr *ph = (Elf64_Phdr *)(im->buf + ehdr(im)->e_phoff + i * sizeof(Elf64_Phdr));
		if (ph->p_type == type)
			return ph;
	}
	fail_msg("no program header of type %u", type);
	return NULL;
}

static Elf64_Shdr *shdr_of_type(struct image *im, uint32_t type)
{
	for (size_t i = 0; i < ehdr(im)->e_shnum; i++)
		if (shdr(im, i)->sh_type == type)
			return shdr(im, i);
	fail_msg("no section of type %u", type);
	return NULL;
}

/* ---- the tests ---- */

static void test_clean_runner_passes(void **state)
{
	struct check c;
	(void)state;
	inspect("clean", &c);
	assert_int_equal(c.ret, 0);
	assert_string_equal(c.forbidden.buf, "");
	assert_string_equal(c.clashes.buf, "");
	/* the 1 MiB array is in a loadable segment */
	assert_true(c.memsz >= (1u << 20));
	assert_true(c.memsz < (8u << 20));
	check_release(&c);
}

static void test_ifunc_refused(void **state)
{
	(void)state;
	expect_refused("ifunc", "ifunc");
}

static void test_clash_seen(void **state)
{
	struct check c;
	(void)state;
	link_runner("clash", "clash.c", NULL);
	inspect("clash", &c);
	assert_int_equal(c.ret, 0);
	assert_string_equal(c.clashes.buf, "'write'");
	check_release(&c);
}

/* The many-sections runner really uses extended numbering: both counts sit in section 0. */
static void assert_extended(const char *name)
{
	struct image im;
	char *copy = NULL;
	if (asprintf(&copy, "%s.hdr", name) < 0)
		fail_msg("asprintf");
	image_copy(&im, name, copy);
	assert_int_equal(ehdr(&im)->e_shnum, 0);
	assert_int_equal(ehdr(&im)->e_shstrndx, SHN_XINDEX);
	assert_true(shdr(&im, 0)->sh_size > MANY_SECTIONS);
	assert_true(shdr(&im, 0)->sh_link >= SHN_LORESERVE);
	image_save(&im);
	free(copy);
}

static void test_many_sections_ifunc_seen(void **state)
{
	(void)state;
	link_runner("many_ifunc", "ifunc.c", "many.o");
	assert_extended("many_ifunc");
	expect_refused("many_ifunc", "ifunc");
}

static void test_many_sections_clash_seen(void **state)
{
	struct check c;
	(void)state;
	link_runner("many_clash", "clash.c", "many.o");
	assert_extended("many_clash");
	inspect("many_clash", &c);
	assert_int_equal(c.ret, 0);
	assert_string_equal(c.clashes.buf, "'write'");
	check_release(&c);
}

static void test_many_sections_preinit_seen(void **state)
{
	(void)state;
	link_runner("many_preinit", "preinit.c", "many.o");
	assert_extended("many_preinit");
	expect_refused("many_preinit", ".preinit_array");
}

/* Extended numbering read right is not refused: the clean program with the sections passes, its size counted. */
static void test_many_sections_clean_passes(void **state)
{
	struct check c;
	(void)state;
	link_runner("many_clean", "clean.c", "many.o");
	assert_extended("many_clean");
	inspect("many_clean", &c);
	assert_int_equal(c.ret, 0);
	assert_string_equal(c.forbidden.buf, "");
	assert_string_equal(c.clashes.buf, "");
	assert_true(c.memsz >= (1u << 20) + MANY_SECTIONS);
	check_release(&c);
}

/* execve of path: its errno, or 0 when it ran. */
static int exec_errno(const char *name)
{
	char *p = tmp_path(name);
	int fds[2], err = 0;
	pid_t pid;
	assert_int_equal(pipe2(fds, O_CLOEXEC), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char *argv[] = { p, NULL };
		execv(p, argv);
		err = errno;
		if (write(fds[1], &err, sizeof(err)) < 0)
			_exit(2);
		_exit(1);
	}
	close(fds[1]);
	if (read(fds[0], &err, sizeof(err)) != (ssize_t)sizeof(err))
		err = 0;
	close(fds[0]);
	waitpid(pid, NULL, 0);
	free(p);
	return err;
}

/* A section .interp of the program's own, longer than PATH_MAX: the kernel refuses it (ENOEXEC), so must we. */
static void test_interp_over_path_max_refused(void **state)
{
	struct strbuf src = STRBUF_INIT;
	(void)state;
	strbuf_addstr(&src, "__attribute__((section(\".interp\"), used)) static const char interp[] = \"/");
	for (int i = 0; i < PATH_MAX + 100; i++)
		strbuf_addch(&src, 'a');
	strbuf_addstr(&src, "\";\nint main(void) { return 0; }\n");
	write_text("long_interp.c", src.buf);
	strbuf_release(&src);
	link_runner("long_interp", "long_interp.c", NULL);
	assert_int_equal(exec_errno("long_interp"), ENOEXEC);
	expect_refused("long_interp", "PT_INTERP");
}

/* A short one only adds to the linker's: the loader path, then more. */
static void test_interp_extra_refused(void **state)
{
	(void)state;
	write_text("short_interp.c", "__attribute__((section(\".interp\"), used)) static const char interp[] = "
				     "\"/tmp/my-loader\";\nint main(void) { return 0; }\n");
	link_runner("short_interp", "short_interp.c", NULL);
	expect_refused("short_interp", "holds more than the system's loader");
}

/* Another loader (the path patched in the image, same length): refused, and named. */
static void test_interp_other_loader_refused(void **state)
{
	struct image im;
	Elf64_Phdr *ph;
	char *s;
	(void)state;
	image_copy(&im, "clean", "other_interp");
	ph = phdr_of_type(&im, PT_INTERP);
	s = (char *)im.buf + ph->p_offset;
	assert_true(strlen(s) > 4);
	memcpy(s, "/tmp", 4);
	image_save(&im);
	expect_refused("other_interp", "not the system's loader");
	expect_refused("other_interp", "'/tmp");
}

static void test_interp_unterminated_refused(void **state)
{
	struct image im;
	Elf64_Phdr *ph;
	(void)state;
	image_copy(&im, "clean", "unterminated_interp");
	ph = phdr_of_type(&im, PT_INTERP);
	im.buf[ph->p_offset + ph->p_filesz - 1] = 'x';
	image_save(&im);
	assert_int_equal(exec_errno("unterminated_interp"), ENOEXEC);
	expect_refused("unterminated_interp", "does not end with a NUL");
}

static void test_interp_outside_file_refused(void **state)
{
	struct image im;
	(void)state;
	image_copy(&im, "clean", "far_interp");
	phdr_of_type(&im, PT_INTERP)->p_offset = im.len - 4;
	image_save(&im);
	expect_refused("far_interp", "PT_INTERP");
}

static void test_section_table_outside_refused(void **state)
{
	struct image im;
	(void)state;
	image_copy(&im, "clean", "far_shoff");
	ehdr(&im)->e_shoff = im.len + 4096;
	image_save(&im);
	expect_refused("far_shoff", "section table");

	image_copy(&im, "clean", "many_shnum");
	ehdr(&im)->e_shnum = 0xfeff; /* far more than the file holds */
	image_save(&im);
	expect_refused("many_shnum", "runs past the end of the file");
}

/* The extended count taken from section 0, absurd: refused, and nothing wraps (UBSan would say). */
static void test_extended_count_absurd_refused(void **state)
{
	struct image im;
	(void)state;
	image_copy(&im, "clean", "huge_xnum");
	ehdr(&im)->e_shnum = 0;
	shdr(&im, 0)->sh_size = UINT64_MAX / 2;
	image_save(&im);
	expect_refused("huge_xnum", "runs past the end of the file");

	image_copy(&im, "clean", "xindex_strndx");
	ehdr(&im)->e_shstrndx = SHN_XINDEX;
	shdr(&im, 0)->sh_link = 0xfffffff0u;
	image_save(&im);
	expect_refused("xindex_strndx", "section name table");

	image_copy(&im, "clean", "no_sections");
	ehdr(&im)->e_shoff = 0;
	image_save(&im);
	expect_refused("no_sections", "no section table");
}

/* The symbol table moved out of the file, or wrapping around: refused, not skipped (it would hide an ifunc). */
static void test_symtab_outside_refused(void **state)
{
	struct image im;
	(void)state;
	image_copy(&im, "ifunc", "far_symtab");
	shdr_of_type(&im, SHT_SYMTAB)->sh_offset = im.len;
	image_save(&im);
	expect_refused("far_symtab", "lies outside the file");

	image_copy(&im, "ifunc", "wrap_symtab");
	shdr_of_type(&im, SHT_SYMTAB)->sh_offset = UINT64_MAX - 8;
	shdr_of_type(&im, SHT_SYMTAB)->sh_size = 4096;
	image_save(&im);
	expect_refused("wrap_symtab", "lies outside the file");

	image_copy(&im, "ifunc", "small_symtab_entries");
	shdr_of_type(&im, SHT_SYMTAB)->sh_entsize = 8;
	image_save(&im);
	expect_refused("small_symtab_entries", "has entries of 8 bytes");
}

static void test_program_headers_refused(void **state)
{
	struct image im;
	(void)state;
	image_copy(&im, "clean", "odd_phentsize");
	ehdr(&im)->e_phentsize = 54;
	image_save(&im);
	expect_refused("odd_phentsize", "program header table");

	image_copy(&im, "clean", "far_phoff");
	ehdr(&im)->e_phoff = UINT64_MAX - 16;
	image_save(&im);
	expect_refused("far_phoff", "program header table");

	image_copy(&im, "clean", "xnum_phnum");
	ehdr(&im)->e_phnum = PN_XNUM; /* the count then in section 0's sh_info: 0 here */
	image_save(&im);
	expect_refused("xnum_phnum", "no program headers");

	image_copy(&im, "clean", "far_load");
	phdr_of_type(&im, PT_LOAD)->p_filesz = im.len + 1;
	phdr_of_type(&im, PT_LOAD)->p_memsz = im.len + 1;
	image_save(&im);
	expect_refused("far_load", "loadable segment");
}

/* Not ELF at all: the linker made it, so the grader's fault (-1), memsz 0. */
static void test_not_elf_is_graders(void **state)
{
	struct check c;
	(void)state;
	write_text("not_elf", "#!/bin/sh\nexit 0\n");
	inspect("not_elf", &c);
	assert_int_equal(c.ret, -1);
	assert_int_equal(c.memsz, 0);
	check_release(&c);
	/* and a runtime object that cannot be read is the grader's too */
	{
		char *img = tmp_path("clean");
		unsigned long long memsz = 1;
		struct strbuf fb = STRBUF_INIT, cb = STRBUF_INIT;
		assert_int_equal(elfcheck_inspect(img, "/nonexistent/runtime.o", &memsz, &fb, &cb), -1);
		assert_int_equal(memsz, 0);
		strbuf_release(&fb);
		strbuf_release(&cb);
		free(img);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_runner_passes),
		cmocka_unit_test(test_ifunc_refused),
		cmocka_unit_test(test_clash_seen),
		cmocka_unit_test(test_many_sections_ifunc_seen),
		cmocka_unit_test(test_many_sections_clash_seen),
		cmocka_unit_test(test_many_sections_preinit_seen),
		cmocka_unit_test(test_many_sections_clean_passes),
		cmocka_unit_test(test_interp_over_path_max_refused),
		cmocka_unit_test(test_interp_extra_refused),
		cmocka_unit_test(test_interp_other_loader_refused),
		cmocka_unit_test(test_interp_unterminated_refused),
		cmocka_unit_test(test_interp_outside_file_refused),
		cmocka_unit_test(test_section_table_outside_refused),
		cmocka_unit_test(test_extended_count_absurd_refused),
		cmocka_unit_test(test_symtab_outside_refused),
		cmocka_unit_test(test_program_headers_refused),
		cmocka_unit_test(test_not_elf_is_graders),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
