/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ts-replay - replay "sacct -a -P" jobs over an association tree through
 * the plugin's cycle under one slurm.conf's priority configuration, and
 * print every association's fair-share figures after each cycle
 * (ts-replay(1)).  Built from sshare-ext/ beside sshare-ext: it reads the
 * tree as sshare-ext's offline mode does (src/tree_file.c, slurm_order.c)
 * but needs no libslurm, so it runs wherever the history was copied.
 *
 * main() only wires the parts: src/slurm_prio_conf.c and src/settings.c
 * for the configuration, src/sacct_jobs.c for the jobs, src/replay.c for
 * the cycles.  Every problem in an input is one line on stderr,
 * "FILE:LINE: message"; a summary of what was read, skipped and charged
 * closes the run.  Exit 0, 1 on a fatal error (nothing replayed).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "decimal.h"
#include "duration.h"
#include "replay.h"
#include "replay_compare.h"
#include "replay_report.h"
#include "sacct_jobs.h"
#include "settings.h"
#include "share_changes.h"
#include "slurm_order.h"
#include "slurm_prio_conf.h"
#include "tree_file.h"
#include "usage_charge.h"
#include "whole_file.h"

#define MAX_INPUT (4UL << 30) /* sacct output of a few million jobs */

/* The -h text, one line each. */
static const char *const usage_lines[] = {
	"Usage: ts-replay -c SLURM_CONF [-c SLURM_CONF...] -t TREE -j JOBS [-j JOBS...]",
	"                 [options]",
	"  -c, --conf FILE    slurm.conf-style file: the Priority* keys",
	"                     (repeatable with --compare)",
	"  -t, --tree FILE    tree file or saved \"sshare -a -l -P\" output",
	"  -j, --jobs FILE    saved \"sacct -a -P -o ...\" output (repeatable)",
	"      --start TIME   usage is 0 here (YYYY-MM-DDTHH:MM:SS, local);",
	"                     default: the first job's start, to the period",
	"      --end TIME     last cycle at or after it; default: last end",
	"  -x, --transactions FILE",
	"                     saved \"sacctmgr -P list transactions\": share changes",
	"      --cycles FILE  the plugin's cycle times: its slurmctld log",
	"                     (DebugFlags=Priority) or one epoch second a line",
	"      --every LENGTH rows every LENGTH (12h, 1d: whole cycles);",
	"                     default: every cycle",
	"      --json         JSON lines instead of CSV",
	"      --priorities FILE",
	"                     also each pending job's priority, each row's cycle",
	"      --compare DIR  with two or more -c: compare them, report in DIR",
	"      --top N        movers plotted and named (default 6)",
	"      --swapped      also list every swapped pair (swapped.csv)",
	"  -h, --help",
};

static void replay_usage(FILE *f)
{
	size_t i;

	for (i = 0; i < sizeof(usage_lines) / sizeof(usage_lines[0]); i++) {
		fputs(usage_lines[i], f);
		fputc('\n', f);
	}
}

struct opts {
	const char **conf, *tree;
	size_t n_conf;
	const char **jobs;
	size_t n_jobs;
	const char *start, *end, *every, *compare, *cycles, *txn, *prio;
	size_t top;
	int json, swapped;
};

static int fail(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "ts-replay: error: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	return EXIT_FAILURE;
}

/* "FILE:LINE: msg" from a ts_error whose msg starts "line N: ". */
static int fail_at(const char *file, const struct ts_error *err)
{
	const char *m = err->msg;
	long line = 0;
	int n = 0;

	if (sscanf(m, "line %ld: %n", &line, &n) == 1 && n > 0)
		fprintf(stderr, "%s:%ld: %s\n", file, line, m + n);
	else
		fprintf(stderr, "%s: %s\n", file, m);
	return EXIT_FAILURE;
}

