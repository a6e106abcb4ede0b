// SPDX-License-Identifier: MIT
/*
 * report.c - errors and tracing, in one voice for the whole kit.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

const char *our_program_name = "kit";
int our_trace_level;

/*
 * Print "name: ", the formatted message and end, as one line: the lock
 * on stream keeps other threads' lines out of it (the agents of a server
 * for many clients share stderr and stdout).
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

void our_trace(int level, const char *fmt, ...)
{
	va_list args;

	if (our_trace_level < level)
		return;
	va_start(args, fmt);
	print_line(stderr, "\n", fmt, args);
	va_end(args);
}

/*
 * The common end of our_verb_failed() and our_verb_null(): trace the call
 * and, when it failed with error number err, report it.
 */
static void trace_or_report(bool failed, int err, const char *result,
			    const char *fmt, va_list args)
{
	char end[96];

	if (!failed && our_trace_level < 1)
		return;
	if (failed)
		snprintf(end, sizeof(end), ": %s\n", strerror(err));
	else
		snprintf(end, sizeof(end), " -> %s\n", result);
	print_line(stderr, end, fmt, args);
}

bool our_verb_failed(int ret, const char *fmt, ...)
{
	/* Saved first: printing may change errno, and callers look at it. */
	int err = errno;
	char result[16];
	va_list args;

	snprintf(result, sizeof(result), "%d", ret);
	va_start(args, fmt);
	trace_or_report(ret != 0, err, result, fmt, args);
	va_end(args);
	errno = err;
	return ret != 0;
}

bool our_verb_error(int ret, const char *fmt, ...)
{
	int saved = errno;
	char result[16];
	va_list args;

	snprintf(result, sizeof(result), "%d", ret);
	va_start(args, fmt);
	trace_or_report(ret != 0, ret < 0 ? -ret : ret, result, fmt, args);
	va_end(args);
	errno = saved;
	return ret != 0;
}

bool our_verb_null(const void *pointer, const char *fmt, ...)
{
	int err = errno;
	va_list args;

	va_start(args, fmt);
	trace_or_report(pointer == NULL, err, pointer ? "ok" : "NULL", fmt,
			args);
	va_end(args);
	errno = err;
	return pointer == NULL;
}

void our_report_wc(const struct ibv_wc *wc, const char *what)
{
	if (wc->status == IBV_WC_WR_FLUSH_ERR) {
		/* The queue pair went to the error state, usually because
		 * the connection was torn down: expected after a disconnect. */
		our_error("%s flushed: the connection is going down (%s)", what,
			  ibv_wc_status_str(wc->status));
		return;
	}
	our_error("%s failed: %s (status %d, vendor error 0x%x)", what,
		  ibv_wc_status_str(wc->status), wc->status, wc->vendor_err);
}
