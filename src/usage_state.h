/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usage_state.h - everything priority/treeshare keeps across restarts, in
 * one file written atomically once a cycle (StateSaveLocation/
 * treeshare_state): the commit unit of the crash-consistency design
 * (priority_treeshare(5), STATE FILES).
 *
 * It holds, as of one instant of the controller:
 *   last_ran     running jobs are charged up to here (the last decay)
 *   last_reset   the last PriorityUsageResetPeriod reset
 *   saved_at     the instant itself (>= last_ran)
 *   usage        per association and per QOS, what slurmctld keeps in
 *                assoc_usage and qos_usage: usage_raw, grp_used_wall and
 *                usage_tres_raw per TRES (TRES by id); for an account
 *                whose usage of deleted children slurmctld keeps apart
 *                (its leaf_usage), that too
 *   windows      the usage windows, a whole treeshare_windows image
 *                (window_store.h), when usage_window= is or was in use
 *   job keys     the jobs a feasibility cap holds and those an operator
 *                let run (cap_hold.h), so that an override survives a
 *                restart
 *   consumed_since  when usage_metric=consumed came in force (0:
 *                dedicated in force): a job that started before it is
 *                charged dedicated to its end, one that started at or
 *                after it consumed (src/consumed.h), across restarts
 *   credentials  Maui's usage per credential (user, group, account, QOS,
 *                class), a whole TSCREDUS image (credential_store.h),
 *                when fair share per credential is in use (issue 27)
 * so that one rename publishes a consistent state: usage and the decay
 * time it goes with can never come from two different cycles.
 *
 * File layout (little-endian, version 1, 2, 3 or 4):
 *   off  size
 *     0     8  magic "TSSTATE\0"
 *     8     4  format version (1; 2 when there are job keys; 3 when
 *              usage_metric=consumed is in force; 4 when there is
 *              usage per credential)
 *    12     4  flags: bit 0 windows in use (else kept for later)
 *    16     8  body length B (from offset 72 to the CRC)
 *    24     8  saved_at, int64 epoch seconds
 *    32     8  last_ran
 *    40     8  last_reset
 *    48     4  T, TRES per record
 *    52     4  A, associations
 *    56     4  L, leaf usages (accounts only)
 *    60     4  Q, QOS
 *    64     8  W, bytes of the windows image (0: none)
 *    72        body: T x uint32 TRES id, all different
 *                    A x (uint32 id, V values)   ids strictly rising
 *                    L x (uint32 id, V values)   rising, each an A id
 *                    Q x (uint32 id, V values)   rising
 *                    W bytes: a treeshare_windows file image
 *                    versions 2 to 4 (in 2, H + E > 0):
 *                    uint32 H, uint32 E
 *                    H x (uint32 job id, int64 submit time)  held
 *                    E x (uint32 job id, int64 submit time)  exempt
 *                    each list rising by (id, submit), ids not 0
 *                    versions 3 and 4:
 *                    int64 consumed_since, > 0 (in 4, 0: dedicated)
 *                    version 4 only:
 *                    uint64 C, C > 0
 *                    C bytes: a TSCREDUS image (credential_store.h)
 *  72+B     4  CRC-32 (crc32.h) of bytes 0 .. 72+B-1
 *   V = 2 + T values: usage_raw, grp_used_wall, T x usage_tres_raw; a
 *   value is window_store.h's (uint64 m, int32 e), finite and >= 0.
 *   B = 4 T + (A + L + Q) (4 + 12 V) + W [+ 8 + 12 (H + E)] [+ 8]
 *   [+ 8 + C]; the file is 76 + B bytes.
 * Each state is written as the lowest version that holds it, so that a
 * build from before a feature reads the state of a site that does not
 * use it (a downgrade loses nothing it knew): version 1 without job
 * keys, 2 with keys and dedicated usage, 3 with usage_metric=consumed,
 * 4 only with usage per credential.
 *
 * Checks on reading, each a named defect: magic, length (torn,
 * truncated, trailing), CRC, version, flags, counts matching B, ids
 * rising, every value finite and >= 0, job keys rising, times (kept_file.h: not negative,
 * not after now + TS_STATE_CLOCK_SKEW, last_ran <= saved_at), the
 * windows image passing all of window_store.h's checks, and the
 * credential image all of credential_store.h's.
 */
#ifndef TS_USAGE_STATE_H
#define TS_USAGE_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "job_set.h"
#include "kept_file.h"

#define TS_USAGE_STATE_VERSION	 4 /* the newest; 1 to 4 read and written */
#define TS_USAGE_STATE_MAX_BYTES (1L << 30) /* refuse larger files */
#define TS_USAGE_STATE_FILE	 "treeshare_state"

/* Job keys (job_set.h) as a list: rising by (id, submit) once sorted. */
struct ts_job_keys {
	size_t n;
	struct ts_job_key *key; /* malloc'ed, or NULL */
};

