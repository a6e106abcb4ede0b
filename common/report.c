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
 * Print "name: ", the message of fmt and args, and end, as one line on
 * stream: its lock keeps the lines of other threads out of it.
 */
static void print_line(FILE *stream, const char *end, const char *fmt,
		       va_list args)
{
	flockfile(stream);
	fprintf(stream, "%s: ", our_program_name);
	vfprintf(stream, fmt, args);
	fputs(end, stream);
	funlockfile(stream);
}

void our_error(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	print_line(stderr, "\n", fmt, args);
	va_end(args);
}

void our_say(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	print_line(stdout, "\n", fmt, args);
	va_end(args);
	/* stdout into a file is written in blocks; this line must not wait. */
	fflush(stdout);
}

/*
 * The check of every verb: when ret is not 0, the verb that fmt and args
 * name failed with error number err: report "verb: err's text". Returns
 * true when it failed.
 */
static bool check_verb(int ret, int err, const char *fmt, va_list args)
{
	char end[96];

	our_trace_verb(ret, fmt, args);
	if (ret == 0)
		return false;
	snprintf(end, sizeof(end), ": %s\n", strerror(err));
	print_line(stderr, end, fmt, args);
	return true;
}

bool our_verb_failed(int ret, const char *fmt, ...)
{
	/* Saved first: printing may change errno, and callers look at it. */
	int err = errno;
	va_list args;
	bool failed;

	va_start(args, fmt);
	failed = check_verb(ret, err, fmt, args);
	va_end(args);
	errno = err;
	return failed;
}

bool our_verb_error(int ret, const char *fmt, ...)
{
	int err = errno;
	va_list args;
	bool failed;

	va_start(args, fmt);
	failed = check_verb(ret, ret < 0 ? -ret : ret, fmt, args);
	va_end(args);
	errno = err;
	return failed;
}

void our_report_wc(const struct ibv_wc *wc, const char *what)
{
	/* Flushed: the queue pair went to the error state, usually because
	 * the connection was torn down: expected after a disconnect. */
	if (wc->status == IBV_WC_WR_FLUSH_ERR)
		our_error("%s flushed: the connection is going down", what);
	else
		our_error("%s failed: %s (status %d, vendor error 0x%x)", what,
			  ibv_wc_status_str(wc->status), wc->status,
			  wc->vendor_err);
}
