/*
 * deny-userns.c - run a command the way a container runtime would: new user
 * namespaces refused (Docker's default seccomp profile), or allowed but
 * crippled (Ubuntu 24.04's AppArmor restriction leaves such a namespace
 * without the rights to mount anything).  The filter is inherited by every
 * descendant, so a grader started below it meets the same refusal.
 *
 *   deny-userns [--crippled] COMMAND [ARG...]
 *
 *   default      clone() and unshare() with CLONE_NEWUSER fail with EPERM
 *   --crippled   user namespaces work, but mount() fails with EPERM
 *
 * clone3() fails with ENOSYS in both modes: its flags live in a structure a
 * seccomp filter cannot read, so runtimes refuse it and glibc falls back
 * to clone(), whose flags the filter can see.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	scmp_filter_ctx ctx;
	int first = 1, rc = 0;
	int crippled = argc > 1 && !strcmp(argv[1], "--crippled");

	if (crippled)
		first = 2;
	if (argc <= first) {
		fprintf(stderr, "usage: deny-userns [--crippled] COMMAND [ARG...]\n");
		return 2;
	}
	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx) {
		fprintf(stderr, "deny-userns: seccomp_init failed\n");
		return 2;
	}
	rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
	if (crippled) {
		rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(mount), 0);
	} else {
		rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
				       SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER));
		rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(unshare), 1,
				       SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER));
	}
	if (rc < 0 || seccomp_load(ctx) < 0) {
		fprintf(stderr, "deny-userns: cannot install the filter\n");
		seccomp_release(ctx);
		return 2;
	}
	seccomp_release(ctx);
	execvp(argv[first], argv + first);
	fprintf(stderr, "deny-userns: cannot run '%s': %s\n", argv[first], strerror(errno));
	return 127;
}
