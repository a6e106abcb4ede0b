// SPDX-License-Identifier: MIT
/*
 * verb_log.c - the checkers' record of the verbs a program really calls,
 * loaded with LD_PRELOAD: a checker counts calls here, not the lines a
 * program prints, so trace lines printed without the verb pass nothing.
 *
 * OUR_VERB_LOG names the file; each call appends one line to it, written
 * in one write(2) so that threads and both sides may share the file:
 *
 *   PROGRAM VERB [DETAIL...]
 *
 * PROGRAM is the program's name (client, server). The verbs of librdmacm
 * and libibverbs that are functions are wrapped by name. Those that are
 * inline in the headers (ibv_post_send, ibv_post_recv, ibv_poll_cq,
 * ibv_req_notify_cq, and the rdma_post_* helpers built on them) call the
 * provider through its context's table of operations: the first
 * completion queue made on a context swaps that table's entries for the
 * wrappers here, which log and call the provider's own.
 *
 * Details: ibv_post_send logs one line a work request (its opcode,
 * whether it is signaled, and how many work requests the call chains);
 * ibv_poll_cq one line a completion it returns (its status and opcode);
 * ibv_reg_mr the access flags; rdma_connect and rdma_accept the reads in
 * flight they ask for; rdma_create_qp(_ex) the queue sizes and
 * sq_sig_all. librdmacm's own
 * calls are logged too: rdma_create_qp calls rdma_create_qp_ex, and
 * rdma_create_id without a channel makes one.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

extern char *program_invocation_short_name;

/* log_line FORMAT ...: one line in the log, in one write. */
static void log_line(const char *format, ...)
{
	const char *path = getenv("OUR_VERB_LOG");
	char line[256];
	va_list args;
	int saved = errno, fd, length;

	if (!path)
		return;
	length = snprintf(line, sizeof(line), "%s ",
			  program_invocation_short_name);
	va_start(args, format);
	length += vsnprintf(line + length, sizeof(line) - length - 1, format,
			    args);
	va_end(args);
	if (length > (int)sizeof(line) - 2)
		length = sizeof(line) - 2;
	line[length++] = '\n';
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0) {
		if (write(fd, line, length) < 0)
			(void)0;
		close(fd);
	}
	errno = saved;
}

/* REAL(name): the library's own function of that name. */
#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

/* WRAP(type, name, (params), (args)): name logged, then called. */
#define WRAP(type, name, params, args)                                      \
	type name params                                                    \
	{                                                                   \
		log_line("%s", #name);                                      \
		return REAL(name) args;                                     \
	}

WRAP(struct rdma_event_channel *, rdma_create_event_channel, (void), ())
WRAP(int, rdma_get_cm_event,
     (struct rdma_event_channel *channel, struct rdma_cm_event **event),
     (channel, event))
WRAP(int, rdma_ack_cm_event, (struct rdma_cm_event *event), (event))
WRAP(int, rdma_create_id,
     (struct rdma_event_channel *channel, struct rdma_cm_id **id,
      void *context, enum rdma_port_space ps),
     (channel, id, context, ps))
WRAP(int, rdma_migrate_id,
     (struct rdma_cm_id *id, struct rdma_event_channel *channel),
     (id, channel))
WRAP(int, rdma_resolve_addr,
     (struct rdma_cm_id *id, struct sockaddr *src, struct sockaddr *dst,
      int timeout_ms),
     (id, src, dst, timeout_ms))
WRAP(int, rdma_resolve_route, (struct rdma_cm_id *id, int timeout_ms),
     (id, timeout_ms))
WRAP(int, rdma_disconnect, (struct rdma_cm_id *id), (id))
WRAP(struct ibv_comp_channel *, ibv_create_comp_channel,
     (struct ibv_context *context), (context))
WRAP(int, ibv_get_cq_event,
     (struct ibv_comp_channel *channel, struct ibv_cq **cq, void **context),
     (channel, cq, context))
WRAP(void, ibv_ack_cq_events, (struct ibv_cq *cq, unsigned int events),
     (cq, events))
WRAP(int, ibv_query_device,
     (struct ibv_context *context, struct ibv_device_attr *attr),
     (context, attr))

/* log_conn_param VERB PARAM: VERB, with the reads in flight it asks for. */
static void log_conn_param(const char *verb,
			   const struct rdma_conn_param *param)
{
	if (param)
		log_line("%s responder_resources=%u initiator_depth=%u", verb,
			 param->responder_resources, param->initiator_depth);
	else
		log_line("%s", verb);
}

int rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *param)
{
	log_conn_param("rdma_connect", param);
	return REAL(rdma_connect)(id, param);
}

int rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *param)
{
	log_conn_param("rdma_accept", param);
	return REAL(rdma_accept)(id, param);
}

/* log_qp VERB CAP SIG_ALL: VERB, with the queue pair's send queue. */
static void log_qp(const char *verb, const struct ibv_qp_cap *cap,
		   int sq_sig_all)
{
	log_line("%s max_send_wr=%u max_recv_wr=%u sq_sig_all=%d", verb,
		 cap->max_send_wr, cap->max_recv_wr, sq_sig_all);
}

int rdma_create_qp(struct rdma_cm_id *id, struct ibv_pd *pd,
		   struct ibv_qp_init_attr *attr)
{
	log_qp("rdma_create_qp", &attr->cap, attr->sq_sig_all);
	return REAL(rdma_create_qp)(id, pd, attr);
}

int rdma_create_qp_ex(struct rdma_cm_id *id, struct ibv_qp_init_attr_ex *attr)
{
	log_qp("rdma_create_qp_ex", &attr->cap, attr->sq_sig_all);
	return REAL(rdma_create_qp_ex)(id, attr);
}

#undef ibv_reg_mr
struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			  int access)
{
	log_line("ibv_reg_mr access=0x%x", access);
	return REAL(ibv_reg_mr)(pd, addr, length, access);
}

/* What ibv_reg_mr becomes when its access flags are not a constant. */
struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length,
				uint64_t iova, unsigned int access)
{
	log_line("ibv_reg_mr access=0x%x", access);
	return REAL(ibv_reg_mr_iova2)(pd, addr, length, iova, access);
}

/* The provider's own operations, saved when they are swapped. */
static struct ibv_context_ops provider;

static int log_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
			 struct ibv_send_wr **bad_wr)
{
	struct ibv_send_wr *one;
	int chain = 0;

	for (one = wr; one; one = one->next)
		chain++;
	for (one = wr; one; one = one->next)
		log_line("ibv_post_send opcode=%d signaled=%d chain=%d",
			 one->opcode, !!(one->send_flags & IBV_SEND_SIGNALED),
			 chain);
	return provider.post_send(qp, wr, bad_wr);
}

static int log_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
			 struct ibv_recv_wr **bad_wr)
{
	struct ibv_recv_wr *one;

	for (one = wr; one; one = one->next)
		log_line("ibv_post_recv");
	return provider.post_recv(qp, wr, bad_wr);
}

static int log_poll_cq(struct ibv_cq *cq, int entries, struct ibv_wc *wc)
{
	int found = provider.poll_cq(cq, entries, wc), i;

	for (i = 0; i < found; i++)
		log_line("ibv_poll_cq status=%d opcode=%d", wc[i].status,
			 wc[i].opcode);
	return found;
}

static int log_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	log_line("ibv_req_notify_cq");
	return provider.req_notify_cq(cq, solicited_only);
}

/* swap_operations: the context's inline verbs go through the wrappers. */
static void swap_operations(struct ibv_context *context)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct ibv_context_ops *ops = &context->ops;

	pthread_mutex_lock(&lock);
	if (ops->post_send != log_post_send) {
		provider.post_send = ops->post_send;
		provider.post_recv = ops->post_recv;
		provider.poll_cq = ops->poll_cq;
		provider.req_notify_cq = ops->req_notify_cq;
		ops->post_send = log_post_send;
		ops->post_recv = log_post_recv;
		ops->poll_cq = log_poll_cq;
		ops->req_notify_cq = log_req_notify_cq;
	}
	pthread_mutex_unlock(&lock);
}

struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe,
			     void *cq_context, struct ibv_comp_channel *channel,
			     int comp_vector)
{
	log_line("ibv_create_cq");
	swap_operations(context);
	return REAL(ibv_create_cq)(context, cqe, cq_context, channel,
				   comp_vector);
}

