// SPDX-License-Identifier: MIT
/*
 * options.c - read the command line as the program's tables of options
 * say.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "instruments.h"
#include "options.h"
#include "report.h"

#define OUR_PORT_OPTION                                                    \
	{ 'p', 65535, OUR_FIELD(port),                                      \
	  "-p PORT      port (default 12321)" }

const struct our_option our_client_address[] = {
	{ 'a', 0, OUR_FIELD(address),
	  "-a HOST      the server's address (required)" },
	OUR_PORT_OPTION,
	{ 0 },
};

const struct our_option our_server_address[] = {
	{ 'a', 0, OUR_FIELD(address),
	  "-a HOST      the address to listen on (default: all)" },
	OUR_PORT_OPTION,
	{ 0 },
};

/*
 * Read a decimal number from 1 to max. strtoull alone would take "-1",
 * "12abc" and " 5"; a student's typo deserves a clear refusal instead.
 */
static bool parse_number(const char *text, uint32_t max, uint32_t *value)
{
	char *end;
	unsigned long long number;

	errno = 0;
	number = strtoull(text, &end, 10);
	if (text[0] < '0' || text[0] > '9' || errno || *end != '\0' ||
	    number < 1 || number > max)
		return false;
	*value = (uint32_t)number;
	return true;
}

/* The row of program's tables for the option word arg ("-c"), or NULL. */
static const struct our_option *find_option(const struct our_program *program,
					    const char *arg)
{
	for (const struct our_option *const *t = program->tables; *t; t++) {
		for (const struct our_option *row = *t; row->letter; row++) {
			if (arg[0] == '-' && arg[1] == row->letter &&
			    arg[2] == '\0')
				return row;
		}
	}
	return NULL;
}

/*
 * The lab's $OUR_PORT: when set, -p's default, so that students who share
 * a machine each have a port of their own. It serves the lab, not the
 * lesson: the single files leave it out. True when it is set to what is
 * not a port.
 */
static bool bad_lab_port(const struct our_program *program,
			 struct our_options *options)
{
	const char *port = getenv("OUR_PORT");

	return port && find_option(program, "-p") &&
	       !parse_number(port, 65535, &options->port);
}

/* The lab's line of -h: $OUR_PORT, where the program takes -p. */
static void print_lab_usage(FILE *out, const struct our_program *program)
{
	if (find_option(program, "-p"))
		fprintf(out, "\n$OUR_PORT, when set, is the default of -p.\n");
}

/* Print how to call program, on out. */
static void print_usage(const struct our_program *program, FILE *out)
{
	bool named = strcmp(OUR_STAGE, program->name) == 0;

	fprintf(out, "usage: %s%s%s [options]\n%s\n\noptions:\n", OUR_STAGE,
		named ? "" : " ", named ? "" : program->name, program->purpose);
	for (const struct our_option *const *t = program->tables; *t; t++) {
		for (const struct our_option *row = *t; row->letter; row++)
			fprintf(out, "  %s\n", row->help);
	}
	fprintf(out, "  -h           show this help\n");
	our_print_instrument_usage(out, program->runs);
	if (program->runs)
		fprintf(out, "\nCtrl-C or SIGTERM ends a run cleanly, with a "
			     "report and exit status 130\nor 143; a second "
			     "one ends the program at once.\n");
	print_lab_usage(out, program);
}

/* Report bad usage: one line saying why, then the usage. Returns 2. */
OUR_FORMAT(2, 3)
static int bad_usage(const struct our_program *program, const char *fmt, ...)
{
	va_list args;

	fprintf(stderr, "%s: ", program->name);
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fputc('\n', stderr);
	print_usage(program, stderr);
	return 2;
}

int our_parse_options(const struct our_program *program, int argc,
		      char *argv[], struct our_options *options)
{
	our_program_name = program->name;
	*options = (struct our_options){ .port = 12321, .count = 100,
					 .size = 64, .buffers = 4,
					 .clients = 1 };
	if (bad_lab_port(program, options))
		return bad_usage(program,
				 "OUR_PORT must be 1 to 65535, not '%s'",
				 getenv("OUR_PORT"));
	for (int i = 1; i < argc; i++) {
		const struct our_option *row = find_option(program, argv[i]);
		char *field = (char *)options + (row ? row->field : 0);

		if (strcmp(argv[i], "-h") == 0 ||
		    strcmp(argv[i], "--help") == 0) {
			print_usage(program, stdout);
			return EXIT_SUCCESS;
		}
		/* The kit's instruments: -t, -T and -x. */
		if (our_instrument_option(argv[i], program->runs))
			continue;
		if (!row)
			return bad_usage(program, "unknown option '%s'",
					 argv[i]);
		if (row->max == 0 && row->letter != 'a')
			*(bool *)field = true;
		else if (++i == argc)
			return bad_usage(program, "missing argument for '%s'",
					 argv[i - 1]);
		else if (row->max == 0)
			*(const char **)field = argv[i];
		else if (!parse_number(argv[i], row->max, (uint32_t *)field))
			return bad_usage(program,
					 "%s must be 1 to %u, not '%s'",
					 argv[i - 1], row->max, argv[i]);
	}
	if (program->needs_address && !options->address)
		return bad_usage(program,
				 "the server's address is required: -a HOST");
	return -1;
}
