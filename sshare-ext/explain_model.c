/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explain_model.c - the figures of --explain (explain_model.h): the
 * arithmetic is src/explain.c's and the fair-share algorithms' of src/;
 * this file picks the rows, the path and the words.
 */
#include <ctype.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "caps.h"
#include "cli.h"
#include "explain.h"
#include "explain_model.h"
#include "ft_decide.h"

/* A weighted factor normalised again: NAN at weight 0 (sprio keeps 0). */
static double unweigh(double contrib, double weight)
{
	return weight != 0 ? contrib / weight : NAN;
}

static struct xfactor *add_factor(struct xrow *x, const char *name, double w,
				  int weighted, double contrib)
{
	struct xfactor *fa = &x->fac[x->n++];

	snprintf(fa->name, sizeof(fa->name), "%s", name);
	fa->weight = w;
	fa->weighted = weighted;
	fa->contrib = contrib;
	fa->norm = weighted ? unweigh(contrib, w) : NAN;
	fa->from[0] = '\0';
	return fa;
}

/* Row r's contributions, in slurmctld's order of the sum. */
static int build_row(struct xrow *x, const struct explain_conf *c,
		     const struct explain_row *r)
{
	struct xfactor *fa;
	uint32_t i;

	x->r = r;
	x->fac = calloc(8 + r->tres_cnt, sizeof(*x->fac));
	if (!x->fac)
		return -1;
	fa = add_factor(x, "Age", c->w_age, 1, r->f.age);
	if (c->w_age && c->max_age)
		snprintf(fa->from, sizeof(fa->from),
			 "waited %.0f s of PriorityMaxAge %u s",
			 r->f.age / c->w_age * c->max_age, c->max_age);
	fa = add_factor(x, "Assoc", c->w_assoc, 1, r->f.assoc);
	snprintf(fa->from, sizeof(fa->from),
		 "association Priority over the highest");
	fa = add_factor(x, "FairShare", c->w_fs, 1, r->f.fs);
	snprintf(fa->from, sizeof(fa->from), "%s: the path below",
		 cli_algo_name(c->algo));
	fa = add_factor(x, "JobSize", c->w_js, 1, r->f.js);
	snprintf(fa->from, sizeof(fa->from),
		 "nodes and CPUs against the cluster's");
	fa = add_factor(x, "Partition", c->w_part, 1, r->f.part);
	snprintf(fa->from, sizeof(fa->from),
		 "PriorityJobFactor over the highest");
	fa = add_factor(x, "QOS", c->w_qos, 1, r->f.qos);
	snprintf(fa->from, sizeof(fa->from), "QOS Priority over the highest");
	for (i = 0; i < r->tres_cnt; i++) {
		char name[48];

		if (r->tres[i] == 0.0 && r->tres_weights[i] == 0.0)
			continue;
		snprintf(name, sizeof(name), "TRES/%s",
			 r->tres_names[i] ? r->tres_names[i] : "?");
		fa = add_factor(x, name, r->tres_weights[i], 1, r->tres[i]);
		snprintf(fa->from, sizeof(fa->from),
			 "the job's over the partition's");
	}
	fa = add_factor(x, "Site", 0, 0, ts_prio_offset(r->f.site));
	snprintf(fa->from, sizeof(fa->from), "site factor");
	fa = add_factor(x, "Nice", 0, 0, 0.0 - ts_prio_offset(r->f.nice));
	snprintf(fa->from, sizeof(fa->from), "minus the nice value");
	x->sum =
		ts_explain_ctld_sum(&r->f, r->tres, r->tres_cnt, r->part_first);
	x->prio = ts_prio_clamp(x->sum, NULL);
	return 0;
}

/* Does the formula text name variable name (a whole identifier)? */
static int names(const char *text, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = text; (p = strstr(p, name)); p += n) {
		int before = p > text &&
			     (isalnum((unsigned char)p[-1]) || p[-1] == '_');
		int after = isalnum((unsigned char)p[n]) || p[n] == '_';

		if (!before && !after)
			return 1;
	}
	return 0;
}

