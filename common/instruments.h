/* SPDX-License-Identifier: MIT */
/*
 * instruments.h - the kit's instruments: what a program says it does
 * (-t, -T) and what it cost (-x).
 *
 * They are the kit's, not the lesson's: the single files leave them out,
 * with every statement that calls one of these functions. So each call is
 * a statement of its own (or the condition of an `if` that does nothing
 * else), and none of them changes what the program does.
 */
#ifndef OUR_INSTRUMENTS_H
#define OUR_INSTRUMENTS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "control.h"
#include "report.h"

/* -x was given: the statistics are asked for. */
extern bool our_statistics_asked;

/*
 * Take arg when it is one of the instruments' options: -t (trace every
 * verb), -T (and what the verbs are given and return), -x (statistics,
 * for a program that runs an exchange). Returns true when it took it.
 */
bool our_instrument_option(const char *arg, bool runs);

/* Print the instruments' lines of --help. */
void our_print_instrument_usage(FILE *out, bool runs);

/* Print "name: message" on stderr when tracing at level (1: -t, 2: -T). */
void our_trace(int level, const char *fmt, ...) OUR_FORMAT(2, 3);

/*
 * For the our_verb_* checks: with -t, trace the verb that fmt and args
 * name, when it succeeded: "verb -> 0". args are left for the caller.
 */
void our_trace_verb(int ret, const char *fmt, va_list args);

/* With -T, trace a work completion: what it was, its slot and status. */
void our_trace_wc(const struct ibv_wc *wc);

/*
 * -x: at the start of the run, take the CPU's clock and make room for
 * the latencies; record each transfer's, the time since the last one;
 * at the end, take the CPU's clock again; then print the latencies,
 * rate, bandwidth and CPU, and what the pieces tallied, and give the
 * room back.
 */
void our_start_statistics(struct our_control *control);
void our_record_latency(struct our_control *control);
void our_stop_statistics(struct our_control *control);
void our_print_statistics(struct our_control *control);

/*
 * -x: add n to the count of what, printed on the line of group:
 * "client: busy polling: 1200 ibv_poll_cq calls, 1100 found nothing".
 */
void our_tally(struct our_control *control, const char *group,
	       const char *what, uint64_t n);

/*
 * -x: count one thing of size n (1 or more) into buckets by powers of
 * two, printed on the line of group: "what: 1: a, 2-3: b, 4-7: c,
 * 8-15: d, 16+: e".
 */
void our_tally_size(struct our_control *control, const char *group,
		    const char *what, uint32_t n);

#endif
