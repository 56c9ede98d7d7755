/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * id_map.c - a map from a Slurm id to a dense index (see id_map.h).
 */
#include <stdlib.h>
#include <string.h>

#include "id_map.h"

int ts_id_map_reserve(struct ts_id_map *m, size_t n, struct ts_error *err)
{
	struct ts_id_map bigger = { NULL, 16, m->n };
	size_t i;

	if (n <= ts_id_map_room(m))
		return TS_OK;
	if (n > SIZE_MAX / 4 / sizeof(*bigger.slot))
		return ts_error_set(err, TS_ENOMEM, -1,
				    "too many ids for a map (%zu)", n);
	while (bigger.size < 2 * n)
		bigger.size *= 2;
	bigger.slot = calloc(bigger.size, sizeof(*bigger.slot));
	if (!bigger.slot)
		return ts_error_set(err, TS_ENOMEM, -1,
				    "cannot grow an id map to %zu slots",
				    bigger.size);
	for (i = 0; i < m->size; i++)
		if (m->slot[i].val)
			bigger.slot[ts_id_map_slot(&bigger, m->slot[i].id)] =
				m->slot[i];
	free(m->slot);
	*m = bigger;
	return TS_OK;
}

int ts_id_map_remove(struct ts_id_map *m, uint32_t id)
{
	size_t hole, i, mask = m->size - 1;

	if (!m->size)
		return 0;
	hole = ts_id_map_slot(m, id);
	if (!m->slot[hole].val)
		return 0;
	m->slot[hole].val = 0;
	m->n--;
	/* Shift back every later id of the run whose home allows it. */
	for (i = (hole + 1) & mask; m->slot[i].val; i = (i + 1) & mask) {
		size_t h = ts_id_slot(m->slot[i].id, m->size);

		if (((i - h) & mask) >= ((i - hole) & mask)) {
			m->slot[hole] = m->slot[i];
			m->slot[i].val = 0;
			hole = i;
		}
	}
	return 1;
}

void ts_id_map_clear(struct ts_id_map *m)
{
	if (m->n)
		memset(m->slot, 0, m->size * sizeof(*m->slot));
	m->n = 0;
}

void ts_id_map_free(struct ts_id_map *m)
{
	free(m->slot);
	memset(m, 0, sizeof(*m));
}
