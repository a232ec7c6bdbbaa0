/*
 * interrupt.h - Ctrl-C and friends: one flag that every long loop of the
 * grader checks.
 *
 * The handler only sets the flag (a volatile sig_atomic_t, isolate style);
 * the loops that wait (the runner pool, the compiler jobs, the batch
 * workers) see it within one poll() period, kill what they started, clean
 * up their scratch space and return -1.  The command layer turns that into
 * exit code 130.
 */
#ifndef GRADER_INTERRUPT_H
#define GRADER_INTERRUPT_H

#include <signal.h>

/* Set from a signal handler; never cleared. */
extern volatile sig_atomic_t grader_interrupted;

/* Install SIGINT/SIGTERM/SIGHUP handlers that set grader_interrupted, and ignore SIGPIPE. */
void interrupt_handle_signals(void);

#endif
