/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * treeshare_state (src/usage_state.c): the plugin's commit unit.  Values
 * survive exactly, every torn, flipped, trailing or out-of-range file is
 * refused with its defect named, a hostile header allocates nothing, and
 * a load falls back to .prev.  Job keys (version 2) round trip, and a
 * version 1 file of the build before them still reads.
 */
#include <check.h>
#include <float.h>

#include "state_bytes.h"
#include "state_dir.h"
#include "under_valgrind.h"
#include "credential_store.h"
#include "usage_state.h"
#include "window_store.h"

#define NOW INT64_C(1700000000)

/*
 * Two TRES (cpu id 1, gres/gpu id 1001), associations 1 (root), 2
 * (account), 3 and 4 (users), given out of order as a list walk would;
 * the account keeps a separate leaf usage; two QOS.  With windows when
 * asked.
 */
static void sample(struct ts_usage_state *s, int with_windows)
{
	static const uint32_t assoc_id[] = { 3, 1, 4, 2 };
	volatile long double big = LDBL_MAX;
	long double largest = big;
	struct ts_error err = TS_ERROR_INIT;
	size_t v, i;

	ck_assert_int_eq(ts_usage_state_alloc(s, 2, 4, 1, 2, &err), TS_OK);
	v = ts_usage_state_values(s);
	ck_assert_uint_eq(v, 4);
	s->saved_at = NOW - 5;
	s->last_ran = NOW - 10;
	s->last_reset = NOW - 86400;
	s->tres_id[0] = 1;
	s->tres_id[1] = 1001;
	for (i = 0; i < 4; i++) {
		s->assoc.id[i] = assoc_id[i];
		s->assoc.val[i * v + 0] = 1000.0L / 3 * assoc_id[i]; /* raw */
		s->assoc.val[i * v + 1] = 60.5L * assoc_id[i];	     /* wall */
		s->assoc.val[i * v + 2] = 0.1L * assoc_id[i];	     /* cpu */
		s->assoc.val[i * v + 3] = 0;			     /* gpu */
	}
	/*
	 * id 4: the largest value; valgrind computes long double as
	 * double, where LDBL_MAX is infinite: DBL_MAX there.
	 */
	s->assoc.val[2 * v] = largest - largest == 0 ? largest : DBL_MAX;
	s->leaf.id[0] = 2;
	s->leaf.val[0] = 7;
	s->qos.id[0] = 5;
	s->qos.id[1] = 1;
	s->qos.val[0] = 1e-300L;
	s->qos.val[v] = 42;
	if (with_windows) {
		struct ts_windows w;

		ck_assert_int_eq(
			ts_windows_init(&w, 3600, 3, 0.5, NOW - 5, 0, &err),
			TS_OK);
		ck_assert_int_ge(ts_windows_add_assoc(&w, 3, &err), 0);
		ck_assert_int_eq(ts_windows_add(&w, 3, 11, NOW - 5, &err),
				 TS_OK);
		ck_assert_int_eq(ts_window_store_encode(&w, NOW - 5,
							&s->windows,
							&s->windows_len, &err),
				 TS_OK);
		s->windows_active = 1;
		ts_windows_free(&w);
	}
	ck_assert_int_eq(ts_usage_state_sort(s, &err), TS_OK);
}

static size_t sample_image(unsigned char **buf, int with_windows)
{
	struct ts_usage_state s;
	struct ts_error err = TS_ERROR_INIT;
	size_t len;

	sample(&s, with_windows);
	ck_assert_int_eq(ts_usage_state_encode(&s, buf, &len, &err), TS_OK);
	ts_usage_state_free(&s);
	return len;
}

static void put32(unsigned char *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* Re-seal an edited image: only the edit, not the CRC, fails. */
static void reseal(unsigned char *buf, size_t len)
{
	put32(buf + len - 4, ts_window_store_crc32(0, buf, len - 4));
}

static void assert_empty(const struct ts_usage_state *s)
{
	ck_assert_ptr_null(s->assoc.id);
	ck_assert_ptr_null(s->windows);
	ck_assert_uint_eq(s->assoc.n, 0);
}

START_TEST(round_trip_keeps_every_value_exactly_in_id_order)
{
	struct ts_usage_state a, b;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf;
	size_t len, i;

	sample(&a, 1);
	ck_assert_int_eq(ts_usage_state_encode(&a, &buf, &len, &err), TS_OK);
	/* 76 + 4 T + (A + L + Q)(4 + 12 (2 + T)) + W, T = 2, A + L + Q = 7 */
	ck_assert_uint_eq(len, 76 + 8 + 7 * 52 + a.windows_len);
	ck_assert_int_eq(ts_usage_state_decode(buf, len, NOW, &b, &err), TS_OK);
	ck_assert_int_eq(b.saved_at, NOW - 5);
	ck_assert_int_eq(b.last_ran, NOW - 10);
	ck_assert_int_eq(b.last_reset, NOW - 86400);
	ck_assert_uint_eq(b.n_tres, 2);
	ck_assert_uint_eq(b.tres_id[1], 1001);
	ck_assert_uint_eq(b.assoc.n, 4);
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(b.assoc.id[i], i + 1);
	for (i = 0; i < 4 * 4; i++)
		ck_assert(a.assoc.val[i] == b.assoc.val[i]);
	/* Association 3's raw usage: 1000/3 * 3 in long double, exactly. */
	ck_assert(b.assoc.val[2 * 4] == 1000.0L / 3 * 3);
	ck_assert(b.assoc.val[3 * 4] >= DBL_MAX); /* LDBL_MAX natively */
	ck_assert_uint_eq(b.leaf.n, 1);
	ck_assert(b.leaf.val[0] == 7);
	ck_assert_uint_eq(b.qos.id[0], 1);
	ck_assert(b.qos.val[0] == 42);
	ck_assert(b.qos.val[4] == 1e-300L);
	ck_assert_int_eq(b.windows_active, 1);
	ck_assert_uint_eq(b.windows_len, a.windows_len);
	ck_assert_mem_eq(b.windows, a.windows, a.windows_len);
	ck_assert_int_eq(ts_usage_state_find(&b.assoc, 4), 3);
	ck_assert_int_eq(ts_usage_state_find(&b.assoc, 9), -1);
	ts_usage_state_free(&a);
	ts_usage_state_free(&b);
	free(buf);
}
END_TEST

START_TEST(every_truncation_and_trailing_bytes_are_refused)
{
	struct ts_usage_state s;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf, *longer;
	size_t len, cut;

	len = sample_image(&buf, 1);
	for (cut = 0; cut < len; cut++) {
		ts_error_clear(&err);
		ck_assert_int_eq(ts_usage_state_decode(buf, cut, NOW, &s, &err),
				 TS_ECORRUPT);
		assert_empty(&s);
	}
	ts_error_clear(&err);
	ts_usage_state_decode(buf, 0, NOW, &s, &err);
	ck_assert_str_eq(err.msg, "zero length");
	ts_error_clear(&err);
	ts_usage_state_decode(buf, 100, NOW, &s, &err);
	ck_assert(strstr(err.msg, "torn or truncated: 100 bytes, the header "
				  "says "));
	longer = calloc(1, len + 3);
	memcpy(longer, buf, len);
	ts_error_clear(&err);
	ck_assert_int_eq(ts_usage_state_decode(longer, len + 3, NOW, &s, &err),
			 TS_ECORRUPT);
	ck_assert(strstr(err.msg, "trailing bytes"));
	free(longer);
	free(buf);
}
END_TEST

/* CRC-32 catches every single-bit error, the windows image included. */
START_TEST(every_bit_flip_is_refused)
{
	struct ts_usage_state s;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf;
	size_t len, bit;

	len = sample_image(&buf, 1);
	for (bit = 0; bit < 8 * len; bit++) {
		buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
		ts_error_clear(&err);
		ck_assert_int_eq(ts_usage_state_decode(buf, len, NOW, &s, &err),
				 TS_ECORRUPT);
		assert_empty(&s);
		buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
	}
	free(buf);
}
END_TEST

/* Random bytes of every length up to 200: never accepted. */
START_TEST(random_bytes_are_refused)
{
	struct ts_usage_state s;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char buf[200];
	unsigned x = 12345;
	size_t len, i;

	for (len = 0; len <= sizeof(buf); len++) {
		for (i = 0; i < len; i++) {
			x = x * 1103515245u + 12345u;
			buf[i] = (unsigned char)(x >> 16);
		}
		ts_error_clear(&err);
		ck_assert_int_eq(ts_usage_state_decode(buf, len, NOW, &s, &err),
				 TS_ECORRUPT);
	}
	ck_assert_str_eq(err.msg, "not a treeshare state file (bad magic)");
}
END_TEST

/* Times: negative, in the future, or a decay after the save. */
START_TEST(times_out_of_range_are_refused_with_their_name)
{
	static const struct {
		int64_t saved, ran, reset;
		const char *want;
	} cases[] = {
		{ NOW, -1, 0, "last decay time -1 is negative" },
		{ NOW, NOW - 10, -5, "last reset time -5 is negative" },
		{ NOW + 301, NOW, 0,
		  "save time 2023-11-14T22:18:21Z is 301 s after now "
		  "(2023-11-14T22:13:20Z), more than the 300 s of clock skew "
		  "allowed" },
		{ NOW, NOW + 1, 0,
		  "last decay time 2023-11-14T22:13:21Z is after the save "
		  "time 2023-11-14T22:13:20Z" },
		{ 0, 0, 0, "save time is 0" },
	};
	struct ts_usage_state s, back;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf;
	size_t len, i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sample(&s, 0);
		s.saved_at = cases[i].saved;
		s.last_ran = cases[i].ran;
		s.last_reset = cases[i].reset;
		ck_assert_int_eq(ts_usage_state_encode(&s, &buf, &len, &err),
				 TS_OK);
		ts_error_clear(&err);
		ck_assert_int_eq(
			ts_usage_state_decode(buf, len, NOW, &back, &err),
			TS_ECORRUPT);
		ck_assert_str_eq(err.msg, cases[i].want);
		ts_usage_state_free(&s);
		free(buf);
	}
}
END_TEST

