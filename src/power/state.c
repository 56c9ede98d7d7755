/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state.c - the per-node power state and its text form (state.h).
 * Parsing is strict: an unknown version, field or value, a duplicate
 * node or a malformed number is TS_ECORRUPT naming the line, because a
 * misread claim could let more than max_concurrent_nodes nodes move.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "power/state.h"

static const char *const level_names[] = {
	[TS_POWER_UNKNOWN] = "unknown",
	[TS_POWER_ON] = "on",
	[TS_POWER_OFF] = "off",
};

static const char *const op_names[] = {
	[TS_POWER_OP_NONE] = "none",
	[TS_POWER_OP_ON] = "on",
	[TS_POWER_OP_OFF] = "off",
	[TS_POWER_OP_RAMP_UP] = "ramp_up",
	[TS_POWER_OP_RAMP_DOWN] = "ramp_down",
};

const char *ts_power_state_level_name(enum ts_power_level p)
{
	return (unsigned)p < 3 ? level_names[p] : "?";
}

const char *ts_power_state_op_name(enum ts_power_op op)
{
	return (unsigned)op < 5 ? op_names[op] : "?";
}

void ts_power_state_free(struct ts_power_state *st)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		free(st->node[i].name);
	free(st->node);
	st->node = NULL;
	st->n = st->cap = 0;
	st->next_ticket = 1;
}

long ts_power_state_find(const struct ts_power_state *st, const char *name)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		if (!strcmp(st->node[i].name, name))
			return (long)i;
	return -1;
}

long ts_power_state_get(struct ts_power_state *st, const char *name,
			struct ts_error *err)
{
	long i = ts_power_state_find(st, name);
	struct ts_power_node *nd;

	if (i >= 0)
		return i;
	if (st->n == st->cap) {
		size_t cap = st->cap ? 2 * st->cap : 16;
		struct ts_power_node *v = realloc(st->node, cap * sizeof(*v));

		if (!v) {
			ts_error_set(err, TS_ENOMEM, -1, "out of memory");
			return -1;
		}
		st->node = v;
		st->cap = cap;
	}
	nd = &st->node[st->n];
	memset(nd, 0, sizeof(*nd));
	nd->name = strdup(name);
	if (!nd->name) {
		ts_error_set(err, TS_ENOMEM, -1, "out of memory");
		return -1;
	}
	return (long)st->n++;
}

size_t ts_power_state_claims(const struct ts_power_state *st)
{
	size_t i, n = 0;

	for (i = 0; i < st->n; i++)
		if (st->node[i].op != TS_POWER_OP_NONE)
			n++;
	return n;
}

static int index_of_name(const char *const *names, int count, const char *v)
{
	int i;

	for (i = 0; i < count; i++)
		if (!strcmp(names[i], v))
			return i;
	return -1;
}

static int parse_ulong(const char *v, unsigned long long *out)
{
	char *end;

	if (!isdigit((unsigned char)*v))
		return -1;
	errno = 0;
	*out = strtoull(v, &end, 10);
	return (errno || *end) ? -1 : 0;
}

/* Set one "key=value" field of nd.  RET 0 or -1 (unknown or malformed). */
static int parse_field(struct ts_power_node *nd, char *kv)
{
	char *v = strchr(kv, '=');
	unsigned long long u;
	int e;

	if (!v)
		return -1;
	*v++ = '\0';
	if (!strcmp(kv, "power")) {
		e = index_of_name(level_names, 3, v);
		nd->power = (enum ts_power_level)e;
		return e < 0 ? -1 : 0;
	}
	if (!strcmp(kv, "op") || !strcmp(kv, "want")) {
		e = index_of_name(op_names, 5, v);
		if (kv[0] == 'o')
			nd->op = (enum ts_power_op)e;
		else
			nd->want = (enum ts_power_op)e;
		return e < 0 ? -1 : 0;
	}
	if (parse_ulong(v, &u))
		return -1;
	if (!strcmp(kv, "sleep"))
		nd->sleep = (long)u;
	else if (!strcmp(kv, "owner"))
		nd->owner = (long)u;
	else if (!strcmp(kv, "since"))
		nd->since = (time_t)u;
	else if (!strcmp(kv, "changed"))
		nd->changed = (time_t)u;
	else if (!strcmp(kv, "used"))
		nd->used = (time_t)u;
	else if (!strcmp(kv, "off_at"))
		nd->off_at = (time_t)u;
	else if (!strcmp(kv, "ticket"))
		nd->ticket = (unsigned long)u;
	else
		return -1;
	return 0;
}

