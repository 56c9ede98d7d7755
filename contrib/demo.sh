#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# demo.sh - the recipe of "make demo" (which has already run make deps and
# make all): a live single-machine Slurm cluster scheduling with
# priority/treeshare, the seed 000 fair-share tree, a short workload, and
# Slurm's own sshare and sprio showing the result.  The cluster is left
# running in $TS_CLUSTER_DIR (default build/cluster); stop it with
# "testsuite/cluster/cluster down".
set -u -o pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
CLUSTER=$TOP/testsuite/cluster/cluster
# TS_DEMO_PLUGIN: another PriorityType to demonstrate (default ours)
plugin=${TS_DEMO_PLUGIN:-priority/treeshare}
SO=$TOP/build/lib/slurm/${plugin/\//_}.so
export TS_CLUSTER_DIR=${TS_CLUSTER_DIR:-$TOP/build/cluster}
# shellcheck source=../testsuite/cluster/lib.sh
. "$TOP/testsuite/cluster/lib.sh"

say() { printf '\n==> %s\n' "$*"; }
t0=$(date +%s)

if [ "$plugin" != priority/multifactor ] && [ ! -f "$SO" ]; then
	say "NOTE: $SO is not built yet;" \
	    "the demo runs Debian's priority/multifactor instead."
	plugin=priority/multifactor
fi
say "Starting a private Slurm cluster in $TS_CLUSTER_DIR ($plugin)"
if ! "$CLUSTER" up --plugin "$plugin"; then
	[ "$plugin" = priority/multifactor ] && exit 1
	say "NOTE: slurmctld did not start with $plugin (reason" \
	    "above, log $TS_CLUSTER_DIR/log/slurmctld.log);" \
	    "falling back to Debian's priority/multifactor."
	plugin=priority/multifactor
	"$CLUSTER" up --plugin "$plugin" || exit 1
fi

say "Loading the seed 000 tree (testsuite/trees/seed000.tree) with sacctmgr"
ts_tree_load "$TOP/testsuite/trees/seed000.tree" || exit 1
sshare -a -o account,user,rawshares,normshares

say "Workload: bob 4 CPUs, cathy 1 CPU, scott 8 CPUs, 3 minutes each; suzy idle"
declare -A cpus=([bob]=4 [cathy]=1 [scott]=8)
for u in bob cathy scott; do
	ts_submit "$u" -p lab -c "${cpus[$u]}" -t 5 --wrap 'sleep 180' >/dev/null ||
		exit 1
done
wait_for 30 "the workload to start" ts_no_job_pending_in lab 2>/dev/null
squeue

say "Waiting for the next priority decay cycle (PriorityCalcPeriod = 1 minute) to account the usage"
if ! wait_for 90 "usage for bob, cathy and scott" ts_users_have_usage bob cathy scott; then
	echo "demo: no usage after 90s; see $TS_CLUSTER_DIR/log/slurmctld.log" >&2
	exit 1
fi

say "Pending jobs for all four users (partition 'wait' is DOWN: they queue with a priority)"
for u in bob cathy suzy scott; do
	ts_submit "$u" -p wait -c 1 --wrap 'sleep 60' >/dev/null || exit 1
done
wait_for 20 "sprio to list 4 jobs" ts_sprio_count_at_least 4

say "sshare -l   ($(scontrol show config | awk '$1 == "PriorityType" { print $3 }'))"
sshare -l -a
say "sprio -l"
sprio -l

cat <<EOF

==> The cluster keeps running (demo took $(($(date +%s) - t0))s).  Use it from any shell:
      eval "\$($CLUSTER env)"
      sshare -l -a; sprio -l; squeue; sinfo
      sbatch --uid=bob --gid=bob -p lab -c 2 --chdir=/tmp --wrap 'sleep 60'
      $CLUSTER status
    Stop it (by pid; logs stay in $TS_CLUSTER_DIR/log):
      $CLUSTER down
EOF