/* "name=value " onto x->vars; value NAN: not known to a client. */
static void var(struct xrow *x, const char *text, const char *name,
		double value)
{
	size_t used = strlen(x->vars);

	if (!names(text, name) || used >= sizeof(x->vars) - 1)
		return;
	if (isnan(value))
		snprintf(x->vars + used, sizeof(x->vars) - used, "%s%s=?",
			 used ? " " : "", name);
	else
		snprintf(x->vars + used, sizeof(x->vars) - used, "%s%s=%.6g",
			 used ? " " : "", name, value);
}

/*
 * formula=: the variables it names, with the values the row and the
 * tree give (priority_treeshare(5), formula=): the factors normalised
 * (sprio has them weighted, so a factor of weight 0 is unknown here, and
 * from 23.11 a formula's rows carry none), site and nice, the PBS values
 * of the job's association; Maui's maui_fs and deltas are --diagnose-p's.
 */
static void formula_variables(struct explain_model *m, struct xrow *x)
{
	const struct explain_conf *c = m->conf;
	const struct explain_row *r = x->r;
	const char *t = c->formula;
	int f = x->n > 0, k;
	uint32_t i;
	static const char *const maui[] = {
		"maui_fs",	    "fs_user_delta", "fs_group_delta",
		"fs_account_delta", "fs_qos_delta",  "fs_class_delta"
	};

	x->vars[0] = '\0';
	if (!t)
		return;
	var(x, t, "age", f ? unweigh(r->f.age, c->w_age) : NAN);
	var(x, t, "assoc", f ? unweigh(r->f.assoc, c->w_assoc) : NAN);
	var(x, t, "fairshare", f ? unweigh(r->f.fs, c->w_fs) : NAN);
	var(x, t, "jobsize", f ? unweigh(r->f.js, c->w_js) : NAN);
	var(x, t, "partition", f ? unweigh(r->f.part, c->w_part) : NAN);
	var(x, t, "qos", f ? unweigh(r->f.qos, c->w_qos) : NAN);
	var(x, t, "site", f ? ts_prio_offset(r->f.site) : NAN);
	var(x, t, "nice", f ? ts_prio_offset(r->f.nice) : NAN);
	if (m->have_fs && m->node >= 0) {
		var(x, t, "fairshare_tree_usage",
		    m->fs.pbs_tree_usage[m->node]);
		var(x, t, "fairshare_perc", m->fs.pbs_perc[m->node]);
		var(x, t, "fairshare_factor", m->fs.pbs_factor[m->node]);
	}
	for (k = 0; k < (int)(sizeof(maui) / sizeof(maui[0])); k++)
		var(x, t, maui[k], NAN);
	for (i = 0; i < r->tres_cnt; i++) {
		char name[80];
		size_t j;

		snprintf(name, sizeof(name), "tres_%s",
			 r->tres_names[i] ? r->tres_names[i] : "");
		for (j = 5; name[j]; j++)
			name[j] =
				isalnum((unsigned char)name[j])
					? (char)tolower((unsigned char)name[j])
					: '_';
		var(x, t, name, unweigh(r->tres[i], r->tres_weights[i]));
	}
}

/* The row of association id among those sshare showed, or NULL. */
static const struct share_row *row_of(const struct share_set *s, uint32_t id)
{
	size_t k;

	for (k = 0; s->rows && k < s->n; k++)
		if (s->rows[k].id == id)
			return &s->rows[k];
	return NULL;
}

/* The FairShare of node fsn and the formula that gives it, in words. */
static void fs_formula(struct explain_model *m, const struct share_set *s,
		       size_t fsn)
{
	const struct ts_fs *fs = &m->fs;
	const struct explain_conf *c = m->conf;

	m->fs_value = fs->fs_factor[fsn];
	switch (c->algo) {
	case TS_FS_FAIR_TREE:
		m->rank = fs->rank[fsn];
		m->users = s->tree.n_users;
		snprintf(
			m->fs_formula, sizeof(m->fs_formula),
			"rank %u of %zu users (ranked by Level FS from the root down): FairShare = %u / %zu = %.6f",
			m->rank, m->users, m->rank, m->users, m->fs_value);
		break;
	case TS_FS_PBS:
		snprintf(
			m->fs_formula, sizeof(m->fs_formula),
			"fairshare_factor = 2^(-fairshare_tree_usage / fairshare_perc) = 2^(-%.6f / %.6f) = %.6f",
			fs->pbs_tree_usage[fsn], fs->pbs_perc[fsn],
			m->fs_value);
		break;
	default:
		snprintf(
			m->fs_formula, sizeof(m->fs_formula),
			"FairShare = 2^(-EffectvUsage / NormShares / FairShareDampeningFactor) = 2^(-%.6Lf / %.6f / %g) = %.6f%s",
			fs->usage_efctv[fsn], fs->shares_norm[fsn], c->damp,
			m->fs_value,
			fsn != (size_t)m->node
				? " (Fairshare=parent: the account's)"
				: "");
		break;
	}
}

