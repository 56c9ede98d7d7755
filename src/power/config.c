/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * config.c - node_power's keys: names, types, ranges, defaults, checks.
 *
 * One table describes every scalar key; the setters for the structured
 * keys (nid_map, bmc, sleep_state_levels) keep their own checks.  Defaults
 * of the six PP-824 keys are seed 001's table: both enables False,
 * node_idle_limit 1800, min_node_down_delay 1800, max_jobs_analyze_limit
 * 100, max_concurrent_nodes 5.  Edge cases: "True"/"False" strings and
 * digit strings are accepted as the seed writes them; fractions, signs,
 * null and empty strings are refused with the key named.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "power/config.h"
#include "power/nid.h"

enum type { T_BOOL, T_INT, T_PATH, T_BACKEND, T_OFF_METHOD };

struct key {
	const char *name;
	enum ts_power_key_kind kind;
	enum type type;
	size_t off;    /* offsetof(struct ts_power_config, field) */
	long min, max; /* T_INT */
};

#define F(field) offsetof(struct ts_power_config, field)
#define DAY	 86400L
#define YEAR	 (365 * DAY)

static const struct key keys[] = {
	{ "power_ramp_rate_enable", TS_POWER_KEY_SCALAR, T_BOOL,
	  F(power_ramp_rate_enable), 0, 0 },
	{ "power_on_off_enable", TS_POWER_KEY_SCALAR, T_BOOL,
	  F(power_on_off_enable), 0, 0 },
	{ "node_idle_limit", TS_POWER_KEY_SCALAR, T_INT, F(node_idle_limit), 0,
	  YEAR },
	{ "min_node_down_delay", TS_POWER_KEY_SCALAR, T_INT,
	  F(min_node_down_delay), 0, YEAR },
	{ "max_jobs_analyze_limit", TS_POWER_KEY_SCALAR, T_INT,
	  F(max_jobs_analyze_limit), 1, 1000000 },
	{ "max_concurrent_nodes", TS_POWER_KEY_SCALAR, T_INT,
	  F(max_concurrent_nodes), 1, TS_HOSTLIST_MAX },
	{ "backend", TS_POWER_KEY_SCALAR, T_BACKEND, F(backend), 0, 0 },
	{ "capmc_path", TS_POWER_KEY_SCALAR, T_PATH, F(capmc_path), 0, 0 },
	{ "ipmitool_path", TS_POWER_KEY_SCALAR, T_PATH, F(ipmitool_path), 0,
	  0 },
	{ "ipmi_cipher_suite", TS_POWER_KEY_SCALAR, T_INT, F(ipmi_cipher_suite),
	  0, 17 },
	{ "power_off_method", TS_POWER_KEY_SCALAR, T_OFF_METHOD,
	  F(power_off_method), 0, 0 },
	{ "soft_off_timeout", TS_POWER_KEY_SCALAR, T_INT, F(soft_off_timeout),
	  1, 3600 },
	{ "sleep_state_levels", TS_POWER_KEY_LEVELS, T_INT, 0, 0, 0 },
	{ "sleep_state_pause", TS_POWER_KEY_SCALAR, T_INT, F(sleep_state_pause),
	  1, 10 },
	{ "poweroff_eligible", TS_POWER_KEY_HOSTLIST, T_INT, 0, 0, 0 },
	{ "log_file", TS_POWER_KEY_SCALAR, T_PATH, F(log_file), 0, 0 },
	{ "state_file", TS_POWER_KEY_SCALAR, T_PATH, F(state_file), 0, 0 },
	{ "command_timeout", TS_POWER_KEY_SCALAR, T_INT, F(command_timeout), 1,
	  3600 },
	{ "command_retries", TS_POWER_KEY_SCALAR, T_INT, F(command_retries), 0,
	  10 },
	{ "confirm_timeout", TS_POWER_KEY_SCALAR, T_INT, F(confirm_timeout), 1,
	  DAY },
	{ "poll_interval", TS_POWER_KEY_SCALAR, T_INT, F(poll_interval), 1,
	  60 },
	{ "max_wait", TS_POWER_KEY_SCALAR, T_INT, F(max_wait), 0, DAY },
	{ "slurm_check", TS_POWER_KEY_SCALAR, T_BOOL, F(slurm_check), 0, 0 },
	{ "nid_map", TS_POWER_KEY_NID_MAP, T_INT, 0, 0, 0 },
	{ "bmc", TS_POWER_KEY_BMC, T_INT, 0, 0, 0 },
};

