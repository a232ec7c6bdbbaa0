/* verdict.c - see verdict.h */
#define _GNU_SOURCE
#include "judge/verdict.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "sandbox/filter.h"
#include "sandbox/sandbox.h"
#include "base/text.h"
#include "base/l10n.h"

/* ticks of /proc CPU time are coarse (10 ms): the grader's own count gets this much slack */
#define GRADER_CPU_SLACK_MS 100

void judgement_release(struct judgement *j)
{
	free(j->message);
	j->message = NULL;
}

static void decide_message(struct judgement *j, enum verdict v, char *message)
{
	j->verdict = v;
	free(j->message);
	j->message = message;
}

/* message: an expression making the message (evaluated again in the students' language: l10n.h) */
#define decide(j, v, message) decide_message(j, v, L10N(message))

/* "SIGSEGV": a signal's name, for messages in any language; a static buffer. */
static const char *signal_name(int sig)
{
	static char name[32];
	const char *abbrev = sigabbrev_np(sig);
	if (abbrev)
		snprintf(name, sizeof(name), "SIG%s", abbrev);
	else
		snprintf(name, sizeof(name), "signal %d", sig);
	return name;
}

static const char *signal_words(int sig)
{
	switch (sig) {
	case SIGSEGV:
		return _("SIGSEGV: segmentation fault - an invalid memory access (a bad pointer, an index out of "
		       "bounds, or a stack overflow from too deep recursion)");
	case SIGBUS:
		return _("SIGBUS: bus error - an invalid memory access");
	case SIGFPE:
		return _("SIGFPE: arithmetic error - probably a division by zero");
	case SIGABRT:
		return _("SIGABRT: aborted - abort() or a failed assert()");
	case SIGILL:
		return _("SIGILL: illegal instruction");
	case SIGKILL:
		return _("SIGKILL: killed");
	case SIGPIPE:
		return _("SIGPIPE: wrote to a closed pipe");
	case SIGSYS:
		return _("SIGSYS: a forbidden system call");
	default:
		return signal_name(sig); /* SIGUSR1, ...: a name, the same in every language (strsignal's words are English) */
	}
}

/* The signal that stopped a program, as its raiser wrote it. */
static const char *stop_signal_name(int sig)
{
	switch (sig) {
	case SIGSTOP:
		return _("SIGSTOP: raise(SIGSTOP) or kill(getpid(), SIGSTOP)?");
	case SIGTSTP:
		return "SIGTSTP";
	case SIGTTIN:
		return "SIGTTIN";
	case SIGTTOU:
		return "SIGTTOU";
	default:
		return _("a stop signal");
	}
}

/*
 * The wall-clock limit is charged only with the time the test could run
 * (runner.c gives back the time it waited for a CPU), so a program that
 * reaches it slept, waited, stopped - or ran that long without using its CPU.
 */
static char *wall_limit_message(const struct run_task *t)
{
	const struct run_facts *f = &t->facts;
	if (!f->child_known)
		return xasprintf(_("no answer within the wall-clock limit of %u ms: the program was sleeping, "
				 "waiting or stopped"), t->wall_ms);
	if (f->child_state == 'T' || f->child_state == 't')
		return xasprintf(_("no answer within the wall-clock limit of %u ms: the program was stopped "
				 "(SIGSTOP on itself?) after %u ms of CPU time"), t->wall_ms, f->child_cpu_ms);
	if (f->child_state == 'R')
		return xasprintf(_("no answer within the wall-clock limit of %u ms: the program was running, but got "
				 "only %u ms of CPU time (limit %u ms) in that time"), t->wall_ms, f->child_cpu_ms, t->cpu_ms);
	return xasprintf(_("no answer within the wall-clock limit of %u ms: the program was sleeping or waiting "
			 "(sleep(), pause()?) after %u ms of CPU time"), t->wall_ms, f->child_cpu_ms);
}

/* A test (or its program's start) the machine starved: it waited for a CPU beyond the bound (runner.c). */
static char *starved_message(const struct run_task *t, const char *what, unsigned limit_ms)
{
	const struct run_facts *f = &t->facts;
	return xasprintf(_("the machine was too busy to judge this test: %s waited %u ms of %u ms for a CPU, and had "
			 "less than its wall-clock limit of %u ms to run (the grader gives back waiting time up to "
			 "%u x that limit); not your program's fault - grade again when the machine is less loaded"),
			 what, f->run_delay_ms, f->wall_ms, limit_ms, RUN_STARVED_WALL_FACTOR);
}

