/*
 * test_batch_class.c - cmocka tests for grader/batch/batch_class.c's class_collect
 * in the folders layout: every entry that is a student keeps a row.  A real
 * directory holds names that are not UTF-8 (Latin-1, as old zip tools write
 * them), control characters, a literal backslash, a bidirectional override,
 * an archive the grader does not unpack, a dangling link and a Latin-1
 * archive whose escaped id is a literal folder's name, bare source files
 * (carol.c: a row; only source files: one student's folder, not a class);
 * and Canvas, Moodle and Gradescope downloads holding stray entries (a
 * folder, a source file, an archive: rows with no LMS id; notes.txt: a
 * warning); the ids, reasons and notes expected are written out by hand.
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

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch/batch_class.h"
#include "base/util.h"

struct fixture {
	char dir[64];
};

static void make_dir(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	assert_int_equal(mkdir(path, 0755), 0);
	free(path);
}

static void make_file(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x", 1), 1);
	close(fd);
	free(path);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_batch_class.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	make_dir(f->dir, "alice");
	make_dir(f->dir, "\xe9l\xe8ve");            /* élève in Latin-1 */
	make_dir(f->dir, "tab\tname");
	make_dir(f->dir, "a\\b\xff");                /* a backslash in a name that is escaped anyway */
	make_dir(f->dir, "back\\slash");             /* valid UTF-8: kept as it is */
	make_dir(f->dir, "\xe2\x80\xae" "evil");     /* U+202E, right-to-left override */
	make_dir(f->dir, "\\xe9mile");               /* literally backslash-x-e-9 ... */
	make_file(f->dir, "\xe9mile.zip");           /* ... and émile.zip in Latin-1: one id */
	make_file(f->dir, "bob.rar");
	make_file(f->dir, "notes.txt");
	make_file(f->dir, "carol.c");                /* a bare source file: a student all the same */
	make_file(f->dir, "Dave.PY");
	make_dir(f->dir, "erin");                    /* erin/ and erin.c: two submissions */
	make_file(f->dir, "erin.c");
	{
		char *link = xasprintf("%s/dangling", f->dir);
		assert_int_equal(symlink("/nonexistent/nowhere", link), 0);
		free(link);
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	remove_tree(f->dir);
	free(f);
	return 0;
}

/* An empty directory for a test to fill; teardown removes it, also after a failed assertion. */
static int setup_empty(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_batch_class.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	*state = f;
	return 0;
}

static const struct student *find(const struct student *s, int n, const char *id)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s[i].id, id))
			return &s[i];
	return NULL;
}

