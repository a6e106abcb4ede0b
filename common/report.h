/* SPDX-License-Identifier: MIT */
/*
 * report.h - errors and tracing, in one voice for the whole kit.
 *
 * Every message goes to stderr, prefixed with the program's name. Results
 * go to stdout (see stats.h), as do the few steps a user waits for (the
 * server listens, a client has connected). With -t each verb is traced as
 * it is called, with what it returned: that trace is the lesson a student
 * reads.
 */
#ifndef OUR_REPORT_H
#define OUR_REPORT_H

#include <stdbool.h>
#include <infiniband/verbs.h>

#define OUR_FORMAT(a, b) __attribute__((format(printf, a, b)))

extern const char *our_program_name;
extern int our_trace_level;

/* Print "name: message" on stderr. */
void our_error(const char *fmt, ...) OUR_FORMAT(1, 2);

/*
 * Print "name: message" on stdout at once, even into a file or a pipe: a
 * step the user (or a script) waits for.
 */
void our_say(const char *fmt, ...) OUR_FORMAT(1, 2);

/* Print "name: message" on stderr when tracing at level or above. */
void our_trace(int level, const char *fmt, ...) OUR_FORMAT(2, 3);

/*
 * Trace a verb that returns -1 and sets errno on failure (the rdma_* verbs,
 * ibv_get_cq_event, system calls) and report it when it failed. Returns
 * true when ret is not 0. errno is left as the verb left it.
 */
bool our_verb_failed(int ret, const char *fmt, ...) OUR_FORMAT(2, 3);

/*
 * The same for a verb that returns the error number itself (most ibv_*
 * verbs, pthread functions). ibv_post_send and ibv_post_recv return it
 * positive or negative, depending on the provider: both are understood.
 */
bool our_verb_error(int ret, const char *fmt, ...) OUR_FORMAT(2, 3);

/* The same for a verb that returns a pointer, NULL with errno on failure. */
bool our_verb_null(const void *result, const char *fmt, ...) OUR_FORMAT(2, 3);

/* Report a work completion whose status is not IBV_WC_SUCCESS. */
void our_report_wc(const struct ibv_wc *wc, const char *what);

#endif
