/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * setup.c - build slurmctld's state from a fixture (see setup.h).
 *
 * Associations, QOS, TRES and usage go through slurmctld's own start-up
 * path for a database that is down: the harness writes the state files
 * slurmctld would have dumped (with libslurmfull's pack functions) and
 * loads them with assoc_mgr's loaders.  Partitions and jobs are
 * slurmctld-private structures, filled field by field as read_config.c
 * and job_mgr.c leave them.
 */
#include "config.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/common/assoc_mgr.h"
#include "src/common/log.h"
#include "src/common/pack.h"
#include "src/common/read_config.h"
#include "src/common/slurm_protocol_common.h"
#include "src/common/slurmdbd_defs.h"
#include "src/common/slurmdbd_pack.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "src/decay_record.h"
#include "src/usage_state.h"
#include "src/window_store.h"

#include "release.h"
#include "setup.h"
#include "stubs.h"

#define DEFAULT_TRES_COUNT  8	 /* cpu mem energy node billing fs/disk ... */
#define FIRST_EXTRA_TRES_ID 1001 /* slurmdbd numbers gres TRES so */

#ifndef TH_DEB_PLUGINDIR
#define TH_DEB_PLUGINDIR "/usr/lib/x86_64-linux-gnu/slurm-wlm"
#endif

static uint16_t cache_state = RUNNING_CACHE_STATE_NOTRUNNING;

static int write_file(const char *dir, const char *name, const void *data,
		      size_t len)
{
	char *path = xstrdup_printf("%s/%s", dir, name);
	const char *p = data;
	int fd, rc = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		fprintf(stderr, "ts-harness: cannot create %s: %s\n", path,
			strerror(errno));
		xfree(path);
		return -1;
	}
	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "ts-harness: cannot write %s: %s\n",
				path, strerror(errno));
			rc = -1;
			break;
		}
		p += n;
		len -= (size_t)n;
	}
	if (close(fd))
		rc = -1;
	xfree(path);
	return rc;
}

static int write_buf(const char *dir, const char *name, buf_t *buf)
{
	int rc = write_file(dir, name, get_buf_data(buf), get_buf_offset(buf));

	free_buf(buf);
	return rc;
}

/* A state file starts with the protocol version and the dump time. */
static buf_t *state_buf(time_t now)
{
	buf_t *buf = init_buf(BUF_SIZE);

	pack16(SLURM_PROTOCOL_VERSION, buf);
	pack_time(now, buf);
	return buf;
}

/* line with every ${FIXTURE_DIR} replaced by the fixture's directory. */
static char *expand(const char *line, const struct th_fixture *fx)
{
	static const char var[] = "${FIXTURE_DIR}";
	const char *at;
	char *out = NULL;

	while ((at = strstr(line, var))) {
		xstrncat(out, line, (size_t)(at - line));
		xstrcat(out, fx->dir);
		line = at + strlen(var);
	}
	xstrcat(out, line);
	return out;
}

/* "Key=..." and "key=..." are the same key, as in slurm.conf. */
static bool same_key(const char *a, const char *b)
{
	size_t n = strcspn(a, "=");

	return n == strcspn(b, "=") && !strncasecmp(a, b, n);
}

/*
 * slurm.conf: the harness's lines, then the fixture's conf lines, each
 * replaced by the last override (reconfigure) of its key, then the
 * overrides of keys the fixture does not set.
 */
static int write_conf(struct th_setup *s, const struct th_fixture *fx)
{
	char *conf = NULL, *line;
	size_t i, k;
	int rc;

	xstrfmtcat(conf,
		   "# written by ts-harness for %s\n"
		   "ClusterName=harness\n"
		   "SlurmctldHost=localhost\n"
		   "SlurmUser=root\n"
		   "AccountingStorageType=accounting_storage/slurmdbd\n"
		   "PriorityType=%s\n"
		   "PluginDir=%s\n"
		   "StateSaveLocation=%s\n",
		   fx->path, s->plugin, s->plugin_dir, s->dir);
	for (i = 0; i < fx->n_conf; i++) {
		const char *use = fx->conf[i];

		for (k = 0; k < s->n_override; k++)
			if (same_key(s->override[k], fx->conf[i]))
				use = s->override[k];
		line = expand(use, fx);
		xstrfmtcat(conf, "%s\n", line);
		xfree(line);
	}
	for (k = 0; k < s->n_override; k++) {
		bool later = false, in_fixture = false;

		for (i = k + 1; i < s->n_override; i++)
			later |= same_key(s->override[i], s->override[k]);
		for (i = 0; i < fx->n_conf; i++)
			in_fixture |= same_key(fx->conf[i], s->override[k]);
		if (later || in_fixture)
			continue;
		line = expand(s->override[k], fx);
		xstrfmtcat(conf, "%s\n", line);
		xfree(line);
	}
	rc = write_file(s->dir, "slurm.conf", conf, strlen(conf));
	xfree(conf);
	return rc;
}

int th_setup_conf(struct th_setup *s, const struct th_fixture *fx)
{
	log_options_t logopt = LOG_OPTS_STDERR_ONLY;
	const char *tmp = getenv("TMPDIR");
	char *path;
	int rc;

	logopt.stderr_level = LOG_LEVEL_ERROR + s->verbose;
	if (logopt.stderr_level > LOG_LEVEL_END - 1)
		logopt.stderr_level = LOG_LEVEL_END - 1;
	/* run_in_daemon() compares this name: running_in_slurmctld() */
	log_init("slurmctld", logopt, 0, NULL);

	if (s->state_dir) {
		s->dir = xstrdup(s->state_dir);
		s->keep_dir = true;
		if (mkdir(s->dir, 0700) && errno != EEXIST) {
			fprintf(stderr, "ts-harness: mkdir %s: %s\n", s->dir,
				strerror(errno));
			return -1;
		}
	} else {
		s->dir = xstrdup_printf("%s/ts-harness.XXXXXX",
					(tmp && *tmp) ? tmp : "/tmp");
		if (!mkdtemp(s->dir)) {
			fprintf(stderr, "ts-harness: mkdtemp %s: %s\n", s->dir,
				strerror(errno));
			return -1;
		}
	}
	if (write_conf(s, fx))
		return -1;

	path = xstrdup_printf("%s/slurm.conf", s->dir);
	rc = slurm_conf_init(path);
	xfree(path);
	if (rc != SLURM_SUCCESS) {
		fprintf(stderr,
			"ts-harness: %s: slurm.conf from the fixture "
			"was rejected: %s\n",
			fx->path, slurm_strerror(rc));
		return -1;
	}
	accounting_enforce = slurm_conf.accounting_storage_enforce;
	cluster_cpus = fx->cluster_cpus;
	th_release_set_nodes((int)fx->node_count);
	return 0;
}