/* A header claiming 2^32 - 1 records, CRC made right: no allocation. */
START_TEST(hostile_counts_are_refused_before_allocating)
{
	struct ts_usage_state s;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf;
	size_t len;

	len = sample_image(&buf, 0);
	put32(buf + 52, UINT32_MAX);
	reseal(buf, len);
	ck_assert_int_eq(ts_usage_state_decode(buf, len, NOW, &s, &err),
			 TS_ECORRUPT);
	ck_assert(strstr(err.msg, "4294967295 associations"));
	put32(buf + 52, 4);
	put32(buf + 48, UINT32_MAX);
	reseal(buf, len);
	ts_error_clear(&err);
	ck_assert_int_eq(ts_usage_state_decode(buf, len, NOW, &s, &err),
			 TS_ECORRUPT);
	put32(buf + 48, 2);
	put64(buf + 64, UINT64_MAX);
	reseal(buf, len);
	ts_error_clear(&err);
	ck_assert_int_eq(ts_usage_state_decode(buf, len, NOW, &s, &err),
			 TS_ECORRUPT);
	free(buf);
}
END_TEST

/* An edited image, sealed again, is refused as corrupt with message want. */
static void refused_as(unsigned char *buf, size_t len, const char *want)
{
	struct ts_usage_state s;
	struct ts_error err = TS_ERROR_INIT;

	reseal(buf, len);
	ck_assert_int_eq(ts_usage_state_decode(buf, len, NOW, &s, &err),
			 TS_ECORRUPT);
	ck_assert_str_eq(err.msg, want);
}

/* Structure behind a good CRC: ids, values, version, windows. */
START_TEST(structure_defects_behind_a_good_crc_are_named)
{
	struct ts_usage_state s;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf;
	size_t len, rec = 4 + 12 * 4, assoc0 = 72 + 8;

	len = sample_image(&buf, 1);
	/* association 2's id becomes 1: not rising */
	put32(buf + assoc0 + rec, 1);
	reseal(buf, len);
	ck_assert_int_eq(ts_usage_state_decode(buf, len, NOW, &s, &err),
			 TS_ECORRUPT);
	ck_assert_str_eq(err.msg, "association ids not rising: 1 after 1");
	put32(buf + assoc0 + rec, 2);
	/*
	 * association 1's RawUsage: m without its top bit, then an
	 * exponent past any long double (what would be infinite); the
	 * message names the value and shows it as stored (issue 22: it
	 * said "value 0", the index, as if 0 were stored).
	 */
	put64(buf + assoc0 + 4, 0x0123456789abcdefULL);
	refused_as(buf, len,
		   "association 1: RawUsage is stored as m 0x0123456789abcdef, "
		   "e 9 (m x 2^(e - 64)): not a finite number >= 0");
	put64(buf + assoc0 + 4, 0x8000000000000000ULL);
	put32(buf + assoc0 + 4 + 8, 0x7fffffff);
	refused_as(buf, len,
		   "association 1: RawUsage is stored as m 0x8000000000000000, "
		   "e 2147483647 (m x 2^(e - 64)): not a finite number >= 0");
	free(buf);

	/* QOS 5's usage of TRES 1001 (its last value): e = -1, m = 0 */
	len = sample_image(&buf, 0);
	put32(buf + len - 4 - 4, 0xffffffff);
	refused_as(
		buf, len,
		"QOS 5: usage of TRES 1001 is stored as m 0x0000000000000000, "
		"e -1 (m x 2^(e - 64)): not a finite number >= 0");
	free(buf);

	len = sample_image(&buf, 1);
	put32(buf + 8, 5);
	reseal(buf, len);
	ts_error_clear(&err);
	ck_assert_int_eq(ts_usage_state_decode(buf, len, NOW, &s, &err),
			 TS_ECORRUPT);
	ck_assert_str_eq(err.msg, "format version 5, this build reads 1 to 4");
	put32(buf + 8, 1);
	/* a bit of the windows image (its last byte, its own CRC) */
	buf[len - 5] ^= 1;
	reseal(buf, len);
	ts_error_clear(&err);
	ck_assert_int_eq(ts_usage_state_decode(buf, len, NOW, &s, &err),
			 TS_ECORRUPT);
	ck_assert(!strncmp(err.msg, "usage windows: CRC mismatch", 27));
	free(buf);
}
END_TEST

START_TEST(encode_refuses_nan_negative_and_duplicate_ids)
{
	struct ts_usage_state s;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf;
	size_t len;

	sample(&s, 0);
	s.assoc.val[4 + 1] = -1;
	ck_assert_int_eq(ts_usage_state_encode(&s, &buf, &len, &err),
			 TS_EINVAL);
	ck_assert_str_eq(err.msg, "association 2: grp_used_wall is -1, not a "
				  "finite number >= 0");
	s.assoc.val[4 + 1] = 0.0L / 0.0L;
	ts_error_clear(&err);
	ck_assert_int_eq(ts_usage_state_encode(&s, &buf, &len, &err),
			 TS_EINVAL);
	ts_usage_state_free(&s);

	sample(&s, 0);
	s.qos.id[1] = s.qos.id[0];
	ts_error_clear(&err);
	ck_assert_int_eq(ts_usage_state_sort(&s, &err), TS_EINVAL);
	ck_assert_str_eq(err.msg, "QOS 1 appears twice");
	ts_usage_state_free(&s);
}
END_TEST

/* Commit a (sample 0, last decay NOW - 10), then b (NOW - 3) to path. */
static void two_commits(const char *path, struct ts_usage_state *a,
			struct ts_usage_state *b)
{
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf;
	size_t len;

