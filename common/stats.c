// SPDX-License-Identifier: MIT
/*
 * stats.c - timing and the end-of-run report.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "completions.h"
#include "control.h"
#include "exchange.h"
#include "report.h"
#include "stats.h"

uint64_t our_now_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

/* Room for this many latencies, to begin with, in a run with no count. */
#define OUR_FIRST_CAPACITY 4096u

int our_setup_stats(struct our_stats *stats, uint32_t capacity, bool record)
{
	*stats = (struct our_stats){ 0 };
	if (!record)
		return 0;
	if (capacity == 0) {
		capacity = OUR_FIRST_CAPACITY;
		stats->grows = true;
	}
	stats->latencies_ns = calloc(capacity, sizeof(*stats->latencies_ns));
	if (!stats->latencies_ns) {
		our_error("cannot allocate room for %u latencies", capacity);
		return -1;
	}
	stats->capacity = capacity;
	return 0;
}

void our_unsetup_stats(struct our_stats *stats)
{
	free(stats->latencies_ns);
	stats->latencies_ns = NULL;
}

void our_start_clock(struct our_stats *stats)
{
	getrusage(RUSAGE_SELF, &stats->usage_start);
	stats->start_ns = our_now_ns();
}

void our_stop_clock(struct our_stats *stats)
{
	stats->end_ns = our_now_ns();
	getrusage(RUSAGE_SELF, &stats->usage_end);
}

/*
 * A timed run: twice the room for latencies. When there is no more memory,
 * the latencies recorded so far are all that the report will show.
 */
static void grow(struct our_stats *stats)
{
	uint64_t *more = NULL;

	if (stats->capacity <= UINT32_MAX / 2)
		more = realloc(stats->latencies_ns,
			       2 * (size_t)stats->capacity * sizeof(*more));
	if (!more) {
		our_error("no room for more latencies: the statistics show the "
			  "first %u",
			  stats->recorded);
		stats->grows = false;
		return;
	}
	stats->latencies_ns = more;
	stats->capacity *= 2;
}

void our_count_transfer(struct our_stats *stats, uint64_t bytes,
			uint64_t latency_ns)
{
	stats->transfers++;
	stats->bytes += bytes;
	if (stats->recorded == stats->capacity && stats->grows)
		grow(stats);
	if (stats->recorded < stats->capacity)
		stats->latencies_ns[stats->recorded++] = latency_ns;
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a;
	uint64_t y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The p-th percentile of n sorted values, in microseconds. */
static double percentile_us(const uint64_t *sorted, uint32_t n, double p)
{
	uint32_t rank = (uint32_t)(p / 100.0 * n + 0.999999);

	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return (double)sorted[rank - 1] / 1000.0;
}

/* Seconds of CPU between two readings of a timeval. */
static double seconds_between(struct timeval from, struct timeval to)
{
	return (double)(to.tv_sec - from.tv_sec) +
	       (double)(to.tv_usec - from.tv_usec) / 1e6;
}

static void print_latency(const struct our_stats *stats)
{
	uint64_t *sorted = stats->latencies_ns;
	uint32_t n = stats->recorded;
	double sum = 0;

	if (n == 0)
		return;
	qsort(sorted, n, sizeof(*sorted), compare_u64);
	for (uint32_t i = 0; i < n; i++)
		sum += (double)sorted[i];
	printf("%s: latency us: min %.2f median %.2f mean %.2f max %.2f "
	       "p99 %.2f p99.9 %.2f\n",
	       our_program_name, (double)sorted[0] / 1000.0,
	       percentile_us(sorted, n, 50), sum / n / 1000.0,
	       (double)sorted[n - 1] / 1000.0, percentile_us(sorted, n, 99),
	       percentile_us(sorted, n, 99.9));
}

void our_count_size(uint64_t *buckets, uint32_t n)
{
	uint32_t bucket = 0;

	while (n > 1 && bucket + 1 < OUR_SIZE_BUCKETS) {
		n /= 2;
		bucket++;
	}
	buckets[bucket]++;
}

void our_print_sizes(const uint64_t *buckets)
{
	static const char *const names[OUR_SIZE_BUCKETS] = {
		"1", "2-3", "4-7", "8-15", "16+",
	};

	for (int i = 0; i < OUR_SIZE_BUCKETS; i++)
		printf("%s%s: %" PRIu64, i ? ", " : "", names[i], buckets[i]);
}

/* -x: what the report adds to its first line. */
static void print_statistics(const struct our_control *control,
			     double elapsed)
{
	const char *unit = our_transfer_unit;
	const struct our_stats *stats = &control->stats;
	double user = seconds_between(stats->usage_start.ru_utime,
				      stats->usage_end.ru_utime);
	double system = seconds_between(stats->usage_start.ru_stime,
					stats->usage_end.ru_stime);
	double transfers = (double)stats->transfers;

	if (elapsed <= 0)
		elapsed = 1e-9;
	print_latency(stats);
	printf("%s: rate: %.1f %ss/s, %.3f MB/s, %.3f Gb/s\n", our_program_name,
	       transfers / elapsed, unit, (double)stats->bytes / elapsed / 1e6,
	       (double)stats->bytes * 8 / elapsed / 1e9);
	printf("%s: cpu: user %.3f s, system %.3f s, utilization %.1f%%, "
	       "%.2f us per %s\n",
	       our_program_name, user, system,
	       100.0 * (user + system) / elapsed,
	       transfers > 0 ? (user + system) * 1e6 / transfers : 0.0,
	       unit);
	our_print_completion_counters(control);
	our_print_exchange_counters(control);
}

void our_print_report(const struct our_control *control)
{
	const struct our_stats *stats = &control->stats;
	double elapsed = (double)(stats->end_ns - stats->start_ns) / 1e9;

	/* One report's lines together, whatever other threads print (the
	 * agents of a server for many clients). */
	flockfile(stdout);
	printf("%s: %" PRIu64 " %ss of %u bytes in %.6f s\n", our_program_name,
	       stats->transfers, our_transfer_unit, control->size, elapsed);
	if (control->options->statistics && stats->transfers > 0)
		print_statistics(control, elapsed);
	/* Out now: the disconnect that follows may take a while. */
	fflush(stdout);
	funlockfile(stdout);
}
