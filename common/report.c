// SPDX-License-Identifier: MIT
/*
 * report.c - errors and messages, in one voice for the whole kit.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "instruments.h"
#include "report.h"

const char *our_program_name = "kit";

/*
 * Print "name: " and the message of fmt and args, and ": " and err's
 * text when err is not 0, as one line on stream, in one call: stderr
 * writes each call at once, and a line of stdout written between two
 * calls would land inside this one.
 */
static void print_line(FILE *stream, int err, const char *fmt,
		       va_list args)
{
	char message[1024];

	vsnprintf(message, sizeof(message), fmt, args);
	fprintf(stream, "%s: %s%s%s\n", our_program_name, message,
		err ? ": " : "", err ? strerror(err) : "");
}

void our_error(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	print_line(stderr, 0, fmt, args);
	va_end(args);
}

void our_say(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	print_line(stdout, 0, fmt, args);
	va_end(args);
	/* stdout into a file is written in blocks; this line must not wait. */
	fflush(stdout);
}

bool our_verb_failed(int ret, const char *fmt, ...)
{
	/* Saved first: printing may change errno, and callers look at it. */
	int err = errno;
	va_list args;

	va_start(args, fmt);
	our_trace_verb(ret, fmt, args);
	if (ret)
		print_line(stderr, err, fmt, args);
	va_end(args);
	errno = err;
	return ret != 0;
}

bool our_verb_error(int ret, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	our_trace_verb(ret, fmt, args);
	if (ret)
		print_line(stderr, ret < 0 ? -ret : ret, fmt, args);
	va_end(args);
	return ret != 0;
}