/* What a call that is allowed on some arguments only was refused for, in the student's terms. */
static const char *forbidden_detail(const char *name)
{
	/* without a PID namespace the zygote's filter cannot let a test signal itself (filter.c); the runtime
	 * plays such a signal only when it would have ended the test (runtime.c gr_self_signal) */
	if (!sandbox_probe()->namespaces && (!strcmp(name, "tgkill") || !strcmp(name, "kill") || !strcmp(name, "tkill")))
		return _("; in this sandbox a program may send a signal only to itself, and only one that ends it "
		       "(abort(), a failed assert(), raise(SIGTERM)), not one it handles, ignores or blocks");
	if (!strcmp(name, "mmap") || !strcmp(name, "mprotect"))
		return _("; here, memory may not be made executable (PROT_EXEC)");
	if (!strcmp(name, "mremap"))
		return _("; here, memory may not be moved to a fixed address (MREMAP_FIXED)");
	if (!strcmp(name, "rt_sigaction"))
		return _("; the handlers of SIGSEGV, SIGBUS and SIGSYS belong to the grader");
	return "";
}

static char *forbidden_message(int syscall_nr)
{
	const char *name = filter_syscall_name(syscall_nr);
	return xasprintf(_("your code made the system call '%s', which is not allowed while grading (no files, "
			 "processes, signals or network)%s"), name, forbidden_detail(name));
}

/* "about 4 million", "about 87,000", "about 950": a depth as a person says it. */
static void add_about(struct strbuf *sb, long long n)
{
	if (n >= 10000000)
		strbuf_addf(sb, _("about %lld million"), (n + 500000) / 1000000);
	else if (n >= 1000000) {
		/* whole millions and tenths as two numbers, not one %.1f: a language that counts in other
		 * units can place them (Korean "about 2.4 million" is 약 240만, not 약 2.4백만) */
		long long tenths = (n + 50000) / 100000;
		/* TRANSLATORS: "about 2.4 million": the whole millions, then the tenths (Korean: 약 %lld%lld0만) */
		strbuf_addf(sb, _("about %lld.%lld million"), tenths / 10, tenths % 10);
	}
	else if (n >= 10000)
		strbuf_addf(sb, _("about %lld,000"), (n + 500) / 1000);
	else if (n >= 1000)
		strbuf_addf(sb, _("about %lld,%03lld"), n / 1000, (n / 10 % 100) * 10);
	else
		strbuf_addf(sb, _("about %lld"), n);
}

/*
 * The case child faulted at its stack pointer near the end of its stack (the
 * runtime's fault handler said so, with the depth it estimated from the
 * period of the frames).
 */
static char *stack_overflow_message(const struct run_task *t, const struct gr_report *r)
{
	struct strbuf m = STRBUF_INIT;
	strbuf_addstr(&m, _("stack overflow: the recursion went "));
	if (r->answer > 0) {
		add_about(&m, (long long)r->answer);
		strbuf_addstr(&m, _(" calls deep"));
	} else
		strbuf_addstr(&m, _("too deep"));
	strbuf_addf(&m, _(" and used %llu MiB of stack (the stack is %u MiB, the memory limit): a missing base case? "
		    "If the input really needs that depth, use a loop and a table instead"),
		    (unsigned long long)(r->nomem_bytes >> 20), t->memory_mb);
	return strbuf_detach(&m);
}

/*
 * One behaviour, one verdict: an endless recursion fills its stack (the
 * memory limit) in a few hundred ms of CPU, about as long as many a CPU
 * limit, so which limit it meets first depends on the machine's speed.  A
 * test stopped at the CPU limit whose stack was still growing and held at
 * least STACK_RUNAWAY_SHARE of the stack limit is judged by what it did:
 * a recursion on its way to the stack's end, the verdict it gets when it
 * reaches it (run-error, stack overflow).  A legitimate recursion that is
 * merely slow is either shallow (exponential ones) or done deepening by
 * then (memoised ones fill their table on the way down).
 */
#define STACK_RUNAWAY_SHARE 4 /* 1/4 */

static bool recursing_away(const struct run_task *t)
{
	const struct run_facts *f = &t->facts;
	return f->stack_growing && (unsigned long long)f->stack_kb * STACK_RUNAWAY_SHARE >= (unsigned long long)t->memory_mb << 10;
}

static char *runaway_recursion_message(const struct run_task *t)
{
	return xasprintf(_("stack overflow: the recursion was still going deeper, %u MiB of stack used of %u MiB (the "
			 "memory limit), when the test reached its CPU limit of %u ms: a missing base case? If the "
			 "input really needs that depth, use a loop and a table instead"),
			 t->facts.stack_kb >> 10, t->memory_mb, t->cpu_ms);
}

/*
 * The array parameter the runtime's argument position stands for (arguments
 * are the inputs in order: lengths are filled in, not sent), and the length
 * parameter after it.  NULL when the position is not an array's: the record
 * is the student's process speaking.
 */
static const struct param *array_param(const struct signature *sig, uint32_t arg, const struct param **length)
{
	uint32_t input = 0;
	for (int i = 0; i < sig->nparams; i++) {
		if (sig->params[i].is_length)
			continue;
		if (input++ != arg)
			continue;
		if (!value_type_is_array(sig->params[i].type) || i + 1 >= sig->nparams || !sig->params[i + 1].is_length)
			return NULL;
		*length = &sig->params[i + 1];
		return &sig->params[i];
	}
	return NULL;
}

