/* build.c - see build.h */
#define _GNU_SOURCE
#include "build.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "embed.h"
#include "interrupt.h"
#include "sandbox.h"
#include "stub.h"

#define MAX_SOURCE_BYTES (1u << 20)
#define COMPILER_OUTPUT_CAP (64u << 10)

static char *const compiler_env[] = { "PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C", "TMPDIR=.", NULL };

static const char *find_cc(const struct build_env *env)
{
	return env->cc ? env->cc : "gcc";
}

/* Resolve the compiler to an absolute path (the sandbox execs without a PATH search). */
static char *cc_path(const char *cc)
{
	static const char *const dirs[] = { "/usr/local/bin", "/usr/bin", "/bin", NULL };
	if (strchr(cc, '/'))
		return xstrdup(cc);
	for (int i = 0; dirs[i]; i++) {
		char *p = xasprintf("%s/%s", dirs[i], cc);
		if (!access(p, X_OK))
			return p;
		free(p);
	}
	return xstrdup(cc);
}

/* Let the sandboxed compiler (nobody, when we are root) write in dir. */
static int give_to_sandbox(const char *dir)
{
	const struct sandbox_caps *c = sandbox_probe();
	if (c->drop_uid && chown(dir, c->uid, c->gid) < 0)
		return -1;
	return 0;
}

struct job {
	pid_t pid;
	int out_fd;
	struct strbuf output;
	uint64_t started, deadline;
	int status;
	bool timed_out, interrupted, running;
};

/* Start cc with args in dir; output (stdout+stderr) is collected by run_jobs. */
static int start_job(struct job *job, const struct build_env *env, const char *dir,
		     char *const *argv, struct strbuf *err)
{
	int pipefd[2];
	struct sandbox_spawn s;
	char *path = cc_path(find_cc(env));

	memset(&s, 0, sizeof(s));
	memset(job, 0, sizeof(*job));
	job->output = (struct strbuf)STRBUF_INIT;
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		free(path);
		strbuf_addf(err, "cannot create a pipe: %s", strerror(errno));
		return -1;
	}
	s.path = path;
	s.argv = argv;
	s.workdir = dir;
	s.fds[0] = -1;
	s.fds[1] = pipefd[1];
	s.fds[2] = pipefd[1];
	s.nfds = 3;
	s.limits.address_space = 4ull << 30;
	s.limits.file_size = 256ull << 20;
	s.limits.cpu_seconds = env->compile_cpu_s;
	s.hide_paths = env->hide_paths;
	s.use_namespaces = true;
	s.envp = compiler_env;
	job->pid = sandbox_spawn(&s, err);
	free(path);
	close(pipefd[1]);
	if (job->pid < 0) {
		close(pipefd[0]);
		return -1;
	}
	job->out_fd = pipefd[0];
	job->running = true;
	job->started = now_us();
	job->deadline = job->started + (uint64_t)env->compile_wall_ms * 1000u;
	return 0;
}

/*
 * Wait for the running jobs: read their output (capped), enforce the wall
 * limit.  interruptible: Ctrl-C kills them (submissions; the runtime's own
 * short compile is let finish, so that the engine starts cleanly and then
 * stops where it cleans up).
 */
static void run_jobs(struct job *jobs, int n, bool interruptible)
{
	for (;;) {
		struct pollfd p[64];
		int map[64], np = 0, running = 0, timeout = 50;
		uint64_t now = now_us();

		for (int i = 0; i < n && i < 64; i++) {
			struct job *j = &jobs[i];
			if (!j->running)
				continue;
			running++;
			if (now >= j->deadline && !j->timed_out) {
				j->timed_out = true;
				sandbox_kill(j->pid);
			}
			/* Ctrl-C: a compiler bomb must not keep the grader for its whole time limit */
			if (interruptible && grader_interrupted && !j->interrupted) {
				j->interrupted = true;
				sandbox_kill(j->pid);
			}
			if (j->out_fd >= 0) {
				p[np] = (struct pollfd){ j->out_fd, POLLIN, 0 };
				map[np++] = i;
			}
		}
		if (!running)
			return;
		if (np == 0)
			timeout = 2; /* outputs closed: the compiler is exiting */
		if (poll(p, (nfds_t)np, timeout) < 0 && errno != EINTR)
			return;
		for (int k = 0; k < np; k++) {
			struct job *j = &jobs[map[k]];
			char buf[8192];
			ssize_t r;
			if (!p[k].revents)
				continue;
			r = read(j->out_fd, buf, sizeof(buf));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				close(j->out_fd);
				j->out_fd = -1;
			} else if (j->output.len < COMPILER_OUTPUT_CAP) {
				strbuf_add(&j->output, buf, (size_t)r);
			}
		}
		for (int i = 0; i < n; i++) {
			struct job *j = &jobs[i];
			if (j->running && j->out_fd < 0 && waitpid(j->pid, &j->status, WNOHANG) == j->pid)
				j->running = false;
		}
	}
}

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int ret;
	if (fd < 0)
		return -1;
	ret = write_all(fd, text, strlen(text));
	if (close(fd) < 0)
		ret = -1;
	return ret;
}

