/*
 * test_util.c - cmocka tests for grader/base/util.c: strbuf invariants,
 * write_file_atomic, remove_tree (never follows symbolic links), mkdir_p,
 * read_file and the digest.
 *
 * Files are made under a fresh mkdtemp() directory that each test removes
 * with `rm -rf` (not with remove_tree, the code under test).
 */
#define _GNU_SOURCE /* asprintf */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* cmocka.h wraps malloc/free under UNIT_TESTING; the grader uses the real ones. */
#undef malloc
#undef calloc
#undef realloc
#undef free

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/digest.h"
#include "base/util.h"

/* ---- scratch directory ---- */

static int tmp_setup(void **state)
{
	char *dir = strdup("/tmp/grader-test-util-XXXXXX");
	if (!dir || !mkdtemp(dir)) {
		free(dir);
		return -1;
	}
	*state = dir;
	return 0;
}

static int tmp_teardown(void **state)
{
	char *dir = *state;
	char cmd[256];
	int r;
	snprintf(cmd, sizeof(cmd), "chmod -R u+rwx '%s' 2>/dev/null; rm -rf '%s'", dir, dir);
	r = system(cmd);
	free(dir);
	return r == 0 ? 0 : -1;
}

static char *path_in(void **state, const char *name)
{
	char *p = NULL;
	if (asprintf(&p, "%s/%s", (const char *)*state, name) < 0)
		fail_msg("asprintf");
	return p;
}

static void make_file(const char *path, const char *content)
{
	FILE *f = fopen(path, "w");
	if (!f)
		fail_msg("cannot create %s: %s", path, strerror(errno));
	fputs(content, f);
	assert_int_equal(fclose(f), 0);
}

static int exists_nofollow(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

/* The file's bytes via stdio (not read_file, which is under test). */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;
	if (!f)
		fail_msg("cannot open %s: %s", path, strerror(errno));
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Names in dir other than . and .. */
static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;
	assert_non_null(d);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* ---- strbuf ---- */

static void test_strbuf_init(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	(void)state;
	assert_non_null(sb.buf);
	assert_int_equal(sb.len, 0);
	assert_string_equal(sb.buf, "");
	strbuf_reset(&sb); /* on a never-grown buffer */
	assert_non_null(sb.buf);
	assert_string_equal(sb.buf, "");
	strbuf_release(&sb); /* releasing an empty buffer is fine */
	assert_non_null(sb.buf);
	assert_string_equal(sb.buf, "");
	assert_int_equal(sb.len, 0);
}

static void test_strbuf_add(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	(void)state;
	strbuf_addstr(&sb, "abc");
	assert_int_equal(sb.len, 3);
	assert_string_equal(sb.buf, "abc");
	strbuf_addch(&sb, 'd');
	assert_string_equal(sb.buf, "abcd");
	strbuf_addf(&sb, "-%d-%s", 42, "x");
	assert_string_equal(sb.buf, "abcd-42-x");
	assert_int_equal(sb.len, 9);
	strbuf_add(&sb, "yz123", 2);
	assert_string_equal(sb.buf, "abcd-42-xyz");
	assert_int_equal(sb.len, 11);
	strbuf_addstr(&sb, "");
	assert_int_equal(sb.len, 11);
	assert_true(sb.alloc > sb.len);
	strbuf_reset(&sb);
	assert_int_equal(sb.len, 0);
	assert_string_equal(sb.buf, "");
	strbuf_addstr(&sb, "again");
	assert_string_equal(sb.buf, "again");
	strbuf_release(&sb);
	assert_int_equal(sb.len, 0);
	assert_non_null(sb.buf);
	assert_string_equal(sb.buf, "");
	/* usable after release */
	strbuf_addstr(&sb, "more");
	assert_string_equal(sb.buf, "more");
	strbuf_release(&sb);
}

static void test_strbuf_growth(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	size_t alloc;
	(void)state;
	/* one byte at a time across many reallocations: always terminated */
	for (int i = 0; i < 100000; i++) {
		strbuf_addch(&sb, 'a' + i % 26);
		assert_int_equal(sb.len, (size_t)i + 1);
		if (sb.buf[sb.len] != '\0')
			fail_msg("not NUL-terminated at length %zu", sb.len);
	}
	for (int i = 0; i < 100000; i++)
		if (sb.buf[i] != 'a' + i % 26)
			fail_msg("byte %d lost", i);
	strbuf_release(&sb);

	/* grow reserves without changing the content */
	strbuf_addstr(&sb, "keep");
	strbuf_grow(&sb, 1000);
	assert_true(sb.alloc >= sb.len + 1000 + 1);
	assert_string_equal(sb.buf, "keep");
	assert_int_equal(sb.len, 4);
	alloc = sb.alloc;
	strbuf_add(&sb, "0123456789", 10);
	assert_int_equal(sb.alloc, alloc); /* no reallocation needed */
	strbuf_release(&sb);

	/* a formatted string longer than any small initial buffer */
	strbuf_addf(&sb, "%5000d|", 7);
	assert_int_equal(sb.len, 5001);
	assert_int_equal(sb.buf[4999], '7');
	assert_int_equal(sb.buf[5000], '|');
	assert_int_equal(sb.buf[5001], '\0');
	strbuf_release(&sb);
}

static void test_strbuf_binary(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	static const char data[] = { 'a', '\0', 'b', '\0' };
	(void)state;
	strbuf_add(&sb, data, 4);
	assert_int_equal(sb.len, 4);
	assert_memory_equal(sb.buf, data, 4);
	assert_int_equal(sb.buf[4], '\0');
	strbuf_addstr(&sb, "c");
	assert_int_equal(sb.len, 5);
	assert_int_equal(sb.buf[4], 'c');
	strbuf_release(&sb);
}

static void test_strbuf_detach(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char *s;
	(void)state;
	/* detaching a never-grown buffer still gives an owned, freeable string */
	s = strbuf_detach(&sb);
	assert_non_null(s);
	assert_string_equal(s, "");
	assert_ptr_not_equal(s, sb.buf);
	free(s);
	assert_non_null(sb.buf);

	strbuf_addstr(&sb, "hello");
	s = strbuf_detach(&sb);
	assert_string_equal(s, "hello");
	/* the buffer is empty again, and independent of s */
	assert_int_equal(sb.len, 0);
	assert_non_null(sb.buf);
	assert_string_equal(sb.buf, "");
	assert_ptr_not_equal(s, sb.buf);
	strbuf_addstr(&sb, "world");
	assert_string_equal(s, "hello");
	free(s);
	strbuf_release(&sb);

	s = xasprintf("%s=%d", "x", 5);
	assert_string_equal(s, "x=5");
	free(s);
}

static void test_two_empty_buffers_are_independent(void **state)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	(void)state;
	strbuf_addstr(&a, "x");
	assert_string_equal(b.buf, "");
	assert_int_equal(b.len, 0);
	strbuf_release(&a);
	strbuf_addstr(&b, "y");
	assert_string_equal(a.buf, "");
	assert_string_equal(b.buf, "y");
	strbuf_release(&b);
}

