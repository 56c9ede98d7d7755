/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * settings.h - treeshare's own settings, read from PriorityParameters
 * (issue 5), typed and checked.  docs/priority_treeshare.5 PRIORITYPARAMETERS
 * documents every key; the rules enforced here:
 *
 *   fairshare=classic|depth_oblivious|fair_tree|pbs   unset: PriorityFlags
 *   usage_window=DURATION    1 s .. 365 days (forms in duration.h)
 *   usage_depth=N            1 .. 64, default 8       needs usage_window
 *   usage_decay=D            0 .. 1, default 1.0      needs usage_window
 *   fs_targets=PATH          absolute path
 *   fs_policy=difference|ratio   default difference   needs fs_targets
 *   formula=EXPR             compiled with the caller's variables
 *   usage_metric=dedicated|consumed   default dedicated (issue 20)
 *   fs_weight=N              Maui's FSWEIGHT, default 1   needs fs_targets
 *   fs_user_weight=N, fs_group_weight=N, fs_account_weight=N,
 *   fs_qos_weight=N, fs_class_weight=N
 *                            Maui's FSUSERWEIGHT .. FSCLASSWEIGHT,
 *                            default 0                    need fs_targets
 *                            (N: whole numbers, -1000000 .. 1000000)
 *   fs_import=DIR            absolute path of a Maui or Moab statistics
 *                            directory whose FS.<EPOCH> files start the
 *                            usage per credential (maui_fs_history.h)
 *                                                         needs usage_window
 *
 * Names (keys and the words of fairshare= and fs_policy=) are matched
 * without regard to case.  Every error names the key, the bad value and
 * its column in the PriorityParameters text.  Parsing fills a fresh
 * struct, so a caller that keeps its previous settings on error (at
 * reconfigure) loses nothing.
 */
#ifndef TS_SETTINGS_H
#define TS_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "credential.h"
#include "error.h"
#include "fairshare.h"
#include "formula.h"
#include "log.h"

#define TS_SETTINGS_WINDOW_MAX	      (365u * 86400u) /* usage_window, s */
#define TS_SETTINGS_DEPTH_MAX	      64u
#define TS_SETTINGS_DEPTH_DEFAULT     8u      /* Maui's FSDEPTH default */
#define TS_SETTINGS_DECAY_DEFAULT     1.0     /* Maui's FSDECAY default */
#define TS_SETTINGS_WEIGHT_MAX	      1000000 /* |fs_weight|, |fs_*_weight| */
#define TS_SETTINGS_FS_WEIGHT_DEFAULT 1	      /* Maui's component weights */

/* Which keys were given (struct ts_settings.given). */
enum ts_settings_key {
	TS_SET_FAIRSHARE = 1u << 0,
	TS_SET_USAGE_WINDOW = 1u << 1,
	TS_SET_USAGE_DEPTH = 1u << 2,
	TS_SET_USAGE_DECAY = 1u << 3,
	TS_SET_FS_TARGETS = 1u << 4,
	TS_SET_FS_POLICY = 1u << 5,
	TS_SET_FORMULA = 1u << 6,
	TS_SET_USAGE_METRIC = 1u << 7,
	TS_SET_FS_WEIGHT = 1u << 8,
	TS_SET_FS_CRED_WEIGHT = 1u << 9, /* any of fs_user_weight .. */
	TS_SET_FS_IMPORT = 1u << 10,
};

struct ts_settings {
	unsigned given;		    /* enum ts_settings_key bits */
	enum ts_fs_algo fairshare;  /* when TS_SET_FAIRSHARE is given */
	uint32_t usage_window;	    /* seconds; 0: Slurm's half-life */
	uint32_t usage_depth;	    /* windows kept */
	double usage_decay;	    /* weight of window k is decay^k */
	char *fs_targets;	    /* absolute path, or NULL */
	bool fs_ratio;		    /* fs_policy=ratio (Maui's '%') */
	char *formula_text;	    /* as written, or NULL */
	struct ts_formula *formula; /* compiled formula_text, or NULL */
	bool consumed;	/* usage_metric=consumed: CPU time used, not held */
	long fs_weight; /* Maui's FSWEIGHT */
	long cred_weight[TS_CRED_N]; /* FS<TYPE>WEIGHT, by enum ts_cred */
	char *fs_import;	     /* absolute path, or NULL */
};

