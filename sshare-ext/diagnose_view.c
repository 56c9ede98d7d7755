/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diagnose_view.c - sshare-ext --diagnose-f: Maui's "diagnose -f" view
 * (src/cred_view.h) of the usage per credential a treeshare_state file
 * holds (issue 27).  Users and groups are named from the passwd and
 * group databases; accounts, QOS and partitions by the cluster's names
 * online (cred_names.h), else by number (the state keeps ids, not
 * names).
 */
#include <stdio.h>
#include <time.h>

#include "cred_names.h"
#include "cred_view.h"
#include "credential_store.h"
#include "usage_state.h"
#include "utc_time.h"
#include "views.h"

/* ts_cred_view_write()'s namer: cred_names_text(). */
static const char *name_of(void *arg, enum ts_cred c, uint32_t id, char *buf,
			   size_t len)
{
	return cred_names_text(arg, c, id, buf, len);
}

int diagnose_usage_load(const char *state, struct ts_cred_usage *cu,
			char *first, size_t first_len, char *msg, size_t len)
{
	struct ts_error err = TS_ERROR_INIT;
	struct ts_kept_status st;
	struct ts_usage_state s;
	char when[32];
	int rc;

	rc = ts_usage_state_load(state, (int64_t)time(NULL), &s, &st, &err);
	if (rc) {
		snprintf(msg, len, "%s", err.msg);
		return -1;
	}
	if (!s.cred_len) {
		/* clang-format off */
		snprintf(msg, len,
			 "%s holds no usage per credential: priority/treeshare keeps it with fs_targets user@*, group, qos or class entries, fs_*_weight keys or fs_import",
			 state);
		/* clang-format on */
		ts_usage_state_free(&s);
		return -1;
	}
	rc = ts_credential_store_decode(s.cred, s.cred_len, cu, &err);
	if (rc) {
		snprintf(msg, len, "%s: credential usage: %s", state, err.msg);
		ts_usage_state_free(&s);
		return -1;
	}
	snprintf(first, first_len, "%s%s%s%sUsage per credential saved at %s",
		 st.used_prev ? st.problem : "", st.used_prev ? "; read " : "",
		 st.used_prev ? state : "", st.used_prev ? ".prev\n" : "",
		 ts_utc_time(s.saved_at, when, sizeof(when)));
	ts_usage_state_free(&s);
	return 0;
}

int diagnose_view(FILE *out, const char *state, const struct ts_targets *tg,
		  enum ts_fs_policy policy, const struct cred_names *names,
		  char *msg, size_t len)
{
	struct ts_cred_usage cu;
	char first[1024];
	int rc;

	if (diagnose_usage_load(state, &cu, first, sizeof(first), msg, len))
		return -1;
	fprintf(out, "%s\n\n", first);
	rc = ts_cred_view_write(out, &cu, tg, policy, name_of, (void *)names);
	ts_cred_usage_free(&cu);
	if (rc)
		snprintf(msg, len, "cannot write the view");
	return rc;
}
