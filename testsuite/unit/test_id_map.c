/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The id map of the tables by association id (id_map.h): checked against
 * a plain array of (id, value) pairs searched linearly.
 */
#include <check.h>
#include <stdlib.h>

#include "id_map.h"

START_TEST(every_id_is_a_key_zero_and_uint32_max_too)
{
	static const uint32_t ids[] = { 0, 1, UINT32_MAX, UINT32_MAX - 1,
					0x80000000u };
	struct ts_id_map m = TS_ID_MAP_INIT;
	struct ts_error err = TS_ERROR_INIT;
	size_t i;

	ck_assert_int_eq(ts_id_map_reserve(&m, 5, &err), TS_OK);
	for (i = 0; i < 5; i++)
		ck_assert_int_eq(ts_id_map_insert(&m, ids[i], (uint32_t)i),
				 (long)i);
	ck_assert_uint_eq(m.n, 5);
	for (i = 0; i < 5; i++)
		ck_assert_int_eq(ts_id_map_find(&m, ids[i]), (long)i);
	ck_assert_int_eq(ts_id_map_find(&m, 2), -1);
	ck_assert_int_eq(ts_id_map_find(&m, UINT32_MAX - 2), -1);
	ts_id_map_free(&m);
}
END_TEST

START_TEST(insert_of_a_held_id_keeps_its_first_value)
{
	struct ts_id_map m = TS_ID_MAP_INIT;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_id_map_reserve(&m, 4, &err), TS_OK);
	ck_assert_int_eq(ts_id_map_insert(&m, 7, 3), 3);
	ck_assert_int_eq(ts_id_map_insert(&m, 7, 9), 3);
	ck_assert_uint_eq(m.n, 1);
	ck_assert_int_eq(ts_id_map_find(&m, 7), 3);
	ts_id_map_free(&m);
}
END_TEST

START_TEST(an_empty_map_finds_and_adds_nothing)
{
	struct ts_id_map m = TS_ID_MAP_INIT;

	ck_assert_int_eq(ts_id_map_find(&m, 0), -1);
	ck_assert_int_eq(ts_id_map_find(&m, 1), -1);
	ck_assert_int_eq(ts_id_map_insert(&m, 1, 0), -1);
	ck_assert_int_eq(ts_id_map_remove(&m, 1), 0);
	ck_assert_uint_eq(ts_id_map_room(&m), 0);
	ts_id_map_prefetch(&m, 1);
	ts_id_map_clear(&m);
	ts_id_map_free(&m);
	ck_assert_ptr_null(m.slot);
}
END_TEST

START_TEST(values_up_to_the_limit_and_no_further)
{
	struct ts_id_map m = TS_ID_MAP_INIT;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_id_map_reserve(&m, 2, &err), TS_OK);
	ck_assert_int_eq(ts_id_map_insert(&m, 5, TS_ID_MAP_VAL_MAX),
			 (long)TS_ID_MAP_VAL_MAX);
	ck_assert_int_eq(ts_id_map_find(&m, 5), (long)TS_ID_MAP_VAL_MAX);
	ck_assert_int_eq(ts_id_map_insert(&m, 6, UINT32_MAX), -1);
	ck_assert_int_eq(ts_id_map_find(&m, 6), -1);
	ck_assert_uint_eq(m.n, 1);
	ts_id_map_free(&m);
}
END_TEST

/*
 * A map holds what it reserved, at most half full, with a power of two
 * of slots; past its room a new id is refused, a held one still found.
 */
