/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The usage windows' state file: format checks, atomic save, fallback. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "window_store.h"

#define NOW INT64_C(1700006400)

/* A small state: 2 windows of 60 s, associations 11 and 12. */
static void small_windows(struct ts_windows *w, long double scale)
{
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_windows_init(w, 60, 2, 0.5, NOW, 0, &err), TS_OK);
	ck_assert_int_ge(ts_windows_add_assoc(w, 11, &err), 0);
	ck_assert_int_ge(ts_windows_add_assoc(w, 12, &err), 0);
	ck_assert_int_eq(ts_windows_add(w, 11, 3 * scale, NOW, &err), TS_OK);
	ck_assert_int_eq(ts_windows_add_total(w, 3 * scale, NOW, &err), TS_OK);
	ck_assert_int_eq(ts_windows_add(w, 12, 0.1L * scale, NOW + 60, &err),
			 TS_OK);
	ck_assert_int_eq(ts_windows_add_total(w, 0.1L * scale, NOW + 60, &err),
			 TS_OK);
}

/* small_windows(1) as a file image (malloc'ed).  RET its length. */
static size_t small_image(unsigned char **buf)
{
	struct ts_windows w;
	struct ts_error err = TS_ERROR_INIT;
	size_t len;

	small_windows(&w, 1);
	ck_assert_int_eq(ts_window_store_encode(&w, NOW, buf, &len, &err),
			 TS_OK);
	ts_windows_free(&w);
	return len;
}

static void assert_same(const struct ts_windows *a, const struct ts_windows *b)
{
	uint32_t k;
	size_t s;

	ck_assert_uint_eq(a->interval, b->interval);
	ck_assert_uint_eq(a->depth, b->depth);
	ck_assert(a->decay == b->decay);
	ck_assert_uint_eq(a->n, b->n);
	for (k = 0; k <= a->depth; k++)
		ck_assert_int_eq(a->bound[k], b->bound[k]);
	for (k = 0; k < a->depth; k++)
		ck_assert(a->total[k] == b->total[k]);
	for (s = 0; s < a->n; s++)
		for (k = 0; k < a->depth; k++)
			ck_assert(ts_windows_get(a, a->id[s], k) ==
				  ts_windows_get(b, a->id[s], k));
}

static void assert_empty(const struct ts_windows *w)
{
	ck_assert_uint_eq(w->n, 0);
	ck_assert_uint_eq(w->depth, 0);
	ck_assert_ptr_null(w->usage);
	ck_assert_ptr_null(w->total);
}

static void put32(unsigned char *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* Re-seal an edited image so that only the edit, not the CRC, fails. */
static void reseal(unsigned char *buf, size_t len)
{
	put32(buf + len - 4, ts_window_store_crc32(0, buf, len - 4));
}

/* A fresh directory for one test's files. */
struct dir {
	char path[64];
	char file[96], prev[96], tmp[96];
};

static void dir_make(struct dir *d)
{
	strcpy(d->path, "/tmp/ts_window_store_XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(d->path));
	snprintf(d->file, sizeof(d->file), "%s/windows", d->path);
	snprintf(d->prev, sizeof(d->prev), "%s/windows.prev", d->path);
	snprintf(d->tmp, sizeof(d->tmp), "%s/windows.new", d->path);
}

static void dir_remove(struct dir *d)
{
	unlink(d->file);
	unlink(d->prev);
	unlink(d->tmp);
	ck_assert_int_eq(rmdir(d->path), 0);
}

static void write_bytes(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, len), (ssize_t)len);
	close(fd);
}

static void flip_byte(const char *path, long off)
{
	unsigned char c;
	int fd = open(path, O_RDWR);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pread(fd, &c, 1, off), 1);
	c ^= 0x10;
	ck_assert_int_eq(pwrite(fd, &c, 1, off), 1);
	close(fd);
}

/* The published CRC-32 check value (zlib, PNG, Ethernet). */
START_TEST(crc32_of_123456789_is_cbf43926)
{
	ck_assert_uint_eq(ts_window_store_crc32(0, "123456789", 9),
			  0xcbf43926u);
	ck_assert_uint_eq(ts_window_store_crc32(0, "", 0), 0);
	/* Incremental equals one pass. */
	ck_assert_uint_eq(
		ts_window_store_crc32(ts_window_store_crc32(0, "1234", 4),
				      "56789", 5),
		0xcbf43926u);
}
END_TEST