/*
 * <dir of this executable>/../lib/slurm:<Debian's plugin dir>; the first
 * only if it exists, as Slurm rejects a PluginDir naming a missing one.
 */
char *th_setup_default_plugin_dir(void)
{
	char exe[PATH_MAX], *own;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return xstrdup(TH_DEB_PLUGINDIR);
	exe[n] = '\0';
	own = xstrdup_printf("%s/lib/slurm", dirname(dirname(exe)));
	if (access(own, X_OK)) {
		xfree(own);
		return xstrdup(TH_DEB_PLUGINDIR);
	}
	xstrfmtcat(own, ":%s", TH_DEB_PLUGINDIR);
	return own;
}

void th_setup_set_plugin(const char *plugin)
{
	xfree(slurm_conf.priority_type);
	slurm_conf.priority_type = xstrdup(plugin);
}

static slurmdb_tres_rec_t *new_tres(uint32_t id, const char *type,
				    const char *name, uint64_t count)
{
	slurmdb_tres_rec_t *t = xmalloc(sizeof(*t));

	t->id = id;
	t->type = xstrdup(type);
	t->name = xstrdup(name);
	t->count = count;
	return t;
}

/* The TRES slurmdbd always has, plus the fixture's, as last_tres. */
static int write_tres(struct th_setup *s, const struct th_fixture *fx)
{
	static const char *const type[DEFAULT_TRES_COUNT] = {
		"cpu",	   "mem", "energy", "node",
		"billing", "fs",  "vmem",   "pages",
	};
	static const char *const name[DEFAULT_TRES_COUNT] = {
		NULL, NULL, NULL, NULL, NULL, "disk", NULL, NULL,
	};
	dbd_list_msg_t msg = { 0 };
	buf_t *buf;
	size_t i;

	msg.my_list = list_create(slurmdb_destroy_tres_rec);
	for (i = 0; i < DEFAULT_TRES_COUNT; i++) {
		uint64_t count = 0;

		if (i == TRES_ARRAY_CPU || i == TRES_ARRAY_BILLING)
			count = fx->cluster_cpus;
		else if (i == TRES_ARRAY_NODE)
			count = fx->node_count;
		list_append(msg.my_list,
			    new_tres((uint32_t)i + 1, type[i], name[i], count));
	}
	for (i = 0; i < fx->n_tres; i++) {
		char *t = xstrdup(fx->tres[i]), *slash = strchr(t, '/');

		*slash = '\0';
		list_append(msg.my_list,
			    new_tres(FIRST_EXTRA_TRES_ID + (uint32_t)i, t,
				     slash + 1, fx->tres_count[i]));
		xfree(t);
	}
	buf = state_buf(fx->now);
	slurmdbd_pack_list_msg(&msg, SLURM_PROTOCOL_VERSION, DBD_ADD_TRES, buf);
	FREE_NULL_LIST(msg.my_list);
	return write_buf(s->dir, "last_tres", buf);
}

static list_t *make_qos_list(const struct th_fixture *fx)
{
	list_t *list = list_create(slurmdb_destroy_qos_rec);
	size_t i;

	for (i = 0; i < fx->n_qos; i++) {
		slurmdb_qos_rec_t *q = xmalloc(sizeof(*q));

		slurmdb_init_qos_rec(q, false, NO_VAL);
		q->id = fx->qos[i].id;
		q->name = xstrdup(fx->qos[i].name);
		q->priority = fx->qos[i].priority;
		q->usage_factor = fx->qos[i].usage_factor;
		q->usage_thres = (double)INFINITE;
		q->flags = fx->qos[i].no_decay ? QOS_FLAG_NO_DECAY : 0;
		list_append(list, q);
	}
	return list;
}

/*
 * Nested-set numbers as slurmdbd keeps them, children in fixture order.
 * kid/sibling: first child and next sibling of each association.
 */
static uint32_t number_subtree(const long *kid, const long *sibling, long node,
			       uint32_t next, uint32_t *lft, uint32_t *rgt)
{
	long c;

	lft[node] = next++;
	for (c = kid[node]; c >= 0; c = sibling[c])
		next = number_subtree(kid, sibling, c, next, lft, rgt);
	rgt[node] = next++;
	return next;
}

static void number_tree(const struct th_fixture *fx, uint32_t *lft,
			uint32_t *rgt)
{
	long *kid = xcalloc(fx->n_assoc, sizeof(*kid));
	long *sibling = xcalloc(fx->n_assoc, sizeof(*sibling));
	size_t i;

	for (i = 0; i < fx->n_assoc; i++)
		kid[i] = sibling[i] = -1;
	for (i = fx->n_assoc; i-- > 1;) {
		sibling[i] = kid[fx->assoc[i].parent];
		kid[fx->assoc[i].parent] = (long)i;
	}
	number_subtree(kid, sibling, 0, 1, lft, rgt);
	xfree(kid);
	xfree(sibling);
}

