/* SPDX-License-Identifier: MIT */
/*
 * report.h - errors and tracing, in one voice for the whole kit.
 *
 * Every message goes to stderr, prefixed with the program's name. Results
 * go to stdout (see stats.h). With -t each verb is traced as it is called,
 * with what it returned: that trace is the lesson a student reads.
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

/* Print "name: message" on stderr when tracing at level or above. */
void our_trace(int level, const char *fmt, ...) OUR_FORMAT(2, 3);

/*
 * Trace a verb that returns an int and report it when it failed.
 * rdma_* verbs return -1 and set errno; ibv_* verbs return the error
 * number itself: both are understood. Returns true when ret is not 0.
 */
bool our_verb_failed(int ret, const char *fmt, ...) OUR_FORMAT(2, 3);

/* The same for a verb that returns a pointer, NULL with errno on failure. */
bool our_verb_null(const void *result, const char *fmt, ...) OUR_FORMAT(2, 3);

/* Report a work completion whose status is not IBV_WC_SUCCESS. */
void our_report_wc(const struct ibv_wc *wc, const char *what);

#endif