/* One bit at a time, the definition: the sliced tables must agree. */
static uint32_t crc32_bitwise(const unsigned char *p, size_t len)
{
	uint32_t c = 0xffffffffu;
	int bit;

	while (len--) {
		c ^= *p++;
		for (bit = 0; bit < 8; bit++)
			c = c & 1 ? (c >> 1) ^ 0xedb88320u : c >> 1;
	}
	return ~c;
}

/*
 * Every length and start around the 8-byte steps and, from 64 bytes on,
 * the 64- and 16-byte folds (crc32.c, where the CPU has them), split
 * anywhere.
 */
START_TEST(crc32_equals_bitwise_at_every_length_and_split)
{
	unsigned char buf[400];
	size_t start, len, cut;

	for (start = 0; start < sizeof(buf); start++)
		buf[start] = (unsigned char)(start * 151 + 7);
	for (start = 0; start < 8; start++)
		for (len = 0; start + len <= sizeof(buf); len++) {
			uint32_t want = crc32_bitwise(buf + start, len);

			ck_assert_uint_eq(
				ts_window_store_crc32(0, buf + start, len),
				want);
			for (cut = 0; cut <= len; cut += len < 80 ? 3 : 41)
				ck_assert_uint_eq(
					ts_window_store_crc32(
						ts_window_store_crc32(
							0, buf + start, cut),
						buf + start + cut, len - cut),
					want);
		}
}
END_TEST

/* A state file's size of random bytes, in one pass. */
START_TEST(crc32_of_a_megabyte_equals_bitwise)
{
	size_t len = (1 << 20) + 13, i;
	unsigned char *buf = malloc(len);
	unsigned int seed = 7;

	ck_assert_ptr_nonnull(buf);
	for (i = 0; i < len; i++)
		buf[i] = (unsigned char)rand_r(&seed);
	ck_assert_uint_eq(ts_window_store_crc32(0, buf, len),
			  crc32_bitwise(buf, len));
	ck_assert_uint_eq(ts_window_store_crc32(0, buf + 3, len - 3),
			  crc32_bitwise(buf + 3, len - 3));
	free(buf);
}
END_TEST

START_TEST(encode_decode_round_trip_is_exact)
{
	struct ts_windows w, back;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf;
	size_t len;
	int64_t saved;

	small_windows(&w, 1);
	/* Values no double holds exactly survive as long double. */
	ck_assert_int_eq(ts_windows_add(&w, 11, 1.0L / 3, NOW + 60, &err),
			 TS_OK);
	ck_assert_int_eq(ts_window_store_encode(&w, NOW + 61, &buf, &len, &err),
			 TS_OK);
	/* 60 + 8 * 3 + 12 * 2 + 2 * (4 + 12 * 2) */
	ck_assert_uint_eq(len, 164);
	ck_assert_int_eq(ts_window_store_decode(buf, len, &back, &saved, &err),
			 TS_OK);
	ck_assert_int_eq(saved, NOW + 61);
	assert_same(&w, &back);
	ck_assert(ts_windows_get(&back, 11, 0) == 1.0L / 3);
	ck_assert(ts_windows_weighted(&back, 12) ==
		  ts_windows_weighted(&w, 12));
	ts_windows_free(&back);
	ts_windows_free(&w);
	free(buf);
}
END_TEST

/* A write torn anywhere: every strict prefix is refused. */
START_TEST(every_truncation_of_a_small_file_is_detected)
{
	struct ts_windows back;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf;
	size_t len, cut;

	len = small_image(&buf);
	for (cut = 0; cut < len; cut++) {
		ts_error_clear(&err);
		ck_assert_int_eq(
			ts_window_store_decode(buf, cut, &back, NULL, &err),
			TS_ECORRUPT);
		assert_empty(&back);
	}
	ts_error_clear(&err);
	ts_window_store_decode(buf, 100, &back, NULL, &err);
	ck_assert_str_eq(err.msg,
			 "torn or truncated: 100 bytes, the header says "
			 "164");
	ts_error_clear(&err);
	ts_window_store_decode(buf, 20, &back, NULL, &err);
	ck_assert_str_eq(err.msg, "truncated: 20 bytes, the header alone "
				  "needs 60");
	free(buf);
}
END_TEST