	sample(a, 0);
	sample(b, 1);
	b->last_ran = NOW - 3;
	b->saved_at = NOW - 2;
	ck_assert_int_eq(ts_usage_state_encode(a, &buf, &len, &err), TS_OK);
	ck_assert_int_eq(ts_usage_state_save_image(path, buf, len, &err),
			 TS_OK);
	free(buf);
	ck_assert_int_eq(ts_usage_state_encode(b, &buf, &len, &err), TS_OK);
	ck_assert_int_eq(ts_usage_state_save_image(path, buf, len, &err),
			 TS_OK);
	free(buf);
}

/* A save keeps the last good copy as .prev; a load falls back to it. */
START_TEST(load_falls_back_to_prev_and_names_both_when_both_are_bad)
{
	struct ts_usage_state a, b, back;
	struct state_dir d;
	struct ts_kept_status st;
	struct ts_error err = TS_ERROR_INIT;
	char path[128], prev[128];

	state_dir_make(&d, "usage_state");
	state_dir_file(&d, "treeshare_state", path);
	state_dir_file(&d, "treeshare_state.prev", prev);
	ck_assert_int_eq(ts_usage_state_load(path, NOW, &back, &st, &err),
			 TS_ENOENT);
	ts_error_clear(&err);

	two_commits(path, &a, &b);
	ck_assert_int_eq(ts_usage_state_load(path, NOW, &back, &st, &err),
			 TS_OK);
	ck_assert_int_eq(st.used_prev, 0);
	ck_assert_int_eq(back.last_ran, NOW - 3);
	ts_usage_state_free(&back);

	/* Zero length current copy: .prev, the defect named. */
	ck_assert_int_eq(truncate(path, 0), 0);
	ck_assert_int_eq(ts_usage_state_load(path, NOW, &back, &st, &err),
			 TS_OK);
	ck_assert_int_eq(st.used_prev, 1);
	ck_assert_int_eq(back.last_ran, NOW - 10);
	ck_assert(strstr(st.problem, "treeshare_state: zero length"));
	ts_usage_state_free(&back);

	/* .prev torn as well: refused, both named. */
	ck_assert_int_eq(truncate(prev, 30), 0);
	ck_assert_int_eq(ts_usage_state_load(path, NOW, &back, &st, &err),
			 TS_ECORRUPT);
	ck_assert_msg(strstr(err.msg, "treeshare_state: zero length; "), "%s",
		      err.msg);
	ck_assert(strstr(err.msg, "treeshare_state.prev: truncated: 30 bytes, "
				  "the header alone needs 76"));
	assert_empty(&back);
	ts_usage_state_free(&a);
	ts_usage_state_free(&b);
	state_dir_remove(&d);
}
END_TEST

/* A save that cannot write names the file and leaves both copies. */
START_TEST(failed_save_names_the_file_and_keeps_both_copies)
{
	struct ts_usage_state a, b, back;
	struct state_dir d;
	struct ts_kept_status st;
	struct ts_error err = TS_ERROR_INIT;
	char path[128], prev[128], tmp[128];
	unsigned char *buf;
	size_t len;

	state_dir_make(&d, "usage_state");
	state_dir_file(&d, "treeshare_state", path);
	state_dir_file(&d, "treeshare_state.prev", prev);
	state_dir_file(&d, "treeshare_state.new", tmp);
	two_commits(path, &a, &b);
	ck_assert_int_eq(ts_usage_state_encode(&b, &buf, &len, &err), TS_OK);
	/* .new cannot be created: a directory is in its way */
	ck_assert_int_eq(mkdir(tmp, 0700), 0);
	ts_error_clear(&err);
	ck_assert_int_ne(ts_usage_state_save_image(path, buf, len, &err),
			 TS_OK);
	free(buf);
	ck_assert_msg(strstr(err.msg, tmp), "%s", err.msg);
	ck_assert_int_eq(rmdir(tmp), 0);
	/* both copies as they were: current b, previous a */
	ck_assert_int_eq(ts_usage_state_load(path, NOW, &back, &st, &err),
			 TS_OK);
	ck_assert_int_eq(st.used_prev, 0);
	ck_assert_int_eq(back.last_ran, NOW - 3);
	ts_usage_state_free(&back);
	ck_assert_int_eq(ts_usage_state_load(prev, NOW, &back, NULL, &err),
			 TS_OK);
	ck_assert_int_eq(back.last_ran, NOW - 10);
	ts_usage_state_free(&back);
	ts_usage_state_free(&a);
	ts_usage_state_free(&b);
	state_dir_remove(&d);
}
END_TEST

/* ------------------------------------------------ job keys, version 2 */

/* sample() with held jobs 7 and 3 (out of order), exempt job 9. */
static void sample_keys(struct ts_usage_state *s, int with_windows)
{
	static const struct ts_job_key held[] = { { 7, NOW - 70 },
						  { 3, NOW - 30 } };
	static const struct ts_job_key exempt[] = { { 9, NOW - 90 } };
	struct ts_error err = TS_ERROR_INIT;

	sample(s, with_windows);
	s->held.n = 2;
	s->held.key = malloc(sizeof(held));
	memcpy(s->held.key, held, sizeof(held));
	s->exempt.n = 1;
	s->exempt.key = malloc(sizeof(exempt));
	memcpy(s->exempt.key, exempt, sizeof(exempt));
	ck_assert_int_eq(ts_usage_state_sort(s, &err), TS_OK);
}

/* s's image, which must be of format version. */
static size_t encode_as(const struct ts_usage_state *s, unsigned char **buf,
			unsigned version)
{
	struct ts_error err = TS_ERROR_INIT;
	size_t len;

	ck_assert_int_eq(ts_usage_state_encode(s, buf, &len, &err), TS_OK);
	ck_assert_uint_eq((*buf)[8], version);
	return len;
}

START_TEST(job_keys_round_trip_as_version_2)
{
	struct ts_usage_state a, b;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf;
	size_t len;

	sample_keys(&a, 1);
	len = encode_as(&a, &buf, 2);
	/* version 1's bytes, then H, E and 3 keys of 12 bytes */
	ck_assert_uint_eq(len, 76 + 8 + 7 * 52 + a.windows_len + 8 + 3 * 12);
	ck_assert_int_eq(ts_usage_state_decode(buf, len, NOW, &b, &err), TS_OK);
	ck_assert_uint_eq(b.held.n, 2);
	ck_assert_uint_eq(b.held.key[0].id, 3);
	ck_assert_int_eq(b.held.key[0].submit, NOW - 30);
	ck_assert_uint_eq(b.held.key[1].id, 7);
	ck_assert_int_eq(b.held.key[1].submit, NOW - 70);
	ck_assert_uint_eq(b.exempt.n, 1);
	ck_assert_uint_eq(b.exempt.key[0].id, 9);
	ck_assert_int_eq(b.exempt.key[0].submit, NOW - 90);
	/* the rest as without keys */
	ck_assert_uint_eq(b.assoc.n, 4);
	ck_assert(b.assoc.val[2 * 4] == 1000.0L / 3 * 3);
	ck_assert_uint_eq(b.windows_len, a.windows_len);
	ck_assert_mem_eq(b.windows, a.windows, a.windows_len);
	ts_usage_state_free(&a);
	ts_usage_state_free(&b);
	free(buf);
}
END_TEST

/* Exempt keys alone make version 2 too; no keys at all, version 1. */
START_TEST(only_a_state_with_job_keys_is_version_2)
{
	struct ts_usage_state a, b;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf;
	size_t len;

	sample_keys(&a, 0);
	free(a.held.key);
	a.held.key = NULL;
	a.held.n = 0;
	len = encode_as(&a, &buf, 2);
	ck_assert_int_eq(ts_usage_state_decode(buf, len, NOW, &b, &err), TS_OK);
	ck_assert_uint_eq(b.held.n, 0);
	ck_assert_uint_eq(b.exempt.n, 1);
	ts_usage_state_free(&b);
	free(buf);
	free(a.exempt.key);
	a.exempt.key = NULL;
	a.exempt.n = 0;
	len = encode_as(&a, &buf, 1);
	ck_assert_uint_eq(len, 76 + 8 + 7 * 52);
	ts_usage_state_free(&a);
	free(buf);
}
END_TEST

