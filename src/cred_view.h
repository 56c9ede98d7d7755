/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cred_view.h - Maui's "diagnose -f" view of the usage per credential
 * (credential_usage.h; issue 27), for sshare-ext:
 *
 *   Depth: 4 intervals   Interval Length: 12:00:00   Decay Rate: 0.50
 *   FS Policy: difference
 *
 *   FSInterval          %   Target        0        1        2        3
 *   FSWeight      -------  -------   1.0000   0.5000   0.2500   0.1250
 *   TotalUsage     100.00  -------   475200   432000   540000   648000
 *
 *   USER
 *   -------------
 *   john            31.79  -------    54.55     0.00    10.00    33.33
 *
 * Window 0 is the current one.  TotalUsage is the usage delivered in
 * each window, in RawUsage's units (TRES-billing-seconds).  A
 * credential's "%" is its decay-weighted share of the weighted total
 * (the usage its fair-share delta is taken from), then its target with
 * Maui's suffix ('+' a floor, '-' a cap), then its share of each
 * window's total.  Within each type the rows of a window sum to 100 %
 * of that window's total (to rounding): every job is charged to one
 * credential of each type.  Rows are in rising id order; a type with no
 * usage has its heading only.
 */
#ifndef TS_CRED_VIEW_H
#define TS_CRED_VIEW_H

#include <stdint.h>
#include <stdio.h>

#include "credential_usage.h"
#include "targets.h"

/*
 * A credential's name for its row and its target (NULL targets: none):
 * write it into buf (len bytes) and return buf.  The caller's choice:
 * user and group names, or numbers where none is known.
 */
typedef const char *(*ts_cred_namer)(void *arg, enum ts_cred c, uint32_t id,
				     char *buf, size_t len);

/*
 * ts_cred_view_write() - the view of cu to out, targets from tg (may be
 * NULL) under policy.  RET 0, or -1 when out failed (errno set).
 */
int ts_cred_view_write(FILE *out, const struct ts_cred_usage *cu,
		       const struct ts_targets *tg, enum ts_fs_policy policy,
		       ts_cred_namer namer, void *arg);

#endif /* TS_CRED_VIEW_H */
