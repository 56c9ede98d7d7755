/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * status.c - `node_power status [HOSTLIST]`: the state file as seed 001's
 * pbsnodes would show it (last_state_change_time, last_used_time in
 * "MON DD YY HH:MM:SS"), plus operations in progress.  Dead runs' claims
 * are shown as they are, not repaired: status only reads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "node_power.h"
#include "power/state_file.h"
#include "power/status.h"

int np_status(struct np_ctx *ctx, const char *expr)
{
	struct ts_hostlist only = TS_HOSTLIST_INIT;
	struct ts_power_store s = TS_POWER_STORE_INIT;
	struct ts_power_state st = TS_POWER_STATE_INIT;
	struct ts_error err = TS_ERROR_INIT;
	size_t i;
	int rc;

	if (expr && ts_hostlist_expand(&only, expr, &err) != TS_OK) {
		fprintf(stderr, "node_power: host list \"%s\": %s\n", expr,
			err.msg);
		ts_hostlist_free(&only);
		return NP_EXIT_USAGE;
	}
	rc = ts_power_state_file_lock(&s, ctx->cfg.state_file, &st, &err);
	ts_power_state_file_unlock(&s);
	if (rc != TS_OK) {
		fprintf(stderr, "node_power: %s\n", err.msg);
		ts_hostlist_free(&only);
		return NP_EXIT_FAILED;
	}
	printf("# %s: %zu nodes, %zu in transition, max_concurrent_nodes %ld\n",
	       ctx->cfg.state_file, st.n, ts_power_state_claims(&st),
	       ctx->cfg.max_concurrent_nodes);
	for (i = 0; i < st.n; i++) {
		size_t len = strlen(st.node[i].name) + TS_POWER_STATUS_EXTRA;
		char *line;

		if (expr && ts_hostlist_find(&only, st.node[i].name) < 0)
			continue;
		line = malloc(len);
		if (!line)
			break;
		ts_power_status_line(&st.node[i], line, len);
		printf("%s\n", line);
		free(line);
	}
	ts_power_state_free(&st);
	ts_hostlist_free(&only);
	return NP_EXIT_OK;
}
