// SPDX-License-Identifier: MIT
/*
 * verify-data.c - a unit test of what -v relies on: our_verify_data()
 * accepts a message that holds its pattern, and refuses one with a single
 * byte changed, at the start, in the middle or at the end, and a message
 * that holds another message's pattern. A check that always said yes
 * would pass every run; this one must fail here.
 *
 * usage: verify-data   (exits 0 when every case behaves)
 */
#include <stdio.h>
#include <stdlib.h>

#include "buffers.h"
#include "report.h"

#define SIZE 4096u

/* One case: verify data as message sequence; expect says the answer. */
static int check(const char *what, const char *data, uint32_t size,
		 uint64_t sequence, bool expect)
{
	bool verdict = our_verify_data(data, size, sequence);

	printf("verify-data: %s: %s (%s)\n", what,
	       verdict ? "accepted" : "refused",
	       verdict == expect ? "right" : "WRONG");
	return verdict == expect ? 0 : 1;
}

int main(void)
{
	static const uint32_t flips[] = { 0, SIZE / 2 + 7, SIZE - 1 };
	char *data = malloc(SIZE);
	int wrong = 0;

	our_program_name = "verify-data";
	if (!data)
		return 1;
	our_fill_data(data, SIZE, 42);
	wrong += check("message 42 as sent", data, SIZE, 42, true);
	wrong += check("message 42 taken for message 43", data, SIZE, 43,
		       false);
	for (size_t i = 0; i < sizeof(flips) / sizeof(flips[0]); i++) {
		char what[64];

		data[flips[i]] ^= 0x01;
		snprintf(what, sizeof(what), "one bit flipped in byte %u",
			 flips[i]);
		wrong += check(what, data, SIZE, 42, false);
		data[flips[i]] ^= 0x01;
	}
	our_fill_data(data, 1, 7);
	wrong += check("a 1-byte message as sent", data, 1, 7, true);
	data[0] ^= 0x80;
	wrong += check("a 1-byte message, its byte changed", data, 1, 7,
		       false);
	free(data);
	return wrong ? 1 : 0;
}