/* Records of associations or QOS: id, then V = 2 + n_tres values. */
struct ts_usage_set {
	size_t n;
	uint32_t *id;	  /* strictly rising */
	long double *val; /* [i * V + 0] raw, + 1 wall, + 2 + t TRES t */
	size_t cap;	  /* records id and val have room for */
};

struct ts_usage_state {
	int64_t saved_at;
	int64_t last_ran;
	int64_t last_reset;
	uint32_t n_tres;
	uint32_t *tres_id; /* n_tres ids, in the order of each record */
	struct ts_usage_set assoc;
	struct ts_usage_set leaf; /* accounts' separate leaf usage */
	struct ts_usage_set qos;
	int windows_active;	/* usage_window= in force when saved */
	unsigned char *windows; /* treeshare_windows image, or NULL */
	size_t windows_len;
	struct ts_job_keys held;   /* jobs a feasibility cap holds */
	struct ts_job_keys exempt; /* jobs an operator released */
	int64_t consumed_since;	   /* usage_metric=consumed since; 0: not */
	unsigned char *cred;	   /* TSCREDUS image (issue 27), or NULL */
	size_t cred_len;	   /* its bytes */
	uint32_t tres_cap;	   /* ids tres_id has room for */
};

/* ts_usage_state_values() - V, the values of one record. */
static inline size_t ts_usage_state_values(const struct ts_usage_state *s)
{
	return 2 + (size_t)s->n_tres;
}

/*
 * ts_usage_state_alloc() - size s's arrays for n_tres TRES and the given
 * record counts (s zeroed first; other fields are the caller's to set).
 * RET TS_OK or TS_ENOMEM (s then empty).
 */
int ts_usage_state_alloc(struct ts_usage_state *s, uint32_t n_tres,
			 size_t n_assoc, size_t n_leaf, size_t n_qos,
			 struct ts_error *err);

/*
 * ts_usage_state_reserve() - as ts_usage_state_alloc(), but for a state
 * filled again and again (zeroed, or used before): its arrays are kept
 * when large enough, else grown, and not zeroed; only the counts and
 * n_tres are set.  RET TS_OK or TS_ENOMEM (s then as it was, counts 0).
 */
int ts_usage_state_reserve(struct ts_usage_state *s, uint32_t n_tres,
			   size_t n_assoc, size_t n_leaf, size_t n_qos,
			   struct ts_error *err);

/*
 * ts_usage_state_add_leaf() - room for one more leaf usage after the
 * leaf.n there are (kept, grown by half when full), leaf.n counting it;
 * for a caller that learns the leaves as it fills the associations.
 * RET its index, or -1 when out of memory (s as it was).
 */
long ts_usage_state_add_leaf(struct ts_usage_state *s);

/* ts_usage_state_free() - free s's arrays and zero it.  Idempotent. */
void ts_usage_state_free(struct ts_usage_state *s);

/*
 * ts_usage_state_keys() - copy the members of set into *keys (emptied
 * first; unsorted).  RET TS_OK or TS_ENOMEM.
 */
int ts_usage_state_keys(struct ts_job_keys *keys, const struct ts_job_set *set,
			struct ts_error *err);

/*
 * ts_usage_state_sort() - put each set's records, and the job keys, in
 * rising order (the file's order; a caller fills them in list order).
 * RET TS_OK, TS_EINVAL when an id or a job key appears twice in one set,
 * or TS_ENOMEM.
 */
int ts_usage_state_sort(struct ts_usage_state *s, struct ts_error *err);

/*
 * What ts_usage_state_sort_again() keeps from one sort to the next, per
 * set: the ids as given, their rising order, and the spare arrays the
 * records are moved into.  Zero it to start.
 */
struct ts_usage_order {
	size_t n;	 /* records given last time; 0: nothing kept */
	uint32_t *given; /* their ids, as given */
	size_t *from;	 /* from[i]: where the i-th lowest id was given */
	uint32_t *id;	 /* spare records, exchanged with the set's */
	long double *val;
	size_t cap; /* records all four have room for */
	size_t v;   /* values a record of val has */
};

/* The same for a job key list: the keys as given, and sorted. */
struct ts_key_order {
	size_t n;		   /* keys given last time; 0: none kept */
	struct ts_job_key *given;  /* as given */
	struct ts_job_key *sorted; /* rising */
	size_t cap;
};

struct ts_usage_sort_memo {
	struct ts_usage_order assoc, leaf, qos;
	struct ts_key_order held, exempt;
};

/*
 * ts_usage_state_sort_again() - ts_usage_state_sort() for a state filled
 * the same way each time (a snapshot a cycle): when a set's ids come in
 * the order of the last call, the order found then is used again, with
 * no comparison sort; the records are moved into memo's spare arrays,
 * exchanged with the set's, so nothing is allocated once sizes settle.
 * Job keys likewise: when they come as last time (a job set walked in
 * its hash order), the sorted list kept then is copied.
 * RET as ts_usage_state_sort().
 */
