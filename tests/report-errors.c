// SPDX-License-Identifier: MIT
/*
 * report-errors.c - a unit test of how the kit reports a failed verb:
 * an ibv_* error number is understood whether the provider returns it
 * positive or negative, and errno is left as the verb left it, for the
 * caller's hints.
 *
 * usage: report-errors   (prints the reports; exits 0 when errno held)
 */
#include <errno.h>
#include <stdio.h>

#include "report.h"

int main(void)
{
	int wrong = 0;

	our_program_name = "report-errors";
	/* The same failure, as two providers return it. */
	our_verb_error(ENOMEM, "ibv_post_send positive");
	our_verb_error(-ENOMEM, "ibv_post_send negative");
	/* An rdma_* verb: -1, the reason in errno, kept for the caller. */
	errno = ENODEV;
	if (!our_verb_failed(-1, "rdma_create_id") || errno != ENODEV) {
		printf("report-errors: errno changed to %d\n", errno);
		wrong++;
	}
	errno = EAGAIN;
	our_verb_error(EINVAL, "ibv_req_notify_cq");
	if (errno != EAGAIN) {
		printf("report-errors: errno changed to %d\n", errno);
		wrong++;
	}
	return wrong ? 1 : 0;
}