/* CRC-32 catches every single-bit error, the CRC field's own included. */
START_TEST(every_single_bit_flip_is_detected)
{
	struct ts_windows back;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf;
	size_t len, bit;

	len = small_image(&buf);
	for (bit = 0; bit < 8 * len; bit++) {
		buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
		ts_error_clear(&err);
		ck_assert_int_eq(
			ts_window_store_decode(buf, len, &back, NULL, &err),
			TS_ECORRUPT);
		assert_empty(&back);
		buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
	}
	buf[70] ^= 1;
	ts_error_clear(&err);
	ts_window_store_decode(buf, len, &back, NULL, &err);
	ck_assert_int_eq(strncmp(err.msg, "CRC mismatch (stored 0x", 23), 0);
	free(buf);
}
END_TEST

START_TEST(wrong_version_and_magic_are_named)
{
	struct ts_windows back;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf;
	size_t len;

	len = small_image(&buf);
	put32(buf + 8, 2);
	reseal(buf, len);
	ck_assert_int_eq(ts_window_store_decode(buf, len, &back, NULL, &err),
			 TS_ECORRUPT);
	ck_assert_str_eq(err.msg, "format version 2, this build reads 1");
	buf[0] = 'X';
	ts_error_clear(&err);
	ck_assert_int_eq(ts_window_store_decode(buf, len, &back, NULL, &err),
			 TS_ECORRUPT);
	ck_assert_str_eq(err.msg,
			 "not a treeshare window state file (bad magic)");
	free(buf);
}
END_TEST

/* Sealed with a valid CRC, a wrong structure is still refused. */
START_TEST(structure_errors_behind_a_valid_crc_are_refused)
{
	struct ts_windows back;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf, *copy;
	size_t len;

	len = small_image(&buf);
	copy = malloc(len);

	/* Second association id made equal to the first (offset 56+24+24). */
	memcpy(copy, buf, len);
	memcpy(copy + 56 + 24 + 24 + 28, copy + 56 + 24 + 24, 4);
	reseal(copy, len);
	ck_assert_int_eq(ts_window_store_decode(copy, len, &back, NULL, &err),
			 TS_ECORRUPT);
	ck_assert_str_eq(err.msg, "association 11 appears twice");
	assert_empty(&back);

	/* Bounds out of order: bound[1] := bound[0]. */
	memcpy(copy, buf, len);
	memcpy(copy + 64, copy + 56, 8);
	reseal(copy, len);
	ts_error_clear(&err);
	ck_assert_int_eq(ts_window_store_decode(copy, len, &back, NULL, &err),
			 TS_ECORRUPT);
	ck_assert_int_eq(strncmp(err.msg, "window bound 1 ", 15), 0);

	/* Depth 0, and a count that does not fit the length. */
	memcpy(copy, buf, len);
	put32(copy + 44, 0);
	reseal(copy, len);
	ts_error_clear(&err);
	ck_assert_int_eq(ts_window_store_decode(copy, len, &back, NULL, &err),
			 TS_ECORRUPT);
	memcpy(copy, buf, len);
	put32(copy + 48, 0x7fffffff);
	reseal(copy, len);
	ts_error_clear(&err);
	ck_assert_int_eq(ts_window_store_decode(copy, len, &back, NULL, &err),
			 TS_ECORRUPT);
	ck_assert_str_eq(err.msg, "2147483647 associations of 2 windows do "
				  "not fit in 164 bytes");

	/* A usage value that is not canonical (mantissa without top bit). */
	memcpy(copy, buf, len);
	copy[56 + 24 + 7] = 0x00;
	copy[56 + 24 + 0] = 0x01;
	reseal(copy, len);
	ts_error_clear(&err);
	ck_assert_int_eq(ts_window_store_decode(copy, len, &back, NULL, &err),
			 TS_ECORRUPT);
	ck_assert_str_eq(err.msg,
			 "total of window 0 is not a finite number >= 0");
	free(copy);
	free(buf);
}
END_TEST

