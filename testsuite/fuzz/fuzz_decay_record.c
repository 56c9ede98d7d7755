/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: priority_last_decay_ran (src/decay_record.c).  Any
 * input is refused with TS_ECORRUPT and a message, or is 16 bytes
 * (multifactor's, read as foreign) or 28 (treeshare's) with times in
 * range; a treeshare record encodes back to the same 28 bytes.  Each
 * input is also tried as 28 bytes with the trailer made right.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "decay_record.h"
#include "state_bytes.h"

#define NOW INT64_C(1700000000)

static void check_one(const uint8_t *data, size_t size)
{
	struct ts_error err = TS_ERROR_INIT;
	struct ts_decay_record r;
	unsigned char back[TS_DECAY_RECORD_BYTES];
	int rc = ts_decay_record_decode(data, size, NOW, &r, &err);

	if (rc != TS_OK) {
		if (rc != TS_ECORRUPT || !err.msg[0] || r.last_ran)
			abort();
		return;
	}
	if (r.last_ran < 0 || r.last_ran > NOW + TS_STATE_CLOCK_SKEW ||
	    r.last_reset < 0 || r.last_reset > NOW + TS_STATE_CLOCK_SKEW)
		abort();
	if (size == TS_DECAY_RECORD_FOREIGN_BYTES) {
		if (r.origin != TS_DECAY_RECORD_FOREIGN)
			abort();
		return;
	}
	if (size != TS_DECAY_RECORD_BYTES || r.origin != TS_DECAY_RECORD_OURS)
		abort();
	ts_decay_record_encode(&r, back);
	if (memcmp(back, data, size))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char rec[TS_DECAY_RECORD_BYTES] = { 0 };

	check_one(data, size);
	memcpy(rec, data, size < 16 ? size : 16);
	memcpy(rec + 16, "TSLD", 4);
	ts_put32(rec + 20, TS_DECAY_RECORD_VERSION);
	ts_put32(rec + 24, ts_crc32(0, rec, 24));
	check_one(rec, sizeof(rec));
	return 0;
}
