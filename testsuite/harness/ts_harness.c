/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ts_harness.c - ts-harness: run any Slurm priority plugin in-process on a
 * fixture and print what sshare and sprio would show (ts-harness(1)).
 *
 *   ts-harness [run] [-p TYPE] [-c N] [-v] [-k] [-F] [-t SECS] FIXTURE
 *   ts-harness gen -a ALGO -s SEED
 *   ts-harness compare FILE_A FILE_B
 *   ts-harness bench [options]
 *   ts-harness version
 *
 * The plugin is loaded by Slurm's own loader (priority_g_init() in
 * libslurmfull, PluginDir from the harness), starts its decay thread as
 * the release's slurmctld has it start (release.h) because the harness
 * looks like slurmctld, and runs its cycles on a fake wall clock, one
 * cycle each time the harness lets it (cycle_gate).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "after_fini.h"
#include "bench.h"
#include "compare.h"
#include "cycle_gate.h"
#include "fake_clock.h"
#include "fixture.h"
#include "gen.h"
#include "release.h"
#include "report.h"
#include "setup.h"

#define DEFAULT_TIMEOUT 60 /* seconds a cycle may take */

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ts-harness [run] [-p TYPE] [-c CYCLES] [-t SECS] "
		"[-v] [-k] [-i] [-F] [-D DIR [-r N]] FIXTURE\n"
		"       ts-harness gen -a classic|depth_oblivious|fair_tree "
		"-s SEED\n"
		"       ts-harness compare FILE_A FILE_B\n"
		"       ts-harness bench [-a ALGO] [-S SCALE] [-n REPS] "
		"[-P TYPE,TYPE]\n"
		"       ts-harness version\n"
		"  -p TYPE   PriorityType (default priority/multifactor)\n"
		"  -c N      cycles to run and report (default: the "
		"fixture's)\n"
		"  -t SECS   longest wait for one cycle (default %d)\n"
		"  -d DIRS   PluginDir (default <bin>/../lib/slurm:%s)\n"
		"  -v        more Slurm logging on stderr (repeatable)\n"
		"  -k        keep the private StateSaveLocation\n"
		"  -i        as slurmctld -i: ignore unusable state files\n"
		"  -F        at the end, calls around and after fini()\n"
		"  -D DIR    StateSaveLocation DIR (created, kept)\n"
		"  -r N      resume in DIR after a crash in cycle N: "
		"run cycles N+1..\n",
		DEFAULT_TIMEOUT, TH_DEB_PLUGINDIR);
}

struct run_opts {
	const char *plugin;
	const char *fixture;
	const char *state_dir;
	unsigned resume;
	char *plugin_dir;
	unsigned cycles;
	unsigned timeout;
	int verbose;
	bool keep;
	bool after_fini;
};

/*
 * A restart between cycles c and c + 1, as slurmctld's shutdown and
 * start: the plugin's fini() (its decay thread released from the gate by
 * its own join), state files removed and damaged if asked, the clock
 * moved on by the downtime, then init() again, whose thread runs cycle
 * c + 1.
 * RET 0, 4 after printing that the plugin refused to start (nothing of
 * it runs: the harness can clean up and exit 2), or 2 after printing why.
 */
static int restart(struct th_setup *s, const struct th_event *ev, unsigned c)
{
	int rc;

	th_gate_arm_stop();
	rc = priority_g_fini();
	th_gate_disarm_stop();
	if (rc != SLURM_SUCCESS) {
		fprintf(stderr,
			"ts-harness: restart after cycle %u: fini() "
			"failed\n",
			c);
		return 2;
	}
	if (ev->remove_file && th_setup_remove(s, ev->remove_file))
		return 2;
	if (ev->damage != TH_DAMAGE_NONE &&
	    th_setup_damage(s, ev->damage, ev->damage_file, th_clock_now()))
		return 2;
	th_setup_restart_run_secs();
	th_clock_advance(ev->down);
	th_gate_allow(c + 1);
	if (th_release_start() != SLURM_SUCCESS) {
		fprintf(stderr,
			"ts-harness: restart after cycle %u: cannot load "
			"%s\n",
			c, s->plugin);
		return 4;
	}
	return 0;
}

