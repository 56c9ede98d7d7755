/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: treeshare_state, the plugin's commit unit
 * (src/usage_state.c).  Any input must be refused with TS_ECORRUPT (or
 * TS_ENOMEM) leaving the state empty, or decode to a state whose every
 * value is finite and >= 0, whose ids and job keys rise, whose times are
 * in range, and which encodes and decodes again to the same bytes.
 *
 * A mutated file almost never passes the CRC, so each input is also tried
 * with its body length and CRC made right: that exercises the checks
 * behind them (counts, ids, values, times, the windows image).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "state_bytes.h"
#include "usage_state.h"

#define NOW INT64_C(1800000000) /* after every save time in the corpus */

static void rising_or_abort(const struct ts_usage_set *set, size_t v)
{
	size_t i, k;

	for (i = 0; i < set->n; i++) {
		if (i && set->id[i] <= set->id[i - 1])
			abort();
		for (k = 0; k < v; k++) {
			long double x = set->val[i * v + k];

			if (!(x >= 0 && x - x == 0))
				abort();
		}
	}
}

static void keys_rising_or_abort(const struct ts_job_keys *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		if (!k->key[i].id || k->key[i].submit < 0 ||
		    (i && (k->key[i].id < k->key[i - 1].id ||
			   (k->key[i].id == k->key[i - 1].id &&
			    k->key[i].submit <= k->key[i - 1].submit))))
			abort();
}

static void check_one(const uint8_t *data, size_t size)
{
	struct ts_error err = TS_ERROR_INIT;
	struct ts_usage_state s, again;
	unsigned char *buf;
	size_t len, v;
	int rc;

	rc = ts_usage_state_decode(data, size, NOW, &s, &err);
	if (rc != TS_OK) {
		if ((rc != TS_ECORRUPT && rc != TS_ENOMEM) || s.assoc.id ||
		    s.windows || s.held.key || s.exempt.key || !err.msg[0])
			abort();
		return;
	}
	v = ts_usage_state_values(&s);
	rising_or_abort(&s.assoc, v);
	rising_or_abort(&s.leaf, v);
	rising_or_abort(&s.qos, v);
	keys_rising_or_abort(&s.held);
	keys_rising_or_abort(&s.exempt);
	if (s.last_ran < 0 || s.last_ran > s.saved_at ||
	    s.saved_at > NOW + TS_STATE_CLOCK_SKEW || s.last_reset < 0)
		abort();
	if (ts_usage_state_encode(&s, &buf, &len, &err) != TS_OK)
		abort();
	/* the input passed every check, so it is what encode makes */
	if (len != size || memcmp(buf, data, size))
		abort();
	if (ts_usage_state_decode(buf, len, NOW, &again, &err) != TS_OK)
		abort();
	ts_usage_state_free(&again);
	free(buf);
	ts_usage_state_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *copy;

	check_one(data, size);
	if (size < 76)
		return 0;
	copy = malloc(size);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	ts_put64(copy + 16, size - 76);
	ts_put32(copy + size - 4, ts_crc32(0, copy, size - 4));
	check_one(copy, size);
	free(copy);
	return 0;
}
