#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-scenarios.sh PLUGIN TAP_FILE - the cluster lab's scenarios against
# one priority plugin (priority/multifactor, priority/treeshare, ...), on
# one fresh cluster in $TOP/build/cluster-check-<name> shared by the
# scenarios in order:
#   (a) scenario-usage-order.sh   seed 000 tree, usage, sprio vs sshare
#   (b) scenario-restart.sh       usage survives a slurmctld restart
#   (c) scenario-reconfigure.sh   reconfigure scales FAIRSHARE by weight
# then "cluster down" and a check, by pid, that nothing it started is
# left.  The cluster goes down on any exit (trap), logs stay.
# Appends TAP lines to TAP_FILE; exit status 1 if any test failed.
set -u -o pipefail

PLUGIN=${1:?usage: run-scenarios.sh PLUGIN TAP_FILE}
TAP_FILE=$(readlink -f "${2:?usage: run-scenarios.sh PLUGIN TAP_FILE}")
P=${PLUGIN#priority/}
HERE=$(cd "$(dirname "$0")" && pwd)
export TS_CLUSTER_DIR=$(cd "$HERE/../.." && pwd)/build/cluster-check-$P

# shellcheck source=lib.sh
. "$HERE/lib.sh"
. "$HERE/scenario-usage-order.sh"
. "$HERE/scenario-restart.sh"
. "$HERE/scenario-reconfigure.sh"

UP_LOG=$(dirname "$TAP_FILE")/cluster-$P.up.log
PIDS=
DOWN_DONE=0

# down_and_check - stop the cluster and assert that no process it started
# (every pid its pidfiles named, and any slurmstepd of its slurmds) is
# alive afterwards.
down_and_check()
{
	local alive stepds p
	[ "$DOWN_DONE" = 1 ] && return
	DOWN_DONE=1
	PIDS=$(printf '%s\n' $PIDS $(ts_cluster_pids) | sort -un | xargs)
	"$TS_CLUSTER" down
	# shellcheck disable=SC2086
	alive=$(ts_pids_alive $PIDS | tr '\n' ' ')
	stepds=$(for p in $(pgrep -x slurmstepd); do
		tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null |
			grep -qxF "SLURM_CONF=$SLURM_CONF" && echo "$p"
		done | tr '\n' ' ')
	if [ -z "$alive$stepds" ] && [ -n "${PIDS// /}" ]; then
		ok "$P: cluster down leaves none of the $(wc -w <<<"$PIDS") processes cluster up started, checked by pid"
	else
		not_ok "$P: cluster down leaves none of the processes cluster up started, checked by pid" \
			"still alive: ${alive:-none}; slurmstepd: ${stepds:-none}; pids: $PIDS"
	fi
}
trap down_and_check EXIT
trap 'exit 130' INT TERM

t0=$(date +%s)
if ! "$TS_CLUSTER" up --plugin "$PLUGIN" >"$UP_LOG" 2>&1; then
	not_ok "$P: cluster up starts munged, mariadbd, slurmdbd, slurmctld with $PLUGIN and 4 slurmd" \
		"$(cat "$UP_LOG")"
	exit 1
fi
PIDS=$(ts_cluster_pids | tr '\n' ' ')
ok "$P: cluster up starts munged, mariadbd, slurmdbd, slurmctld with $PLUGIN and 4 slurmd ($(($(date +%s) - t0))s)"
sed 's/^/# /' "$UP_LOG"

if scenario_usage_order; then
	scenario_restart
	scenario_reconfigure
fi
down_and_check
diag "$P: scenarios done in $(($(date +%s) - t0))s; logs in $TS_CLUSTER_DIR/log"
[ "${TAP_FAILED:-0}" -eq 0 ]