START_TEST(save_then_load_gives_the_same_windows)
{
	struct ts_windows w, back;
	struct ts_window_store_status st;
	struct ts_error err = TS_ERROR_INIT;
	struct stat sb;
	struct dir d;

	dir_make(&d);
	small_windows(&w, 1);
	ck_assert_int_eq(ts_window_store_save(d.file, &w, NOW + 70, &err),
			 TS_OK);
	ck_assert_int_eq(stat(d.tmp, &sb), -1); /* no .new left behind */
	ck_assert_int_eq(stat(d.file, &sb), 0);
	ck_assert_uint_eq(sb.st_mode & 0777, 0600);
	ck_assert_int_eq(ts_window_store_load(d.file, &back, &st, &err), TS_OK);
	ck_assert_int_eq(st.used_prev, 0);
	ck_assert_str_eq(st.problem, "");
	ck_assert_int_eq(st.saved_at, NOW + 70);
	assert_same(&w, &back);
	ts_windows_free(&back);
	ts_windows_free(&w);
	dir_remove(&d);
}
END_TEST

START_TEST(missing_files_are_a_first_start_not_an_error_of_data)
{
	struct ts_windows back;
	struct ts_error err = TS_ERROR_INIT;
	struct dir d;

	dir_make(&d);
	ck_assert_int_eq(ts_window_store_load(d.file, &back, NULL, &err),
			 TS_ENOENT);
	assert_empty(&back);
	dir_remove(&d);
}
END_TEST

/*
 * Saves of A then B: PATH is B, PATH.prev is A.  A bit flip in PATH makes
 * the load use A and say why.
 */
START_TEST(corrupt_file_falls_back_to_previous_good_copy)
{
	struct ts_windows a, b, back;
	struct ts_window_store_status st;
	struct ts_error err = TS_ERROR_INIT;
	struct dir d;

	dir_make(&d);
	small_windows(&a, 1);
	small_windows(&b, 2);
	ck_assert_int_eq(ts_window_store_save(d.file, &a, NOW + 70, &err),
			 TS_OK);
	ck_assert_int_eq(ts_window_store_save(d.file, &b, NOW + 80, &err),
			 TS_OK);
	ck_assert_int_eq(ts_window_store_load(d.file, &back, &st, &err), TS_OK);
	assert_same(&b, &back);
	ts_windows_free(&back);

	flip_byte(d.file, 90);
	ck_assert_int_eq(ts_window_store_load(d.file, &back, &st, &err), TS_OK);
	ck_assert_int_eq(st.used_prev, 1);
	ck_assert_int_eq(st.saved_at, NOW + 70);
	ck_assert_ptr_nonnull(strstr(st.problem, d.file));
	ck_assert_ptr_nonnull(strstr(st.problem, ": CRC mismatch"));
	assert_same(&a, &back);
	ts_windows_free(&back);

	/* Torn (truncated) PATH: the same. */
	ck_assert_int_eq(truncate(d.file, 100), 0);
	ck_assert_int_eq(ts_window_store_load(d.file, &back, &st, &err), TS_OK);
	ck_assert_int_eq(st.used_prev, 1);
	ck_assert_ptr_nonnull(strstr(st.problem, "torn or truncated"));
	assert_same(&a, &back);
	ts_windows_free(&back);

	/* Not our file at all. */
	write_bytes(d.file, "PriorityWeightAge=1000\n", 23);
	ck_assert_int_eq(ts_window_store_load(d.file, &back, &st, &err), TS_OK);
	ck_assert_int_eq(st.used_prev, 1);
	ck_assert_ptr_nonnull(strstr(st.problem, "(bad magic)"));
	ts_windows_free(&back);

	/* PATH gone: PATH.prev still used. */
	unlink(d.file);
	ck_assert_int_eq(ts_window_store_load(d.file, &back, &st, &err), TS_OK);
	ck_assert_int_eq(st.used_prev, 1);
	ck_assert_ptr_nonnull(strstr(st.problem, "No such file"));
	ts_windows_free(&back);
	ts_windows_free(&a);
	ts_windows_free(&b);
	dir_remove(&d);
}
END_TEST

