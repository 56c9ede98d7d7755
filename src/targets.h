/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * targets.h - Maui fair-share targets, caps and floors (seed 003,
 * 6.3.3.1) and the targets file that gives them (fs_targets=PATH).
 *
 * A target is a percentage of delivered usage, 0..100, of one of three
 * kinds: a target (Maui FSTARGET=20) pulls usage towards it from both
 * sides, a cap (20-) only lowers the factor of an entity over it, a floor
 * (20+) only raises the factor of an entity under it.  The comparison is
 * fs_policy: difference (target - usage, Maui's default) or ratio
 * (1 - usage / target, Maui's '%').
 *
 * The factor, in [0,1] with 0.5 meaning exactly on target (PBS's
 * convention, seed 000), for usage U and target T in percent:
 *   difference   f = 0.5 + (T - U) / 200             (linear, 1 .. 0)
 *   ratio        f = 2^-(U / T)      (PBS fairshare_factor; T = 0: 0.5
 *                                     at U = 0, else 0)
 *   target  f;   cap  min(f, 0.5);   floor  max(f, 0.5)
 *
 * Which target applies to a node of the association tree: its own
 * (for a user, "user NAME@ACCOUNT" before "user NAME"), else the nearest
 * ancestor account's; the usage compared is then that account's.  A node
 * with none keeps the fair-share algorithm's own factor.
 *
 * Maui's other credentials (issue 27; credential.h) have entries of
 * their own: "group NAME" (a Unix group), "qos NAME", "class NAME" (a
 * partition) and "user NAME@*", Maui's user credential: NAME's usage in
 * all of its accounts together, where "user NAME" is a target for each
 * of NAME's associations, each compared with that association's own
 * usage.  A Maui account is the tree's "account NAME" entry.  These
 * entries never apply to the tree (ts_targets_applicable()); they are
 * found with ts_targets_find_cred().
 *
 * An entry may also, or only, carry a feasibility cap (seed 003,
 * 6.3.3.2), "fscap=N" (usage units) or "fscap=N%" (of all usage
 * delivered): src/caps.h evaluates it; it never changes a factor.
 */
#ifndef TS_TARGETS_H
#define TS_TARGETS_H

#include <stddef.h>
#include <stdint.h>

#include "credential.h"
#include "error.h"
#include "tree.h"

enum ts_target_kind {
	TS_TARGET_TARGET, /* "20":  adjusts both ways */
	TS_TARGET_CAP,	  /* "20-": only lowers */
	TS_TARGET_FLOOR,  /* "20+": only raises */
};

enum ts_fs_policy {
	TS_FS_POLICY_DIFFERENCE, /* target - usage (Maui's default) */
	TS_FS_POLICY_RATIO,	 /* 1 - usage / target (Maui's '%') */
};

struct ts_target {
	enum ts_target_kind kind;
	double percent; /* 0 .. 100 */
	long line;	/* line of the targets file, 0 if none */
};

enum ts_fscap_kind {
	TS_FSCAP_NONE,
	TS_FSCAP_ABSOLUTE, /* "fscap=N": usage units (RawUsage's) */
	TS_FSCAP_PERCENT,  /* "fscap=N%": of all usage delivered */
};

/* A feasibility cap: no job below it starts while usage >= value. */
struct ts_fscap {
	enum ts_fscap_kind kind;
	double value; /* usage units, or percent 0 .. 100 */
	long line;    /* line of the targets file */
};

struct ts_targets; /* parsed targets file; opaque */

/*
 * ts_targets_factor() - the factor for usage_pct (the entity's share of
 * delivered usage in percent; clamped into 0..100, NaN counts as 0) under
 * target *tg and policy.  In [0,1], 0.5 on target, non-increasing in
 * usage_pct; a cap gives <= 0.5, a floor >= 0.5.  Never NaN.
 */
double ts_targets_factor(const struct ts_target *tg, double usage_pct,
			 enum ts_fs_policy policy);

/*
 * ts_targets_parse() - parse a targets file held in text[0 .. len).
 * On success *out is a new object (free with ts_targets_free()).  On
 * error *out is NULL and err->msg is "line N: reason" with err->index N.
 * Parse into a fresh object and swap only on success: an error then
 * keeps the previous targets.  RET TS_OK, TS_ESYNTAX, TS_ERANGE, TS_EKEY
 * (unknown kind), TS_EINVAL (duplicate) or TS_ENOMEM.
 */
int ts_targets_parse(const char *text, size_t len, struct ts_targets **out,
		     struct ts_error *err);

/*
 * ts_targets_load() - read the file at path and parse it.  With trust
 * (slurmctld's fs_targets=) the file is read only if it, and every link
 * on the way, pass file_trust.h's rule: else TS_EINVAL with
 * ts_trust_check()'s message (owner and mode named).  NULL trust: any
 * file the caller may read (sshare-ext --targets).  A read error is
 * TS_EIO or TS_ENOENT with "cannot read PATH: reason"; a parse error is
 * as ts_targets_parse() (the caller names the file when it logs).
 */
struct ts_trust;
int ts_targets_load(const char *path, const struct ts_trust *trust,
		    struct ts_targets **out, struct ts_error *err);

/* ts_targets_free() - release tg (NULL is fine). */
void ts_targets_free(struct ts_targets *tg);

/* ts_targets_count() - number of entries (lines with an entry). */
size_t ts_targets_count(const struct ts_targets *tg);

/* ts_targets_fscap_count() - number of entries with a feasibility cap. */
size_t ts_targets_fscap_count(const struct ts_targets *tg);

/*
 * ts_targets_tree_fscap_count() - those of them on the association tree
 * (account, user NAME, user NAME@ACCOUNT), which caps.h evaluates; the
 * rest are credentials' (cred_shares.h).
 */
size_t ts_targets_tree_fscap_count(const struct ts_targets *tg);

/* ts_targets_target_count() - number of entries with a priority target. */
size_t ts_targets_target_count(const struct ts_targets *tg);

/*
 * ts_targets_serial() - a number no other parse in this process gets
 * (1, 2, ...; 0 for NULL): what was derived from a set of targets is
 * still valid while the serial is the same (an address can be reused).
 */
uint64_t ts_targets_serial(const struct ts_targets *tg);

/*
 * ts_targets_find_fscap() - the feasibility cap of an account or user
 * entry, keyed as ts_targets_find().  RET the cap or NULL (no entry, or
 * an entry without fscap=).
 */
const struct ts_fscap *ts_targets_find_fscap(const struct ts_targets *tg,
					     int is_user, const char *name,
					     const char *account);

/*
 * ts_targets_find() - the entry for an account (is_user 0, account NULL)
 * or a user (is_user 1; account NULL for "user NAME", else the exact
 * "user NAME@ACCOUNT" entry).  RET the entry or NULL (also for an entry
 * that only has a feasibility cap).
 */
const struct ts_target *ts_targets_find(const struct ts_targets *tg,
					int is_user, const char *name,
					const char *account);

/*
 * ts_targets_find_cred() - the target of credential name of type c: for
 * TS_CRED_USER the "user NAME@*" entry, for TS_CRED_ACCOUNT the "account
 * NAME" entry, else the group, qos or class entry.  RET the target or
 * NULL (no entry, or one with only a feasibility cap).
 */
const struct ts_target *ts_targets_find_cred(const struct ts_targets *tg,
					     enum ts_cred c, const char *name);

/* ts_targets_find_cred_fscap() - that entry's feasibility cap, or NULL. */
const struct ts_fscap *ts_targets_find_cred_fscap(const struct ts_targets *tg,
						  enum ts_cred c,
						  const char *name);

/*
 * ts_targets_cred_count() - the entries of credential type c (for
 * TS_CRED_USER the "user NAME@*" ones, not the associations' "user").
 */
size_t ts_targets_cred_count(const struct ts_targets *tg, enum ts_cred c);

/*
 * ts_targets_cred_each() - fn(name, target, arg) for every entry of
 * credential type c that has a priority target (an entry with only a
 * feasibility cap is left out), in the file's order; for TS_CRED_USER
 * the "user NAME@*" entries, name without "@*".  name and target live as
 * long as tg.  RET the number of calls: 0 for NULL tg or a bad c.
 * Allocates nothing.
 */
typedef void (*ts_targets_cred_fn)(const char *name,
				   const struct ts_target *target, void *arg);
size_t ts_targets_cred_each(const struct ts_targets *tg, enum ts_cred c,
			    ts_targets_cred_fn fn, void *arg);

/*
 * ts_targets_cred_each_fscap() - fn(name, fscap, arg) for every entry of
 * credential type c that has a feasibility cap, in the file's order;
 * names as ts_targets_cred_each().  RET the number of calls.  Allocates
 * nothing.
 */
typedef void (*ts_targets_fscap_fn)(const char *name,
				    const struct ts_fscap *fscap, void *arg);
size_t ts_targets_cred_each_fscap(const struct ts_targets *tg, enum ts_cred c,
				  ts_targets_fscap_fn fn, void *arg);

/*
 * ts_targets_applicable() - the target that applies to node i of t: the
 * node's own (a user: NAME@PARENT first, then NAME), else the nearest
 * ancestor account's (the root excluded).  *from is the node whose target
 * it is (its usage is the one to compare), TS_NO_NODE if none.
 * RET the target or NULL.  Allocates nothing.
 */
const struct ts_target *ts_targets_applicable(const struct ts_targets *tg,
					      const struct ts_tree *t, size_t i,
					      long *from);

/*
 * ts_targets_apply() - for every node with an applicable target, set
 * fs_factor[i] = ts_targets_factor(target, 100 * usage_norm[from], policy)
 * where from is the node the target belongs to; other nodes keep their
 * fs_factor.  usage_norm is the node's share of the root's usage (struct
 * ts_fs's usage_norm, seed 003's Usage with ts_windows_fill_tree()).
 * One pass, parents first; from[] (t->n entries, may be NULL) receives
 * the source node or TS_NO_NODE.  tg NULL changes nothing.
 * RET the number of nodes whose factor a target set.  Allocates nothing.
 */
size_t ts_targets_apply(const struct ts_targets *tg, const struct ts_tree *t,
			const long double *usage_norm, enum ts_fs_policy policy,
			double *fs_factor, long *from);

#endif /* TS_TARGETS_H */
