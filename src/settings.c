/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * settings.c - PriorityParameters keys into struct ts_settings (rules in
 * settings.h), the PriorityFlags agreement check and the canonical text.
 *
 * Each key has a handler that reads its value into a scratch struct; the
 * cross-key rules run after all keys.  Only a complete success is copied
 * to the caller, so a bad reconfigure leaves the running settings alone.
 *
 * Edge cases: a key given twice is refused by the params parser; "key="
 * is "empty value"; usage_window=0 is refused (a window of no length);
 * usage_decay=0 is allowed (only the current window counts: 0^0 = 1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "decimal.h"
#include "duration.h"
#include "params.h"
#include "settings.h"

struct ctx {
	struct ts_settings *s;
	const struct ts_param *p;
	const struct ts_formula_vars *vars;
	const struct ts_logger *lg;
	struct ts_error *err;
};

/* "KEY=VALUE (column N): reason", the value cut at 40 characters. */
static int bad_value(const struct ctx *c, int code, const char *reason)
{
	const struct ts_param *p = c->p;

	return ts_error_set(c->err, code, p->value_col,
			    TS_QUOTE_FMT "=" TS_QUOTE_FMT " (column %ld): %s",
			    TS_QUOTE(p->key), TS_QUOTE(p->value), p->value_col,
			    reason);
}

static const char *const algo_names[] = {
	[TS_FS_CLASSIC] = "classic",
	[TS_FS_DEPTH_OBLIVIOUS] = "depth_oblivious",
	[TS_FS_FAIR_TREE] = "fair_tree",
	[TS_FS_PBS] = "pbs",
};
#define N_ALGOS (sizeof(algo_names) / sizeof(algo_names[0]))

static int set_fairshare(struct ctx *c)
{
	size_t i;

	for (i = 0; i < N_ALGOS; i++)
		if (!strcasecmp(c->p->value, algo_names[i])) {
			c->s->fairshare = (enum ts_fs_algo)i;
			return TS_OK;
		}
	return bad_value(c, TS_EINVAL,
			 "expected classic, depth_oblivious, fair_tree or pbs");
}

static int set_usage_window(struct ctx *c)
{
	struct ts_error derr = TS_ERROR_INIT;
	uint64_t secs;
	char why[sizeof(derr.msg) + 32];

	if (ts_duration_parse(c->p->value, TS_SETTINGS_WINDOW_MAX, &secs,
			      &derr)) {
		if (derr.code == TS_ERANGE)
			snprintf(why, sizeof(why),
				 "must be at most 365 days (%u seconds)",
				 TS_SETTINGS_WINDOW_MAX);
		else
			snprintf(why, sizeof(why), "%s", derr.msg);
		return bad_value(c, derr.code, why);
	}
	if (secs == 0)
		return bad_value(c, TS_ERANGE, "must be longer than 0 seconds");
	c->s->usage_window = (uint32_t)secs;
	return TS_OK;
}

static int set_usage_depth(struct ctx *c)
{
	const char *v = c->p->value;
	unsigned long n = 0;
	size_t i;

	for (i = 0; v[i] >= '0' && v[i] <= '9'; i++)
		if (n <= TS_SETTINGS_DEPTH_MAX) /* saturates, cannot wrap */
			n = n * 10 + (unsigned long)(v[i] - '0');
	if (!i || v[i] != '\0')
		return bad_value(c, TS_EINVAL,
				 "must be a whole number from 1 to 64");
	if (n < 1 || n > TS_SETTINGS_DEPTH_MAX)
		return bad_value(c, TS_ERANGE,
				 "must be a whole number from 1 to 64");
	c->s->usage_depth = (uint32_t)n;
	return TS_OK;
}

static int set_usage_decay(struct ctx *c)
{
	const char *v = c->p->value;
	size_t n = ts_decimal_scan(v);
	double d;

	if (!n || v[n] != '\0' || ts_decimal_value(v, n, &d))
		return bad_value(c, TS_EINVAL,
				 "must be a decimal number from 0 to 1");
	if (d > 1.0)
		return bad_value(c, TS_ERANGE,
				 "must be a decimal number from 0 to 1");
	c->s->usage_decay = d;
	return TS_OK;
}

/* An absolute path into *to (fs_targets=, fs_import=). */
static int set_path_value(struct ctx *c, char **to)
{
	const char *v = c->p->value;

	if (v[0] != '/')
		return bad_value(c, TS_EINVAL, "must be an absolute path");
	if (strlen(v) >= 4096)
		return bad_value(c, TS_ERANGE,
				 "path longer than 4095 characters");
	free(*to);
	*to = strdup(v);
	if (!*to)
		return ts_error_set(c->err, TS_ENOMEM, -1, "out of memory");
	return TS_OK;
}

static int set_fs_targets(struct ctx *c)
{
	return set_path_value(c, &c->s->fs_targets);
}

static int set_fs_import(struct ctx *c)
{
	return set_path_value(c, &c->s->fs_import);
}

static int set_fs_policy(struct ctx *c)
{
	if (!strcasecmp(c->p->value, "difference"))
		c->s->fs_ratio = false;
	else if (!strcasecmp(c->p->value, "ratio"))
		c->s->fs_ratio = true;
	else
		return bad_value(c, TS_EINVAL, "expected difference or ratio");
	return TS_OK;
}

static int set_formula(struct ctx *c)
{
	struct ts_error ferr = TS_ERROR_INIT;
	long col;

	if (ts_formula_compile(c->p->value, c->vars, c->lg, &c->s->formula,
			       &ferr)) {
		/* the formula's column, mapped onto the whole text */
		col = c->p->value_col + (c->p->quote ? 1 : 0) +
		      (ferr.index > 0 ? ferr.index - 1 : 0);
		return ts_error_set(c->err, ferr.code, col, "formula: %s",
				    ferr.msg);
	}
	c->s->formula_text = strdup(c->p->value);
	if (!c->s->formula_text)
		return ts_error_set(c->err, TS_ENOMEM, -1, "out of memory");
	return TS_OK;
}

/* usage_metric's words; RET 0, or -1 for another. */
static int metric_word(const char *v, bool *consumed)
{
	if (!strcasecmp(v, "dedicated"))
		*consumed = false;
	else if (!strcasecmp(v, "consumed"))
		*consumed = true;
	else
		return -1;
	return 0;
}

static int set_usage_metric(struct ctx *c)
{
	if (metric_word(c->p->value, &c->s->consumed))
		return bad_value(c, TS_EINVAL,
				 "expected dedicated or consumed");
	return TS_OK;
}

/* The key of credential type c's weight: "fs_user_weight", ... */
static void cred_weight_key(enum ts_cred c, char *buf, size_t size)
{
	snprintf(buf, size, "fs_%s_weight", ts_cred_name(c));
}

/* A weight: a whole number, optionally signed, within the bound. */
static int parse_weight(struct ctx *c, long *out)
{
	const char *v = c->p->value;
	size_t i = (v[0] == '-' || v[0] == '+') ? 1 : 0, start = i;
	long n = 0;

	for (; v[i] >= '0' && v[i] <= '9'; i++)
		if (n <= TS_SETTINGS_WEIGHT_MAX) /* saturates, cannot wrap */
			n = n * 10 + (v[i] - '0');
	if (i == start || v[i] != '\0')
		return bad_value(
			c, TS_EINVAL,
			"must be a whole number from -1000000 to 1000000");
	if (n > TS_SETTINGS_WEIGHT_MAX)
		return bad_value(
			c, TS_ERANGE,
			"must be a whole number from -1000000 to 1000000");
	*out = v[0] == '-' ? -n : n;
	return TS_OK;
}

static int set_fs_weight(struct ctx *c)
{
	return parse_weight(c, &c->s->fs_weight);
}

static int set_cred_weight(struct ctx *c)
{
	char key[32];
	int k;

	for (k = 0; k < TS_CRED_N; k++) {
		cred_weight_key((enum ts_cred)k, key, sizeof(key));
		if (!strcasecmp(c->p->key, key))
			return parse_weight(c, &c->s->cred_weight[k]);
	}
	return bad_value(c, TS_EKEY, "no such credential weight");
}

static const struct key {
	const char *name;
	enum ts_settings_key bit;
	int (*set)(struct ctx *c);
} keys[] = {
	{ "fairshare", TS_SET_FAIRSHARE, set_fairshare },
	{ "usage_window", TS_SET_USAGE_WINDOW, set_usage_window },
	{ "usage_depth", TS_SET_USAGE_DEPTH, set_usage_depth },
	{ "usage_decay", TS_SET_USAGE_DECAY, set_usage_decay },
	{ "fs_targets", TS_SET_FS_TARGETS, set_fs_targets },
	{ "fs_policy", TS_SET_FS_POLICY, set_fs_policy },
	{ "formula", TS_SET_FORMULA, set_formula },
	{ "usage_metric", TS_SET_USAGE_METRIC, set_usage_metric },
	{ "fs_weight", TS_SET_FS_WEIGHT, set_fs_weight },
	{ "fs_user_weight", TS_SET_FS_CRED_WEIGHT, set_cred_weight },
	{ "fs_group_weight", TS_SET_FS_CRED_WEIGHT, set_cred_weight },
	{ "fs_account_weight", TS_SET_FS_CRED_WEIGHT, set_cred_weight },
	{ "fs_qos_weight", TS_SET_FS_CRED_WEIGHT, set_cred_weight },
	{ "fs_class_weight", TS_SET_FS_CRED_WEIGHT, set_cred_weight },
	{ "fs_import", TS_SET_FS_IMPORT, set_fs_import },
};
#define N_KEYS (sizeof(keys) / sizeof(keys[0]))

static const struct key *find_setting_key(const char *name)
{
	size_t i;

	for (i = 0; i < N_KEYS; i++)
		if (!strcasecmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}

/* A key that only means something with another: name both. */
static int needs(const struct ts_params *list, unsigned given, const char *key,
		 unsigned need_bit, const char *need, struct ts_error *err)
{
	const struct ts_param *p = ts_params_find(list, key);

	if (!p || (given & need_bit))
		return TS_OK;
	return ts_error_set(
		err, TS_EINVAL, p->key_col,
		"%s (column %ld) needs %s: without it %s has no effect", key,
		p->key_col, need, key);
}

void ts_settings_init(struct ts_settings *s)
{
	memset(s, 0, sizeof(*s));
	s->fairshare = TS_FS_FAIR_TREE;
	s->usage_depth = TS_SETTINGS_DEPTH_DEFAULT;
	s->usage_decay = TS_SETTINGS_DECAY_DEFAULT;
	s->fs_weight = TS_SETTINGS_FS_WEIGHT_DEFAULT;
}

void ts_settings_free(struct ts_settings *s)
{
	free(s->fs_targets);
	free(s->fs_import);
	free(s->formula_text);
	ts_formula_free(s->formula);
	ts_settings_init(s);
}

int ts_settings_parse(const char *text, const struct ts_formula_vars *vars,
		      const struct ts_logger *lg, struct ts_settings *out,
		      struct ts_error *err)
{
	struct ts_params list;
	struct ts_settings s;
	struct ctx c = { .s = &s, .vars = vars, .lg = lg, .err = err };
	size_t i;
	int rc;

	ts_settings_init(out);
	ts_settings_init(&s);
	rc = ts_params_parse(text, &list, err);
	if (rc)
		return rc;
	for (i = 0; i < list.n && !rc; i++) {
		const struct key *k = find_setting_key(list.item[i].key);

		c.p = &list.item[i];
		if (!k) {
			rc = ts_error_set(
				err, TS_EKEY, c.p->key_col,
				TS_QUOTE_FMT
				" (column %ld): unknown key; known keys are fairshare, usage_window, usage_depth, usage_decay, fs_targets, fs_policy, formula, usage_metric, fs_weight, fs_user_weight, fs_group_weight, fs_account_weight, fs_qos_weight, fs_class_weight and fs_import",
				TS_QUOTE(c.p->key), c.p->key_col);
		} else if (!c.p->value[0]) {
			rc = bad_value(&c, TS_EINVAL, "empty value");
		} else {
			rc = k->set(&c);
			s.given |= k->bit;
		}
	}
	if (!rc)
		rc = needs(&list, s.given, "usage_depth", TS_SET_USAGE_WINDOW,
			   "usage_window", err);
	if (!rc)
		rc = needs(&list, s.given, "usage_decay", TS_SET_USAGE_WINDOW,
			   "usage_window", err);
	if (!rc)
		rc = needs(&list, s.given, "fs_import", TS_SET_USAGE_WINDOW,
			   "usage_window", err);
	if (!rc)
		rc = needs(&list, s.given, "fs_policy", TS_SET_FS_TARGETS,
			   "fs_targets", err);
	for (i = 0; i < N_KEYS && !rc; i++)
		if (keys[i].bit & (TS_SET_FS_WEIGHT | TS_SET_FS_CRED_WEIGHT))
			rc = needs(&list, s.given, keys[i].name,
				   TS_SET_FS_TARGETS, "fs_targets", err);
	ts_params_free(&list);
	if (rc) {
		ts_settings_free(&s);
		return rc;
	}
	*out = s;
	return TS_OK;
}

int ts_settings_check_flags(const struct ts_settings *s, bool fair_tree,
			    bool depth_oblivious, struct ts_error *err)
{
	const char *flag = NULL;

	if (!(s->given & TS_SET_FAIRSHARE))
		return TS_OK;
	if (depth_oblivious && s->fairshare != TS_FS_DEPTH_OBLIVIOUS)
		flag = "DEPTH_OBLIVIOUS";
	else if (!depth_oblivious && !fair_tree &&
		 s->fairshare == TS_FS_FAIR_TREE)
		flag = "NO_FAIR_TREE";
	if (!flag)
		return TS_OK;
	return ts_error_set(
		err, TS_EINVAL, -1,
		"fairshare=%s contradicts PriorityFlags=%s: remove one of them",
		algo_names[s->fairshare], flag);
}

bool ts_settings_consumed(const char *text)
{
	struct ts_error err = TS_ERROR_INIT;
	struct ts_params list;
	const struct ts_param *p;
	bool consumed = false;

	if (ts_params_parse(text, &list, &err))
		return false;
	p = ts_params_find(&list, "usage_metric");
	if (p && metric_word(p->value, &consumed))
		consumed = false;
	ts_params_free(&list);
	return consumed;
}

enum ts_fs_algo ts_settings_algo(const struct ts_settings *s, bool fair_tree,
				 bool depth_oblivious)
{
	if (s->given & TS_SET_FAIRSHARE)
		return s->fairshare;
	if (depth_oblivious)
		return TS_FS_DEPTH_OBLIVIOUS;
	return fair_tree ? TS_FS_FAIR_TREE : TS_FS_CLASSIC;
}

/* Text appended at len; len keeps counting past the end of buf. */
struct out {
	char *buf;
	size_t size, len;
};

/* Where the next byte goes and how much room (NUL included) is left. */
static char *tail(struct out *o, size_t *room)
{
	static char none[1];

	if (o->len < o->size) {
		*room = o->size - o->len;
		return o->buf + o->len;
	}
	*room = 0;
	return none;
}

static void append_text(struct out *o, const char *str)
{
	size_t room;
	char *at = tail(o, &room);

	o->len += (size_t)snprintf(at, room, "%s", str);
}

/* ",key=" (no comma first) */
static void put_key(struct out *o, const char *key)
{
	if (o->len)
		append_text(o, ",");
	append_text(o, key);
	append_text(o, "=");
}

int ts_settings_render(const struct ts_settings *s, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };
	char v[64];
	size_t room;
	char *at;

	if (size)
		buf[0] = '\0';
	if (s->given & TS_SET_FAIRSHARE) {
		put_key(&o, "fairshare");
		append_text(&o, algo_names[s->fairshare]);
	}
	if (s->given & TS_SET_USAGE_WINDOW) {
		put_key(&o, "usage_window");
		ts_duration_format(s->usage_window, v, sizeof(v));
		append_text(&o, v);
		put_key(&o, "usage_depth");
		snprintf(v, sizeof(v), "%u", s->usage_depth);
		append_text(&o, v);
		put_key(&o, "usage_decay");
		ts_decimal_format(s->usage_decay, v, sizeof(v));
		append_text(&o, v);
	}
	if (s->given & TS_SET_FS_TARGETS) {
		put_key(&o, "fs_targets");
		at = tail(&o, &room);
		o.len += (size_t)ts_params_quote(s->fs_targets, at, room);
		put_key(&o, "fs_policy");
		append_text(&o, s->fs_ratio ? "ratio" : "difference");
	}
	if (s->formula) {
		/* canonical text has no quote or backslash to escape */
		put_key(&o, "formula");
		append_text(&o, "\"");
		at = tail(&o, &room);
		o.len += (size_t)ts_formula_print(s->formula, at, room);
		append_text(&o, "\"");
	}
	if (s->given & TS_SET_USAGE_METRIC) {
		put_key(&o, "usage_metric");
		append_text(&o, s->consumed ? "consumed" : "dedicated");
	}
	if (s->given & (TS_SET_FS_WEIGHT | TS_SET_FS_CRED_WEIGHT)) {
		int k;

		put_key(&o, "fs_weight");
		snprintf(v, sizeof(v), "%ld", s->fs_weight);
		append_text(&o, v);
		for (k = 0; k < TS_CRED_N; k++) {
			char key[32];

			cred_weight_key((enum ts_cred)k, key, sizeof(key));
			put_key(&o, key);
			snprintf(v, sizeof(v), "%ld", s->cred_weight[k]);
			append_text(&o, v);
		}
	}
	if (s->given & TS_SET_FS_IMPORT) {
		put_key(&o, "fs_import");
		at = tail(&o, &room);
		o.len += (size_t)ts_params_quote(s->fs_import, at, room);
	}
	return (int)o.len;
}
