/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clusters.h - -M/--cluster: the clusters slurmdbd knows by the given
 * names ("all": every cluster), as sshare gets them, and which of them
 * the next requests go to.  One section per cluster is main.c's.
 */
#ifndef SSHARE_EXT_CLUSTERS_H
#define SSHARE_EXT_CLUSTERS_H

#include <stddef.h>

struct cluster_list;

/*
 * clusters_get() - the clusters named in names (commas; any case) that
 * slurmdbd knows and whose slurmctld has registered, in slurmdbd's
 * order.  A name it does not know is reported on stderr and skipped, as
 * sshare does.  RET 0 with *out set (at least one cluster), or -1 with
 * msg.
 */
int clusters_get(const char *names, int verbose, struct cluster_list **out,
		 char *msg, size_t len);

size_t clusters_count(const struct cluster_list *l);

/*
 * clusters_use() - send the following requests (shares_rpc.c) to cluster
 * i's slurmctld.  RET its name.
 */
const char *clusters_use(struct cluster_list *l, size_t i);

void clusters_free(struct cluster_list *l);

#endif /* SSHARE_EXT_CLUSTERS_H */