/* The whole tree: every level's figures, computed by src/. */
static int whole_path(struct explain_model *m, const struct share_set *s,
		      char *msg, size_t len)
{
	struct ts_fs_config cfg = { .algo = m->conf->algo,
				    .damp = m->conf->damp };
	struct ts_error err = TS_ERROR_INIT;
	const struct ts_tree *t = &s->tree;
	size_t cap = t->depth[m->node] + 1, n, k;
	long *nodes;

	if (ts_fs_alloc(&m->fs, t->n, &err) ||
	    ts_fs_compute_pbs(t, &cfg, 1, &m->fs, &err)) {
		snprintf(msg, len, "%s", err.msg);
		return -1;
	}
	m->have_fs = 1;
	nodes = malloc(cap * sizeof(*nodes));
	m->path.lv = calloc(cap, sizeof(*m->path.lv));
	if (!nodes || !m->path.lv) {
		free(nodes);
		snprintf(msg, len, "out of memory");
		return -1;
	}
	n = ts_explain_path(t, (size_t)m->node, nodes, cap);
	m->path.whole = 1;
	m->path.pbs = m->conf->algo == TS_FS_PBS;
	for (k = 0; k < n; k++) {
		struct xlevel *l = &m->path.lv[k];
		size_t i = (size_t)nodes[k];

		l->depth = k;
		l->name = i ? ts_tree_name(t, i) : "root";
		l->is_user = t->is_user[i];
		l->shares_raw = t->shares[i];
		l->shares =
			m->path.pbs ? m->fs.pbs_perc[i] : m->fs.shares_norm[i];
		l->usage_raw = s->raw_usage ? (double)s->raw_usage[i]
					    : (double)t->usage[i];
		l->efctv = m->path.pbs ? m->fs.pbs_tree_usage[i]
				       : (double)m->fs.usage_efctv[i];
		l->level_fs = (double)m->fs.level_fs[i];
	}
	free(nodes);
	m->path.n = n;
	fs_formula(m, s, ts_fs_job_node(t, m->conf->algo, (size_t)m->node));
	return 0;
}

/* A partial view (PrivateData=usage): the job's own row, sshare's. */
static int own_row(struct explain_model *m, const struct share_set *s,
		   const struct share_row *r)
{
	struct xlevel *l;
	double v = NAN;

	m->path.lv = calloc(1, sizeof(*m->path.lv));
	if (!m->path.lv)
		return -1;
	l = &m->path.lv[0];
	l->name = r->name;
	l->is_user = r->is_user;
	l->shares_raw = r->shares_raw;
	l->shares = r->shares_norm;
	l->usage_raw = (double)r->usage_raw;
	l->efctv = r->usage_efctv;
	l->level_fs = r->level_fs;
	m->path.n = 1;
	m->path.pbs = m->conf->algo == TS_FS_PBS;
	(void)share_set_fairshare(s, r, &v);
	m->fs_value = v;
	snprintf(m->fs_formula, sizeof(m->fs_formula),
		 "FairShare %.6f (sshare's)", v);
	snprintf(
		m->path_note, sizeof(m->path_note),
		"the levels above are not shown: PrivateData=usage shows this user only their own associations");
	return 0;
}

/* sprio's FairShare against the path's, when they part. */
static void fs_agreement(struct explain_model *m)
{
	double sprio;

	if (m->conf->cred_fs) {
		snprintf(
			m->path_note, sizeof(m->path_note),
			"Maui's credential fair share decides FairShare (below), not the tree");
		return;
	}
	if (!m->n_rows || !m->conf->w_fs || m->rows[0].r->direct ||
	    !m->path.whole)
		return;
	sprio = m->rows[0].r->f.fs / m->conf->w_fs;
	if (fabs(sprio - m->fs_value) > 5e-7)
		snprintf(
			m->path_note, sizeof(m->path_note),
			"sprio's FairShare %.6f is from the last priority calculation; sshare's usage has moved since",
			sprio);
}

