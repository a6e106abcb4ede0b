// SPDX-License-Identifier: MIT
/*
 * options.c - parse the command line shared by every program of the kit.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "report.h"

static const struct option long_options[] = {
	{ "address", required_argument, NULL, 'a' },
	{ "port", required_argument, NULL, 'p' },
	{ "count", required_argument, NULL, 'c' },
	{ "duration", required_argument, NULL, 'D' },
	{ "size", required_argument, NULL, 's' },
	{ "buffers", required_argument, NULL, 'b' },
	{ "clients", required_argument, NULL, 'n' },
	{ "verify", no_argument, NULL, 'v' },
	{ "statistics", no_argument, NULL, 'x' },
	{ "trace", no_argument, NULL, 't' },
	{ "verbose-trace", no_argument, NULL, 'T' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The stage a program was built for: the compiler is told (-D). */
#ifndef OUR_STAGE
#define OUR_STAGE "kit"
#endif

/* True when program is a server whose client sets its run. */
static bool told_by_client(const struct our_program *program)
{
	return program->role == OUR_SERVER && program->told_by_client &&
	       *program->told_by_client;
}

/* True when program is a client that takes -D. */
static bool takes_duration(const struct our_program *program)
{
	return program->role == OUR_CLIENT && program->timed &&
	       *program->timed;
}

/* Print how to call program, on out. */
static void print_usage(const struct our_program *program, FILE *out)
{
	bool transfer = program->accepts & OUR_ACCEPTS_TRANSFER;
	bool told = told_by_client(program);

	if (strcmp(OUR_STAGE, program->name) == 0)
		fprintf(out, "usage: %s [options]\n", program->name);
	else
		fprintf(out, "usage: %s %s [options]\n", OUR_STAGE,
			program->name);
	fprintf(out, "%s\n\noptions:\n", program->purpose);
	if (transfer && program->role == OUR_CLIENT)
		fprintf(out, "  -a, --address=HOST    server's address "
			     "(required)\n");
	if (transfer && program->role == OUR_SERVER)
		fprintf(out, "  -a, --address=HOST    local address to listen "
			     "on (default: all)\n");
	if (transfer)
		fprintf(out, "  -p, --port=PORT       port (default %s)\n",
			OUR_DEFAULT_PORT);
	if (transfer && !told)
		fprintf(out, "  -c, --count=N         transfers, 1 to %u "
			     "(default %u)\n",
			OUR_MAX_COUNT, OUR_DEFAULT_COUNT);
	if (transfer && !told && !program->fixed_size)
		fprintf(out, "  -s, --size=BYTES      bytes per message, 1 to "
			     "%u (default %u)\n",
			OUR_MAX_SIZE, OUR_DEFAULT_SIZE);
	if (takes_duration(program))
		fprintf(out, "  -D, --duration=SECONDS  run for SECONDS "
			     "instead of -c transfers, 1 to %u\n",
			OUR_MAX_DURATION);
	if (program->accepts & OUR_ACCEPTS_BUFFERS && !told)
		fprintf(out, "  -b, --buffers=N       messages in flight, 1 to "
			     "%u (default %u)\n",
			OUR_MAX_BUFFERS, OUR_DEFAULT_BUFFERS);
	if (program->accepts & OUR_ACCEPTS_CLIENTS)
		fprintf(out, "  -n, --clients=N       clients to serve, each "
			     "as it comes, 1 to %u (default 1)\n",
			OUR_MAX_CLIENTS);
	if (transfer && !told)
		fprintf(out, "  -v, --verify          check every byte "
			     "received\n");
	if (transfer)
		fprintf(out, "  -x, --statistics      latency, rate, "
			     "bandwidth and CPU\n");
	fprintf(out, "  -t, --trace           name every verb as it is "
		     "called\n"
		     "  -T, --verbose-trace   also show what the verbs "
		     "are given and return\n"
		     "  -h, --help            show this help\n");
	if (told)
		fprintf(out, "\nThe count, size%s and -v come from the client, "
			     "which sends them\nwhen it connects.\n",
			program->accepts & OUR_ACCEPTS_BUFFERS ? ", buffers" :
								 "");
	if (transfer)
		fprintf(out, "\nCtrl-C or SIGTERM ends a run after the transfer "
			     "in progress, with a report\nand exit status 130 "
			     "or 143; a second one ends the program at "
			     "once.\n");
}

/* Report bad usage: one line saying why, then the usage. */
OUR_FORMAT(2, 3)
static enum our_parse_result bad_usage(const struct our_program *program,
				       const char *fmt, ...)
{
	va_list args;

	fprintf(stderr, "%s: ", program->name);
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fputc('\n', stderr);
	print_usage(program, stderr);
	return OUR_OPTIONS_BAD;
}

/*
 * Read a decimal number from 1 to max. strtoul alone would take "-1",
 * "12abc" and " 5"; a student's typo deserves a clear refusal instead.
 */
static bool parse_number(const char *text, uint32_t max, uint32_t *value)
{
	char *end;
	unsigned long long number;

	if (text[0] < '0' || text[0] > '9')
		return false;
	errno = 0;
	number = strtoull(text, &end, 10);
	if (errno || *end != '\0' || number < 1 || number > max)
		return false;
	*value = (uint32_t)number;
	return true;
}

/* A port is a number from 1 to 65535. */
static bool valid_port(const char *text)
{
	uint32_t port;

	return parse_number(text, 65535, &port);
}

