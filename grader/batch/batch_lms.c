/* batch_lms.c - see batch_lms.h */
#define _GNU_SOURCE
#include "batch/batch_lms.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "batch/batch_archive.h"
#include "problem/language.h"

#define GRADESCOPE_METADATA "submission_metadata.yml"
#define GRADESCOPE_PREFIX "submission_"
#define DESCRIBE_NAMES 12       /* names "no student found" lists before counting the rest */

/* ---- the directory ---- */

struct entry {
	char *name;
	char type;                  /* 'f' a regular file, 'd' a folder, 'o' anything else (a link too) */
};

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

static void entries_free(struct entry *e, int n)
{
	for (int i = 0; i < n; i++)
		free(e[i].name);
	free(e);
}

/*
 * The entries of dir, sorted by name, without "." and "..", outdir, and
 * (unless all) hidden ones and __MACOSX.  Links are not followed: an LMS
 * download holds none.  0, or -1 with errno when dir cannot be read.
 */
static int scan(const char *dir, const char *outdir, bool all, struct entry **out, int *count)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct stat out_st;
	bool have_out = outdir && stat(outdir, &out_st) == 0;
	struct entry *list = NULL;
	size_t alloc = 0;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		const char *name = de->d_name;
		struct stat st;
		char type = 'o';
		if (!strcmp(name, ".") || !strcmp(name, ".."))
			continue;
		if (!all && (name[0] == '.' || !strcmp(name, "__MACOSX")))
			continue;
		if (fstatat(dirfd(d), name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
			if (have_out && st.st_dev == out_st.st_dev && st.st_ino == out_st.st_ino)
				continue;
			type = S_ISREG(st.st_mode) ? 'f' : S_ISDIR(st.st_mode) ? 'd' : 'o';
		}
		ALLOC_GROW(list, n + 1, alloc);
		list[n].name = xstrdup(name);
		list[n++].type = type;
	}
	closedir(d);
	if (n)
		qsort(list, (size_t)n, sizeof(*list), cmp_entry);
	*out = list;
	*count = n;
	return 0;
}

