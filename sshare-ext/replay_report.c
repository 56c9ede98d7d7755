/* SPDX-License-Identifier: GPL-2.0-or-later */
/* replay_report.c - ts-replay --compare's files and summary. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "decimal.h"
#include "replay_report.h"
#include "svg_plot.h"

#define MAX_POINTS 1000 /* a plot's points: more than a page shows */

struct replay_report {
	struct replay_report_opts o;
	const struct ts_tree *t;
	const struct ts_sacct_job *jobs;
	FILE *fairshare, *pairs, *swapped;
	size_t n_users, *user; /* user nodes, tree order */
	/* [c * n_users + u]: sums over samples, extremes of the change */
	double *sum, *dsum, *dmax, *dmin;
	size_t samples;
	int64_t first, last;
	/* FairShare at every stride-th sample: [(c * n_users + u) * MAX_POINTS + p] */
	float *plot;
	size_t stride, n_points;
	int64_t last_plotted;
	/* per configuration: pairs, swapped, sum and count of tau-b */
	uint64_t *n_pairs, *n_swapped;
	double *tau_sum;
	size_t *tau_n;
};

void replay_format_time(int64_t t, char b[32])
{
	struct tm tm;
	time_t tt = (time_t)t;

	localtime_r(&tt, &tm);
	strftime(b, 32, "%Y-%m-%dT%H:%M:%S", &tm);
}

void replay_put_num(FILE *f, double v)
{
	char b[40];

	if (v != v || v > 1.7e308 || v < -1.7e308) {
		fputs(v > 0 ? "inf" : "", f);
		return;
	}
	ts_decimal_format(v, b, sizeof(b));
	fputs(b, f);
}

static const char *account_of(const struct ts_tree *t, size_t i)
{
	return t->is_user[i] ? ts_tree_name(t, (size_t)t->parent[i])
			     : ts_tree_name(t, i);
}

static FILE *open_file(const char *dir, const char *name)
{
	char path[PATH_MAX];
	FILE *f;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    sizeof(path)) {
		fprintf(stderr, "ts-replay: error: %s/%s: path too long\n", dir,
			name);
		return NULL;
	}
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "ts-replay: error: cannot write %s: %s\n", path,
			strerror(errno));
	return f;
}

static void put_labels(FILE *f, const struct replay_report_opts *o,
		       const char *prefix, size_t from)
{
	size_t c;

	for (c = from; c < o->k; c++)
		fprintf(f, ",%s%s", prefix, o->labels[c]);
}

static int alloc_report(struct replay_report *r)
{
	size_t cells = r->o.k * (r->n_users ? r->n_users : 1);

	r->sum = calloc(cells, sizeof(double));
	r->dsum = calloc(cells, sizeof(double));
	r->dmax = calloc(cells, sizeof(double));
	r->dmin = calloc(cells, sizeof(double));
	r->plot = calloc(cells * MAX_POINTS, sizeof(float));
	r->n_pairs = calloc(r->o.k, sizeof(uint64_t));
	r->n_swapped = calloc(r->o.k, sizeof(uint64_t));
	r->tau_sum = calloc(r->o.k, sizeof(double));
	r->tau_n = calloc(r->o.k, sizeof(size_t));
	if (!r->sum || !r->dsum || !r->dmax || !r->dmin || !r->plot ||
	    !r->n_pairs || !r->n_swapped || !r->tau_sum || !r->tau_n) {
		fprintf(stderr, "ts-replay: error: out of memory\n");
		return -1;
	}
	return 0;
}

int replay_report_open(struct replay_report **out,
		       const struct replay_report_opts *o,
		       const struct ts_tree *t, const struct ts_sacct_job *jobs)
{
	struct replay_report *r = calloc(1, sizeof(*r));
	size_t i;

	*out = r;
	if (!r || !(r->user = malloc(t->n * sizeof(size_t)))) {
		fprintf(stderr, "ts-replay: error: out of memory\n");
		return -1;
	}
	r->o = *o;
	r->t = t;
	r->jobs = jobs;
	for (i = 0; i < t->n; i++)
		if (t->is_user[i])
			r->user[r->n_users++] = i;
	r->stride = (o->max_samples + MAX_POINTS - 1) / MAX_POINTS;
	if (!r->stride)
		r->stride = 1;
	if (alloc_report(r))
		return -1;
	if (mkdir(o->dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "ts-replay: error: cannot make %s: %s\n",
			o->dir, strerror(errno));
		return -1;
	}
	r->fairshare = open_file(o->dir, "fairshare.csv");
	r->pairs = open_file(o->dir, "pairs.csv");
	if (o->swapped)
		r->swapped = open_file(o->dir, "swapped.csv");
	if (!r->fairshare || !r->pairs || (o->swapped && !r->swapped))
		return -1;
	fputs("Time,Account,User", r->fairshare);
	put_labels(r->fairshare, o, "FairShare.", 0);
	fputc('\n', r->fairshare);
	fputs("Time,Config,Pending,Pairs,Swapped,Concordant,TiedFirst,TiedConfig,TauB\n",
	      r->pairs);
	if (r->swapped)
		fputs("Time,Config,Ahead,Behind,FirstAhead,FirstBehind,ConfigAhead,ConfigBehind\n",
		      r->swapped);
	return 0;
}