/*
 * The case child faulted on the guard page after an array argument (the
 * runtime's fault handler said which element of which array): "read L[5],
 * one past the end of L (n = 5: its indexes are 0 to 4)".  NULL when the
 * record names no array parameter: the crash is then worded as any other.
 */
static char *out_of_bounds_message(const struct gr_report *r, const struct signature *sig)
{
	uint32_t arg = (uint32_t)r->syscall_nr & ~GR_BOUNDS_WRITE;
	bool wrote = (uint32_t)r->syscall_nr & GR_BOUNDS_WRITE;
	const struct param *length = NULL, *array = array_param(sig, arg, &length);
	long long index = (long long)r->answer;
	unsigned long long len = (unsigned long long)r->nomem_bytes;
	bool one_past = (unsigned long long)index == len;
	struct strbuf m = STRBUF_INIT;

	if (!array)
		return NULL;
	if (len == 0)
		return xasprintf(wrote ? _("your code wrote %s[%lld], but %s is empty (%s = 0): check for no elements "
					   "before using one")
				       : _("your code read %s[%lld], but %s is empty (%s = 0): check for no elements "
					   "before using one"),
				 array->name, index, array->name, length->name);
	/* TRANSLATORS: "your code read L[5], one past the end of L"; then " (n = 5: its indexes are 0 to 4)" */
	if (one_past)
		strbuf_addf(&m, wrote ? _("your code wrote %s[%lld], one past the end of %s")
				      : _("your code read %s[%lld], one past the end of %s"), array->name, index, array->name);
	else
		strbuf_addf(&m, wrote ? _("your code wrote %s[%lld], past the end of %s")
				      : _("your code read %s[%lld], past the end of %s"), array->name, index, array->name);
	if (len == 1)
		strbuf_addf(&m, _(" (%s = %llu: its only index is %llu)"), length->name, len, len - 1);
	else
		strbuf_addf(&m, _(" (%s = %llu: its indexes are 0 to %llu)"), length->name, len, len - 1);
	if (one_past)
		strbuf_addstr(&m, _(": an off-by-one in a loop bound or an index?"));
	return strbuf_detach(&m);
}

/*
 * A graded test runs on past its CPU limit, to its cap (runner.h
 * cpu_cap_ms), so that a run far past the limit needs no second run
 * (remeasure.h).  What it did after the limit - an answer, a crash, an
 * allocation that failed - is what the limit would have cut off: the
 * verdict is the time limit, as when it is stopped at the limit itself.
 * Only a stack's end is judged by what it did (recursing_away), and a
 * forbidden call stays forbidden.
 */
static bool past_limit(const struct judgement *j, const struct run_task *t)
{
	return t->cpu_cap_ms > t->cpu_ms && j->cpu_ms > t->cpu_ms;
}

static char *cpu_limit_message(const struct run_task *t)
{
	return xasprintf(_("used more than the CPU time limit of %u ms"), t->cpu_ms);
}

/* Was the case child stopped by its CPU limit: killed by the runtime's CPU timer there, or SIGXCPU? */
static bool cpu_timer_stopped(const struct judgement *j, const struct run_task *t, int sig)
{
	return (sig == SIGKILL && j->cpu_ms + RUN_CPU_TIMER_SLACK_MS >= t->cpu_ms) || sig == SIGXCPU;
}

/* A case child killed by a signal. */
static void judge_signal(struct judgement *j, const struct run_task *t, const struct signature *fn, int sig)
{
	const struct gr_report *r = &t->facts.report;
	unsigned long long mem_kb = (unsigned long long)t->memory_mb << 10;
	/* past the limit, an index out of bounds is what the limit would have cut off (past_limit) */
	char *bounds = sig == SIGSEGV && (r->flags & GR_OUT_OF_BOUNDS) && !past_limit(j, t)
			       ? L10N(out_of_bounds_message(r, fn)) : NULL;

	if (bounds)
		decide_message(j, V_RUN_ERROR, bounds);
	else if ((sig == SIGSEGV || sig == SIGBUS) && (r->flags & GR_STACK_OVERFLOW))
		decide(j, V_RUN_ERROR, stack_overflow_message(t, r));
	else if (cpu_timer_stopped(j, t, sig) && recursing_away(t))
		decide(j, V_RUN_ERROR, runaway_recursion_message(t));
	else if (cpu_timer_stopped(j, t, sig) || (past_limit(j, t) && sig != SIGSYS))
		decide(j, V_TIMELIMIT, cpu_limit_message(t));
	else if ((sig == SIGSEGV || sig == SIGBUS || sig == SIGABRT || sig == SIGKILL) && r->maxrss_kb * 10 >= mem_kb * 9)
		decide(j, V_MEMORY_LIMIT, xasprintf(_("crashed (%s) after using %llu MiB, at the memory limit of %u MiB"),
						    signal_name(sig), (unsigned long long)r->maxrss_kb >> 10, t->memory_mb));
	else if (sig == SIGSYS)
		/* no report from the trap's handler: SIGSYS was blocked, or the filter killed a foreign ABI's call */
		decide(j, V_FORBIDDEN, xstrdup(_("your code made a system call that is not allowed while grading "
					       "(no files, processes, threads, signals or network); which one is "
					       "unknown: it came with signals blocked, as in system(), popen() "
					       "and pthread_create(), or through a 32-bit system call entry")));
	else
		decide(j, V_RUN_ERROR, xasprintf(_("crashed with %s"), signal_words(sig)));
}