static bool is_regular(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* ---- names ---- */

static size_t count_digits(const char *s)
{
	size_t n = 0;
	while (isdigit((unsigned char)s[n]))
		n++;
	return n;
}

/* A Canvas file name: <name>[_LATE]_<userid>_<fileid>_<file>, or <name>[_LATE]_<userid>_text.html. */
struct canvas_name {
	size_t name_len;            /* the student's name: fn[0, name_len) */
	size_t prefix_len;          /* name, LATE and user id: fn[0, prefix_len) */
	const char *uid;
	size_t uid_len;
	const char *file;           /* the original name ("text.html" for a text entry) */
	bool late;
};

/* Does fn + at start "[LATE_]<uid>_<fileid>_<file>" or "[LATE_]<uid>_text.html"? */
static bool canvas_tail(const char *fn, size_t at, struct canvas_name *c)
{
	const char *p = fn + at;
	size_t u, a;

	c->late = !strncasecmp(p, "LATE_", 5);
	if (c->late)
		p += 5;
	u = count_digits(p);
	if (!u || p[u] != '_')
		return false;
	c->uid = p;
	c->uid_len = u;
	c->prefix_len = (size_t)(p + u - fn);
	p += u + 1;
	a = count_digits(p);
	if (a && p[a] == '_' && p[a + 1]) {
		c->file = p + a + 1;
		return true;
	}
	if (!strcmp(p, "text.html") || !strcmp(p, "link.html")) {
		c->file = p;
		return true;
	}
	return false;
}

/* Canvas squeezes the name to word characters and breaks "_<digits>_" in it: the first fit is the right one. */
static bool canvas_parse(const char *fn, struct canvas_name *c)
{
	for (size_t i = 0; fn[i]; i++) {
		if (i && fn[i - 1] != '_')
			continue;
		if (canvas_tail(fn, i, c)) {
			c->name_len = i ? i - 1 : 0;
			return true;
		}
	}
	return false;
}

/* A Moodle name: <name>_<participant id>_assignsubmission_<plugin>_<rest> (rest "" for a folder). */
struct moodle_name {
	size_t name_len;
	const char *pid;
	size_t pid_len;
	const char *plugin;
	size_t plugin_len;
	const char *rest;
};

static bool moodle_parse(const char *fn, struct moodle_name *m)
{
	static const char tag[] = "_assignsubmission_";
	for (const char *t = strstr(fn, tag); t; t = strstr(t + 1, tag)) {
		const char *p = t;
		size_t n = 0;
		while (p > fn && isdigit((unsigned char)p[-1])) {
			p--;
			n++;
		}
		if (!n || p == fn || p[-1] != '_')
			continue;
		m->plugin = t + sizeof(tag) - 1;
		m->plugin_len = strcspn(m->plugin, "_");
		if (!m->plugin_len || m->plugin[m->plugin_len] != '_')
			continue;
		m->name_len = (size_t)(p - 1 - fn);
		m->pid = p;
		m->pid_len = n;
		m->rest = m->plugin + m->plugin_len + 1;
		return true;
	}
	return false;
}

/* "<name>_<number>" (or the number alone), safe as a file name: no '/', no control character, no leading '.'. */
static char *make_id(const char *name, const char *number)
{
	char *id = *name ? xasprintf("%s_%s", name, number) : xstrdup(number);
	for (char *p = id; *p; p++)
		if (*p == '/' || (unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '_';
	if (*id == '.')
		*id = '_';
	return id;
}

/*
 * The name a Canvas file is graded under: its original name, or, when
 * Canvas numbered a repeated upload ("p1-2.c") and dropping the number
 * gives a problem file's name, that name (*upload: the number).
 */
static char *graded_name(const char *file, const char *const *wanted, int *upload)
{
	const char *dot = strrchr(file, '.'), *p;
	char *base;

	*upload = 0;
	if (!dot || dot == file)
		dot = file + strlen(file);
	p = dot;
	while (p > file && isdigit((unsigned char)p[-1]))
		p--;
	if (p == dot || p - 1 <= file || p[-1] != '-' || dot - p > 6)
		return xstrdup(file);
	base = xasprintf("%.*s%s", (int)(p - 1 - file), file, dot);
	for (int i = 0; wanted && wanted[i]; i++)
		if (!strcasecmp(base, wanted[i])) {
			*upload = atoi(p);
			return base;
		}
	free(base);
	return xstrdup(file);
}

/* ---- grouping files into students ---- */

struct collect {
	const char *dir;
	const struct lms_options *o;
	struct lms_found *found;
	char **keys;                /* per found: the LMS's key for the student (Canvas user id, ...) */
	int n, nkeys;               /* found, keys: one each per LMS student (strays join found at the end) */
	size_t alloc, keys_alloc;
	struct strbuf *notes;
	enum lms_layout layout;
	struct lms_found *strays;   /* entries named like none of the layout's that look handed in */
	int nstrays;
	size_t strays_alloc;
};

static struct lms_found *find_student(const struct collect *c, const char *key)
{
	/* from the end: a student's files are next to each other in the sorted listing */
	for (int i = c->n - 1; i >= 0; i--)
		if (!strcmp(c->keys[i], key))
			return &c->found[i];
	return NULL;
}

/* The student the LMS knows as key, created (id "<name>_<lms_id>") when new. */
static struct lms_found *student_of(struct collect *c, const char *key, const char *name, const char *lms_id)
{
	struct lms_found *f = find_student(c, key);
	if (f)
		return f;
	ALLOC_GROW(c->found, c->n + 1, c->alloc);
	ALLOC_GROW(c->keys, c->n + 1, c->keys_alloc);
	f = &c->found[c->n];
	memset(f, 0, sizeof(*f));
	c->keys[c->nkeys++] = xstrdup(key);
	c->n++;
	f->id = make_id(name, lms_id);
	f->lms = xcalloc(1, sizeof(*f->lms));
	f->lms->person.id = xstrdup(f->id);
	f->lms->person.name = xstrdup(name);
	f->lms->person.lms_id = xstrdup(lms_id);
	return f;
}

static void add_also(struct lms_found *f, char *path)
{
	struct lms_student *s = f->lms;
	s->also = xrealloc(s->also, (size_t)(s->nalso + 1) * sizeof(char *));
	s->also[s->nalso++] = path;
}

/* Add a file (path and name are taken); of two uploads of one name, the later is kept. */
static void add_file(struct collect *c, struct lms_found *f, char *path, char *name, int upload)
{
	struct lms_student *s = f->lms;
	struct student_file *sf;

	if (!strcmp(name, ".") || !strcmp(name, "..")) {
		strbuf_addf(c->notes, "ignoring '%s': no usable file name\n", path);
		free(path);
		free(name);
		return;
	}
	for (int i = 0; i < s->nfiles; i++) {
		struct student_file *o = &s->files[i];
		bool newer = upload > o->upload;
		if (strcmp(o->name, name))
			continue;
		strbuf_addf(c->notes, "ignoring '%s': '%s' is a later upload of '%s'\n", newer ? o->path : path,
			    newer ? path : o->path, name);
		if (newer) {
			free(o->path);
			free(o->name);
			o->path = path;
			o->name = name;
			o->upload = upload;
		} else {
			free(path);
			free(name);
		}
		return;
	}
	s->files = xrealloc(s->files, (size_t)(s->nfiles + 1) * sizeof(*s->files));
	sf = &s->files[s->nfiles++];
	sf->path = path;
	sf->name = name;
	sf->upload = upload;
}

/* Does an entry look handed in: a folder, an archive of any kind, a source file of a language the grader grades? */
static bool looks_handed_in(const struct entry *e)
{
	size_t stem;
	if (e->type == 'd')
		return true;
	return e->type == 'f' && (unpack_is_archive(e->name, &stem) || unpack_other_archive(e->name, &stem) ||
				  language_of_file(e->name));
}

/*
 * An entry (at path, taken) named like none of the layout's (names: what
 * they look like): a row of its own when it looks handed in (issue 32:
 * nobody lost), a note otherwise (why: the note's words).
 */
static void stray(struct collect *c, char *path, const struct entry *e, const char *why, const char *names)
{
	struct lms_found *f;

	if (!looks_handed_in(e)) {
		strbuf_addf(c->notes, "ignoring '%s': %s\n", path, why);
		free(path);
		return;
	}
	ALLOC_GROW(c->strays, c->nstrays + 1, c->strays_alloc);
	f = &c->strays[c->nstrays++];
	memset(f, 0, sizeof(*f));
	f->entry = xstrdup(e->name);
	f->path = path;
	f->unusable = xasprintf("'%s' is not named like an entry of %s (%s): not graded; if it is a student's work, "
				"upload it for them in the LMS and download again, or grade it as a class of its own; "
				"if not, move it out of the download",
				e->name, lms_layout_words(c->layout), names);
}

static bool id_taken(const struct collect *c, const char *id, int strays)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->found[i].id, id))
			return true;
	for (int i = 0; i < strays; i++)
		if (!strcmp(c->strays[i].id, id))
			return true;
	return false;
}

