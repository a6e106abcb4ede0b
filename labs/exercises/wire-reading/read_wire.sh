#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# read_wire.sh CAPTURE.pcap: what a capture of ping-rdma-1 between the
# two hosts of the lab says, read from its packets alone: each host's
# first PSN, the messages each host sent, each host's advertisement,
# each RDMA write's RETH checked against the memory the peer advertised,
# and the acknowledgements each host sent. One line each, in the words
# README.md gives. Yours to write: see README.md.
set -euo pipefail

if [ $# -ne 1 ] || [ ! -r "$1" ]; then
	echo "usage: read_wire.sh CAPTURE.pcap" >&2
	exit 2
fi

# One line a RoCE packet, its fields apart by tabs, in the order of the
# -e options (an empty field where the packet has none of it).
# TODO 1: add the fields that the lines to print need: a write's RETH,
# an Acknowledge's AETH, a send's bytes. tshark -G fields lists every
# field tshark knows; `tshark -r CAPTURE -O infiniband` shows them
# packet by packet (the names are in -G fields' third column).
tshark -r "$1" -Y infiniband -T fields -E separator=/t -E occurrence=f \
	-e ip.src -e ip.dst -e infiniband.bth.opcode -e infiniband.bth.psn \
	2>/dev/null |
	awk -F '\t' '
	# $1 the host that sent the packet, $2 the host it goes to, $3 the
	# opcode of its BTH (the messages of the connection manager are
	# opcode 100, a UD send to queue pair 1: not packets of the
	# connection), $4 its PSN.
	{
		# TODO 2: the first PSN of each host, the messages each host
		# sent (a packet sent again keeps its PSN: count each once),
		# and the acknowledgements each host sent.
		# TODO 3: the advertisement of each host: the bytes of its
		# first send (ping-rdma-1/memory_wire.h).
		# TODO 4: the RETH of each write: which memory it goes to.
	}
	END {
		# TODO 5: print the lines, in the words of README.md.
		for (todo = 1; todo <= 5; todo++)
			printf "read_wire.sh: TODO %d is not done yet\n", todo >"/dev/stderr"
	}'