/*
 * The Python runtime's own sentences inside an exception's text, in the report's language: the
 * import it refused and the frames it left out of a traceback (grader/runtime/pyhost.c writes them
 * in English: it runs in the sandbox, without the catalogue).  Matched here word for word, so a
 * change of wording there needs one here (tests/i18n grades both cases in Korean).  The rest - the
 * exception's type and Python's message, the student's frames - stays as it is.  Outside a
 * translation, or when neither sentence is there: detail itself; else a remembered translation.
 */
#define RUNTIME_IMPORT_HEAD "' cannot be imported while grading: only the standard library modules loaded before the tests can ("
#define RUNTIME_IMPORT_TAIL " and a few more; see the student guide)"
#define RUNTIME_DROPPED_HEAD "\n  ... ("
#define RUNTIME_DROPPED_TAIL " earlier calls of your code)"

static const char *runtime_words(const char *detail)
{
	struct strbuf sb = STRBUF_INIT;
	const char *s = detail;
	char *copy;

	if (!l10n_speaking() || (!strstr(detail, RUNTIME_IMPORT_HEAD) && !strstr(detail, RUNTIME_DROPPED_TAIL)))
		return detail;
	while (*s) {
		const char *head = strstr(s, RUNTIME_IMPORT_HEAD), *name = NULL, *tail = NULL;
		const char *drop = strstr(s, RUNTIME_DROPPED_HEAD);
		long dropped;
		int used = 0;

		/* "module 'NAME' cannot be imported ... (LIST and a few more; see the student guide)" */
		if (head && (!drop || head < drop) && (tail = strstr(head, RUNTIME_IMPORT_TAIL))) {
			for (const char *q = head; q - s >= 8 && !name; q--)
				if (!strncmp(q - 8, "module '", 8))
					name = q;
		}
		if (name) {
			const char *list = head + strlen(RUNTIME_IMPORT_HEAD);
			char *n = xstrndup(name, (size_t)(head - name)), *l = xstrndup(list, (size_t)(tail - list));
			strbuf_add(&sb, s, (size_t)(name - 8 - s));
			/* TRANSLATORS: the Python runtime refused an import: a module's name, then a list of modules */
			strbuf_addf(&sb, _("module '%s' cannot be imported while grading: only the standard library modules "
					   "loaded before the tests can (%s and a few more; see the student guide)"), n, l);
			free(n);
			free(l);
			s = tail + strlen(RUNTIME_IMPORT_TAIL);
		} else if (drop && sscanf(drop + strlen(RUNTIME_DROPPED_HEAD), "%ld%n", &dropped, &used) == 1 &&
			   !strncmp(drop + strlen(RUNTIME_DROPPED_HEAD) + used, RUNTIME_DROPPED_TAIL,
				    strlen(RUNTIME_DROPPED_TAIL))) {
			strbuf_add(&sb, s, (size_t)(drop - s));
			/* TRANSLATORS: a traceback's frames left out: "... (992 earlier calls of your code)" */
			strbuf_addf(&sb, _("\n  ... (%ld earlier calls of your code)"), dropped);
			s = drop + strlen(RUNTIME_DROPPED_HEAD) + used + strlen(RUNTIME_DROPPED_TAIL);
		} else if (drop) { /* "\n  ... (" of something else: kept, and on after it */
			strbuf_add(&sb, s, (size_t)(drop + 1 - s));
			s = drop + 1;
		} else {
			strbuf_addstr(&sb, s);
			break;
		}
	}
	copy = xstrdup(detail);
	free(l10n_remember(copy, strbuf_detach(&sb)));
	return l10n_message(detail);
}

/* RecursionError: the same words as a C stack overflow, then Python's own. */
static char *python_recursion_message(long long depth, const char *detail)
{
	struct strbuf m = STRBUF_INIT;
	strbuf_addstr(&m, _("stack overflow: the recursion went "));
	add_about(&m, depth);
	/* the traceback's frames: a decorator in C (functools.lru_cache) adds a level the traceback does not
	 * show, so "about 500" beside the familiar 1,000 must not read as a contradiction.  Whether the base
	 * case is missing or the depth grows with the input, diagnose.c says from the other tests. */
	strbuf_addf(&m, _(" calls deep, past Python's recursion limit (1,000 levels by default; a decorator such as "
		    "functools.lru_cache adds a level of its own to each call, so then about 500 calls reach it)\n%s"),
		    runtime_words(detail));
	return strbuf_detach(&m);
}

static const char *return_words(enum value_type ret)
{
	return ret == VT_BOOL ? _("a bool (True or False)") : _("an int");
}