/*
 * The stray entries' ids: their names, made unique among all ids ("_stray",
 * "_stray2", ...); then they join found.  Not when no entry at all is named
 * like the LMS's: then the layout is wrong (--layout moodle on a Canvas
 * download), not a few entries, and the caller says no student was found.
 */
static void add_strays(struct collect *c)
{
	if (!c->n)
		return;
	for (int i = 0; i < c->nstrays; i++) {
		struct lms_found *f = &c->strays[i];
		f->id = xstrdup(f->entry);
		for (int k = 1; id_taken(c, f->id, i); k++) {
			free(f->id);
			f->id = k == 1 ? xasprintf("%s_stray", f->entry) : xasprintf("%s_stray%d", f->entry, k);
		}
	}
	for (int i = 0; i < c->nstrays; i++) {
		ALLOC_GROW(c->found, c->n + 1, c->alloc);
		c->found[c->n++] = c->strays[i];
	}
	free(c->strays);
	c->strays = NULL;
	c->nstrays = 0;
}

static void canvas_entry(struct collect *c, const struct entry *e)
{
	char *path = xasprintf("%s/%s", c->dir, e->name), *key, *name, *graded;
	struct canvas_name cn;
	struct lms_found *f;
	int upload;

	if (e->type != 'f' || !canvas_parse(e->name, &cn)) {
		stray(c, path, e, e->type != 'f' ? "not a file (a Canvas download holds files only)" :
		      "not named like a Canvas submission file", "files <name>_<user id>_<file id>_<file name>, no folders");
		return;
	}
	key = xstrndup(cn.uid, cn.uid_len);
	name = xstrndup(e->name, cn.name_len);
	f = student_of(c, key, name, key);
	f->lms->person.late |= cn.late;
	if (!f->entry)
		f->entry = xasprintf("%.*s_*", (int)cn.prefix_len, e->name);
	graded = graded_name(cn.file, c->o->wanted, &upload);
	add_file(c, f, path, graded, upload);
	free(key);
	free(name);
}

