// SPDX-License-Identifier: MIT
/*
 * slow-sends.c - a fault for the tests, loaded with LD_PRELOAD into a
 * program whose send queue carries sends alone (blast-rdma-1's agent):
 * each send's work completion is held back OUR_SEND_DELAY_MS
 * milliseconds (default 20) after the adapter has it, as a slow network
 * or a busy adapter can; and a send posted from a slot whose last send
 * has not completed yet is reported on stderr, "slow-sends: send slot N
 * posted again before its send completed": the adapter may still read
 * that slot, to send it again if it was lost. With OUR_SEND_FLUSH=1 each
 * send held back comes out flushed (IBV_WC_WR_FLUSH_ERR), as it does when
 * the peer's disconnect reaches the queue pair before the send's
 * acknowledgement. OUR_SEND_KIND=K
 * holds back the work requests of kind K instead (3: RDMA writes, 4:
 * RDMA reads).
 *
 * ibv_post_send and ibv_poll_cq are inline: they call the device's
 * functions in ibv_context's ops, which this fault wraps once the
 * program's queue pair is created (rdma_create_qp).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <rdma/rdma_cma.h>

/* The kit's work request ids: the kind in the high half (1: a send, 3:
 * an RDMA write, 4: an RDMA read), the slot in the low one. */
#define KIND(wr_id) ((uint32_t)((wr_id) >> 32))
#define SLOT(wr_id) ((uint32_t)(wr_id))
#define SEND 1
#define SLOTS 256

static int (*real_post_send)(struct ibv_qp *, struct ibv_send_wr *,
			     struct ibv_send_wr **);
static int (*real_poll_cq)(struct ibv_cq *, int, struct ibv_wc *);
static uint32_t held_kind = SEND;
static bool busy[SLOTS];
static uint64_t delay_ns;
static bool flush;

/* The completions held back, oldest first, and when each is due. */
static struct {
	struct ibv_wc wc;
	uint64_t due;
} held[SLOTS];
static unsigned int first, count;

static uint64_t now_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

static int post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
		     struct ibv_send_wr **bad_wr)
{
	for (struct ibv_send_wr *w = wr; w; w = w->next) {
		if (KIND(w->wr_id) != held_kind || SLOT(w->wr_id) >= SLOTS)
			continue;
		if (busy[SLOT(w->wr_id)])
			fprintf(stderr, "slow-sends: send slot %u posted again "
				"before its send completed\n", SLOT(w->wr_id));
		busy[SLOT(w->wr_id)] = true;
	}
	return real_post_send(qp, wr, bad_wr);
}

static int poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	struct ibv_wc got[16];
	uint64_t now = now_ns();
	int out = 0;
	int found;

	/* The sends held long enough come out first, in order. */
	while (out < n && count && held[first].due <= now) {
		wc[out] = held[first].wc;
		if (flush)
			wc[out].status = IBV_WC_WR_FLUSH_ERR;
		busy[SLOT(wc[out].wr_id) % SLOTS] = false;
		out++;
		first = (first + 1) % SLOTS;
		count--;
	}
	if (out == n)
		return out;
	found = real_poll_cq(cq, n - out < 16 ? n - out : 16, got);
	if (found < 0)
		return out ? out : found;
	for (int i = 0; i < found; i++) {
		if (KIND(got[i].wr_id) == held_kind && count < SLOTS) {
			unsigned int last = (first + count++) % SLOTS;

			held[last].wc = got[i];
			held[last].due = now + delay_ns;
		} else {
			wc[out++] = got[i];
		}
	}
	return out;
}

int rdma_create_qp(struct rdma_cm_id *id, struct ibv_pd *pd,
		   struct ibv_qp_init_attr *qp_init_attr)
{
	int (*real)(struct rdma_cm_id *, struct ibv_pd *,
		    struct ibv_qp_init_attr *);
	const char *ms = getenv("OUR_SEND_DELAY_MS");
	int ret;

	real = (int (*)(struct rdma_cm_id *, struct ibv_pd *,
			struct ibv_qp_init_attr *))dlsym(RTLD_NEXT,
							 "rdma_create_qp");
	ret = real(id, pd, qp_init_attr);
	if (ret || real_post_send)
		return ret;
	delay_ns = (ms ? strtoull(ms, NULL, 10) : 20) * 1000000ull;
	if (getenv("OUR_SEND_KIND"))
		held_kind = (uint32_t)atoi(getenv("OUR_SEND_KIND"));
	flush = getenv("OUR_SEND_FLUSH") && atoi(getenv("OUR_SEND_FLUSH"));
	real_post_send = id->verbs->ops.post_send;
	real_poll_cq = id->verbs->ops.poll_cq;
	id->verbs->ops.post_send = post_send;
	id->verbs->ops.poll_cq = poll_cq;
	return 0;
}