/* argv into *o; RET 0 or EXIT_FAILURE (said on stderr). */
static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option longs[] = {
		{ "conf", required_argument, NULL, 'c' },
		{ "tree", required_argument, NULL, 't' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "start", required_argument, NULL, 'S' },
		{ "end", required_argument, NULL, 'E' },
		{ "every", required_argument, NULL, 'e' },
		{ "cycles", required_argument, NULL, 'Y' },
		{ "transactions", required_argument, NULL, 'x' },
		{ "priorities", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'J' },
		{ "compare", required_argument, NULL, 'C' },
		{ "top", required_argument, NULL, 'T' },
		{ "swapped", no_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	char *end;

	o->top = 6;
	o->jobs = calloc((size_t)argc, sizeof(*o->jobs));
	o->conf = calloc((size_t)argc, sizeof(*o->conf));
	if (!o->jobs || !o->conf)
		return fail("%s%s", "out of memory", "");
	while ((ch = getopt_long(argc, argv, "c:t:j:x:h", longs, NULL)) != -1) {
		switch (ch) {
		case 'c':
			o->conf[o->n_conf++] = optarg;
			break;
		case 't':
			o->tree = optarg;
			break;
		case 'j':
			o->jobs[o->n_jobs++] = optarg;
			break;
		case 'S':
			o->start = optarg;
			break;
		case 'E':
			o->end = optarg;
			break;
		case 'e':
			o->every = optarg;
			break;
		case 'Y':
			o->cycles = optarg;
			break;
		case 'x':
			o->txn = optarg;
			break;
		case 'p':
			o->prio = optarg;
			break;
		case 'J':
			o->json = 1;
			break;
		case 'C':
			o->compare = optarg;
			break;
		case 'T':
			errno = 0;
			o->top = (size_t)strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || !o->top ||
			    o->top > 100 || *optarg == '-')
				return fail(
					"--top \"%s\": not a number from 1 to 100%s",
					optarg, "");
			break;
		case 'W':
			o->swapped = 1;
			break;
		case 'h':
			replay_usage(stdout);
			exit(EXIT_SUCCESS);
		default:
			replay_usage(stderr);
			return EXIT_FAILURE;
		}
	}
	if (optind < argc)
		return fail("unexpected argument \"%s\"%s", argv[optind], "");
	if (!o->n_conf || !o->tree || !o->n_jobs)
		return fail("%s%s", "-c, -t and -j are all needed", "");
	if (o->compare && o->n_conf < 2)
		return fail("%s%s", "--compare needs two or more -c", "");
	if (!o->compare && o->n_conf > 1)
		return fail("%s%s", "several -c need --compare DIR", "");
	if (o->cycles && (o->compare || o->start || o->end))
		return fail(
			"%s%s",
			"--cycles gives the span: not with --start, --end or --compare",
			"");
	if (o->compare && o->prio)
		return fail("%s%s", "--priorities is for one configuration",
			    "");
	if (o->compare && o->json)
		return fail("%s%s", "--json is for one configuration", "");
	if (!o->compare && (o->swapped || o->top != 6))
		return fail("%s%s", "--top and --swapped need --compare", "");
	return 0;
}

/* --every LENGTH in seconds into *secs.  RET 0 or EXIT_FAILURE. */
static int read_length(const char *text, uint64_t *secs)
{
	struct ts_error err = TS_ERROR_INIT;

	if (ts_duration_parse(text, UINT64_C(100) * 365 * 86400, secs, &err))
		return fail("--every \"%s\": %s", text, err.msg);
	return 0;
}

/*
 * --every LENGTH as a number of cycles of period seconds into *cycles
 * (1 without it).  RET 0 or EXIT_FAILURE (said on stderr).
 */
static int read_every(const char *text, uint32_t period, size_t *cycles)
{
	char p[32];
	uint64_t secs;

	*cycles = 1;
	if (!text)
		return 0;
	if (read_length(text, &secs))
		return EXIT_FAILURE;
	if (!secs || secs % period) {
		ts_duration_format(period, p, sizeof(p));
		return fail(
			"--every \"%s\" is not a whole number of cycles of PriorityCalcPeriod %s",
			text, p);
	}
	*cycles = (size_t)(secs / period);
	return 0;
}

struct cycle_times {
	int64_t *t;
	size_t n, cap;
};

/*
 * A cycle time from one line: the plugin's "state committed: last decay
 * N" (slurmctld.log with DebugFlags=Priority), or N alone.  RET 1 with
 * *t, 0 for a line without one, -1 for a bad N.
 */
