/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli.c - sshare-ext's options (cli.h).  sshare's own options keep
 * sshare 22.05's meaning, including the less known ones: -h is "no
 * header" (help is --help), -u -1 means all users, a later -u cancels
 * -a, and --usage alone prints the usage text.  --usage NAME=VALUE is
 * sshare-ext's what-if; the two are told apart by the argument.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <slurm/slurm_version.h>

#include "cli.h"
#include "decimal.h"
#include "fields.h"

#define PROG "sshare-ext"

enum {
	OPT_HELP = 0x100,
	OPT_USAGE,
	OPT_INPUT,
	OPT_SET,
	OPT_ALGO,
	OPT_DAMP,
	OPT_JSON,
	OPT_TREE,
	OPT_TARGETS,
	OPT_DIAGNOSE_F,
	OPT_DIAGNOSE_P,
	OPT_STATE,
	OPT_FS_POLICY,
	OPT_EXPORT_MAUI,
	OPT_EXPLAIN,
};

static const struct option long_options[] = {
	{ "accounts", required_argument, 0, 'A' },
	{ "all", no_argument, 0, 'a' },
	{ "helpformat", no_argument, 0, 'e' },
	{ "long", no_argument, 0, 'l' },
	{ "partition", no_argument, 0, 'm' },
	{ "cluster", required_argument, 0, 'M' },
	{ "clusters", required_argument, 0, 'M' },
	{ "noheader", no_argument, 0, 'n' },
	{ "format", required_argument, 0, 'o' },
	{ "parsable", no_argument, 0, 'p' },
	{ "parsable2", no_argument, 0, 'P' },
	{ "users", required_argument, 0, 'u' },
	{ "Users", no_argument, 0, 'U' },
	{ "verbose", no_argument, 0, 'v' },
	{ "version", no_argument, 0, 'V' },
	{ "help", no_argument, 0, OPT_HELP },
	{ "usage", optional_argument, 0, OPT_USAGE },
	{ "path", required_argument, 0, 'g' },
	{ "input", required_argument, 0, OPT_INPUT },
	{ "set", required_argument, 0, OPT_SET },
	{ "algo", required_argument, 0, OPT_ALGO },
	{ "damp", required_argument, 0, OPT_DAMP },
	{ "json", no_argument, 0, OPT_JSON },
	{ "tree", no_argument, 0, OPT_TREE },
	{ "targets", required_argument, 0, OPT_TARGETS },
	{ "diagnose-f", no_argument, 0, OPT_DIAGNOSE_F },
	{ "diagnose-p", no_argument, 0, OPT_DIAGNOSE_P },
	{ "state", required_argument, 0, OPT_STATE },
	{ "fs-policy", required_argument, 0, OPT_FS_POLICY },
	{ "export-maui", required_argument, 0, OPT_EXPORT_MAUI },
	{ "explain", required_argument, 0, OPT_EXPLAIN },
	{ 0, 0, 0, 0 }
};

static const char *const algo_names[] = {
	[TS_FS_CLASSIC] = "classic",
	[TS_FS_DEPTH_OBLIVIOUS] = "depth_oblivious",
	[TS_FS_FAIR_TREE] = "fair_tree",
	[TS_FS_PBS] = "pbs",
};

const char *cli_algo_name(enum ts_fs_algo algo)
{
	if ((size_t)algo >= sizeof(algo_names) / sizeof(algo_names[0]))
		return "unknown";
	return algo_names[algo];
}