static void test_every_entry_has_a_row(void **state)
{
	struct fixture *f = *state;
	struct lms_options o = { LMS_FOLDERS, "/nonexistent/out", NULL };
	struct strbuf notes = STRBUF_INIT, err = STRBUF_INIT;
	enum lms_layout layout;
	struct student *s = NULL;
	int n = 0;
	/* sorted by id, byte order */
	static const char *const ids[] = { "Dave", "\\u202eevil", "\\xe9l\\xe8ve", "\\xe9mile", "a\\\\b\\xff",
					   "alice", "back\\slash", "bob", "carol", "dangling", "erin", "tab\\x09name" };
	const struct student *x;

	assert_int_equal(class_collect(f->dir, &o, &layout, &s, &n, &notes, &err), 0);
	assert_int_equal(layout, LMS_FOLDERS);
	assert_int_equal(n, 12);
	for (int i = 0; i < n; i++)
		assert_string_equal(s[i].id, ids[i]);

	x = find(s, n, "\\xe9l\\xe8ve");
	assert_true(x->escaped);
	assert_null(x->unusable);
	assert_string_equal(x->name, "\xe9l\xe8ve"); /* opened under its bytes */
	assert_false(find(s, n, "alice")->escaped);
	assert_false(find(s, n, "back\\slash")->escaped);
	assert_true(find(s, n, "a\\\\b\\xff")->escaped);
	assert_null(find(s, n, "tab\\x09name")->unusable);

	assert_string_equal(find(s, n, "\\xe9mile")->unusable,
			    "more than one submission: '\\xe9mile', '\\xe9mile.zip' (a name that is not UTF-8 or has "
			    "control characters)");
	assert_string_equal(find(s, n, "bob")->unusable,
			    "'bob.rar' is an archive the grader does not unpack (it reads .zip, .tar.gz, .tgz and .tar): "
			    "unpack it into a folder 'bob' or pack it again as a .zip");
	assert_string_equal(find(s, n, "carol")->unusable,
			    "'carol.c' is a single source file, not a folder or archive holding the problem files: move it "
			    "into a folder 'carol', under the file name its problem asks for");
	assert_non_null(find(s, n, "Dave")->unusable);
	assert_string_equal(find(s, n, "erin")->unusable, "more than one submission: 'erin', 'erin.c'");
	assert_string_equal(find(s, n, "dangling")->unusable, "cannot read 'dangling': No such file or directory");

	/* the notes: the Latin-1 reading, the escaped ids, the rows not graded; no raw byte */
	assert_non_null(strstr(notes.buf, "/\\xe9l\\xe8ve' is not UTF-8 (read as Latin-1, a guess: '\xc3\xa9l\xc3\xa8ve'): "
					  "its row's id is '\\xe9l\\xe8ve'"));
	assert_non_null(strstr(notes.buf, "has control characters: its row's id is 'tab\\x09name'"));
	assert_non_null(strstr(notes.buf, "ignoring '"));
	assert_non_null(strstr(notes.buf, "notes.txt': not a folder, .zip or .tar.gz"));
	assert_non_null(strstr(notes.buf, "'bob' will not be graded: 'bob.rar' is an archive"));
	assert_non_null(strstr(notes.buf, "'dangling' will not be graded: cannot read"));
	assert_non_null(strstr(notes.buf, "'carol' will not be graded: 'carol.c' is a single source file"));
	assert_null(strstr(notes.buf, "carol.c': not a folder"));
	assert_null(strchr(notes.buf, '\xe9'));
	class_release(s, n);
	strbuf_release(&notes);
	strbuf_release(&err);
}

/* Only source files: one student's folder given as the class by mistake, not a class of bare files. */
static void test_one_students_files_are_no_class(void **state)
{
	char dir[64];
	struct lms_options o = { LMS_FOLDERS, "/nonexistent/out", NULL };
	struct strbuf notes = STRBUF_INIT, err = STRBUF_INIT;
	enum lms_layout layout;
	struct student *s = NULL;
	int n = -1;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_batch_class.XXXXXX");
	assert_non_null(mkdtemp(dir));
	make_file(dir, "p1.c");
	make_file(dir, "p2.py");
	assert_int_equal(class_collect(dir, &o, &layout, &s, &n, &notes, &err), -1);
	assert_non_null(strstr(err.buf, "no student found in '"));
	assert_non_null(strstr(err.buf, "it holds 'p1.c', 'p2.py'"));
	assert_null(strstr(notes.buf, "will not be graded"));
	remove_tree(dir);
	strbuf_release(&notes);
	strbuf_release(&err);
}

/* One class_collect over dir; n students in s, the notes in notes. */
static void collect(const char *dir, int layout, enum lms_layout want, struct student **s, int *n, struct strbuf *notes)
{
	struct lms_options o = { layout, "/nonexistent/out", NULL };
	struct strbuf err = STRBUF_INIT;
	enum lms_layout got;

	assert_int_equal(class_collect(dir, &o, &got, s, n, notes, &err), 0);
	assert_int_equal(got, want);
	strbuf_release(&err);
}