static list_t *make_assoc_list(const struct th_fixture *fx)
{
	list_t *list = list_create(slurmdb_destroy_assoc_rec);
	uint32_t *lft = xcalloc(fx->n_assoc, sizeof(*lft));
	uint32_t *rgt = xcalloc(fx->n_assoc, sizeof(*rgt));
	slurmdb_assoc_rec_t **rec = xcalloc(fx->n_assoc, sizeof(*rec));
	size_t i;

	number_tree(fx, lft, rgt);
	for (i = 0; i < fx->n_assoc; i++) {
		const struct th_assoc *fa = &fx->assoc[i];
		const struct th_assoc *fp =
			fa->parent >= 0 ? &fx->assoc[fa->parent] : NULL;
		slurmdb_assoc_rec_t *a = xmalloc(sizeof(*a));

		slurmdb_init_assoc_rec(a, false);
		a->id = fa->id;
		a->cluster = xstrdup(slurm_conf.cluster_name);
		th_release_assoc_nested(a, lft[i], rgt[i]);
		a->def_qos_id = 0;
		a->is_def = 0;
		a->priority =
			fa->priority == TH_UNSET ? INFINITE : fa->priority;
		a->shares_raw = fa->shares == TH_SHARES_PARENT
					? SLURMDB_FS_USE_PARENT
					: fa->shares;
		if (!fp) {
			a->acct = xstrdup("root");
			a->shares_raw = 1;
		} else if (fa->user) {
			a->acct = xstrdup(fp->name);
			a->user = xstrdup(fa->name);
			a->uid = fa->uid;
			a->parent_id = fp->id;
		} else {
			a->acct = xstrdup(fa->name);
			a->parent_acct = xstrdup(fp->name);
			a->parent_id = fp->id;
		}
		/* parents come first in a fixture */
		th_release_assoc_path(a, fp ? rec[fa->parent] : NULL);
		rec[i] = a;
		list_append(list, a);
	}
	xfree(lft);
	xfree(rgt);
	xfree(rec);
	/* slurmctld dumps the list in assoc_mgr's hierarchical order */
	th_release_sort_assocs(list);
	return list;
}

static int write_assoc_mgr_state(struct th_setup *s,
				 const struct th_fixture *fx)
{
	dbd_list_msg_t msg = { 0 };
	buf_t *buf = state_buf(fx->now);

	msg.my_list = make_qos_list(fx);
	pack16(DBD_ADD_QOS, buf);
	slurmdbd_pack_list_msg(&msg, SLURM_PROTOCOL_VERSION, DBD_ADD_QOS, buf);
	FREE_NULL_LIST(msg.my_list);

	/* last, so that QOS are known when associations load */
	msg.my_list = make_assoc_list(fx);
	pack16(DBD_ADD_ASSOCS, buf);
	slurmdbd_pack_list_msg(&msg, SLURM_PROTOCOL_VERSION, DBD_ADD_ASSOCS,
			       buf);
	FREE_NULL_LIST(msg.my_list);
	return write_buf(s->dir, "assoc_mgr_state", buf);
}

/*
 * assoc_usage holds each association's own ("leaf") usage; the loader adds
 * it up the tree.  A fixture gives subtree totals, so an account's leaf
 * usage is its total minus its children's.
 */
static int write_usage(struct th_setup *s, const struct th_fixture *fx)
{
	long double *leaf = xcalloc(fx->n_assoc, sizeof(*leaf));
	buf_t *buf = state_buf(fx->now);
	size_t i;

	for (i = 0; i < fx->n_assoc; i++)
		leaf[i] = fx->assoc[i].usage;
	for (i = 1; i < fx->n_assoc; i++)
		leaf[fx->assoc[i].parent] -= fx->assoc[i].usage;
	for (i = 0; i < fx->n_assoc; i++) {
		pack32(fx->assoc[i].id, buf);
		packlongdouble(leaf[i] > 0 ? leaf[i] : 0, buf);
		packstr(NULL, buf); /* per-TRES usage: none */
		pack32(0, buf);	    /* grp_used_wall */
	}
	xfree(leaf);
	if (write_buf(s->dir, "assoc_usage", buf))
		return -1;

	buf = state_buf(fx->now);
	for (i = 0; i < fx->n_qos; i++) {
		pack32(fx->qos[i].id, buf);
		packlongdouble(fx->qos[i].usage, buf);
		packstr(NULL, buf);
		pack32(0, buf);
	}
	return write_buf(s->dir, "qos_usage", buf);
}

/* What ctld_assoc_mgr_init() does when the database is unreachable. */
static int load_assoc_mgr(struct th_setup *s)
{
	assoc_init_args_t args = { 0 };

	args.enforce = accounting_enforce;
	args.running_cache = &cache_state;
	args.cache_level = ASSOC_MGR_CACHE_ASSOC | ASSOC_MGR_CACHE_USER |
			   ASSOC_MGR_CACHE_QOS | ASSOC_MGR_CACHE_RES |
			   ASSOC_MGR_CACHE_TRES;
	th_release_assoc_args(&args);
	assoc_mgr_fini(false);
	if (assoc_mgr_init(NULL, &args, SLURM_ERROR) == SLURM_SUCCESS) {
		fprintf(stderr, "ts-harness: assoc_mgr_init() found a "
				"database; expected none\n");
		return -1;
	}
	if (load_assoc_mgr_last_tres() != SLURM_SUCCESS ||
	    th_release_load_assoc_state() != SLURM_SUCCESS ||
	    load_assoc_usage() != SLURM_SUCCESS ||
	    load_qos_usage() != SLURM_SUCCESS) {
		fprintf(stderr,
			"ts-harness: assoc_mgr did not load the "
			"state written in %s\n",
			s->dir);
		return -1;
	}
	if (!assoc_mgr_root_assoc) {
		fprintf(stderr, "ts-harness: assoc_mgr has no root\n");
		return -1;
	}
	slurmctld_tres_cnt = (int)g_tres_count;
	return 0;
}