static int cycle_of_line(const char *line, int64_t *t)
{
	static const char mark[] = "state committed: last decay ";
	const char *p = strstr(line, mark);
	char *end;
	long long v;

	if (p)
		p += sizeof(mark) - 1;
	else if (*line >= '0' && *line <= '9')
		p = line;
	else
		return 0;
	errno = 0;
	v = strtoll(p, &end, 10);
	if (errno || end == p || v <= 0 || (!strstr(line, mark) && *end))
		return -1;
	*t = (int64_t)v;
	return 1;
}

/*
 * --cycles FILE into *ct: increasing, a time logged twice (a commit
 * retried) kept once.  RET 0 or EXIT_FAILURE ("FILE:LINE: ...").
 */
static int read_cycles(const char *path, struct cycle_times *ct)
{
	struct ts_error err = TS_ERROR_INIT;
	char *text, *line, *next;
	size_t n;
	long no = 0;

	if (ts_whole_file_read(path, MAX_INPUT, &text, &n, &err))
		return fail("cannot read %s: %s", path, err.msg);
	for (line = text; line && *line; line = next) {
		int64_t t;
		int got;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		no++;
		got = cycle_of_line(line, &t);
		if (got < 0 || (got > 0 && ct->n && t < ct->t[ct->n - 1])) {
			fprintf(stderr, "%s:%ld: %s\n", path, no,
				got < 0 ? "not a cycle time (epoch seconds)"
					: "a cycle time before the one above");
			free(text);
			return EXIT_FAILURE;
		}
		if (!got || (ct->n && t == ct->t[ct->n - 1]))
			continue;
		if (ct->n == ct->cap) {
			size_t cap = ct->cap ? 2 * ct->cap : 256;
			int64_t *nt = realloc(ct->t, cap * sizeof(*nt));

			if (!nt) {
				free(text);
				return fail("%s%s", "out of memory", "");
			}
			ct->t = nt;
			ct->cap = cap;
		}
		ct->t[ct->n++] = t;
	}
	free(text);
	if (ct->n < 2)
		return fail("%s: fewer than 2 cycle times%s", path, "");
	return 0;
}

struct txn_arg {
	const struct ts_assoc_index *ix;
	const char *file;
};

static long resolve_txn(void *arg, const char *account, const char *user)
{
	const struct txn_arg *a = arg;

	if (*user)
		return ts_assoc_index_find(a->ix, user, account);
	return ts_tree_find(a->ix->t, account, 0, NULL);
}

static void report_txn(void *arg, long line, const char *msg)
{
	const struct txn_arg *a = arg;

	fprintf(stderr, "%s:%ld: %s\n", a->file, line, msg);
}

static int by_time(const void *x, const void *y)
{
	const struct ts_share_change *a = x, *b = y;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return (a->line > b->line) - (a->line < b->line);
}

/*
 * --transactions FILE into *sc, by time; the summary on stderr.  RET 0
 * or EXIT_FAILURE.
 */
static int read_transactions(const char *path, const struct ts_assoc_index *ix,
			     struct ts_share_changes *sc)
{
	struct ts_error err = TS_ERROR_INIT;
	struct txn_arg a = { .ix = ix, .file = path };
	struct ts_share_hooks h = { .resolve = resolve_txn,
				    .report = report_txn,
				    .arg = &a };
	struct ts_share_summary sum = { 0 };
	char *text;
	size_t n;
	int bad;

	if (ts_whole_file_read(path, MAX_INPUT, &text, &n, &err))
		return fail("cannot read %s: %s", path, err.msg);
	bad = ts_share_changes_parse_in_place(text, n, &h, sc, &sum, &err);
	free(text);
	if (bad)
		return fail_at(path, &err);
	qsort(sc->c, sc->n, sizeof(*sc->c), by_time);
	fprintf(stderr,
		"ts-replay: %s: %zu lines, %zu share changes; other actions %zu, skipped: %zu unknown ids, %zu associations not in the tree, %zu bad lines\n",
		path, sum.lines, sum.changes, sum.other, sum.unknown_id,
		sum.unknown_assoc, sum.bad);
	return 0;
}