static void moodle_entry(struct collect *c, const struct entry *e)
{
	char *path = xasprintf("%s/%s", c->dir, e->name), *key, *name;
	struct moodle_name mn;
	struct lms_found *f;
	bool file_plugin;

	if (e->type == 'o' || !moodle_parse(e->name, &mn) || (e->type == 'd') != !*mn.rest) {
		stray(c, path, e, "not named like a folder or file of a Moodle download",
		      "folders <full name>_<participant id>_assignsubmission_file_ or such files");
		return;
	}
	key = xstrndup(mn.pid, mn.pid_len);
	name = xstrndup(e->name, mn.name_len);
	f = student_of(c, key, name, key);
	file_plugin = mn.plugin_len == 4 && !strncmp(mn.plugin, "file", 4);
	if (e->type == 'd' && file_plugin && !f->path) {
		f->path = path;
		free(f->entry);
		f->entry = xstrdup(e->name);
	} else if (e->type == 'f' && file_plugin) {
		if (!f->entry)
			f->entry = xasprintf("%.*s*", (int)(mn.rest - e->name), e->name);
		add_file(c, f, path, xstrdup(mn.rest), 0);
	} else {
		add_also(f, path); /* online text, comments, a second file folder: fingerprinted, not graded */
	}
	free(key);
	free(name);
}

/* ---- Gradescope ---- */

struct gs_submission {
	char *key;                  /* the folder: "submission_123" */
	char *names;                /* every submitter's name, ", "-joined */
	char *first, *sid, *email;  /* the first submitter's, or NULL */
};

static void gs_free(struct gs_submission *g, int n)
{
	for (int i = 0; i < n; i++) {
		free(g[i].key);
		free(g[i].names);
		free(g[i].first);
		free(g[i].sid);
		free(g[i].email);
	}
	free(g);
}

static const char *yscalar(yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* A mapping's value for key, written as Gradescope writes Ruby symbols (":key") or plainly. */
static yaml_node_t *ymap_get(yaml_document_t *doc, yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		const char *k = yscalar(yaml_document_get_node(doc, p->key));
		if (k && (!strcmp(k, key) || (k[0] == ':' && !strcmp(k + 1, key))))
			return yaml_document_get_node(doc, p->value);
	}
	return NULL;
}