static int cmp_assoc_id(const void *x, const void *y)
{
	const slurmdb_assoc_rec_t *a = *(slurmdb_assoc_rec_t *const *)x;
	const slurmdb_assoc_rec_t *b = *(slurmdb_assoc_rec_t *const *)y;

	return a->id < b->id ? -1 : a->id > b->id;
}

/* assoc_mgr's record of each fixture association, by fixture index. */
static slurmdb_assoc_rec_t **map_assocs(const struct th_fixture *fx)
{
	int n = list_count(assoc_mgr_assoc_list), i = 0;
	slurmdb_assoc_rec_t **by_id = xcalloc(n + 1, sizeof(*by_id));
	slurmdb_assoc_rec_t **map = xcalloc(fx->n_assoc, sizeof(*map));
	slurmdb_assoc_rec_t key, *keyp = &key, **found;
	list_itr_t *it = list_iterator_create(assoc_mgr_assoc_list);
	size_t k;

	while ((by_id[i] = list_next(it)))
		i++;
	list_iterator_destroy(it);
	qsort(by_id, n, sizeof(*by_id), cmp_assoc_id);
	for (k = 0; k < fx->n_assoc; k++) {
		key.id = fx->assoc[k].id;
		found = bsearch(&keyp, by_id, n, sizeof(*by_id), cmp_assoc_id);
		map[k] = found ? *found : NULL;
	}
	xfree(by_id);
	return map;
}

static int find_qos_id(void *x, void *key)
{
	return ((slurmdb_qos_rec_t *)x)->id == *(uint32_t *)key;
}

static slurmdb_qos_rec_t *qos_ptr(const struct th_fixture *fx, long i)
{
	uint32_t id;

	if (i < 0)
		return NULL;
	id = fx->qos[i].id;
	return list_find_first(assoc_mgr_qos_list, find_qos_id, &id);
}

/* TRES position of "cpu", "mem", "gres/gpu"... in assoc_mgr's array. */
static int tres_pos(const char *name)
{
	int i;

	for (i = 0; i < (int)g_tres_count; i++) {
		slurmdb_tres_rec_t *t = assoc_mgr_tres_array[i];
		char *full = t->name ? xstrdup_printf("%s/%s", t->type, t->name)
				     : xstrdup(t->type);
		int same = !xstrcasecmp(full, name);

		xfree(full);
		if (same)
			return i;
	}
	return -1;
}

/* "cpu=4,mem=8000,gres/gpu=1" into a slurmctld_tres_cnt array. */
static uint64_t *tres_array(const char *text, const char *what, long line,
			    const char *path)
{
	uint64_t *cnt = xcalloc(slurmctld_tres_cnt, sizeof(*cnt));
	char *copy = xstrdup(text), *save = NULL, *item;

	for (item = strtok_r(copy, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '='), *end;
		unsigned long long v;
		int pos;

		if (!eq)
			goto bad;
		*eq = '\0';
		pos = tres_pos(item);
		errno = 0;
		v = strtoull(eq + 1, &end, 10);
		if (pos < 0 || errno || *end || end == eq + 1)
			goto bad;
		cnt[pos] = v;
	}
	xfree(copy);
	return cnt;
bad:
	fprintf(stderr, "%s:%ld: %s: '%s' is not a known TRES=count\n", path,
		line, what, item);
	xfree(copy);
	xfree(cnt);
	return NULL;
}

static void free_part(void *x)
{
	part_record_t *p = x;

	xfree(p->name);
	xfree(p->tres_cnt);
	xfree(p->billing_weights);
	xfree(p->billing_weights_str);
	xfree(p);
}

/* As read_config.c: norm_priority, tres_cnt with billing, weights. */
static int make_partitions(const struct th_fixture *fx, part_record_t **parts)
{
	uint16_t max_factor = DEF_PART_MAX_PRIORITY;
	size_t i;

	part_list = list_create(free_part);
	for (i = 0; i < fx->n_part; i++)
		if (fx->part[i].factor > max_factor)
			max_factor = fx->part[i].factor;
	for (i = 0; i < fx->n_part; i++) {
		const struct th_part *fp = &fx->part[i];
		part_record_t *p = xmalloc(sizeof(*p));

		p->magic = PART_MAGIC;
		p->name = xstrdup(fp->name);
		p->priority_job_factor = fp->factor;
		p->priority_tier = fp->tier;
		p->norm_priority = (double)fp->factor / (double)max_factor;
		p->max_time =
			fp->max_time == TH_UNSET ? INFINITE : fp->max_time;
		p->total_nodes =
			fp->nodes == TH_UNSET ? fx->node_count : fp->nodes;
		p->total_cpus =
			fp->cpus == TH_UNSET ? fx->cluster_cpus : fp->cpus;
		p->qos_ptr = qos_ptr(fx, fp->qos);
		list_append(part_list, p);
		parts[i] = p;
		if (fp->billing) {
			p->billing_weights = slurm_get_tres_weight_array(
				fp->billing, slurmctld_tres_cnt, false);
			if (!p->billing_weights) {
				fprintf(stderr,
					"%s: partition %s: "
					"TRESBillingWeights '%s' rejected\n",
					fx->path, fp->name, fp->billing);
				return -1;
			}
			p->billing_weights_str = xstrdup(fp->billing);
		}
		if (fp->tres) {
			p->tres_cnt = tres_array(fp->tres, "partition tres", 0,
						 fx->path);
			if (!p->tres_cnt)
				return -1;
		} else {
			p->tres_cnt =
				xcalloc(slurmctld_tres_cnt, sizeof(uint64_t));
			p->tres_cnt[TRES_ARRAY_CPU] = p->total_cpus;
		}
		p->tres_cnt[TRES_ARRAY_NODE] = p->total_nodes;
		p->tres_cnt[TRES_ARRAY_BILLING] =
			(uint64_t)assoc_mgr_tres_weighted(
				p->tres_cnt, p->billing_weights,
				slurm_conf.priority_flags, false);
	}
	return 0;
}