START_TEST(insert_stops_at_the_reserved_room)
{
	struct ts_id_map m = TS_ID_MAP_INIT;
	struct ts_error err = TS_ERROR_INIT;
	size_t room, i;

	ck_assert_int_eq(ts_id_map_reserve(&m, 100, &err), TS_OK);
	room = ts_id_map_room(&m);
	ck_assert_uint_ge(room, 100);
	ck_assert_uint_eq(m.size & (m.size - 1), 0);
	ck_assert_uint_eq(2 * room, m.size);
	for (i = 0; i < room; i++)
		ck_assert_int_eq(
			ts_id_map_insert(&m, (uint32_t)(i + 1000), (uint32_t)i),
			(long)i);
	ck_assert_int_eq(ts_id_map_insert(&m, 1, 0), -1);
	ck_assert_int_eq(ts_id_map_find(&m, 1), -1);
	ck_assert_int_eq(ts_id_map_insert(&m, 1000, 77), 0);
	ck_assert_uint_eq(m.n, room);
	/* A smaller reserve changes nothing. */
	ck_assert_int_eq(ts_id_map_reserve(&m, 10, &err), TS_OK);
	ck_assert_uint_eq(ts_id_map_room(&m), room);
	ts_id_map_free(&m);
}
END_TEST

/* Growing rehashes: every id keeps its value through each reserve. */
START_TEST(reserve_keeps_every_id_while_growing)
{
	enum { N = 5000 };
	struct ts_id_map m = TS_ID_MAP_INIT;
	struct ts_error err = TS_ERROR_INIT;
	uint32_t *id = malloc(N * sizeof(*id));
	unsigned seed = 28;
	size_t i, j, grown = 0;

	ck_assert_ptr_nonnull(id);
	for (i = 0; i < N; i++) {
		/* distinct: i in the low bits, noise above */
		id[i] = (uint32_t)i | (uint32_t)rand_r(&seed) << 13;
		if (m.n == ts_id_map_room(&m)) {
			ck_assert_int_eq(
				ts_id_map_reserve(&m, 2 * m.n + 1, &err),
				TS_OK);
			grown++;
			for (j = 0; j < i; j++)
				ck_assert_int_eq(ts_id_map_find(&m, id[j]),
						 (long)j);
		}
		ck_assert_int_eq(ts_id_map_insert(&m, id[i], (uint32_t)i),
				 (long)i);
	}
	ck_assert_uint_ge(grown, 5); /* rooms 8, 32, 128, 512, 2048, 8192 */
	for (i = 0; i < N; i++)
		ck_assert_int_eq(ts_id_map_find(&m, id[i]), (long)i);
	free(id);
	ts_id_map_free(&m);
}
END_TEST

START_TEST(clear_empties_and_keeps_the_memory)
{
	struct ts_id_map m = TS_ID_MAP_INIT;
	struct ts_error err = TS_ERROR_INIT;
	struct ts_id_map_slot *slot;
	size_t size;
	uint32_t i;

	ck_assert_int_eq(ts_id_map_reserve(&m, 50, &err), TS_OK);
	for (i = 0; i < 50; i++)
		ck_assert_int_eq(ts_id_map_insert(&m, i, i), (long)i);
	slot = m.slot;
	size = m.size;
	ts_id_map_clear(&m);
	ck_assert_ptr_eq(m.slot, slot);
	ck_assert_uint_eq(m.size, size);
	ck_assert_uint_eq(m.n, 0);
	for (i = 0; i < 50; i++)
		ck_assert_int_eq(ts_id_map_find(&m, i), -1);
	for (i = 0; i < 50; i++)
		ck_assert_int_eq(ts_id_map_insert(&m, 100 - i, i), (long)i);
	for (i = 0; i < 50; i++)
		ck_assert_int_eq(ts_id_map_find(&m, 100 - i), (long)i);
	ts_id_map_free(&m);
}
END_TEST

/* The model: n (id, value) pairs, searched linearly. */
struct model {
	uint32_t id[512];
	uint32_t val[512];
	size_t n;
};

static long model_find(const struct model *mo, uint32_t id)
{
	size_t i;

	for (i = 0; i < mo->n; i++)
		if (mo->id[i] == id)
			return (long)mo->val[i];
	return -1;
}