/* ---- files ---- */

static void test_write_file_atomic(void **state)
{
	char *path = path_in(state, "out.txt");
	static const char data[] = "line one\nline two\0binary\n";
	size_t len;
	char *got;

	assert_int_equal(write_file_atomic(path, data, sizeof(data) - 1), 0);
	got = slurp(path, &len);
	assert_int_equal(len, sizeof(data) - 1);
	assert_memory_equal(got, data, len);
	free(got);
	/* only the file itself: no temporary left behind */
	assert_int_equal(count_entries(*state), 1);

	/* replacing: the new content, entirely */
	assert_int_equal(write_file_atomic(path, "short", 5), 0);
	got = slurp(path, &len);
	assert_int_equal(len, 5);
	assert_memory_equal(got, "short", 5);
	free(got);
	assert_int_equal(count_entries(*state), 1);

	/* empty content */
	assert_int_equal(write_file_atomic(path, "", 0), 0);
	got = slurp(path, &len);
	assert_int_equal(len, 0);
	free(got);
	free(path);
}

static void test_write_file_atomic_failure(void **state)
{
	char *missing = path_in(state, "no/such/dir/f");
	char *dir = path_in(state, "adir");
	char *inner = path_in(state, "adir/inside");

	assert_int_equal(write_file_atomic(missing, "x", 1), -1);
	assert_int_equal(count_entries(*state), 0);

	/* rename over a non-empty directory fails: nothing is left behind */
	assert_int_equal(mkdir(dir, 0755), 0);
	make_file(inner, "keep");
	errno = 0;
	assert_int_equal(write_file_atomic(dir, "x", 1), -1);
	assert_int_not_equal(errno, 0);
	assert_int_equal(count_entries(*state), 1);
	assert_int_equal(count_entries(dir), 1);
	free(missing);
	free(dir);
	free(inner);
}