/*
 * A reconfigure between cycles c and c + 1.  22.05: slurm.conf read again
 * and priority_g_reconfig(true).  From 24.05 scontrol reconfigure is a new
 * slurmctld: fini(), slurm.conf read again, the plugin started again in
 * the new process (SLURMCTLD_RECONF set); if it refuses, a daemonised
 * slurmctld resumes with its previous configuration, and so does the
 * harness.  RET 0, or 2 after printing why.
 */
static int reconfigure(struct th_setup *s, const struct th_fixture *fx,
		       const struct th_event *ev, unsigned c, bool *allowed)
{
	int rc;

	if (!th_release_reconfig_restarts()) {
		if (th_setup_reconfigure(s, fx, ev->conf))
			return 2;
		priority_g_reconfig(true);
		return 0;
	}
	th_gate_arm_stop();
	rc = priority_g_fini();
	th_gate_disarm_stop();
	if (rc != SLURM_SUCCESS) {
		fprintf(stderr,
			"ts-harness: reconfigure after cycle %u: fini() "
			"failed\n",
			c);
		return 2;
	}
	if (th_setup_reconfigure(s, fx, ev->conf))
		return 2;
	th_gate_allow(c + 1);
	*allowed = true;
	setenv("SLURMCTLD_RECONF", "1", 1);
	rc = th_release_start();
	unsetenv("SLURMCTLD_RECONF");
	if (rc == SLURM_SUCCESS)
		return 0;
	fprintf(stderr,
		"ts-harness: reconfigure after cycle %u: %s refused %s; "
		"resuming with the previous configuration\n",
		c, s->plugin, ev->conf);
	if (th_setup_reconfigure_undo(s, fx) ||
	    th_release_start() != SLURM_SUCCESS) {
		fprintf(stderr,
			"ts-harness: reconfigure after cycle %u: cannot "
			"load %s again\n",
			c, s->plugin);
		return 2;
	}
	return 0;
}

/*
 * Between cycles c and c + 1: jobs whose finish time has come end, then
 * the fixture's restarts and reconfigures after cycle c, in order.
 * RET 0, or 2 or 4 (restart()) after printing why.
 */
static int between(struct th_setup *s, const struct th_fixture *fx, unsigned c,
		   bool *allowed)
{
	size_t i;

	th_setup_end_jobs(fx, th_clock_now());
	for (i = 0; i < fx->n_event; i++) {
		const struct th_event *ev = &fx->event[i];

		if (ev->after != c)
			continue;
		if (ev->kind == TH_EV_RESTART) {
			int rc = restart(s, ev, c);

			if (rc)
				return rc;
			*allowed = true;
		} else if (ev->kind == TH_EV_SLURM_SAVE) {
			th_setup_slurm_save();
		} else if (reconfigure(s, fx, ev, c, allowed)) {
			return 2;
		}
	}
	return 0;
}

