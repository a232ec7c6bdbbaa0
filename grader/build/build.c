/* build.c - see build.h */
#define _GNU_SOURCE
#include "build/build.h"
#include "base/l10n.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build/compile.h"
#include "base/embed.h"
#include "base/interrupt.h"
#include "build/lookalike.h"
#include "build/setup_cache.h"

#define MAX_SOURCE_BYTES (1u << 20)
#define MAX_JOBS 64

/* The runtime's sources, which every language's set-up compiles from. */
static int write_runtime(const struct build_env *env, struct strbuf *err)
{
	const struct {
		const char *name;
		const char *text;
	} files[] = {
		{ "protocol.h", embed_protocol_h },
		{ "runtime.c", embed_runtime_c },
		{ "pyhost.c", embed_pyhost_c },
	};
	if (mkdir(env->runtime_dir, 0755) < 0 || compile_give_dir(&env->compile, env->runtime_dir) < 0) {
		strbuf_addf(err, "cannot prepare '%s': %s", env->runtime_dir, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *path = xasprintf("%s/%s", env->runtime_dir, files[i].name);
		int rc = write_file_atomic(path, files[i].text, strlen(files[i].text));
		if (rc < 0)
			strbuf_addf(err, "cannot write '%s': %s", path, strerror(errno));
		free(path);
		if (rc < 0)
			return -1;
	}
	return 0;
}

int build_env_init(struct build_env *env, const char *scratch, const struct language *const *needed,
		   struct strbuf *err)
{
	if (!env->compile.cpu_s)
		env->compile.cpu_s = 20;
	if (!env->compile.wall_ms)
		env->compile.wall_ms = 30000;
	if (!env->cc)
		env->cc = xstrdup("gcc");
	env->scratch = xstrdup(scratch);
	env->runtime_dir = xasprintf("%s/runtime", scratch);
	env->compile_readable[0] = env->runtime_dir;
	env->compile_readable[1] = NULL;
	env->compile.readable = env->compile_readable;
	if (write_runtime(env, err) < 0)
		return -1;
	env->setup_rejected = 0;
	for (int i = 0; needed && needed[i]; i++) {
		enum setup_cache_fetch cached = setup_cache_fetch(env->cache_dir, needed[i], env->cc, env->runtime_dir);
		if (cached == SETUP_CACHE_HIT)
			continue;
		if (cached == SETUP_CACHE_REJECTED && i < 32)
			env->setup_rejected |= 1u << i;
		if (needed[i]->setup(env, err) < 0)
			return -1;
		setup_cache_store(env->cache_dir, needed[i], env->cc, env->runtime_dir);
	}
	return 0;
}

int build_env_share(struct build_env *env, const struct problem *const *problems, int n, struct strbuf *failures)
{
	struct strbuf err = STRBUF_INIT;
	int failed = 0;

	env->shared_rejected = 0;
	for (int i = 0; i < n; i++) {
		bool rejected = false;
		if (!problems[i]->lang->share)
			continue;
		strbuf_reset(&err);
		if (problems[i]->lang->share(env, problems[i], &rejected, &err) < 0) {
			strbuf_addf(failures, "%s%s: %s", failed ? "\n" : "", problems[i]->id,
				    err.len ? err.buf : "(no reason given)");
			failed++;
		}
		env->shared_rejected += rejected;
	}
	strbuf_release(&err);
	return failed;
}

void build_env_release(struct build_env *env)
{
	free(env->scratch);
	free(env->runtime_dir);
	free(env->cc);
	env->scratch = env->runtime_dir = env->cc = NULL;
}

void build_result_release(struct build_result *r)
{
	free(r->runner);
	strvec_free(r->runner_argv);
	free(r->runner_dir);
	free(r->source);
	free(r->message);
	memset(r, 0, sizeof(*r));
}

char *build_find_source(const char *dir, const char *name)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char *found = NULL;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, name)) {
			free(found);
			found = xstrdup(de->d_name);
			break;
		}
		if (!found && !strcasecmp(de->d_name, name))
			found = xstrdup(de->d_name);
	}
	closedir(d);
	return found;
}

