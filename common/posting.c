// SPDX-License-Identifier: MIT
/*
 * posting.c - what every way of posting shares: work request ids,
 * scatter-gather elements, the queue pair's attributes, and what a failed
 * work completion means.
 */
#include "buffers.h"
#include "cm_events.h"
#include "completions.h"
#include "connection.h"
#include "exchange.h"
#include "instruments.h"
#include "interrupt.h"
#include "posting.h"
#include "report.h"

struct ibv_sge our_sge(const struct our_buffers *buffers, uint32_t slot,
		       uint32_t length)
{
	return (struct ibv_sge){
		.addr = (uintptr_t)our_slot(buffers, slot),
		.length = length,
		.lkey = buffers->mr->lkey,
	};
}

struct ibv_qp_init_attr our_qp_attr(const struct our_control *control)
{
	return (struct ibv_qp_init_attr){
		/* One completion queue for sends and receives. */
		.send_cq = control->cq,
		.recv_cq = control->cq,
		.cap = {
			.max_send_wr = control->send_depth,
			.max_recv_wr = control->recv_depth,
			.max_send_sge = our_sges_per_message,
			.max_recv_sge = our_sges_per_message,
		},
		/* Reliable connected: in order, each message acknowledged. */
		.qp_type = IBV_QPT_RC,
		/* A send completes only if flagged; a receive always. */
		.sq_sig_all = 0,
	};
}

int our_await_transfers(struct our_control *control, uint32_t sends,
			bool recv, struct ibv_wc *received)
{
	bool asked = recv;
	struct ibv_wc wc;

	while (sends || recv) {
		if (our_await_completion(control, &wc)) {
			/* The peer answered, so it had our sends: if it has
			 * gone since, only their acknowledgements were lost. */
			if (!(asked && !recv &&
			      control->end == OUR_RUN_PEER_GONE))
				return -1;
			control->end = OUR_RUN_AS_PLANNED;
			return 0;
		}
		if (OUR_WR_KIND(wc.wr_id) != OUR_WR_RECV) {
			if (sends > 0)
				sends--;
		} else {
			recv = false;
			control->answered = true;
			*received = wc;
		}
	}
	return 0;
}

/*
 * How long a failed work completion waits for the CM to say whether the
 * connection is down: the peer's CM sends the disconnect as soon as the
 * peer ends, or its kernel does when it dies.
 */
#define OUR_LOST_WAIT_MS 2000

bool our_count_done(const struct our_control *control)
{
	return control->count &&
	       control->transfers + control->answered >= control->count;
}

int our_check_wc(struct our_control *control, const struct ibv_wc *wc)
{
	uint32_t kind = OUR_WR_KIND(wc->wr_id);
	const char *what = kind == OUR_WR_SEND ? "send" :
			   kind == OUR_WR_RECV ? "receive" : "work request";

	our_trace_wc(wc);
	/* Once the count is done, or the answer to the last transfer is in,
	 * a send flushed or never acknowledged ends the run: the peer, done
	 * too, hung up (before our message or its acknowledgement came: we
	 * cannot tell). Not a receive flushed: its message never came. */
	if (wc->status == IBV_WC_SUCCESS ||
	    (kind != OUR_WR_RECV && (wc->status == IBV_WC_WR_FLUSH_ERR ||
				     wc->status == IBV_WC_RETRY_EXC_ERR) &&
	     our_count_done(control)))
		return 0;
	/* A failure may be the first news that the peer has gone (its
	 * queue pair is no more, or ours was flushed): the work completion
	 * says what failed, the CM whether the connection is down. Then the
	 * end is the peer's doing, unless a signal (Ctrl-C, SIGTERM) came
	 * first: the peer may have gone because we told it to. A message
	 * longer than our receive buffer came over a connection that is up. */
	if (wc->status != IBV_WC_LOC_LEN_ERR &&
	    !our_refused_by_peer(control, wc) &&
	    our_connection_lost(control, OUR_LOST_WAIT_MS)) {
		our_trace(1, "our %s failed (%s): %s has gone", what,
			  ibv_wc_status_str(wc->status), control->peer_name);
		control->end = our_interrupted() ? OUR_RUN_INTERRUPTED :
						   OUR_RUN_PEER_GONE;
		return -1;
	}
	/* Flushed: the queue pair went to the error state, usually because
	 * the connection was torn down: expected after a disconnect. */
	if (wc->status == IBV_WC_WR_FLUSH_ERR)
		our_error("%s flushed: the connection to %s is going down",
			  what, control->peer_name);
	/* Silence, and the CM has heard of no disconnect. */
	else if (wc->status == IBV_WC_RETRY_EXC_ERR) {
		our_error("%s failed: no acknowledgement from %s after %d "
			  "retries: the link is down, or %s is gone", what,
			  control->peer_name, OUR_RETRY_COUNT,
			  control->peer_name);
		control->end = OUR_RUN_SILENT;
	} else
		our_error("%s failed: %s (status %d, vendor error 0x%x)", what,
			  ibv_wc_status_str(wc->status), wc->status,
			  wc->vendor_err);
	our_explain_wc(control, wc);
	return -1;
}

void our_explain_wc(const struct our_control *control,
		    const struct ibv_wc *wc)
{
	uint32_t kind = OUR_WR_KIND(wc->wr_id);
	const char *hint = NULL;

	/* What the exchange posts beyond sends and receives, it explains. */
	if (our_explain_exchange_wc(control, wc))
		return;
	/* A message longer than the receive buffer fails both ends: the
	 * status each side sees varies with the device. */
	if (kind == OUR_WR_RECV && (wc->status == IBV_WC_LOC_LEN_ERR ||
				    wc->status == IBV_WC_LOC_QP_OP_ERR))
		hint = "size mismatch? a message longer than our receive "
		       "buffer fails this way: does the peer use a larger -s?";
	else if (kind == OUR_WR_SEND && (wc->status == IBV_WC_REM_INV_REQ_ERR ||
					 wc->status == IBV_WC_REM_OP_ERR))
		hint = "size mismatch? the peer could not take our message: "
		       "does it use a smaller -s?";
	else if (wc->status == IBV_WC_RNR_RETRY_EXC_ERR)
		hint = "the peer had no receive posted for our message";
	if (hint)
		our_error("%s (%s)", hint, control->peer_name);
}