/*
 * What a call gave back, when it gave back something (a Python function may
 * return another type, raise, exit or try something forbidden).  detail:
 * what the language part said about it.  Returns true when the value is an
 * answer to compare.
 */
static bool judge_value(struct judgement *j, const struct run_task *t, const struct signature *sig)
{
	const struct gr_report *r = &t->facts.report;
	const char *detail = t->facts.detail ? t->facts.detail : "";

	switch ((enum gr_value_kind)r->value_kind) {
	case GR_VALUE_OK:
		if (sig->ret == VT_BOOL && r->answer != 0 && r->answer != 1)
			decide(j, V_WRONG_ANSWER, xasprintf(_("returned %lld, expected %s"), (long long)r->answer,
							    return_words(sig->ret)));
		else if (!value_fits(sig->ret, r->answer))
			decide(j, V_WRONG_ANSWER, xasprintf(_("returned %lld, outside the range of %s"), (long long)r->answer,
							    value_type_name(sig->ret)));
		else
			return true;
		return false;
	case GR_VALUE_NONE:
		decide(j, V_WRONG_ANSWER, xasprintf(_("returned None, expected %s: a missing return?"), return_words(sig->ret)));
		j->returned = RETURNED_NONE;
		return false;
	case GR_VALUE_TYPE:
		decide(j, V_WRONG_ANSWER, xasprintf(_("returned a '%s', expected %s"), detail, return_words(sig->ret)));
		j->returned = RETURNED_OTHER_TYPE;
		return false;
	case GR_VALUE_RANGE:
		decide(j, V_WRONG_ANSWER, xasprintf(_("returned %s, outside the range of %s"), detail, value_type_name(sig->ret)));
		return false;
	case GR_VALUE_RECURSION:
		decide(j, V_RUN_ERROR, python_recursion_message(r->answer, detail));
		j->recursion_limit = true;
		return false;
	case GR_VALUE_MEMORY:
		decide(j, V_MEMORY_LIMIT, xasprintf(_("MemoryError: the memory limit is %u MiB"), t->memory_mb));
		return false;
	case GR_VALUE_EXIT:
		decide(j, V_NO_OUTPUT, xasprintf(_("%s called sys.exit() before returning an answer: return the answer "
						 "instead"), sig->name));
		return false;
	case GR_VALUE_FORBIDDEN:
		decide(j, V_FORBIDDEN, xasprintf(_("your code tried %s, which is not allowed while grading (no files, "
						 "processes, signals or network)"), detail));
		return false;
	case GR_VALUE_EXCEPTION:
	default:
		decide(j, V_RUN_ERROR, xstrdup(*detail ? runtime_words(detail) : _("an exception")));
		return false;
	}
}

/* Loading the submission before the tests failed (Python: importing the module). */
static void judge_load(struct judgement *j, const struct run_facts *f)
{
	const char *detail = f->detail ? f->detail : "";
	switch ((enum gr_load_kind)f->load_kind) {
	case GR_LOAD_FORBIDDEN:
		decide(j, V_FORBIDDEN, xasprintf(_("while importing your module, it tried %s, which is not allowed while "
						 "grading (no files, processes, signals or network)"), detail));
		break;
	case GR_LOAD_EXIT:
		decide(j, V_RUN_ERROR, xstrdup(_("your module called sys.exit() while importing (in its top-level code): "
					       "no test could run")));
		break;
	case GR_LOAD_HOST:
		/* said by the runner after the submission's own code could run (a constructor, the module's
		 * top level), which can write this record itself: never the grader's fault on its word.  A
		 * runtime that really cannot start fails the reference's run too, which the grader reports. */
		decide(j, V_RUN_ERROR, xasprintf(_("the program's runtime reported that it could not start: %s"),
						 runtime_words(detail)));
		break;
	case GR_LOAD_EXCEPTION:
	case GR_LOAD_OK:
	default:
		decide(j, V_RUN_ERROR, xasprintf(_("an exception while importing your module (in its top-level code), so "
						 "no test could run:\n%s"), runtime_words(detail)));
		break;
	}
}

/*
 * A report from the runner.  The runner holds the submission's code: what it
 * says about itself is the submission's doing (a constructor can forge
 * these), so a broken report is a run error of the submission.
 */