static void free_job(void *x)
{
	job_record_t *j = x;

	if (j->details)
		xfree(j->details);
	FREE_NULL_LIST(j->part_ptr_list);
	th_release_job_free(j);
	xfree(j->tres_req_cnt);
	xfree(j->tres_alloc_cnt);
	xfree(j->account);
	xfree(j->partition);
	xfree(j);
}

static uint32_t slurm_state(const struct th_job *fj)
{
	static const uint32_t base[] = {
		[TH_JOB_PENDING] = JOB_PENDING,
		[TH_JOB_RUNNING] = JOB_RUNNING,
		[TH_JOB_SUSPENDED] = JOB_SUSPENDED,
		[TH_JOB_COMPLETE] = JOB_COMPLETE,
		[TH_JOB_CANCELLED] = JOB_CANCELLED,
	};
	uint32_t state = base[fj->state];

	if (fj->completing)
		state |= JOB_COMPLETING;
	if (fj->power_up)
		state |= JOB_POWER_UP_NODE;
	return state;
}

/* acct_policy_job_begin(): a running job's TRES-seconds up to its limit */
static void begin_run_secs(job_record_t *j)
{
	uint64_t limit_secs = (uint64_t)j->time_limit * 60;
	slurmdb_qos_rec_t *qos[2] = { j->qos_ptr, NULL };
	uint64_t run_secs[slurmctld_tres_cnt > 0 ? slurmctld_tres_cnt : 1];
	slurmdb_assoc_rec_t *a;
	int i, k;

	if (!(accounting_enforce & ACCOUNTING_ENFORCE_LIMITS) ||
	    !j->tres_alloc_cnt || j->time_limit == NO_VAL ||
	    j->time_limit == INFINITE)
		return;
	if (j->qos_ptr && j->qos_ptr->usage_factor >= 0)
		limit_secs *= j->qos_ptr->usage_factor;
	if (j->part_ptr && j->part_ptr->qos_ptr != j->qos_ptr)
		qos[1] = j->part_ptr->qos_ptr;
	memset(run_secs, 0, sizeof(run_secs));
	for (i = 0; i < slurmctld_tres_cnt; i++) {
		uint64_t secs;

		if (i == TRES_ARRAY_ENERGY ||
		    j->tres_alloc_cnt[i] == NO_CONSUME_VAL64)
			continue;
		secs = j->tres_alloc_cnt[i] * limit_secs;
		for (k = 0; k < 2; k++)
			if (qos[k])
				qos[k]->usage->grp_used_tres_run_secs[i] +=
					secs;
		run_secs[i] = secs;
		for (a = j->assoc_ptr; a; a = a->usage->parent_assoc_ptr)
			a->usage->grp_used_tres_run_secs[i] += secs;
	}
	/* 24.11: the QOS's records of the job's account and user too */
	for (k = 0; k < 2; k++)
		if (qos[k])
			th_release_begin_qos(qos[k], j, slurmctld_tres_cnt,
					     run_secs);
}

static int make_job(const struct th_fixture *fx, const struct th_job *fj,
		    part_record_t **parts, slurmdb_assoc_rec_t **assocs,
		    time_t crashed, job_record_t **out)
{
	uint32_t assoc_id = fx->assoc[fj->assoc].id;
	job_record_t *j = xmalloc(sizeof(*j));
	job_details_t *d = xmalloc(sizeof(*d));
	size_t i;

	*out = j;
	j->magic = JOB_MAGIC;
	j->details = d;
	/*
	 * slurmctld gives every job record an empty factor record when it
	 * creates it (22.05.8: job_mgr.c's _create_job_record(); 24.11.5
	 * to 26.05.3: job_record.c's job_record_create()).
	 */
	j->prio_factors = xmalloc(sizeof(*j->prio_factors));
	d->magic = DETAILS_MAGIC;
	th_release_job_id(j, fj->id);
	j->user_id = fx->assoc[fj->assoc].uid;
	j->group_id = j->user_id;
	j->assoc_id = assoc_id;
	j->assoc_ptr = assocs[fj->assoc];
	j->account = xstrdup(fx->assoc[fx->assoc[fj->assoc].parent].name);
	j->qos_ptr = qos_ptr(fx, fj->qos);
	if (fj->n_qos_all) {
		list_t *all = list_create(NULL);

		for (i = 0; i < fj->n_qos_all; i++)
			list_append(all, qos_ptr(fx, fj->qos_all[i]));
		if (th_release_job_qos_list(j, all)) {
			fprintf(stderr,
				"%s:%ld: job %u: several QOS need "
				"Slurm 24.11\n",
				fx->path, fj->line, fj->id);
			FREE_NULL_LIST(all);
			return -1;
		}
	}
	j->qos_id = j->qos_ptr ? j->qos_ptr->id : 0;
	j->part_ptr = parts[fj->parts[0]];
	j->partition = xstrdup(j->part_ptr->name);
	if (fj->n_parts > 1) {
		j->part_ptr_list = list_create(NULL);
		for (i = 0; i < fj->n_parts; i++) {
			list_append(j->part_ptr_list, parts[fj->parts[i]]);
			if (i)
				xstrfmtcat(j->partition, ",%s",
					   parts[fj->parts[i]]->name);
		}
		th_release_sort_parts(j->part_ptr_list);
	}
	j->job_state = slurm_state(fj);
	j->priority = fj->priority;
	j->direct_set_prio = fj->direct;
	j->time_limit = fj->time_limit == TH_UNSET ? NO_VAL : fj->time_limit;
	j->total_cpus = fj->total_cpus;
	j->site_factor = (uint32_t)((int64_t)NICE_OFFSET + fj->site);
	j->billable_tres = (double)NO_VAL;
	j->start_time = fj->start;
	j->resize_time = fj->resize;
	j->end_time = fj->end;
	if (!j->end_time && fj->state != TH_JOB_PENDING)
		j->end_time =
			j->start_time +
			((j->time_limit == NO_VAL || j->time_limit == INFINITE)
				 ? (time_t)365 * 24 * 3600
				 : (time_t)j->time_limit * 60);
	j->end_time_exp = j->end_time;
	d->submit_time = fj->submit;
	d->begin_time = fj->begin;
	d->accrue_time = fj->accrue;
	d->min_cpus = fj->min_cpus;
	d->max_cpus = fj->max_cpus == TH_UNSET ? NO_VAL : fj->max_cpus;
	d->min_nodes = fj->min_nodes;
	d->nice = (uint32_t)((int64_t)NICE_OFFSET + fj->nice);
	if (!j->assoc_ptr) {
		fprintf(stderr, "%s:%ld: job %u: association %u not loaded\n",
			fx->path, fj->line, fj->id, assoc_id);
		return -1;
	}
	if (fj->tres_req) {
		j->tres_req_cnt = tres_array(fj->tres_req, "tres_req", fj->line,
					     fx->path);
		if (!j->tres_req_cnt)
			return -1;
	} else {
		j->tres_req_cnt = xcalloc(slurmctld_tres_cnt, sizeof(uint64_t));
		j->tres_req_cnt[TRES_ARRAY_CPU] = fj->min_cpus;
		j->tres_req_cnt[TRES_ARRAY_NODE] = fj->min_nodes;
	}
	if (fj->tres_alloc) {
		j->tres_alloc_cnt = tres_array(fj->tres_alloc, "tres_alloc",
					       fj->line, fx->path);
		if (!j->tres_alloc_cnt)
			return -1;
	} else if (fj->state != TH_JOB_PENDING) {
		j->tres_alloc_cnt =
			xcalloc(slurmctld_tres_cnt, sizeof(uint64_t));
		j->tres_alloc_cnt[TRES_ARRAY_CPU] = fj->total_cpus;
		j->tres_alloc_cnt[TRES_ARRAY_NODE] = fj->min_nodes;
	}
	if (crashed && fj->finish && fj->finish <= crashed &&
	    (fj->state == TH_JOB_RUNNING || fj->state == TH_JOB_SUSPENDED)) {
		/* ended before the crash; slurmctld saved its end charged */
		j->job_state = JOB_COMPLETE;
		j->end_time = fj->finish;
		j->end_time_exp = (time_t)NO_VAL;
		return 0;
	}
	if (fj->state == TH_JOB_RUNNING || fj->state == TH_JOB_SUSPENDED)
		begin_run_secs(j);
	return 0;
}

