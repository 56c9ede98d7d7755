/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.c - the harness's view of sshare and sprio (see report.h).
 *
 * The values go through the same pack/unpack as the RPC replies, so they
 * are what the clients receive, and the FairShare column is computed the
 * way that release's sshare computes it (th_release_fairshare()).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/common/assoc_mgr.h"
#include "src/common/pack.h"
#include "src/common/slurm_protocol_api.h"
#include "src/common/slurm_protocol_pack.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#include "release.h"
#include "report.h"

/* Send data through pack_msg()/unpack_msg() as msg_type; RET the copy. */
static void *round_trip(uint16_t msg_type, void *data)
{
	slurm_msg_t msg, copy;
	buf_t *buf = init_buf(BUF_SIZE);

	slurm_msg_t_init(&msg);
	msg.msg_type = msg_type;
	msg.protocol_version = SLURM_PROTOCOL_VERSION;
	msg.data = data;
	pack_msg(&msg, buf);
	set_buf_offset(buf, 0);
	slurm_msg_t_init(&copy);
	copy.msg_type = msg_type;
	copy.protocol_version = SLURM_PROTOCOL_VERSION;
	if (unpack_msg(&copy, buf) != SLURM_SUCCESS) {
		fprintf(stderr, "ts-harness: unpack of message %u failed\n",
			msg_type);
		exit(2);
	}
	free_buf(buf);
	return copy.data;
}

static void print_ldoubles(FILE *out, const long double *v, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		fprintf(out, "%s%.21Lg", i ? "," : "", v ? v[i] : 0.0L);
}

static void print_u64s(FILE *out, const uint64_t *v, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		fprintf(out, "%s%" PRIu64, i ? "," : "", v ? v[i] : 0);
}

static void print_doubles(FILE *out, const double *v, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		fprintf(out, "%s%.17g", i ? "," : "", v ? v[i] : 0.0);
}

void th_report_config(FILE *out, unsigned cycles)
{
	fprintf(out, "config|flags|0x%x|%u\n", slurm_conf.priority_flags,
		cycles);
}

static void report_shares(FILE *out, unsigned cycle)
{
	shares_request_msg_t req = { 0 };
	shares_response_msg_t resp = { 0 }, *got;
	bool fair_tree = slurm_conf.priority_flags & PRIORITY_FLAGS_FAIR_TREE;
	assoc_shares_object_t *s;
	list_itr_t *it;
	double fairshare;

	/* uid 0, as slurmctld passes the caller's uid; root sees all */
	assoc_mgr_get_shares(acct_db_conn, 0, &req, &resp);
	got = round_trip(RESPONSE_SHARE_INFO, &resp);
	FREE_NULL_LIST(resp.assoc_shares_list);
	if (!got->assoc_shares_list) {
		slurm_free_shares_response_msg(got);
		return;
	}
	it = list_iterator_create(got->assoc_shares_list);
	while ((s = list_next(it))) {
		fprintf(out, "assoc|%u|%u|%s|%s|%s|", cycle, s->assoc_id,
			s->user ? "user" : "account", s->name,
			s->parent ? s->parent : "");
		if (s->shares_raw == SLURMDB_FS_USE_PARENT)
			fprintf(out, "parent|");
		else
			fprintf(out, "%u|", s->shares_raw);
		fprintf(out, "%.17g|%" PRIu64 "|%.17g|%.17g|", s->shares_norm,
			s->usage_raw, s->usage_norm, s->usage_efctv);
		fairshare = th_release_fairshare(s, fair_tree);
		if (isnan(fairshare))
			fprintf(out, "|");
		else
			fprintf(out, "%.17g|", fairshare);
		if (s->shares_raw == SLURMDB_FS_USE_PARENT)
			fprintf(out, "|");
		else
			fprintf(out, "%.17g|", s->level_fs);
		fprintf(out, "%.17g|", s->fs_factor);
		print_ldoubles(out, s->usage_tres_raw, got->tres_cnt);
		fputc('|', out);
		print_u64s(out, s->tres_run_secs, got->tres_cnt);
		fputc('\n', out);
	}
	list_iterator_destroy(it);
	slurm_free_shares_response_msg(got);
}

static void report_qos(FILE *out, unsigned cycle)
{
	assoc_mgr_lock_t locks = { .qos = READ_LOCK };
	slurmdb_qos_rec_t *q;
	list_itr_t *it;

	assoc_mgr_lock(&locks);
	it = list_iterator_create(assoc_mgr_qos_list);
	while ((q = list_next(it))) {
		fprintf(out, "qos|%u|%u|%s|%.21Lg|%.17g|%.17g|", cycle, q->id,
			q->name, q->usage->usage_raw, q->usage->grp_used_wall,
			q->usage->norm_priority);
		print_ldoubles(out, q->usage->usage_tres_raw, g_tres_count);
		fputc('|', out);
		print_u64s(out, q->usage->grp_used_tres_run_secs, g_tres_count);
		fputc('\n', out);
		th_release_report_qos(out, cycle, q);
	}
	list_iterator_destroy(it);
	assoc_mgr_unlock(&locks);
}