START_TEST(both_copies_bad_is_an_error_naming_both_and_never_zeroes)
{
	struct ts_windows a, back;
	struct ts_window_store_status st;
	struct ts_error err = TS_ERROR_INIT;
	char want[256];
	struct dir d;

	dir_make(&d);
	small_windows(&a, 1);
	ck_assert_int_eq(ts_window_store_save(d.file, &a, NOW, &err), TS_OK);
	ck_assert_int_eq(ts_window_store_save(d.file, &a, NOW, &err), TS_OK);
	flip_byte(d.file, 90);
	flip_byte(d.prev, 91);
	ck_assert_int_eq(ts_window_store_load(d.file, &back, &st, &err),
			 TS_ECORRUPT);
	assert_empty(&back);
	snprintf(want, sizeof(want), "%s: CRC mismatch", d.file);
	ck_assert_int_eq(strncmp(err.msg, want, strlen(want)), 0);
	snprintf(want, sizeof(want), "; %s: CRC mismatch", d.prev);
	ck_assert_ptr_nonnull(strstr(err.msg, want));

	/* PATH missing, PATH.prev corrupt: data existed, so not ENOENT. */
	unlink(d.file);
	ts_error_clear(&err);
	ck_assert_int_eq(ts_window_store_load(d.file, &back, &st, &err),
			 TS_ECORRUPT);
	assert_empty(&back);
	ts_windows_free(&a);
	dir_remove(&d);
}
END_TEST

/*
 * A corrupt PATH is never promoted to PATH.prev: after it is overwritten
 * by a new save, PATH.prev is still the last good copy.
 */
START_TEST(save_over_a_corrupt_file_keeps_the_good_previous_copy)
{
	struct ts_windows a, b, c, back;
	struct ts_window_store_status st;
	struct ts_error err = TS_ERROR_INIT;
	struct dir d;

	dir_make(&d);
	small_windows(&a, 1);
	small_windows(&b, 2);
	small_windows(&c, 3);
	ck_assert_int_eq(ts_window_store_save(d.file, &a, NOW, &err), TS_OK);
	ck_assert_int_eq(ts_window_store_save(d.file, &b, NOW, &err), TS_OK);
	flip_byte(d.file, 90);
	ck_assert_int_eq(ts_window_store_save(d.file, &c, NOW, &err), TS_OK);
	ck_assert_int_eq(ts_window_store_load(d.prev, &back, &st, &err), TS_OK);
	assert_same(&a, &back);
	ts_windows_free(&back);
	ck_assert_int_eq(ts_window_store_load(d.file, &back, &st, &err), TS_OK);
	assert_same(&c, &back);
	ts_windows_free(&back);
	ts_windows_free(&a);
	ts_windows_free(&b);
	ts_windows_free(&c);
	dir_remove(&d);
}
END_TEST

START_TEST(save_into_missing_directory_fails_and_names_the_file)
{
	struct ts_windows a;
	struct ts_error err = TS_ERROR_INIT;

	small_windows(&a, 1);
	ck_assert_int_eq(
		ts_window_store_save("/nonexistent-ts/windows", &a, NOW, &err),
		TS_EIO);
	ck_assert_str_eq(err.msg, "cannot create /nonexistent-ts/windows.new: "
				  "No such file or directory");
	ts_windows_free(&a);
}
END_TEST