/*
 * crashed: the clock of the cycle a crash cut short (0: no crash); the
 * restart comes at restart.  A job may not finish in between: it would
 * end after the restart's first cycle, not before the next one.
 */
static int make_jobs(const struct th_fixture *fx, part_record_t **parts,
		     time_t crashed, time_t restart)
{
	slurmdb_assoc_rec_t **assocs = map_assocs(fx);
	int rc = 0;
	size_t i;

	job_list = list_create(free_job);
	for (i = 0; i < fx->n_job && !rc; i++) {
		const struct th_job *fj = &fx->job[i];
		job_record_t *j = NULL;

		if (crashed && fj->finish > crashed && fj->finish <= restart) {
			fprintf(stderr,
				"%s:%ld: job %u finishes at %ld, between "
				"the crash (%ld) and the restart (%ld)\n",
				fx->path, fj->line, fj->id, (long)fj->finish,
				(long)crashed, (long)restart);
			rc = -1;
			break;
		}
		rc = make_job(fx, fj, parts, assocs, crashed, &j);
		list_append(job_list, j);
	}
	xfree(assocs);
	return rc ? -1 : 0;
}

/* multifactor's priority_last_decay_ran: last ran, then last reset. */
static int write_decay_state(struct th_setup *s, const struct th_fixture *fx)
{
	time_t last_ran = fx->now - (time_t)slurm_conf.priority_calc_period;
	buf_t *buf;

	if (!fx->has_last_ran)
		return 0;
	if (fx->last_ran_expr && strcmp(fx->last_ran_expr, "default") &&
	    th_fixture_time(fx->last_ran_expr, fx->now, &last_ran)) {
		fprintf(stderr, "%s: last_decay_ran '%s' unreadable\n",
			fx->path, fx->last_ran_expr);
		return -1;
	}
	buf = init_buf(BUF_SIZE);
	pack_time(last_ran, buf);
	pack_time(fx->last_reset, buf);
	s->decay_len = get_buf_offset(buf);
	s->decay_state = xmalloc(s->decay_len);
	memcpy(s->decay_state, get_buf_data(buf), s->decay_len);
	return write_buf(s->dir, "priority_last_decay_ran", buf);
}

int th_setup_restore_decay_state(struct th_setup *s)
{
	static const char *const gone[] = { "priority_last_decay_ran",
					    "priority_last_decay_ran.old",
					    "treeshare_state",
					    "treeshare_state.prev" };
	size_t k;
	int rc = 0;

	/* No plugin ran yet: no state of one. */
	for (k = 0; k < sizeof(gone) / sizeof(gone[0]); k++) {
		char *path = xstrdup_printf("%s/%s", s->dir, gone[k]);

		if (unlink(path) && errno != ENOENT)
			rc = -1;
		xfree(path);
	}
	if (!rc && s->decay_state)
		rc = write_file(s->dir, "priority_last_decay_ran",
				s->decay_state, s->decay_len);
	return rc;
}

int th_setup_controller(struct th_setup *s, const struct th_fixture *fx)
{
	time_t period = (time_t)slurm_conf.priority_calc_period;
	time_t crashed = 0, restart = 0;
	part_record_t **parts;
	char *decay_file;
	int rc;

	if (s->resume) {
		/* slurmctld's own files are as it last saved them */
		crashed = fx->now + (time_t)(s->resume - 1) * period;
		restart = fx->now + (time_t)s->resume * period;
		if (load_assoc_mgr(s))
			return -1;
	} else if (write_tres(s, fx) || write_assoc_mgr_state(s, fx) ||
		   write_usage(s, fx) || load_assoc_mgr(s)) {
		return -1;
	}
	parts = xcalloc(fx->n_part + 1, sizeof(*parts));
	rc = make_partitions(fx, parts);
	if (!rc)
		rc = make_jobs(fx, parts, crashed, restart);
	xfree(parts);
	if (rc || (!s->resume && write_decay_state(s, fx)))
		return -1;
	decay_file = xstrdup_printf("%s/priority_last_decay_ran", s->dir);
	th_stubs_watch_decay_file(decay_file);
	xfree(decay_file);
	return 0;
}