static char *ydup(yaml_document_t *doc, yaml_node_t *map, const char *key)
{
	const char *s = yscalar(ymap_get(doc, map, key));
	return s && *s ? xstrdup(s) : NULL;
}

/* :submitters: - {:name:, :sid:, :email:} ... */
static void gs_submitters(yaml_document_t *doc, yaml_node_t *subs, struct gs_submission *g)
{
	struct strbuf names = STRBUF_INIT;
	if (subs && subs->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *it = subs->data.sequence.items.start; it < subs->data.sequence.items.top; it++) {
			yaml_node_t *who = yaml_document_get_node(doc, *it);
			const char *name = yscalar(ymap_get(doc, who, "name"));
			if (it == subs->data.sequence.items.start) {
				g->first = ydup(doc, who, "name");
				g->sid = ydup(doc, who, "sid");
				g->email = ydup(doc, who, "email");
			}
			if (name && *name)
				strbuf_addf(&names, "%s%s", names.len ? ", " : "", name);
		}
	}
	g->names = strbuf_detach(&names);
}

/* Read submission_metadata.yml: one entry per submission folder.  0, or -1 with a message in err. */
static int gs_metadata(const char *path, struct gs_submission **out, int *count, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root;
	struct gs_submission *list = NULL;
	int n = 0, ret = -1;

	if (read_file(&text, path) < 0) {
		strbuf_addf(err, "cannot read '%s': %s", path, strerror(errno));
		strbuf_release(&text);
		return -1;
	}
	if (!yaml_parser_initialize(&parser))
		die("out of memory");
	yaml_parser_set_input_string(&parser, (const unsigned char *)text.buf, text.len);
	if (!yaml_parser_load(&parser, &doc)) {
		strbuf_addf(err, "%s:%zu: %s", path, parser.problem_mark.line + 1,
			    parser.problem ? parser.problem : "not YAML");
		yaml_parser_delete(&parser);
		strbuf_release(&text);
		return -1;
	}
	root = yaml_document_get_root_node(&doc);
	if (!root || root->type != YAML_MAPPING_NODE) {
		strbuf_addf(err, "%s: not a mapping of submission folders to submitters", path);
		goto cleanup;
	}
	list = xcalloc((size_t)(root->data.mapping.pairs.top - root->data.mapping.pairs.start) + 1, sizeof(*list));
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		const char *key = yscalar(yaml_document_get_node(&doc, p->key));
		yaml_node_t *v = yaml_document_get_node(&doc, p->value);
		if (!key || !*key || strchr(key, '/') || key[0] == '.')
			continue;
		list[n].key = xstrdup(key);
		gs_submitters(&doc, ymap_get(&doc, v, "submitters"), &list[n++]);
	}
	ret = 0;
cleanup:
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	strbuf_release(&text);
	*out = list;
	*count = n;
	return ret;
}

/* Where the metadata is: dir itself, or its only entry when that is a folder holding it (the export unzipped as is). */
static char *gradescope_root(const char *dir, const char *outdir)
{
	char *meta = xasprintf("%s/" GRADESCOPE_METADATA, dir), *root = NULL;
	struct entry *e = NULL;
	int n = 0;

	if (is_regular(meta)) {
		root = xstrdup(dir);
	} else if (scan(dir, outdir, false, &e, &n) == 0 && n == 1 && e[0].type == 'd') {
		char *sub = xasprintf("%s/%s", dir, e[0].name);
		free(meta);
		meta = xasprintf("%s/" GRADESCOPE_METADATA, sub);
		if (is_regular(meta))
			root = sub;
		else
			free(sub);
	}
	entries_free(e, n);
	free(meta);
	return root;
}

static const char *gs_number(const char *key)
{
	return strncmp(key, GRADESCOPE_PREFIX, strlen(GRADESCOPE_PREFIX)) ? key : key + strlen(GRADESCOPE_PREFIX);
}