/* What the run took, on stderr: CPU seconds and the peak RSS. */
static void report_resources(void)
{
	struct rusage ru;
	double user, sys;

	if (getrusage(RUSAGE_SELF, &ru))
		return;
	user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	fprintf(stderr,
		"ts-replay: %.2f s of CPU (%.2f user, %.2f system), peak RSS %.1f MB\n",
		user + sys, user, sys, (double)ru.ru_maxrss / 1024.0);
}

/* The formula is only checked for syntax: any name is a variable. */
static long any_var(void *arg, const char *name, size_t len)
{
	(void)arg;
	(void)name;
	(void)len;
	return 0;
}

/*
 * The slurm.conf priority keys and PriorityParameters into *rc, as the
 * plugin reads them; what the replay cannot do yet is refused, not
 * ignored.  RET 0 or EXIT_FAILURE.
 */
static int read_conf(const char *path, struct ts_replay_conf *rc,
		     struct ts_settings *set)
{
	struct ts_error err = TS_ERROR_INIT;
	struct ts_formula_vars vars = { .resolve = any_var };
	struct ts_slurm_prio p;
	char *text;
	size_t n;
	int bad;

	if (ts_whole_file_read(path, 16UL << 20, &text, &n, &err))
		return fail("cannot read %s: %s", path, err.msg);
	bad = ts_slurm_prio_parse(text, n, &p, &err);
	free(text);
	if (bad)
		return fail_at(path, &err);
	if (ts_settings_parse(p.params, &vars, NULL, set, &err) ||
	    ts_settings_check_flags(set, p.fair_tree, p.depth_oblivious, &err))
		return fail("%s: PriorityParameters: %s", path, err.msg);
	if (set->usage_window || set->fs_targets)
		return fail(
			"%s: %s: not replayed yet (ts-replay(1), BUGS)", path,
			set->usage_window ? "usage_window=" : "fs_targets=");
	rc->fs.algo = ts_settings_algo(set, p.fair_tree, p.depth_oblivious);
	rc->fs.damp = p.damp;
	rc->fs.ft_flags = TS_FT_AS_RUN;
	rc->period = p.calc_period;
	rc->decay = ts_decay_per_second(p.decay_hl);
	rc->consumed = set->consumed;
	rc->reset = p.reset;
	rc->charge_at_end = p.charge_at_end;
	rc->w_age = p.w_age;
	rc->w_fs = p.w_fs;
	rc->max_age = p.max_age;
	return 0;
}

static int read_tree(const char *path, struct ts_tree *t)
{
	struct ts_error err = TS_ERROR_INIT;
	char *text;
	size_t n;
	int bad;

	if (ts_whole_file_read(path, MAX_INPUT, &text, &n, &err))
		return fail("cannot read %s: %s", path, err.msg);
	bad = ts_tree_init(t, 0, &err) ||
	      ts_tree_file_parse_in_place(text, n, TS_TREE_FORMAT_AUTO, t, NULL,
					  &err) ||
	      slurm_order(t, &err);
	free(text);
	return bad ? fail_at(path, &err) : 0;
}

struct hook_arg {
	const struct ts_assoc_index *ix;
	const char *file;
};

static long resolve_assoc(void *arg, const char *user, const char *account)
{
	const struct hook_arg *h = arg;

	return ts_assoc_index_find(h->ix, user, account);
}

static void report_skip(void *arg, long line, enum ts_sacct_skip why,
			const char *msg)
{
	const struct hook_arg *h = arg;

	(void)why;
	fprintf(stderr, "%s:%ld: %s: skipped\n", h->file, line, msg);
}

static int read_jobs(const struct opts *o, const struct ts_assoc_index *ix,
		     bool need_cpu, struct ts_sacct_jobs *jobs,
		     struct ts_sacct_summary *sum)
{
	size_t i;

	for (i = 0; i < o->n_jobs; i++) {
		struct ts_error err = TS_ERROR_INIT;
		struct hook_arg ha = { .ix = ix, .file = o->jobs[i] };
		struct ts_sacct_hooks h = { .resolve = resolve_assoc,
					    .report = report_skip,
					    .arg = &ha,
					    .need_cpu = need_cpu,
					    .keep_pending =
						    o->compare || o->prio };
		char *text;
		size_t n;
		int bad;

		if (ts_whole_file_read(o->jobs[i], MAX_INPUT, &text, &n, &err))
			return fail("cannot read %s: %s", o->jobs[i], err.msg);
		bad = ts_sacct_parse_in_place(text, n, &h, jobs, sum, &err);
		free(text);
		if (bad)
			return fail_at(o->jobs[i], &err);
	}
	return 0;
}