/* A stray entry of an LMS download: its own row, no LMS id, a reason, the path to fingerprint, a warning. */
static void assert_stray(const struct student *s, int n, const char *id, const char *entry, const char *lms,
			 const char *names, const char *notes)
{
	const struct student *x = find(s, n, id);
	char *why = xasprintf("'%s' is not named like an entry of %s (%s): not graded; if it is a student's work, "
			      "upload it for them in the LMS and download again, or grade it as a class of its own; if "
			      "not, move it out of the download", entry, lms, names);
	char *warning = xasprintf("'%s' will not be graded: '%s' is not named like an entry of %s", id, entry, lms);

	assert_non_null(x);
	assert_null(x->lms);
	assert_string_equal(x->name, entry);
	assert_non_null(x->path);
	assert_string_equal(strrchr(x->path, '/') + 1, entry);
	assert_non_null(x->unusable);
	assert_string_equal(x->unusable, why);
	assert_non_null(strstr(notes, warning));
	free(why);
	free(warning);
}

/* A download with stray entries, and what class_collect must make of it. */
struct strays_case {
	int layout;                 /* as --layout gives it */
	enum lms_layout want;       /* as read */
	const char *lms;            /* lms_layout_words() */
	const char *names;          /* what the LMS's entries look like, as the reason says it */
	const char *ids[8];         /* every row, sorted; NULL-terminated */
	const char *strays[4][2];   /* the stray rows: id, entry */
	const char *note;           /* the warning for notes.txt */
	const char *student, *lms_id; /* one student of the LMS and the id it has there */
};

/* Collect dir as c says and check every row: LMS students graded with their LMS id, strays as assert_stray. */
static void check_strays(const char *dir, const struct strays_case *c)
{
	struct strbuf notes = STRBUF_INIT;
	struct student *s = NULL;
	int n = 0, nids = 0, nstrays = 0, unusable = 0;

	make_file(dir, "notes.txt");
	collect(dir, c->layout, c->want, &s, &n, &notes);
	while (c->ids[nids])
		nids++;
	assert_int_equal(n, nids);
	for (int i = 0; i < n; i++)
		assert_string_equal(s[i].id, c->ids[i]);
	for (; nstrays < 4 && c->strays[nstrays][0]; nstrays++)
		assert_stray(s, n, c->strays[nstrays][0], c->strays[nstrays][1], c->lms, c->names, notes.buf);
	for (int i = 0; i < n; i++) {
		/* every other row is the LMS's student, graded */
		unusable += s[i].unusable != NULL;
		if (!s[i].unusable)
			assert_non_null(s[i].lms);
	}
	assert_int_equal(unusable, nstrays);
	assert_null(find(s, n, c->student)->unusable);
	assert_string_equal(find(s, n, c->student)->lms->person.lms_id, c->lms_id);
	assert_non_null(strstr(notes.buf, c->note));
	assert_null(strstr(notes.buf, "'notes.txt' will not be graded"));
	class_release(s, n);
	strbuf_release(&notes);
}

/*
 * Canvas (--layout canvas: a folder makes detection say folders) with a
 * stray folder, .c file and .zip, a stray folder named like a student's id,
 * and notes.txt: four rows more, the student's own id kept, notes.txt a
 * warning only.
 */
static void test_canvas_strays_have_rows(void **state)
{
	static const struct strays_case c = {
		LMS_CANVAS, LMS_CANVAS, "a Canvas download", "files <name>_<user id>_<file id>_<file name>, no folders",
		{ "alice", "bob.c", "carol.zip", "lovelaceada_101", "lovelaceada_101_stray", "turingalan_104", NULL },
		{ { "alice", "alice" }, { "bob.c", "bob.c" }, { "carol.zip", "carol.zip" },
		  { "lovelaceada_101_stray", "lovelaceada_101" } },
		"/notes.txt': not named like a Canvas submission file\n", "lovelaceada_101", "101",
	};
	const char *dir = ((struct fixture *)*state)->dir;

	make_file(dir, "lovelaceada_101_9001_p1.c");
	make_file(dir, "turingalan_104_9002_p1.c");
	make_dir(dir, "alice");
	make_file(dir, "bob.c");
	make_file(dir, "carol.zip");
	make_dir(dir, "lovelaceada_101"); /* the instructor unpacked something under the student's id */
	check_strays(dir, &c);
}

