/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sacct_jobs.c - "sacct -a -P" jobs (sacct_jobs.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "bar_table.h"
#include "decimal.h"
#include "sacct_jobs.h"

enum field {
	F_JOBID,
	F_ACCOUNT,
	F_USER,
	F_START,
	F_END,
	F_ELIGIBLE,
	F_SUBMIT,
	F_ALLOCTRES,
	F_ALLOCCPUS,
	F_TOTALCPU,
	F_COUNT
};

static const char *const field_name[F_COUNT] = {
	"JobID",    "Account", "User",	    "Start",	 "End",
	"Eligible", "Submit",  "AllocTRES", "AllocCPUS", "TotalCPU",
};

static const char *const skip_name[TS_SACCT_SKIP_COUNT] = {
	"job steps",
	"jobs that never started",
	"truncated lines (field count differs from the header)",
	"values not understood",
	"jobs ending before they start",
	"unknown associations",
};

const char *ts_sacct_skip_name(enum ts_sacct_skip why)
{
	return (unsigned)why < TS_SACCT_SKIP_COUNT ? skip_name[why] : "?";
}

/* Digits at s, exactly n of them; RET the value or -1. */
static long sacct_digits(const char *s, int n)
{
	long v = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/*
 * Local time: mktime() once per hour of the calendar (the cache), the
 * minutes and seconds added, so that a million jobs cost few mktime()s.
 */
int64_t ts_sacct_time(const char *s)
{
	static __thread long key = -1;
	static __thread int64_t base;
	long y, mo, d, h, mi, se, k;
	struct tm tm;
	time_t t;

	if (!*s || !strcmp(s, "Unknown") || !strcmp(s, "None"))
		return 0;
	if (strlen(s) != 19 || s[4] != '-' || s[7] != '-' || s[10] != 'T' ||
	    s[13] != ':' || s[16] != ':')
		return -1;
	y = sacct_digits(s, 4);
	mo = sacct_digits(s + 5, 2);
	d = sacct_digits(s + 8, 2);
	h = sacct_digits(s + 11, 2);
	mi = sacct_digits(s + 14, 2);
	se = sacct_digits(s + 17, 2);
	if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 ||
	    h > 23 || mi < 0 || mi > 59 || se < 0 || se > 60)
		return -1;
	k = ((y * 13 + mo) * 32 + d) * 24 + h;
	if (k != key) {
		memset(&tm, 0, sizeof(tm));
		tm.tm_year = (int)y - 1900;
		tm.tm_mon = (int)mo - 1;
		tm.tm_mday = (int)d;
		tm.tm_hour = (int)h;
		tm.tm_isdst = -1;
		t = mktime(&tm);
		if (t == (time_t)-1 || tm.tm_mday != d)
			return -1;
		key = k;
		base = (int64_t)t;
	}
	return base + mi * 60 + se;
}

double ts_sacct_duration(const char *s)
{
	double parts[3] = { 0, 0, 0 }, v, days = 0;
	const char *p = s, *dash = strchr(s, '-');
	size_t n, np = 0;

	if (dash) {
		double dd;

		n = ts_decimal_scan(p);
		if (!n || p + n != dash || memchr(p, '.', n) ||
		    ts_decimal_value(p, n, &dd))
			return -1;
		days = dd;
		p = dash + 1;
	}
	for (;;) {
		n = ts_decimal_scan(p);
		if (!n || np == 3 || ts_decimal_value(p, n, &v))
			return -1;
		parts[np++] = v;
		p += n;
		if (!*p)
			break;
		if (*p != ':')
			return -1;
		p++;
	}
	/* [[HH:]MM:]SS: the last is seconds; with days, HH:MM:SS. */
	if (np == 1)
		v = parts[0];
	else if (np == 2)
		v = parts[0] * 60 + parts[1];
	else
		v = parts[0] * 3600 + parts[1] * 60 + parts[2];
	return days * 86400 + v;
}

/* key=value in a TRES list ("billing=4,cpu=4,mem=1G"); RET -1 if none. */
static double tres_value(const char *list, const char *key)
{
	size_t kl = strlen(key), n;
	const char *p = list;
	double v;

	while (p && *p) {
		if (!strncmp(p, key, kl) && p[kl] == '=') {
			p += kl + 1;
			n = ts_decimal_scan(p);
			if (!n || (p[n] && p[n] != ',') ||
			    ts_decimal_value(p, n, &v))
				return -2;
			return v;
		}
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return -1;
}

static int sacct_grow(struct ts_sacct_jobs *j, struct ts_error *err)
{
	size_t cap = j->cap ? j->cap * 2 : 1024;
	struct ts_sacct_job *nj;

	nj = realloc(j->job, cap * sizeof(*nj));
	if (!nj)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	j->job = nj;
	j->cap = cap;
	return TS_OK;
}

struct ctx {
	const struct ts_sacct_hooks *h;
	struct ts_sacct_summary *sum;
	long line;
};

static void skip(struct ctx *c, enum ts_sacct_skip why, const char *fmt,
		 const char *what, const char *value)
{
	char msg[256];

	c->sum->skipped[why]++;
	if (!fmt || !c->h->report)
		return;
	snprintf(msg, sizeof(msg), fmt, what, value);
	c->h->report(c->h->arg, c->line, why, msg);
}

/* The job's association node; RET 1, or 0 (skipped) when unknown. */
static int job_node(struct ctx *c, char **f, const int *col,
		    struct ts_sacct_job *job)
{
	job->node = c->h->resolve(c->h->arg, f[col[F_USER]], f[col[F_ACCOUNT]]);
	if (job->node >= 0)
		return 1;
	skip(c, TS_SACCT_UNKNOWN_ASSOC,
	     "no association of user %.40s under account %.40s", f[col[F_USER]],
	     f[col[F_ACCOUNT]]);
	return 0;
}

/*
 * A job that never started, kept for the pending order (keep_pending):
 * no charge, so no billing; its association must be known.
 */
static int pending_line(struct ctx *c, char **f, const int *col,
			struct ts_sacct_job *job)
{
	if (!job_node(c, f, col, job))
		return 0;
	c->sum->never_started++;
	return 1;
}

/* One job line's fields; RET 1 kept, 0 skipped. */
static int job_line(struct ctx *c, char **f, const int *col,
		    struct ts_sacct_job *job)
{
	const char *tres = col[F_ALLOCTRES] >= 0 ? f[col[F_ALLOCTRES]] : "";
	int i;

	if (strchr(f[col[F_JOBID]], '.')) {
		skip(c, TS_SACCT_STEP, NULL, NULL, NULL);
		return 0;
	}
	if (strlen(f[col[F_JOBID]]) >= sizeof(job->id)) {
		skip(c, TS_SACCT_BAD_VALUE, "%s \"%.40s\" is too long",
		     field_name[F_JOBID], f[col[F_JOBID]]);
		return 0;
	}
	memset(job, 0, sizeof(*job));
	strcpy(job->id, f[col[F_JOBID]]);
	job->line = c->line;
	job->cpu_secs = -1;
	for (i = F_START; i <= F_SUBMIT; i++) {
		int64_t t;

		if (col[i] < 0)
			continue;
		t = ts_sacct_time(f[col[i]]);
		if (t < 0) {
			skip(c, TS_SACCT_BAD_VALUE,
			     "%s \"%.40s\" is not a time", field_name[i],
			     f[col[i]]);
			return 0;
		}
		if (i == F_START)
			job->start = t;
		else if (i == F_END)
			job->end = t;
		else if (i == F_ELIGIBLE || !job->eligible)
			job->eligible = t; /* Submit when Eligible is unset */
	}
	if (!job->start && !(c->h->keep_pending && job->eligible)) {
		skip(c, TS_SACCT_NOT_STARTED, NULL, NULL, NULL);
		return 0;
	}
	if (!job->start)
		return pending_line(c, f, col, job);
	if (job->end && job->end < job->start) {
		skip(c, TS_SACCT_ORDER, "%s before Start (%.40s)", "End",
		     f[col[F_START]]);
		return 0;
	}
	job->billing = tres_value(tres, "billing");
	if (job->billing == -1 && col[F_ALLOCCPUS] >= 0) {
		const char *s = f[col[F_ALLOCCPUS]];
		size_t n = ts_decimal_scan(s);

		if (!n || s[n] || ts_decimal_value(s, n, &job->billing))
			job->billing = -2;
	}
	if (job->billing == -1)
		job->billing = tres_value(tres, "cpu");
	if (job->billing < 0) {
		skip(c, TS_SACCT_BAD_VALUE,
		     "%s \"%.40s\" has no billing= or cpu= (nor AllocCPUS)",
		     "AllocTRES", tres);
		return 0;
	}
	if (col[F_TOTALCPU] >= 0 && (c->h->need_cpu || *f[col[F_TOTALCPU]])) {
		job->cpu_secs = ts_sacct_duration(f[col[F_TOTALCPU]]);
		if (job->cpu_secs < 0) {
			skip(c, TS_SACCT_BAD_VALUE,
			     "%s \"%.40s\" is not a duration", "TotalCPU",
			     f[col[F_TOTALCPU]]);
			return 0;
		}
	}
	return job_node(c, f, col, job);
}

/*
 * The header line: each needed field's column in col[] (-1: absent), the
 * field count in *nf.  RET TS_OK or TS_EINVAL naming the missing field.
 */
static int header(char *line, int *col, size_t *nf, struct ts_error *err)
{
	size_t k;

	*nf = ts_bar_header(line, field_name, F_COUNT, col);
	for (k = 0; k < F_COUNT; k++) {
		if (k == F_ELIGIBLE || k == F_SUBMIT || k == F_ALLOCTRES ||
		    k == F_ALLOCCPUS || k == F_TOTALCPU)
			continue;
		if (col[k] < 0)
			return ts_error_set(
				err, TS_EINVAL, 1,
				"line 1: no field %s in the header (sacct -P -o JobID,Account,User,Start,End,AllocTRES,...)",
				field_name[k]);
	}
	if (col[F_ALLOCTRES] < 0 && col[F_ALLOCCPUS] < 0)
		return ts_error_set(
			err, TS_EINVAL, 1,
			"line 1: neither AllocTRES nor AllocCPUS in the header");
	return TS_OK;
}

int ts_sacct_parse_in_place(char *text, size_t len,
			    const struct ts_sacct_hooks *h,
			    struct ts_sacct_jobs *out,
			    struct ts_sacct_summary *sum, struct ts_error *err)
{
	struct ctx c = { .h = h, .sum = sum, .line = 0 };
	int col[F_COUNT];
	size_t nf = 0;
	char **f = NULL, *p = text, *end = text + len, *line;
	int rc = TS_OK;

	text[len] = 0;
	while ((line = ts_bar_next_line(&p, end))) {
		size_t got;

		c.line++;
		sum->lines++;
		if (c.line == 1) {
			rc = header(line, col, &nf, err);
			if (rc)
				return rc;
			if (h->need_cpu && col[F_TOTALCPU] < 0)
				return ts_error_set(
					err, TS_EINVAL, 1,
					"line 1: no field TotalCPU in the header (usage_metric=consumed needs it)");
			f = malloc(nf * sizeof(*f));
			if (!f)
				return ts_error_set(err, TS_ENOMEM, -1,
						    "out of memory");
			continue;
		}
		got = ts_bar_split(line, f, nf);
		if (got != nf) {
			char a[32], b[32];

			snprintf(a, sizeof(a), "%zu", got);
			snprintf(b, sizeof(b), "%zu", nf);
			skip(&c, TS_SACCT_FIELDS,
			     "%s fields where the header has %s", a, b);
			continue;
		}
		if (out->n == out->cap && (rc = sacct_grow(out, err)))
			break;
		if (job_line(&c, f, col, &out->job[out->n])) {
			out->n++;
			sum->jobs++;
		}
	}
	if (!c.line && !rc)
		rc = ts_error_set(err, TS_EINVAL, 1,
				  "line 1: empty, no header");
	free(f);
	return rc;
}

void ts_sacct_jobs_free(struct ts_sacct_jobs *j)
{
	free(j->job);
	memset(j, 0, sizeof(*j));
}