static int read_time(const char *what, const char *s, int64_t *out)
{
	int64_t t = ts_sacct_time(s);

	if (t <= 0)
		return fail("%s \"%s\": not a time YYYY-MM-DDTHH:MM:SS", what,
			    s);
	*out = t;
	return 0;
}

/* The default span: the first start (down to the period), the last end. */
/* RET 0, or EXIT_FAILURE when no job ran and the span is not given. */
static int span(const struct ts_sacct_jobs *j, struct ts_replay_conf *rc,
		bool have_start, bool have_end)
{
	int64_t lo = INT64_MAX, hi = 0;
	size_t i;

	for (i = 0; i < j->n; i++) {
		int64_t e = j->job[i].end ? j->job[i].end : j->job[i].start;

		if (!j->job[i].start) /* never ran (--compare's pending) */
			continue;
		if (j->job[i].start < lo)
			lo = j->job[i].start;
		if (e > hi)
			hi = e;
	}
	if ((!have_start || !have_end) && lo == INT64_MAX)
		return fail("%s%s", "no job ran: give --start and --end", "");
	if (!have_start)
		rc->start = lo - lo % rc->period;
	if (!have_end)
		rc->end = hi;
	return 0;
}

/* ------------------------------------------------------------- output */

struct out {
	int json;
	enum ts_fs_algo algo;
	size_t every; /* rows at cycles every, 2 x every, ... */
};

static void put_field(const struct out *o, const char *name, int first)
{
	if (o->json)
		printf("%s\"%s\":", first ? "{" : ",", name);
	else if (!first)
		putchar(',');
}

/*
 * One cycle's rows, one an association in Slurm's order: CSV, or one
 * JSON object a line.
 */
static int sample(void *arg, const struct ts_replay_sample *s)
{
	const struct out *o = arg;
	const struct ts_tree *t = s->tree;
	const struct ts_fs *fs = s->fs;
	char when[32];
	size_t i;

	if (s->cycle % o->every)
		return 0;
	replay_format_time(s->time, when); /* once a cycle: localtime is slow */
	for (i = 0; i < t->n; i++) {
		const char *acct =
			t->is_user[i] ? ts_tree_name(t, (size_t)t->parent[i])
				      : ts_tree_name(t, i);
		const char *user = t->is_user[i] ? ts_tree_name(t, i) : "";

		put_field(o, "Time", 1);
		if (o->json)
			putchar('"');
		fputs(when, stdout);
		if (o->json)
			putchar('"');
		put_field(o, "Cycle", 0);
		printf("%zu", s->cycle);
		put_field(o, "Account", 0);
		printf(o->json ? "\"%s\"" : "%s", acct);
		put_field(o, "User", 0);
		printf(o->json ? "\"%s\"" : "%s", user);
		put_field(o, "RawShares", 0);
		if (t->shares[i] == TS_SHARES_PARENT)
			printf(o->json ? "\"parent\"" : "parent");
		else
			printf("%u", t->shares[i]);
		put_field(o, "NormShares", 0);
		replay_put_num(stdout, fs->shares_norm[i]);
		put_field(o, "RawUsage", 0);
		replay_put_num(stdout, (double)t->usage[i]);
		put_field(o, "NormUsage", 0);
		if (fs->usage_norm[i] == TS_USAGE_NO_VAL)
			fputs(o->json ? "null" : "", stdout);
		else
			replay_put_num(stdout, (double)fs->usage_norm[i]);
		put_field(o, "EffectvUsage", 0);
		replay_put_num(stdout, (double)fs->usage_efctv[i]);
		put_field(o, "FairShare", 0);
		replay_put_num(stdout, fs->fs_factor[i]);
		if (o->algo == TS_FS_FAIR_TREE) {
			put_field(o, "LevelFS", 0);
			if (fs->level_fs[i] == TS_USAGE_NO_VAL)
				fputs(o->json ? "null" : "", stdout);
			else if (o->json && fs->level_fs[i] > 1.7e308L)
				fputs("\"inf\"", stdout);
			else
				replay_put_num(stdout, (double)fs->level_fs[i]);
			put_field(o, "Rank", 0);
			printf("%u", fs->rank[i]);
		}
		if (o->algo == TS_FS_PBS) {
			put_field(o, "PbsTreeUsage", 0);
			replay_put_num(stdout, fs->pbs_tree_usage[i]);
			put_field(o, "PbsPerc", 0);
			replay_put_num(stdout, fs->pbs_perc[i]);
			put_field(o, "PbsFactor", 0);
			replay_put_num(stdout, fs->pbs_factor[i]);
		}
		putchar(o->json ? '}' : '\n');
		if (o->json)
			putchar('\n');
	}
	return 0;
}