/* "'p1.c' or 'p1.py'": the files looked for, in the language _() speaks */
static char *looked_for(struct problem *const *variants, int nvariants)
{
	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < nvariants; i++)
		strbuf_addf(&sb, "%s'%s'", i ? (i == nvariants - 1 ? _(" or ") : ", ") : "", variants[i]->source);
	return strbuf_detach(&sb);
}

void build_choose(const char *dir, struct problem *const *variants, int nvariants, struct build_choice *out)
{
	struct strbuf found = STRBUF_INIT;
	int nfound = 0;

	memset(out, 0, sizeof(*out));
	out->problem = variants[0];
	for (int i = 0; i < nvariants; i++) {
		char *f = build_find_source(dir, variants[i]->source);
		if (!f)
			continue;
		strbuf_addf(&found, "%s'%s'", nfound ? "\n" : "", f); /* one per line: build_status.c joins them in words */
		if (!nfound++) {
			out->problem = variants[i];
			out->file = f;
		} else {
			free(f);
		}
	}
	if (!nfound) {
		const char **wanted = xcalloc((size_t)nvariants, sizeof(*wanted));
		for (int i = 0; i < nvariants; i++)
			wanted[i] = variants[i]->source;
		out->looked_for = L10N(looked_for(variants, nvariants));
		out->lookalikes = L10N(lookalike_hint(dir, wanted, nvariants));
		free(wanted);
	} else if (nfound > 1) {
		free(out->file);
		out->file = NULL;
		out->conflict = strbuf_detach(&found);
	}
	strbuf_release(&found);
}

void build_choice_release(struct build_choice *c)
{
	free(c->file);
	free(c->looked_for);
	free(c->conflict);
	free(c->lookalikes);
	memset(c, 0, sizeof(*c));
}

/*
 * A source saved as UTF-16 or UTF-32 (Windows Notepad's "Unicode" and
 * "Unicode big endian", some editors' default): neither gcc nor python3
 * reads it - gcc answers with a screen of "stray '\377' in program",
 * python3 with "Non-UTF-8 code" or "null bytes".  Told by its byte order
 * mark, or without one by where its NUL bytes are: source code is mostly
 * ASCII, which in UTF-16 is a NUL beside every other byte.  A UTF-8 byte
 * order mark is no such thing: gcc and python3 both take it.  Returns the
 * encoding's name, or NULL.
 */
static const char *wide_encoding(const unsigned char *s, size_t n)
{
	size_t pairs = n / 2 < 512 ? n / 2 : 512, le = 0, be = 0;

	if (n >= 4 && !memcmp(s, "\xff\xfe\0\0", 4))
		return "UTF-32 (little-endian)";
	if (n >= 4 && !memcmp(s, "\0\0\xfe\xff", 4))
		return "UTF-32 (big-endian)";
	if (n >= 2 && s[0] == 0xff && s[1] == 0xfe)
		return "UTF-16 (little-endian)";
	if (n >= 2 && s[0] == 0xfe && s[1] == 0xff)
		return "UTF-16 (big-endian)";
	for (size_t i = 0; i < pairs; i++) {
		le += s[2 * i] && !s[2 * i + 1];
		be += !s[2 * i] && s[2 * i + 1];
	}
	/* three pairs in four: a stray NUL or a few characters beyond ASCII do not make it text of another kind */
	if (pairs >= 2 && le * 4 >= pairs * 3)
		return "UTF-16 (little-endian, without a byte order mark)";
	if (pairs >= 2 && be * 4 >= pairs * 3)
		return "UTF-16 (big-endian, without a byte order mark)";
	return NULL;
}

