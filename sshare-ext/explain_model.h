/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explain_model.h - the explanation of --explain as figures, before it
 * is printed as text or JSON (explain_view.c): each row's factors, the
 * fair-share path, a cap that holds the job, and two jobs compared.
 */
#ifndef SSHARE_EXT_EXPLAIN_MODEL_H
#define SSHARE_EXT_EXPLAIN_MODEL_H

#include <time.h>

#include "explain_rpc.h"
#include "share_set.h"

#define EXPLAIN_ASSUMES                                                        \
	"estimates assume no one adds usage (decay alone changes no FairShare: every usage decays by the same factor and every algorithm reads only ratios of usage), that weights, shares and jobs stay as they are, and that an order changes at the first PriorityCalcPeriod cycle after the time given"

/* One contribution to a row's priority. */
struct xfactor {
	char name[48];
	double weight;
	int weighted; /* has a weight (not site, nice) */
	double contrib;
	double norm; /* contrib / weight; NAN unweighted or at weight 0 */
	char from[128];
};

struct xrow {
	const struct explain_row *r;
	struct xfactor *fac;
	size_t n;
	char vars[768]; /* formula=: "name=value ..." of its variables */
	double sum;	/* in slurmctld's order */
	uint32_t prio;	/* its integer */
};

/* One level of the path from the root. */
struct xlevel {
	size_t depth;
	const char *name;
	int is_user;
	uint32_t shares_raw;
	double shares;	  /* NormShares, or PBS's Perc */
	double usage_raw; /* RawUsage as sshare shows it */
	double efctv;	  /* EffectvUsage, or PBS's tree usage */
	double level_fs;
};

struct xpath {
	struct xlevel *lv;
	size_t n;
	int whole; /* computed on the whole tree (else sshare's row) */
	int pbs;
};

struct explain_model {
	const struct explain_conf *conf;
	const struct explain_job *j;
	char user[64];
	struct xrow *rows;
	size_t n_rows;
	struct xpath path;
	long node; /* the job's association in the tree, -1 */
	double fs_value;
	uint32_t rank;
	size_t users;
	char fs_formula[320];
	char path_note[256];
	char cap_note[400];
	double cap_release; /* seconds, -1 none */
	struct ts_fs fs;    /* the algorithm's figures on the whole tree */
	int have_fs;
};

struct explain_cmp {
	char partition[64];
	uint32_t ahead, behind;
	int tied;
	char factor[48];
	double difference;
	char ancestor[64];
	char side[2][64];
	double side_value[2];
	double overtake;    /* seconds, -1 never */
	time_t overtake_at; /* its clock time, 0 unknown */
	char verdict[256], decides[256], where[640], when[640];
};

/* explain_model_build() - m for job j.  RET 0, or -1 with msg. */
int explain_model_build(struct explain_model *m, const struct explain_conf *c,
			const struct explain_job *j, const struct share_set *s,
			char *msg, size_t len);
void explain_model_free(struct explain_model *m);

/* explain_compare() - the two jobs of a and b side by side. */
void explain_compare(struct explain_cmp *cmp, const struct explain_conf *c,
		     const struct share_set *s, const struct explain_model *a,
		     const struct explain_model *b);

#endif /* SSHARE_EXT_EXPLAIN_MODEL_H */