/* ------------------------------- usage_metric=consumed's start, v3 */

/*
 * consumed_since makes version 3, with or without job keys: the key
 * counts (0 and 0 allowed), then the time; it round trips, and a time
 * of 0, negative or after now is refused.
 */
START_TEST(consumed_since_round_trips_as_version_3)
{
	struct ts_usage_state a, b;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf;
	size_t len;

	sample_keys(&a, 1);
	a.consumed_since = NOW - 40;
	len = encode_as(&a, &buf, 3);
	ck_assert_uint_eq(len,
			  76 + 8 + 7 * 52 + a.windows_len + 8 + 3 * 12 + 8);
	ck_assert_int_eq(ts_usage_state_decode(buf, len, NOW, &b, &err), TS_OK);
	ck_assert_int_eq(b.consumed_since, NOW - 40);
	ck_assert_uint_eq(b.held.n, 2);
	ck_assert_uint_eq(b.exempt.n, 1);
	ck_assert_uint_eq(b.exempt.key[0].id, 9);
	ts_usage_state_free(&b);
	free(buf);
	ts_usage_state_free(&a);

	/* without keys: counts 0 and 0, then the time */
	sample(&a, 0);
	a.consumed_since = NOW - 40;
	len = encode_as(&a, &buf, 3);
	ck_assert_uint_eq(len, 76 + 8 + 7 * 52 + 8 + 8);
	ck_assert_int_eq(ts_usage_state_decode(buf, len, NOW, &b, &err), TS_OK);
	ck_assert_int_eq(b.consumed_since, NOW - 40);
	ck_assert_uint_eq(b.held.n + b.exempt.n, 0);
	ts_usage_state_free(&b);
	put64(buf + len - 4 - 8, 0);
	refused_as(buf, len,
		   "format version 3 with usage_metric=consumed's start 0");
	put64(buf + len - 4 - 8, (uint64_t)(NOW + 3600));
	ts_error_clear(&err);
	reseal(buf, len);
	ck_assert_int_eq(ts_usage_state_decode(buf, len, NOW, &b, &err),
			 TS_ECORRUPT);
	ck_assert_ptr_nonnull(strstr(err.msg, "usage_metric=consumed's start"));
	free(buf);
	/* dedicated (0): version 1 as before */
	a.consumed_since = 0;
	len = encode_as(&a, &buf, 1);
	free(buf);
	a.consumed_since = -1;
	ck_assert_int_eq(ts_usage_state_encode(&a, &buf, &len, &err),
			 TS_EINVAL);
	ts_usage_state_free(&a);
}
END_TEST

/* ------------------------------------- usage per credential, version 4 */

/*
 * A TSCREDUS image (credential_store.h) as the plugin will hand it over:
 * users 1000 and 1001 charged 30 and 10 in one window, so that user
 * 1000 holds 75 % of the delivered usage; every type charged alike.
 */
static void sample_cred(struct ts_usage_state *s)
{
	struct ts_error err = TS_ERROR_INIT;
	struct ts_cred_usage cu;
	struct ts_cred_ids ids = { { 1000, 100, 2, 1, 7 } };

	ck_assert_int_eq(ts_cred_usage_init(&cu, 3600, 2, 0.5, NOW - 100, &err),
			 TS_OK);
	ck_assert_int_eq(ts_cred_usage_charge(&cu, &ids, 30, NOW - 100, &err),
			 TS_OK);
	ids.id[TS_CRED_USER] = 1001;
	ids.id[TS_CRED_QOS] = TS_CRED_ID_NONE;
	ck_assert_int_eq(ts_cred_usage_charge(&cu, &ids, 10, NOW - 90, &err),
			 TS_OK);
	ck_assert_int_eq(ts_credential_store_encode(&cu, NOW - 5, &s->cred,
						    &s->cred_len, &err),
			 TS_OK);
	ts_cred_usage_free(&cu);
}

/* The credential image of a decoded state: user 1000's share, in %. */
static double cred_user_pct(const struct ts_usage_state *s, uint32_t uid)
{
	struct ts_error err = TS_ERROR_INIT;
	struct ts_cred_usage cu;
	double pct;

	ck_assert_int_eq(
		ts_credential_store_decode(s->cred, s->cred_len, &cu, &err),
		TS_OK);
	pct = ts_cred_usage_pct(&cu, TS_CRED_USER, uid);
	ts_cred_usage_free(&cu);
	return pct;
}

/*
 * Usage per credential makes version 4, whatever else the state holds:
 * key counts (0 and 0 allowed), consumed_since (0 allowed: dedicated),
 * then C and the image, which round trips byte for byte.
 */
START_TEST(credential_usage_round_trips_as_version_4)
{
	struct ts_usage_state a, b;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf;
	size_t len;

	sample_keys(&a, 1);
	sample_cred(&a);
	len = encode_as(&a, &buf, 4);
	ck_assert_uint_eq(len, 76 + 8 + 7 * 52 + a.windows_len + 8 + 3 * 12 +
				       8 + 8 + a.cred_len);
	ck_assert_int_eq(ts_usage_state_decode(buf, len, NOW, &b, &err), TS_OK);
	ck_assert_int_eq(b.consumed_since, 0);
	ck_assert_uint_eq(b.held.n, 2);
	ck_assert_uint_eq(b.exempt.key[0].id, 9);
	ck_assert_uint_eq(b.windows_len, a.windows_len);
	ck_assert_uint_eq(b.cred_len, a.cred_len);
	ck_assert_mem_eq(b.cred, a.cred, a.cred_len);
	ck_assert_double_eq_tol(cred_user_pct(&b, 1000), 75, 1e-9);
	ck_assert_double_eq_tol(cred_user_pct(&b, 1001), 25, 1e-9);
	ts_usage_state_free(&b);
	free(buf);
	ts_usage_state_free(&a);

	/* no keys, consumed: the counts 0 and 0, the time, the image */
	sample(&a, 0);
	sample_cred(&a);
	a.consumed_since = NOW - 40;
	len = encode_as(&a, &buf, 4);
	ck_assert_uint_eq(len, 76 + 8 + 7 * 52 + 8 + 8 + 8 + a.cred_len);
	ck_assert_int_eq(ts_usage_state_decode(buf, len, NOW, &b, &err), TS_OK);
	ck_assert_int_eq(b.consumed_since, NOW - 40);
	ck_assert_uint_eq(b.held.n + b.exempt.n, 0);
	ck_assert_mem_eq(b.cred, a.cred, a.cred_len);
	ts_usage_state_free(&b);
	free(buf);
	/* without it, the version the rest needs: 3 */
	free(a.cred);
	a.cred = NULL;
	a.cred_len = 0;
	len = encode_as(&a, &buf, 3);
	ck_assert_int_eq(ts_usage_state_decode(buf, len, NOW, &b, &err), TS_OK);
	ck_assert_ptr_null(b.cred);
	ts_usage_state_free(&b);
	free(buf);
	ts_usage_state_free(&a);
}
END_TEST

/* sample()'s state with sample_cred()'s image, no keys, dedicated. */
static size_t cred_image(unsigned char **buf, size_t *c_at, size_t *c_len)
{
	struct ts_usage_state a;
	size_t len;

	sample(&a, 0);
	sample_cred(&a);
	len = encode_as(&a, buf, 4);
	*c_len = a.cred_len;
	*c_at = len - 4 - a.cred_len - 8; /* where C is */
	ts_usage_state_free(&a);
	return len;
}

