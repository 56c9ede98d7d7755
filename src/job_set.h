/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_set.h - a set of jobs keyed by (id, submit time): the jobs a
 * feasibility cap holds, and those an operator let run (caps.h).
 *
 * The submit time tells a job from a later one that reuses its id.  Open
 * addressing with linear probing; removal shifts the run back, so no
 * tombstones build up.  Lookups and removals never allocate; adding
 * allocates only to grow.  Id 0 is no job (Slurm's ids start at 1).
 */
#ifndef TS_JOB_SET_H
#define TS_JOB_SET_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct ts_job_key {
	uint32_t id; /* 0: empty slot */
	int64_t submit;
};

struct ts_job_set {
	struct ts_job_key *slot;
	size_t size; /* power of two, or 0 */
	size_t n;
};

#define TS_JOB_SET_INIT                                                        \
	{                                                                      \
		NULL, 0, 0                                                     \
	}

/* ts_job_set_add() - add key (id != 0).  RET TS_OK, TS_EINVAL, TS_ENOMEM. */
int ts_job_set_add(struct ts_job_set *s, struct ts_job_key key,
		   struct ts_error *err);

/* ts_job_set_has() - 1 if key is in s. */
int ts_job_set_has(const struct ts_job_set *s, struct ts_job_key key);

/* ts_job_set_remove() - RET 1 if key was in s (now gone), else 0. */
int ts_job_set_remove(struct ts_job_set *s, struct ts_job_key key);

/*
 * ts_job_set_next() - walk: start with *pos = 0; RET 1 and *key for each
 * member in turn, 0 at the end.  s must not change during the walk.
 */
int ts_job_set_next(const struct ts_job_set *s, size_t *pos,
		    struct ts_job_key *key);

/* ts_job_set_clear() - empty s, keeping its memory. */
void ts_job_set_clear(struct ts_job_set *s);

/* ts_job_set_free() - release s's memory; s is then empty. */
void ts_job_set_free(struct ts_job_set *s);

#endif /* TS_JOB_SET_H */
