/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shares_rpc.c - the shares RPC through Debian's libslurm (shares_rpc.h).
 *
 * From 23.02 through libslurm's slurm_associations_get_shares(), which
 * keeps slurm_msg_t (its layout changes inside a series) in the library.
 * Slurm 22.05 has no public call for it, so there we send
 * REQUEST_SHARE_INFO with libslurm's exported
 * slurm_send_recv_controller_msg(), as sshare does, using the message
 * structs of Slurm's own headers (SLURM_SRC, configured for the installed
 * version).  This is the only file that includes them;
 * what differs between releases comes from plugins/slurm_compat.h (its
 * client side): the list types, slurm_free_ctl_conf().  The message
 * structs are the same in 24.11 but for List -> list_t *.  Failed calls
 * leave their error in errno (slurm_get_errno() only returned it and is
 * gone from 24.11's libslurm).
 */
#include "config.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/common/log.h"
#include "src/common/slurm_protocol_api.h"
#include "src/common/slurm_protocol_defs.h"

#include "plugins/slurm_compat.h"

#include "extended.h"
#include "settings.h"
#include "shares_rpc.h"

/* libslurm exports log_init() under this name only. */
extern int slurm_log_init(char *argv0, log_options_t opts, log_facility_t fac,
			  char *logfile);

/*
 * Slurm reads $SLURM_CONF, then its compiled-in path, then slurmd's
 * configless cache, then DNS; a missing file there is a fatal() inside
 * the library.  Say it ourselves first, in one line.
 */
static int have_config(char *msg, size_t len)
{
	static const char *const paths[] = {
		"/etc/slurm/slurm.conf",
		"/run/slurm/conf/slurm.conf",
	};
	const char *env = getenv("SLURM_CONF");
	size_t i;

	if (env && *env) {
		if (!access(env, R_OK))
			return 1;
		snprintf(msg, len, "cannot read SLURM_CONF=%s: %s", env,
			 strerror(errno));
		return 0;
	}
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (!access(paths[i], R_OK))
			return 1;
	snprintf(
		msg, len,
		"no Slurm configuration (set SLURM_CONF, or use --input FILE for offline mode)");
	return 0;
}

static void quiet_library(int verbose)
{
	log_options_t opts = LOG_OPTS_STDERR_ONLY;

	/* our own one-line errors replace the library's, unless -v */
	opts.stderr_level =
		verbose ? LOG_LEVEL_INFO + verbose : LOG_LEVEL_QUIET;
	slurm_log_init("sshare-ext", opts, SYSLOG_FACILITY_DAEMON, NULL);
}

int shares_rpc_setup(int verbose, char *msg, size_t len)
{
	if (!have_config(msg, len))
		return -1;
	quiet_library(verbose);
	/* slurmdb calls (-M) read the configuration only through this */
	slurm_init(NULL);
	return 0;
}

static int load_conf(struct share_set *s, char *msg, size_t len)
{
	slurm_conf_t *conf = NULL;

	if (slurm_load_ctl_conf((time_t)0, &conf) != SLURM_SUCCESS) {
		snprintf(msg, len,
			 "cannot get the configuration from slurmctld: %s",
			 slurm_strerror(errno));
		return -1;
	}
	s->damp = conf->fs_dampening_factor ? conf->fs_dampening_factor : 1;
	s->consumed = ts_settings_consumed(conf->priority_params);
	if (conf->priority_flags & PRIORITY_FLAGS_FAIR_TREE) {
		s->fs_rule = FS_RULE_FAIR_TREE;
		s->algo = TS_FS_FAIR_TREE;
	} else {
		/* 25.11's sshare prints users' stored fs_factor, always */
		s->fs_rule = TS_SSHARE_STORED_FAIRSHARE ? FS_RULE_FAIR_TREE
							: FS_RULE_CLASSIC;
		s->algo = conf->priority_flags & PRIORITY_FLAGS_DEPTH_OBLIVIOUS
				  ? TS_FS_DEPTH_OBLIVIOUS
				  : TS_FS_CLASSIC;
	}
	ts_free_ctl_conf(conf);
	return 0;
}

static list_t *str_list(char *const *v, size_t n)
{
	list_t *l;
	size_t i;

	if (!n)
		return NULL;
	l = slurm_list_create(free);
	for (i = 0; i < n; i++)
		slurm_list_append(l, strdup(v[i]));
	return l;
}

/*
 * One REQUEST_SHARE_INFO.  RET 0 with *out set (NULL: an empty answer),
 * or -1 with msg.  From 23.02 through libslurm's own call, so that
 * slurm_msg_t stays inside the library (its layout moves inside a
 * series: 25.11.3); the -M cluster clusters.c selected is libslurm's
 * working_cluster_rec, which the call uses.  22.05 has no such call: the
 * request is built here.
 */
static int request(list_t *users, list_t *accounts, shares_response_msg_t **out,
		   char *msg, size_t len)
{
	shares_request_msg_t req = { .acct_list = accounts,
				     .user_list = users };
#if TS_LIBSLURM_GETS_SHARES
	*out = NULL;
	if (slurm_associations_get_shares(&req, out) != SLURM_SUCCESS) {
		snprintf(msg, len, "cannot get shares from slurmctld: %s",
			 slurm_strerror(errno));
		return -1;
	}
	return 0;
#else
	slurm_msg_t req_msg, resp_msg;
	int rc;

	*out = NULL;
	slurm_msg_t_init(&req_msg);
	slurm_msg_t_init(&resp_msg);
	req_msg.msg_type = REQUEST_SHARE_INFO;
	req_msg.data = &req;
	/* -M: the cluster clusters.c selected, as sshare passes it */
	if (slurm_send_recv_controller_msg(&req_msg, &resp_msg,
					   working_cluster_rec) < 0) {
		snprintf(msg, len, "cannot get shares from slurmctld: %s",
			 slurm_strerror(errno));
		return -1;
	}
	switch (resp_msg.msg_type) {
	case RESPONSE_SHARE_INFO:
		*out = resp_msg.data;
		return 0;
	case RESPONSE_SLURM_RC:
		rc = ((return_code_msg_t *)resp_msg.data)->return_code;
		slurm_free_return_code_msg(resp_msg.data);
		if (!rc)
			return 0;
		snprintf(msg, len, "slurmctld refused the shares request: %s",
			 slurm_strerror(rc));
		return -1;
	default:
		snprintf(
			msg, len,
			"slurmctld answered the shares request with message type %u",
			(unsigned)resp_msg.msg_type);
		return -1;
	}
#endif
}

/* "name=N,..." of the counts, INFINITE64 ones left out; NULL if none. */
static char *tres_string(char **names, const uint64_t *cnt, uint32_t n)
{
	char *s = NULL;
	size_t used = 0, cap = 0;
	uint32_t i;

	if (!names || !cnt)
		return NULL;
	for (i = 0; i < n; i++) {
		int k;

		if (cnt[i] == INFINITE64)
			continue;
		k = snprintf(NULL, 0, "%s%s=%llu", used ? "," : "",
			     names[i] ? names[i] : "",
			     (unsigned long long)cnt[i]);
		if (used + (size_t)k + 1 > cap) {
			char *tmp;

			cap = 2 * (used + (size_t)k + 1);
			if (!(tmp = realloc(s, cap))) {
				free(s);
				return NULL;
			}
			s = tmp;
		}
		used += (size_t)snprintf(
			s + used, cap - used, "%s%s=%llu", used ? "," : "",
			names[i] ? names[i] : "", (unsigned long long)cnt[i]);
	}
	return s;
}

/*
 * Copy the shares response's rows into s, TRES columns as sshare prints
 * them (minutes).  RET 0, or -1 out of memory.
 */
static int copy_rows(struct share_set *s, shares_response_msg_t *resp,
		     const struct cli *c)
{
	uint32_t n = resp->tres_cnt, i;
	uint64_t *tmp = calloc(n ? n : 1, sizeof(*tmp));
	list_itr_t *it;
	assoc_shares_object_t *o;
	int rc = 0;

	if (!tmp)
		return -1;
	if (!resp->assoc_shares_list) {
		free(tmp);
		return 0;
	}
	it = slurm_list_iterator_create(resp->assoc_shares_list);
	while ((o = slurm_list_next(it))) {
		struct share_row *r;

		/* sshare drops account rows for -U before printing */
		if (c->users_only && !o->user)
			continue;
		if (!(r = share_set_add(s))) {
			rc = -1;
			break;
		}
		r->id = o->assoc_id;
		r->cluster = share_set_strdup(o->cluster);
		r->name = share_set_strdup(o->name);
		r->parent = share_set_strdup(o->parent);
		r->partition = share_set_strdup(o->partition);
		r->is_user = o->user != 0;
		r->shares_raw = o->shares_raw;
		r->shares_norm = o->shares_norm;
		r->usage_raw = o->usage_raw;
		r->usage_norm = o->usage_norm;
		r->usage_efctv = o->usage_efctv;
		r->fs_factor = o->fs_factor;
		r->level_fs = o->level_fs;
		r->grp_tres_mins =
			tres_string(resp->tres_names, o->tres_grp_mins, n);
		for (i = 0; i < n && o->tres_run_secs; i++)
			tmp[i] = o->tres_run_secs[i] / 60;
		r->tres_run_mins = tres_string(
			resp->tres_names, o->tres_run_secs ? tmp : NULL, n);
		for (i = 0; i < n && o->usage_tres_raw; i++)
			tmp[i] = (uint64_t)(o->usage_tres_raw[i] / 60);
		r->grp_tres_raw = tres_string(
			resp->tres_names, o->usage_tres_raw ? tmp : NULL, n);
	}
	slurm_list_iterator_destroy(it);
	free(tmp);
	return rc;
}

struct id_node {
	uint32_t id;
	long node;
};

static int cmp_id(const void *a, const void *b)
{
	const struct id_node *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * An association's usage for the tree.  The RPC truncates RawUsage to an
 * integer, which on a young cluster (usage in the hundreds) moves a
 * factor in its third decimal.  NormUsage (usage / root's, as of the last
 * decay cycle) comes as a double: times the root's RawUsage it gives
 * every usage in full precision and on one common scale, and the
 * algorithms only use ratios of usage.  RawUsage where NormUsage is not
 * set (NO_VAL before the first cycle) or is capped at 1.
 */
static long double tree_usage(const assoc_shares_object_t *o, uint64_t root)
{
	if (o->usage_norm >= 0 && o->usage_norm < 1 && root)
		return (long double)o->usage_norm * (long double)root;
	return (long double)o->usage_raw;
}

/*
 * The tree from a full answer.  Slurm lists associations depth first,
 * so the account a row hangs from is on the path to the latest account:
 * a stack.  A row whose parent is not there (a partial PrivateData view)
 * is left out of the tree.
 */
static int build_tree(struct share_set *s, shares_response_msg_t *resp,
		      struct ts_error *err)
{
	size_t n = (size_t)slurm_list_count(resp->assoc_shares_list), top = 0;
	long *stack = malloc((n + 1) * sizeof(*stack));
	list_itr_t *it;
	assoc_shares_object_t *o;
	uint64_t root = 0;
	int rc = TS_OK;

	s->raw_usage = malloc((n + 1) * sizeof(*s->raw_usage));
	if (!stack || !s->raw_usage || ts_tree_init(&s->tree, n, err)) {
		free(stack);
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	}
	s->have_tree = 1;
	it = slurm_list_iterator_create(resp->assoc_shares_list);
	while ((o = slurm_list_next(it))) {
		long p = TS_NO_NODE, x;
		uint32_t shares = o->shares_raw;

		if (s->tree.n == 0) {
			if (o->user || o->parent)
				break; /* no root: no tree */
			root = o->usage_raw;
		} else {
			size_t k = top;
			const char *want = o->parent ? o->parent : "";

			while (k > 0 &&
			       strcmp(ts_tree_name(&s->tree,
						   (size_t)stack[k - 1]),
				      want))
				k--;
			if (!k)
				continue;
			top = k;
			p = stack[top - 1];
		}
		if (shares == SHARE_USE_PARENT)
			shares = TS_SHARES_PARENT;
		else if (shares == NO_VAL || shares == INFINITE)
			shares = 1;
		x = ts_tree_add(&s->tree, p, o->name, o->user != 0, shares,
				p < 0 ? (long double)root : tree_usage(o, root),
				o->assoc_id, err);
		if (x < 0) {
			rc = err->code;
			break;
		}
		s->raw_usage[x] = o->usage_raw;
		if (o->user)
			continue;
		/* an account: its children follow; keep its ancestors */
		stack[top++] = x;
	}
	slurm_list_iterator_destroy(it);
	free(stack);
	if (rc == TS_OK && s->tree.n)
		rc = ts_tree_finish(&s->tree, err);
	return rc;
}

/* Each displayed row's tree node, by association id. */
static int link_rows(struct share_set *s)
{
	size_t n = s->tree.n, i;
	struct id_node *map = malloc((n ? n : 1) * sizeof(*map));

	if (!map)
		return -1;
	for (i = 0; i < n; i++) {
		map[i].id = s->tree.id[i];
		map[i].node = (long)i;
	}
	qsort(map, n, sizeof(*map), cmp_id);
	for (i = 0; i < s->n; i++) {
		struct id_node key = { s->rows[i].id, -1 }, *hit;

		hit = n ? bsearch(&key, map, n, sizeof(*map), cmp_id) : NULL;
		s->rows[i].node = hit ? hit->node : -1;
	}
	free(map);
	return 0;
}

int shares_rpc_load(struct share_set *s, const struct cli *c, int need_tree,
		    char *msg, size_t len)
{
	shares_response_msg_t *shown = NULL, *all = NULL;
	struct ts_error err = TS_ERROR_INIT;
	list_t *users = NULL, *accounts = NULL;
	int rc = -1;

	if (shares_rpc_setup(c->verbose, msg, len))
		return -1;
	s->source = "controller";
	if (load_conf(s, msg, len))
		return -1;
	if (!c->all_users) {
		if (c->n_users) {
			users = str_list(c->users, c->n_users);
		} else {
			struct passwd *pw = getpwuid(getuid());

			if (pw) {
				users = slurm_list_create(free);
				slurm_list_append(users, strdup(pw->pw_name));
			}
		}
	}
	accounts = str_list(c->accounts, c->n_accounts);
	if (request(users, accounts, &shown, msg, len))
		goto out;
	if (!shown) {
		rc = 1;
		goto out;
	}
	if (copy_rows(s, shown, c)) {
		snprintf(msg, len, "out of memory");
		goto out;
	}
	if (need_tree) {
		if (users || accounts) {
			if (request(NULL, NULL, &all, msg, len))
				goto out;
		}
		if ((all || !(users || accounts)) &&
		    (all ? all : shown)->assoc_shares_list &&
		    (build_tree(s, all ? all : shown, &err) ||
		     (s->tree.n && extended_compute(s, -1, &s->main, &err)))) {
			snprintf(msg, len, "%s", err.msg);
			goto out;
		}
		if (link_rows(s)) {
			snprintf(msg, len, "out of memory");
			goto out;
		}
	}
	rc = 0;
out:
	if (users)
		slurm_list_destroy(users);
	if (accounts)
		slurm_list_destroy(accounts);
	if (shown)
		slurm_free_shares_response_msg(shown);
	if (all)
		slurm_free_shares_response_msg(all);
	return rc;
}

/* A formula is not ours to evaluate here: every name is a variable. */
static long formula_name(void *arg, const char *name, size_t len)
{
	(void)arg;
	return name && len ? 0 : -1;
}

int shares_rpc_diagnose_conf(struct diagnose_conf *d, char *msg, size_t len)
{
	struct ts_formula_vars vars = { .resolve = formula_name };
	struct ts_error err = TS_ERROR_INIT;
	struct ts_settings set;
	slurm_conf_t *conf = NULL;
	int rc = 0, k;

	memset(d, 0, sizeof(*d));
	if (slurm_load_ctl_conf((time_t)0, &conf) != SLURM_SUCCESS) {
		snprintf(msg, len,
			 "cannot get the configuration from slurmctld: %s",
			 slurm_strerror(errno));
		return -1;
	}
	if (ts_settings_parse(conf->priority_params, &vars, NULL, &set, &err)) {
		snprintf(msg, len, "PriorityParameters: %s", err.msg);
		rc = -1;
	} else {
		d->targets = set.fs_targets ? strdup(set.fs_targets) : NULL;
		d->ratio = set.fs_ratio;
		d->fs_weight = (double)set.fs_weight;
		for (k = 0; k < TS_CRED_N; k++)
			d->cred_weight[k] = (double)set.cred_weight[k];
		ts_settings_free(&set);
	}
	if (!rc && (!conf->state_save_location ||
		    asprintf(&d->state, "%s/treeshare_state",
			     conf->state_save_location) < 0)) {
		snprintf(msg, len, "%s", "slurmctld has no StateSaveLocation");
		d->state = NULL;
		rc = -1;
	}
	if (!rc && conf->cluster_name)
		d->cluster = strdup(conf->cluster_name);
	ts_free_ctl_conf(conf);
	if (rc)
		shares_rpc_diagnose_conf_free(d);
	return rc;
}

void shares_rpc_diagnose_conf_free(struct diagnose_conf *d)
{
	free(d->state);
	free(d->targets);
	free(d->cluster);
	memset(d, 0, sizeof(*d));
}
