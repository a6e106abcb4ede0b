// SPDX-License-Identifier: MIT
/*
 * statistics.c - what a run cost, with -x: latency percentiles, rate,
 * bandwidth, CPU, and what the pieces tallied.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "exchange.h"
#include "instruments.h"

/* Room for this many latencies to begin with; it doubles when full. */
#define OUR_FIRST_CAPACITY 4096u
/* The most tallies a program keeps, and the buckets of a size's. */
#define OUR_TALLIES 12
#define OUR_SIZE_BUCKETS 5

/* One tally: a count, or counts of sizes in buckets by powers of two. */
struct our_tally {
	const char *group;
	const char *what;
	bool sizes;
	uint64_t n;
	uint64_t buckets[OUR_SIZE_BUCKETS];
};

struct our_statistics {
	struct rusage usage_start;
	struct rusage usage_end;
	uint64_t last_ns;       /* when the last transfer was counted */
	uint64_t *latencies_ns; /* one per transfer */
	uint32_t capacity;
	uint32_t recorded;
	struct our_tally tallies[OUR_TALLIES];
	int tally_count;
};

void our_start_statistics(struct our_control *control)
{
	struct our_statistics *x;

	if (!our_statistics_asked)
		return;
	x = calloc(1, sizeof(*x));
	if (x)
		x->latencies_ns = calloc(OUR_FIRST_CAPACITY,
					 sizeof(*x->latencies_ns));
	if (!x || !x->latencies_ns) {
		our_error("no memory for -x: the run goes on without it");
		free(x);
		return;
	}
	x->capacity = OUR_FIRST_CAPACITY;
	x->last_ns = control->start_ns;
	getrusage(RUSAGE_SELF, &x->usage_start);
	control->statistics = x;
}

void our_record_latency(struct our_control *control)
{
	struct our_statistics *x = control->statistics;
	uint64_t now = our_now_ns();
	uint64_t *more;

	if (!x)
		return;
	if (x->recorded == x->capacity) {
		size_t bytes = 2 * (size_t)x->capacity * sizeof(*more);

		more = x->capacity <= UINT32_MAX / 2 ?
			       realloc(x->latencies_ns, bytes) : NULL;
		if (!more) {
			x->last_ns = now;
			return; /* the first latencies are all the report has */
		}
		x->latencies_ns = more;
		x->capacity *= 2;
	}
	x->latencies_ns[x->recorded++] = now - x->last_ns;
	x->last_ns = now;
}

void our_stop_statistics(struct our_control *control)
{
	if (control->statistics)
		getrusage(RUSAGE_SELF, &control->statistics->usage_end);
}

/* The tally of what, on the line of group; NULL when there is no room. */
static struct our_tally *find_tally(struct our_control *control,
				    const char *group, const char *what,
				    bool sizes)
{
	struct our_statistics *x = control->statistics;
	struct our_tally *tally;

	if (!x)
		return NULL;
	for (int i = 0; i < x->tally_count; i++) {
		tally = &x->tallies[i];
		if ((tally->what == what || strcmp(tally->what, what) == 0) &&
		    strcmp(tally->group, group) == 0)
			return tally;
	}
	if (x->tally_count == OUR_TALLIES)
		return NULL;
	tally = &x->tallies[x->tally_count++];
	*tally = (struct our_tally){ .group = group, .what = what,
				     .sizes = sizes };
	return tally;
}

void our_tally(struct our_control *control, const char *group,
	       const char *what, uint64_t n)
{
	struct our_tally *tally = find_tally(control, group, what, false);

	if (tally)
		tally->n += n;
}

void our_tally_size(struct our_control *control, const char *group,
		    const char *what, uint32_t n)
{
	struct our_tally *tally = find_tally(control, group, what, true);
	int bucket = 0;

	if (!tally)
		return;
	while (n > 1 && bucket + 1 < OUR_SIZE_BUCKETS) {
		n /= 2;
		bucket++;
	}
	tally->buckets[bucket]++;
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

static void print_latency(const struct our_statistics *x)
{
	uint64_t *sorted = x->latencies_ns;
	uint32_t n = x->recorded;
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

/* True when a tally before the i-th is of the same group. */
static bool group_printed(const struct our_statistics *x, int i)
{
	for (int j = 0; j < i; j++) {
		if (strcmp(x->tallies[j].group, x->tallies[i].group) == 0)
			return true;
	}
	return false;
}

/* Print the tallies of each group on a line of its own: the counts, then
 * the sizes. */
static void print_tallies(const struct our_statistics *x)
{
	static const char *const names[OUR_SIZE_BUCKETS] = {
		"1", "2-3", "4-7", "8-15", "16+",
	};

	for (int i = 0; i < x->tally_count; i++) {
		const char *group = x->tallies[i].group;
		int printed = 0;

		if (group_printed(x, i))
			continue;
		printf("%s: %s: ", our_program_name, group);
		for (int sizes = 0; sizes <= 1; sizes++) {
			for (int j = i; j < x->tally_count; j++) {
				const struct our_tally *t = &x->tallies[j];

				if (strcmp(t->group, group) ||
				    t->sizes != sizes)
					continue;
				if (printed++)
					printf(sizes ? "; " : ", ");
				if (!sizes) {
					printf("%" PRIu64 " %s", t->n, t->what);
					continue;
				}
				printf("%s: ", t->what);
				for (int b = 0; b < OUR_SIZE_BUCKETS; b++)
					printf("%s%s: %" PRIu64, b ? ", " : "",
					       names[b], t->buckets[b]);
			}
		}
		printf("\n");
	}
}

void our_print_statistics(struct our_control *control)
{
	struct our_statistics *x = control->statistics;
	const char *unit = our_transfer_unit;
	double elapsed, user, system, transfers, bytes;

	if (!x)
		return;
	elapsed = (double)(control->end_ns - control->start_ns) /
		  1e9;
	if (elapsed <= 0)
		elapsed = 1e-9;
	user = seconds_between(x->usage_start.ru_utime, x->usage_end.ru_utime);
	system = seconds_between(x->usage_start.ru_stime,
				 x->usage_end.ru_stime);
	transfers = (double)control->transfers;
	bytes = transfers * control->size * our_sizes_per_transfer;
	if (transfers > 0) {
		print_latency(x);
		printf("%s: rate: %.1f %ss/s, %.3f MB/s, %.3f Gb/s\n",
		       our_program_name, transfers / elapsed, unit,
		       bytes / elapsed / 1e6, bytes * 8 / elapsed / 1e9);
		printf("%s: cpu: user %.3f s, system %.3f s, utilization "
		       "%.1f%%, %.2f us per %s\n",
		       our_program_name, user, system,
		       100.0 * (user + system) / elapsed,
		       (user + system) * 1e6 / transfers, unit);
		print_tallies(x);
	}
	free(x->latencies_ns);
	free(x);
	control->statistics = NULL;
}
