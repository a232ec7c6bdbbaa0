/* landlock.c - see landlock.h */
#define _GNU_SOURCE
#include "sandbox/landlock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <linux/landlock.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* rights newer than the headers this may be built with (ABI 3 and 5) */
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif
/* ABI 4 (network) and ABI 6 (scopes): the rights, and the ruleset attribute as those ABIs read it */
#define LL_ACCESS_NET_BIND_TCP (1ULL << 0)
#define LL_ACCESS_NET_CONNECT_TCP (1ULL << 1)
#define LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define LL_SCOPE_SIGNAL (1ULL << 1)
struct ll_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net; /* ABI 4 */
	uint64_t scoped;             /* ABI 6 */
};

#define READ_ONLY (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
#define READ_EXEC (READ_ONLY | LANDLOCK_ACCESS_FS_EXECUTE)
#define READ_WRITE_FILE (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE)
/* the rights that make sense on a file (the kernel refuses directory rights there) */
#define FILE_RIGHTS (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE | \
		     LANDLOCK_ACCESS_FS_TRUNCATE | LANDLOCK_ACCESS_FS_IOCTL_DEV)
/* every right: the writable directory's (masked to what the ABI handles at install) */
#define ALL_FS_RIGHTS (~0ULL)
/* symbolic links from a granted directory back up the tree cannot send the expansion round for ever */
#define MAX_EXPANSION_DEPTH 16

/* The toolchain: programs, libraries, headers.  /etc only for the dynamic loader's cache. */
static const char *const toolchain_dirs[] = { "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
					      "/etc/ld.so.cache", "/dev/urandom", "/dev/zero", NULL };
/* A runner: the loader's cache, shared libraries (the Python standard library is below /usr/lib), the
 * time zone Python's time module reads at import */
static const char *const runner_dirs[] = { "/lib", "/lib32", "/lib64", "/libx32", "/usr/lib", "/usr/lib32",
					   "/usr/lib64", "/usr/libx32", "/etc/ld.so.cache", "/etc/localtime",
					   "/dev/urandom", NULL };
static const char *const devices[] = { "/dev/null", NULL }; /* read and written */

int landlock_abi(void)
{
	long abi;
	if (getenv("GRADER_NO_LANDLOCK"))
		return 0;
	abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
	return abi < 0 ? 0 : (int)abi;
}

static void plan_push(struct landlock_plan *plan, const char *path, unsigned long long rights)
{
	if (plan->n == plan->alloc) {
		plan->alloc = plan->alloc ? 2 * plan->alloc : 32;
		plan->rules = xrealloc(plan->rules, plan->alloc * sizeof(*plan->rules));
	}
	plan->rules[plan->n].path = xstrdup(path);
	plan->rules[plan->n].rights = rights;
	plan->n++;
}

/* Is `inner` strictly below `dir` (both real paths)? */
static bool strictly_below(const char *inner, const char *dir)
{
	size_t n = strlen(dir);
	if (!strcmp(dir, "/"))
		return inner[0] == '/' && inner[1] != '\0';
	return !strncmp(inner, dir, n) && inner[n] == '/';
}

/*
 * Grant rights beneath path, cut around the hidden directories: a path that
 * is hidden is left out, one that holds a hidden directory is granted entry
 * by entry.  A path that does not exist is skipped.  0, or -1 (err says).
 */
static int grant(struct landlock_plan *plan, const char *path, unsigned long long rights, const char *const *hidden,
		 int depth, struct strbuf *err)
{
	char *real = realpath(path, NULL);
	bool covers = false;
	DIR *dir = NULL;
	struct dirent *de;
	int ret = 0;

	if (!real)
		return 0;
	for (int i = 0; hidden && hidden[i]; i++) {
		if (!strcmp(hidden[i], real))
			goto cleanup;
		covers |= strictly_below(hidden[i], real);
	}
	if (!covers) {
		plan_push(plan, real, rights);
		goto cleanup;
	}
	if (depth >= MAX_EXPANSION_DEPTH || !(dir = opendir(real))) {
		strbuf_addf(err, "cannot keep '%s' out of the sandbox's view: %s", real,
			    dir ? "the directories nest too deep" : strerror(errno));
		ret = -1;
		goto cleanup;
	}
	while (ret == 0 && (de = readdir(dir))) {
		struct stat st;
		char *entry;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		entry = xasprintf("%s/%s", strcmp(real, "/") ? real : "", de->d_name);
		/* a symbolic link in a granted directory leads where the directory's own rule would not have
		 * granted: left out, or a link next to a hidden directory (to /tmp, to /) would widen the view */
		if (lstat(entry, &st) == 0 && !S_ISLNK(st.st_mode))
			ret = grant(plan, entry, rights, hidden, depth + 1, err);
		free(entry);
	}
cleanup:
	if (dir)
		closedir(dir);
	free(real);
	return ret;
}