int build_env_init(struct build_env *env, const char *scratch, struct strbuf *err)
{
	char *argv[] = { NULL, "-std=gnu11", "-O2", "-pipe", "-fno-stack-protector", "-c", "runtime.c",
			 "-o", "runtime.o", NULL };
	char *proto = NULL, *rt = NULL, *cc = NULL;
	struct job job;
	int ret = -1;

	memset(&job, 0, sizeof(job));
	job.output = (struct strbuf)STRBUF_INIT;
	if (!env->compile_cpu_s)
		env->compile_cpu_s = 20;
	if (!env->compile_wall_ms)
		env->compile_wall_ms = 30000;
	env->scratch = xstrdup(scratch);
	env->runtime_dir = xasprintf("%s/runtime", scratch);
	proto = xasprintf("%s/protocol.h", env->runtime_dir);
	rt = xasprintf("%s/runtime.c", env->runtime_dir);
	if (mkdir(env->runtime_dir, 0755) < 0 || give_to_sandbox(env->runtime_dir) < 0 ||
	    write_text(proto, embed_protocol_h) < 0 || write_text(rt, embed_runtime_c) < 0) {
		strbuf_addf(err, "cannot prepare '%s': %s", env->runtime_dir, strerror(errno));
		goto cleanup;
	}
	cc = xstrdup(find_cc(env));
	argv[0] = cc;
	if (start_job(&job, env, env->runtime_dir, argv, err) < 0)
		goto cleanup;
	run_jobs(&job, 1, false);
	if (job.timed_out || !WIFEXITED(job.status) || WEXITSTATUS(job.status)) {
		strbuf_addf(err, "cannot compile the runner runtime with '%s':\n%s", cc, job.output.buf);
		goto cleanup;
	}
	ret = 0;
cleanup:
	strbuf_release(&job.output);
	free(proto);
	free(rt);
	free(cc);
	return ret;
}

void build_env_release(struct build_env *env)
{
	free(env->scratch);
	free(env->runtime_dir);
	env->scratch = env->runtime_dir = NULL;
}