/*
 * Version 4's defects behind a good CRC: an image that fails its own
 * checks is named as credential usage, a C of 0 or past the end is
 * refused, a version 5 file is a newer build's; every cut and every bit
 * flip is refused and leaves nothing allocated.
 */
START_TEST(credential_usage_defects_are_named)
{
	struct ts_usage_state s;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf;
	size_t len, c_at, c_len, cut, bit;
	char want[160];

	len = cred_image(&buf, &c_at, &c_len);
	/* the image's own CRC broken (its last byte), the file's made good */
	buf[len - 5] ^= 1;
	reseal(buf, len);
	ck_assert_int_eq(ts_usage_state_decode(buf, len, NOW, &s, &err),
			 TS_ECORRUPT);
	ck_assert_msg(strncmp(err.msg, "credential usage: ", 18) == 0 &&
			      strstr(err.msg, "CRC"),
		      "%s", err.msg);
	assert_empty(&s);
	ck_assert_ptr_null(s.cred);
	buf[len - 5] ^= 1;
	/* C one past the end, and 0 */
	snprintf(
		want, sizeof(want),
		"job keys, usage_metric=consumed's start and credential usage do not fit the %zu bytes after the usage windows",
		24 + c_len);
	put64(buf + c_at, c_len + 1);
	refused_as(buf, len, want);
	put64(buf + c_at, UINT64_MAX);
	refused_as(buf, len, want);
	put64(buf + c_at, 0);
	refused_as(buf, len, "format version 4 without credential usage");
	put64(buf + c_at, c_len);
	/* a newer build's file */
	put32(buf + 8, 5);
	refused_as(buf, len, "format version 5, this build reads 1 to 4");
	put32(buf + 8, 4);
	reseal(buf, len);
	for (cut = 0; cut < len; cut++) {
		ts_error_clear(&err);
		ck_assert_int_eq(ts_usage_state_decode(buf, cut, NOW, &s, &err),
				 TS_ECORRUPT);
		ck_assert_ptr_null(s.cred);
	}
	for (bit = 0; bit < 8 * len; bit++) {
		buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
		ts_error_clear(&err);
		ck_assert_int_eq(ts_usage_state_decode(buf, len, NOW, &s, &err),
				 TS_ECORRUPT);
		ck_assert_ptr_null(s.cred);
		buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
	}
	/* and the untouched image still reads */
	ck_assert_int_eq(ts_usage_state_decode(buf, len, NOW, &s, &err), TS_OK);
	ts_usage_state_free(&s);
	free(buf);
}
END_TEST

/*
 * A treeshare_state written by the build before job keys (commit
 * 46e619f's ts_usage_state_encode(), version 1): sample()'s state
 * without windows, association 4's RawUsage 12345.5 instead of
 * LDBL_MAX.
 */
static const unsigned char version1_file[] = {
	0x54, 0x53, 0x53, 0x54, 0x41, 0x54, 0x45, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x74, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0xfb, 0xf0, 0x53, 0x65, 0x00, 0x00, 0x00, 0x00, 0xf6, 0xf0, 0x53, 0x65,
	0x00, 0x00, 0x00, 0x00, 0x80, 0x9f, 0x52, 0x65, 0x00, 0x00, 0x00, 0x00,
	0x02, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x01, 0x00, 0x00, 0x00, 0xe9, 0x03, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
	0xab, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xa6, 0x09, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf2, 0x06, 0x00, 0x00, 0x00,
	0xcd, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xfd, 0xff, 0xff, 0xff,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x02, 0x00, 0x00, 0x00, 0xab, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xa6,
	0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf2,
	0x07, 0x00, 0x00, 0x00, 0xcd, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	0xfe, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0xfa, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x80, 0xb5, 0x08, 0x00, 0x00, 0x00, 0x9a, 0x99, 0x99, 0x99,
	0x99, 0x99, 0x99, 0x99, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xe6, 0xc0, 0x0e, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf2, 0x08, 0x00, 0x00, 0x00,
	0xcd, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xff, 0xff, 0xff, 0xff,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xe0,
	0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0xa8, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00,
	0xca, 0xc6, 0x9a, 0xc7, 0x17, 0xfe, 0x70, 0xab, 0x1c, 0xfc, 0xff, 0xff,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x73, 0xa4, 0xe5, 0xa0
};

START_TEST(a_version_1_file_of_the_build_before_reads_without_keys)
{
	struct ts_usage_state b;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf;
	size_t len;

	ck_assert_uint_eq(sizeof(version1_file), 448);
	ck_assert_int_eq(ts_usage_state_decode(version1_file,
					       sizeof(version1_file), NOW, &b,
					       &err),
			 TS_OK);
	ck_assert_int_eq(b.saved_at, NOW - 5);
	ck_assert_int_eq(b.last_ran, NOW - 10);
	ck_assert_uint_eq(b.assoc.n, 4);
	ck_assert(b.assoc.val[2 * 4] == 1000.0L / 3 * 3);
	ck_assert(b.assoc.val[3 * 4] == 12345.5L);
	ck_assert(b.leaf.val[0] == 7);
	ck_assert(b.qos.val[4] == 1e-300L);
	ck_assert_uint_eq(b.held.n, 0);
	ck_assert_uint_eq(b.exempt.n, 0);
	ck_assert_ptr_null(b.held.key);
	/*
	 * and without keys this build writes the same bytes; not under
	 * valgrind, whose long double has double precision, so that the
	 * values read back from the native file encode differently there
	 */
	ck_assert_int_eq(ts_usage_state_encode(&b, &buf, &len, &err), TS_OK);
	ts_usage_state_free(&b);
	ck_assert_uint_eq(len, sizeof(version1_file));
	if (!under_valgrind())
		ck_assert_mem_eq(buf, version1_file, len);
	free(buf);
}
END_TEST

/* Every cut and every bit flip of a version 2 image: refused. */
START_TEST(every_cut_and_bit_flip_of_a_keyed_file_is_refused)
{
	struct ts_usage_state a, s;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf;
	size_t len, cut, bit;

	sample_keys(&a, 0);
	ck_assert_int_eq(ts_usage_state_encode(&a, &buf, &len, &err), TS_OK);
	ts_usage_state_free(&a);
	for (cut = 0; cut < len; cut++) {
		ts_error_clear(&err);
		ck_assert_int_eq(ts_usage_state_decode(buf, cut, NOW, &s, &err),
				 TS_ECORRUPT);
		assert_empty(&s);
	}
	for (bit = 0; bit < 8 * len; bit++) {
		buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
		ts_error_clear(&err);
		ck_assert_int_eq(ts_usage_state_decode(buf, len, NOW, &s, &err),
				 TS_ECORRUPT);
		ck_assert_ptr_null(s.held.key);
		buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
	}
	free(buf);
}
END_TEST

/* sample_keys()'s image (no windows); OUT *counts: offset of H and E. */
static size_t keyed_image(unsigned char **buf, size_t *counts)
{
	struct ts_usage_state a;
	struct ts_error err = TS_ERROR_INIT;
	size_t len;

	sample_keys(&a, 0);
	ck_assert_int_eq(ts_usage_state_encode(&a, buf, &len, &err), TS_OK);
	ts_usage_state_free(&a);
	*counts = len - 4 - 3 * 12 - 8;
	return len;
}