static const struct key *find_power_key(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}

enum ts_power_key_kind ts_power_config_key_kind(const char *key)
{
	const struct key *k = find_power_key(key);

	return k ? k->kind : TS_POWER_KEY_UNKNOWN;
}

/*
 * Q(s): a value or key of the configuration file quoted for a message
 * (error.h), in the calling function's buffer q.
 */
#define Q(s) ts_quote(q, sizeof(q), (s), strlen(s))

static int set_path(char **dst, const char *key, const char *v,
		    struct ts_error *err)
{
	char q[TS_QUOTE_SIZE], *copy;

	if (v[0] != '/')
		return ts_error_set(
			err, TS_EINVAL, -1,
			"key \"%s\": \"%s\" is not an absolute path (slurmctld runs node_power without PATH)",
			key, ts_quote(q, sizeof(q), v, strlen(v)));
	copy = strdup(v);
	if (!copy)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	free(*dst);
	*dst = copy;
	return TS_OK;
}

int ts_power_config_init(struct ts_power_config *c, struct ts_error *err)
{
	static const long levels[] = { 1, 2, 3, 4 };
	const struct ts_hostlist empty = TS_HOSTLIST_INIT;
	int rc = TS_OK;

	memset(c, 0, sizeof(*c));
	c->poweroff_eligible = empty;
	c->power_ramp_rate_enable = 0;
	c->power_on_off_enable = 0;
	c->node_idle_limit = 1800;
	c->min_node_down_delay = 1800;
	c->max_jobs_analyze_limit = 100;
	c->max_concurrent_nodes = 5;
	c->backend = TS_POWER_BACKEND_CAPMC;
	c->ipmi_cipher_suite = 3;
	c->power_off_method = TS_POWER_OFF_SOFT;
	c->soft_off_timeout = 30;
	memcpy(c->sleep_state_levels, levels, sizeof(levels));
	c->n_levels = sizeof(levels) / sizeof(levels[0]);
	c->sleep_state_pause = 5;
	c->command_timeout = 30;
	c->command_retries = 2;
	c->confirm_timeout = 300;
	c->poll_interval = 2;
	c->max_wait = 60;
	c->slurm_check = 1;
	if (rc == TS_OK)
		rc = set_path(&c->capmc_path, "capmc_path",
			      "/opt/cray/capmc/default/bin/capmc", err);
	if (rc == TS_OK)
		rc = set_path(&c->ipmitool_path, "ipmitool_path",
			      "/usr/bin/ipmitool", err);
	if (rc == TS_OK)
		rc = set_path(&c->log_file, "log_file",
			      "/var/log/slurm/node_power.log", err);
	if (rc == TS_OK)
		rc = set_path(&c->state_file, "state_file",
			      "/var/lib/slurm/node_power.state", err);
	if (rc != TS_OK)
		ts_power_config_free(c);
	return rc;
}

void ts_power_config_free(struct ts_power_config *c)
{
	size_t i;

	free(c->capmc_path);
	free(c->ipmitool_path);
	free(c->log_file);
	free(c->state_file);
	ts_hostlist_free(&c->poweroff_eligible);
	for (i = 0; i < c->n_nid; i++)
		free(c->nid[i].node);
	free(c->nid);
	for (i = 0; i < c->n_bmc; i++) {
		free(c->bmc[i].node);
		free(c->bmc[i].address);
		free(c->bmc[i].user);
		free(c->bmc[i].password_file);
	}
	free(c->bmc);
	memset(c, 0, sizeof(*c));
}

static int parse_bool(const char *key, const char *text, int quoted, int *out,
		      struct ts_error *err)
{
	char q[TS_QUOTE_SIZE];
	if (!strcasecmp(text, "true") && (quoted || !strcmp(text, "true")))
		*out = 1;
	else if (!strcasecmp(text, "false") &&
		 (quoted || !strcmp(text, "false")))
		*out = 0;
	else
		return ts_error_set(
			err, TS_EINVAL, -1,
			"key \"%s\": %s%s%s is not a boolean (true, false, \"True\" or \"False\")",
			key, quoted ? "\"" : "", Q(text), quoted ? "\"" : "");
	return TS_OK;
}