/*
 * A feasibility cap's hold reason, caps.h's: "FairshareCap:NAME=U>=C",
 * a percentage when U and C end in '%'.  When usage decays by
 * half-life only, an absolute cap lets the job go once U has decayed
 * below C.
 */
static void cap_hold(struct explain_model *m)
{
	const char *r = m->j->reason, *ge, *eq;
	double u, cap;
	size_t plen = strlen(TS_CAPS_REASON_PREFIX);

	m->cap_release = -1;
	if (!r || strncmp(r, TS_CAPS_REASON_PREFIX, plen) ||
	    !(ge = strstr(r, ">=")))
		return;
	for (eq = ge; eq > r && *eq != '='; eq--)
		;
	u = strtod(eq + 1, NULL);
	cap = strtod(ge + 2, NULL);
	if (strchr(ge, '%')) {
		snprintf(
			m->cap_note, sizeof(m->cap_note),
			"held by a feasibility cap (%s): a share of all usage, which decay alone does not lower",
			r + plen);
		return;
	}
	if (m->conf->usage_window) {
		snprintf(
			m->cap_note, sizeof(m->cap_note),
			"held by a feasibility cap (%s): usage leaves it as the usage windows roll (%s); not estimated",
			r + plen, m->conf->usage_window);
		return;
	}
	m->cap_release = ts_explain_decay_below(u, cap, m->conf->half_life);
	if (m->cap_release < 0)
		snprintf(
			m->cap_note, sizeof(m->cap_note),
			"held by a feasibility cap (%s): usage does not decay (PriorityDecayHalfLife=0)",
			r + plen);
	else
		snprintf(
			m->cap_note, sizeof(m->cap_note),
			"held by a feasibility cap (%s): usage %.0f decays below %g in %.0f s (half-life %u s); released at the first cycle after",
			r + plen, u, cap, m->cap_release, m->conf->half_life);
}

int explain_model_build(struct explain_model *m, const struct explain_conf *c,
			const struct explain_job *j, const struct share_set *s,
			char *msg, size_t len)
{
	const struct share_row *row = row_of(s, j->assoc_id);
	struct passwd *pw;
	size_t k;

	memset(m, 0, sizeof(*m));
	m->conf = c;
	m->j = j;
	m->node = -1;
	if (j->user)
		snprintf(m->user, sizeof(m->user), "%s", j->user);
	else if ((pw = getpwuid(j->uid)))
		snprintf(m->user, sizeof(m->user), "%s", pw->pw_name);
	else
		snprintf(m->user, sizeof(m->user), "%u", j->uid);
	snprintf(msg, len, "out of memory");
	m->rows = calloc(j->n_rows ? j->n_rows : 1, sizeof(*m->rows));
	if (!m->rows)
		return -1;
	for (k = 0; k < j->n_rows; k++, m->n_rows++)
		if (build_row(&m->rows[k], c, &j->rows[k]))
			return -1;
	cap_hold(m);
	if (row)
		m->node = row->node;
	m->fs_value = NAN;
	/* whole: sshare gave every association the tree holds */
	if (m->node >= 0 && s->tree.n && s->tree.n == s->n) {
		if (whole_path(m, s, msg, len))
			return -1;
	} else if (row) {
		if (own_row(m, s, row))
			return -1;
	} else {
		snprintf(m->path_note, sizeof(m->path_note),
			 "sshare shows this user no row of association %u",
			 j->assoc_id);
	}
	fs_agreement(m);
	for (k = 0; k < m->n_rows; k++)
		formula_variables(m, &m->rows[k]);
	return 0;
}

void explain_model_free(struct explain_model *m)
{
	size_t k;

	for (k = 0; m->rows && k < m->n_rows; k++)
		free(m->rows[k].fac);
	free(m->rows);
	free(m->path.lv);
	ts_fs_free(&m->fs);
	memset(m, 0, sizeof(*m));
}

/* ---------------------------------------------------------- compare */