static void test_read_file(void **state)
{
	char *path = path_in(state, "in.txt");
	char *missing = path_in(state, "missing");
	struct strbuf sb = STRBUF_INIT;
	char big[200000];

	make_file(path, "content\n");
	strbuf_addstr(&sb, ">");
	assert_int_equal(read_file(&sb, path), 0);
	assert_string_equal(sb.buf, ">content\n"); /* appends */
	assert_int_equal(sb.len, 9);

	strbuf_reset(&sb);
	errno = 0;
	assert_int_equal(read_file(&sb, missing), -1);
	assert_int_equal(errno, ENOENT);

	/* larger than one read */
	for (size_t i = 0; i < sizeof(big) - 1; i++)
		big[i] = (char)('0' + i % 10);
	big[sizeof(big) - 1] = '\0';
	make_file(path, big);
	strbuf_reset(&sb);
	assert_int_equal(read_file(&sb, path), 0);
	assert_int_equal(sb.len, sizeof(big) - 1);
	assert_string_equal(sb.buf, big);
	strbuf_release(&sb);
	free(path);
	free(missing);
}

static void test_mkdir_p(void **state)
{
	char *deep = path_in(state, "a/b/c/d");
	char *slash = path_in(state, "x/y/");
	struct stat st;
	assert_int_equal(mkdir_p(deep, 0755), 0);
	assert_int_equal(stat(deep, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	/* existing directories are fine */
	assert_int_equal(mkdir_p(deep, 0755), 0);
	assert_int_equal(mkdir_p(slash, 0755), 0);
	free(slash);
	slash = path_in(state, "x/y");
	assert_int_equal(stat(slash, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	free(deep);
	free(slash);
}

/* ---- remove_tree ---- */

static void test_remove_tree_nested(void **state)
{
	char *root = path_in(state, "tree");
	char *sub = path_in(state, "tree/a/b/c");
	char *f1 = path_in(state, "tree/f");
	char *f2 = path_in(state, "tree/a/b/c/g");
	char *f3 = path_in(state, "tree/a/.hidden");
	assert_int_equal(mkdir_p(sub, 0755), 0);
	make_file(f1, "1");
	make_file(f2, "2");
	make_file(f3, "3");
	assert_int_equal(remove_tree(root), 0);
	assert_false(exists_nofollow(root));
	assert_int_equal(count_entries(*state), 0);
	/* a path that is not there: nothing to do */
	assert_int_equal(remove_tree(root), 0);
	/* a plain file */
	make_file(root, "plain");
	assert_int_equal(remove_tree(root), 0);
	assert_false(exists_nofollow(root));
	free(root);
	free(sub);
	free(f1);
	free(f2);
	free(f3);
}

static void test_remove_tree_does_not_follow_symlinks(void **state)
{
	char *outside = path_in(state, "outside");
	char *precious = path_in(state, "outside/precious");
	char *outfile = path_in(state, "outfile");
	char *tree = path_in(state, "tree");
	char *sub = path_in(state, "tree/sub");
	char *link_dir = path_in(state, "tree/sub/to-outside");
	char *link_file = path_in(state, "tree/to-file");
	char *link_top = path_in(state, "link-to-outside");
	size_t len;
	char *got;

	assert_int_equal(mkdir(outside, 0755), 0);
	make_file(precious, "do not delete");
	make_file(outfile, "me neither");
	assert_int_equal(mkdir_p(sub, 0755), 0);
	assert_int_equal(symlink(outside, link_dir), 0);
	assert_int_equal(symlink(outfile, link_file), 0);

	assert_int_equal(remove_tree(tree), 0);
	assert_false(exists_nofollow(tree));
	/* what the links pointed at is untouched */
	got = slurp(precious, &len);
	assert_string_equal(got, "do not delete");
	free(got);
	got = slurp(outfile, &len);
	assert_string_equal(got, "me neither");
	free(got);

	/* removing a link to a directory removes the link, not the directory */
	assert_int_equal(symlink(outside, link_top), 0);
	assert_int_equal(remove_tree(link_top), 0);
	assert_false(exists_nofollow(link_top));
	assert_true(exists_nofollow(precious));

	free(outside);
	free(precious);
	free(outfile);
	free(tree);
	free(sub);
	free(link_dir);
	free(link_file);
	free(link_top);
}

/* ---- digest (SHA-256 through nettle) ---- */

static void hex_of(const char *data, size_t len, char out[DIGEST_HEX_SIZE])
{
	struct digest d;
	digest_init(&d);
	digest_add(&d, data, len);
	digest_hex(&d, out);
}

/* pid_list: both kinds of list the kernel writes; the count goes past max */
static void test_pid_list(void **state)
{
	pid_t pids[2] = { 0, 0 };
	(void)state;
	assert_int_equal(pid_list("", pids, 2), 0);
	assert_int_equal(pid_list("\n", pids, 2), 0);
	assert_int_equal(pid_list("123\n4567\n", pids, 2), 2);
	assert_int_equal(pids[0], 123);
	assert_int_equal(pids[1], 4567);
	assert_int_equal(pid_list("88 99 ", pids, 2), 2);
	assert_int_equal(pids[0], 88);
	assert_int_equal(pids[1], 99);
	assert_int_equal(pid_list("5 6 7", pids, 1), 3);
	assert_int_equal(pids[0], 5);
	assert_int_equal(pids[1], 99); /* beyond max: untouched */
	assert_int_equal(pid_list("9", NULL, 0), 1);
}

/* Children that wait to be killed; kill_paused ends those still there, also after a failed check. */
static pid_t paused[2];

static pid_t paused_child(int i)
{
	pid_t pid = fork();
	if (pid == 0) {
		pause();
		_exit(0);
	}
	assert_true(pid > 0);
	return paused[i] = pid;
}

static void end_paused(int i)
{
	if (paused[i] > 0) {
		kill(paused[i], SIGKILL);
		waitpid(paused[i], NULL, 0);
	}
	paused[i] = 0;
}

static int kill_paused(void **state)
{
	(void)state;
	end_paused(0);
	end_paused(1);
	return 0;
}

/*
 * pread_text through a file kept open says who is there now, as the
 * grader's per-test reads of a zygote need (runner.c read_kept): v1's
 * cgroup.procs would give its first list again; proc's children list must
 * not.  Also a buffer smaller than the text: truncated, NUL-terminated.
 */
static void test_pread_text_is_fresh(void **state)
{
	char path[64], buf[256], want[64];
	pid_t a, b;
	int fd;
	(void)state;

	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/children", (long)getpid(), (long)getpid());
	fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(pread_text(fd, buf, sizeof(buf)), 0);
	a = paused_child(0);
	snprintf(want, sizeof(want), "%ld ", (long)a);
	assert_int_equal(pread_text(fd, buf, sizeof(buf)), (ssize_t)strlen(want));
	assert_string_equal(buf, want);
	b = paused_child(1);
	snprintf(want, sizeof(want), "%ld %ld ", (long)a, (long)b);
	assert_string_equal((pread_text(fd, buf, sizeof(buf)), buf), want);
	assert_int_equal(pread_text(fd, buf, 3), 2);
	assert_int_equal(strlen(buf), 2);
	end_paused(0);
	snprintf(want, sizeof(want), "%ld ", (long)b);
	assert_string_equal((pread_text(fd, buf, sizeof(buf)), buf), want);
	end_paused(1);
	assert_int_equal(pread_text(fd, buf, sizeof(buf)), 0);
	close(fd);
}

/* The test vectors of FIPS 180-2 (appendix B): the digest is SHA-256 and nothing home-made. */
static void test_digest_fips_vectors(void **state)
{
	char out[DIGEST_HEX_SIZE];
	(void)state;
	hex_of("abc", 3, out);
	assert_string_equal(out, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	hex_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, out);
	assert_string_equal(out, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	hex_of("", 0, out);
	assert_string_equal(out, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

/* Pieces add up to the whole; digest_add_str separates "ab","c" from "a","bc". */
static void test_digest_pieces(void **state)
{
	struct digest d;
	char whole[DIGEST_HEX_SIZE], pieces[DIGEST_HEX_SIZE], a[DIGEST_HEX_SIZE], b[DIGEST_HEX_SIZE];
	(void)state;
	hex_of("problem file", 12, whole);
	digest_init(&d);
	digest_add(&d, "prob", 4);
	digest_add(&d, "", 0);
	digest_add(&d, "lem file", 8);
	digest_hex(&d, pieces);
	assert_string_equal(whole, pieces);
	digest_init(&d);
	digest_add_str(&d, "ab");
	digest_add_str(&d, "c");
	digest_hex(&d, a);
	digest_init(&d);
	digest_add_str(&d, "a");
	digest_add_str(&d, "bc");
	digest_hex(&d, b);
	assert_string_not_equal(a, b);
	/* digest_u64 is the first 8 bytes of the digest, big-endian: "abc" starts ba7816bf8f01cfea */
	digest_init(&d);
	digest_add(&d, "abc", 3);
	assert_true(digest_u64(&d) == 0xba7816bf8f01cfeaULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strbuf_init),
		cmocka_unit_test(test_strbuf_add),
		cmocka_unit_test(test_strbuf_growth),
		cmocka_unit_test(test_strbuf_binary),
		cmocka_unit_test(test_strbuf_detach),
		cmocka_unit_test(test_two_empty_buffers_are_independent),
		cmocka_unit_test_setup_teardown(test_write_file_atomic, tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_write_file_atomic_failure, tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_read_file, tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_mkdir_p, tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_remove_tree_nested, tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_remove_tree_does_not_follow_symlinks, tmp_setup, tmp_teardown),
		cmocka_unit_test(test_pid_list),
		cmocka_unit_test_teardown(test_pread_text_is_fresh, kill_paused),
		cmocka_unit_test(test_digest_fips_vectors),
		cmocka_unit_test(test_digest_pieces),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
