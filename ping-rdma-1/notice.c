// SPDX-License-Identifier: MIT
/*
 * notice.c - telling the peer about a one-sided transfer: a small send
 * that carries the transfer's number.
 */
#include <arpa/inet.h>
#include <string.h>

#include "buffers.h"
#include "completions.h"
#include "exchange.h"
#include "memory_wire.h"
#include "notice.h"
#include "posting.h"
#include "report.h"

int our_post_notice(struct our_control *control, uint32_t slot,
		    uint32_t number)
{
	struct our_notice notice = { .number = htonl(number) };

	memcpy(our_slot(&control->send, slot), &notice, sizeof(notice));
	return our_post_send(control, &control->send, slot, sizeof(notice));
}

int our_post_receives(struct our_control *control)
{
	for (uint32_t slot = 0; slot < control->recv.slots; slot++) {
		if (our_post_recv(control, slot))
			return -1;
	}
	return 0;
}

int our_take_notice(const struct our_control *control,
		    const struct ibv_wc *wc, uint32_t *number)
{
	struct our_notice notice;

	if (wc->byte_len != sizeof(notice)) {
		our_error("a message of %u bytes from %s where a notice of "
			  "%zu was due",
			  wc->byte_len, control->peer_name, sizeof(notice));
		return -1;
	}
	memcpy(&notice, our_slot(&control->recv, OUR_WR_SLOT(wc->wr_id)),
	       sizeof(notice));
	*number = ntohl(notice.number);
	return 0;
}

bool our_expected_notice(const struct our_control *control,
			 const struct ibv_wc *wc, uint32_t number)
{
	uint32_t taken;

	if (our_take_notice(control, wc, &taken))
		return false;
	if (taken == number)
		return true;
	our_error("the notice from %s is for %s %u; we are at %u",
		  control->peer_name, our_transfer_unit, taken, number);
	return false;
}