/* fairshare.csv's rows, the movers' sums and the plots' points. */
static void sample_fairshare(struct replay_report *r,
			     const struct ts_compare_sample *s,
			     const char *when)
{
	const struct ts_tree *t = r->t;
	size_t i, c, u, p = (s->index - 1) / r->stride;
	int plotted = (s->index - 1) % r->stride == 0 && p < MAX_POINTS;

	for (i = 0; i < t->n; i++) {
		fprintf(r->fairshare, "%s,%s,%s", when, account_of(t, i),
			t->is_user[i] ? ts_tree_name(t, i) : "");
		for (c = 0; c < s->k; c++) {
			fputc(',', r->fairshare);
			replay_put_num(r->fairshare,
				       s->run[c].fs->fs_factor[i]);
		}
		fputc('\n', r->fairshare);
	}
	for (u = 0; u < r->n_users; u++) {
		double base = s->run[0].fs->fs_factor[r->user[u]];

		for (c = 0; c < s->k; c++) {
			size_t cell = c * r->n_users + u;
			double v = s->run[c].fs->fs_factor[r->user[u]];
			double d = v - base;

			r->sum[cell] += v;
			r->dsum[cell] += d;
			if (d > r->dmax[cell])
				r->dmax[cell] = d;
			if (d < r->dmin[cell])
				r->dmin[cell] = d;
			if (plotted)
				r->plot[cell * MAX_POINTS + p] = (float)v;
		}
	}
	if (plotted) {
		r->n_points = p + 1;
		r->last_plotted = s->time;
	}
}

/* swapped.csv: each pair configuration c orders the other way. */
static void list_swapped(struct replay_report *r,
			 const struct ts_compare_sample *s, size_t c,
			 const char *when)
{
	const double *a = s->prio, *b = s->prio + c * s->n_pending;
	size_t i, j;

	for (i = 0; i < s->n_pending; i++)
		for (j = 0; j < s->n_pending; j++) {
			if (!(a[i] > a[j] && b[i] < b[j]))
				continue;
			fprintf(r->swapped, "%s,%s,%s,%s,%.0f,%.0f,%.0f,%.0f\n",
				when, r->o.labels[c], r->jobs[s->pending[i]].id,
				r->jobs[s->pending[j]].id, a[i], a[j], b[i],
				b[j]);
		}
}

int replay_report_sample(void *arg, const struct ts_compare_sample *s)
{
	struct replay_report *r = arg;
	char when[32];
	size_t c;

	replay_format_time(s->time, when);
	if (!r->samples)
		r->first = s->time;
	r->last = s->time;
	r->samples++;
	sample_fairshare(r, s, when);
	for (c = 1; c < s->k; c++) {
		const struct ts_rank_pairs *p = &s->rank[c];

		fprintf(r->pairs, "%s,%s,%zu,%llu,%llu,%llu,%llu,%llu,", when,
			r->o.labels[c], s->n_pending,
			(unsigned long long)p->pairs,
			(unsigned long long)p->swapped,
			(unsigned long long)p->concordant,
			(unsigned long long)p->tied_a,
			(unsigned long long)p->tied_b);
		if (!isnan(p->tau_b)) {
			replay_put_num(r->pairs, p->tau_b);
			r->tau_sum[c] += p->tau_b;
			r->tau_n[c]++;
		}
		fputc('\n', r->pairs);
		r->n_pairs[c] += p->pairs;
		r->n_swapped[c] += p->swapped;
		if (r->swapped && p->swapped)
			list_swapped(r, s, c, when);
	}
	return ferror(r->fairshare) || ferror(r->pairs) ||
			       (r->swapped && ferror(r->swapped))
		       ? TS_EIO
		       : 0;
}

