/* SPDX-License-Identifier: MIT */
/*
 * options.h - the command line every program of the kit shares.
 *
 * The letters follow the course: -a server address, -p port, -c count,
 * -s size, -v verify, -t trace, -T verbose trace, -x statistics, -h help;
 * and -b buffers, -D duration, -n clients where a stage takes them.
 */
#ifndef OUR_OPTIONS_H
#define OUR_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#define OUR_DEFAULT_PORT "12321"
#define OUR_DEFAULT_COUNT 100u
#define OUR_DEFAULT_SIZE 64u
#define OUR_DEFAULT_BUFFERS 4u
/* Limits documented in the README; a value beyond them is refused. */
#define OUR_MAX_COUNT 10000000u
#define OUR_MAX_SIZE (16u * 1024 * 1024)
#define OUR_MAX_BUFFERS 64u
#define OUR_MAX_DURATION 86400u /* seconds: a day */
#define OUR_MAX_CLIENTS 64u

/* Which options a program accepts besides -h, -t and -T. */
enum our_option_set {
	OUR_ACCEPTS_TRACE_ONLY = 0,
	OUR_ACCEPTS_TRANSFER = 1 << 0, /* -a -p -c -s -v -x */
	OUR_ACCEPTS_BUFFERS = 1 << 1,  /* -b */
	OUR_ACCEPTS_CLIENTS = 1 << 2,  /* -n: a server for many at once */
};

enum our_role {
	OUR_NO_ROLE,
	OUR_CLIENT,
	OUR_SERVER,
};

/* Describes a program to the option parser and to --help. */
struct our_program {
	const char *name;    /* prefix of every message, e.g. "client" */
	const char *purpose; /* one line shown by --help */
	enum our_role role;
	unsigned int accepts; /* enum our_option_set bits */
	/* The bytes each transfer moves where the exchange fixes them (an
	 * atomic's 8): -s is then refused. 0: -s sets them. */
	uint32_t fixed_size;
	/*
	 * A client's -D: taken where this points to true. A timed run ends
	 * when the client hangs up, so it needs an agent that sees that
	 * (see our_cm_sees_hang_up in cm_events.h).
	 */
	const bool *timed;
	/*
	 * A server's -c, -s, -b and -v: refused where this points to true,
	 * since the client's private data sets them (see our_client_sets_run
	 * in private_data.h).
	 */
	const bool *told_by_client;
};

struct our_options {
	const char *server_name; /* -a: NULL lets a server listen on all */
	const char *port;        /* -p */
	uint32_t count;          /* -c: round trips or messages */
	uint32_t duration;       /* -D: seconds instead of a count; 0: -c */
	uint32_t size;           /* -s: bytes per message */
	uint32_t buffers;        /* -b: messages in flight; 1 without -b */
	uint32_t clients;        /* -n: clients a server serves; 1 without */
	bool verify;             /* -v */
	bool statistics;         /* -x */
	int trace;               /* 0, 1 with -t, 2 with -T */
};

enum our_parse_result {
	OUR_OPTIONS_RUN,  /* go on with the program */
	OUR_OPTIONS_HELP, /* usage was printed on request: exit 0 */
	OUR_OPTIONS_BAD,  /* a reason and usage were printed: exit 2 */
};

/*
 * Fill options from argv. Sets our_program_name and our_trace_level for
 * the reporting code. Prints usage itself for --help and for bad usage,
 * naming the stage the program was built for (OUR_STAGE).
 */
enum our_parse_result our_parse_options(const struct our_program *program,
					int argc, char *argv[],
					struct our_options *options);

/* The exit status for a result other than OUR_OPTIONS_RUN: 0 or 2. */
int our_options_exit_status(enum our_parse_result result);

#endif