/* Key counts and keys behind a good CRC: named, nothing allocated. */
START_TEST(job_key_defects_behind_a_good_crc_are_named)
{
	unsigned char *buf;
	size_t len, counts;

	len = keyed_image(&buf, &counts);
	put32(buf + counts, UINT32_MAX);
	refused_as(buf, len,
		   "4294967295 held and 1 exempt job keys do not fill the 36 "
		   "bytes after the usage windows");
	put32(buf + counts, 2);
	/* held keys (3, NOW - 30), (7, NOW - 70): the second becomes 3 */
	put32(buf + counts + 8 + 12, 3);
	put64(buf + counts + 8 + 12 + 4, (uint64_t)(NOW - 30));
	refused_as(buf, len,
		   "held job keys: job 3 submitted at 1699999970 is not rising "
		   "or not a job");
	put32(buf + counts + 8 + 12, 7);
	put64(buf + counts + 8 + 12 + 4, (uint64_t)(NOW - 70));
	/* exempt job id 0 */
	put32(buf + counts + 8 + 24, 0);
	refused_as(buf, len,
		   "exempt job keys: job 0 submitted at 1699999910 is not "
		   "rising or not a job");
	free(buf);

	/* version 2 with no keys: the writer makes version 1 of that */
	len = keyed_image(&buf, &counts);
	put32(buf + counts, 0);
	put32(buf + counts + 4, 0);
	put64(buf + 16, (uint64_t)(len - 76 - 3 * 12));
	refused_as(buf, len - 3 * 12, "format version 2 without job keys");
	free(buf);
}
END_TEST

START_TEST(encode_refuses_a_job_key_twice_or_id_0)
{
	struct ts_usage_state s;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf;
	size_t len;

	sample_keys(&s, 0);
	s.held.key[0] = s.held.key[1];
	ck_assert_int_eq(ts_usage_state_sort(&s, &err), TS_EINVAL);
	ck_assert_str_eq(err.msg,
			 "held job 7 submitted at 1699999930 appears twice");
	ts_usage_state_free(&s);
	sample_keys(&s, 0);
	s.exempt.key[0].id = 0;
	ts_error_clear(&err);
	ck_assert_int_eq(ts_usage_state_encode(&s, &buf, &len, &err),
			 TS_EINVAL);
	ck_assert_str_eq(err.msg, "exempt job keys: job 0 submitted at "
				  "1699999910 is not rising or not a job");
	ts_usage_state_free(&s);
}
END_TEST

/* ts_usage_state_keys(): a job set's members, all of them. */
START_TEST(keys_copies_every_member_of_a_job_set)
{
	struct ts_job_set set = TS_JOB_SET_INIT;
	struct ts_job_keys keys = { 0, NULL };
	struct ts_error err = TS_ERROR_INIT;
	uint32_t id;

	for (id = 1; id <= 40; id++)
		ck_assert_int_eq(ts_job_set_add(&set,
						(struct ts_job_key){ id, id },
						&err),
				 TS_OK);
	ck_assert_int_eq(ts_usage_state_keys(&keys, &set, &err), TS_OK);
	ck_assert_uint_eq(keys.n, 40);
	for (id = 0; id < 40; id++)
		ck_assert(ts_job_set_has(&set, keys.key[id]));
	ts_job_set_free(&set);
	ck_assert_int_eq(ts_usage_state_keys(&keys, &set, &err), TS_OK);
	ck_assert_uint_eq(keys.n, 0);
	free(keys.key);
}
END_TEST

/*
 * A snapshot a cycle (checkpoint.c): the state and the sort's memo are
 * kept, filled again in list order.  Each sort gives what a fresh
 * ts_usage_state_sort() gives, whether the ids come in the same order as
 * the time before (the kept order used) or not; the arrays stay the same
 * once sizes settle; a duplicate is still named.
 */
static void fill_shuffled(struct ts_usage_state *s, size_t n, unsigned int key,
			  unsigned int round)
{
	struct ts_error err = TS_ERROR_INIT;
	size_t v, i, k;

	ck_assert_int_eq(ts_usage_state_reserve(s, 3, n, n / 2, 2, &err),
			 TS_OK);
	v = ts_usage_state_values(s);
	for (i = 0; i < n; i++) {
		/* a permutation of 1 .. n, the same for the same key */
		s->assoc.id[i] = (uint32_t)((i * 7919 + key) % n) + 1;
		for (k = 0; k < v; k++)
			s->assoc.val[i * v + k] = (long double)(round + 1) *
						  s->assoc.id[i] / (k + 3);
	}
	for (i = 0; i < n / 2; i++) {
		s->leaf.id[i] = (uint32_t)(n / 2 - i);
		for (k = 0; k < v; k++)
			s->leaf.val[i * v + k] = round + i + k;
	}
	s->qos.id[0] = 2;
	s->qos.id[1] = 1;
	for (k = 0; k < 2 * v; k++)
		s->qos.val[k] = round * k;
	for (k = 0; k < 3; k++)
		s->tres_id[k] = (uint32_t)k + 1;
	/* job keys as a job set's walk gives them, in no order */
	free(s->held.key);
	s->held.n = 50;
	s->held.key = malloc(s->held.n * sizeof(*s->held.key));
	ck_assert_ptr_nonnull(s->held.key);
	for (i = 0; i < s->held.n; i++) {
		s->held.key[i].id = (uint32_t)((i * 37 + key) % 50) + 1;
		s->held.key[i].submit = NOW - (int64_t)s->held.key[i].id;
	}
	s->saved_at = NOW;
	s->last_ran = NOW;
}

static void assert_same_sets(const struct ts_usage_set *a,
			     const struct ts_usage_set *b, size_t v)
{
	size_t i;

	ck_assert_uint_eq(a->n, b->n);
	ck_assert_mem_eq(a->id, b->id, a->n * sizeof(*a->id));
	/* values, not bytes: a long double's last 6 bytes are padding */
	for (i = 0; i < a->n * v; i++)
		ck_assert(a->val[i] == b->val[i]);
}

START_TEST(sorting_again_with_the_kept_order_equals_a_fresh_sort)
{
	static const unsigned int keys[] = { 5, 5, 5, 11, 11, 5 };
	struct ts_usage_state kept = { 0 }, fresh;
	struct ts_usage_sort_memo memo = { 0 };
	struct ts_error err = TS_ERROR_INIT;
	uint32_t *id = NULL;
	long double *val = NULL;
	size_t r, i, n = 1000, v;

	for (r = 0; r < sizeof(keys) / sizeof(keys[0]); r++) {
		fill_shuffled(&kept, n, keys[r], (unsigned int)r);
		ck_assert_int_eq(ts_usage_state_sort_again(&kept, &memo, &err),
				 TS_OK);
		memset(&fresh, 0, sizeof(fresh));
		fill_shuffled(&fresh, n, keys[r], (unsigned int)r);
		ck_assert_int_eq(ts_usage_state_sort(&fresh, &err), TS_OK);
		v = ts_usage_state_values(&kept);
		assert_same_sets(&kept.assoc, &fresh.assoc, v);
		assert_same_sets(&kept.leaf, &fresh.leaf, v);
		assert_same_sets(&kept.qos, &fresh.qos, v);
		ck_assert_uint_eq(kept.held.n, fresh.held.n);
		for (i = 0; i < kept.held.n; i++) {
			ck_assert_uint_eq(kept.held.key[i].id, i + 1);
			ck_assert_int_eq(kept.held.key[i].submit,
					 fresh.held.key[i].submit);
		}
		ck_assert_uint_eq(kept.assoc.id[0], 1);
		ck_assert_uint_eq(kept.assoc.id[n - 1], n);
		ts_usage_state_free(&fresh);
		/* the same sizes: the records swap between two arrays only */
		if (r == 2) {
			id = kept.assoc.id;
			val = kept.assoc.val;
		}
		if (r == 4) {
			ck_assert_ptr_eq(kept.assoc.id, id);
			ck_assert_ptr_eq(kept.assoc.val, val);
		}
	}
	/* a duplicate in the kept order's place is still found */
	fill_shuffled(&kept, n, 5, 0);
	ck_assert_int_eq(ts_usage_state_sort_again(&kept, &memo, &err), TS_OK);
	fill_shuffled(&kept, n, 5, 0);
	kept.assoc.id[7] = kept.assoc.id[8];
	ck_assert_int_eq(ts_usage_state_sort_again(&kept, &memo, &err),
			 TS_EINVAL);
	ck_assert_str_eq(err.msg, "association 358 appears twice");
	/* and a job key twice where the kept key order was */
	ts_error_clear(&err);
	fill_shuffled(&kept, n, 5, 0);
	ck_assert_int_eq(ts_usage_state_sort_again(&kept, &memo, &err), TS_OK);
	fill_shuffled(&kept, n, 5, 0);
	kept.held.key[3] = kept.held.key[4];
	ck_assert_int_eq(ts_usage_state_sort_again(&kept, &memo, &err),
			 TS_EINVAL);
	ck_assert_msg(strstr(err.msg, "held job"), "%s", err.msg);
	ck_assert_ptr_nonnull(strstr(err.msg, "appears twice"));
	ts_usage_state_free(&kept);
	ts_usage_sort_memo_free(&memo);
}
END_TEST

