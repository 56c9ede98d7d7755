/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sacct_jobs.h - jobs as "sacct -a -P" prints them, for the replay
 * (replay.h, ts-replay(1)).
 *
 * The first line is the header: '|'-separated field names, in any order
 * and case, extra fields allowed.  Needed: JobID, Account, User, Start,
 * End and AllocTRES or AllocCPUS; TotalCPU too when consumed usage is
 * asked for; Eligible and Submit are read when present (Submit stands
 * for an unset Eligible: a job that was never eligible, in a DOWN
 * partition say, still has a priority and waits).  Each other line
 * is one job or step, with as many fields as the header:
 *
 *   JobID      a step ("123.batch", "123.0", "123+0.1") is skipped; kept
 *              for reports, at most 23 characters ("4294967295_99999+9")
 *   Start, End, Eligible
 *              YYYY-MM-DDTHH:MM:SS in the local time zone (TZ), as sacct
 *              prints them; "Unknown", "None" or empty: unset.  A job
 *              without Start never ran: skipped, or with keep_pending
 *              and an Eligible time kept with start 0 (pending from
 *              Eligible until its End, a cancellation, or for good),
 *              never charged; one without End still runs
 *   AllocTRES  billing=N (Slurm's billable TRES, TRESBillingWeights
 *              applied) is the job's charge per second; without it
 *              AllocCPUS, then AllocTRES's cpu=N
 *   TotalCPU   [D-][HH:]MM:SS[.mmm], the CPU time consumed
 *
 * Nothing is dropped unseen: each skipped line is counted by reason
 * (struct ts_sacct_summary), and each one that is an error (not a step,
 * not a job that never ran) is also passed to the caller's report
 * function with its 1-based line number and a message.
 */
#ifndef TS_SACCT_JOBS_H
#define TS_SACCT_JOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

enum ts_sacct_skip {
	TS_SACCT_STEP,		/* a job step: counted, not an error */
	TS_SACCT_NOT_STARTED,	/* no Start: never ran, nothing to charge */
	TS_SACCT_FIELDS,	/* field count differs (truncated line) */
	TS_SACCT_BAD_VALUE,	/* a time, TRES or CPU time not understood */
	TS_SACCT_ORDER,		/* End before Start */
	TS_SACCT_UNKNOWN_ASSOC, /* user/account not in the tree */
	TS_SACCT_SKIP_COUNT
};

/* What each reason is called in reports ("truncated line", ...). */
const char *ts_sacct_skip_name(enum ts_sacct_skip why);

struct ts_sacct_job {
	int64_t start;	  /* s since the epoch; 0: never started */
	int64_t end;	  /* 0: still running at the end of the history */
	int64_t eligible; /* 0: unknown */
	double billing;	  /* billable TRES charged per second */
	double cpu_secs;  /* TotalCPU, or -1 when not given */
	long node;	  /* the association's tree node */
	long line;	  /* 1-based line in the input */
	char id[24];	  /* JobID as sacct prints it */
};

struct ts_sacct_summary {
	size_t lines;	      /* lines read, the header included */
	size_t jobs;	      /* jobs kept */
	size_t never_started; /* of them, kept for keep_pending */
	size_t skipped[TS_SACCT_SKIP_COUNT];
};

struct ts_sacct_jobs {
	struct ts_sacct_job *job;
	size_t n, cap;
};

/*
 * The caller's two hooks: resolve() gives the tree node of a user's
 * association under an account (or a negative number: unknown);
 * report() hears of each line skipped as an error.
 */
struct ts_sacct_hooks {
	long (*resolve)(void *arg, const char *user, const char *account);
	void (*report)(void *arg, long line, enum ts_sacct_skip why,
		       const char *msg);
	void *arg;
	bool need_cpu;	   /* TotalCPU is needed (consumed usage) */
	bool keep_pending; /* keep jobs that never started (see Start) */
};

/*
 * ts_sacct_parse_in_place() - text[0 .. len) (overwritten; text[len]
 * must exist) appended to *out, which starts zeroed or from an earlier
 * call.  *sum is added to.
 * RET TS_OK; TS_EINVAL with err->index 1 when the header lacks a needed
 * field or the text is empty ("line 1: no field Start in the header"),
 * TS_ENOMEM.
 */
int ts_sacct_parse_in_place(char *text, size_t len,
			    const struct ts_sacct_hooks *h,
			    struct ts_sacct_jobs *out,
			    struct ts_sacct_summary *sum, struct ts_error *err);

/* ts_sacct_jobs_free() - release and zero. */
void ts_sacct_jobs_free(struct ts_sacct_jobs *j);

/*
 * Field readers, also for tests: a sacct time (0 for unset, -1 when it
 * does not parse) and a TotalCPU/Elapsed duration (-1 when bad).
 */
int64_t ts_sacct_time(const char *s);
double ts_sacct_duration(const char *s);

#endif /* TS_SACCT_JOBS_H */
