/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * no_val.h - Slurm's "no value" sentinels, NO_VAL and NO_VAL64 of
 * slurm/slurm.h (the same in 22.05 and 24.11), for code that does not
 * include slurm.h.  The only place treeshare spells them as numbers:
 * every other marker (TS_USAGE_NO_VAL, sshare-ext's SHARE_NO_VAL) is
 * derived from these, and testsuite/structure.sh keeps it so.
 */
#ifndef TS_NO_VAL_H
#define TS_NO_VAL_H

#define TS_NO_VAL   0xfffffffeU
#define TS_NO_VAL64 0xfffffffffffffffeULL

#endif /* TS_NO_VAL_H */