/*
 * A commit copies usage unchecked and sanitizes only when the encoder
 * refuses it (checkpoint.c): every NaN, infinite or negative value, in
 * each set, becomes 0 and is counted; the others stay as they were, and
 * the state then encodes.
 */
START_TEST(sanitize_zeroes_what_encode_refuses_and_counts_it)
{
	volatile long double zero = 0;
	struct ts_usage_state s;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf;
	size_t len, v;

	sample(&s, 0);
	v = ts_usage_state_values(&s);
	ck_assert_uint_eq(ts_usage_state_sanitize(&s), 0);
	s.assoc.val[1] = zero / zero;
	s.assoc.val[v + 2] = -1;
	s.leaf.val[3] = 1 / zero;
	s.qos.val[v] = -zero; /* -0 is 0: kept */
	ck_assert_int_eq(ts_usage_state_encode(&s, &buf, &len, &err),
			 TS_EINVAL);
	ck_assert_uint_eq(ts_usage_state_sanitize(&s), 3);
	ck_assert(s.assoc.val[1] == 0 && s.assoc.val[v + 2] == 0 &&
		  s.leaf.val[3] == 0);
	ck_assert(s.assoc.val[0] == 1000.0L / 3);
	ck_assert(s.qos.val[1] == 0 && s.qos.val[v] == 0);
	ck_assert_uint_eq(ts_usage_state_sanitize(&s), 0);
	ck_assert_int_eq(ts_usage_state_encode(&s, &buf, &len, &err), TS_OK);
	free(buf);
	ts_usage_state_free(&s);
}
END_TEST

/*
 * The value as stored (state_bytes.h): from the long double's bits where
 * the host has x86's format, by frexpl() elsewhere.  The two give the
 * same 12 bytes for every kind of number: zero, -0, subnormal, the
 * smallest and largest normal, negative, infinite, NaN, and random ones;
 * natively also random bit patterns (valgrind loads a long double at
 * double precision, so those only natively).
 */
static void assert_value_bytes_agree(long double given)
{
	/*
	 * valgrind: frexpl() works at double precision, while a constant
	 * (1000.0L / 3) has all 64 bits in memory; both see a double.
	 */
	volatile long double v = under_valgrind() ? (double)given : given;
	long double copy = v;
	uint64_t m, m_frexp;
	int32_t e, e_frexp;
	int ok = ts_value_split(&copy, &m, &e);

	ck_assert_int_eq(ts_value_split_frexp(v, &m_frexp, &e_frexp), ok);
	ck_assert_int_eq(ok, v >= 0 && v - v == 0);
	ck_assert_int_eq(ts_value_ok(&copy), ok);
	ck_assert_uint_eq(m, m_frexp);
	ck_assert_int_eq(e, e_frexp);
}

START_TEST(stored_value_from_bits_equals_frexp)
{
	volatile long double tiny = LDBL_MIN, big = LDBL_MAX, zero = 0;
	long double x;
	unsigned int seed = 2026;
	int i, k;

	assert_value_bytes_agree(0);
	assert_value_bytes_agree(-zero);
	assert_value_bytes_agree(tiny);
	assert_value_bytes_agree(tiny / 4); /* subnormal */
	assert_value_bytes_agree(big);
	assert_value_bytes_agree(-1);
	assert_value_bytes_agree(-tiny / 4);
	assert_value_bytes_agree(big * 2);  /* infinite */
	assert_value_bytes_agree(-big * 2); /* -infinite */
	assert_value_bytes_agree(zero / zero);
	assert_value_bytes_agree(1000.0L / 3);
	assert_value_bytes_agree(1e-300L);
	for (i = 0; i < 10000; i++) {
		x = (long double)rand_r(&seed) /
		    ((long double)rand_r(&seed) + 1);
		for (k = rand_r(&seed) % 64; k > 0; k--)
			x *= rand_r(&seed) % 2 ? 1e9L : 1e-9L;
		assert_value_bytes_agree(x);
	}
#ifdef TS_VALUE_BITS
	if (under_valgrind())
		return;
	for (i = 0; i < 100000; i++) {
		unsigned char b[sizeof(long double)] = { 0 };

		for (k = 0; k < 10; k++)
			b[k] = (unsigned char)rand_r(&seed);
		b[7] |= 0x80;	/* normal or pseudo-denormal, x87 loads both */
		if (i % 4 == 0) /* the exponent field 0 */
			b[8] = 0, b[9] &= 0x80;
		memcpy(&x, b, sizeof(b));
		assert_value_bytes_agree(x);
	}
#endif
}
END_TEST

/*
 * Leaves added one at a time, past every growth of their arrays, keep
 * what was written before, in order; a reserve for the next fill starts
 * them at 0 again with the room kept; a change of TRES count (records of
 * another size) still grows them right.
 */
START_TEST(leaves_added_one_by_one_keep_every_value_through_growth)
{
	struct ts_usage_state s = { 0 };
	struct ts_error err = TS_ERROR_INIT;
	size_t v, i, k, n = 1000, cap;
	unsigned tres;

	for (tres = 2; tres <= 5; tres += 3) {
		ck_assert_int_eq(
			ts_usage_state_reserve(&s, tres, 4, 0, 1, &err), TS_OK);
		ck_assert_uint_eq(s.leaf.n, 0);
		v = ts_usage_state_values(&s);
		for (i = 0; i < n; i++) {
			long l = ts_usage_state_add_leaf(&s);

			ck_assert_int_eq(l, (long)i);
			ck_assert_uint_eq(s.leaf.n, i + 1);
			ck_assert_uint_ge(s.leaf.cap, s.leaf.n);
			s.leaf.id[l] = (uint32_t)(i + 1);
			for (k = 0; k < v; k++)
				s.leaf.val[l * v + k] = (long double)i * v + k;
		}
		for (i = 0; i < n; i++) {
			ck_assert_uint_eq(s.leaf.id[i], i + 1);
			for (k = 0; k < v; k++)
				ck_assert(s.leaf.val[i * v + k] ==
					  (long double)i * v + k);
		}
		cap = s.leaf.cap;
		ck_assert_int_eq(
			ts_usage_state_reserve(&s, tres, 4, 0, 1, &err), TS_OK);
		ck_assert_uint_eq(s.leaf.n, 0);
		ck_assert_uint_eq(s.leaf.cap, cap);
	}
	ts_usage_state_free(&s);
}
END_TEST

/*
 * A refused file still says how many operator releases it held (the -i
 * line, issue 31): read past a bad CRC, not past a torn length.
 */