static int copy_source(const char *from, const char *to, struct strbuf *msg)
{
	int in = open(from, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	struct strbuf content = STRBUF_INIT;
	const char *encoding;
	int ret = -1;

	if (in < 0) {
		strbuf_addf(msg, "cannot read the file: %s", errno == ELOOP ? "it is a symbolic link" : strerror(errno));
		return -1;
	}
	if (fstat(in, &st) < 0 || !S_ISREG(st.st_mode)) {
		strbuf_addstr(msg, "it is not a regular file");
		goto cleanup;
	}
	if (st.st_size > (off_t)MAX_SOURCE_BYTES) {
		strbuf_addf(msg, "the file is larger than %u KiB", MAX_SOURCE_BYTES >> 10);
		goto cleanup;
	}
	close(in);
	in = -1;
	if (read_file(&content, from) < 0) {
		strbuf_addf(msg, "cannot copy the file: %s", strerror(errno));
		goto cleanup;
	}
	encoding = wide_encoding((const unsigned char *)content.buf, content.len);
	if (encoding) {
		strbuf_addf(msg, "the file is saved as %s, which the compiler cannot read: save it as UTF-8 "
			    "(in Notepad: File > Save As, Encoding: UTF-8)", encoding);
		goto cleanup;
	}
	if (write_file_atomic(to, content.buf, content.len) < 0) {
		strbuf_addf(msg, "cannot copy the file: %s", strerror(errno));
		goto cleanup;
	}
	ret = 0;
cleanup:
	if (in >= 0)
		close(in);
	strbuf_release(&content);
	return ret;
}

/* One build in progress. */
struct pending {
	char *dir;
	char *file;             /* the student's file in dir, under the name its compiler expects */
	struct strvec argv;
	struct compile_job job;
};

/* A build that ends before any command: missing, a conflict, a file that cannot be taken. */
static void decide_early(struct build_result *r, struct build_facts *f)
{
	r->status = build_status_of(f, &r->message);
}

/* Copy the student's file and let its language prepare the command.  0, or -1 when there is nothing to run. */
static int prepare(const struct build_env *env, const struct build_choice *c, const char *submission_dir,
		   struct build_result *r, struct pending *pd)
{
	const struct problem *p = c->problem;
	struct strbuf msg = STRBUF_INIT;
	struct build_facts f;
	char *from = NULL, *to = NULL;
	int ret = -1;

	memset(&f, 0, sizeof(f));
	r->problem = p;
	if (!c->file) {
		f.missing = !c->conflict;
		f.source = c->looked_for ? c->looked_for : p->source;
		f.conflict = c->conflict;
		f.lookalikes = c->lookalikes;
		decide_early(r, &f);
		return -1;
	}
	r->source = xstrdup(c->file);
	/* the student's name with the extension its compiler expects ("P4.C" would be C++ to gcc) */
	pd->file = xasprintf("%.*s%s", (int)(strlen(r->source) - strlen(p->lang->extension)), r->source,
			     p->lang->extension);
	pd->dir = xasprintf("%s/build-%s", env->scratch, p->id);
	if (mkdir(pd->dir, 0755) < 0 || compile_give_dir(&env->compile, pd->dir) < 0) {
		r->status = BUILD_INTERNAL;
		r->message = xasprintf("cannot create '%s': %s", pd->dir, strerror(errno));
		goto cleanup;
	}
	from = xasprintf("%s/%s", submission_dir, r->source);
	to = xasprintf("%s/%s", pd->dir, pd->file);
	if (copy_source(from, to, &msg) < 0) {
		f.source = r->source;
		f.copy_error = msg.buf;
		decide_early(r, &f);
		goto cleanup;
	}
	strbuf_reset(&msg);
	if (p->lang->prepare(env, p, pd->dir, pd->file, &pd->argv, &msg) < 0) {
		r->status = BUILD_INTERNAL;
		r->message = strbuf_detach(&msg);
		goto cleanup;
	}
	ret = 0;
cleanup:
	strbuf_release(&msg);
	free(from);
	free(to);
	return ret;
}

/* The required declarations, one a line, for a compile error's message. */
static char *signatures(const struct problem *p)
{
	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < p->nfuncs; i++) {
		strbuf_addstr(&sb, "  ");
		signature_format(&sb, &p->funcs[i]);
		strbuf_addch(&sb, '\n');
	}
	return strbuf_detach(&sb);
}

