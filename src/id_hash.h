/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * id_hash.h - the multiplicative (Fibonacci) hash of the tables keyed by
 * a Slurm id: association ids in the plugin's fs_cache.c, assoc_tree.c
 * and cap_hold.c, usage window rows in windows.c, job keys in job_set.c.
 * The multiplier is 2^w / golden ratio, made odd: sequential ids, as
 * Slurm gives them, land far apart.  One spelling of each constant.
 */
#ifndef TS_ID_HASH_H
#define TS_ID_HASH_H

#include <stddef.h>
#include <stdint.h>

/* 2^32 / phi, odd (Knuth's 2654435761). */
#define TS_HASH_MUL32 UINT32_C(0x9e3779b1)
/* 2^64 / phi, odd. */
#define TS_HASH_MUL64 UINT64_C(0x9e3779b97f4a7c15)

/*
 * ts_id_slot() - the home slot of id in an open-addressed table of size
 * slots, a power of two: the low bits of the 32-bit product.
 */
static inline size_t ts_id_slot(uint32_t id, size_t size)
{
	return (size_t)(id * TS_HASH_MUL32) & (size - 1);
}

#endif /* TS_ID_HASH_H */