/*
 * A whole number in min..max: digits, a '-' only unquoted, saturating
 * past max so a long run of digits is out of range, not wrapped.
 */
static int parse_int(const char *key, const char *text, int quoted, long min,
		     long max, long *out, struct ts_error *err)
{
	char q[TS_QUOTE_SIZE];
	const char *p = text;
	long long v = 0;

	if (*p == '-' && !quoted)
		p++;
	if (!*p)
		goto not_int;
	for (; *p; p++) {
		if (!isdigit((unsigned char)*p))
			goto not_int;
		v = v * 10 + (*p - '0');
		if (v > (long long)max + 1)
			v = (long long)max + 1; /* saturate */
	}
	if (text[0] == '-')
		v = -v;
	if (v < min || v > max)
		return ts_error_set(err, TS_ERANGE, -1,
				    "key \"%s\": %s is out of range %ld..%ld",
				    key, Q(text), min, max);
	*out = (long)v;
	return TS_OK;
not_int:
	return ts_error_set(err, TS_EINVAL, -1,
			    "key \"%s\": %s%s%s is not a whole number", key,
			    quoted ? "\"" : "", Q(text), quoted ? "\"" : "");
}

static int need_string(const char *key, const char *text, int quoted,
		       struct ts_error *err)
{
	char q[TS_QUOTE_SIZE];
	if (!quoted || !*text)
		return ts_error_set(err, TS_EINVAL, -1,
				    "key \"%s\": %s is not a non-empty string",
				    key, quoted ? "\"\"" : Q(text));
	return TS_OK;
}

/* One of two words, as a JSON string.  OUT *second: 1 if it is second. */
static int parse_choice(const char *key, const char *text, int quoted,
			const char *first, const char *other, int *second,
			struct ts_error *err)
{
	char q[TS_QUOTE_SIZE];
	if (quoted && !strcmp(text, first))
		*second = 0;
	else if (quoted && !strcmp(text, other))
		*second = 1;
	else
		return ts_error_set(
			err, TS_EINVAL, -1,
			"key \"%s\": \"%s\" is not \"%s\" or \"%s\"", key,
			Q(text), first, other);
	return TS_OK;
}

int ts_power_config_set(struct ts_power_config *c, const char *key,
			const char *text, int quoted, struct ts_error *err)
{
	char q[TS_QUOTE_SIZE];
	const struct key *k = find_power_key(key);
	char *field;
	int rc, second;

	if (!k)
		return ts_error_set(err, TS_EKEY, -1, "unknown key \"%s\"",
				    Q(key));
	if (k->kind == TS_POWER_KEY_HOSTLIST) {
		struct ts_hostlist hl = TS_HOSTLIST_INIT;
		size_t i;

		if (!quoted)
			return ts_error_set(
				err, TS_EINVAL, -1,
				"key \"%s\": %s is not a host list string", key,
				Q(text));
		rc = ts_hostlist_expand(&hl, text, err);
		for (i = 0; rc == TS_OK && i < hl.n; i++)
			rc = ts_hostlist_add(&c->poweroff_eligible, hl.name[i],
					     err);
		ts_hostlist_free(&hl);
		if (rc != TS_OK && err)
			err->index = -1;
		return rc;
	}
	if (k->kind != TS_POWER_KEY_SCALAR)
		return ts_error_set(
			err, TS_EINVAL, -1,
			"key \"%s\": %s%s%s is not a JSON %s", key,
			quoted ? "\"" : "", Q(text), quoted ? "\"" : "",
			k->kind == TS_POWER_KEY_LEVELS ? "array" : "object");
	field = (char *)c + k->off;
	switch (k->type) {
	case T_BOOL:
		return parse_bool(key, text, quoted, (int *)field, err);
	case T_INT:
		return parse_int(key, text, quoted, k->min, k->max,
				 (long *)field, err);
	case T_PATH:
		rc = need_string(key, text, quoted, err);
		return rc ? rc : set_path((char **)field, key, text, err);
	case T_BACKEND:
		rc = parse_choice(key, text, quoted, "capmc", "ipmi", &second,
				  err);
		if (rc == TS_OK)
			c->backend = second ? TS_POWER_BACKEND_IPMI
					    : TS_POWER_BACKEND_CAPMC;
		return rc;
	case T_OFF_METHOD:
		rc = parse_choice(key, text, quoted, "soft", "hard", &second,
				  err);
		if (rc == TS_OK)
			c->power_off_method =
				second ? TS_POWER_OFF_HARD : TS_POWER_OFF_SOFT;
		return rc;
	}
	return TS_OK;
}