static void judge_report(struct judgement *j, const struct run_task *t, const struct signature *sig)
{
	const struct gr_report *r = &t->facts.report;

	j->cpu_ms = (unsigned)(r->cpu_us / 1000);
	if ((r->flags & GR_END_UNSEEN) && t->facts.grader_cpu_ms >= 0)
		j->cpu_ms = (unsigned)t->facts.grader_cpu_ms; /* the runner could not count it: the grader's count */
	j->peak_kb = r->maxrss_kb;
	if (r->flags & GR_BAD_REQUEST)
		decide(j, V_RUN_ERROR, xstrdup(_("the program could not read the test's arguments "
					       "(did code before main tamper with the runner?)")));
	else if (r->flags & GR_SPAWN_FAILED)
		decide(j, V_RUN_ERROR, xstrdup(_("the program could not start the test (a fork or a pipe failed: "
					       "did code before main use up processes, files or memory?)")));
	else if (r->flags & GR_FORBIDDEN)
		decide(j, V_FORBIDDEN, forbidden_message(r->syscall_nr));
	else if (past_limit(j, t) && !WIFSIGNALED(r->wait_status))
		decide(j, V_TIMELIMIT, cpu_limit_message(t));
	else if (r->flags & GR_NOMEM)
		decide(j, V_MEMORY_LIMIT, xasprintf(_("an allocation of %llu bytes failed: the memory limit is %u MiB"),
						    (unsigned long long)r->nomem_bytes, t->memory_mb));
	else if (r->flags & GR_OUTPUT_LIMIT)
		decide(j, V_OUTPUT_LIMIT, xasprintf(_("printed more than %u KiB (stdout and stderr together); "
						    "remove debugging output"), t->output_kb));
	else if (r->flags & GR_STOPPED)
		decide(j, V_TIMELIMIT, xasprintf(_("the program stopped itself (%s) after %u ms of CPU time: nothing "
						 "would ever continue it, so it was ended at once instead of at the "
						 "wall-clock limit of %u ms"), stop_signal_name((int)r->stop_signal),
						 j->cpu_ms, t->wall_ms));
	/* how it ended is unknown (a forbidden call's SIGSYS, a crash), so an answer it wrote proves nothing */
	else if (r->flags & GR_END_UNSEEN)
		decide(j, V_RUN_ERROR, xstrdup(_("how the test ended cannot be told, so no answer of it counts: "
					       "code that ran before main made the runner ignore its tests' ends "
					       "(SIGCHLD)")));
	else if (WIFSIGNALED(r->wait_status))
		judge_signal(j, t, sig, WTERMSIG(r->wait_status));
	else if (t->facts.tree_oom)
		decide(j, V_MEMORY_LIMIT, xasprintf(_("the processes of your program together went over the memory "
						    "limit (%u MiB)"), t->memory_mb));
	/* the zygote's own filter is in place (checked from outside at its hello), so a case child
	 * that cannot add its own was changed by code of the submission running in the zygote */
	else if (WIFEXITED(r->wait_status) && WEXITSTATUS(r->wait_status) == 122 && !(r->flags & GR_CASE_READY))
		decide(j, V_RUN_ERROR, xstrdup(_("the test could not be sandboxed: code that ran before main "
					       "changed the runner")));
	else if (!(r->flags & GR_ANSWERED))
		decide(j, V_NO_OUTPUT, xasprintf(_("%s ended the program (exit code %d) before returning an answer: "
						 "do not call exit() (sys.exit, os._exit) or close file descriptors"), sig->name,
						 WIFEXITED(r->wait_status) ? WEXITSTATUS(r->wait_status) : -1));
	else if (judge_value(j, t, sig)) {
		j->answered = true;
		j->answer = r->answer;
		decide(j, V_CORRECT, NULL);
	}
	/* the CPU limit, checked from outside: everything the runner used since its last report */
	if (j->answered && t->facts.grader_cpu_ms > (long long)t->cpu_ms + GRADER_CPU_SLACK_MS) {
		j->cpu_ms = (unsigned)t->facts.grader_cpu_ms;
		j->answered = false;
		decide(j, V_TIMELIMIT, xasprintf(_("used %lld ms of CPU by the grader's count, above the limit of %u ms "
						 "(every process of your program counts)"), t->facts.grader_cpu_ms, t->cpu_ms));
	}
	/* no timer stopped it at the limit, so no tolerance for one either */
	if (j->answered && (r->flags & GR_NO_CPU_TIMER) && j->cpu_ms > t->cpu_ms) {
		j->answered = false;
		decide(j, V_TIMELIMIT, xasprintf(_("used %u ms of CPU, above the limit of %u ms: the test's CPU timer could "
						 "not be set (the signal queue of the user running the tests was full, or "
						 "code that ran before main lowered the runner's limits), so nothing "
						 "stopped it at the limit"),
						 j->cpu_ms, t->cpu_ms));
	}
}

