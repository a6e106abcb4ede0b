// SPDX-License-Identifier: MIT
/*
 * trace.c - the kit's instruments' options, and what a program says it
 * does: -t traces each verb as it is called, -T more.
 */
#include <string.h>

#include "instruments.h"
#include "posting.h"

/* How much is traced: 0, 1 with -t, 2 with -T. */
static int trace_level;
/* -x was given (see statistics.c). */
bool our_statistics_asked;

bool our_instrument_option(const char *arg, bool runs)
{
	if (strcmp(arg, "-t") == 0 || strcmp(arg, "--trace") == 0) {
		if (trace_level < 1)
			trace_level = 1;
		return true;
	}
	if (strcmp(arg, "-T") == 0 || strcmp(arg, "--verbose-trace") == 0) {
		trace_level = 2;
		return true;
	}
	if (runs && (strcmp(arg, "-x") == 0 ||
		     strcmp(arg, "--statistics") == 0)) {
		our_statistics_asked = true;
		return true;
	}
	return false;
}

void our_print_instrument_usage(FILE *out, bool runs)
{
	if (runs)
		fprintf(out, "  -x, --statistics      latency, rate, bandwidth "
			     "and CPU\n");
	fprintf(out, "  -t, --trace           name every verb as it is "
		     "called\n"
		     "  -T, --verbose-trace   also show what the verbs are "
		     "given and return\n");
}

/* Print "name: ", the message of fmt and args, and end, as one line in
 * one call (see print_line in report.c). */
static void trace_line(const char *end, const char *fmt, va_list args)
{
	char message[1024];

	vsnprintf(message, sizeof(message), fmt, args);
	fprintf(stderr, "%s: %s%s", our_program_name, message, end);
}

void our_trace(int level, const char *fmt, ...)
{
	va_list args;

	if (trace_level < level)
		return;
	va_start(args, fmt);
	trace_line("\n", fmt, args);
	va_end(args);
}

void our_trace_verb(int ret, const char *fmt, va_list args)
{
	char end[32];
	va_list copy;

	if (ret || trace_level < 1)
		return;
	snprintf(end, sizeof(end), " -> %d\n", ret);
	va_copy(copy, args);
	trace_line(end, fmt, copy);
	va_end(copy);
}

/* What a work completion was: its opcode says, when it succeeded. */
static const char *wc_name(const struct ibv_wc *wc)
{
	uint32_t kind = OUR_WR_KIND(wc->wr_id);

	if (kind == OUR_WR_RECV)
		return "receive";
	if (kind == OUR_WR_SEND)
		return "send";
	if (wc->status != IBV_WC_SUCCESS)
		return "work request";
	switch (wc->opcode) {
	case IBV_WC_RDMA_WRITE:
		return "RDMA write";
	case IBV_WC_RDMA_READ:
		return "RDMA read";
	case IBV_WC_COMP_SWAP:
		return "compare-and-swap";
	case IBV_WC_FETCH_ADD:
		return "fetch-and-add";
	default:
		return "work request";
	}
}

/* A failed completion sets only wr_id, status, qp_num and vendor_err:
 * no byte count then. */
void our_trace_wc(const struct ibv_wc *wc)
{
	if (wc->status != IBV_WC_SUCCESS)
		our_trace(2, "work completion: %s slot %u, %s", wc_name(wc),
			  OUR_WR_SLOT(wc->wr_id),
			  ibv_wc_status_str(wc->status));
	else
		our_trace(2, "work completion: %s slot %u, %s, %u bytes",
			  wc_name(wc), OUR_WR_SLOT(wc->wr_id),
			  ibv_wc_status_str(wc->status), wc->byte_len);
}