/*
 * One line of the state file: line 1 the header (format version and
 * next_ticket), every other line a node and its key=value fields.
 * RET TS_OK, TS_ECORRUPT naming the line, or TS_ENOMEM.
 */
static int parse_state_line(struct ts_power_state *st, char *line, long lineno,
			    struct ts_error *err)
{
	char *save = NULL, *tok = strtok_r(line, " \t", &save);
	struct ts_power_node *nd;
	long i;

	if (!tok)
		return TS_OK; /* blank line */
	if (lineno == 1) {
		unsigned long long u;

		if (strcmp(tok, "node_power-state"))
			return ts_error_set(
				err, TS_ECORRUPT, lineno,
				"line 1: not a node_power state file");
		tok = strtok_r(NULL, " \t", &save);
		if (!tok || strcmp(tok, "1"))
			return ts_error_set(
				err, TS_ECORRUPT, lineno,
				"line 1: state format version %s, this node_power reads 1",
				tok ? tok : "(none)");
		tok = strtok_r(NULL, " \t", &save);
		if (!tok || strncmp(tok, "next_ticket=", 12) ||
		    parse_ulong(tok + 12, &u))
			return ts_error_set(err, TS_ECORRUPT, lineno,
					    "line 1: expected next_ticket=N");
		st->next_ticket = (unsigned long)u;
		return TS_OK;
	}
	if (ts_power_state_find(st, tok) >= 0)
		return ts_error_set(err, TS_ECORRUPT, lineno,
				    "line %ld: node %s appears twice", lineno,
				    tok);
	i = ts_power_state_get(st, tok, err);
	if (i < 0)
		return err ? err->code : TS_ENOMEM;
	nd = &st->node[i];
	while ((tok = strtok_r(NULL, " \t", &save))) {
		char copy[128]; /* for the message; a longer field ends "..." */

		if (snprintf(copy, sizeof(copy), "%s", tok) >=
		    (int)sizeof(copy))
			memcpy(copy + sizeof(copy) - 4, "...", 4);
		if (parse_field(nd, tok))
			return ts_error_set(err, TS_ECORRUPT, lineno,
					    "line %ld: bad field \"%s\"",
					    lineno, copy);
	}
	return TS_OK;
}

int ts_power_state_parse(struct ts_power_state *st, const char *buf, size_t len,
			 struct ts_error *err)
{
	char *text = malloc(len + 1), *line, *save = NULL;
	long lineno = 0;
	int rc = TS_OK;

	ts_power_state_free(st);
	if (!text)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	memcpy(text, buf, len);
	text[len] = '\0';
	if (len && strlen(text) != len)
		rc = ts_error_set(err, TS_ECORRUPT, -1,
				  "state file contains a NUL byte");
	if (len && rc == TS_OK && text[len - 1] != '\n')
		rc = ts_error_set(
			err, TS_ECORRUPT, -1,
			"state file does not end in a newline (truncated?)");
	/* Split by hand: strtok_r would skip empty lines and their numbers. */
	for (line = text; rc == TS_OK && line && *line; line = save) {
		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		rc = parse_state_line(st, line, ++lineno, err);
	}
	if (rc == TS_OK && len && lineno == 0)
		rc = ts_error_set(err, TS_ECORRUPT, 1, "line 1: missing");
	free(text);
	if (rc != TS_OK)
		ts_power_state_free(st);
	return rc;
}

char *ts_power_state_format(const struct ts_power_state *st,
			    struct ts_error *err)
{
	size_t i, cap = 64, len;
	char *s, *p;

	for (i = 0; i < st->n; i++)
		cap += strlen(st->node[i].name) + 256;
	s = malloc(cap);
	if (!s) {
		ts_error_set(err, TS_ENOMEM, -1, "out of memory");
		return NULL;
	}
	len = (size_t)snprintf(s, cap, "node_power-state %d next_ticket=%lu\n",
			       TS_POWER_STATE_VERSION, st->next_ticket);
	for (i = 0; i < st->n; i++) {
		const struct ts_power_node *nd = &st->node[i];

		p = s + len;
		len += (size_t)snprintf(
			p, cap - len,
			"%s power=%s sleep=%ld op=%s owner=%ld since=%lld changed=%lld used=%lld off_at=%lld want=%s ticket=%lu\n",
			nd->name, ts_power_state_level_name(nd->power),
			nd->sleep, ts_power_state_op_name(nd->op), nd->owner,
			(long long)nd->since, (long long)nd->changed,
			(long long)nd->used, (long long)nd->off_at,
			ts_power_state_op_name(nd->want), nd->ticket);
	}
	return s;
}