/* --help: sshare's options that sshare-ext keeps, then its own. */
static void print_help(void)
{
	printf("\
Usage:  sshare-ext [OPTION]\n\
  sshare's options, with sshare's meaning:\n\
    -a or --all            list all users\n\
    -A or --accounts=      display specific accounts (comma separated list)\n\
    -e or --helpformat     print the fields --format accepts\n\
    -l or --long           include normalized usage and the extended columns\n\
    -M or --cluster=names  clusters to ask (from slurmdbd; all: every one)\n\
    -m or --partition      print the partition part of the association\n\
    -n or --noheader       omit header from output (also -h)\n\
    -o or --format=        comma separated list of fields (NAME%%LEN sets a width)\n\
    -p or --parsable       '|' delimited output with a trailing '|'\n\
    -P or --parsable2      '|' delimited output without a trailing '|'\n\
    -u or --users=         display specific users (comma separated list)\n\
    -U or --Users          display only user information\n\
    -v or --verbose        display more information\n\
    -V or --version        display tool version number\n\
          --help, --usage  display this usage description\n\
  sshare-ext's own:\n\
    -g or --path=ENTITY    pbsfs -g view: ENTITY is user, user@account or account\n\
          --json           every column of the rows as JSON\n\
          --tree           the tree, one bar per entity: usage against target\n\
          --input=FILE     offline: a tree file or saved sshare -a -l -P output\n\
          --set NAME=SHARES    what-if: NAME's shares (NAME user@account or account)\n\
          --usage NAME=VALUE   what-if: NAME's raw usage (ancestors follow)\n\
          --algo=ALGO      offline: classic, depth_oblivious, fair_tree or pbs\n\
          --damp=N         offline: FairShareDampeningFactor (default 1)\n\
          --targets=FILE   the fs_targets file: its fscap= caps (FSCap CapUsage CappedBy)\n\
          --diagnose-f     Maui's diagnose -f: usage per credential, per window\n\
          --diagnose-p     Maui's diagnose -p: fair share of each pending job\n\
                           per credential (online)\n\
          --export-maui=DIR    the usage per credential as Maui's FS.<EPOCH>\n\
                           window files in DIR (for Maui, Moab, fs_import=)\n\
          --state=FILE     with --diagnose-f/-p, --export-maui: a treeshare_state\n\
                           file (default: the controller's, its targets and names)\n\
          --fs-policy=P    with --diagnose-f/-p: difference (default) or ratio\n\
          --explain=JOB[,JOB]  why a job waits: its factors, its fair-share\n\
                           path; with two jobs which is ahead, why, and when\n\
                           that may change (online; --json for JSON)\n\
\n\
Extended columns: TreeUsage Perc PBSFactor Rank ClassicFS DOFS FairTreeFS\n\
(see sshare-ext(1)).\n");
}

static void version(void)
{
	printf("sshare-ext (treeshare) for slurm %d.%02d.%d\n",
	       SLURM_VERSION_MAJOR(SLURM_VERSION_NUMBER),
	       SLURM_VERSION_MINOR(SLURM_VERSION_NUMBER),
	       SLURM_VERSION_MICRO(SLURM_VERSION_NUMBER));
}

