/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usage_charge.h - the arithmetic of half-life decay and of a running
 * job's dedicated usage, as priority/multifactor does it, shared by the
 * plugin (plugins/priority_treeshare/usage.c, cycle.c) and the replay
 * (replay.h), so that both charge and decay to the same bit.
 *
 *   per second  d = 1 - 0.693 / PriorityDecayHalfLife (1 without one)
 *   decay       usage *= d^dt over dt seconds, never below DBL_MIN
 *   charge      a job that ran run seconds of [from, to] adds
 *               run * d^run * billable (times its QOS UsageFactor)
 *   reset       all usage zeroed at PriorityUsageResetPeriod's times
 *
 * Note that d^halflife is about, not exactly, 1/2 (0.693 is Slurm's).
 */
#ifndef TS_USAGE_CHARGE_H
#define TS_USAGE_CHARGE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* ts_decay_per_second() - d for a half-life of hl seconds (0: none). */
double ts_decay_per_second(uint32_t hl);

/*
 * ts_decay_over() - the factor all usage is multiplied by over delta
 * seconds: d^delta, at least DBL_MIN (never 0).
 */
double ts_decay_over(double decay, double delta);

/*
 * ts_charge_run() - the seconds of [from, to] a job that started at start
 * and ends at end (0: not yet) ran: from is moved up to start, to down
 * to end when at_end (the job's end is charged) and end is before it.
 * *from_out gets the moved from.  RET the seconds, >= 0.
 */
double ts_charge_run(time_t start, time_t end, bool at_end, time_t from,
		     time_t to, time_t *from_out);

/* ts_charge_wall() - run seconds as charged at the end of them: run * d^run. */
double ts_charge_wall(double run, double decay);

/*
 * struct ts_wall_memo - a caller's last ts_charge_wall(): most running
 * jobs of a cycle ran the whole interval, so run and d repeat, and pow()
 * costs ~125 instructions a job.  All zeroes is a valid memo (0 * 0^0).
 */
struct ts_wall_memo {
	double run, decay, wall;
};

/*
 * ts_charge_wall_memo() - ts_charge_wall(run, decay), to the bit, from m
 * when run and decay are m's (bit for bit), else computed and kept in m.
 */
double ts_charge_wall_memo(struct ts_wall_memo *m, double run, double decay);

/* PriorityUsageResetPeriod, in Slurm's order (its PRIORITY_RESET_*). */
enum ts_reset_period {
	TS_RESET_NONE,
	TS_RESET_NOW,
	TS_RESET_DAILY,
	TS_RESET_WEEKLY,
	TS_RESET_MONTHLY,
	TS_RESET_QUARTERLY,
	TS_RESET_YEARLY,
};

/*
 * ts_next_reset() - the first reset time after last_reset for period
 * (TS_RESET_DAILY .. YEARLY), local midnight based as Slurm's; for daily
 * and weekly periods, never more than one period before now.
 * RET 0 for other periods.
 */
time_t ts_next_reset(enum ts_reset_period period, time_t last_reset,
		     time_t now);

#endif /* TS_USAGE_CHARGE_H */
