/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fixture.c - parse a ts-harness fixture (format: ts-harness(1)).
 *
 * One statement per line, '#' to end of line is a comment, tokens are
 * separated by blanks.  Association lines use the shared tree-file syntax
 * (KIND NAME PARENT SHARES [USAGE]) plus optional key=value attributes;
 * "tree PATH" includes a tree file.  Every error names the file, line and
 * column and nothing is guessed: an unknown keyword or key is an error.
 */
#include <errno.h>
#include <float.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"

#define MAX_TOKENS	  64
#define MAX_INCLUDE_DEPTH 4

struct token {
	char *text;
	int col; /* 1-based column in the line */
};

struct parser {
	struct th_fixture *fx;
	const char *path; /* file being read (fixture or tree) */
	long line;
	struct token tok[MAX_TOKENS];
	int n_tok;
	int depth;	   /* include depth */
	bool normal_given; /* "qos normal ..." was read */
	bool now_used;	   /* a relative time was resolved */
};

static int fail(struct parser *p, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct parser *p, int col, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%ld:%d: ", p->path, p->line, col);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

static void *grow(void *array, size_t n, size_t size)
{
	void *p = realloc(array, (n + 1) * size);

	if (!p) {
		fprintf(stderr, "ts-harness: out of memory\n");
		exit(2);
	}
	memset((char *)p + n * size, 0, size);
	return p;
}

static char *dup_str(const char *s)
{
	char *d = strdup(s);

	if (!d) {
		fprintf(stderr, "ts-harness: out of memory\n");
		exit(2);
	}
	return d;
}

static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_u32(const char *s, uint32_t *out)
{
	uint64_t v;

	/* UINT32_MAX and NO_VAL-like values are reserved by Slurm */
	if (parse_u64(s, UINT32_MAX - 3, &v))
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int parse_i32(const char *s, int32_t lo, int32_t hi, int32_t *out)
{
	char *end;
	long v;

	if (!*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -1;
	*out = (int32_t)v;
	return 0;
}

static int parse_ldouble(const char *s, long double *out)
{
	char *end;
	long double v;

	if (!*s)
		return -1;
	errno = 0;
	v = strtold(s, &end);
	if (errno || *end || !isfinite(v) || v < 0)
		return -1;
	*out = v;
	return 0;
}

int th_fixture_time(const char *text, time_t now, time_t *out)
{
	uint64_t v;
	long long off;
	char *end;

	if (!strncmp(text, "now", 3)) {
		text += 3;
		if (!*text) {
			*out = now;
			return 0;
		}
		if (*text != '-' && *text != '+')
			return -1;
		errno = 0;
		off = strtoll(text, &end, 10);
		if (errno || *end || text[1] < '0' || text[1] > '9')
			return -1;
		*out = now + (time_t)off;
		return 0;
	}
	if (parse_u64(text, (uint64_t)INT64_MAX, &v))
		return -1;
	*out = (time_t)v;
	return 0;
}

/* Split line in place into p->tok; a '#' ends the line. */
static int tokenize(struct parser *p, char *line)
{
	char *s = line;

	p->n_tok = 0;
	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
			s++;
		if (!*s || *s == '#')
			return 0;
		if (p->n_tok == MAX_TOKENS)
			return fail(p, (int)(s - line) + 1,
				    "more than %d fields", MAX_TOKENS);
		p->tok[p->n_tok].text = s;
		p->tok[p->n_tok].col = (int)(s - line) + 1;
		p->n_tok++;
		while (*s && *s != ' ' && *s != '\t' && *s != '\r' &&
		       *s != '\n' && *s != '#')
			s++;
		if (*s == '#') {
			*s = '\0';
			return 0;
		}
		if (*s)
			*s++ = '\0';
	}
}

/* Split "key=value"; RET value or NULL if there is no '='. */
static char *split_kv(char *text)
{
	char *eq = strchr(text, '=');

	if (!eq)
		return NULL;
	*eq = '\0';
	return eq + 1;
}

static long find_account(struct th_fixture *fx, const char *name)
{
	size_t i;

	for (i = 0; i < fx->n_assoc; i++)
		if (!fx->assoc[i].user && !strcmp(fx->assoc[i].name, name))
			return (long)i;
	return -1;
}

static long find_user(struct th_fixture *fx, const char *name,
		      const char *account)
{
	long acct = find_account(fx, account);
	size_t i;

	if (acct < 0)
		return -1;
	for (i = 0; i < fx->n_assoc; i++)
		if (fx->assoc[i].user && fx->assoc[i].parent == acct &&
		    !strcmp(fx->assoc[i].name, name))
			return (long)i;
	return -1;
}

static long find_qos(struct th_fixture *fx, const char *name)
{
	size_t i;

	for (i = 0; i < fx->n_qos; i++)
		if (!strcmp(fx->qos[i].name, name))
			return (long)i;
	return -1;
}

static long find_part(struct th_fixture *fx, const char *name)
{
	size_t i;

	for (i = 0; i < fx->n_part; i++)
		if (!strcmp(fx->part[i].name, name))
			return (long)i;
	return -1;
}

static bool assoc_id_used(struct th_fixture *fx, uint32_t id)
{
	size_t i;

	for (i = 0; i < fx->n_assoc; i++)
		if (fx->assoc[i].id == id)
			return true;
	return false;
}

static uint32_t next_assoc_id(struct th_fixture *fx)
{
	uint32_t id = 1;
	size_t i;

	for (i = 0; i < fx->n_assoc; i++)
		if (fx->assoc[i].id >= id)
			id = fx->assoc[i].id + 1;
	return id;
}

static int add_root(struct parser *p, struct th_assoc *a)
{
	struct th_fixture *fx = p->fx;

	if (fx->n_assoc)
		return fail(p, p->tok[0].col,
			    "root must come before every association");
	a->name = dup_str("root");
	a->parent = -1;
	a->shares = 1;
	fx->assoc = grow(fx->assoc, fx->n_assoc, sizeof(*fx->assoc));
	fx->assoc[fx->n_assoc++] = *a;
	return 0;
}

/* Root is implicit: the first non-root association line creates it. */
static void ensure_root(struct parser *p)
{
	struct th_assoc root = { 0 };

	if (p->fx->n_assoc)
		return;
	root.id = 1;
	root.priority = TH_UNSET;
	root.line = p->line;
	add_root(p, &root);
}

static int assoc_attr(struct parser *p, struct th_assoc *a, int i)
{
	char *key = p->tok[i].text;
	char *val = split_kv(key);
	int col = p->tok[i].col;

	if (!val)
		return fail(p, col, "expected key=value, got '%s'", key);
	if (!strcmp(key, "id")) {
		if (parse_u32(val, &a->id) || !a->id)
			return fail(p, col, "id=%s: not a positive integer",
				    val);
		if (assoc_id_used(p->fx, a->id))
			return fail(p, col, "id=%s: already used", val);
	} else if (!strcmp(key, "priority")) {
		if (parse_u32(val, &a->priority))
			return fail(p, col, "priority=%s: not an integer", val);
	} else if (!strcmp(key, "uid")) {
		if (!a->user)
			return fail(p, col, "uid= is for users only");
		if (parse_u32(val, &a->uid))
			return fail(p, col, "uid=%s: not an integer", val);
	} else {
		return fail(p, col, "unknown association key '%s'", key);
	}
	return 0;
}

/* "root [USAGE] [key=value...]" */
static int parse_root(struct parser *p)
{
	struct th_assoc a = { 0 };
	int i = 1;

	a.id = 0;
	a.priority = TH_UNSET;
	a.line = p->line;
	if (i < p->n_tok && !strchr(p->tok[i].text, '=')) {
		if (parse_ldouble(p->tok[i].text, &a.usage))
			return fail(p, p->tok[i].col,
				    "root usage '%s' is not a non-negative "
				    "number",
				    p->tok[i].text);
		a.has_usage = true;
		i++;
	}
	for (; i < p->n_tok; i++)
		if (assoc_attr(p, &a, i))
			return -1;
	if (!a.id)
		a.id = 1;
	if (assoc_id_used(p->fx, a.id))
		return fail(p, p->tok[0].col, "root id %u already used", a.id);
	return add_root(p, &a);
}

/* "account|user NAME PARENT SHARES [USAGE] [key=value...]" */
static int parse_assoc(struct parser *p, bool user)
{
	struct th_fixture *fx = p->fx;
	struct th_assoc a = { 0 };
	uint64_t shares;
	long parent;
	int i;

	if (p->n_tok < 4)
		return fail(p, p->tok[0].col,
			    "%s needs NAME PARENT SHARES [USAGE]",
			    p->tok[0].text);
	ensure_root(p);
	a.user = user;
	a.priority = TH_UNSET;
	a.line = p->line;
	if (!strcmp(p->tok[1].text, "root"))
		return fail(p, p->tok[1].col, "the root is implicit");
	parent = find_account(fx, p->tok[2].text);
	if (parent < 0)
		return fail(p, p->tok[2].col,
			    "parent account '%s' is not defined above",
			    p->tok[2].text);
	if (!user && find_account(fx, p->tok[1].text) >= 0)
		return fail(p, p->tok[1].col, "account '%s' defined twice",
			    p->tok[1].text);
	if (user && find_user(fx, p->tok[1].text, p->tok[2].text) >= 0)
		return fail(p, p->tok[1].col,
			    "user '%s' defined twice under '%s'",
			    p->tok[1].text, p->tok[2].text);
	a.parent = parent;
	if (!strcmp(p->tok[3].text, "parent"))
		a.shares = TH_SHARES_PARENT;
	else if (parse_u64(p->tok[3].text, UINT32_MAX - 1, &shares))
		return fail(p, p->tok[3].col,
			    "shares '%s' is neither a non-negative integer "
			    "nor 'parent'",
			    p->tok[3].text);
	else
		a.shares = (uint32_t)shares;
	i = 4;
	if (i < p->n_tok && !strchr(p->tok[i].text, '=')) {
		if (parse_ldouble(p->tok[i].text, &a.usage))
			return fail(p, p->tok[i].col,
				    "usage '%s' is not a non-negative number",
				    p->tok[i].text);
		a.has_usage = true;
		i++;
	}
	for (; i < p->n_tok; i++)
		if (assoc_attr(p, &a, i))
			return -1;
	if (!a.id)
		a.id = next_assoc_id(fx);
	a.name = dup_str(p->tok[1].text);
	if (user && !a.uid)
		a.uid = 10000 + (uint32_t)fx->n_assoc;
	fx->assoc = grow(fx->assoc, fx->n_assoc, sizeof(*fx->assoc));
	fx->assoc[fx->n_assoc++] = a;
	return 0;
}

static int parse_qos(struct parser *p)
{
	struct th_fixture *fx = p->fx;
	struct th_qos q = { 0 };
	uint32_t max_id = 0;
	long redefine;
	size_t k;
	int i;

	if (p->n_tok < 2)
		return fail(p, p->tok[0].col, "qos needs a NAME");
	redefine = find_qos(fx, p->tok[1].text);
	if (redefine > 0 || (redefine == 0 && p->normal_given))
		return fail(p, p->tok[1].col, "qos '%s' defined twice",
			    p->tok[1].text);
	if (redefine == 0) {
		/* the implicit "normal" (id 1), given its settings now */
		q.id = 1;
		p->normal_given = true;
	}
	q.usage_factor = 1.0;
	for (i = 2; i < p->n_tok; i++) {
		char *key = p->tok[i].text, *val;
		int col = p->tok[i].col;

		if (!strcmp(key, "no_decay")) {
			q.no_decay = true;
			continue;
		}
		if (!(val = split_kv(key)))
			return fail(p, col, "expected key=value, got '%s'",
				    key);
		if (!strcmp(key, "id")) {
			if (parse_u32(val, &q.id) || !q.id)
				return fail(p, col,
					    "id=%s: not a positive "
					    "integer",
					    val);
		} else if (!strcmp(key, "priority")) {
			if (parse_u32(val, &q.priority))
				return fail(p, col,
					    "priority=%s: not an "
					    "integer",
					    val);
		} else if (!strcmp(key, "usage_factor")) {
			long double f;

			if (parse_ldouble(val, &f))
				return fail(p, col,
					    "usage_factor=%s: not a "
					    "non-negative number",
					    val);
			q.usage_factor = (double)f;
		} else if (!strcmp(key, "usage")) {
			if (parse_ldouble(val, &q.usage))
				return fail(p, col,
					    "usage=%s: not a "
					    "non-negative number",
					    val);
		} else {
			return fail(p, col, "unknown qos key '%s'", key);
		}
	}
	if (redefine == 0) {
		if (q.id != 1)
			return fail(p, p->tok[0].col, "qos normal has id 1");
		free(fx->qos[0].name);
		q.name = dup_str("normal");
		fx->qos[0] = q;
		return 0;
	}
	for (k = 0; k < fx->n_qos; k++) {
		if (q.id && fx->qos[k].id == q.id)
			return fail(p, p->tok[0].col, "qos id %u already used",
				    q.id);
		if (fx->qos[k].id > max_id)
			max_id = fx->qos[k].id;
	}
	if (!q.id)
		q.id = max_id + 1;
	q.name = dup_str(p->tok[1].text);
	fx->qos = grow(fx->qos, fx->n_qos, sizeof(*fx->qos));
	fx->qos[fx->n_qos++] = q;
	return 0;
}

static int parse_partition(struct parser *p)
{
	struct th_fixture *fx = p->fx;
	struct th_part pt = { 0 };
	int i;

	if (p->n_tok < 2)
		return fail(p, p->tok[0].col, "partition needs a NAME");
	if (find_part(fx, p->tok[1].text) >= 0)
		return fail(p, p->tok[1].col, "partition '%s' defined twice",
			    p->tok[1].text);
	pt.factor = 1;
	pt.max_time = TH_UNSET;
	pt.qos = -1;
	pt.nodes = TH_UNSET;
	pt.cpus = TH_UNSET;
	for (i = 2; i < p->n_tok; i++) {
		char *key = p->tok[i].text, *val = split_kv(key);
		int col = p->tok[i].col;
		uint64_t v;

		if (!val)
			return fail(p, col, "expected key=value, got '%s'",
				    key);
		if (!strcmp(key, "factor") || !strcmp(key, "tier")) {
			if (parse_u64(val, UINT16_MAX - 1, &v))
				return fail(p, col,
					    "%s=%s: not an integer "
					    "0..65534",
					    key, val);
			if (key[0] == 'f')
				pt.factor = (uint16_t)v;
			else
				pt.tier = (uint16_t)v;
		} else if (!strcmp(key, "max_time")) {
			if (!strcmp(val, "infinite"))
				pt.max_time = TH_UNSET;
			else if (parse_u32(val, &pt.max_time))
				return fail(p, col,
					    "max_time=%s: not minutes "
					    "or 'infinite'",
					    val);
		} else if (!strcmp(key, "nodes")) {
			if (parse_u32(val, &pt.nodes))
				return fail(p, col, "nodes=%s: not an integer",
					    val);
		} else if (!strcmp(key, "cpus")) {
			if (parse_u32(val, &pt.cpus))
				return fail(p, col, "cpus=%s: not an integer",
					    val);
		} else if (!strcmp(key, "tres")) {
			free(pt.tres);
			pt.tres = dup_str(val);
		} else if (!strcmp(key, "billing")) {
			free(pt.billing);
			pt.billing = dup_str(val);
		} else if (!strcmp(key, "qos")) {
			pt.qos = find_qos(fx, val);
			if (pt.qos < 0)
				return fail(p, col,
					    "qos '%s' is not defined "
					    "above",
					    val);
		} else {
			return fail(p, col, "unknown partition key '%s'", key);
		}
	}
	pt.name = dup_str(p->tok[1].text);
	fx->part = grow(fx->part, fx->n_part, sizeof(*fx->part));
	fx->part[fx->n_part++] = pt;
	return 0;
}

static int job_time(struct parser *p, int col, const char *key, const char *val,
		    time_t *out)
{
	if (th_fixture_time(val, p->fx->now, out))
		return fail(p, col, "%s=%s: not an epoch time or now[+-]N", key,
			    val);
	return 0;
}

static int job_state(struct parser *p, int col, const char *val,
		     struct th_job *j)
{
	static const struct {
		const char *name;
		enum th_job_state state;
	} states[] = {
		{ "pending", TH_JOB_PENDING },
		{ "running", TH_JOB_RUNNING },
		{ "suspended", TH_JOB_SUSPENDED },
		{ "complete", TH_JOB_COMPLETE },
		{ "cancelled", TH_JOB_CANCELLED },
	};
	size_t k;

	for (k = 0; k < sizeof(states) / sizeof(states[0]); k++) {
		if (!strcmp(val, states[k].name)) {
			j->state = states[k].state;
			return 0;
		}
	}
	return fail(p, col,
		    "state=%s: not pending, running, suspended, "
		    "complete or cancelled",
		    val);
}

static int job_parts(struct parser *p, int col, char *val, struct th_job *j)
{
	char *save = NULL, *name;

	free(j->parts);
	j->parts = NULL;
	j->n_parts = 0;
	for (name = strtok_r(val, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		long k = find_part(p->fx, name);

		if (k < 0)
			return fail(p, col,
				    "partition '%s' is not defined "
				    "above",
				    name);
		j->parts = grow(j->parts, j->n_parts, sizeof(*j->parts));
		j->parts[j->n_parts++] = k;
	}
	if (!j->n_parts)
		return fail(p, col, "partition= needs at least one name");
	return 0;
}

static int job_key(struct parser *p, int i, struct th_job *j)
{
	char *key = p->tok[i].text, *val;
	int col = p->tok[i].col;
	uint32_t *u32 = NULL;

	if (!strcmp(key, "completing")) {
		j->completing = true;
		return 0;
	}
	if (!strcmp(key, "power_up")) {
		j->power_up = true;
		return 0;
	}
	if (!strcmp(key, "direct")) {
		j->direct = true;
		return 0;
	}
	if (!(val = split_kv(key)))
		return fail(p, col, "expected key=value, got '%s'", key);
	if (!strcmp(key, "qos")) {
		char *save = NULL, *name;

		free(j->qos_all);
		j->qos_all = NULL;
		j->n_qos_all = 0;
		if (!strcmp(val, "none")) {
			j->qos = -1;
			return 0;
		}
		/* qos=a,b: a job of several QOS (Slurm 24.11) */
		for (name = strtok_r(val, ",", &save); name;
		     name = strtok_r(NULL, ",", &save)) {
			long k = find_qos(p->fx, name);

			if (k < 0)
				return fail(p, col,
					    "qos '%s' is not defined above",
					    name);
			j->qos_all = grow(j->qos_all, j->n_qos_all,
					  sizeof(*j->qos_all));
			j->qos_all[j->n_qos_all++] = k;
		}
		if (!j->n_qos_all)
			return fail(p, col, "qos= needs a name or none");
		j->qos = j->qos_all[0];
		if (j->n_qos_all == 1) {
			free(j->qos_all);
			j->qos_all = NULL;
			j->n_qos_all = 0;
		}
		return 0;
	}
	if (!strcmp(key, "partition"))
		return job_parts(p, col, val, j);
	if (!strcmp(key, "state"))
		return job_state(p, col, val, j);
	if (!strcmp(key, "submit"))
		return job_time(p, col, key, val, &j->submit);
	if (!strcmp(key, "begin"))
		return job_time(p, col, key, val, &j->begin);
	if (!strcmp(key, "accrue"))
		return job_time(p, col, key, val, &j->accrue);
	if (!strcmp(key, "start"))
		return job_time(p, col, key, val, &j->start);
	if (!strcmp(key, "end"))
		return job_time(p, col, key, val, &j->end);
	if (!strcmp(key, "resize"))
		return job_time(p, col, key, val, &j->resize);
	if (!strcmp(key, "finish"))
		return job_time(p, col, key, val, &j->finish);
	if (!strcmp(key, "nice"))
		return parse_i32(val, -2147483645, 2147483645, &j->nice)
			       ? fail(p, col, "nice=%s: not an integer", val)
			       : 0;
	if (!strcmp(key, "site"))
		return parse_i32(val, -2147483645, 2147483645, &j->site)
			       ? fail(p, col, "site=%s: not an integer", val)
			       : 0;
	if (!strcmp(key, "tres_req") || !strcmp(key, "tres_alloc")) {
		char **dst = key[5] == 'r' ? &j->tres_req : &j->tres_alloc;

		free(*dst);
		*dst = dup_str(val);
		return 0;
	}
	if (!strcmp(key, "time_limit") && !strcmp(val, "unset")) {
		j->time_limit = TH_UNSET;
		return 0;
	}
	if (!strcmp(key, "max_cpus") && !strcmp(val, "unset")) {
		j->max_cpus = TH_UNSET;
		return 0;
	}
	if (!strcmp(key, "priority"))
		u32 = &j->priority;
	else if (!strcmp(key, "time_limit"))
		u32 = &j->time_limit;
	else if (!strcmp(key, "cpus"))
		u32 = &j->total_cpus;
	else if (!strcmp(key, "min_cpus"))
		u32 = &j->min_cpus;
	else if (!strcmp(key, "max_cpus"))
		u32 = &j->max_cpus;
	else if (!strcmp(key, "nodes"))
		u32 = &j->min_nodes;
	else
		return fail(p, col, "unknown job key '%s'", key);
	if (parse_u32(val, u32))
		return fail(p, col, "%s=%s: not an integer", key, val);
	return 0;
}

/* "job ID USER:ACCOUNT [key=value...]" */
static int parse_job(struct parser *p)
{
	struct th_fixture *fx = p->fx;
	struct th_job j = { 0 };
	char *colon;
	size_t k;
	int i;

	if (p->n_tok < 3)
		return fail(p, p->tok[0].col, "job needs ID USER:ACCOUNT");
	if (parse_u32(p->tok[1].text, &j.id) || !j.id)
		return fail(p, p->tok[1].col,
			    "job id '%s' is not a positive "
			    "integer",
			    p->tok[1].text);
	for (k = 0; k < fx->n_job; k++)
		if (fx->job[k].id == j.id)
			return fail(p, p->tok[1].col, "job %u defined twice",
				    j.id);
	colon = strchr(p->tok[2].text, ':');
	if (!colon)
		return fail(p, p->tok[2].col,
			    "expected USER:ACCOUNT, got "
			    "'%s'",
			    p->tok[2].text);
	*colon = '\0';
	j.assoc = find_user(fx, p->tok[2].text, colon + 1);
	if (j.assoc < 0)
		return fail(p, p->tok[2].col,
			    "no user '%s' under account "
			    "'%s'",
			    p->tok[2].text, colon + 1);
	j.line = p->line;
	j.qos = find_qos(fx, "normal");
	j.state = TH_JOB_PENDING;
	j.priority = 1;
	j.submit = fx->now - 600;
	j.begin = (time_t)-1;
	j.accrue = (time_t)-1;
	j.time_limit = 60;
	j.min_cpus = 1;
	j.max_cpus = TH_UNSET;
	j.min_nodes = 1;
	j.total_cpus = TH_UNSET;
	if (fx->n_part) {
		j.parts = grow(NULL, 0, sizeof(*j.parts));
		j.parts[0] = 0;
		j.n_parts = 1;
	}
	for (i = 3; i < p->n_tok; i++)
		if (job_key(p, i, &j)) {
			free(j.parts);
			free(j.qos_all);
			free(j.tres_req);
			free(j.tres_alloc);
			return -1;
		}
	if (j.begin == (time_t)-1)
		j.begin = j.submit;
	if (j.accrue == (time_t)-1) /* eligible jobs accrue from begin */
		j.accrue = j.begin <= fx->now ? j.begin : 0;
	if (j.total_cpus == TH_UNSET)
		j.total_cpus = j.state == TH_JOB_PENDING ? 0 : j.min_cpus;
	if (j.state != TH_JOB_PENDING && !j.start)
		j.start = j.submit;
	if (!j.n_parts)
		return fail(p, p->tok[0].col,
			    "job %u: no partition defined "
			    "above",
			    j.id);
	fx->job = grow(fx->job, fx->n_job, sizeof(*fx->job));
	fx->job[fx->n_job++] = j;
	return 0;
}

static int parse_cluster(struct parser *p)
{
	int i;

	for (i = 1; i < p->n_tok; i++) {
		char *key = p->tok[i].text, *val = split_kv(key);
		int col = p->tok[i].col;
		uint32_t v;

		if (!val)
			return fail(p, col, "expected key=value, got '%s'",
				    key);
		if (parse_u32(val, &v) || !v)
			return fail(p, col, "%s=%s: not a positive integer",
				    key, val);
		if (!strcmp(key, "cpus"))
			p->fx->cluster_cpus = v;
		else if (!strcmp(key, "nodes"))
			p->fx->node_count = v;
		else
			return fail(p, col, "unknown cluster key '%s'", key);
	}
	return 0;
}

static int parse_tres(struct parser *p)
{
	struct th_fixture *fx = p->fx;
	uint64_t count = 0;
	int i;

	if (p->n_tok < 2 || !strchr(p->tok[1].text, '/'))
		return fail(p, p->tok[0].col,
			    "tres needs TYPE/NAME (e.g. gres/gpu)");
	for (i = 2; i < p->n_tok; i++) {
		char *key = p->tok[i].text, *val = split_kv(key);

		if (!val || strcmp(key, "count") ||
		    parse_u64(val, UINT64_MAX - 3, &count))
			return fail(p, p->tok[i].col,
				    "expected count=N, got '%s'", key);
	}
	fx->tres = grow(fx->tres, fx->n_tres, sizeof(*fx->tres));
	fx->tres_count =
		grow(fx->tres_count, fx->n_tres, sizeof(*fx->tres_count));
	fx->tres[fx->n_tres] = dup_str(p->tok[1].text);
	fx->tres_count[fx->n_tres++] = count;
	return 0;
}

/* "Key=Value ..." from token `from` on, joined by single blanks. */
static char *rest_of_line(struct parser *p, int from)
{
	size_t len = 1;
	char *line;
	int i;

	for (i = from; i < p->n_tok; i++)
		len += strlen(p->tok[i].text) + 1;
	line = calloc(1, len);
	if (!line) {
		fprintf(stderr, "ts-harness: out of memory\n");
		exit(2);
	}
	for (i = from; i < p->n_tok; i++) {
		if (i > from)
			strcat(line, " ");
		strcat(line, p->tok[i].text);
	}
	return line;
}

/* "conf Key=Value": the rest of the line goes to slurm.conf verbatim. */
static int parse_conf(struct parser *p)
{
	static const char *const reserved[] = {
		"ClusterName", "SlurmctldHost",	    "PriorityType",
		"PluginDir",   "StateSaveLocation", "AccountingStorageType",
		"SlurmUser",
	};
	struct th_fixture *fx = p->fx;
	size_t k;

	if (p->n_tok < 2 || !strchr(p->tok[1].text, '='))
		return fail(p, p->tok[0].col, "conf needs Key=Value");
	for (k = 0; k < sizeof(reserved) / sizeof(reserved[0]); k++) {
		size_t n = strlen(reserved[k]);

		if (!strncasecmp(p->tok[1].text, reserved[k], n) &&
		    p->tok[1].text[n] == '=')
			return fail(p, p->tok[1].col,
				    "%s is set by "
				    "ts-harness itself",
				    reserved[k]);
	}
	fx->conf = grow(fx->conf, fx->n_conf, sizeof(*fx->conf));
	fx->conf[fx->n_conf++] = rest_of_line(p, 1);
	return 0;
}

static int event_cycle(struct parser *p, struct th_event *ev)
{
	uint32_t v;

	if (p->n_tok < 2 || parse_u32(p->tok[1].text, &v) || !v || v >= 100)
		return fail(p, p->tok[0].col,
			    "%s needs the cycle after which it happens "
			    "(1..99)",
			    p->tok[0].text);
	ev->after = v;
	ev->line = p->line;
	return 0;
}

static void add_event(struct th_fixture *fx, const struct th_event *ev)
{
	fx->event = grow(fx->event, fx->n_event, sizeof(*fx->event));
	fx->event[fx->n_event++] = *ev;
}

/* "restart N [damage=KIND] [file=NAME] [remove=NAME] [down=SECS]" */
static int parse_restart(struct parser *p)
{
	static const char *const damages[] = {
		[TH_DAMAGE_NONE] = "none",
		[TH_DAMAGE_TORN] = "torn",
		[TH_DAMAGE_CORRUPT] = "corrupt",
		[TH_DAMAGE_BOTH] = "both",
		[TH_DAMAGE_ZERO] = "zero",
		[TH_DAMAGE_RANDOM] = "random",
		[TH_DAMAGE_TRAILING] = "trailing",
		[TH_DAMAGE_FUTURE] = "future",
		[TH_DAMAGE_NEGATIVE] = "negative",
		[TH_DAMAGE_MISSING] = "missing",
		[TH_DAMAGE_OLD_FORMAT] = "old_format",
	};
	struct th_event ev = { .kind = TH_EV_RESTART };
	size_t k;
	int i, rc = 0;

	if (event_cycle(p, &ev))
		return -1;
	for (i = 2; i < p->n_tok && !rc; i++) {
		char *key = p->tok[i].text, *val = split_kv(key);
		uint32_t v = 0;

		if (val && !strcmp(key, "damage")) {
			for (k = 0; k < sizeof(damages) / sizeof(*damages); k++)
				if (!strcmp(val, damages[k]))
					break;
			if (k == sizeof(damages) / sizeof(*damages))
				rc = fail(p, p->tok[i].col,
					  "damage=%s: not none, torn, "
					  "corrupt, both, zero, random, "
					  "trailing, future, negative, "
					  "missing or old_format",
					  val);
			ev.damage = (enum th_damage)k;
		} else if (val && !strcmp(key, "file")) {
			if (!*val || strchr(val, '/'))
				rc = fail(p, p->tok[i].col,
					  "file=%s: not a file name", val);
			free(ev.damage_file);
			ev.damage_file = dup_str(val);
		} else if (val && !strcmp(key, "remove")) {
			if (!*val || strchr(val, '/'))
				rc = fail(p, p->tok[i].col,
					  "remove=%s: not a file name", val);
			free(ev.remove_file);
			ev.remove_file = dup_str(val);
		} else if (val && !strcmp(key, "down")) {
			if (parse_u32(val, &v))
				rc = fail(p, p->tok[i].col,
					  "down=%s: not seconds", val);
			ev.down = v;
		} else {
			rc = fail(p, p->tok[i].col,
				  "expected damage=, file=, remove= or down=, "
				  "got "
				  "'%s'",
				  p->tok[i].text);
		}
	}
	if (rc) {
		free(ev.damage_file);
		free(ev.remove_file);
		return rc;
	}
	add_event(p->fx, &ev);
	return 0;
}

/* "reconfigure N Key=Value": slurm.conf's Key becomes Value. */
static int parse_reconfigure(struct parser *p)
{
	struct th_event ev = { .kind = TH_EV_RECONFIGURE };

	if (event_cycle(p, &ev))
		return -1;
	if (p->n_tok < 3 || !strchr(p->tok[2].text, '='))
		return fail(p, p->tok[0].col, "reconfigure N needs Key=Value");
	ev.conf = rest_of_line(p, 2);
	add_event(p->fx, &ev);
	return 0;
}

/* "slurm_save N": slurmctld's periodic save of assoc_usage. */
static int parse_slurm_save(struct parser *p)
{
	struct th_event ev = { .kind = TH_EV_SLURM_SAVE };

	if (event_cycle(p, &ev))
		return -1;
	if (p->n_tok != 2)
		return fail(p, p->tok[0].col, "slurm_save needs one cycle N");
	add_event(p->fx, &ev);
	return 0;
}

static int parse_file(struct th_fixture *fx, const char *path, int depth);

static int parse_include(struct parser *p)
{
	char *dir, *slash, *full;
	int rc;

	if (p->n_tok != 2)
		return fail(p, p->tok[0].col, "tree needs one PATH");
	if (p->depth >= MAX_INCLUDE_DEPTH)
		return fail(p, p->tok[1].col, "includes nested too deep");
	dir = dup_str(p->path);
	slash = strrchr(dir, '/');
	if (p->tok[1].text[0] == '/' || !slash)
		full = dup_str(p->tok[1].text);
	else {
		slash[1] = '\0';
		full = malloc(strlen(dir) + strlen(p->tok[1].text) + 1);
		if (!full) {
			fprintf(stderr, "ts-harness: out of memory\n");
			exit(2);
		}
		strcpy(full, dir);
		strcat(full, p->tok[1].text);
	}
	rc = parse_file(p->fx, full, p->depth + 1);
	free(full);
	free(dir);
	return rc;
}

static int parse_statement(struct parser *p)
{
	struct th_fixture *fx = p->fx;
	const char *kw = p->tok[0].text;
	uint32_t v;

	if (strcmp(kw, "now"))
		p->now_used = true;
	if (!strcmp(kw, "root"))
		return parse_root(p);
	if (!strcmp(kw, "account"))
		return parse_assoc(p, false);
	if (!strcmp(kw, "user"))
		return parse_assoc(p, true);
	if (p->depth > 0)
		return fail(p, p->tok[0].col,
			    "'%s' is not a tree-file line (root, account, "
			    "user)",
			    kw);
	if (!strcmp(kw, "tree"))
		return parse_include(p);
	if (!strcmp(kw, "job"))
		return parse_job(p);
	if (!strcmp(kw, "qos"))
		return parse_qos(p);
	if (!strcmp(kw, "partition"))
		return parse_partition(p);
	if (!strcmp(kw, "conf"))
		return parse_conf(p);
	if (!strcmp(kw, "tres"))
		return parse_tres(p);
	if (!strcmp(kw, "cluster"))
		return parse_cluster(p);
	if (!strcmp(kw, "restart"))
		return parse_restart(p);
	if (!strcmp(kw, "reconfigure"))
		return parse_reconfigure(p);
	if (!strcmp(kw, "slurm_save"))
		return parse_slurm_save(p);
	if (p->n_tok != 2)
		return fail(p, p->tok[0].col,
			    "'%s' takes one value, or is "
			    "not a keyword",
			    kw);
	if (!strcmp(kw, "now")) {
		time_t t;

		if (p->now_used || p->depth)
			return fail(p, p->tok[0].col,
				    "'now' must be the fixture's first "
				    "statement");
		if (th_fixture_time(p->tok[1].text, 0, &t) || t <= 0)
			return fail(p, p->tok[1].col,
				    "now: '%s' is not an "
				    "epoch time",
				    p->tok[1].text);
		fx->now = t;
		return 0;
	}
	if (!strcmp(kw, "cycles")) {
		if (parse_u32(p->tok[1].text, &v) || !v || v > 100)
			return fail(p, p->tok[1].col,
				    "cycles: '%s' is not "
				    "1..100",
				    p->tok[1].text);
		fx->cycles = v;
		return 0;
	}
	if (!strcmp(kw, "last_decay_ran")) {
		free(fx->last_ran_expr);
		fx->last_ran_expr = NULL;
		fx->has_last_ran = strcmp(p->tok[1].text, "none") != 0;
		if (fx->has_last_ran) {
			time_t t;

			if (strcmp(p->tok[1].text, "default") &&
			    th_fixture_time(p->tok[1].text, fx->now, &t))
				return fail(p, p->tok[1].col,
					    "last_decay_ran: '%s' is not an "
					    "epoch time, now[+-]N, default or "
					    "none",
					    p->tok[1].text);
			fx->last_ran_expr = dup_str(p->tok[1].text);
		}
		return 0;
	}
	if (!strcmp(kw, "last_reset")) {
		if (th_fixture_time(p->tok[1].text, fx->now, &fx->last_reset))
			return fail(p, p->tok[1].col,
				    "last_reset: '%s' is "
				    "not an epoch time or now[+-]N",
				    p->tok[1].text);
		return 0;
	}
	return fail(p, p->tok[0].col, "unknown keyword '%s'", kw);
}

static int parse_file(struct th_fixture *fx, const char *path, int depth)
{
	struct parser p = { .fx = fx, .path = path, .depth = depth };
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int rc = 0;

	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) >= 0) {
		p.line++;
		if (tokenize(&p, line)) {
			rc = -1;
			break;
		}
		if (!p.n_tok)
			continue;
		if (parse_statement(&p)) {
			rc = -1;
			break;
		}
	}
	free(line);
	fclose(f);
	return rc;
}

int th_fixture_sum_usage(struct th_fixture *fx)
{
	long double *child_sum;
	size_t i;
	int rc = 0;

	if (!fx->n_assoc) {
		fprintf(stderr, "%s: no association\n", fx->path);
		return -1;
	}
	child_sum = calloc(fx->n_assoc, sizeof(*child_sum));
	if (!child_sum) {
		fprintf(stderr, "ts-harness: out of memory\n");
		exit(2);
	}
	/* Parents come first, so a backward pass completes every sum. */
	for (i = fx->n_assoc; i-- > 0;) {
		struct th_assoc *a = &fx->assoc[i];

		/* decimal usages add up with rounding: allow it */
		if (!a->has_usage)
			a->usage = child_sum[i];
		else if (a->usage < child_sum[i] * (1 - 64 * LDBL_EPSILON)) {
			fprintf(stderr,
				"%s:%ld: %s '%s': usage %.17Lg is less "
				"than its children's sum %.17Lg\n",
				fx->path, a->line,
				a->parent < 0 ? "root"
				: a->user     ? "user"
					      : "account",
				a->name, a->usage, child_sum[i]);
			rc = -1;
		}
		if (a->parent >= 0)
			child_sum[a->parent] += a->usage;
	}
	free(child_sum);
	return rc;
}

int th_fixture_read(const char *path, struct th_fixture *fx)
{
	struct th_qos normal = { 0 };

	memset(fx, 0, sizeof(*fx));
	fx->path = dup_str(path);
	fx->now = 1700000000;
	fx->cycles = 1;
	fx->has_last_ran = true;
	fx->cluster_cpus = 64;
	fx->node_count = 4;

	/* QOS "normal" exists in every Slurm database; id 1. */
	normal.id = 1;
	normal.name = dup_str("normal");
	normal.usage_factor = 1.0;
	fx->qos = grow(fx->qos, 0, sizeof(*fx->qos));
	fx->qos[fx->n_qos++] = normal;

	{
		char *copy = dup_str(path),
		     *dir = realpath(dirname(copy), NULL);

		fx->dir = dup_str(dir ? dir : ".");
		free(dir);
		free(copy);
	}
	if (parse_file(fx, path, 0) || th_fixture_sum_usage(fx)) {
		th_fixture_free(fx);
		return -1;
	}
	return 0;
}

void th_fixture_free(struct th_fixture *fx)
{
	size_t i;

	for (i = 0; i < fx->n_conf; i++)
		free(fx->conf[i]);
	free(fx->conf);
	for (i = 0; i < fx->n_tres; i++)
		free(fx->tres[i]);
	free(fx->tres);
	free(fx->tres_count);
	for (i = 0; i < fx->n_qos; i++)
		free(fx->qos[i].name);
	free(fx->qos);
	for (i = 0; i < fx->n_part; i++) {
		free(fx->part[i].name);
		free(fx->part[i].tres);
		free(fx->part[i].billing);
	}
	free(fx->part);
	for (i = 0; i < fx->n_assoc; i++)
		free(fx->assoc[i].name);
	free(fx->assoc);
	for (i = 0; i < fx->n_job; i++) {
		free(fx->job[i].parts);
		free(fx->job[i].qos_all);
		free(fx->job[i].tres_req);
		free(fx->job[i].tres_alloc);
	}
	free(fx->job);
	for (i = 0; i < fx->n_event; i++) {
		free(fx->event[i].conf);
		free(fx->event[i].damage_file);
		free(fx->event[i].remove_file);
	}
	free(fx->event);
	free(fx->dir);
	free(fx->last_ran_expr);
	free(fx->path);
	memset(fx, 0, sizeof(*fx));
}
