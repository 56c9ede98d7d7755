/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * consumed.h - usage_metric=consumed (issue 20): which ended jobs a cycle
 * charges and how much.
 *
 * slurmctld learns a step's CPU time (user + system, sacct's TotalCPU)
 * only when the step ends, and deletes the step record in the same call;
 * the figure outlives it only in slurmdbd.  So each cycle charges the jobs
 * that ended in one span of end times, read back from slurmdbd:
 *
 *   (last_ran - lag, start - lag]
 *
 * last_ran is the previous cycle's start, committed with the usage in
 * treeshare_state; start becomes the next last_ran.  The spans of
 * successive cycles meet end to end, so a job is charged once, after a
 * restart or a crash too (the usage and last_ran of one commit go back
 * together).  lag gives slurmdbd time to store the job's last step.
 */
#ifndef TS_CONSUMED_H
#define TS_CONSUMED_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#define TS_CONSUMED_LAG 60 /* s: slurmdbd stores a step's end by then */

struct ts_consumed_span {
	time_t after; /* excluded */
	time_t upto;  /* included */
};

/*
 * ts_consumed_span() - the end times the cycle starting at start charges,
 * the previous cycle having started at last_ran (0: none).
 * RET false when there is nothing to charge (first cycle, clock back).
 */
bool ts_consumed_span(time_t last_ran, time_t start, uint32_t lag,
		      struct ts_consumed_span *out);

/* ts_consumed_in_span() - does a job that ended at end (0: not) count? */
bool ts_consumed_in_span(const struct ts_consumed_span *s, time_t end);

/*
 * ts_consumed_cpu_seconds() - a step's (or a sum of steps') CPU time from
 * slurmdbd's seconds and microseconds; usec may exceed one second, as
 * slurmdbd adds user and system microseconds.
 */
double ts_consumed_cpu_seconds(uint64_t sec, uint64_t usec);

/*
 * ts_consumed_charge() - what a job's cpu_secs add to usage at the cycle's
 * start: times factor (its QOS UsageFactor, < 0: none), decayed as usage
 * charged age seconds earlier (decay per second; 1 with usage windows).
 */
double ts_consumed_charge(double cpu_secs, double factor, double decay,
			  double age);

#endif /* TS_CONSUMED_H */