/* A loaded state carries on: John-style reconfigure and rolls work. */
START_TEST(loaded_windows_roll_and_reconfigure_like_the_saved_ones)
{
	struct ts_windows a, back;
	struct ts_windows_change chg;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf;
	size_t len;

	small_windows(&a, 1);
	ck_assert_int_eq(ts_window_store_encode(&a, NOW, &buf, &len, &err),
			 TS_OK);
	ck_assert_int_eq(ts_window_store_decode(buf, len, &back, NULL, &err),
			 TS_OK);
	ck_assert_int_eq(ts_windows_roll(&a, NOW + 200), 2);
	ck_assert_int_eq(ts_windows_roll(&back, NOW + 200), 2);
	assert_same(&a, &back);
	ck_assert_int_eq(
		ts_windows_reconfigure(&back, 30, 3, 1, NOW + 200, &chg, &err),
		TS_OK);
	ck_assert_int_ge(ts_windows_add_assoc(&back, 13, &err), 0);
	ck_assert_int_eq(ts_windows_add(&back, 13, 1, NOW + 250, &err), TS_OK);
	ck_assert(ts_windows_get(&back, 13, 0) == 1);
	ts_windows_free(&back);
	ts_windows_free(&a);
	free(buf);
}
END_TEST

/*
 * An image encoded first and written later (the plugin encodes under its
 * windows lock and writes outside it) is the same file as a direct save,
 * and a second image still keeps the first as PATH.prev.
 */
START_TEST(image_saved_later_equals_direct_save_and_keeps_prev)
{
	struct ts_windows a, b, back;
	struct ts_window_store_status st;
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *img_a, *img_b;
	size_t len_a, len_b;
	struct dir d;

	dir_make(&d);
	small_windows(&a, 1);
	small_windows(&b, 2);
	ck_assert_int_eq(
		ts_window_store_encode(&a, NOW + 70, &img_a, &len_a, &err),
		TS_OK);
	ck_assert_int_eq(
		ts_window_store_encode(&b, NOW + 80, &img_b, &len_b, &err),
		TS_OK);
	ck_assert_int_eq(ts_window_store_save_image(d.file, img_a, len_a, &err),
			 TS_OK);
	ck_assert_int_eq(ts_window_store_save_image(d.file, img_b, len_b, &err),
			 TS_OK);
	ck_assert_int_eq(ts_window_store_load(d.file, &back, &st, &err), TS_OK);
	ck_assert_int_eq(st.saved_at, NOW + 80);
	assert_same(&b, &back);
	ts_windows_free(&back);
	/* the current copy torn: the first image is the previous one */
	ck_assert_int_eq(truncate(d.file, (off_t)len_b / 2), 0);
	ck_assert_int_eq(ts_window_store_load(d.file, &back, &st, &err), TS_OK);
	ck_assert_int_eq(st.used_prev, 1);
	ck_assert_int_eq(st.saved_at, NOW + 70);
	assert_same(&a, &back);
	ts_windows_free(&back);
	ts_windows_free(&a);
	ts_windows_free(&b);
	free(img_a);
	free(img_b);
	dir_remove(&d);
}
END_TEST

Suite *suite_window_store(void)
{
	Suite *s = suite_create("window_store");
	TCase *tc = tcase_create("window_store");

	tcase_add_test(tc, crc32_of_123456789_is_cbf43926);
	tcase_add_test(tc, crc32_equals_bitwise_at_every_length_and_split);
	tcase_add_test(tc, crc32_of_a_megabyte_equals_bitwise);
	tcase_add_test(tc, encode_decode_round_trip_is_exact);
	tcase_add_test(tc, every_truncation_of_a_small_file_is_detected);
	tcase_add_test(tc, every_single_bit_flip_is_detected);
	tcase_add_test(tc, wrong_version_and_magic_are_named);
	tcase_add_test(tc, structure_errors_behind_a_valid_crc_are_refused);
	tcase_add_test(tc, save_then_load_gives_the_same_windows);
	tcase_add_test(tc,
		       missing_files_are_a_first_start_not_an_error_of_data);
	tcase_add_test(tc, corrupt_file_falls_back_to_previous_good_copy);
	tcase_add_test(
		tc, both_copies_bad_is_an_error_naming_both_and_never_zeroes);
	tcase_add_test(tc,
		       save_over_a_corrupt_file_keeps_the_good_previous_copy);
	tcase_add_test(tc,
		       save_into_missing_directory_fails_and_names_the_file);
	tcase_add_test(tc,
		       loaded_windows_roll_and_reconfigure_like_the_saved_ones);
	tcase_add_test(tc, image_saved_later_equals_direct_save_and_keeps_prev);
	suite_add_tcase(s, tc);
	return s;
}