/*
 * atomic-counter, pubsub-board: ibv_dereg_mr logs the region's length (so
 * that a checker sees how much was registered: the board a server opens,
 * say) and, for a region of 8 bytes (a counter), the value it holds as it
 * is deregistered: what the peers' atomics left there, read from the
 * memory itself rather than from what the program prints.
 */
int ibv_dereg_mr(struct ibv_mr *mr)
{
	if (mr && mr->length == sizeof(uint64_t))
		log_line("ibv_dereg_mr length=%zu value=%llu", mr->length,
			 (unsigned long long)*(volatile uint64_t *)mr->addr);
	else if (mr)
		log_line("ibv_dereg_mr length=%zu", mr->length);
	return REAL(ibv_dereg_mr)(mr);
}

/* The break-down of a completion channel: a checker sees the CQ really
 * destroyed (the line comes before the call, which waits until every
 * event taken is acknowledged). */
WRAP(int, ibv_destroy_cq, (struct ibv_cq *cq), (cq))
WRAP(int, ibv_destroy_comp_channel, (struct ibv_comp_channel *channel),
     (channel))

/*
 * For post-wr and selective-signaling: the extended queue pair's
 * ibv_wr_* verbs are inline as well, and call the provider through the
 * struct ibv_qp_ex itself. ibv_qp_to_qp_ex, which a program calls to
 * have one, swaps its entries for the wrappers below, which log and call
 * the provider's own: ibv_wr_send, ibv_wr_rdma_write and ibv_wr_rdma_read
 * with whether the work request is signaled (wr_flags), the setters with
 * the bytes they give, ibv_wr_start, ibv_wr_complete and ibv_wr_abort by
 * name. Every extended queue pair of a program is taken to have the
 * provider of the first.
 */
static struct ibv_qp_ex provider_wr;

static void log_wr_start(struct ibv_qp_ex *qpx)
{
	log_line("ibv_wr_start");
	provider_wr.wr_start(qpx);
}

static int log_wr_complete(struct ibv_qp_ex *qpx)
{
	log_line("ibv_wr_complete");
	return provider_wr.wr_complete(qpx);
}

static void log_wr_abort(struct ibv_qp_ex *qpx)
{
	log_line("ibv_wr_abort");
	provider_wr.wr_abort(qpx);
}

static void log_wr_send(struct ibv_qp_ex *qpx)
{
	log_line("ibv_wr_send signaled=%d",
		 !!(qpx->wr_flags & IBV_SEND_SIGNALED));
	provider_wr.wr_send(qpx);
}

static void log_wr_rdma_write(struct ibv_qp_ex *qpx, uint32_t rkey,
			      uint64_t remote_addr)
{
	log_line("ibv_wr_rdma_write signaled=%d",
		 !!(qpx->wr_flags & IBV_SEND_SIGNALED));
	provider_wr.wr_rdma_write(qpx, rkey, remote_addr);
}

static void log_wr_rdma_read(struct ibv_qp_ex *qpx, uint32_t rkey,
			     uint64_t remote_addr)
{
	log_line("ibv_wr_rdma_read signaled=%d",
		 !!(qpx->wr_flags & IBV_SEND_SIGNALED));
	provider_wr.wr_rdma_read(qpx, rkey, remote_addr);
}

static void log_wr_set_sge(struct ibv_qp_ex *qpx, uint32_t lkey,
			   uint64_t addr, uint32_t length)
{
	log_line("ibv_wr_set_sge length=%u", length);
	provider_wr.wr_set_sge(qpx, lkey, addr, length);
}

static void log_wr_set_sge_list(struct ibv_qp_ex *qpx, size_t num_sge,
				const struct ibv_sge *sg_list)
{
	log_line("ibv_wr_set_sge_list num_sge=%zu", num_sge);
	provider_wr.wr_set_sge_list(qpx, num_sge, sg_list);
}

static void log_wr_set_inline_data(struct ibv_qp_ex *qpx, void *addr,
				   size_t length)
{
	log_line("ibv_wr_set_inline_data length=%zu", length);
	provider_wr.wr_set_inline_data(qpx, addr, length);
}

/* SWAP(field): qpx's entry goes through its wrapper, when it has one. */
#define SWAP(field)                                                         \
	do {                                                                \
		if (qpx->field) {                                           \
			provider_wr.field = qpx->field;                     \
			qpx->field = log_##field;                           \
		}                                                           \
	} while (0)