/* A submission of the metadata: a student, graded from its folder. */
static void gs_student(struct collect *c, const struct gs_submission *g)
{
	char *folder = xasprintf("%s/%s", c->dir, g->key);
	const char *name = g->first ? g->first : g->sid ? g->sid : "";
	struct lms_found *f = student_of(c, g->key, name, gs_number(g->key));
	struct stat st;

	if (f->entry) { /* the same folder twice in the metadata */
		free(folder);
		return;
	}
	free(f->lms->person.name);
	f->lms->person.name = xstrdup(g->names);
	f->lms->person.sid = g->sid ? xstrdup(g->sid) : NULL;
	f->lms->person.email = g->email ? xstrdup(g->email) : NULL;
	if (lstat(folder, &st) == 0 && S_ISDIR(st.st_mode)) {
		f->path = folder;
		f->entry = xstrdup(g->key);
		return;
	}
	strbuf_addf(c->notes, "'%s' is in " GRADESCOPE_METADATA " but has no folder: graded as an empty submission\n",
		    g->key);
	f->entry = xstrdup(g->key);
	f->lms->where = folder;
}

static int gradescope_collect(struct collect *c, struct strbuf *err)
{
	char *root = gradescope_root(c->dir, c->o->outdir), *meta;
	struct gs_submission *subs = NULL;
	struct entry *e = NULL;
	int nsubs = 0, n = 0, ret = -1;

	if (!root) {
		strbuf_addf(err, "no " GRADESCOPE_METADATA " in '%s' or its only folder (read as a Gradescope export, as "
			    "--layout says): ", c->dir);
		lms_describe(c->dir, c->o->outdir, err);
		return -1;
	}
	c->dir = root;
	meta = xasprintf("%s/" GRADESCOPE_METADATA, root);
	if (gs_metadata(meta, &subs, &nsubs, err) < 0)
		goto cleanup;
	if (scan(root, c->o->outdir, false, &e, &n) < 0) {
		strbuf_addf(err, "cannot read '%s': %s", root, strerror(errno));
		goto cleanup;
	}
	for (int i = 0; i < nsubs; i++)
		gs_student(c, &subs[i]);
	for (int i = 0; i < n; i++) {
		struct lms_found *f;
		if (!strcmp(e[i].name, GRADESCOPE_METADATA) || find_student(c, e[i].name))
			continue;
		if (e[i].type != 'd' || strncmp(e[i].name, GRADESCOPE_PREFIX, strlen(GRADESCOPE_PREFIX))) {
			stray(c, xasprintf("%s/%s", root, e[i].name), &e[i], "not a submission folder of a Gradescope export",
			      "folders submission_<n> beside " GRADESCOPE_METADATA);
			continue;
		}
		strbuf_addf(c->notes, "'%s/%s' is not in " GRADESCOPE_METADATA ": graded without a name\n", root,
			    e[i].name);
		f = student_of(c, e[i].name, "", e[i].name);
		f->path = xasprintf("%s/%s", root, e[i].name);
		f->entry = xstrdup(e[i].name);
	}
	ret = 0;
cleanup:
	c->dir = NULL;
	entries_free(e, n);
	gs_free(subs, nsubs);
	free(meta);
	free(root);
	return ret;
}

/* ---- the whole class ---- */

/* The only entry of a folder when it is an archive (a student who uploaded hw.zip), else NULL. */
static char *only_archive(const char *dir)
{
	struct entry *e = NULL;
	char *only = NULL;
	size_t stem;
	int n = 0;

	if (scan(dir, NULL, false, &e, &n) == 0 && n == 1 && e[0].type == 'f' && unpack_is_archive(e[0].name, &stem))
		only = xasprintf("%s/%s", dir, e[0].name);
	entries_free(e, n);
	return only;
}

