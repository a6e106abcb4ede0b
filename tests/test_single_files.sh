#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The single files (make -C STAGE single, which make check runs first):
# each program of each stage in one C file that a newcomer can copy and
# build with cc alone. Each holds the code its program runs and no other
# stage's. These read files; no device is needed, so make check runs
# them on the host. (Each single pair runs over the device in
# test_single.sh.)
# tests/run: host
. "$(dirname "$0")/lib.sh"

STAGES=${OUR_SINGLE_STAGES:-ping-sr-0 ping-sr-1 ping-sr-2 ping-sr-3 ping-sr-4 blast-sr-2
	ping-rdma-1 ping-rdma-2 blast-rdma-1 atomic-1 pubsub-rdma-1
	ping-sg-1 ping-post-1 ping-wr-1}

# single_holds STAGE PROGRAM REGEX: the single file of PROGRAM of STAGE
# has a line matching the extended REGEX.
single_holds() {
	has_line "$KIT/$1/single/$2.c" "$3" ||
		fail "$1/single/$2.c should hold /$3/"
}

# single_lacks STAGE PROGRAM REGEX: ... and has none.
single_lacks() {
	! has_line "$KIT/$1/single/$2.c" "$3" ||
		fail "$1/single/$2.c should not hold /$3/"
}

test_single_files_hold_what_their_program_runs() {
	local stage program

	for stage in $STAGES devices; do
		for program in client server; do
			[ $stage = devices ] && program=devices
			if [ ! -x "$KIT/$stage/single/$program" ]; then
				fail "no $stage/single/$program: run make -C $stage single"
				continue
			fi
			# Its header says how to build it, as make did.
			single_holds $stage $program \
				"cc -Wall -Wextra -Werror -o $program $program.c -lrdmacm -libverbs -lpthread"
			single_holds $stage $program '^int main\('
			single_lacks $stage $program '^#include "'
			[ $stage = devices ] && break
		done
		[ $stage = devices ] && continue
		# A client listens for no one; a server resolves no server.
		single_lacks $stage client 'our_setup_listener|rdma_listen\('
		single_lacks $stage server 'our_resolve_server|rdma_connect\('
		# ping-sr-0's private data piece sends nothing.
		if [ $stage = ping-sr-0 ]; then
			single_lacks $stage client 'OUR_PRIVATE_MAGIC'
		else
			single_holds $stage client 'OUR_PRIVATE_MAGIC'
		fi
	done
	# Each stage waits its own way, and holds no other stage's way.
	single_holds ping-sr-0 client 'ibv_poll_cq'
	single_lacks ping-sr-0 client 'ibv_req_notify_cq|rdma_create_event_channel|pthread_create'
	single_holds ping-sr-2 server 'pthread_create'
	single_lacks ping-sr-2 server 'ibv_req_notify_cq|ppoll'
	single_holds ping-sr-3 client 'ibv_req_notify_cq'
	single_holds ping-sr-3 client 'pthread_create'
	single_holds ping-sr-4 client 'ppoll'
	single_lacks ping-sr-4 client 'pthread_create'
	single_holds blast-sr-2 client 'post_send_chain'
	single_lacks blast-sr-2 client 'OUR_AGENT_SLOT|ibv_req_notify_cq'
	single_holds ping-rdma-1 client 'IBV_WR_RDMA_WRITE'
	single_holds ping-rdma-1 server 'IBV_ACCESS_REMOTE_WRITE'
	single_holds ping-rdma-2 client 'IBV_WR_RDMA_READ'
	single_holds ping-rdma-2 server 'IBV_ACCESS_REMOTE_READ'
	single_lacks ping-rdma-2 client 'our_post_write|IBV_WR_RDMA_WRITE,'
	single_holds blast-rdma-1 client 'IBV_POLL_BATCH|OUR_POLL_BATCH'
	single_holds blast-rdma-1 server 'IBV_ACCESS_REMOTE_WRITE'
	single_lacks blast-rdma-1 client 'post_send_chain|IBV_WR_RDMA_READ'
	single_holds atomic-1 client 'IBV_WR_ATOMIC_CMP_AND_SWP'
	single_holds atomic-1 server 'IBV_ACCESS_REMOTE_ATOMIC'
	single_holds atomic-1 server 'our_serve_client'
	single_lacks atomic-1 server 'IBV_ACCESS_REMOTE_WRITE|IBV_WR_ATOMIC'
	single_holds pubsub-rdma-1 client 'IBV_WR_RDMA_READ'
	single_holds pubsub-rdma-1 server 'IBV_ACCESS_REMOTE_READ'
	single_holds pubsub-rdma-1 server 'pthread_cond_timedwait'
	single_lacks pubsub-rdma-1 server 'IBV_WR_ATOMIC|check_atomics'
	single_holds ping-sg-1 client 'num_sge = \(int\)n'
	single_lacks ping-sg-1 client 'rdma_post_sendv\(|ibv_wr_start'
	single_holds ping-post-1 client 'rdma_post_sendv'
	single_holds ping-post-1 server 'rdma_post_recvv'
	single_lacks ping-post-1 client '[^_]ibv_post_send\(|ibv_wr_start'
	single_holds ping-wr-1 client 'ibv_wr_set_inline_data\('
	single_holds ping-wr-1 server 'rdma_create_qp_ex'
	single_lacks ping-wr-1 client 'ibv_post_send\(|rdma_post_sendv\(|rdma_create_qp\('
	single_lacks ping-sr-2 client 'our_post_sendv|ibv_wr_start'
	single_lacks ping-rdma-1 server 'our_setup_shared|our_report_shared'
	single_lacks ping-sr-2 client 'IBV_WR_RDMA_WRITE|our_advertise_memory'
	single_lacks devices devices 'ibv_post_send\(|rdma_create_id\('
}

. shunit2