static const struct xrow *row_in(const struct explain_model *m,
				 const char *part)
{
	size_t k;

	for (k = 0; k < m->n_rows; k++)
		if (m->rows[k].r->partition && part &&
		    !strcmp(m->rows[k].r->partition, part))
			return &m->rows[k];
	return NULL;
}

static double row_priority(const struct xrow *x)
{
	return x->r->direct ? x->r->direct_prio : (double)x->prio;
}

/* The deciding factor: the largest lead of the one ahead, by name. */
static void decisive(struct explain_cmp *cmp, const struct xrow *ahead,
		     const struct xrow *behind)
{
	double a[64], b[64];
	size_t idx[64], n = 0, k, i;
	long d;

	for (k = 0; k < ahead->n && n < 64; k++) {
		double other = 0;

		for (i = 0; i < behind->n; i++)
			if (!strcmp(behind->fac[i].name, ahead->fac[k].name))
				other = behind->fac[i].contrib;
		a[n] = ahead->fac[k].contrib;
		b[n] = other;
		idx[n++] = k;
	}
	d = ts_explain_decisive(a, b, n);
	if (d < 0)
		return;
	snprintf(cmp->factor, sizeof(cmp->factor), "%s",
		 ahead->fac[idx[d]].name);
	cmp->difference = a[d] - b[d];
	snprintf(cmp->decides, sizeof(cmp->decides),
		 "the factor that decides: %s, %.6f against %.6f (+%.6f)",
		 cmp->factor, a[d], b[d], cmp->difference);
}

/* Where the two users' paths part, in the algorithm's terms. */
static void where(struct explain_cmp *cmp, const struct explain_conf *c,
		  const struct share_set *s, const struct explain_model *a,
		  const struct explain_model *b)
{
	const struct ts_tree *t = &s->tree;
	struct ts_error err = TS_ERROR_INIT;
	struct ts_ft_decision d;
	size_t na, nb;

	if (!a->have_fs || !b->have_fs || a->node < 0 || b->node < 0)
		return;
	na = (size_t)a->node;
	nb = (size_t)b->node;
	if (na == nb) {
		snprintf(
			cmp->where, sizeof(cmp->where),
			"both jobs are of one association (%s): the same FairShare",
			a->user);
		return;
	}
	if (ts_ft_decide(t, &a->fs, na, nb, &d, &err))
		return;
	snprintf(cmp->ancestor, sizeof(cmp->ancestor), "%s",
		 d.ancestor > 0 ? ts_tree_name(t, (size_t)d.ancestor) : "root");
	snprintf(cmp->side[0], sizeof(cmp->side[0]), "%s",
		 ts_tree_name(t, (size_t)d.side_a));
	snprintf(cmp->side[1], sizeof(cmp->side[1]), "%s",
		 ts_tree_name(t, (size_t)d.side_b));
	if (c->algo == TS_FS_FAIR_TREE) {
		cmp->side_value[0] = (double)a->fs.level_fs[d.side_a];
		cmp->side_value[1] = (double)a->fs.level_fs[d.side_b];
		snprintf(
			cmp->where, sizeof(cmp->where),
			"Fair Tree: the paths part below %s, where %s has Level FS %.6f and %s %.6f: %s",
			cmp->ancestor, cmp->side[0], cmp->side_value[0],
			cmp->side[1], cmp->side_value[1],
			d.tied ? "tied, so their users may share a rank"
			: d.a_first
				? "the first ranks every user below it higher"
				: "the second ranks every user below it higher");
		return;
	}
	cmp->side_value[0] = a->fs_value;
	cmp->side_value[1] = b->fs_value;
	snprintf(
		cmp->where, sizeof(cmp->where),
		"%s: each user's FairShare is its own (%s %.6f, %s %.6f); the paths part below %s (%s, %s)",
		cli_algo_name(c->algo), a->user, a->fs_value, b->user,
		b->fs_value, cmp->ancestor, cmp->side[0], cmp->side[1]);
}

/*
 * When a row's factors were computed: its accrual plus the wait its age
 * term stands for, known while the term is neither 0 nor full.  0 when
 * not known.
 */