START_TEST(peek_reads_key_counts_past_a_bad_crc_only)
{
	struct ts_usage_state a, b;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf;
	uint64_t held = 9, exempt = 9;
	size_t len, counts;

	len = keyed_image(&buf, &counts);
	buf[80] ^= 0x10; /* a usage byte: the CRC no longer matches */
	ck_assert_int_eq(ts_usage_state_decode(buf, len, NOW, &b, &err),
			 TS_ECORRUPT);
	ck_assert_ptr_nonnull(strstr(err.msg, "CRC mismatch"));
	ck_assert_int_eq(ts_usage_state_peek_keys(buf, len, &held, &exempt), 1);
	ck_assert_uint_eq(held, 2);
	ck_assert_uint_eq(exempt, 1);
	/* torn: the counts are not where the header puts them */
	ck_assert_int_eq(ts_usage_state_peek_keys(buf, len - 1, &held, &exempt),
			 0);
	ck_assert_uint_eq(exempt, 0);
	/* counts that do not fill the rest: unknown */
	put32(buf + counts + 4, 5);
	ck_assert_int_eq(ts_usage_state_peek_keys(buf, len, &held, &exempt), 0);
	free(buf);
	/* version 3: the keys, then consumed_since's 8 bytes */
	sample_keys(&a, 0);
	a.consumed_since = NOW - 40;
	len = encode_as(&a, &buf, 3);
	ts_usage_state_free(&a);
	buf[80] ^= 0x10;
	ck_assert_int_eq(ts_usage_state_peek_keys(buf, len, &held, &exempt), 1);
	ck_assert_uint_eq(held, 2);
	ck_assert_uint_eq(exempt, 1);
	free(buf);
	/* version 4: the keys, consumed_since, then the credential image */
	sample_keys(&a, 0);
	sample_cred(&a);
	len = encode_as(&a, &buf, 4);
	counts = a.cred_len;
	ts_usage_state_free(&a);
	buf[80] ^= 0x10;
	ck_assert_int_eq(ts_usage_state_peek_keys(buf, len, &held, &exempt), 1);
	ck_assert_uint_eq(held, 2);
	ck_assert_uint_eq(exempt, 1);
	/* C not the image's length: unknown */
	put64(buf + len - 4 - counts - 8, counts - 1);
	ck_assert_int_eq(ts_usage_state_peek_keys(buf, len, &held, &exempt), 0);
	free(buf);
	/* version 1: no keys, known */
	sample(&a, 0);
	len = encode_as(&a, &buf, 1);
	ts_usage_state_free(&a);
	ck_assert_int_eq(ts_usage_state_peek_keys(buf, len, &held, &exempt), 1);
	ck_assert_uint_eq(held + exempt, 0);
	ck_assert_int_eq(ts_usage_state_peek_keys("TSSTATE", 8, &held, &exempt),
			 0);
	free(buf);
}
END_TEST

/*
 * Seed 000's tree (testsuite/trees/seed000.tree): group1 = bob 100 +
 * cathy 100, group2 = suzy 0 + scott 1000, root 1200; group1 also holds
 * 50 of its own (a deleted user's, Slurm's leaf_usage), so 250 and root
 * 1250.  Two values a record: RawUsage and one TRES.
 */
enum { ROOT, G1, BOB, CATHY, G2, SUZY, SCOTT, N_SEED };
static const long seed_parent[N_SEED] = { -1, ROOT, G1, G1, ROOT, G2, G2 };
static const long double seed_own[N_SEED * 2] = {
	0, 0, 50, 5, 100, 10, 100, 10, 0, 0, 0, 0, 1000, 100,
};

START_TEST(accounts_hold_what_their_children_and_own_leaf_hold)
{
	long double val[N_SEED * 2] = {
		1250, 125,  250, 25, 100, 10,	100,
		10,   1000, 100, 0,  0,	  1000, 100,
	};
	long double sum[N_SEED * 2];

	ck_assert_int_eq(ts_usage_sum_children(N_SEED, 2, seed_parent, seed_own,
					       val, sum),
			 0);
	ck_assert(sum[ROOT * 2] == 1250 && sum[ROOT * 2 + 1] == 125);
	ck_assert(sum[G1 * 2] == 250 && sum[G2 * 2] == 1000);
	/* rounding of decay and charges is not a difference */
	val[ROOT * 2] = 1250 * (1 + 1e-12L);
	ck_assert_int_eq(ts_usage_sum_children(N_SEED, 2, seed_parent, seed_own,
					       val, sum),
			 0);
}
END_TEST

/*
 * Issue 31: Slurm's refresh after a start from its cache copies the old
 * root's usage into the new root, then adds every leaf's on top: root
 * 2500 and TRES 250 for children holding 1250 and 125.  Found, and the
 * sum is what the root is set to.
 */
START_TEST(a_root_holding_twice_its_children_is_found_and_summed)
{
	long double val[N_SEED * 2] = {
		2500, 250,  250, 25, 100, 10,	100,
		10,   1000, 100, 0,  0,	  1000, 100,
	};
	long double sum[N_SEED * 2];
	const long loop[3] = { 2, 0, 1 };

	ck_assert_int_eq(ts_usage_sum_children(N_SEED, 2, seed_parent, seed_own,
					       val, sum),
			 1);
	ck_assert(sum[ROOT * 2] == 1250 && sum[ROOT * 2 + 1] == 125);
	/* an account short of its children (group2 600): found too */
	val[ROOT * 2] = 1250;
	val[ROOT * 2 + 1] = 125;
	val[G2 * 2] = 600;
	ck_assert_int_eq(ts_usage_sum_children(N_SEED, 2, seed_parent, seed_own,
					       val, sum),
			 1);
	ck_assert(sum[G2 * 2] == 1000);
	/* parent links that loop: refused, no endless walk */
	ck_assert_int_eq(ts_usage_sum_children(3, 2, loop, seed_own, val, sum),
			 -1);
}
END_TEST

Suite *suite_usage_state(void)
{
	Suite *s = suite_create("usage_state");
	TCase *tc = tcase_create("usage_state");

	/* stored_value_from_bits_equals_frexp takes ~1 s of CPU: Check's
	 * default 4 s limit was hit on a machine at load 14. */
	tcase_set_timeout(tc, 60);

	tcase_add_test(tc, round_trip_keeps_every_value_exactly_in_id_order);
	tcase_add_test(tc, every_truncation_and_trailing_bytes_are_refused);
	tcase_add_test(tc, every_bit_flip_is_refused);
	tcase_add_test(tc, random_bytes_are_refused);
	tcase_add_test(tc, times_out_of_range_are_refused_with_their_name);
	tcase_add_test(tc, hostile_counts_are_refused_before_allocating);
	tcase_add_test(tc, structure_defects_behind_a_good_crc_are_named);
	tcase_add_test(tc, encode_refuses_nan_negative_and_duplicate_ids);
	tcase_add_test(
		tc, load_falls_back_to_prev_and_names_both_when_both_are_bad);
	tcase_add_test(tc, failed_save_names_the_file_and_keeps_both_copies);
	tcase_add_test(tc, job_keys_round_trip_as_version_2);
	tcase_add_test(tc, only_a_state_with_job_keys_is_version_2);
	tcase_add_test(tc, consumed_since_round_trips_as_version_3);
	tcase_add_test(tc,
		       a_version_1_file_of_the_build_before_reads_without_keys);
	tcase_add_test(tc, every_cut_and_bit_flip_of_a_keyed_file_is_refused);
	tcase_add_test(tc, job_key_defects_behind_a_good_crc_are_named);
	tcase_add_test(tc, encode_refuses_a_job_key_twice_or_id_0);
	tcase_add_test(tc, keys_copies_every_member_of_a_job_set);
	tcase_add_test(tc, stored_value_from_bits_equals_frexp);
	tcase_add_test(tc, sanitize_zeroes_what_encode_refuses_and_counts_it);
	tcase_add_test(tc,
		       sorting_again_with_the_kept_order_equals_a_fresh_sort);
	tcase_add_test(tc,
		       leaves_added_one_by_one_keep_every_value_through_growth);
	tcase_add_test(tc, peek_reads_key_counts_past_a_bad_crc_only);
	tcase_add_test(tc, credential_usage_round_trips_as_version_4);
	tcase_add_test(tc, credential_usage_defects_are_named);
	tcase_add_test(tc, accounts_hold_what_their_children_and_own_leaf_hold);
	tcase_add_test(tc,
		       a_root_holding_twice_its_children_is_found_and_summed);
	suite_add_tcase(s, tc);
	return s;
}
