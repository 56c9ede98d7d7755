/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explain_rpc.h - sshare-ext --explain JOBID[,JOBID]: "why is my job
 * waiting?" (issue 29).  Everything comes from the requests sshare,
 * sprio and squeue make, so PrivateData hides from the caller exactly
 * what it hides from them:
 *   explain_rpc.c   the job (squeue's request), its factors (sprio's),
 *                   the weights (the configuration), the association
 *                   rows (sshare's, shares_rpc.c);
 *   explain_view.c  the explanation, text or JSON, with src/explain.c's
 *                   arithmetic and the fair-share algorithms of src/.
 */
#ifndef SSHARE_EXT_EXPLAIN_RPC_H
#define SSHARE_EXT_EXPLAIN_RPC_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "cli.h"
#include "fairshare.h"
#include "priority.h"

/* What the configuration says about priorities. */
struct explain_conf {
	uint32_t w_age, w_assoc, w_fs, w_js, w_part, w_qos;
	uint32_t max_age;     /* PriorityMaxAge, seconds */
	uint32_t half_life;   /* PriorityDecayHalfLife, seconds */
	uint32_t calc_period; /* PriorityCalcPeriod, seconds */
	double damp;	      /* FairShareDampeningFactor */
	enum ts_fs_algo algo; /* the fair-share algorithm in effect */
	int treeshare;	      /* PriorityType=priority/treeshare */
	int private_usage;    /* PrivateData=usage */
	char *formula;	      /* PriorityParameters' job_sort_formula= */
	char *usage_window;   /* "usage_window=..." when windows are on */
	int cred_fs; /* Maui's credential fair share decides (a type weight) */
};

/* One of sprio's rows: the job in one partition (and QOS). */
struct explain_row {
	char *partition, *qos;
	int direct;		  /* priority set by hand or by formula= */
	double direct_prio;	  /* then its value */
	struct ts_prio_factors f; /* weighted, f.tres = tres */
	double *tres;		  /* weighted TRES terms, tres_cnt */
	double *tres_weights;
	char **tres_names;
	uint32_t tres_cnt;
	int part_first;	   /* summed as a partition of several */
	long long held_by; /* the priority slurmctld holds, -1: unknown */
};

struct explain_job {
	uint32_t id, uid, assoc_id;
	char *user, *account, *partition, *qos, *state, *reason;
	int pending;
	uint32_t priority; /* squeue's */
	time_t submit, accrue;
	struct explain_row *rows; /* sprio's rows of the job */
	size_t n_rows;
};

/* explain_conf_load() - RET 0, or -1 with msg. */
int explain_conf_load(struct explain_conf *c, char *msg, size_t len);
void explain_conf_free(struct explain_conf *c);

/*
 * explain_job_load() - job id as the caller may see it.  RET 0, or -1
 * with msg ("job 12: not found or not visible (PrivateData=jobs)").
 */
int explain_job_load(uint32_t id, struct explain_job *j, char *msg, size_t len);
void explain_job_free(struct explain_job *j);

/*
 * explain_view() - --explain: the jobs of c->explain (one or two),
 * explained on f as text, or as JSON with --json.  RET the exit status.
 */
int explain_view(FILE *f, const struct cli *c);

#endif /* SSHARE_EXT_EXPLAIN_RPC_H */
