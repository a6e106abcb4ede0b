// SPDX-License-Identifier: MIT
/*
 * stubs.c - what common/posting.c asks of the pieces that a test program
 * built without a connection does not link (memory-ad, wr-abort): none
 * of it is needed there, since no work completion is awaited or fails.
 */
#include "cm_events.h"
#include "completions.h"
#include "report.h"

/* Asked of a failed work completion; none happens here. */
bool our_connection_lost(struct our_control *control, uint32_t wait_ms)
{
	(void)control;
	(void)wait_ms;
	return false;
}

/* Nor is a completion awaited. */
int our_await_completion(struct our_control *control, struct ibv_wc *wc)
{
	(void)control;
	(void)wc;
	return -1;
}

bool our_peer_disconnected(struct our_control *control)
{
	(void)control;
	return false;
}

uint64_t our_now_ns(void)
{
	return 0;
}

/* What the exchange says, for the report and the queue pair. */
const char our_transfer_unit[] = "transfer";
const uint32_t our_sizes_per_transfer = 1;
const uint32_t our_sges_per_message = 1;