/* What to grade for one student, once every file is grouped. */
static void finish_student(struct collect *c, struct lms_found *f)
{
	struct lms_student *s = f->lms;
	size_t stem;

	if (f->path && s->nfiles) {
		/* Moodle: a folder and loose files of one student; the folder is what the student handed in */
		for (int i = 0; i < s->nfiles; i++) {
			strbuf_addf(c->notes, "not grading '%s': '%s' is graded\n", s->files[i].path, f->path);
			add_also(f, s->files[i].path);
			free(s->files[i].name);
		}
		s->nfiles = 0;
	}
	if (!f->path && s->nfiles == 1 && unpack_is_archive(s->files[0].name, &stem)) {
		f->path = s->files[0].path;
		f->archive = true;
		free(s->files[0].name);
		s->nfiles = 0;
	} else if (f->path && !f->archive) {
		char *only = only_archive(f->path);
		if (only) {
			free(f->path);
			f->path = only;
			f->archive = true;
		}
	}
	if (!f->entry)
		f->entry = xstrdup(f->id);
	if (!f->path && !s->where)
		s->where = c->dir ? xasprintf("%s/%s", c->dir, f->entry) : xstrdup(f->entry);
}

int lms_collect(const char *dir, enum lms_layout layout, const struct lms_options *o, struct lms_found **out,
		int *count, struct strbuf *notes, struct strbuf *err)
{
	struct collect c;
	struct entry *e = NULL;
	int n = 0, ret = -1;

	memset(&c, 0, sizeof(c));
	c.dir = dir;
	c.o = o;
	c.notes = notes;
	c.layout = layout;
	if (layout == LMS_GRADESCOPE) {
		if (gradescope_collect(&c, err) < 0)
			goto cleanup;
	} else if (scan(dir, o->outdir, false, &e, &n) < 0) {
		strbuf_addf(err, "cannot read the submissions directory '%s': %s", dir, strerror(errno));
		goto cleanup;
	}
	for (int i = 0; i < n; i++) {
		if (layout == LMS_CANVAS)
			canvas_entry(&c, &e[i]);
		else
			moodle_entry(&c, &e[i]);
	}
	for (int i = 0; i < c.n; i++)
		finish_student(&c, &c.found[i]);
	add_strays(&c);
	ret = 0;
cleanup:
	entries_free(e, n);
	for (int i = 0; i < c.nkeys; i++)
		free(c.keys[i]);
	free(c.keys);
	lms_found_release(c.strays, c.nstrays); /* left over only after an error */
	if (ret) {
		lms_found_release(c.found, c.n);
		c.found = NULL;
		c.n = 0;
	}
	*out = c.found;
	*count = c.n;
	return ret;
}

void lms_student_free(struct lms_student *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nfiles; i++) {
		free(s->files[i].path);
		free(s->files[i].name);
	}
	free(s->files);
	for (int i = 0; i < s->nalso; i++)
		free(s->also[i]);
	free(s->also);
	free(s->where);
	free(s->person.id);
	free(s->person.name);
	free(s->person.lms_id);
	free(s->person.sid);
	free(s->person.email);
	free(s);
}

void lms_found_release(struct lms_found *found, int count)
{
	for (int i = 0; i < count; i++) {
		free(found[i].id);
		free(found[i].entry);
		free(found[i].path);
		free(found[i].unusable);
		lms_student_free(found[i].lms);
	}
	free(found);
}

/* ---- detection and description ---- */

enum lms_layout lms_detect(const char *dir, const char *outdir)
{
	struct entry *e = NULL;
	char *gs = gradescope_root(dir, outdir);
	int n = 0, moodle = 0, canvas = 0, folders = 0;
	enum lms_layout l = LMS_FOLDERS;