/* True when option letter is one the program takes. */
static bool accepts(const struct our_program *program, int letter)
{
	if (letter == 's' && program->fixed_size)
		return false;
	if (strchr("apcsvx", letter))
		return program->accepts & OUR_ACCEPTS_TRANSFER;
	if (letter == 'b')
		return program->accepts & OUR_ACCEPTS_BUFFERS;
	if (letter == 'D')
		return takes_duration(program);
	if (letter == 'n')
		return program->accepts & OUR_ACCEPTS_CLIENTS;
	return true;
}

/* True when option letter is one the program's client sets for it. */
static bool set_by_client(const struct our_program *program, int letter)
{
	if (letter == 'b' && !(program->accepts & OUR_ACCEPTS_BUFFERS))
		return false;
	return told_by_client(program) && strchr("csbvD", letter);
}

enum our_parse_result our_parse_options(const struct our_program *program,
					int argc, char *argv[],
					struct our_options *options)
{
	char letter_text[3] = "-?";
	bool counted = false;
	int letter;

	our_program_name = program->name;
	*options = (struct our_options){
		.port = OUR_DEFAULT_PORT,
		.count = OUR_DEFAULT_COUNT,
		.size = program->fixed_size ? program->fixed_size :
					      OUR_DEFAULT_SIZE,
		.clients = 1,
		/* One message in flight, unless the program takes -b. */
		.buffers = program->accepts & OUR_ACCEPTS_BUFFERS ?
				   OUR_DEFAULT_BUFFERS :
				   1,
	};
	opterr = 0; /* we say what is wrong ourselves */
	while ((letter = getopt_long(argc, argv, ":a:p:c:D:s:b:n:vxtTh",
				     long_options, NULL)) != -1) {
		if (letter == '?' || letter == ':') {
			const char *what = argv[optind - 1];

			if (optopt) {
				letter_text[1] = (char)optopt;
				what = letter_text;
			}
			return bad_usage(program, "%s '%s'",
					 letter == '?' ? "unknown option" :
							 "missing argument for",
					 what);
		}
		if (letter == 'D' && program->role == OUR_CLIENT &&
		    !accepts(program, letter))
			return bad_usage(program,
					 "option '-D' is not taken here: this "
					 "stage's server would not see the run "
					 "end (it comes with ping-sr-2)");
		if (set_by_client(program, letter)) {
			letter_text[1] = (char)letter;
			return bad_usage(program,
					 "option '%s' is not taken here: the "
					 "client sets the run when it "
					 "connects",
					 letter_text);
		}
		if (letter == 's' && program->fixed_size)
			return bad_usage(program,
					 "option '-s' is not taken here: "
					 "every transfer of this stage is %u "
					 "bytes",
					 program->fixed_size);
		if (!accepts(program, letter)) {
			letter_text[1] = (char)letter;
			return bad_usage(program,
					 "option '%s' is not taken here",
					 letter_text);
		}
		switch (letter) {
		case 'a':
			options->server_name = optarg;
			break;
		case 'p':
			if (!valid_port(optarg))
				return bad_usage(program,
						 "port must be 1 to 65535, "
						 "not '%s'",
						 optarg);
			options->port = optarg;
			break;
		case 'c':
			if (!parse_number(optarg, OUR_MAX_COUNT,
					  &options->count))
				return bad_usage(program,
						 "count must be 1 to %u, "
						 "not '%s'",
						 OUR_MAX_COUNT, optarg);
			counted = true;
			break;
		case 'D':
			if (!parse_number(optarg, OUR_MAX_DURATION,
					  &options->duration))
				return bad_usage(program,
						 "duration must be 1 to %u "
						 "seconds, not '%s'",
						 OUR_MAX_DURATION, optarg);
			break;
		case 's':
			if (!parse_number(optarg, OUR_MAX_SIZE, &options->size))
				return bad_usage(program,
						 "size must be 1 to %u bytes, "
						 "not '%s'",
						 OUR_MAX_SIZE, optarg);
			break;
		case 'b':
			if (!parse_number(optarg, OUR_MAX_BUFFERS,
					  &options->buffers))
				return bad_usage(program,
						 "buffers must be 1 to %u, "
						 "not '%s'",
						 OUR_MAX_BUFFERS, optarg);
			break;
		case 'n':
			if (!parse_number(optarg, OUR_MAX_CLIENTS,
					  &options->clients))
				return bad_usage(program,
						 "clients must be 1 to %u, "
						 "not '%s'",
						 OUR_MAX_CLIENTS, optarg);
			break;
		case 'v':
			options->verify = true;
			break;
		case 'x':
			options->statistics = true;
			break;
		case 't':
			if (options->trace < 1)
				options->trace = 1;
			break;
		case 'T':
			options->trace = 2;
			break;
		case 'h':
			print_usage(program, stdout);
			return OUR_OPTIONS_HELP;
		}
	}
	if (optind < argc)
		return bad_usage(program, "unexpected argument '%s'",
				 argv[optind]);
	if (counted && options->duration)
		return bad_usage(program, "-c and -D exclude each other: a run "
					  "has a count or a duration");
	if (program->role == OUR_CLIENT && !options->server_name)
		return bad_usage(program,
				 "the server's address is required: -a HOST");
	our_trace_level = options->trace;
	return OUR_OPTIONS_RUN;
}

int our_options_exit_status(enum our_parse_result result)
{
	return result == OUR_OPTIONS_HELP ? EXIT_SUCCESS : 2;
}