struct by_key {
	const double *key; /* per user; larger first */
};

static int larger_first(const void *x, const void *y, void *arg)
{
	const struct by_key *k = arg;
	size_t a = *(const size_t *)x, b = *(const size_t *)y;

	if (k->key[a] != k->key[b])
		return k->key[a] > k->key[b] ? -1 : 1;
	return (a > b) - (a < b);
}

/* The users (indexes into r->user) by key, largest first, into order. */
static void rank_users(const struct replay_report *r, const double *key,
		       size_t *order)
{
	struct by_key k = { key };
	size_t u;

	for (u = 0; u < r->n_users; u++)
		order[u] = u;
	qsort_r(order, r->n_users, sizeof(*order), larger_first, &k);
}

static double mean_change(const struct replay_report *r, size_t c, size_t u)
{
	return r->samples ? r->dsum[c * r->n_users + u] / (double)r->samples
			  : 0;
}

/* movers.csv: the users in order, their means and changes. */
static int write_movers_csv(const struct replay_report *r, const size_t *order)
{
	FILE *f = open_file(r->o.dir, "movers.csv");
	size_t i, c;

	if (!f)
		return -1;
	fputs("Account,User", f);
	put_labels(f, &r->o, "Mean.", 0);
	for (c = 1; c < r->o.k; c++)
		fprintf(f, ",MeanChange.%s,MaxGain.%s,MaxLoss.%s",
			r->o.labels[c], r->o.labels[c], r->o.labels[c]);
	fputc('\n', f);
	for (i = 0; i < r->n_users; i++) {
		size_t u = order[i], node = r->user[u];

		fprintf(f, "%s,%s", account_of(r->t, node),
			ts_tree_name(r->t, node));
		for (c = 0; c < r->o.k; c++) {
			fputc(',', f);
			replay_put_num(f, r->sum[c * r->n_users + u] /
						  (double)r->samples);
		}
		for (c = 1; c < r->o.k; c++) {
			size_t cell = c * r->n_users + u;

			fputc(',', f);
			replay_put_num(f, mean_change(r, c, u));
			fputc(',', f);
			replay_put_num(f, r->dmax[cell]);
			fputc(',', f);
			replay_put_num(f, r->dmin[cell]);
		}
		fputc('\n', f);
	}
	return fclose(f) ? -1 : 0;
}

/* movers.svg: the first n of order, a panel each. */
static int write_movers_svg(const struct replay_report *r, const size_t *order,
			    size_t n)
{
	struct ts_svg_panel *panel = calloc(n, sizeof(*panel));
	const double **y = calloc(n * r->o.k, sizeof(*y));
	double *v = malloc(n * r->o.k * r->n_points * sizeof(*v));
	char(*title)[256] = calloc(n, sizeof(*title));
	char first[32], last[32];
	struct ts_svg_chart chart = {
		.title = "FairShare of the biggest movers",
		.x_first = first,
		.x_last = last,
		.y_name = "FairShare:",
		.y_min = 0,
		.y_max = 1,
		.n_x = r->n_points,
		.series = r->o.labels,
		.n_series = r->o.k,
		.panel = panel,
		.n_panels = n,
	};
	size_t i, c, p;
	FILE *f = NULL;
	int rc = -1;

	if (!panel || !y || !v || !title)
		goto out;
	replay_format_time(r->first, first);
	replay_format_time(r->last_plotted, last);
	for (i = 0; i < n; i++) {
		size_t u = order[i], node = r->user[u];
		size_t used =
			(size_t)snprintf(title[i], sizeof(title[i]),
					 "%s (%s):", ts_tree_name(r->t, node),
					 account_of(r->t, node));

		for (c = 1; c < r->o.k && used < sizeof(title[i]); c++)
			used += (size_t)snprintf(title[i] + used,
						 sizeof(title[i]) - used,
						 " %s %+.4f", r->o.labels[c],
						 mean_change(r, c, u));
		for (c = 0; c < r->o.k; c++) {
			double *line = v + (i * r->o.k + c) * r->n_points;
			const float *kept =
				r->plot + (c * r->n_users + u) * MAX_POINTS;

			for (p = 0; p < r->n_points; p++)
				line[p] = kept[p];
			y[i * r->o.k + c] = line;
		}
		panel[i].title = title[i];
		panel[i].y = y + i * r->o.k;
	}
	f = open_file(r->o.dir, "movers.svg");
	if (f && !ts_svg_chart_write(f, &chart))
		rc = 0;
out:
	if (f && fclose(f))
		rc = -1;
	if (rc && !f)
		fprintf(stderr, "ts-replay: error: movers.svg not written\n");
	free(panel);
	free(y);
	free(v);
	free(title);
	return rc;
}