	if (gs) {
		free(gs);
		return LMS_GRADESCOPE;
	}
	if (scan(dir, outdir, false, &e, &n) < 0)
		return LMS_FOLDERS;
	for (int i = 0; i < n; i++) {
		struct moodle_name mn;
		struct canvas_name cn;
		if (e[i].type != 'o' && moodle_parse(e[i].name, &mn))
			moodle++;
		else if (e[i].type == 'f' && canvas_parse(e[i].name, &cn))
			canvas++;
		folders += e[i].type == 'd';
	}
	if (moodle)
		l = LMS_MOODLE;
	else if (canvas && !folders)
		l = LMS_CANVAS;
	entries_free(e, n);
	return l;
}

void lms_describe(const char *dir, const char *outdir, struct strbuf *out)
{
	struct entry *e = NULL;
	int n = 0, files = 0, folders = 0;

	if (scan(dir, outdir, true, &e, &n) < 0) {
		strbuf_addf(out, "it cannot be read (%s)", strerror(errno));
		return;
	}
	if (!n)
		strbuf_addstr(out, "it is empty");
	for (int i = 0; i < n; i++) {
		files += e[i].type == 'f';
		folders += e[i].type == 'd';
		if (i < DESCRIBE_NAMES)
			strbuf_addf(out, "%s'%s%s'", i ? ", " : "it holds ", e[i].name,
				    e[i].type == 'd' ? "/" : e[i].type == 'o' ? " (not a file or folder)" : "");
	}
	if (n > DESCRIBE_NAMES)
		strbuf_addf(out, " and %d more", n - DESCRIBE_NAMES);
	if (n)
		strbuf_addf(out, " (%d file%s, %d folder%s", files, files == 1 ? "" : "s", folders, folders == 1 ? "" : "s");
	if (n - files - folders)
		strbuf_addf(out, ", %d other", n - files - folders);
	if (n)
		strbuf_addch(out, ')');
	entries_free(e, n);
}

/* ---- staging a flat student for grading ---- */

/* Copy one file into dfd, taking its bytes from *budget (of max). */
static int copy_one(int dfd, const struct student_file *f, unsigned long long *budget, unsigned long long max,
		    struct strbuf *err)
{
	int in = open(f->path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), out = -1, ret = -1;
	char buf[64 << 10];
	struct stat st;
	ssize_t r;

	if (in < 0 || fstat(in, &st) < 0 || !S_ISREG(st.st_mode)) {
		strbuf_addf(err, "cannot read '%s': %s", f->path, in < 0 ? strerror(errno) : "not a regular file");
		goto cleanup;
	}
	out = openat(dfd, f->name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (out < 0) {
		strbuf_addf(err, "cannot write '%s': %s", f->name, strerror(errno));
		goto cleanup;
	}
	while ((r = read(in, buf, sizeof(buf))) > 0) {
		if ((unsigned long long)r > *budget) {
			strbuf_addf(err, "the files add up to more than %llu MiB", max >> 20);
			goto cleanup;
		}
		*budget -= (unsigned long long)r;
		if (write_all(out, buf, (size_t)r) < 0) {
			strbuf_addf(err, "cannot write '%s': %s", f->name, strerror(errno));
			goto cleanup;
		}
	}
	if (r < 0) {
		strbuf_addf(err, "cannot read '%s': %s", f->path, strerror(errno));
		goto cleanup;
	}
	ret = 0;
cleanup:
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return ret;
}

int lms_stage(const struct lms_student *s, const char *dest, unsigned long long max_bytes, struct strbuf *err)
{
	unsigned long long budget = max_bytes;
	int dfd, ret = 0;

	if (mkdir(dest, 0700) < 0) {
		strbuf_addf(err, "cannot create '%s': %s", dest, strerror(errno));
		return -1;
	}
	dfd = open(dest, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0) {
		strbuf_addf(err, "cannot open '%s': %s", dest, strerror(errno));
		ret = -1;
	}
	for (int i = 0; i < s->nfiles && !ret; i++)
		ret = copy_one(dfd, &s->files[i], &budget, max_bytes, err);
	if (dfd >= 0)
		close(dfd);
	if (ret)
		remove_tree(dest);
	return ret;
}