/* The header of the single run's CSV. */
static void put_header(const struct out *o)
{
	if (o->json)
		return;
	fputs("Time,Cycle,Account,User,RawShares,NormShares,RawUsage,NormUsage,EffectvUsage,FairShare",
	      stdout);
	if (o->algo == TS_FS_FAIR_TREE)
		fputs(",LevelFS,Rank", stdout);
	if (o->algo == TS_FS_PBS)
		fputs(",PbsTreeUsage,PbsPerc,PbsFactor", stdout);
	putchar('\n');
}

/* What was read and skipped, on stderr, once the run succeeded. */
static void report_read(const struct ts_sacct_summary *sum)
{
	size_t i;

	fprintf(stderr, "ts-replay: %zu lines read, %zu jobs kept\n",
		sum->lines, sum->jobs);
	if (sum->never_started)
		fprintf(stderr,
			"ts-replay: %zu of them never started: in the pending orders only\n",
			sum->never_started);
	for (i = 0; i < TS_SACCT_SKIP_COUNT; i++)
		if (sum->skipped[i])
			fprintf(stderr, "ts-replay: skipped %zu %s\n",
				sum->skipped[i], ts_sacct_skip_name(i));
}

/* What a replay charged, on stderr; label names it in a comparison. */
static void report_stats(const char *label, const struct ts_replay_conf *rc,
			 const struct ts_replay_stats *st)
{
	fprintf(stderr,
		"ts-replay: %s%s%zu cycles, %zu usage resets; %zu jobs charged, %zu ended before --start, %zu started after the last cycle",
		label ? label : "", label ? ": " : "", st->cycles, st->resets,
		st->charged, st->before_start, st->after_end);
	if (rc->n_changes)
		fprintf(stderr, ", %zu share changes applied",
			st->share_changes);
	if (rc->consumed)
		fprintf(stderr, ", %zu ended without TotalCPU", st->no_cpu);
	fputc('\n', stderr);
}

struct prio_out {
	struct out *rows;
	FILE *f;
	const struct ts_sacct_job *jobs;
	const struct ts_tree *t;
};

/*
 * A cycle of --priorities: the rows on stdout, and each pending job's
 * priority (age and fair share, replay_compare.h) into the file.
 */
static int sample_priorities(void *arg, const struct ts_compare_sample *s)
{
	struct prio_out *p = arg;
	char when[32];
	size_t i;

	if (s->run[0].cycle % p->rows->every)
		return 0;
	sample(p->rows, &s->run[0]);
	replay_format_time(s->time, when);
	for (i = 0; i < s->n_pending; i++) {
		const struct ts_sacct_job *j = &p->jobs[s->pending[i]];

		fprintf(p->f, "%s,%s,%s,%s,%.0f\n", when, j->id,
			ts_tree_name(p->t, (size_t)p->t->parent[j->node]),
			ts_tree_name(p->t, (size_t)j->node), s->prio[i]);
	}
	return ferror(p->f) ? TS_EIO : 0;
}

/* One configuration with --priorities FILE.  RET 0 or EXIT_FAILURE. */
static int run_priorities(const struct opts *o, const struct ts_replay_conf *rc,
			  const struct ts_tree *tree,
			  const struct ts_sacct_jobs *jobs, struct out *out,
			  struct ts_replay_stats *st)
{
	struct ts_error err = TS_ERROR_INIT;
	struct prio_out p = { .rows = out, .jobs = jobs->job, .t = tree };
	int rc2;

