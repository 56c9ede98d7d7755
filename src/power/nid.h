/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nid.h - Cray node ids (nids) for capmc's "--nids" argument.
 *
 * capmc names nodes by number: "capmc node_off --nids 24-25" (seed 001,
 * PBS PP-824).  A Slurm node "nid00024" is nid 24 by default: the
 * trailing digits of its name.  node_power's nid_map overrides that per
 * node (struct ts_power_config).
 */
#ifndef TS_POWER_NID_H
#define TS_POWER_NID_H

#include <stddef.h>

#include "error.h"

/* Largest nid accepted (capmc's nids are 32-bit; keep well inside). */
#define TS_NID_MAX 999999999L

/*
 * ts_nid_from_name() - the number formed by name's trailing digits:
 * "nid00024" -> 24, "n7" -> 7.  RET -1 when name does not end in a digit
 * or the number exceeds TS_NID_MAX.
 */
long ts_nid_from_name(const char *name);

/*
 * ts_nid_ranges() - capmc's list syntax for nids[0..n-1]: ascending,
 * repeats dropped, runs of consecutive nids as "a-b", joined by ',':
 * {25, 24, 30, 26} -> "24-26,30".  nids is not changed.
 * RET a malloc()ed string ("" for n == 0), or NULL with *err set.
 */
char *ts_nid_ranges(const long *nids, size_t n, struct ts_error *err);

#endif /* TS_POWER_NID_H */
