/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority_last_decay_ran (src/decay_record.c): multifactor's 16 bytes
 * read as they are, treeshare's trailer checked, every defect named,
 * the .old copy used when the current one is bad.
 */
#include <check.h>

#include "decay_record.h"
#include "state_dir.h"

#define NOW INT64_C(1700000000)

/*
 * Slurm's pack_time(1700000000) then pack_time(1699913600), as
 * multifactor's _write_last_decay_ran() leaves them:
 * 1700000000 = 0x6553f100, 1699913600 = 0x65529f80.
 */
static const unsigned char multifactor_file[16] = {
	0, 0, 0, 0, 0x65, 0x53, 0xf1, 0x00, 0, 0, 0, 0, 0x65, 0x52, 0x9f, 0x80,
};

START_TEST(multifactor_16_bytes_are_read_as_foreign)
{
	struct ts_decay_record r;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(
		ts_decay_record_decode(multifactor_file, 16, NOW, &r, &err),
		TS_OK);
	ck_assert_int_eq(r.last_ran, 1700000000);
	ck_assert_int_eq(r.last_reset, 1699913600);
	ck_assert_int_eq(r.origin, TS_DECAY_RECORD_FOREIGN);
}
END_TEST

/* multifactor reads the first 16 bytes: ours must begin with them. */
START_TEST(treeshare_record_begins_with_multifactors_16_bytes)
{
	const struct ts_decay_record in = { 1700000000, 1699913600,
					    TS_DECAY_RECORD_OURS };
	struct ts_decay_record out;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char rec[TS_DECAY_RECORD_BYTES];

	ts_decay_record_encode(&in, rec);
	ck_assert_mem_eq(rec, multifactor_file, 16);
	ck_assert_mem_eq(rec + 16, "TSLD", 4);
	ck_assert_int_eq(
		ts_decay_record_decode(rec, sizeof(rec), NOW, &out, &err),
		TS_OK);
	ck_assert_int_eq(out.last_ran, in.last_ran);
	ck_assert_int_eq(out.last_reset, in.last_reset);
	ck_assert_int_eq(out.origin, TS_DECAY_RECORD_OURS);
}
END_TEST

START_TEST(zero_length_torn_and_trailing_are_defects)
{
	const struct ts_decay_record in = { NOW - 60, NOW - 3600,
					    TS_DECAY_RECORD_OURS };
	unsigned char rec[40] = { 0 };
	struct ts_decay_record out;
	struct ts_error err = TS_ERROR_INIT;
	size_t len;

	ts_decay_record_encode(&in, rec);
	for (len = 0; len <= sizeof(rec); len++) {
		ts_error_clear(&err);
		if (len == 16 || len == 28)
			continue;
		ck_assert_int_eq(
			ts_decay_record_decode(rec, len, NOW, &out, &err),
			TS_ECORRUPT);
		ck_assert_int_eq(out.last_ran, 0);
	}
	ts_error_clear(&err);
	ts_decay_record_decode(rec, 0, NOW, &out, &err);
	ck_assert_str_eq(err.msg, "zero length");
	ts_error_clear(&err);
	ts_decay_record_decode(rec, 20, NOW, &out, &err);
	ck_assert_str_eq(err.msg, "20 bytes: neither multifactor's 16 nor "
				  "treeshare's 28 (torn or truncated)");
	ts_error_clear(&err);
	ts_decay_record_decode(rec, 29, NOW, &out, &err);
	ck_assert_str_eq(err.msg, "29 bytes: neither multifactor's 16 nor "
				  "treeshare's 28 (trailing bytes)");
}
END_TEST

/* CRC-32 catches every single-bit error in the 28 bytes. */
START_TEST(every_bit_flip_of_a_treeshare_record_is_detected)
{
	const struct ts_decay_record in = { NOW - 60, NOW - 3600,
					    TS_DECAY_RECORD_OURS };
	unsigned char rec[TS_DECAY_RECORD_BYTES];
	struct ts_decay_record out;
	struct ts_error err = TS_ERROR_INIT;
	int bit;

	for (bit = 0; bit < 8 * TS_DECAY_RECORD_BYTES; bit++) {
		ts_decay_record_encode(&in, rec);
		rec[bit / 8] ^= (unsigned char)(1u << (bit % 8));
		ts_error_clear(&err);
		ck_assert_int_eq(ts_decay_record_decode(rec, sizeof(rec), NOW,
							&out, &err),
				 TS_ECORRUPT);
	}
}
END_TEST

START_TEST(negative_and_future_times_are_defects)
{
	struct ts_decay_record r = { -1, 0, TS_DECAY_RECORD_OURS }, out;
	unsigned char rec[TS_DECAY_RECORD_BYTES];
	struct ts_error err = TS_ERROR_INIT;

	ts_decay_record_encode(&r, rec);
	ck_assert_int_eq(ts_decay_record_decode(rec, 16, NOW, &out, &err),
			 TS_ECORRUPT);
	ck_assert_str_eq(err.msg, "last decay time -1 is negative");

	/* Up to TS_STATE_CLOCK_SKEW (300 s) ahead passes; 301 does not. */
	r.last_ran = NOW + 300;
	ts_decay_record_encode(&r, rec);
	ts_error_clear(&err);
	ck_assert_int_eq(ts_decay_record_decode(rec, 28, NOW, &out, &err),
			 TS_OK);
	r.last_ran = NOW;
	r.last_reset = NOW + 301;
	ts_decay_record_encode(&r, rec);
	ts_error_clear(&err);
	ck_assert_int_eq(ts_decay_record_decode(rec, 28, NOW, &out, &err),
			 TS_ECORRUPT);
	ck_assert_str_eq(err.msg,
			 "last reset time 2023-11-14T22:18:21Z is 301 s after "
			 "now (2023-11-14T22:13:20Z), more than the 300 s of "
			 "clock skew allowed");
}
END_TEST