/*
 * slurm.conf written again from the fixture and the overrides so far,
 * then read again under the config write lock, as slurmctld does.
 * RET a Slurm error code.
 */
static int reread_conf(struct th_setup *s, const struct th_fixture *fx)
{
	slurmctld_lock_t config_write = { .conf = WRITE_LOCK };
	char *path;
	int rc;

	if (write_conf(s, fx))
		return SLURM_ERROR;
	path = xstrdup_printf("%s/slurm.conf", s->dir);
	lock_slurmctld(config_write);
	rc = slurm_conf_reinit(path);
	if (rc == SLURM_SUCCESS)
		accounting_enforce = slurm_conf.accounting_storage_enforce;
	unlock_slurmctld(config_write);
	xfree(path);
	return rc;
}

int th_setup_reconfigure(struct th_setup *s, const struct th_fixture *fx,
			 const char *conf)
{
	int rc;

	xrecalloc(s->override, s->n_override + 1, sizeof(*s->override));
	s->override[s->n_override++] = xstrdup(conf);
	if ((rc = reread_conf(s, fx)) != SLURM_SUCCESS) {
		fprintf(stderr, "ts-harness: reconfigure %s: rejected: %s\n",
			conf, slurm_strerror(rc));
		return -1;
	}
	return 0;
}

int th_setup_reconfigure_undo(struct th_setup *s, const struct th_fixture *fx)
{
	if (!s->n_override)
		return -1;
	xfree(s->override[--s->n_override]);
	return reread_conf(s, fx) == SLURM_SUCCESS ? 0 : -1;
}

/* Zero one usage record's TRES run seconds (list_for_each callbacks). */
static int zero_assoc_run_secs(void *x, void *arg)
{
	slurmdb_assoc_rec_t *a = x;

	(void)arg;
	if (a->usage && a->usage->grp_used_tres_run_secs)
		memset(a->usage->grp_used_tres_run_secs, 0,
		       sizeof(uint64_t) * g_tres_count);
	return 0;
}

static int zero_qos_run_secs(void *x, void *arg)
{
	slurmdb_qos_rec_t *q = x;

	(void)arg;
	if (q->usage && q->usage->grp_used_tres_run_secs)
		memset(q->usage->grp_used_tres_run_secs, 0,
		       sizeof(uint64_t) * g_tres_count);
	return 0;
}

void th_setup_restart_run_secs(void)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK };
	slurmctld_lock_t job_read = { .job = READ_LOCK };
	job_record_t *j;
	list_itr_t *it;

	lock_slurmctld(job_read);
	assoc_mgr_lock(&locks);
	(void)list_for_each(assoc_mgr_assoc_list, zero_assoc_run_secs, NULL);
	(void)list_for_each(assoc_mgr_qos_list, zero_qos_run_secs, NULL);
	it = list_iterator_create(job_list);
	while ((j = list_next(it)))
		if (IS_JOB_RUNNING(j) || IS_JOB_SUSPENDED(j))
			begin_run_secs(j);
	list_iterator_destroy(it);
	assoc_mgr_unlock(&locks);
	unlock_slurmctld(job_read);
}

int th_setup_end_jobs(const struct th_fixture *fx, time_t now)
{
	slurmctld_lock_t job_write = { .job = WRITE_LOCK, .part = READ_LOCK };
	job_record_t *j;
	list_itr_t *it;
	size_t i;
	int ended = 0;

	/* slurmctld's job_completion: job write lock, then the plugin */
	lock_slurmctld(job_write);
	it = list_iterator_create(job_list);
	while ((j = list_next(it))) {
		for (i = 0; i < fx->n_job && fx->job[i].id != j->job_id; i++)
			;
		if (i == fx->n_job || !fx->job[i].finish ||
		    fx->job[i].finish > now || IS_JOB_FINISHED(j))
			continue;
		j->job_state = JOB_COMPLETE;
		j->end_time = fx->job[i].finish;
		priority_g_job_end(j);
		ended++;
	}
	list_iterator_destroy(it);
	unlock_slurmctld(job_write);
	return ended;
}

/* Flip one bit of the byte in the middle of path. */
static int corrupt(const char *path)
{
	struct stat st;
	unsigned char c;
	int fd = open(path, O_RDWR), rc = -1;

	if (fd < 0)
		return -1;
	if (!fstat(fd, &st) && st.st_size > 0 &&
	    pread(fd, &c, 1, st.st_size / 2) == 1) {
		c ^= 0x10;
		if (pwrite(fd, &c, 1, st.st_size / 2) == 1)
			rc = 0;
	}
	close(fd);
	return rc;
}

/* Cut path to half its length, or to nothing. */
static int tear(const char *path, bool whole)
{
	struct stat st;

	if (stat(path, &st))
		return -1;
	return truncate(path, whole ? 0 : st.st_size / 2);
}

/* Replace dir/base's bytes by as many (at least 16) pseudo-random ones. */
static int scramble(const char *dir, const char *base, const char *path)
{
	unsigned char buf[4096];
	unsigned x = 20231115;
	struct stat st;
	size_t n, i;

	if (stat(path, &st))
		return -1;
	n = st.st_size < 16 ? 16 : (size_t)st.st_size;
	if (n > sizeof(buf))
		n = sizeof(buf);
	for (i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (unsigned char)(x >> 16);
	}
	return write_file(dir, base, buf, n);
}

