/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * share_file.h - offline: a share_set from a tree file or saved sshare
 * output (--input), after the what-ifs, with every column computed by
 * src/ for the chosen algorithm (--algo; default: Fair Tree, or classic
 * when the saved sshare output shows a FairShare for accounts).
 */
#ifndef SSHARE_EXT_SHARE_FILE_H
#define SSHARE_EXT_SHARE_FILE_H

#include <stddef.h>

#include "cli.h"
#include "share_set.h"

/*
 * share_file_load() - need_ext: the extended columns or views are asked
 * for (computed only then).  RET 0, or -1 with msg (one line, no
 * newline).
 */
int share_file_load(struct share_set *s, const struct cli *c, int need_ext,
		    char *msg, size_t len);

/* share_row_wanted() - the -u/-A/-U filters as the controller applies them. */
int share_row_wanted(const struct cli *c, int is_user, const char *name,
		     const char *account);

#endif /* SSHARE_EXT_SHARE_FILE_H */