/* The runner ended or broke the protocol while starting or between tests. */
static void judge_lost(struct judgement *j, const struct run_facts *f)
{
	const char *when = f->starting ? _("while starting (before main: a constructor?)") : _("outside the test");
	int st = f->exit_status;

	if (f->tree_oom)
		decide(j, V_MEMORY_LIMIT, xasprintf(_("the processes of your program together went over the memory "
						    "limit %s"), when));
	else if (f->outcome == RUN_PROTOCOL)
		/* or a record without the runner's secret (protocol.h GR_NONCE_LEN): the runtime's own always has it */
		decide(j, V_RUN_ERROR, xasprintf(_("the program wrote on the grader's channel %s (file descriptors 3 "
						 "and 4 belong to the grader: neither C constructors nor Python "
						 "top-level code may use them): the runner could not be trusted any "
						 "more"), when));
	/* exit codes alone prove nothing (a constructor can _exit(121)): only the
	 * record the preinit hook sends before any student code runs does */
	else if (f->sandbox_failed)
		decide(j, V_JUDGE_ERROR, xstrdup(_("the sandbox could not be installed (seccomp refused the filter)")));
	else if (f->sandbox_refuted)
		decide(j, V_RUN_ERROR, xasprintf(_("the program said %s that the sandbox could not be installed, but the "
						 "grader's own check says otherwise (it installs the same filter "
						 "without trouble, or none was handed over): code of the program that "
						 "runs before main (an ifunc resolver, a constructor) wrote that"), when));
	else if (WIFSIGNALED(st))
		decide(j, V_RUN_ERROR, xasprintf(_("the program crashed %s with %s"), when, signal_words(WTERMSIG(st))));
	else
		decide(j, V_RUN_ERROR, xasprintf(_("the program ended %s (exit code %d)"), when,
						 WIFEXITED(st) ? WEXITSTATUS(st) : -1));
}

/*
 * execve of the runner failed.  The runner is the linked submission (C) or
 * the grader's own host (Python), and the grader passed a short argv and an
 * empty environment: a format the kernel refuses (ENOEXEC, ELIBBAD, EINVAL,
 * E2BIG) comes from the image, and so does a path that cannot be found or
 * run when the runner file itself is there (by the grader's stat): the
 * interpreter the image names.  Anything else (out of memory, too many
 * files, the runner file missing) is the machine's or the grader's.
 */
static void judge_exec(struct judgement *j, const struct run_facts *f)
{
	static const struct {
		int err;
		const char *name;
		bool needs_image; /* the image's only when the runner file is there */
		const char *why;
	} causes[] = {
		{ ENOEXEC, "ENOEXEC", false, N_("Linux cannot load its image (a program header or interpreter path it "
					     "refuses: did the program add to a section such as .interp?)") },
		{ ELIBBAD, "ELIBBAD", false, N_("the interpreter it names (its section .interp) is not a loader") },
		{ EINVAL, "EINVAL", false, N_("Linux refuses the layout of its image") },
		{ E2BIG, "E2BIG", false, N_("its image asks for more than Linux gives a starting program") },
		{ ENOENT, "ENOENT", true, N_("the interpreter it names (its section .interp) does not exist") },
		{ ENOTDIR, "ENOTDIR", true, N_("the interpreter it names (its section .interp) does not exist") },
		{ ENAMETOOLONG, "ENAMETOOLONG", true, N_("the interpreter it names (its section .interp) is too long a path") },
		{ ELOOP, "ELOOP", true, N_("the interpreter it names (its section .interp) is a loop of links") },
		{ EACCES, "EACCES", true, N_("the interpreter it names (its section .interp) may not be run here") },
	};
	for (size_t i = 0; i < sizeof(causes) / sizeof(causes[0]); i++)
		if (causes[i].err == f->exec_errno && (!causes[i].needs_image || f->image_present)) {
			decide(j, V_RUN_ERROR, xasprintf(_("the program could not be started: %s (execve: %s, %s)"),
							 _(causes[i].why), strerror(f->exec_errno), causes[i].name));
			return;
		}
	decide(j, V_JUDGE_ERROR, f->error ? xstrdup(f->error)
					  : xasprintf(_("the grader could not start the runner: %s"), strerror(f->exec_errno)));
}