/* The command has finished: gather what it and the language's inspection found, and let build_status.c decide. */
static void finish(const struct build_env *env, const struct problem *p, struct build_result *r, struct pending *pd)
{
	struct strbuf forbidden = STRBUF_INIT, clashes = STRBUF_INIT;
	char *sigs = signatures(p);
	struct compile_job *j = &pd->job;
	struct build_facts f;

	memset(&f, 0, sizeof(f));
	r->compile_ms = (unsigned)((now_us() - j->started) / 1000);
	f.source = r->source;
	f.interrupted = j->interrupted;
	f.timed_out = j->timed_out;
	f.status = j->status;
	f.output = j->output.buf;
	f.cpu_limit_s = env->compile.cpu_s;
	f.wall_limit_ms = env->compile.wall_ms;
	f.signatures = sigs;
	f.memory_limit_bytes = (unsigned long long)problem_max_memory_mb(p) << 20;
	f.inspected = true;
	if (compile_succeeded(j) && p->lang->inspect)
		f.inspected = p->lang->inspect(env, p, pd->dir, &f, &forbidden, &clashes) == 0;
	f.forbidden = forbidden.buf;
	f.clashes = clashes.buf;
	r->static_bytes = f.static_bytes;
	r->status = build_status_of(&f, &r->message);
	if (r->status == BUILD_OK) {
		struct strvec argv = STRVEC_INIT;
		p->lang->runner(env, p, pd->dir, pd->file, &r->runner, &argv);
		r->runner_argv = strvec_detach(&argv);
		r->runner_dir = xstrdup(pd->dir);
	}
	free(sigs);
	strbuf_release(&forbidden);
	strbuf_release(&clashes);
}

/* Start the commands of choices[*next...] until `jobs` run; returns how many started (their indexes in idx). */
static int start_batch(const struct build_env *env, const struct build_choice *choices, int n, int *next,
		       const char *submission_dir, struct build_result *results, struct pending *pd, int jobs, int *idx)
{
	int started = 0;
	while (*next < n && started < jobs) {
		struct strbuf err = STRBUF_INIT;
		int i = (*next)++;
		if (prepare(env, &choices[i], submission_dir, &results[i], &pd[i]) < 0)
			continue;
		pd[i].job.output = (struct strbuf)STRBUF_INIT;
		if (compile_start(&pd[i].job, &env->compile, pd[i].dir, pd[i].argv.v, &err) < 0) {
			results[i].status = BUILD_INTERNAL;
			results[i].message = strbuf_detach(&err);
			continue;
		}
		strbuf_release(&err);
		idx[started++] = i;
	}
	return started;
}

int build_all(const struct build_env *env, const struct build_choice *choices, int n, const char *submission_dir,
	      struct build_result *results, int jobs)
{
	struct pending *pd = xcalloc((size_t)n + 1, sizeof(*pd));
	int next = 0, ret = 0;

	if (jobs < 1)
		jobs = 1;
	if (jobs > MAX_JOBS)
		jobs = MAX_JOBS;
	for (int i = 0; i < n; i++)
		memset(&results[i], 0, sizeof(results[i]));
	while (next < n && !grader_interrupted) {
		struct compile_job batch[MAX_JOBS];
		int idx[MAX_JOBS], started = start_batch(env, choices, n, &next, submission_dir, results, pd, jobs, idx);
		for (int k = 0; k < started; k++)
			batch[k] = pd[idx[k]].job;
		compile_wait(batch, started, true);
		for (int k = 0; k < started; k++) {
			pd[idx[k]].job = batch[k];
			finish(env, choices[idx[k]].problem, &results[idx[k]], &pd[idx[k]]);
			compile_job_release(&pd[idx[k]].job);
		}
	}
	for (int i = next; i < n; i++) {
		results[i].problem = choices[i].problem;
		results[i].status = BUILD_INTERNAL;
		results[i].message = xstrdup("not built: interrupted");
	}
	for (int i = 0; i < n; i++) {
		strvec_clear(&pd[i].argv);
		free(pd[i].dir);
		free(pd[i].file);
		if (results[i].status == BUILD_INTERNAL)
			ret = -1;
	}
	free(pd);
	return ret;
}
