/* SPDX-License-Identifier: MIT */
/*
 * stats.h - timing and the end-of-run report.
 *
 * Every program prints the same report through one code path: counts and
 * elapsed time always; with -x also latency percentiles, rate, bandwidth
 * and the CPU the run cost, then the counters of the pieces it is built
 * from (see completions.h).
 */
#ifndef OUR_STATS_H
#define OUR_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>

struct our_stats {
	uint64_t start_ns;
	uint64_t end_ns;
	struct rusage usage_start;
	struct rusage usage_end;
	uint64_t *latencies_ns; /* one per round trip, with -x only */
	uint32_t capacity;
	uint32_t recorded;
	bool grows; /* a run with no count: capacity doubles when full */
	uint64_t transfers; /* round trips or messages completed */
	uint64_t bytes;     /* payload bytes sent and received */
};

/* Monotonic time in nanoseconds. */
uint64_t our_now_ns(void);

/*
 * Prepare to record up to capacity latencies when record is true; with a
 * capacity of 0 (a run with no count), as many as memory allows.
 * Returns 0, or -1 (reported) when the memory is not there.
 * Undo with our_unsetup_stats().
 */
int our_setup_stats(struct our_stats *stats, uint32_t capacity, bool record);
void our_unsetup_stats(struct our_stats *stats);

/* Take the wall clock and CPU usage at the start and end of the run. */
void our_start_clock(struct our_stats *stats);
void our_stop_clock(struct our_stats *stats);

/* Count one transfer of bytes and, when recording, its latency. */
void our_count_transfer(struct our_stats *stats, uint64_t bytes,
			uint64_t latency_ns);

/* Count one thing of size n (at least 1) into buckets (see
 * OUR_SIZE_BUCKETS in control.h). */
void our_count_size(uint64_t *buckets, uint32_t n);

/* Print buckets on stdout as "1: a, 2-3: b, 4-7: c, 8-15: d, 16+: e". */
void our_print_sizes(const uint64_t *buckets);

struct our_control;

/* Print the end-of-run report on stdout. */
void our_print_report(const struct our_control *control);

#endif