static int die(const char *fmt, const char *arg)
{
	fprintf(stderr, PROG ": error: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return CLI_EXIT_ERROR;
}

static int push_str(char ***v, size_t *n, const char *s, size_t len)
{
	char **tmp = realloc(*v, (*n + 1) * sizeof(**v));

	if (!tmp)
		return -1;
	*v = tmp;
	if (!(tmp[*n] = strndup(s, len)))
		return -1;
	(*n)++;
	return 0;
}

static void free_strs(char ***v, size_t *n)
{
	while (*n > 0)
		free((*v)[--*n]);
	free(*v);
	*v = NULL;
}

/*
 * -u: commas split (a leading quote ends the list at its match); a name
 * starting with a digit is a uid; repeats (any case) are dropped.
 */
static int add_users(struct cli *c, const char *arg)
{
	char *s = strdup(arg), *p, *item;
	char quote = 0;

	if (!s)
		return die("%s", "out of memory");
	p = s;
	if (*p == '"' || *p == '\'') {
		char *end;

		quote = *p++;
		if ((end = strchr(p, quote)))
			*end = '\0';
	}
	for (item = strtok(p, ","); item; item = strtok(NULL, ",")) {
		char name[256];
		size_t i;
		int dup = 0;

		snprintf(name, sizeof(name), "%s", item);
		if (isdigit((unsigned char)*item)) {
			unsigned long uid = strtoul(item, NULL, 10);
			struct passwd *pw = getpwuid((uid_t)uid);

			if (!pw) {
				fprintf(stderr, "Invalid user id: %u\n",
					(unsigned)uid);
				free(s);
				return CLI_EXIT_ERROR;
			}
			snprintf(name, sizeof(name), "%s", pw->pw_name);
		}
		for (i = 0; i < c->n_users; i++)
			dup |= !strcasecmp(c->users[i], name);
		if (!dup &&
		    push_str(&c->users, &c->n_users, name, strlen(name))) {
			free(s);
			return die("%s", "out of memory");
		}
	}
	free(s);
	return CLI_RUN;
}

/* -A: commas split, lower-cased as sshare does. */
static int add_accounts(struct cli *c, const char *arg)
{
	const char *p = arg;

	while (*p) {
		size_t len = strcspn(p, ",");

		if (len) {
			size_t i;

			if (push_str(&c->accounts, &c->n_accounts, p, len))
				return die("%s", "out of memory");
			for (i = 0; i < len; i++)
				c->accounts[c->n_accounts - 1][i] =
					(char)tolower((unsigned char)p[i]);
		}
		p += len;
		if (*p)
			p++;
	}
	return CLI_RUN;
}

static int add_what_if(struct cli *c, int is_usage, const char *arg)
{
	const char *eq = strrchr(arg, '=');
	struct what_if *tmp, *w;

	if (!eq || eq == arg || !eq[1])
		return die(is_usage ? "--usage needs NAME=VALUE, got \"%s\""
				    : "--set needs NAME=SHARES, got \"%s\"",
			   arg);
	tmp = realloc(c->what_ifs, (c->n_what_ifs + 1) * sizeof(*tmp));
	if (!tmp)
		return die("%s", "out of memory");
	c->what_ifs = tmp;
	w = &tmp[c->n_what_ifs];
	w->is_usage = is_usage;
	w->name = strndup(arg, (size_t)(eq - arg));
	w->value = strdup(eq + 1);
	c->n_what_ifs++;
	if (!w->name || !w->value)
		return die("%s", "out of memory");
	return CLI_RUN;
}

static int add_format(struct cli *c, const char *arg)
{
	size_t old = c->format ? strlen(c->format) : 0;
	char *tmp = realloc(c->format, old + strlen(arg) + 2);

	if (!tmp)
		return die("%s", "out of memory");
	/* sshare appends "ARG," for each -o */
	sprintf(tmp + old, "%s,", arg);
	c->format = tmp;
	return CLI_RUN;
}

static int parse_algo(struct cli *c, const char *arg)
{
	size_t i;

	for (i = 0; i < sizeof(algo_names) / sizeof(algo_names[0]); i++) {
		if (!strcmp(arg, algo_names[i])) {
			c->algo = (enum ts_fs_algo)i;
			c->algo_set = 1;
			return CLI_RUN;
		}
	}
	return die(
		"--algo \"%s\" is not classic, depth_oblivious, fair_tree or pbs",
		arg);
}

/* The files' and parameters' reader (decimal.h): no locale, no hex. */
static int parse_damp(struct cli *c, const char *arg)
{
	long double d;

	if (ts_decimal_read(arg, strlen(arg), 1, &d) != TS_DECIMAL_OK ||
	    d < 1 || d > 65535 || d != floorl(d))
		return die("--damp \"%s\" is not an integer 1..65535", arg);
	c->damp = (double)d;
	c->damp_set = 1;
	return CLI_RUN;
}

static int bad_option(int argc, char **argv, int opt)
{
	const char *what =
		optind > 0 && optind <= argc ? argv[optind - 1] : "?";
	char shortopt[3] = { '-', (char)optopt, 0 };

	if (opt == ':')
		return die("option %s needs an argument",
			   optopt ? shortopt : what);
	return die("unknown option \"%s\" (see sshare-ext --help)",
		   optopt ? shortopt : what);
}

/* --explain JOBID[,JOBID]: one or two job ids. */
static int parse_explain(struct cli *c, const char *arg)
{
	const char *p = arg;

	c->n_explain = 0;
	while (*p) {
		char *end;
		unsigned long v;

		errno = 0;
		v = (*p >= '0' && *p <= '9') ? strtoul(p, &end, 10) : 0;
		if (!v || errno || v > UINT32_MAX || (*end && *end != ',') ||
		    c->n_explain == 2)
			return die(
				"--explain=%s: expected one or two job ids, JOBID[,JOBID]",
				arg);
		c->explain[c->n_explain++] = (uint32_t)v;
		p = *end ? end + 1 : end;
	}
	if (!c->n_explain)
		return die(
			"--explain=%s: expected one or two job ids, JOBID[,JOBID]",
			arg);
	return CLI_RUN;
}

enum cli_result cli_parse(int argc, char **argv, struct cli *c)
{
	int opt, rc = CLI_RUN;

	memset(c, 0, sizeof(*c));
	c->damp = 1;
	opterr = 0;
	optind = 1;
	while (rc == CLI_RUN &&
	       (opt = getopt_long(argc, argv, ":aA:ehlM:no:pPUu:vVmg:",
				  long_options, NULL)) != -1) {
		switch (opt) {
		case 'a':
			c->all_users = 1;
			break;
		case 'A':
			rc = add_accounts(c, optarg);
			break;
		case 'e':
			fields_help();
			return CLI_EXIT_OK;
		case 'h':
		case 'n':
			c->no_header = 1;
			break;
		case 'l':
			c->long_flag = 1;
			break;
		case 'M':
			free(c->clusters);
			if (!(c->clusters = strdup(optarg)))
				rc = die("%s", "out of memory");
			break;
		case 'm':
			c->partitions = 1;
			break;
		case 'o':
			rc = add_format(c, optarg);
			break;
		case 'p':
			c->mode = COL_PARSABLE;
			break;
		case 'P':
			c->mode = COL_PARSABLE2;
			break;
		case 'u':
			if (!strcmp(optarg, "-1")) {
				c->all_users = 1;
				break;
			}
			c->all_users = 0;
			rc = add_users(c, optarg);
			break;
		case 'U':
			c->users_only = 1;
			break;
		case 'v':
			c->verbose++;
			break;
		case 'V':
			version();
			return CLI_EXIT_OK;
		case OPT_HELP:
			print_help();
			return CLI_EXIT_OK;
		case OPT_USAGE:
			if (!optarg && optind < argc &&
			    argv[optind][0] != '-' && strchr(argv[optind], '='))
				optarg = argv[optind++];
			if (!optarg) {
				print_help();
				return CLI_EXIT_OK;
			}
			rc = add_what_if(c, 1, optarg);
			break;
		case OPT_SET:
			rc = add_what_if(c, 0, optarg);
			break;
		case 'g':
			free(c->entity);
			c->entity = strdup(optarg);
			c->view = VIEW_PATH;
			break;
		case OPT_INPUT:
			free(c->input);
			c->input = strdup(optarg);
			break;
		case OPT_TARGETS:
			free(c->targets);
			c->targets = strdup(optarg);
			break;
		case OPT_ALGO:
			rc = parse_algo(c, optarg);
			break;
		case OPT_DAMP:
			rc = parse_damp(c, optarg);
			break;
		case OPT_JSON:
			c->view = VIEW_JSON;
			break;
		case OPT_TREE:
			c->view = VIEW_TREE;
			break;
		case OPT_DIAGNOSE_F:
			c->view = VIEW_DIAGNOSE_F;
			break;
		case OPT_DIAGNOSE_P:
			c->view = VIEW_DIAGNOSE_P;
			break;
		case OPT_STATE:
			free(c->state);
			c->state = strdup(optarg);
			break;
		case OPT_EXPORT_MAUI:
			free(c->export_dir);
			c->export_dir = strdup(optarg);
			c->view = VIEW_EXPORT_MAUI;
			break;
		case OPT_EXPLAIN:
			rc = parse_explain(c, optarg);
			break;
		case OPT_FS_POLICY:
			c->fs_policy_set = 1;
			if (!strcmp(optarg, "difference"))
				c->fs_policy = TS_FS_POLICY_DIFFERENCE;
			else if (!strcmp(optarg, "ratio"))
				c->fs_policy = TS_FS_POLICY_RATIO;
			else
				rc = die(
					"--fs-policy=%s: expected difference or ratio",
					optarg);
			break;
		default:
			rc = bad_option(argc, argv, opt);
			break;
		}
	}
	if (rc == CLI_RUN && optind < argc)
		rc = die("unexpected argument \"%s\" (see sshare-ext --help)",
			 argv[optind]);
	if (rc == CLI_RUN && !c->input && (c->algo_set || c->damp_set))
		rc = die(
			"%s",
			"--algo and --damp apply to --input only; online the cluster's configuration decides");
	if (rc == CLI_RUN && c->input && c->clusters)
		rc = die(
			"%s",
			"-M asks slurmdbd for clusters; --input reads a file: give one of them");
	if (rc == CLI_RUN && c->view != VIEW_DIAGNOSE_F &&
	    c->view != VIEW_DIAGNOSE_P && c->view != VIEW_EXPORT_MAUI &&
	    c->state)
		rc = die(
			"%s",
			"--state applies to --diagnose-f, --diagnose-p and --export-maui only");
	if (rc == CLI_RUN && c->n_explain &&
	    (c->input || c->clusters ||
	     (c->view != VIEW_TABLE && c->view != VIEW_JSON)))
		rc = die(
			"%s",
			"--explain asks the controller about jobs: it takes --json and -v, not --input, -M or another view");
	if (rc == CLI_RUN && !c->input && c->n_what_ifs)
		rc = die(
			"%s",
			"--set and --usage apply to --input only; save the cluster's state with sshare -a -l -P");
	return (enum cli_result)rc;
}

void cli_free(struct cli *c)
{
	size_t i;

	free_strs(&c->users, &c->n_users);
	free_strs(&c->accounts, &c->n_accounts);
	free(c->format);
	free(c->entity);
	free(c->input);
	free(c->targets);
	free(c->state);
	free(c->export_dir);
	free(c->clusters);
	for (i = 0; i < c->n_what_ifs; i++) {
		free(c->what_ifs[i].name);
		free(c->what_ifs[i].value);
	}
	free(c->what_ifs);
	memset(c, 0, sizeof(*c));
}
