/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * after_fini.h - calls that reach a priority plugin around and after its
 * fini() (ts-harness -F; docs/ts-harness.1, CALLS AFTER FINI).
 *
 * From 24.11 slurmctld unloads its priority plugin (priority_g_fini())
 * while RPC threads still run, and priority_g_*() keep calling through
 * the pointers they took at load.  The harness does the same with the
 * plugin's own symbols, looked up before its fini().
 */
#ifndef TH_AFTER_FINI_H
#define TH_AFTER_FINI_H

#include <stdio.h>

/*
 * th_after_fini() - in place of the run's last priority_g_fini(), with
 * the plugin started: (1) priority_p_set() of a pending job held inside
 * the plugin (at its first assoc_mgr_lock()) while another thread runs
 * priority_g_fini(); whether fini() returned before the call left;
 * (2) whether the plugin's file is still mapped after fini(); (3)
 * priority_p_set() and priority_p_job_end() of a running job through the
 * pointers kept; (4) the plugin started again and priority_g_set() of the
 * pending job; then priority_g_fini().  One "after_fini|..." line per
 * result on out.  A plugin without a guard may crash the harness in (3)
 * (SIGSEGV: its code is gone) or in (1) (its state is).
 * RET 0, 1 if a fini() failed, 2 after printing why the steps could not
 * run.
 */
int th_after_fini(FILE *out, const char *plugin);

#endif
