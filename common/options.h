/* SPDX-License-Identifier: MIT */
/*
 * options.h - the command line. A program takes the options its pieces
 * list, each a row of a table; one parser reads them all.
 *
 * The letters follow the course: -a address, -p port, -c count, -s size,
 * -v verify, -h help; -b buffers, -D duration and -n clients where a
 * stage takes them; and the kit's instruments -t, -T and -x (see
 * instruments.h), which the single files leave out. Each option is a
 * word of its own, its value the next word: -c 1000.
 */
#ifndef OUR_OPTIONS_H
#define OUR_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The options' limits: a value beyond them is refused. */
#define OUR_MAX_COUNT 10000000u
#define OUR_MAX_SIZE (16u * 1024 * 1024)
#define OUR_MAX_BUFFERS 64u
#define OUR_MAX_CLIENTS 64u

/* The options, and their values when they are not given. */
struct our_options {
	const char *address; /* -a: NULL lets a server listen on all */
	uint32_t port;       /* -p: 12321 */
	uint32_t count;      /* -c: round trips or messages: 100 */
	uint32_t duration;   /* -D: seconds instead of a count; 0: -c */
	uint32_t size;       /* -s: bytes per message: 64 */
	uint32_t buffers;    /* -b: messages in flight: 4 */
	uint32_t clients;    /* -n: clients a server serves at once: 1 */
	bool verify;         /* -v: fill what is sent, check what arrives */
};

/*
 * One option, a row of a table: a number from 1 to max, or a flag (max
 * 0: no value, true when given), or for -a alone a text.
 */
struct our_option {
	char letter;
	uint32_t max;
	size_t field;     /* where its value goes in struct our_options */
	const char *help; /* its line of -h */
};

#define OUR_FIELD(name) offsetof(struct our_options, name)

#define OUR_COUNT_OPTION                                                   \
	{ 'c', OUR_MAX_COUNT, OUR_FIELD(count),                             \
	  "-c N         transfers, 1 to 10000000 (default 100)" }
#define OUR_SIZE_OPTION                                                    \
	{ 's', OUR_MAX_SIZE, OUR_FIELD(size),                               \
	  "-s BYTES     bytes per message, 1 to 16777216 (default 64)" }
#define OUR_VERIFY_OPTION                                                  \
	{ 'v', 0, OUR_FIELD(verify), "-v           fill and check every byte" }
#define OUR_BUFFERS_OPTION                                                 \
	{ 'b', OUR_MAX_BUFFERS, OUR_FIELD(buffers),                         \
	  "-b N         messages in flight, 1 to 64 (default 4)" }
#define OUR_DURATION_OPTION                                                \
	{ 'D', 86400, OUR_FIELD(duration),                                  \
	  "-D SECONDS   run for SECONDS, 1 to 86400, instead of -c" }
#define OUR_CLIENTS_OPTION                                                 \
	{ 'n', OUR_MAX_CLIENTS, OUR_FIELD(clients),                         \
	  "-n N         clients to serve, each as it comes, 1 to 64 "       \
	  "(default 1)" }

/* A program, for the parser and for -h. */
struct our_program {
	const char *name;    /* "client": each message starts with it */
	const char *purpose; /* what it does, for -h */
	bool runs;           /* it runs an exchange, which Ctrl-C can end */
	bool needs_address;  /* -a is required: a client */
	/* Its tables of options, each ending with a row of letter 0; the
	 * first NULL ends the list. */
	const struct our_option *const *tables;
};

/* The client's -a (which it needs) and -p; the server's. */
extern const struct our_option our_client_address[];
extern const struct our_option our_server_address[];

/*
 * Fill options from argv, as program's tables say. Sets our_program_name
 * for the messages. Prints usage itself for -h and for bad usage, naming
 * the stage the program was built for (OUR_STAGE). Returns -1 to go on
 * with the program, or the exit status: 0 after -h, 2 for bad usage.
 */
int our_parse_options(const struct our_program *program, int argc,
		      char *argv[], struct our_options *options);

#endif