static int grant_all(struct landlock_plan *plan, const char *const *paths, unsigned long long rights,
		     const char *const *hidden, struct strbuf *err)
{
	for (int i = 0; paths && paths[i]; i++)
		if (grant(plan, paths[i], rights, hidden, 0, err) < 0)
			return -1;
	return 0;
}

/*
 * The dynamic loader's path as the grader itself was started with it (the
 * runners are built by the same toolchain, so their PT_INTERP names the
 * same file): the object mapped at the auxiliary vector's AT_BASE.  NULL
 * for a static grader.
 */
static int find_loader(struct dl_phdr_info *info, size_t size, void *data)
{
	const char **path = data;
	(void)size;
	if (info->dlpi_addr == (ElfW(Addr))getauxval(AT_BASE) && info->dlpi_name && info->dlpi_name[0] == '/') {
		*path = info->dlpi_name;
		return 1;
	}
	return 0;
}

static const char *loader_path(void)
{
	static const char *path;
	static bool looked;
	if (!looked) {
		looked = true;
		if (getauxval(AT_BASE))
			dl_iterate_phdr(find_loader, &path);
	}
	return path;
}

int landlock_plan_build(struct landlock_plan *plan, const struct landlock_view *view, struct strbuf *err)
{
	bool runner = view->base == LANDLOCK_RUNNER;

	if (grant_all(plan, runner ? runner_dirs : toolchain_dirs, runner ? READ_ONLY : READ_EXEC, view->hidden, err) < 0 ||
	    grant_all(plan, devices, READ_WRITE_FILE, view->hidden, err) < 0 ||
	    /* the toolchain runs what it is given to read (the Python host's syntax check) */
	    grant_all(plan, view->readable, runner ? READ_ONLY : READ_EXEC, view->hidden, err) < 0 ||
	    grant_all(plan, view->executable, LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE, view->hidden,
		      err) < 0)
		return -1;
	/* a runner's execve runs its PT_INTERP too, which the kernel opens for execution */
	if (runner && loader_path() &&
	    grant(plan, loader_path(), LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE, view->hidden, 0, err) < 0)
		return -1;
	if (view->writable && grant(plan, view->writable, ALL_FS_RIGHTS, view->hidden, 0, err) < 0)
		return -1;
	return 0;
}

void landlock_plan_release(struct landlock_plan *plan)
{
	for (size_t i = 0; i < plan->n; i++)
		free(plan->rules[i].path);
	free(plan->rules);
	plan->rules = NULL;
	plan->n = plan->alloc = 0;
}

/* Every file-system right this ABI knows: all of them are handled, so all are denied unless granted. */
static unsigned long long handled_rights(int abi)
{
	unsigned long long all = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE |
				 LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR |
				 LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
				 LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
				 LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |
				 LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM;
	if (abi >= 2)
		all |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		all |= LANDLOCK_ACCESS_FS_TRUNCATE;
	if (abi >= 5)
		all |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
	return all;
}

/* One rule (rights within handled); a path that does not exist is skipped.  0 or -1. */
static int add_rule(int ruleset, const struct landlock_rule *rule, unsigned long long handled)
{
	struct landlock_path_beneath_attr pb;
	struct stat st;
	int ret;

	pb.parent_fd = open(rule->path, O_PATH | O_CLOEXEC);
	if (pb.parent_fd < 0)
		return errno == ENOENT ? 0 : -1;
	pb.allowed_access = rule->rights & handled;
	if (fstat(pb.parent_fd, &st) == 0 && !S_ISDIR(st.st_mode))
		pb.allowed_access &= FILE_RIGHTS;
	ret = pb.allowed_access ? (int)syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) : 0;
	close(pb.parent_fd);
	return ret;
}

int landlock_restrict(const struct landlock_plan *plan, int abi)
{
	struct ll_ruleset_attr attr = { .handled_access_fs = handled_rights(abi) };
	size_t size = sizeof(attr.handled_access_fs);
	int fd, ret = -1;

	/* no rule grants a port or a scope: handling them denies them */
	if (abi >= 4) {
		attr.handled_access_net = LL_ACCESS_NET_BIND_TCP | LL_ACCESS_NET_CONNECT_TCP;
		size = offsetof(struct ll_ruleset_attr, scoped);
	}
	if (abi >= 6) {
		attr.scoped = LL_SCOPE_ABSTRACT_UNIX_SOCKET | LL_SCOPE_SIGNAL;
		size = sizeof(attr);
	}
	fd = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
	if (fd < 0)
		return -1;
	for (size_t i = 0; i < plan->n; i++)
		if (add_rule(fd, &plan->rules[i], attr.handled_access_fs) < 0)
			goto cleanup;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		goto cleanup;
	ret = (int)syscall(SYS_landlock_restrict_self, fd, 0);
cleanup:
	close(fd);
	return ret;
}
