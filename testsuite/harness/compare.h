/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.h - decide whether two ts-harness reports show the same thing.
 *
 * Lines are compared in order.  config, prio, job and set lines must be
 * byte-identical (sprio factors and priorities exactly equal).  In assoc
 * and qos lines (sshare's fair-share fields and usage) a numeric field
 * may differ by 1e-9 relative, and an integer field (a long double the
 * RPC truncates) by one.  With PriorityFlags=DEPTH_OBLIVIOUS and no Fair
 * Tree, cycle 1 is not compared: Debian's multifactor reads sibling usage
 * it has not computed yet in its first cycle.
 */
#ifndef TH_COMPARE_H
#define TH_COMPARE_H

#include <stdio.h>

/*
 * th_compare_files() - compare report files a and b; on a difference print
 * it to out as '#' lines (TAP diagnostics).  RET 0 same, 1 different,
 * 2 unreadable.
 */
int th_compare_files(const char *a, const char *b, FILE *out);

/* th_compare_main() - "ts-harness compare A B"; RET as above. */
int th_compare_main(int argc, char **argv);

#endif