int ts_usage_state_sort_again(struct ts_usage_state *s,
			      struct ts_usage_sort_memo *memo,
			      struct ts_error *err);

/* ts_usage_sort_memo_free() - free memo's arrays and zero it. */
void ts_usage_sort_memo_free(struct ts_usage_sort_memo *memo);

/*
 * ts_usage_state_sanitize() - every value of s that is not a value (NaN,
 * infinite, negative) set to 0, for a caller that copies usage as it
 * finds it and checks it only when ts_usage_state_encode() refuses it.
 * RET how many were set to 0.
 */
size_t ts_usage_state_sanitize(struct ts_usage_state *s);

/*
 * ts_usage_state_find() - the record of id in set, or -1.  O(log n).
 */
long ts_usage_state_find(const struct ts_usage_set *set, uint32_t id);

/*
 * ts_usage_state_encode() - s (sorted) as a file image.  OUT *buf
 * (malloc'ed; the caller frees it), *len: version 2 when s has job
 * keys, else version 1.  RET TS_OK, TS_EINVAL (ids or job keys not
 * rising, a job id 0, a value NaN, inf or negative: a caller bug, refused
 * rather than saved) or TS_ENOMEM.
 */
int ts_usage_state_encode(const struct ts_usage_state *s, unsigned char **buf,
			  size_t *len, struct ts_error *err);

/*
 * A file image in a buffer kept from one encode to the next (it grows,
 * never shrinks), so that a commit a cycle allocates nothing once the
 * state stops growing.  Zero it to start; free(buf) at the end.
 */
struct ts_state_image {
	unsigned char *buf;
	size_t len; /* of the last image encoded; 0 after an error */
	size_t cap;
};

/*
 * ts_usage_state_encode_into() - ts_usage_state_encode() into img's
 * buffer, grown when too small.  RET as ts_usage_state_encode(); on
 * error img keeps its buffer, with len 0.
 */
int ts_usage_state_encode_into(const struct ts_usage_state *s,
			       struct ts_state_image *img,
			       struct ts_error *err);

/*
 * ts_usage_state_decode() - check a file image and decode it into *s (not
 * initialised on entry).  Hostile input is fine: every count is checked
 * against len before anything is allocated.  now: the reader's clock.
 * RET TS_OK, TS_ECORRUPT (err->msg the defect) or TS_ENOMEM; on error *s
 * is empty.
 */
int ts_usage_state_decode(const void *buf, size_t len, int64_t now,
			  struct ts_usage_state *s, struct ts_error *err);

/*
 * ts_usage_state_load() - path, else path.prev, as kept_file.h's table.
 * RET as ts_kept_file_load(); on success free *s with
 * ts_usage_state_free().
 */
int ts_usage_state_load(const char *path, int64_t now, struct ts_usage_state *s,
			struct ts_kept_status *st, struct ts_error *err);

/*
 * ts_usage_state_save_image() - write an image made by
 * ts_usage_state_encode() to path atomically (atomic_file.h), the
 * current copy kept as path.prev if it passes its checks.  On error the
 * files are as they were and err names the file and the reason.
 * RET TS_OK, TS_EIO or TS_ENOMEM.
 */
int ts_usage_state_save_image(const char *path, const void *image, size_t len,
			      struct ts_error *err);

/*
 * ts_usage_state_peek_keys() - the counts of held and exempt job keys a
 * file image holds, read past a bad CRC (a file refused for another
 * defect), for a caller that must say what a refused state loses.  The
 * header's counts must fill the length exactly (versions 2 and 3).
 * OUT *held, *exempt.
 * RET 1 when read (a version 1 file: 0 and 0), 0 when the image is too
 * damaged to tell.
 */
int ts_usage_state_peek_keys(const void *buf, size_t len, uint64_t *held,
			     uint64_t *exempt);

/*
 * ts_usage_sum_children() - what each record holds by its children, for
 * an association tree whose accounts' usage must be the sum of their
 * children's plus the usage charged to the account itself (its separate
 * leaf usage, Slurm's leaf_usage).  n records of v values; parent[i]
 * the index of record i's direct parent, -1 for the root; own[i * v ..]
 * what record i holds itself (a user: its usage; an account: its
 * separate leaf usage, or zeros); val[i * v ..] what it holds now.
 * OUT sum[i * v ..]: own plus every descendant's own.
 * RET the records whose val differs from sum by more than a relative
 * 1e-9 (rounding of decay and charges stays far below), or -1 when the
 * parent links loop (sum then undefined).
 */
long ts_usage_sum_children(size_t n, size_t v, const long *parent,
			   const long double *own, const long double *val,
			   long double *sum);

#endif /* TS_USAGE_STATE_H */
