/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurm_prio_conf.h - the priority keys of a slurm.conf-style file, read
 * as Slurm's read_config.c reads them, for the replay (ts-replay(1)),
 * which has no slurmctld to ask.
 *
 *   PriorityDecayHalfLife     Slurm time (minutes, min:sec, h:m:s,
 *                             d-h[:m[:s]]), rounded up to minutes; 0 or
 *                             -1/INFINITE/UNLIMITED: no decay; default 7-0
 *   PriorityCalcPeriod        the same, at least 1 minute; default 5
 *   PriorityFlags             Slurm's words, found as Slurm finds them
 *                             (anywhere in the value, any case):
 *                             DEPTH_OBLIVIOUS, NO_FAIR_TREE,
 *                             CALCULATE_RUNNING; the others are read by
 *                             Slurm for job priority and kept here as text
 *   PriorityUsageResetPeriod  NONE NOW DAILY WEEKLY MONTHLY QUARTERLY YEARLY
 *   PriorityParameters        kept as text (settings.h reads it)
 *   FairShareDampeningFactor  1 .. 65535, default 1
 *   PriorityWeight{Age,FairShare,JobSize,Partition,QOS,Assoc}
 *   PriorityMaxAge            kept for the job priorities (later)
 *   AccountingStorageEnforce  whether Slurm charges a job's end: only when
 *                             it sets limits ("limits", "safe", "all",
 *                             found as substrings, as Slurm); default no
 *
 * A line holds blank-separated Key=Value pairs; a value may be in double
 * quotes; '#' starts a comment.  Other keys are ignored (a whole
 * slurm.conf may be given).  A key given twice: the last wins, as Slurm.
 */
#ifndef TS_SLURM_PRIO_CONF_H
#define TS_SLURM_PRIO_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "usage_charge.h"

struct ts_slurm_prio {
	uint32_t decay_hl;    /* s; 0: none */
	uint32_t calc_period; /* s */
	enum ts_reset_period reset;
	bool fair_tree;	      /* Slurm's PRIORITY_FLAGS_FAIR_TREE */
	bool depth_oblivious; /* PRIORITY_FLAGS_DEPTH_OBLIVIOUS */
	bool calculate_running;
	uint32_t damp; /* FairShareDampeningFactor */
	uint32_t w_age, w_fs, w_js, w_part, w_qos, w_assoc;
	uint32_t max_age;   /* s */
	bool charge_at_end; /* AccountingStorageEnforce has limits */
	char params[4096];  /* PriorityParameters ("" if none) */
};

/*
 * ts_slurm_prio_parse() - text[0 .. len) (not changed) into *out, which
 * gets Slurm's defaults first.
 * RET TS_OK, or TS_EINVAL/TS_ERANGE with err->index the line and
 * err->msg "line N: PriorityCalcPeriod=0: ...".
 */
int ts_slurm_prio_parse(const char *text, size_t len, struct ts_slurm_prio *out,
			struct ts_error *err);

/*
 * ts_slurm_time_secs() - a Slurm time as time_str2secs() reads it:
 * RET seconds, -1 for INFINITE, -2 when not a time.
 */
long ts_slurm_time_secs(const char *s);

#endif /* TS_SLURM_PRIO_CONF_H */
