// SPDX-License-Identifier: MIT
/*
 * posting.c - what every way of posting shares: work request ids, scatter-
 * gather elements, and what a failed work completion means.
 */

#include <poll.h>
#include <stdatomic.h>

#include "buffers.h"
#include "cm_events.h"
#include "completions.h"
#include "posting.h"
#include "report.h"

/*
 * How long a remote access error waits for the CM to say that the peer
 * has gone. A peer that dies mid-run can refuse us too: its kernel may
 * free its memory registrations before its queue pair, and a write or
 * read that arrives in between is refused; its disconnect follows within
 * a moment. A peer that is alive and refused us stays connected for
 * longer than this: it waits as long as our_connection_lost() does for
 * our disconnect before it gives up on us.
 */
#define OUR_REFUSED_WAIT_MS 500

uint64_t our_wr_id(enum our_wr_kind kind, uint32_t slot)
{
	return (uint64_t)kind << 32 | slot;
}

enum our_wr_kind our_wr_kind(uint64_t wr_id)
{
	return (enum our_wr_kind)(wr_id >> 32);
}

uint32_t our_wr_slot(uint64_t wr_id)
{
	return (uint32_t)wr_id;
}

struct ibv_sge our_sge(const struct our_buffers *buffers, uint32_t slot,
		       uint32_t length)
{
	return (struct ibv_sge){
		.addr = (uintptr_t)our_slot(buffers, slot),
		.length = length,
		.lkey = buffers->mr->lkey,
	};
}

const char *our_wr_kind_name(enum our_wr_kind kind)
{
	switch (kind) {
	case OUR_WR_SEND:
		return "send";
	case OUR_WR_RECV:
		return "receive";
	case OUR_WR_WRITE:
		return "RDMA write";
	case OUR_WR_READ:
		return "RDMA read";
	case OUR_WR_ATOMIC:
		return "atomic";
	}
	return "work request";
}

int our_await_transfers(struct our_control *control, uint32_t sends,
			bool recv, struct ibv_wc *received)
{
	struct ibv_wc wc;

	while (sends || recv) {
		if (our_await_completion(control, &wc))
			return -1;
		if (our_wr_kind(wc.wr_id) != OUR_WR_RECV) {
			if (sends > 0)
				sends--;
		} else {
			recv = false;
			*received = wc;
		}
	}
	return 0;
}

/* True once the CM says the peer disconnected, within MS milliseconds. */
static bool peer_gone_within(struct our_control *control, unsigned ms)
{
	uint64_t give_up = our_now_ns() + ms * 1000000ull;

	while (!our_peer_disconnected(control)) {
		if (our_now_ns() >= give_up ||
		    atomic_load(&control->watch_failed))
			return false;
		poll(NULL, 0, 10);
	}
	return true;
}

int our_check_wc(struct our_control *control, const struct ibv_wc *wc)
{
	enum our_wr_kind kind = our_wr_kind(wc->wr_id);
	const char *what = our_wr_kind_name(kind);
	const char *peer = control->peer_name;

	our_trace(2, "work completion: %s slot %u, %s, %u bytes", what,
		  our_wr_slot(wc->wr_id), ibv_wc_status_str(wc->status),
		  wc->byte_len);
	if (wc->status == IBV_WC_SUCCESS)
		return 0;
	/* A message longer than our receive buffer: the connection is up,
	 * since it brought the message. */
	if (wc->status == IBV_WC_LOC_LEN_ERR && kind == OUR_WR_RECV) {
		our_report_wc(wc, what);
		our_error("size mismatch: a message from %s was longer than our "
			  "%u-byte receive buffer; does it use a larger -s?",
			  peer, control->recv.slot_size);
		return -1;
	}
	/* The peer's adapter refused to let us reach its memory: the peer
	 * is there, unless it disconnects within a moment. */
	if (wc->status == IBV_WC_REM_ACCESS_ERR &&
	    !peer_gone_within(control, OUR_REFUSED_WAIT_MS)) {
		our_report_wc(wc, what);
		our_error("%s refused our %s: the rkey or address it advertised "
			  "is wrong, or its memory is not registered for this "
			  "remote access",
			  peer, what);
		return -1;
	}
	/* Any other failure may be the first news that the peer has gone
	 * (its queue pair is no more, or ours was flushed): a work
	 * completion says what failed, the CM says whether the connection
	 * is down. The end of the run is then told as the peer's doing. */
	if (wc->status == IBV_WC_REM_ACCESS_ERR ||
	    our_connection_lost(control)) {
		our_trace(1, "our %s failed (%s): %s has gone", what,
			  ibv_wc_status_str(wc->status), peer);
		control->end = OUR_RUN_PEER_GONE;
		return -1;
	}
	our_report_wc(wc, what);
	/* The connection is still up, or nothing watches it. A message
	 * longer than the receive buffer fails both ends; the status each
	 * side sees varies with the device. */
	if (wc->status == IBV_WC_LOC_QP_OP_ERR && kind == OUR_WR_RECV)
		our_error("size mismatch? a message longer than our %u-byte "
			  "receive buffer fails this way; does %s use a "
			  "larger -s?",
			  control->recv.slot_size, peer);
	if ((wc->status == IBV_WC_REM_INV_REQ_ERR ||
	     wc->status == IBV_WC_REM_OP_ERR) &&
	    kind == OUR_WR_SEND)
		our_error("size mismatch? %s could not take our %u-byte "
			  "message; does it use a smaller -s?",
			  peer, control->size);
	if (wc->status == IBV_WC_RETRY_EXC_ERR)
		our_error("%s stopped answering: it may have died, or the "
			  "network between us is down",
			  peer);
	if (wc->status == IBV_WC_RNR_RETRY_EXC_ERR)
		our_error("%s had no receive posted for our message", peer);
	return -1;
}
