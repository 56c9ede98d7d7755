/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The set of cap-held jobs: a model check against a plain array. */
#include <check.h>
#include <stdlib.h>

#include "job_set.h"

START_TEST(id_and_submit_time_together_are_the_key)
{
	struct ts_job_set s = TS_JOB_SET_INIT;
	struct ts_error err = TS_ERROR_INIT;
	struct ts_job_key a = { 7, 1000 }, reused = { 7, 2000 },
			  none = { 0, 1 };

	ck_assert(!ts_job_set_has(&s, a));
	ck_assert_int_eq(ts_job_set_add(&s, a, &err), TS_OK);
	ck_assert_int_eq(ts_job_set_add(&s, a, &err), TS_OK);
	ck_assert_uint_eq(s.n, 1);
	ck_assert(ts_job_set_has(&s, a));
	ck_assert(!ts_job_set_has(&s, reused));
	ck_assert_int_eq(ts_job_set_add(&s, none, &err), TS_EINVAL);
	ck_assert(!ts_job_set_remove(&s, reused));
	ck_assert(ts_job_set_remove(&s, a));
	ck_assert(!ts_job_set_has(&s, a));
	ck_assert_uint_eq(s.n, 0);
	ts_job_set_free(&s);
}
END_TEST

/*
 * Random adds and removes of few distinct keys (long probe runs, many
 * shifts): membership, count and the walk always agree with a plain
 * array of flags.
 */
START_TEST(random_adds_and_removes_agree_with_a_model)
{
	enum { KEYS = 300 };
	struct ts_job_set s = TS_JOB_SET_INIT;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char in[KEYS] = { 0 };
	unsigned seed = 20;
	size_t members = 0;
	int step;

	for (step = 0; step < 40000; step++) {
		unsigned k = (unsigned)rand_r(&seed) % KEYS;
		struct ts_job_key key = { k / 3 + 1, (int64_t)(k % 3) };

		if (rand_r(&seed) % 3) {
			ck_assert_int_eq(ts_job_set_add(&s, key, &err), TS_OK);
			members += !in[k];
			in[k] = 1;
		} else {
			ck_assert_int_eq(ts_job_set_remove(&s, key), in[k]);
			members -= in[k];
			in[k] = 0;
		}
		ck_assert_uint_eq(s.n, members);
		if (step % 997 == 0) {
			size_t pos = 0, walked = 0, i;
			struct ts_job_key got;

			for (i = 0; i < KEYS; i++) {
				struct ts_job_key q = { (uint32_t)(i / 3 + 1),
							(int64_t)(i % 3) };

				ck_assert_int_eq(ts_job_set_has(&s, q), in[i]);
			}
			while (ts_job_set_next(&s, &pos, &got)) {
				size_t i2 =
					(got.id - 1) * 3 + (size_t)got.submit;

				ck_assert(in[i2]);
				walked++;
			}
			ck_assert_uint_eq(walked, members);
		}
	}
	ts_job_set_clear(&s);
	ck_assert_uint_eq(s.n, 0);
	ts_job_set_free(&s);
}
END_TEST

Suite *suite_job_set(void)
{
	Suite *s = suite_create("job_set");
	TCase *tc = tcase_create("job_set");

	tcase_add_test(tc, id_and_submit_time_together_are_the_key);
	tcase_add_test(tc, random_adds_and_removes_agree_with_a_model);
	suite_add_tcase(s, tc);
	return s;
}