static int append_bytes(const char *path)
{
	int fd = open(path, O_WRONLY | O_APPEND), rc;

	if (fd < 0)
		return -1;
	rc = write(fd, "trailing", 8) == 8 ? 0 : -1;
	close(fd);
	return rc;
}

/* Set dir/base's last decay time to t, its checks made right again. */
static int set_time(const char *dir, const char *base, const char *path,
		    int64_t t)
{
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *image = NULL;
	size_t len;
	int rc;

	if (!strncmp(base, "priority_last_decay_ran", 23)) {
		struct ts_decay_record r = { .last_ran = t };
		unsigned char rec[TS_DECAY_RECORD_BYTES];

		ts_decay_record_encode(&r, rec);
		return write_file(dir, base, rec, sizeof(rec));
	} else {
		struct ts_usage_state u;

		/* read with a clock far ahead: only the time is changed */
		rc = ts_usage_state_load(path, INT64_MAX / 2, &u, NULL, &err);
		if (rc)
			return -1;
		u.last_ran = t;
		if (u.saved_at < t)
			u.saved_at = t;
		rc = ts_usage_state_encode(&u, &image, &len, &err);
		ts_usage_state_free(&u);
		if (rc)
			return -1;
		/* in place: the previous copy stays as it is */
		rc = write_file(dir, base, image, len);
		free(image);
		return rc;
	}
}

/*
 * treeshare_state as a treeshare before issue 13 left its state: the
 * windows in treeshare_windows, the times in multifactor's 16 bytes.
 */
static int old_format(const char *dir)
{
	struct ts_error err = TS_ERROR_INIT;
	struct ts_usage_state u;
	char *path = xstrdup_printf("%s/treeshare_state", dir);
	char *prev = xstrdup_printf("%s.prev", path);
	char *win = xstrdup_printf("%s/treeshare_windows", dir);
	buf_t *buf;
	int rc;

	rc = ts_usage_state_load(path, INT64_MAX / 2, &u, NULL, &err);
	if (rc) {
		xfree(path);
		xfree(prev);
		xfree(win);
		return -1;
	}
	if (u.windows_len)
		rc = ts_window_store_save_image(win, u.windows, u.windows_len,
						&err);
	buf = init_buf(BUF_SIZE);
	pack_time((time_t)u.last_ran, buf);
	pack_time((time_t)u.last_reset, buf);
	if (!rc)
		rc = write_buf(dir, "priority_last_decay_ran", buf);
	else
		free_buf(buf);
	if (!rc && (unlink(path) || unlink(prev)))
		rc = -1;
	ts_usage_state_free(&u);
	xfree(path);
	xfree(prev);
	xfree(win);
	return rc ? -1 : 0;
}

int th_setup_damage(struct th_setup *s, enum th_damage damage, const char *name,
		    time_t now)
{
	const char *base = name ? name : "treeshare_state";
	bool old = !strncmp(base, "priority_last_decay_ran", 23);
	char *file = xstrdup_printf("%s/%s", s->dir, base);
	char *prev = xstrdup_printf("%s%s", file, old ? ".old" : ".prev");
	int rc = 0;

	switch (damage) {
	case TH_DAMAGE_NONE:
		break;
	case TH_DAMAGE_TORN:
		rc = tear(file, false);
		break;
	case TH_DAMAGE_CORRUPT:
		rc = corrupt(file);
		break;
	case TH_DAMAGE_BOTH:
		rc = tear(file, false) | corrupt(prev);
		break;
	case TH_DAMAGE_ZERO:
		rc = tear(file, true);
		break;
	case TH_DAMAGE_RANDOM:
		rc = scramble(s->dir, base, file);
		break;
	case TH_DAMAGE_TRAILING:
		rc = append_bytes(file);
		break;
	case TH_DAMAGE_FUTURE:
		rc = set_time(s->dir, base, file, (int64_t)now + 3600);
		break;
	case TH_DAMAGE_NEGATIVE:
		rc = set_time(s->dir, base, file, -1);
		break;
	case TH_DAMAGE_MISSING:
		rc = unlink(file);
		break;
	case TH_DAMAGE_OLD_FORMAT:
		rc = old_format(s->dir);
		break;
	}
	if (rc)
		fprintf(stderr, "ts-harness: cannot damage %s: %s\n", file,
			strerror(errno));
	xfree(file);
	xfree(prev);
	return rc ? -1 : 0;
}

int th_setup_remove(struct th_setup *s, const char *name)
{
	bool old = !strncmp(name, "priority_last_decay_ran", 23);
	char *file = xstrdup_printf("%s/%s", s->dir, name);
	char *prev = xstrdup_printf("%s%s", file, old ? ".old" : ".prev");
	int rc = 0;

	if (unlink(file) && errno != ENOENT)
		rc = -1;
	if (unlink(prev) && errno != ENOENT)
		rc = -1;
	if (rc)
		fprintf(stderr, "ts-harness: cannot remove %s: %s\n", file,
			strerror(errno));
	xfree(file);
	xfree(prev);
	return rc;
}

void th_setup_slurm_save(void)
{
	(void)dump_assoc_mgr_state();
}

static void remove_dir(const char *dir)
{
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *path;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		path = xstrdup_printf("%s/%s", dir, e->d_name);
		unlink(path);
		xfree(path);
	}
	closedir(d);
	rmdir(dir);
}

void th_setup_free(struct th_setup *s)
{
	size_t i;

	FREE_NULL_LIST(job_list);
	FREE_NULL_LIST(part_list);
	assoc_mgr_fini(false);
	th_stubs_free();
	if (s->dir) {
		if (s->keep_dir)
			fprintf(stderr, "ts-harness: kept %s\n", s->dir);
		else
			remove_dir(s->dir);
		xfree(s->dir);
	}
	xfree(s->decay_state);
	for (i = 0; i < s->n_override; i++)
		xfree(s->override[i]);
	xfree(s->override);
	slurm_conf_destroy();
	log_fini();
}