	p.f = fopen(o->prio, "w");
	if (!p.f)
		return fail("cannot write %s: %s", o->prio, strerror(errno));
	fputs("Time,JobID,Account,User,Priority\n", p.f);
	rc2 = ts_replay_compare(tree, jobs->job, jobs->n, rc, 1, rc->period,
				sample_priorities, &p, st, NULL, &err);
	if (fclose(p.f) && !rc2)
		return fail("cannot write %s: %s", o->prio, strerror(errno));
	return rc2 ? fail("%s%s", err.msg, "") : 0;
}

/* One configuration, its rows on stdout.  RET 0 or EXIT_FAILURE. */
static int run_one(const struct opts *o, const struct ts_replay_conf *rc,
		   const struct ts_tree *tree, const struct ts_sacct_jobs *jobs,
		   const struct ts_sacct_summary *sum)
{
	struct ts_error err = TS_ERROR_INIT;
	struct ts_replay_stats st = { 0 };
	struct out out = { .json = o->json, .algo = rc->fs.algo };

	if (read_every(o->every, rc->period, &out.every))
		return EXIT_FAILURE;
	put_header(&out);
	if (o->prio) {
		if (run_priorities(o, rc, tree, jobs, &out, &st))
			return EXIT_FAILURE;
	} else if (ts_replay_run(tree, jobs->job, jobs->n, rc, sample, &out,
				 &st, &err)) {
		return fail("%s%s", err.msg, "");
	}
	report_read(sum);
	report_stats(NULL, rc, &st);
	return 0;
}

/*
 * The configurations' labels: their file names without the directory and
 * a ".conf" ending; a label already taken gets "-2", "-3", ...
 */
static char **make_labels(const struct opts *o)
{
	char **label = calloc(o->n_conf, sizeof(*label));
	size_t i, j;

	for (i = 0; label && i < o->n_conf; i++) {
		const char *base = strrchr(o->conf[i], '/');
		size_t len, n = 1;

		base = base ? base + 1 : o->conf[i];
		len = strlen(base);
		if (len > 5 && !strcmp(base + len - 5, ".conf"))
			len -= 5;
		if (!(label[i] = malloc(len + 24)))
			return label;
		snprintf(label[i], len + 24, "%.*s", (int)len, base);
		for (j = 0; j < i; j++)
			if (!strcmp(label[j], label[i])) {
				snprintf(label[i], len + 24, "%.*s-%zu",
					 (int)len, base, ++n);
				j = (size_t)-1; /* check the new one again */
			}
	}
	return label;
}