static int run(struct run_opts *o)
{
	struct th_setup s = { .plugin = o->plugin,
			      .plugin_dir = o->plugin_dir,
			      .state_dir = o->state_dir,
			      .resume = o->resume,
			      .verbose = o->verbose,
			      .keep_dir = o->keep };
	struct th_fixture fx;
	unsigned cycles, c;
	int rc = 0;

	if (th_fixture_read(o->fixture, &fx))
		return 2;
	cycles = o->cycles ? o->cycles : fx.cycles;
	/* the decay thread's timed sleep must end at once: "now" is past */
	if (fx.now + 400 * 24 * 3600 > th_clock_real()) {
		fprintf(stderr,
			"%s: now %ld is not at least 400 days in the "
			"past\n",
			o->fixture, (long)fx.now);
		th_fixture_free(&fx);
		return 2;
	}
	if (o->resume >= cycles) {
		fprintf(stderr,
			"ts-harness: -r %u: the fixture runs %u cycles\n",
			o->resume, cycles);
		th_fixture_free(&fx);
		return 2;
	}
	th_clock_set(fx.now);
	if (th_setup_conf(&s, &fx) || th_setup_controller(&s, &fx)) {
		th_setup_free(&s);
		th_fixture_free(&fx);
		return 2;
	}
	th_report_config(stdout, cycles);
	if (o->resume) {
		/* the restart comes when the next cycle is due */
		th_clock_set(fx.now +
			     (time_t)o->resume *
				     (time_t)slurm_conf.priority_calc_period);
		th_gate_start_at(o->resume);
	}
	th_gate_arm();
	if (th_release_start() != SLURM_SUCCESS) {
		fprintf(stderr, "ts-harness: cannot load %s from %s\n",
			o->plugin, o->plugin_dir);
		th_setup_free(&s);
		th_fixture_free(&fx);
		return 2;
	}
	for (c = o->resume + 1; c <= cycles; c++) {
		if (!th_gate_wait(c, o->timeout, NULL)) {
			fprintf(stderr,
				"ts-harness: %s: decay cycle %u did "
				"not end within %u s (a cycle ends when the "
				"plugin rewrites %s/priority_last_decay_ran "
				"under lock_state_files())\n",
				o->plugin, c, o->timeout, s.dir);
			fflush(stdout);
			_exit(3); /* the thread may hold any lock */
		}
		th_report_cycle(stdout, c);
		if (c < cycles) {
			bool allowed = false;

			th_clock_advance(
				(time_t)slurm_conf.priority_calc_period);
			rc = between(&s, &fx, c, &allowed);
			if (rc == 4) {
				/* refused to start: nothing of it runs */
				th_setup_free(&s);
				th_fixture_free(&fx);
				return 2;
			}
			if (rc) {
				fflush(stdout);
				_exit(2); /* the plugin may be half gone */
			}
			if (!allowed)
				th_gate_allow(c + 1);
		}
	}
	th_report_set(stdout, cycles);
	if (o->after_fini) {
		/* the decay thread still held at the gate */
		rc = th_after_fini(stdout, o->plugin);
	} else {
		th_gate_open();
		if (priority_g_fini() != SLURM_SUCCESS)
			rc = 1;
	}
	th_setup_free(&s);
	th_fixture_free(&fx);
	return rc;
}

static int run_main(int argc, char **argv)
{
	struct run_opts o = { .plugin = "priority/multifactor",
			      .timeout = DEFAULT_TIMEOUT };
	int opt, rc;

	while ((opt = getopt(argc, argv, "p:c:t:d:D:r:vkiFh")) != -1) {
		switch (opt) {
		case 'p':
			o.plugin = optarg;
			break;
		case 'c':
			o.cycles = (unsigned)strtoul(optarg, NULL, 10);
			if (!o.cycles || o.cycles > 100) {
				fprintf(stderr,
					"ts-harness: -c %s: not "
					"1..100\n",
					optarg);
				return 2;
			}
			break;
		case 't':
			o.timeout = (unsigned)strtoul(optarg, NULL, 10);
			if (!o.timeout) {
				fprintf(stderr,
					"ts-harness: -t %s: not a "
					"positive number of seconds\n",
					optarg);
				return 2;
			}
			break;
		case 'd':
			o.plugin_dir = xstrdup(optarg);
			break;
		case 'v':
			o.verbose++;
			break;
		case 'k':
			o.keep = true;
			break;
		case 'D':
			o.state_dir = optarg;
			break;
		case 'i':
			/* libslurmfull's, set by slurmctld -i */
			ignore_state_errors = true;
			break;
		case 'F':
			o.after_fini = true;
			break;
		case 'r':
			o.resume = (unsigned)strtoul(optarg, NULL, 10);
			if (!o.resume || o.resume > 99) {
				fprintf(stderr,
					"ts-harness: -r %s: not 1..99\n",
					optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	o.fixture = argv[optind];
	if (o.resume && !o.state_dir) {
		fprintf(stderr, "ts-harness: -r needs -D DIR, the crashed "
				"run's StateSaveLocation\n");
		return 2;
	}
	if (!o.plugin_dir)
		o.plugin_dir = th_setup_default_plugin_dir();
	rc = run(&o);
	xfree(o.plugin_dir);
	return rc;
}

int main(int argc, char **argv)
{
	/* next_reset() in multifactor uses localtime(): make it UTC */
	setenv("TZ", "UTC", 1);
	if (argc > 1 && !strcmp(argv[1], "gen"))
		return th_gen_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return th_compare_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "bench"))
		return th_bench_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "run"))
		return run_main(argc - 1, argv + 1);
	if (argc == 2 && !strcmp(argv[1], "version")) {
		/* the Slurm release the harness is built for */
		printf("%s\n", SLURM_VERSION_STRING);
		return 0;
	}
	return run_main(argc, argv);
}