static int cmp_factors(void *x, void *y)
{
	const priority_factors_object_t *a = *(priority_factors_object_t **)x;
	const priority_factors_object_t *b = *(priority_factors_object_t **)y;

	const char *qa, *qb;
	int diff;

	if (ts_row_job_id(a) != ts_row_job_id(b))
		return ts_row_job_id(a) < ts_row_job_id(b) ? -1 : 1;
	if ((diff = xstrcmp(a->partition, b->partition)))
		return diff;
	/* 24.11: a row per QOS of a job of several */
	(void)th_release_row((priority_factors_object_t *)a, &qa);
	(void)th_release_row((priority_factors_object_t *)b, &qb);
	return xstrcmp(qa, qb);
}

static void report_factors(FILE *out, unsigned cycle)
{
	priority_factors_response_msg_t resp = { 0 }, *got;
	static const ts_job_factors_t none; /* a direct_prio row's */
	priority_factors_object_t *row;
	const ts_job_factors_t *f;
	const char *qos;
	list_itr_t *it;

	resp.priority_factors_list = th_release_factors(0);
	got = round_trip(RESPONSE_PRIORITY_FACTORS, &resp);
	FREE_NULL_LIST(resp.priority_factors_list);
	if (!got->priority_factors_list) {
		slurm_free_priority_factors_response_msg(got);
		return;
	}
	list_sort(got->priority_factors_list, cmp_factors);
	it = list_iterator_create(got->priority_factors_list);
	while ((row = list_next(it))) {
		if (!(f = th_release_row(row, &qos)))
			f = &none;
		fprintf(out,
			"prio|%u|%u|%s|%u|%.17g|%.17g|%.17g|%.17g|%.17g|"
			"%.17g|%" PRId64 "|%" PRId64 "|%.17g|",
			cycle, ts_row_job_id(row),
			row->partition ? row->partition : "", row->user_id,
			f->priority_age, f->priority_assoc, f->priority_fs,
			f->priority_js, f->priority_part, f->priority_qos,
			f == &none ? 0
				   : (int64_t)f->priority_site - NICE_OFFSET,
			f == &none ? 0 : (int64_t)f->nice - NICE_OFFSET,
			row->direct_prio);
		print_doubles(out, f->priority_tres, f->tres_cnt);
		fputc('|', out);
		print_doubles(out, f->tres_weights, f->tres_cnt);
		if (*qos)
			fprintf(out, "|%s", qos);
		fputc('\n', out);
	}
	list_iterator_destroy(it);
	th_release_rows_done(got->priority_factors_list);
	slurm_free_priority_factors_response_msg(got);
}

static int cmp_job_id(void *x, void *y)
{
	const job_record_t *a = *(job_record_t **)x;
	const job_record_t *b = *(job_record_t **)y;

	return a->job_id < b->job_id ? -1 : a->job_id > b->job_id;
}

/* Jobs in id order; job_list keeps the fixture's (submission) order. */
static job_record_t **sorted_jobs(int *n)
{
	job_record_t **jobs, *j;
	list_itr_t *it;
	int i = 0;

	*n = list_count(job_list);
	jobs = xcalloc(*n + 1, sizeof(*jobs));
	it = list_iterator_create(job_list);
	while ((j = list_next(it)))
		jobs[i++] = j;
	list_iterator_destroy(it);
	qsort(jobs, *n, sizeof(*jobs),
	      (int (*)(const void *, const void *))cmp_job_id);
	return jobs;
}

static void report_jobs(FILE *out, unsigned cycle)
{
	slurmctld_lock_t job_read = { .job = READ_LOCK, .part = READ_LOCK };
	job_record_t **jobs;
	int i, k, n;

	lock_slurmctld(job_read);
	jobs = sorted_jobs(&n);
	for (i = 0; i < n; i++) {
		job_record_t *j = jobs[i];
		list_t *qos = ts_job_qos_list(j);
		uint32_t *array = ts_prio_array(j);
		/* one per partition (and from 24.11 per QOS) of a job of
		 * several */
		int parts =
			j->part_ptr_list ? list_count(j->part_ptr_list) : !!qos;

		if (qos)
			parts *= list_count(qos);
		fprintf(out, "job|%u|%u|0x%x|%u|", cycle, j->job_id,
			j->job_state, j->priority);
		for (k = 0; k < parts; k++)
			fprintf(out, "%s%u", k ? "," : "",
				array ? array[k] : 0);
		fputc('\n', out);
	}
	xfree(jobs);
	unlock_slurmctld(job_read);
}

void th_report_cycle(FILE *out, unsigned cycle)
{
	/* sprio first: an sshare call sets users' lazy usage_efctv */
	report_factors(out, cycle);
	report_jobs(out, cycle);
	report_shares(out, cycle);
	report_qos(out, cycle);
	fflush(out);
}

void th_report_set(FILE *out, unsigned cycle)
{
	slurmctld_lock_t job_write = { .job = WRITE_LOCK, .part = READ_LOCK };
	job_record_t **jobs;
	int i, n;

	/* slurmctld calls priority_g_set() holding the job write lock */
	lock_slurmctld(job_write);
	jobs = sorted_jobs(&n);
	for (i = 0; i < n; i++)
		fprintf(out, "set|%u|%u|%u\n", cycle, jobs[i]->job_id,
			priority_g_set(0, jobs[i]));
	xfree(jobs);
	unlock_slurmctld(job_write);
	fflush(out);
}