/* Two or more configurations compared into --compare's directory. */
static int run_compare(const struct opts *o, const struct ts_replay_conf *rc,
		       const struct ts_tree *tree,
		       const struct ts_sacct_jobs *jobs,
		       const struct ts_sacct_summary *sum)
{
	struct ts_error err = TS_ERROR_INIT;
	struct ts_replay_stats *st = calloc(o->n_conf, sizeof(*st));
	char **label = make_labels(o);
	struct replay_report *rep = NULL;
	struct replay_report_opts ro = { .dir = o->compare,
					 .k = o->n_conf,
					 .top = o->top,
					 .swapped = o->swapped };
	struct ts_compare_stats cs = { 0 };
	uint64_t every = 0;
	size_t i;
	int status = EXIT_FAILURE;

	for (i = 0; i < o->n_conf; i++)
		if (rc[i].period > every)
			every = rc[i].period;
	if (!st || !label) {
		fail("%s%s", "out of memory", "");
		goto out;
	}
	for (i = 0; i < o->n_conf; i++)
		if (!label[i]) {
			fail("%s%s", "out of memory", "");
			goto out;
		}
	if (o->every && read_length(o->every, &every))
		goto out;
	if (!every || every > UINT32_MAX) {
		fail("--every \"%s\": not a length from 1 s to 136 years%s",
		     o->every, "");
		goto out;
	}
	ro.labels = (const char *const *)label;
	ro.max_samples =
		(size_t)((uint64_t)(rc[0].end - rc[0].start) / every) + 2;
	if (replay_report_open(&rep, &ro, tree, jobs->job))
		goto out;
	if (ts_replay_compare(tree, jobs->job, jobs->n, rc, o->n_conf,
			      (uint32_t)every, replay_report_sample, rep, st,
			      &cs, &err)) {
		fail("%s%s", err.msg, "");
		goto out;
	}
	report_read(sum);
	for (i = 0; i < o->n_conf; i++)
		report_stats(label[i], &rc[i], &st[i]);
	fprintf(stderr,
		"ts-replay: %zu samples compared; %zu jobs without Eligible are in no pending order\n",
		cs.samples, cs.no_eligible);
	status = replay_report_close(rep) ? EXIT_FAILURE : 0;
	rep = NULL;
out:
	replay_report_abandon(rep);
	for (i = 0; label && i < o->n_conf; i++)
		free(label[i]);
	free(label);
	free(st);
	return status;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct ts_replay_conf *rc = NULL;
	struct ts_settings *set = NULL;
	struct ts_tree tree = { 0 };
	struct ts_assoc_index ix = { 0 };
	struct ts_sacct_jobs jobs = { 0 };
	struct ts_sacct_summary sum = { 0 };
	struct ts_error err = TS_ERROR_INIT;
	int status = EXIT_FAILURE;
	bool need_cpu = false;
	struct cycle_times ct = { 0 };
	struct ts_share_changes sc = { 0 };
	size_t i, n_set = 0;

	if (parse_opts(argc, argv, &o))
		goto done;
	rc = calloc(o.n_conf, sizeof(*rc));
	set = calloc(o.n_conf, sizeof(*set));
	if (!rc || !set) {
		fail("%s%s", "out of memory", "");
		goto done;
	}
	for (n_set = 0; n_set < o.n_conf; n_set++) {
		ts_settings_init(&set[n_set]);
		if (read_conf(o.conf[n_set], &rc[n_set], &set[n_set])) {
			n_set++;
			goto done;
		}
		need_cpu |= rc[n_set].consumed;
	}
	if (read_tree(o.tree, &tree))
		goto done;
	if (ts_assoc_index_build(&ix, &tree, &err)) {
		fail("%s%s", err.msg, "");
		goto done;
	}
	if (read_jobs(&o, &ix, need_cpu, &jobs, &sum))
		goto done;
	if (o.txn) {
		if (read_transactions(o.txn, &ix, &sc))
			goto done;
		for (i = 0; i < o.n_conf; i++) {
			rc[i].changes = sc.c;
			rc[i].n_changes = sc.n;
		}
	}
	if (o.cycles) {
		if (read_cycles(o.cycles, &ct))
			goto done;
		rc[0].cycles = ct.t;
		rc[0].n_cycles = ct.n;
		rc[0].start = ct.t[0];
		rc[0].end = ct.t[ct.n - 1];
	}
	if ((o.start && read_time("--start", o.start, &rc[0].start)) ||
	    (o.end && read_time("--end", o.end, &rc[0].end)))
		goto done;
	if (!jobs.n && !o.cycles && (!o.start || !o.end)) {
		fail("%s%s", "no job to replay: give --start and --end", "");
		goto done;
	}
	if (span(&jobs, &rc[0], o.start || o.cycles, o.end || o.cycles))
		goto done;
	for (i = 1; i < o.n_conf; i++) {
		rc[i].start = rc[0].start;
		rc[i].end = rc[0].end;
	}
	if (o.compare ? run_compare(&o, rc, &tree, &jobs, &sum)
		      : run_one(&o, rc, &tree, &jobs, &sum))
		goto done;
	report_resources();
	status = fflush(stdout) ? EXIT_FAILURE : EXIT_SUCCESS;
done:
	ts_sacct_jobs_free(&jobs);
	ts_assoc_index_free(&ix);
	ts_tree_free(&tree);
	for (i = 0; i < n_set; i++)
		ts_settings_free(&set[i]);
	free(set);
	free(rc);
	free(o.jobs);
	free(o.conf);
	free(ct.t);
	ts_share_changes_free(&sc);
	return status;
}
