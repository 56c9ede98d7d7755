/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The credential usage image (issue 27): round trip and named defects. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "credential_store.h"
#include "state_bytes.h"
#include "window_store.h"

#define T0 (INT64_C(3600) * 500000)

/* Usage in every type, over three windows, QOS missing for one job. */
static void filled(struct ts_cred_usage *cu)
{
	struct ts_error err = TS_ERROR_INIT;
	unsigned seed = 3;
	int64_t t = T0;
	int j, c;

	ck_assert_int_eq(ts_cred_usage_init(cu, 3600, 3, 0.5, T0, &err), TS_OK);
	for (j = 0; j < 300; j++) {
		struct ts_cred_ids ids;

		for (c = 0; c < TS_CRED_N; c++)
			ids.id[c] = (uint32_t)(rand_r(&seed) % 9);
		if (j % 7 == 0)
			ids.id[TS_CRED_QOS] = TS_CRED_ID_NONE;
		t += 30;
		ck_assert_int_eq(ts_cred_usage_charge(
					 cu, &ids, (long double)j / 3, t, &err),
				 TS_OK);
	}
}

static void encode(const struct ts_cred_usage *cu, unsigned char **b, size_t *n)
{
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_credential_store_encode(cu, T0 + 9000, b, n, &err),
			 TS_OK);
}

/* the image with its CRC made right again after an edit */
static void reseal(unsigned char *b, size_t n)
{
	ts_put32(b + n - 4, ts_crc32(0, b, n - 4));
}

static void expect_defect(const unsigned char *b, size_t n, const char *what)
{
	struct ts_cred_usage cu;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_credential_store_decode(b, n, &cu, &err),
			 TS_ECORRUPT);
	ck_assert_msg(strstr(err.msg, what), "'%s' lacks '%s'", err.msg, what);
}

START_TEST(round_trip_keeps_every_window_of_every_type)
{
	struct ts_cred_usage a, b;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *img;
	size_t n, s;
	uint32_t k;
	int c;

	filled(&a);
	encode(&a, &img, &n);
	ck_assert_int_eq(ts_credential_store_decode(img, n, &b, &err), TS_OK);
	for (c = 0; c < TS_CRED_N; c++) {
		ck_assert_uint_eq(b.w[c].n, a.w[c].n);
		ck_assert_uint_eq(b.w[c].depth, 3);
		for (k = 0; k < 3; k++) {
			ck_assert(ts_windows_get_total(&b.w[c], k) ==
				  ts_windows_get_total(&a.w[c], k));
			for (s = 0; s < a.w[c].n; s++)
				ck_assert(ts_windows_get(&b.w[c], a.w[c].id[s],
							 k) ==
					  ts_windows_get(&a.w[c], a.w[c].id[s],
							 k));
		}
		for (s = 0; s < a.w[c].n; s++)
			ck_assert(ts_cred_usage_pct(&b, c, a.w[c].id[s]) ==
				  ts_cred_usage_pct(&a, c, a.w[c].id[s]));
	}
	ck_assert(ts_cred_usage_pct(&b, TS_CRED_QOS, TS_CRED_ID_NONE) > 0);
	free(img);
	ts_cred_usage_free(&a);
	ts_cred_usage_free(&b);
}
END_TEST

START_TEST(defects_are_named)
{
	struct ts_cred_usage a;
	unsigned char *img, *x;
	size_t n, first;

	filled(&a);
	encode(&a, &img, &n);
	x = malloc(n + 16);
	ck_assert_ptr_nonnull(x);

	memcpy(x, img, n);
	x[n / 2] ^= 0x40;
	expect_defect(x, n, "CRC mismatch");
	expect_defect(img, n - 1, "torn or truncated");
	expect_defect(img, 0, "zero length");

	memcpy(x, img, n);
	ts_put32(x + 8, 2);
	reseal(x, n);
	expect_defect(x, n, "format version 2");

	memcpy(x, img, n);
	ts_put32(x + 12, 4);
	reseal(x, n);
	expect_defect(x, n, "4 credential types");

	/* the user image claims more bytes than the body has */
	memcpy(x, img, n);
	ts_put64(x + 24, n);
	reseal(x, n);
	expect_defect(x, n, "user: ");

	/* a defect inside the group's own window image, outer CRC resealed */
	first = (size_t)ts_get64(img + 24);
	memcpy(x, img, n);
	x[24 + 8 + first + 8 + 9] ^= 1; /* group image: version, own CRC */
	reseal(x, n);
	expect_defect(x, n, "group: ");

	/* bytes after the class image, the body length covering them */
	memcpy(x, img, n - 4);
	memset(x + n - 4, 0, 8);
	ts_put64(x + 16, ts_get64(img + 16) + 8);
	reseal(x, n + 8);
	expect_defect(x, n + 8, "8 bytes after the last credential type");

	free(x);
	free(img);
	ts_cred_usage_free(&a);
}
END_TEST

START_TEST(types_with_different_windows_are_refused)
{
	struct ts_cred_usage a;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *img;
	size_t n;

	filled(&a);
	/* the QOS windows alone get another depth */
	ck_assert_int_eq(ts_windows_reconfigure(&a.w[TS_CRED_QOS], 3600, 5, 0.5,
						T0 + 9000, NULL, &err),
			 TS_OK);
	encode(&a, &img, &n);
	expect_defect(
		img, n,
		"qos: windows of 3600 s x 5, decay 0.5, unlike user's 3600 s x 3");
	free(img);
	ts_cred_usage_free(&a);
}
END_TEST

/* Hostile bytes: every prefix and random flips fail cleanly or decode. */
START_TEST(hostile_images_fail_cleanly)
{
	struct ts_cred_usage a, b;
	unsigned char *img, *x;
	unsigned seed = 11;
	size_t n, i;

	filled(&a);
	encode(&a, &img, &n);
	x = malloc(n);
	ck_assert_ptr_nonnull(x);
	for (i = 0; i < n; i += 7) {
		struct ts_error err = TS_ERROR_INIT;

		ck_assert_int_eq(ts_credential_store_decode(img, i, &b, &err),
				 TS_ECORRUPT);
	}
	for (i = 0; i < 2000; i++) {
		struct ts_error err = TS_ERROR_INIT;

		memcpy(x, img, n);
		x[rand_r(&seed) % n] ^=
			(unsigned char)(1 + rand_r(&seed) % 255);
		reseal(x, n);
		if (ts_credential_store_decode(x, n, &b, &err) == TS_OK)
			ts_cred_usage_free(&b);
		else
			ck_assert(err.msg[0] != '\0');
	}
	free(x);
	free(img);
	ts_cred_usage_free(&a);
}
END_TEST

Suite *suite_credential_store(void)
{
	Suite *s = suite_create("credential_store");
	TCase *tc = tcase_create("image");

	tcase_add_test(tc, round_trip_keeps_every_window_of_every_type);
	tcase_add_test(tc, defects_are_named);
	tcase_add_test(tc, types_with_different_windows_are_refused);
	tcase_add_test(tc, hostile_images_fail_cleanly);
	suite_add_tcase(s, tc);
	return s;
}
