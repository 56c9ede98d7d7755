/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cap_cells.h - Maui feasibility caps (fscap= of the plugin's fs_targets
 * file, --targets=FILE) as sshare-ext shows them, evaluated with src/caps.h
 * on the rows' tree (its RawUsage: with usage_window= the windows' sum):
 *
 *   FSCap      the association's own cap: "30%" or an amount; blank: none
 *   CapUsage   its usage in the cap's terms: "31.79%" or an amount
 *   CappedBy   the association whose cap keeps its jobs from starting
 *              (itself or an ancestor, user@account for a user); "no"
 */
#ifndef SSHARE_EXT_CAP_CELLS_H
#define SSHARE_EXT_CAP_CELLS_H

#include <stddef.h>

#include "fields.h"
#include "share_set.h"

#define TS_CAP_CELL_MAX 320 /* a user@account name and more */

/*
 * cap_cells_load() - read FILE and evaluate its caps on s->tree.
 * RET 0, or -1 with msg ("--targets FILE: line 3 column 11: ...").
 */
int cap_cells_load(struct share_set *s, const char *file, char *msg,
		   size_t len);

/*
 * cap_cell() - the text of cap column f (F_FS_CAP, F_CAP_USAGE,
 * F_CAPPED_BY) for tree node `node` into buf.  RET 0 for a blank cell
 * (no --targets, no node, no own cap).
 */
int cap_cell(const struct share_set *s, long node, enum field_id f, char *buf,
	     size_t len);

/* cap_cells_free() - release what cap_cells_load() kept. */
void cap_cells_free(struct share_set *s);

#endif /* SSHARE_EXT_CAP_CELLS_H */
