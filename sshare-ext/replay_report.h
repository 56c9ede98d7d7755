/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay_report.h - ts-replay --compare's report (ts-replay(1),
 * COMPARING): the files of a directory and a summary on stdout, from the
 * samples src/replay_compare.c gives.
 *
 *   fairshare.csv  every association's FairShare under each
 *                  configuration, at each sample
 *   movers.csv     each user association's mean FairShare under each,
 *                  and against the first: mean change, largest gain and
 *                  loss; the biggest movers first
 *   pairs.csv      at each sample and for each configuration after the
 *                  first: the jobs pending, their pairs, how many it
 *                  orders the other way (swapped), ties, Kendall's tau-b
 *   swapped.csv    (--swapped) each swapped pair: the two jobs and their
 *                  priorities under both
 *   movers.svg     FairShare over time of the biggest movers, a line per
 *                  configuration
 */
#ifndef TS_REPLAY_REPORT_H
#define TS_REPLAY_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "replay_compare.h"

struct replay_report_opts {
	const char *dir;
	const char *const *labels; /* one a configuration */
	size_t k;
	size_t top;	    /* movers plotted and summarised */
	bool swapped;	    /* write swapped.csv */
	size_t max_samples; /* at most this many samples will come */
};

struct replay_report;

/* RET 0, or -1 (said on stderr: the file and why). */
int replay_report_open(struct replay_report **r,
		       const struct replay_report_opts *o,
		       const struct ts_tree *t,
		       const struct ts_sacct_job *jobs);
/* The hook for ts_replay_compare(): arg is the report. */
int replay_report_sample(void *arg, const struct ts_compare_sample *s);
/* Writes movers.csv, movers.svg and the summary; frees.  RET 0 or -1. */
int replay_report_close(struct replay_report *r);
/* Frees without writing (after a failed run). */
void replay_report_abandon(struct replay_report *r);

/* Shared with ts-replay's single run: a time as sacct prints it, a number
 * as the plugin's figures are printed (inf, "" for NaN). */
void replay_format_time(int64_t t, char b[32]);
void replay_put_num(FILE *f, double v);

#endif /* TS_REPLAY_REPORT_H */
