/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * id_map.h - a map from a 32-bit Slurm id (an association's, a usage
 * row's) to a 32-bit value, mostly a dense index: the caller keeps its
 * values in plain arrays by that index, so a table by id is this map
 * beside them (fs_cache.c, assoc_tree.c, cap_hold.c, windows.c).
 *
 * Open addressing on ts_id_slot()'s hash, linear probing, at most half
 * full, so a lookup reads one or two adjacent 8-byte slots.  A slot holds
 * the id and its value + 1 (0: empty), so every id is a key, 0 and
 * UINT32_MAX too; a value is 0 .. TS_ID_MAP_VAL_MAX.  Removal shifts the
 * run back: no tombstones.  Only ts_id_map_reserve() allocates: a table
 * rebuilt every cycle reserves once, then clears and inserts.
 */
#ifndef TS_ID_MAP_H
#define TS_ID_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "id_hash.h"

#define TS_ID_MAP_VAL_MAX (UINT32_MAX - 1)

struct ts_id_map_slot {
	uint32_t id;
	uint32_t val; /* the value + 1; 0: the slot is empty */
};

struct ts_id_map {
	struct ts_id_map_slot *slot;
	size_t size; /* a power of two, or 0 */
	size_t n;    /* ids held, at most size / 2 */
};

#define TS_ID_MAP_INIT                                                         \
	{                                                                      \
		NULL, 0, 0                                                     \
	}

/*
 * ts_id_map_reserve() - room for n ids in all (at most half full), the
 * ids held kept.  RET TS_OK, or TS_ENOMEM (*err set; m as it was).
 */
int ts_id_map_reserve(struct ts_id_map *m, size_t n, struct ts_error *err);

/* ts_id_map_room() - how many ids m holds without a reserve. */
static inline size_t ts_id_map_room(const struct ts_id_map *m)
{
	return m->size / 2;
}

/*
 * ts_id_map_slot() - the slot holding id, or the empty slot that ends its
 * run (where it would go).  m has slots (size > 0).
 */
static inline size_t ts_id_map_slot(const struct ts_id_map *m, uint32_t id)
{
	size_t h = ts_id_slot(id, m->size);

	while (m->slot[h].val && m->slot[h].id != id)
		h = (h + 1) & (m->size - 1);
	return h;
}

/*
 * ts_id_map_find() - the value of id, or -1.  Inline: the priority pass
 * calls it once a job.  Its own loop, returning from the match: one
 * instruction a job fewer than through ts_id_map_slot().
 */
static inline long ts_id_map_find(const struct ts_id_map *m, uint32_t id)
{
	size_t h;

	if (!m->size)
		return -1;
	for (h = ts_id_slot(id, m->size); m->slot[h].val;
	     h = (h + 1) & (m->size - 1))
		if (m->slot[h].id == id)
			return (long)m->slot[h].val - 1;
	return -1;
}

/* ts_id_map_prefetch() - start loading id's home slot (a hint). */
static inline void ts_id_map_prefetch(const struct ts_id_map *m, uint32_t id)
{
	if (m->size)
		__builtin_prefetch(&m->slot[ts_id_slot(id, m->size)]);
}

/*
 * ts_id_map_insert() - the value of id: the one it has, or val (<=
 * TS_ID_MAP_VAL_MAX), added.  -1 when id is new and m has no room
 * (nothing added).  Allocates nothing.  Inline: tables rebuilt every
 * cycle insert every association.
 */
static inline long ts_id_map_insert(struct ts_id_map *m, uint32_t id,
				    uint32_t val)
{
	size_t h;

	if (!m->size)
		return -1;
	h = ts_id_map_slot(m, id);
	if (m->slot[h].val)
		return (long)m->slot[h].val - 1;
	/* At most half full: runs stay short and every probe ends. */
	if (2 * (m->n + 1) > m->size || val > TS_ID_MAP_VAL_MAX)
		return -1;
	m->slot[h].id = id;
	m->slot[h].val = val + 1;
	m->n++;
	return (long)val;
}

/* ts_id_map_remove() - RET 1 if id was in m (now gone), else 0. */
int ts_id_map_remove(struct ts_id_map *m, uint32_t id);

/* ts_id_map_clear() - empty m, keeping its memory. */
void ts_id_map_clear(struct ts_id_map *m);

/* ts_id_map_free() - release m's memory; m is then empty. */
void ts_id_map_free(struct ts_id_map *m);

#endif /* TS_ID_MAP_H */
