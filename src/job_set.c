/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_set.c - a set of jobs by (id, submit time) (see job_set.h).
 */
#include <stdlib.h>
#include <string.h>

#include "id_hash.h"
#include "job_set.h"

static size_t key_home(const struct ts_job_set *s, struct ts_job_key k)
{
	uint64_t h = (uint64_t)k.id * TS_HASH_MUL64 ^
		     (uint64_t)k.submit * UINT64_C(0xc2b2ae3d27d4eb4f);

	return (size_t)(h >> 17) & (s->size - 1);
}

static int same(struct ts_job_key a, struct ts_job_key b)
{
	return a.id == b.id && a.submit == b.submit;
}

/* The slot holding k, or the empty slot where it would go. */
static size_t probe(const struct ts_job_set *s, struct ts_job_key k)
{
	size_t i = key_home(s, k);

	while (s->slot[i].id && !same(s->slot[i], k))
		i = (i + 1) & (s->size - 1);
	return i;
}

static int set_grow(struct ts_job_set *s, struct ts_error *err)
{
	struct ts_job_set bigger = { NULL, s->size ? 2 * s->size : 16, 0 };
	size_t i;

	bigger.slot = calloc(bigger.size, sizeof(*bigger.slot));
	if (!bigger.slot)
		return ts_error_set(err, TS_ENOMEM, -1,
				    "cannot grow a job set to %zu slots",
				    bigger.size);
	for (i = 0; i < s->size; i++)
		if (s->slot[i].id)
			bigger.slot[probe(&bigger, s->slot[i])] = s->slot[i];
	bigger.n = s->n;
	free(s->slot);
	*s = bigger;
	return TS_OK;
}

int ts_job_set_add(struct ts_job_set *s, struct ts_job_key key,
		   struct ts_error *err)
{
	size_t i;

	if (!key.id)
		return ts_error_set(err, TS_EINVAL, -1,
				    "job id 0 in a job set");
	if (2 * (s->n + 1) > s->size && set_grow(s, err))
		return TS_ENOMEM;
	i = probe(s, key);
	if (!s->slot[i].id) {
		s->slot[i] = key;
		s->n++;
	}
	return TS_OK;
}

int ts_job_set_has(const struct ts_job_set *s, struct ts_job_key key)
{
	return s->size && key.id && s->slot[probe(s, key)].id;
}

int ts_job_set_remove(struct ts_job_set *s, struct ts_job_key key)
{
	size_t hole, i, mask = s->size - 1;

	if (!ts_job_set_has(s, key))
		return 0;
	hole = probe(s, key);
	s->slot[hole].id = 0;
	s->n--;
	/* Shift back every later member of the run whose home allows it. */
	for (i = (hole + 1) & mask; s->slot[i].id; i = (i + 1) & mask) {
		size_t h = key_home(s, s->slot[i]);

		if (((i - h) & mask) >= ((i - hole) & mask)) {
			s->slot[hole] = s->slot[i];
			s->slot[i].id = 0;
			hole = i;
		}
	}
	return 1;
}

int ts_job_set_next(const struct ts_job_set *s, size_t *pos,
		    struct ts_job_key *key)
{
	for (; *pos < s->size; (*pos)++) {
		if (s->slot[*pos].id) {
			*key = s->slot[(*pos)++];
			return 1;
		}
	}
	return 0;
}

void ts_job_set_clear(struct ts_job_set *s)
{
	if (s->size)
		memset(s->slot, 0, s->size * sizeof(*s->slot));
	s->n = 0;
}

void ts_job_set_free(struct ts_job_set *s)
{
	free(s->slot);
	s->slot = NULL;
	s->size = s->n = 0;
}
