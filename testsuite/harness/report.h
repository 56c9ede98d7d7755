/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.h - print what sshare and sprio would show, one record a line.
 *
 * Records (fields separated by '|', doubles %.17g, long doubles %.21Lg;
 * layout in ts-harness(1), OUTPUT):
 *   config|flags|PRIORITYFLAGS_HEX|cycles
 *   assoc|CYCLE|...   one per association, from assoc_mgr_get_shares()
 *                     sent through the RESPONSE_SHARE_INFO pack/unpack,
 *                     FairShare computed as sshare does
 *   qos|CYCLE|...     each QOS's usage
 *   prio|CYCLE|...    one per (job, partition), from
 *                     priority_g_get_priority_factors_list() sent through
 *                     the RESPONSE_PRIORITY_FACTORS pack/unpack
 *   job|CYCLE|...     each job's priority and per-partition priorities
 *   set|CYCLE|ID|P    priority_g_set(0, job) for every job, after the last
 *                     cycle
 */
#ifndef TH_REPORT_H
#define TH_REPORT_H

#include <stdio.h>

/* th_report_config() - the config line. */
void th_report_config(FILE *out, unsigned cycles);

/* th_report_cycle() - assoc, qos, prio and job lines after a cycle. */
void th_report_cycle(FILE *out, unsigned cycle);

/* th_report_set() - set lines: priority_g_set() over every job. */
void th_report_set(FILE *out, unsigned cycle);

#endif
