/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli.h - sshare-ext's command line: sshare's options with sshare's
 * meaning, and sshare-ext's own (docs/sshare-ext.1).
 */
#ifndef SSHARE_EXT_CLI_H
#define SSHARE_EXT_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "columns.h"
#include "fairshare.h"
#include "targets.h"

enum view {
	VIEW_TABLE,	  /* sshare's table */
	VIEW_PATH,	  /* -g ENTITY, pbsfs -g */
	VIEW_JSON,	  /* --json */
	VIEW_TREE,	  /* --tree */
	VIEW_DIAGNOSE_F,  /* --diagnose-f: Maui's usage per credential */
	VIEW_DIAGNOSE_P,  /* --diagnose-p: Maui's fair share of pending jobs */
	VIEW_EXPORT_MAUI, /* --export-maui=DIR: Maui's FS.<EPOCH> files */
};

/* One --set or --usage, applied in command-line order. */
struct what_if {
	int is_usage; /* 0: --set NAME=SHARES, 1: --usage NAME=VALUE */
	char *name;   /* user@account or account */
	char *value;
};

struct cli {
	/* sshare's */
	int all_users; /* -a, or -u -1 */
	char **users;  /* -u, resolved to names, no repeats */
	size_t n_users;
	char **accounts; /* -A, lower-cased like sshare */
	size_t n_accounts;
	int long_flag;	    /* -l */
	int partitions;	    /* -m */
	int no_header;	    /* -n, -h */
	enum col_mode mode; /* -p, -P */
	char *format;	    /* -o/--format, joined as sshare does */
	int users_only;	    /* -U */
	int verbose;	    /* -v */
	char *clusters;	    /* -M, the last one given */
	/* sshare-ext's */
	enum view view;
	char *entity;  /* -g */
	char *input;   /* --input FILE */
	char *targets; /* --targets FILE: fscap= columns */
	char *state;   /* --state FILE: a treeshare_state (--diagnose-f, -p) */
	char *export_dir;	     /* --export-maui=DIR */
	enum ts_fs_policy fs_policy; /* --fs-policy (--diagnose-f) */
	int fs_policy_set;	     /* --fs-policy given */
	int algo_set;		     /* --algo given */
	enum ts_fs_algo algo;
	int damp_set;
	double damp; /* --damp */
	struct what_if *what_ifs;
	size_t n_what_ifs;
	uint32_t explain[2]; /* --explain JOBID[,JOBID] */
	size_t n_explain;
};

enum cli_result {
	CLI_RUN,	/* go on */
	CLI_EXIT_OK,	/* --help, -V, -e done */
	CLI_EXIT_ERROR, /* message printed */
};

/* cli_parse() - fill c from argv; prints help/version/errors itself. */
enum cli_result cli_parse(int argc, char **argv, struct cli *c);

void cli_free(struct cli *c);

/* cli_algo_name() - "classic", "depth_oblivious", "fair_tree", "pbs". */
const char *cli_algo_name(enum ts_fs_algo algo);

#endif /* SSHARE_EXT_CLI_H */
