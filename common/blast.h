/* SPDX-License-Identifier: MIT */
/*
 * blast.h - a one-way stream of messages, with flow control.
 *
 * The client streams control->count messages of control->size bytes to
 * the agent, up to control->buffers of them in flight. Each message is a
 * SEND with immediate data: its sequence number, so even a 1-byte message
 * says where it belongs in the stream.
 *
 * Flow control by credits: a credit is one receive posted at the agent.
 * The agent posts the receives for the first min(buffers, count) messages
 * before it accepts, and the client starts with that many credits: it
 * knows both numbers, since it sent them. Each message spends a credit.
 * The agent posts each message's receive again while messages are still
 * to come that have none, and returns those credits in batches, each
 * batch a message of no bytes whose immediate data is the number of
 * credits. The client keeps control->buffers empty receives posted for
 * them. So no message ever arrives to find no receive waiting, whatever
 * the count, size and buffers. The agent's last credit message has no
 * credits: it says that every message is in.
 */
#ifndef OUR_BLAST_H
#define OUR_BLAST_H

#include "control.h"

/*
 * Client: post the control->buffers empty receives that the agent's
 * credits arrive in; before rdma_connect. Returns 0, or -1 (reported).
 */
int our_post_credit_receives(struct our_control *control);

/*
 * Agent: post the receives for the first min(buffers, count) messages;
 * before rdma_accept. Returns 0, or -1 (reported).
 */
int our_post_message_receives(struct our_control *control);

/*
 * Client: stream control->count messages, each filled with the pattern
 * of its sequence number with -v, and return once every send has
 * completed and the agent has said that every message is in: then, and
 * only then, may the client hang up. Counts each message in
 * control->stats with the time since the previous send completed.
 * Returns 0, or -1 (reported).
 */
int our_blast(struct our_control *control);

/*
 * Agent: take in control->count messages and return the client's
 * credits; with -v check that each message comes in order and carries
 * the pattern of its sequence number. Once every message is in, say so
 * to the client and wait for it to hang up (see blast.c on the end).
 * Counts each message in control->stats with the time since the
 * previous one arrived. Returns 0, or -1 (reported).
 */
int our_drain(struct our_control *control);

#endif