static time_t calc_time(const struct explain_conf *c, const struct xrow *x,
			time_t accrue)
{
	double age = x->r->f.age;

	if (!c->w_age || !c->max_age || !accrue || !(age > 0) ||
	    !(age < c->w_age))
		return 0;
	return accrue + (time_t)llround(age / c->w_age * c->max_age);
}

/* When the job behind gets ahead by age alone. */
static void when(struct explain_cmp *cmp, const struct explain_conf *c,
		 const struct xrow *ahead, const struct xrow *behind,
		 const struct explain_model *ma, const struct explain_model *mb)
{
	struct ts_overtake o = {
		.behind = behind->sum,
		.ahead = ahead->sum,
		.age_behind = behind->r->f.age,
		.age_ahead = ahead->r->f.age,
		.w_age = c->w_age,
		.max_age = c->max_age,
	};
	char at[64] = "";
	double t;

	cmp->overtake = -1;
	if (ahead->r->direct || behind->r->direct) {
		snprintf(
			cmp->when, sizeof(cmp->when),
			"a priority set directly does not move with age: no estimate");
		return;
	}
	t = ts_explain_overtake_age(&o);
	cmp->overtake = t;
	if (t < 0) {
		snprintf(
			cmp->when, sizeof(cmp->when),
			"job %u does not get ahead by age alone: its age term grows no faster than job %u's before it is full",
			mb->j->id, cmp->ahead);
		return;
	}
	cmp->overtake_at = calc_time(c, behind, mb->j->accrue);
	if (!cmp->overtake_at)
		cmp->overtake_at = calc_time(c, ahead, ma->j->accrue);
	if (cmp->overtake_at) {
		struct tm tm;

		cmp->overtake_at += (time_t)ceil(t);
		if (localtime_r(&cmp->overtake_at, &tm))
			strftime(at, sizeof(at), " (about %Y-%m-%dT%H:%M:%S)",
				 &tm);
	}
	snprintf(
		cmp->when, sizeof(cmp->when),
		"job %u gets ahead by age alone %.0f s after the last priority calculation%s, once job %u's age term is full; the order changes at the first cycle after (PriorityCalcPeriod %u s)",
		mb->j->id, ceil(t), at, cmp->ahead, c->calc_period);
}

void explain_compare(struct explain_cmp *cmp, const struct explain_conf *c,
		     const struct share_set *s, const struct explain_model *a,
		     const struct explain_model *b)
{
	const struct xrow *ra = NULL, *rb = NULL, *ahead, *behind;
	const struct explain_model *ma = a, *mb = b;
	size_t k;

	memset(cmp, 0, sizeof(*cmp));
	cmp->overtake = -1;
	cmp->side_value[0] = cmp->side_value[1] = NAN;
	cmp->difference = NAN;
	for (k = 0; k < a->n_rows && !rb; k++) {
		ra = &a->rows[k];
		rb = row_in(b, ra->r->partition);
	}
	where(cmp, c, s, a, b);
	if (!ra || !rb) {
		snprintf(
			cmp->verdict, sizeof(cmp->verdict),
			"jobs %u and %u are not pending with factors in a common partition: no order between them",
			a->j->id, b->j->id);
		return;
	}
	snprintf(cmp->partition, sizeof(cmp->partition), "%s",
		 ra->r->partition);
	ahead = ra;
	behind = rb;
	if (row_priority(rb) > row_priority(ra)) {
		ahead = rb;
		behind = ra;
		ma = b;
		mb = a;
	}
	cmp->ahead = ma->j->id;
	cmp->behind = mb->j->id;
	cmp->tied = row_priority(ra) == row_priority(rb);
	if (cmp->tied)
		snprintf(
			cmp->verdict, sizeof(cmp->verdict),
			"in partition %s jobs %u and %u have one priority, %.0f: Slurm then orders them by submit time and job id",
			cmp->partition, a->j->id, b->j->id, row_priority(ra));
	else
		snprintf(
			cmp->verdict, sizeof(cmp->verdict),
			"in partition %s job %u is ahead of job %u: %.0f > %.0f",
			cmp->partition, cmp->ahead, cmp->behind,
			row_priority(ahead), row_priority(behind));
	if (!ahead->r->direct && !behind->r->direct)
		decisive(cmp, ahead, behind);
	when(cmp, c, ahead, behind, ma, mb);
}
