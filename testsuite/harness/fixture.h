/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fixture.h - one parity case: slurm.conf keys, TRES, QOS, partitions,
 * the association tree with raw usage, and the job list.
 *
 * The text format is documented in ts-harness(1), FIXTURE FORMAT.  The
 * parser knows no Slurm type: it fills plain structs that setup.c turns
 * into Slurm's records.  Times are absolute epoch seconds after parsing
 * ("now-300" is resolved against the fixture's "now").
 */
#ifndef TH_FIXTURE_H
#define TH_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define TH_SHARES_PARENT UINT32_MAX /* "Fairshare=parent" */
#define TH_UNSET	 UINT32_MAX /* optional integer not given */

enum th_job_state {
	TH_JOB_PENDING,
	TH_JOB_RUNNING,
	TH_JOB_SUSPENDED,
	TH_JOB_COMPLETE,
	TH_JOB_CANCELLED,
};

struct th_assoc {
	uint32_t id; /* Slurm association id */
	long parent; /* index in th_fixture.assoc; -1 for root */
	bool user;
	char *name;	 /* account name, or user name */
	uint32_t shares; /* raw shares or TH_SHARES_PARENT */
	bool has_usage;
	long double usage; /* given raw usage, subtree included */
	uint32_t priority; /* association Priority or TH_UNSET */
	uint32_t uid;	   /* user's uid (users only) */
	long line;
};

struct th_qos {
	uint32_t id;
	char *name;
	uint32_t priority;
	double usage_factor;
	long double usage; /* raw usage loaded from qos_usage */
	bool no_decay;	   /* Flags=NoDecay */
};

struct th_part {
	char *name;
	uint16_t factor;   /* PriorityJobFactor */
	uint16_t tier;	   /* PriorityTier */
	uint32_t max_time; /* minutes, or TH_UNSET for INFINITE */
	uint32_t nodes;	   /* total_nodes */
	uint32_t cpus;	   /* total_cpus */
	char *tres;	   /* "cpu=64,mem=256000,node=4,gres/gpu=8" */
	char *billing;	   /* TRESBillingWeights */
	long qos;	   /* partition QOS index or -1 */
};

struct th_job {
	uint32_t id;
	long assoc;    /* index in th_fixture.assoc (a user) */
	long qos;      /* index in th_fixture.qos or -1 */
	long *qos_all; /* qos=a,b: every QOS of a multi-QOS job (24.11) */
	size_t n_qos_all;
	long *parts; /* indices in th_fixture.part */
	size_t n_parts;
	enum th_job_state state;
	bool completing;   /* JOB_COMPLETING flag */
	bool power_up;	   /* JOB_POWER_UP_NODE flag */
	uint32_t priority; /* initial priority; 0 = held */
	bool direct;	   /* direct_set_prio (scontrol update) */
	time_t submit, begin, accrue, start, end, resize;
	uint32_t time_limit; /* minutes or TH_UNSET (partition's) */
	uint32_t total_cpus; /* allocated cpus (0 while pending) */
	uint32_t min_cpus;
	uint32_t max_cpus; /* TH_UNSET = NO_VAL */
	uint32_t min_nodes;
	int32_t nice;	  /* -2147483645 .. 2147483645 */
	int32_t site;	  /* site factor, as scontrol SiteFactor= */
	char *tres_req;	  /* "cpu=4,mem=8000,node=1" or NULL */
	char *tres_alloc; /* NULL while pending */
	time_t finish;	  /* the job ends then (job_end between cycles); 0 */
	long line;
};

/* What a restart does to a state file (damage_file=) first. */
enum th_damage {
	TH_DAMAGE_NONE,
	TH_DAMAGE_TORN,	      /* the file cut to half its length */
	TH_DAMAGE_CORRUPT,    /* one bit of its middle byte flipped */
	TH_DAMAGE_BOTH,	      /* torn, and its previous copy corrupt */
	TH_DAMAGE_ZERO,	      /* cut to zero length */
	TH_DAMAGE_RANDOM,     /* replaced by as many random bytes */
	TH_DAMAGE_TRAILING,   /* 8 bytes appended */
	TH_DAMAGE_FUTURE,     /* last decay an hour after the clock, CRC good */
	TH_DAMAGE_NEGATIVE,   /* last decay -1, CRC good */
	TH_DAMAGE_MISSING,    /* removed (the previous copy stays) */
	TH_DAMAGE_OLD_FORMAT, /* treeshare_state as an older treeshare
				 kept it: treeshare_windows and 16 bytes */
};

/* Something done to the controller between two cycles. */
struct th_event {
	enum { TH_EV_RESTART, TH_EV_RECONFIGURE, TH_EV_SLURM_SAVE } kind;
	unsigned after;	       /* cycle after which it happens */
	enum th_damage damage; /* restart */
	char *damage_file;     /* restart: the file (default treeshare_state) */
	char *remove_file;     /* restart: removed with its previous copy */
	time_t down;	       /* restart: extra seconds down */
	char *conf;	       /* reconfigure: "Key=Value" for slurm.conf */
	long line;
};

struct th_fixture {
	char *path;
	time_t now;
	unsigned cycles;     /* report after each of this many cycles */
	bool has_last_ran;   /* write priority_last_decay_ran */
	char *last_ran_expr; /* resolved once PriorityCalcPeriod is known */
	time_t last_reset;
	uint32_t cluster_cpus;
	uint32_t node_count;

	char **conf; /* "Key=Value" lines for slurm.conf */
	size_t n_conf;

	char **tres; /* extra TRES "type/name" beyond the defaults */
	uint64_t *tres_count;
	size_t n_tres;

	struct th_qos *qos;
	size_t n_qos;
	struct th_part *part;
	size_t n_part;
	struct th_assoc *assoc; /* parents first; [0] is root */
	size_t n_assoc;
	struct th_job *job;
	size_t n_job;
	struct th_event *event; /* in fixture order */
	size_t n_event;
	char *dir; /* the fixture's directory, absolute (${FIXTURE_DIR}) */
};

/*
 * th_fixture_read() - parse path into *fx.  On a syntax or consistency
 * error, print "PATH:LINE:COL: message" to stderr and return -1 (fx is
 * then freed).  RET 0 on success.
 */
int th_fixture_read(const char *path, struct th_fixture *fx);

/*
 * th_fixture_sum_usage() - give each account without usage its children's
 * sum, check that a given one is not less (rounding aside).  For fixtures
 * built in memory; th_fixture_read() calls it.  RET 0, or -1 after
 * printing the offending line.
 */
int th_fixture_sum_usage(struct th_fixture *fx);

/* th_fixture_free() - release everything th_fixture_read() allocated. */
void th_fixture_free(struct th_fixture *fx);

/*
 * th_fixture_time() - resolve "now", "now-300", "now+60" or an epoch
 * number against now.  RET 0, or -1 if text is not one of those.
 */
int th_fixture_time(const char *text, time_t now, time_t *out);

#endif