/* Outcomes other than a report. */
static void judge_outcome(struct judgement *j, const struct run_task *t, const struct signature *sig)
{
	const struct run_facts *f = &t->facts;
	switch (f->outcome) {
	case RUN_REPORTED:
		judge_report(j, t, sig);
		break;
	case RUN_MISSING_FUNCTION:
		decide(j, V_MISSING, xasprintf(_("your file does not define the function '%s'"), sig->name));
		break;
	case RUN_WALL_TIMEOUT:
		if (f->starved)
			decide(j, V_JUDGE_ERROR, starved_message(t, _("the test"), t->wall_ms));
		else
			decide(j, V_TIMELIMIT, wall_limit_message(t));
		if (f->child_known)
			j->cpu_ms = f->child_cpu_ms;
		break;
	case RUN_START_TIMEOUT:
		if (f->starved) {
			decide(j, V_JUDGE_ERROR, starved_message(t, _("the program's start-up"), 2 * t->startup_ms + 1000));
			break;
		}
		decide(j, V_TIMELIMIT, xasprintf(_("the program did not finish starting within %u ms: the code that "
						 "runs before the tests (C constructors, Python top-level code such as "
						 "a self-test call) runs too long or forever; its CPU limit is %u ms"),
						 2 * t->startup_ms + 1000, t->startup_ms));
		break;
	case RUN_STARTUP_LIMIT:
		decide(j, V_TIMELIMIT, xasprintf(_("the code that runs before the tests (C constructors, Python "
						 "top-level code such as a self-test call) used %lld ms of CPU, over the "
						 "start-up limit of %u ms, so no test could run: make it faster or "
						 "remove it"), f->startup_cpu_ms, t->startup_ms));
		break;
	case RUN_STARTUP_MEMORY:
		decide(j, V_MEMORY_LIMIT, xasprintf(_("before its tests began, your program already held %lld MiB of "
						    "memory (static arrays, C constructors, Python top-level code), more "
						    "than the memory limit of %u MiB: a test's memory includes what was "
						    "set up before it, so no test could run"),
						    (f->startup_vm_kb + 1023) / 1024, t->zygote_memory_mb));
		break;
	case RUN_TREE_MEMORY:
		decide(j, V_MEMORY_LIMIT, xasprintf(_("the processes of your program together held %llu MiB, over the "
						    "memory limit of %u MiB: every process your program starts counts"),
						    (f->tree_memory_kb + 1023) / 1024, t->memory_mb));
		break;
	case RUN_STRAY_PROCESSES:
		if (f->strays_seen)
			/* seen by the grader's watch of the runner's tree (runner.c slot_watch_tree) */
			decide(j, V_FORBIDDEN, xasprintf(_("your program started processes %s (%d at once): only the "
							 "test itself may run"),
							 f->starting ? _("before the tests (fork in a constructor?)")
								     : _("during a test"),
							 f->strays_seen));
		else
			decide(j, V_FORBIDDEN, xasprintf(_("your program started a process %s that was still there "
							 "when a test was to begin: only the test itself may run"),
							 f->starting ? _("before the tests (fork in a constructor?)")
								     : _("between the tests (from a signal handler?)")));
		break;
	case RUN_FILTER_CHANGED:
		decide(j, V_FORBIDDEN, xstrdup(_("your program installed a seccomp filter of its own on top of the "
					       "grader's: not allowed")));
		break;
	case RUN_LOST:
	case RUN_PROTOCOL:
		judge_lost(j, f);
		break;
	case RUN_FORBIDDEN_RUNNER:
		decide(j, V_FORBIDDEN, xasprintf(_("your program made the system call '%s' %s, which is not allowed"),
						 filter_syscall_name(f->syscall_nr),
						 f->starting ? _("while starting (before main: a constructor?)")
							     : _("outside the test (in a process a constructor started?)")));
		break;
	case RUN_LOAD_FAILED:
		judge_load(j, f);
		break;
	case RUN_UNFILTERED:
		decide(j, V_FORBIDDEN, xstrdup(_("your program switched the sandbox off before main (it defines "
					       "functions the runner needs, such as prctl or syscall)")));
		break;
	case RUN_NOT_STARTED:
		decide(j, V_JUDGE_ERROR, xstrdup(f->error ? f->error : _("the grader could not start the runner")));
		break;
	case RUN_EXEC_FAILED:
		judge_exec(j, f);
		break;
	case RUN_NONE:
	case RUN_STOPPED:
		decide(j, V_JUDGE_ERROR, xstrdup(_("not run: the grader stopped early")));
		break;
	}
}

void verdict_of_run(struct judgement *j, const struct run_task *t, const struct signature *sig)
{
	memset(j, 0, sizeof(*j));
	j->verdict = V_JUDGE_ERROR;
	judge_outcome(j, t, sig);
	if (t->facts.repeated && j->message) {
		/* on a line of its own: glued to a traceback's last line it read as code */
		char *m = L10N(xasprintf(_("%s\n(not started again: the program failed the same way for an earlier test)"),
					 l10n_message(j->message)));
		decide_message(j, j->verdict, m);
	}
}

void verdict_compare(struct judgement *j, const struct problem *p, int func, bool has_expected, long long expected)
{
	const struct signature *sig = &p->funcs[func];
	struct strbuf a = STRBUF_INIT, e = STRBUF_INIT;
	if (!j->answered)
		return;
	if (!has_expected) {
		decide(j, V_JUDGE_ERROR, xstrdup(_("no expected answer: the reference solution failed on this test")));
		return;
	}
	if (value_answer_equal(sig->ret, expected, j->answer))
		return;
	problem_format_answer(&a, p, func, j->answer);
	problem_format_answer(&e, p, func, expected);
	decide(j, V_WRONG_ANSWER, xasprintf(_("returned %s, expected %s"), a.buf, e.buf));
	strbuf_release(&a);
	strbuf_release(&e);
}

/* ---- builds ---- */

enum verdict verdict_of_build_status(enum build_status s)
{
	switch (s) {
	case BUILD_OK:
		return V_CORRECT;
	case BUILD_MISSING_FILE:
		return V_MISSING;
	case BUILD_COMPILE_ERROR:
		return V_COMPILER_ERROR;
	case BUILD_FORBIDDEN:
		return V_FORBIDDEN;
	case BUILD_TOO_BIG:
		return V_MEMORY_LIMIT;
	case BUILD_INTERNAL:
		return V_JUDGE_ERROR;
	}
	return V_JUDGE_ERROR;
}