static void model_remove(struct model *mo, uint32_t id)
{
	size_t i;

	for (i = 0; i < mo->n; i++) {
		if (mo->id[i] == id) {
			mo->id[i] = mo->id[--mo->n];
			mo->val[i] = mo->val[mo->n];
			return;
		}
	}
}

/*
 * Random inserts, removes and finds over a pool of ids that share home
 * slots (multiples of the table size hash to slot 0), wrap around the
 * table's end and include 0 and UINT32_MAX: long runs and many
 * back-shifts.  After every step the map holds exactly the model's pairs.
 */
START_TEST(random_steps_agree_with_a_linear_array)
{
	enum { POOL = 300, ROOM = 256 };
	struct ts_id_map m = TS_ID_MAP_INIT;
	struct ts_error err = TS_ERROR_INIT;
	struct model *mo = calloc(1, sizeof(*mo));
	uint32_t pool[POOL];
	unsigned seed = 2026;
	size_t i;
	int step;

	ck_assert_ptr_nonnull(mo);
	ck_assert_int_eq(ts_id_map_reserve(&m, ROOM, &err), TS_OK);
	ck_assert_uint_eq(m.size, 2 * ROOM);
	for (i = 0; i < POOL; i++) {
		switch (i % 4) {
		case 0: /* home slot 0 */
			pool[i] = (uint32_t)(i * m.size);
			break;
		case 1: /* the top of the id range */
			pool[i] = UINT32_MAX - (uint32_t)i;
			break;
		case 2: /* sequential, as Slurm gives them */
			pool[i] = (uint32_t)i;
			break;
		default:
			pool[i] = (uint32_t)rand_r(&seed) * 2654435761u;
		}
	}
	pool[1] = UINT32_MAX;
	pool[4] = 0; /* also 4 * size: both are home 0 */
	for (step = 0; step < 60000; step++) {
		uint32_t id = pool[(unsigned)rand_r(&seed) % POOL];
		long want = model_find(mo, id);
		int op = rand_r(&seed) % 5;

		if (op < 2) {
			uint32_t val = (uint32_t)rand_r(&seed) % 1000;
			long got = ts_id_map_insert(&m, id, val);

			if (want >= 0) {
				ck_assert_int_eq(got, want);
			} else if (mo->n < ROOM) {
				ck_assert_int_eq(got, (long)val);
				mo->id[mo->n] = id;
				mo->val[mo->n++] = val;
			} else {
				ck_assert_int_eq(got, -1);
			}
		} else if (op < 4) {
			ck_assert_int_eq(ts_id_map_remove(&m, id), want >= 0);
			model_remove(mo, id);
		} else {
			ck_assert_int_eq(ts_id_map_find(&m, id), want);
		}
		ck_assert_uint_eq(m.n, mo->n);
		if (step % 499 == 0)
			for (i = 0; i < POOL; i++)
				ck_assert_int_eq(ts_id_map_find(&m, pool[i]),
						 model_find(mo, pool[i]));
	}
	free(mo);
	ts_id_map_free(&m);
}
END_TEST

Suite *suite_id_map(void)
{
	Suite *s = suite_create("id_map");
	TCase *tc = tcase_create("id_map");

	tcase_add_test(tc, every_id_is_a_key_zero_and_uint32_max_too);
	tcase_add_test(tc, insert_of_a_held_id_keeps_its_first_value);
	tcase_add_test(tc, an_empty_map_finds_and_adds_nothing);
	tcase_add_test(tc, values_up_to_the_limit_and_no_further);
	tcase_add_test(tc, insert_stops_at_the_reserved_room);
	tcase_add_test(tc, reserve_keeps_every_id_while_growing);
	tcase_add_test(tc, clear_empties_and_keeps_the_memory);
	tcase_add_test(tc, random_steps_agree_with_a_linear_array);
	suite_add_tcase(s, tc);
	return s;
}