/* Moodle (detected): a stray folder and .py file are rows, notes.txt a warning. */
static void test_moodle_strays_have_rows(void **state)
{
	static const struct strays_case c = {
		LMS_AUTO, LMS_MOODLE, "a Moodle download",
		"folders <full name>_<participant id>_assignsubmission_file_ or such files",
		{ "Ada Lovelace_201", "Grace Hopper_205", "alice", "bob.py", NULL },
		{ { "alice", "alice" }, { "bob.py", "bob.py" } },
		"/notes.txt': not named like a folder or file of a Moodle download\n", "Grace Hopper_205", "205",
	};
	const char *dir = ((struct fixture *)*state)->dir;

	make_dir(dir, "Ada Lovelace_201_assignsubmission_file_");
	make_dir(dir, "Grace Hopper_205_assignsubmission_file_");
	make_dir(dir, "alice");
	make_file(dir, "bob.py");
	check_strays(dir, &c);
}

/* Gradescope (detected): a stray folder and .7z are rows; notes.txt a warning; submission_2 (not in the metadata) graded. */
static void test_gradescope_strays_have_rows(void **state)
{
	static const struct strays_case c = {
		LMS_AUTO, LMS_GRADESCOPE, "a Gradescope export", "folders submission_<n> beside submission_metadata.yml",
		{ "Ada Lovelace_1", "alice", "bob.7z", "submission_2", NULL },
		{ { "alice", "alice" }, { "bob.7z", "bob.7z" } },
		"/notes.txt': not a submission folder of a Gradescope export\n", "submission_2", "submission_2",
	};
	const char *dir = ((struct fixture *)*state)->dir;
	char *meta;
	FILE *fp;

	meta = xasprintf("%s/submission_metadata.yml", dir);
	fp = fopen(meta, "w");
	assert_non_null(fp);
	fputs("submission_1:\n  :submitters:\n  - :name: Ada Lovelace\n    :sid: '301'\n", fp);
	assert_int_equal(fclose(fp), 0);
	free(meta);
	make_dir(dir, "submission_1");
	make_dir(dir, "submission_2");
	make_dir(dir, "alice");
	make_file(dir, "bob.7z");
	check_strays(dir, &c);
}

/* Nothing named like Moodle's (--layout moodle on a folder of strays): the layout is wrong, no student found. */
static void test_only_strays_are_no_download(void **state)
{
	struct lms_options o = { LMS_MOODLE, "/nonexistent/out", NULL };
	struct strbuf notes = STRBUF_INIT, err = STRBUF_INIT;
	enum lms_layout layout;
	struct student *s = NULL;
	const char *dir = ((struct fixture *)*state)->dir;
	int n = -1;

	make_dir(dir, "alice");
	make_file(dir, "lovelaceada_101_9001_p1.c");
	assert_int_equal(class_collect(dir, &o, &layout, &s, &n, &notes, &err), -1);
	assert_non_null(strstr(err.buf, "no student found in '"));
	assert_non_null(strstr(err.buf, "(read as a Moodle download, as --layout says): it holds 'alice/', "
					"'lovelaceada_101_9001_p1.c'"));
	assert_null(strstr(notes.buf, "will not be graded"));
	strbuf_release(&notes);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_every_entry_has_a_row, setup, teardown),
		cmocka_unit_test(test_one_students_files_are_no_class),
		cmocka_unit_test_setup_teardown(test_canvas_strays_have_rows, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_moodle_strays_have_rows, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_gradescope_strays_have_rows, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_only_strays_are_no_download, setup_empty, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