/* ts_settings_init() - the defaults: no key given. */
void ts_settings_init(struct ts_settings *s);

/*
 * ts_settings_parse() - text (PriorityParameters; NULL or "" is fine) into
 * *out.  vars resolves the formula's variable names; lg receives the
 * formula's fault reports later (see ts_formula_compile()).
 * RET TS_OK, or TS_ESYNTAX, TS_EKEY (unknown key), TS_EINVAL, TS_ERANGE
 * or TS_ENOMEM with err->msg like
 *   "usage_depth=0 (column 27): must be a whole number from 1 to 64"
 *   "formula: column 14: expected ')' after function arguments"
 * and err->index the column in text.  On error *out holds the defaults
 * and needs no free; on success free it with ts_settings_free().
 */
int ts_settings_parse(const char *text, const struct ts_formula_vars *vars,
		      const struct ts_logger *lg, struct ts_settings *out,
		      struct ts_error *err);

/* ts_settings_free() - release and reset s to the defaults. */
void ts_settings_free(struct ts_settings *s);

/*
 * ts_settings_check_flags() - does fairshare= agree with PriorityFlags?
 * fair_tree and depth_oblivious are Slurm's PRIORITY_FLAGS_FAIR_TREE and
 * PRIORITY_FLAGS_DEPTH_OBLIVIOUS bits as slurmctld set them (FAIR_TREE is
 * on unless PriorityFlags has NO_FAIR_TREE or DEPTH_OBLIVIOUS).  Each
 * flag is a statement fairshare= must not contradict:
 *   DEPTH_OBLIVIOUS  => fairshare=depth_oblivious
 *   NO_FAIR_TREE     => fairshare is not fair_tree
 * The default (no flag) allows any value.  Unset fairshare= always agrees.
 * RET TS_OK or TS_EINVAL with err->msg naming both, e.g.
 * "fairshare=fair_tree contradicts PriorityFlags=NO_FAIR_TREE".
 */
int ts_settings_check_flags(const struct ts_settings *s, bool fair_tree,
			    bool depth_oblivious, struct ts_error *err);

/*
 * ts_settings_consumed() - does text (PriorityParameters) say
 * usage_metric=consumed?  For a reader that needs only this key
 * (sshare-ext) and has no formula variables: the other keys are not
 * checked; false when the list does not parse.
 */
bool ts_settings_consumed(const char *text);

/*
 * ts_settings_algo() - the fair-share algorithm in force: fairshare= if
 * given, else DEPTH_OBLIVIOUS, classic (no FAIR_TREE bit) or Fair Tree.
 */
enum ts_fs_algo ts_settings_algo(const struct ts_settings *s, bool fair_tree,
				 bool depth_oblivious);

/*
 * ts_settings_render() - s as one canonical PriorityParameters string for
 * logs and "scontrol show config": the keys given, in the order of the
 * table above, lower case, durations as [D-]HH:MM:SS, numbers shortest,
 * the formula in canonical form (ts_formula_print()) in double quotes,
 * usage_metric, then the weights, then fs_import;
 * usage_depth and usage_decay are shown whenever usage_window is,
 * fs_policy whenever fs_targets is, and fs_weight and the five
 * fs_*_weight whenever one of them is, with their defaults if not given.
 * No key given renders "".  ts_settings_parse() reads the result back to
 * the same settings.  RET the length snprintf() would give.
 */
int ts_settings_render(const struct ts_settings *s, char *buf, size_t size);

#endif /* TS_SETTINGS_H */