struct ibv_qp_ex *ibv_qp_to_qp_ex(struct ibv_qp *qp)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct ibv_qp_ex *qpx;

	log_line("ibv_qp_to_qp_ex");
	qpx = REAL(ibv_qp_to_qp_ex)(qp);
	if (!qpx)
		return NULL;
	pthread_mutex_lock(&lock);
	if (qpx->wr_start && qpx->wr_start != log_wr_start) {
		SWAP(wr_start);
		SWAP(wr_complete);
		SWAP(wr_abort);
		SWAP(wr_send);
		SWAP(wr_rdma_write);
		SWAP(wr_rdma_read);
		SWAP(wr_set_sge);
		SWAP(wr_set_sge_list);
		SWAP(wr_set_inline_data);
	}
	pthread_mutex_unlock(&lock);
	return qpx;
}

/*
 * For ping-sr-0e: the set-up and break-down verbs that the lines above
 * leave out, so that a checker can pair each object the program makes
 * with its undo. librdmacm calls some of them itself (a protection
 * domain of its own for each device, an id it makes and destroys to
 * probe the kernel): those lines end in `by=librdmacm`. ibv_alloc_pd and
 * rdma_get_request (which makes the agent's id) log once they have made
 * one; the break-downs, before they call the library.
 */
#include <string.h>

/* by(CALLER): " by=librdmacm" when CALLER, a return address, is in
 * librdmacm; "" when it is in the program. */
static const char *by(void *caller)
{
	Dl_info info;

	if (dladdr(caller, &info) && info.dli_fname &&
	    strstr(info.dli_fname, "librdmacm"))
		return " by=librdmacm";
	return "";
}

struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)
{
	struct ibv_pd *pd = REAL(ibv_alloc_pd)(context);

	if (pd)
		log_line("ibv_alloc_pd%s", by(__builtin_return_address(0)));
	return pd;
}

int ibv_dealloc_pd(struct ibv_pd *pd)
{
	log_line("ibv_dealloc_pd%s", by(__builtin_return_address(0)));
	return REAL(ibv_dealloc_pd)(pd);
}

int rdma_get_request(struct rdma_cm_id *listen, struct rdma_cm_id **id)
{
	int ret = REAL(rdma_get_request)(listen, id);

	if (ret == 0)
		log_line("rdma_get_request%s", by(__builtin_return_address(0)));
	return ret;
}

int rdma_destroy_id(struct rdma_cm_id *id)
{
	log_line("rdma_destroy_id%s", by(__builtin_return_address(0)));
	return REAL(rdma_destroy_id)(id);
}

void rdma_destroy_qp(struct rdma_cm_id *id)
{
	log_line("rdma_destroy_qp%s", by(__builtin_return_address(0)));
	REAL(rdma_destroy_qp)(id);
}

/*
 * For cm-thread: which calls a thread makes, and when it is joined.
 * pthread_create logs the call; the new thread then logs `thread_start`
 * as it begins and `thread_end` as its start routine returns, both from
 * the thread itself; pthread_join logs once the thread is joined
 * (rdma_destroy_id, logged above as it is called, waits for the id's
 * events to be given back). A verb logged between a thread's start and
 * end, in a program whose main thread calls no CM verb meanwhile, is
 * the thread's.
 */
struct thread_start {
	void *(*start)(void *);
	void *arg;
};

static void *log_thread(void *arg)
{
	struct thread_start begin = *(struct thread_start *)arg;
	void *result;

	free(arg);
	log_line("thread_start");
	result = begin.start(begin.arg);
	log_line("thread_end");
	return result;
}

int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
		   void *(*start)(void *), void *arg)
{
	struct thread_start *begin = malloc(sizeof(*begin));
	int ret;

	log_line("pthread_create");
	if (!begin)
		return REAL(pthread_create)(thread, attr, start, arg);
	begin->start = start;
	begin->arg = arg;
	ret = REAL(pthread_create)(thread, attr, log_thread, begin);
	if (ret)
		free(begin);
	return ret;
}

int pthread_join(pthread_t thread, void **result)
{
	int ret = REAL(pthread_join)(thread, result);

	log_line("pthread_join ret=%d", ret);
	return ret;
}

