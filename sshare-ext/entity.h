/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * entity.h - what a NAME on the command line (-g, --set, --usage) means
 * in a tree, one rule for all:
 *   "user@account"  that user association;
 *   "root"          the root;
 *   "account"       that account, if one is so named;
 *   "user"          otherwise every user association with that name.
 */
#ifndef SSHARE_EXT_ENTITY_H
#define SSHARE_EXT_ENTITY_H

#include <stddef.h>

#include "tree.h"

/* entity_find() - up to max matches into out[]; RET the match count. */
size_t entity_find(const struct ts_tree *t, const char *name, long *out,
		   size_t max);

#endif /* SSHARE_EXT_ENTITY_H */