void build_result_release(struct build_result *r)
{
	free(r->runner);
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

/* Copy a regular file (never through a symlink), at most MAX_SOURCE_BYTES. */
static int copy_source(const char *from, const char *to, struct strbuf *msg)
{
	int in = open(from, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	struct strbuf content = STRBUF_INIT;
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
	if (read_file(&content, from) < 0 || write_file_atomic(to, content.buf, content.len) < 0) {
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
static int inspect_elf(const char *path, const char *runtime_o, unsigned long long *memsz,
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

struct pending {
	int index;
	char *dir;
	char *argv_store[24];
	struct job job;
};

/* Copy the source, write the stub; on success fills pending->argv_store. */
static int prepare(const struct build_env *env, const struct problem *p, const char *submission_dir,
		   struct build_result *r, struct pending *pd, int index)
{
	struct strbuf sb = STRBUF_INIT, msg = STRBUF_INIT;
	char *from = NULL, *to = NULL, *path = NULL;
	int ret = -1, a = 0;

	pd->index = index;
	pd->dir = xasprintf("%s/build-%s", env->scratch, p->id);
	r->source = build_find_source(submission_dir, p->source);
	if (!r->source) {
		struct build_facts f;
		memset(&f, 0, sizeof(f));
		f.missing = true;
		f.source = p->source;
		r->status = verdict_of_build(&f, &r->message);
		goto cleanup;
	}
	if (mkdir(pd->dir, 0755) < 0 || give_to_sandbox(pd->dir) < 0) {
		r->status = BUILD_INTERNAL;
		r->message = xasprintf("cannot create '%s': %s", pd->dir, strerror(errno));
		goto cleanup;
	}
	from = xasprintf("%s/%s", submission_dir, r->source);
	to = xasprintf("%s/%s", pd->dir, p->source);
	if (copy_source(from, to, &msg) < 0) {
		struct build_facts f;
		memset(&f, 0, sizeof(f));
		f.source = r->source;
		f.copy_error = msg.buf;
		r->status = verdict_of_build(&f, &r->message);
		goto cleanup;
	}
	stub_generate(&sb, p);
	path = xasprintf("%s/grader_stub.c", pd->dir);
	if (write_text(path, sb.buf) < 0)
		goto internal;
	free(path);
	strbuf_reset(&sb);
	stub_declarations(&sb, p);
	path = xasprintf("%s/grader_decls.h", pd->dir);
	if (write_text(path, sb.buf) < 0)
		goto internal;

	pd->argv_store[a++] = xstrdup(find_cc(env));
	pd->argv_store[a++] = xstrdup("-std=gnu17");
	pd->argv_store[a++] = xstrdup("-O2");
	pd->argv_store[a++] = xstrdup("-pipe");
	pd->argv_store[a++] = xstrdup("-fmax-errors=20");
	pd->argv_store[a++] = xasprintf("-I%s", env->runtime_dir);
	pd->argv_store[a++] = xstrdup("-include");
	pd->argv_store[a++] = xstrdup("grader_decls.h");
	pd->argv_store[a++] = xstrdup("-D" "main=" STUB_RENAMED_MAIN);
	pd->argv_store[a++] = xasprintf("%s/runtime.o", env->runtime_dir);
	pd->argv_store[a++] = xstrdup(p->source);
	pd->argv_store[a++] = xstrdup("grader_stub.c");
	pd->argv_store[a++] = xstrdup("-o");
	pd->argv_store[a++] = xstrdup("runner");
	pd->argv_store[a++] = xstrdup("-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc");
	pd->argv_store[a++] = xstrdup("-lm");
	pd->argv_store[a] = NULL;
	ret = 0;
	goto cleanup;
internal:
	r->status = BUILD_INTERNAL;
	r->message = xasprintf("cannot write the stub in '%s': %s", pd->dir, strerror(errno));
cleanup:
	strbuf_release(&sb);
	strbuf_release(&msg);
	free(from);
	free(to);
	free(path);
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

/* The compiler has finished: gather what it and the ELF inspection found, and let verdict.c decide. */
static void finish(const struct build_env *env, const struct problem *p, struct build_result *r,
		   struct pending *pd)
{
	struct strbuf forbidden = STRBUF_INIT, clashes = STRBUF_INIT;
	char *runner = xasprintf("%s/runner", pd->dir);
	char *runtime_o = xasprintf("%s/runtime.o", env->runtime_dir);
	char *sigs = signatures(p);
	struct job *j = &pd->job;
	struct build_facts f;

	memset(&f, 0, sizeof(f));
	r->compile_ms = (unsigned)((now_us() - j->started) / 1000);
	f.source = r->source;
	f.interrupted = j->interrupted;
	f.timed_out = j->timed_out;
	f.status = j->status;
	f.output = j->output.buf;
	f.cpu_limit_s = env->compile_cpu_s;
	f.wall_limit_ms = env->compile_wall_ms;
	f.signatures = sigs;
	f.memory_limit_bytes = (unsigned long long)problem_max_memory_mb(p) << 20;
	if (!f.interrupted && !f.timed_out && WIFEXITED(j->status) && !WEXITSTATUS(j->status))
		f.inspected = inspect_elf(runner, runtime_o, &f.static_bytes, &forbidden, &clashes) == 0;
	f.forbidden = forbidden.buf;
	f.clashes = clashes.buf;
	r->static_bytes = f.static_bytes;
	r->status = verdict_of_build(&f, &r->message);
	if (r->status == BUILD_OK) {
		r->runner = runner;
		runner = NULL;
	}
	free(runner);
	free(runtime_o);
	free(sigs);
	strbuf_release(&forbidden);
	strbuf_release(&clashes);
}

int build_all(const struct build_env *env, struct problem *const *probs, int nprobs,
	      const char *submission_dir, struct build_result *results, int jobs)
{
	struct pending *pd = xcalloc((size_t)nprobs + 1, sizeof(*pd));
	int next = 0, ret = 0;

	if (jobs < 1)
		jobs = 1;
	if (jobs > 64)
		jobs = 64;
	for (int i = 0; i < nprobs; i++)
		memset(&results[i], 0, sizeof(results[i]));
	while (next < nprobs && !grader_interrupted) {
		struct job batch[64];
		int idx[64], n = 0;
		while (next < nprobs && n < jobs) {
			struct strbuf err = STRBUF_INIT;
			int i = next++;
			if (prepare(env, probs[i], submission_dir, &results[i], &pd[i], i) < 0)
				continue;
			if (start_job(&pd[i].job, env, pd[i].dir, pd[i].argv_store, &err) < 0) {
				results[i].status = BUILD_INTERNAL;
				results[i].message = strbuf_detach(&err);
				ret = -1;
				continue;
			}
			strbuf_release(&err);
			idx[n] = i;
			batch[n++] = pd[i].job;
		}
		if (!n)
			continue;
		run_jobs(batch, n, true);
		for (int k = 0; k < n; k++) {
			pd[idx[k]].job = batch[k];
			finish(env, probs[idx[k]], &results[idx[k]], &pd[idx[k]]);
			strbuf_release(&pd[idx[k]].job.output);
		}
	}
	for (int i = next; i < nprobs; i++) {
		results[i].status = BUILD_INTERNAL;
		results[i].message = xstrdup("not built: interrupted");
	}
	for (int i = 0; i < nprobs; i++) {
		for (int a = 0; pd[i].argv_store[a]; a++)
			free(pd[i].argv_store[a]);
		free(pd[i].dir);
		if (results[i].status == BUILD_INTERNAL)
			ret = -1;
	}
	free(pd);
	return ret;
}
