/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * id_hash.h - the multiplicative (Fibonacci) hash of the tables keyed by
 * a Slurm id: id_map.h's (the plugin's fs_cache.c, assoc_tree.c and
 * cap_hold.c, usage window rows in windows.c), cred_shares.h's, and job
 * keys in job_set.c.
 * The multiplier is 2^w / golden ratio, made odd: sequential ids, as
 * Slurm gives them, land far apart.  Names (targets.c's keys, Maui's
 * class ids in credential.c) use FNV-1a.  One spelling of each constant.
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

/* FNV-1a, 64 bits: its offset basis, and h extended by len bytes of s. */
#define TS_FNV1A_BASIS UINT64_C(0xcbf29ce484222325)
static inline uint64_t ts_fnv1a(uint64_t h, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= UINT64_C(0x100000001b3);
	}
	return h;
}

#endif /* TS_ID_HASH_H */