int ts_power_config_set_levels(struct ts_power_config *c, const long *v,
			       size_t n, struct ts_error *err)
{
	size_t i;

	if (n < 1 || n > TS_POWER_MAX_LEVELS)
		return ts_error_set(
			err, TS_ERANGE, -1,
			"key \"sleep_state_levels\": %zu levels, need 1..%d", n,
			TS_POWER_MAX_LEVELS);
	for (i = 0; i < n; i++) {
		if (v[i] < 1 || v[i] > 99)
			return ts_error_set(
				err, TS_ERANGE, (long)i + 1,
				"key \"sleep_state_levels\": level %ld is out of range 1..99",
				v[i]);
		if (i && v[i] <= v[i - 1])
			return ts_error_set(
				err, TS_EINVAL, (long)i + 1,
				"key \"sleep_state_levels\": %ld after %ld, levels must ascend",
				v[i], v[i - 1]);
	}
	memcpy(c->sleep_state_levels, v, n * sizeof(*v));
	c->n_levels = n;
	return TS_OK;
}

static int expand_key(const char *key, const char *expr, struct ts_hostlist *hl,
		      struct ts_error *err)
{
	struct ts_error e = TS_ERROR_INIT;
	char q[TS_QUOTE_SIZE];

	if (ts_hostlist_expand(hl, expr, &e) != TS_OK)
		return ts_error_set(err, e.code, -1, "key \"%s\": \"%s\": %s",
				    key, Q(expr), e.msg);
	if (!hl->n)
		return ts_error_set(err, TS_EINVAL, -1,
				    "key \"%s\": empty host list \"\"", key);
	return TS_OK;
}

int ts_power_config_add_nid(struct ts_power_config *c, const char *expr,
			    long first, struct ts_error *err)
{
	struct ts_hostlist hl = TS_HOSTLIST_INIT;
	struct ts_power_nid *v;
	size_t i, j;
	int rc = expand_key("nid_map", expr, &hl, err);

	if (rc != TS_OK)
		goto out;
	if (first < 0 || first > TS_NID_MAX - (long)hl.n) {
		rc = ts_error_set(
			err, TS_ERANGE, -1,
			"key \"nid_map\": \"%s\": nid %ld is out of range 0..%ld",
			expr, first, TS_NID_MAX);
		goto out;
	}
	v = realloc(c->nid, (c->n_nid + hl.n) * sizeof(*v));
	if (!v) {
		rc = ts_error_set(err, TS_ENOMEM, -1, "out of memory");
		goto out;
	}
	c->nid = v;
	for (i = 0; i < hl.n; i++) {
		long nid = first + (long)i;

		for (j = 0; j < c->n_nid; j++) {
			if (!strcmp(c->nid[j].node, hl.name[i])) {
				rc = ts_error_set(
					err, TS_EINVAL, -1,
					"key \"nid_map\": node %s is mapped twice",
					hl.name[i]);
				goto out;
			}
			if (c->nid[j].nid == nid) {
				rc = ts_error_set(
					err, TS_EINVAL, -1,
					"key \"nid_map\": nid %ld is given to %s and %s",
					nid, c->nid[j].node, hl.name[i]);
				goto out;
			}
		}
		c->nid[c->n_nid].node = hl.name[i];
		c->nid[c->n_nid].nid = nid;
		hl.name[i] = NULL;
		c->n_nid++;
	}
out:
	for (i = 0; i < hl.n; i++)
		free(hl.name[i]);
	hl.n = 0;
	ts_hostlist_free(&hl);
	return rc;
}