/* The summary of configuration c against the first, on stdout. */
static void summarise_against_first(const struct replay_report *r, size_t c,
				    double *key, size_t *order)
{
	size_t u, shown;

	for (u = 0; u < r->n_users; u++)
		key[u] = mean_change(r, c, u);
	rank_users(r, key, order);
	printf("%s against %s:\n  gains most:", r->o.labels[c], r->o.labels[0]);
	for (u = 0, shown = 0; u < r->n_users && shown < r->o.top; u++)
		if (key[order[u]] > 0 && ++shown)
			printf(" %s (%s) %+.4f",
			       ts_tree_name(r->t, r->user[order[u]]),
			       account_of(r->t, r->user[order[u]]),
			       key[order[u]]);
	printf("%s\n  loses most:", shown ? "" : " nobody");
	for (u = r->n_users, shown = 0; u > 0 && shown < r->o.top; u--)
		if (key[order[u - 1]] < 0 && ++shown)
			printf(" %s (%s) %+.4f",
			       ts_tree_name(r->t, r->user[order[u - 1]]),
			       account_of(r->t, r->user[order[u - 1]]),
			       key[order[u - 1]]);
	printf("%s\n  pending pairs: %llu over %zu samples, %llu swapped",
	       shown ? "" : " nobody", (unsigned long long)r->n_pairs[c],
	       r->samples, (unsigned long long)r->n_swapped[c]);
	if (r->n_pairs[c])
		printf(" (%.2f %%)",
		       100.0 * (double)r->n_swapped[c] / (double)r->n_pairs[c]);
	if (r->tau_n[c])
		printf("; Kendall's tau-b %.4f on average over %zu samples",
		       r->tau_sum[c] / (double)r->tau_n[c], r->tau_n[c]);
	putchar('\n');
}

static void free_report(struct replay_report *r)
{
	if (!r)
		return;
	if (r->fairshare)
		fclose(r->fairshare);
	if (r->pairs)
		fclose(r->pairs);
	if (r->swapped)
		fclose(r->swapped);
	free(r->user);
	free(r->sum);
	free(r->dsum);
	free(r->dmax);
	free(r->dmin);
	free(r->plot);
	free(r->n_pairs);
	free(r->n_swapped);
	free(r->tau_sum);
	free(r->tau_n);
	free(r);
}

void replay_report_abandon(struct replay_report *r)
{
	free_report(r);
}

int replay_report_close(struct replay_report *r)
{
	size_t nu = r->n_users ? r->n_users : 1, u, c;
	double *key = calloc(nu, sizeof(*key));
	size_t *order = malloc(nu * sizeof(*order));
	char first[32], last[32];
	int rc = -1;

	if (!key || !order || !r->samples)
		goto out;
	/* the biggest movers: largest mean change under any configuration */
	for (u = 0; u < r->n_users; u++)
		for (c = 1; c < r->o.k; c++)
			if (fabs(mean_change(r, c, u)) > key[u])
				key[u] = fabs(mean_change(r, c, u));
	rank_users(r, key, order);
	if (write_movers_csv(r, order) ||
	    (r->n_users &&
	     write_movers_svg(r, order,
			      r->o.top < r->n_users ? r->o.top : r->n_users)))
		goto out;
	replay_format_time(r->first, first);
	replay_format_time(r->last, last);
	printf("ts-replay: %zu configurations over %zu samples, %s to %s, against the first (%s); %zu users\n",
	       r->o.k, r->samples, first, last, r->o.labels[0], r->n_users);
	for (c = 1; c < r->o.k; c++)
		summarise_against_first(r, c, key, order);
	rc = 0;
out:
	if (!r->samples)
		fprintf(stderr, "ts-replay: error: no sample to report\n");
	if (r->fairshare && fclose(r->fairshare))
		rc = -1;
	if (r->pairs && fclose(r->pairs))
		rc = -1;
	if (r->swapped && fclose(r->swapped))
		rc = -1;
	r->fairshare = r->pairs = r->swapped = NULL;
	free(key);
	free(order);
	free_report(r);
	return rc;
}