/* Issue 13: a zero-length file was a "first start" beside a good .old. */
START_TEST(zero_length_file_falls_back_to_old_copy)
{
	struct state_dir d;
	struct ts_decay_record r;
	struct ts_kept_status st;
	struct ts_error err = TS_ERROR_INIT;
	char path[128], old[128];

	state_dir_make(&d, "decay");
	state_dir_file(&d, "priority_last_decay_ran", path);
	state_dir_file(&d, "priority_last_decay_ran.old", old);
	state_write_bytes(path, "", 0);
	state_write_bytes(old, multifactor_file, 16);
	ck_assert_int_eq(ts_decay_record_load(path, NOW, &r, &st, &err), TS_OK);
	ck_assert_int_eq(st.used_prev, 1);
	ck_assert_int_eq(r.last_ran, 1700000000);
	ck_assert(strstr(st.problem, "priority_last_decay_ran: zero length"));
	state_dir_remove(&d);
}
END_TEST

START_TEST(no_file_at_all_is_a_first_start_one_bad_is_not)
{
	struct state_dir d;
	struct ts_decay_record r;
	struct ts_kept_status st;
	struct ts_error err = TS_ERROR_INIT;
	char path[128], old[128], want[512];
	unsigned char seventeen[17] = { 0 };

	state_dir_make(&d, "decay");
	state_dir_file(&d, "priority_last_decay_ran", path);
	state_dir_file(&d, "priority_last_decay_ran.old", old);
	ck_assert_int_eq(ts_decay_record_load(path, NOW, &r, &st, &err),
			 TS_ENOENT);

	/* The current copy gone and the old one torn: a loss, not a start. */
	state_write_bytes(old, multifactor_file, 10);
	ts_error_clear(&err);
	ck_assert_int_eq(ts_decay_record_load(path, NOW, &r, &st, &err),
			 TS_ECORRUPT);
	snprintf(want, sizeof(want),
		 "%s: missing; %s: 10 bytes: neither multifactor's 16 nor "
		 "treeshare's 28 (torn or truncated)",
		 path, old);
	ck_assert_str_eq(err.msg, want);

	/* Both bad: both named. */
	memcpy(seventeen, multifactor_file, 16);
	state_write_bytes(path, seventeen, 17);
	ts_error_clear(&err);
	ck_assert_int_eq(ts_decay_record_load(path, NOW, &r, &st, &err),
			 TS_ECORRUPT);
	ck_assert(strstr(err.msg, "priority_last_decay_ran: 17 bytes"));
	ck_assert(strstr(err.msg, "priority_last_decay_ran.old: 10 bytes"));
	state_dir_remove(&d);
}
END_TEST

/* A save keeps the good copy it replaces as .old, never a bad one. */
START_TEST(save_keeps_only_a_good_copy_as_old)
{
	struct ts_decay_record a = { NOW - 120, 0, TS_DECAY_RECORD_OURS };
	struct ts_decay_record b = { NOW - 60, 0, TS_DECAY_RECORD_OURS }, r;
	struct state_dir d;
	struct ts_kept_status st;
	struct ts_error err = TS_ERROR_INIT;
	char path[128], old[128];

	state_dir_make(&d, "decay");
	state_dir_file(&d, "priority_last_decay_ran", path);
	state_dir_file(&d, "priority_last_decay_ran.old", old);
	ck_assert_int_eq(ts_decay_record_save(path, &a, &err), TS_OK);
	ck_assert_int_eq(ts_decay_record_save(path, &b, &err), TS_OK);
	ck_assert_int_eq(ts_decay_record_load(old, NOW, &r, &st, &err), TS_OK);
	ck_assert_int_eq(r.last_ran, NOW - 120);

	/* Tear the current copy: the next save must not keep it. */
	ck_assert_int_eq(truncate(path, 5), 0);
	ck_assert_int_eq(ts_decay_record_save(path, &a, &err), TS_OK);
	ck_assert_int_eq(ts_decay_record_load(old, NOW, &r, &st, &err), TS_OK);
	ck_assert_int_eq(r.last_ran, NOW - 120);
	state_dir_remove(&d);
}
END_TEST

Suite *suite_decay_record(void)
{
	Suite *s = suite_create("decay_record");
	TCase *tc = tcase_create("decay_record");

	tcase_add_test(tc, multifactor_16_bytes_are_read_as_foreign);
	tcase_add_test(tc, treeshare_record_begins_with_multifactors_16_bytes);
	tcase_add_test(tc, zero_length_torn_and_trailing_are_defects);
	tcase_add_test(tc, every_bit_flip_of_a_treeshare_record_is_detected);
	tcase_add_test(tc, negative_and_future_times_are_defects);
	tcase_add_test(tc, zero_length_file_falls_back_to_old_copy);
	tcase_add_test(tc, no_file_at_all_is_a_first_start_one_bad_is_not);
	tcase_add_test(tc, save_keeps_only_a_good_copy_as_old);
	suite_add_tcase(s, tc);
	return s;
}