/* address with every "%n" replaced by node; malloc()ed or NULL. */
static char *subst_node(const char *address, const char *node)
{
	size_t len = strlen(address) + 1, nl = strlen(node);
	const char *p;
	char *s, *q;

	for (p = address; (p = strstr(p, "%n")); p += 2)
		len += nl;
	s = malloc(len);
	if (!s)
		return NULL;
	for (p = address, q = s; *p;) {
		if (p[0] == '%' && p[1] == 'n') {
			memcpy(q, node, nl);
			q += nl;
			p += 2;
		} else {
			*q++ = *p++;
		}
	}
	*q = '\0';
	return s;
}

int ts_power_config_add_bmc(struct ts_power_config *c, const char *expr,
			    const char *address, long port, const char *user,
			    const char *password_file, struct ts_error *err)
{
	struct ts_hostlist hl = TS_HOSTLIST_INIT;
	struct ts_power_bmc *v;
	char q[TS_QUOTE_SIZE];
	size_t i;
	int rc = expand_key("bmc", expr, &hl, err);

	if (rc != TS_OK)
		goto out;
	if (!address || !*address || !user || !password_file) {
		rc = ts_error_set(
			err, TS_EINVAL, -1,
			"key \"bmc\": \"%s\": needs \"address\", \"user\" and \"password_file\"",
			expr);
		goto out;
	}
	if (password_file[0] != '/') {
		rc = ts_error_set(
			err, TS_EINVAL, -1,
			"key \"bmc\": \"%s\": password_file \"%s\" is not an absolute path",
			expr,
			ts_quote(q, sizeof(q), password_file,
				 strlen(password_file)));
		goto out;
	}
	if (port < 0 || port > 65535) {
		rc = ts_error_set(
			err, TS_ERANGE, -1,
			"key \"bmc\": \"%s\": port %ld is out of range 1..65535",
			expr, port);
		goto out;
	}
	v = realloc(c->bmc, (c->n_bmc + hl.n) * sizeof(*v));
	if (!v) {
		rc = ts_error_set(err, TS_ENOMEM, -1, "out of memory");
		goto out;
	}
	c->bmc = v;
	for (i = 0; i < hl.n; i++) {
		struct ts_power_bmc *b = &c->bmc[c->n_bmc];

		if (ts_power_config_bmc(c, hl.name[i])) {
			rc = ts_error_set(
				err, TS_EINVAL, -1,
				"key \"bmc\": node %s has two BMC entries",
				hl.name[i]);
			goto out;
		}
		b->node = strdup(hl.name[i]);
		b->address = subst_node(address, hl.name[i]);
		b->port = port ? port : 623;
		b->user = strdup(user);
		b->password_file = strdup(password_file);
		c->n_bmc++;
		if (!b->node || !b->address || !b->user || !b->password_file) {
			rc = ts_error_set(err, TS_ENOMEM, -1, "out of memory");
			goto out;
		}
	}
out:
	ts_hostlist_free(&hl);
	return rc;
}

int ts_power_config_check_secret_mode(const char *node, const char *path,
				      unsigned mode, struct ts_error *err)
{
	if (mode & 044)
		return ts_error_set(
			err, TS_EINVAL, -1,
			"bmc %s: password_file %s has mode %04o: readable by group or others (chmod 600 %s)",
			node, path, mode & 07777, path);
	return TS_OK;
}

int ts_power_config_eligible(const struct ts_power_config *c, const char *node)
{
	return ts_hostlist_find(&c->poweroff_eligible, node) >= 0;
}

long ts_power_config_nid(const struct ts_power_config *c, const char *node)
{
	size_t i;

	for (i = 0; i < c->n_nid; i++)
		if (!strcmp(c->nid[i].node, node))
			return c->nid[i].nid;
	return ts_nid_from_name(node);
}

const struct ts_power_bmc *ts_power_config_bmc(const struct ts_power_config *c,
					       const char *node)
{
	size_t i;

	for (i = 0; i < c->n_bmc; i++)
		if (!strcmp(c->bmc[i].node, node))
			return &c->bmc[i];
	return NULL;
}
