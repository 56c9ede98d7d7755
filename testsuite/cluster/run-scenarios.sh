#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-scenarios.sh PLUGIN TAP_FILE [NAME] - the cluster lab's scenarios
# against one priority plugin (priority/multifactor, priority/treeshare,
# ...), on one fresh cluster in $TOP/build/cluster-check-<NAME> shared by
# the scenarios in order.  NAME (default: the plugin's name without
# "priority/") also starts every test name and the log file names, so two
# runs of one plugin (stage.sh splits treeshare's) keep apart.  In order:
#   (a) scenario-usage-order.sh   seed 000 tree, usage, sprio vs sshare
#   (b) scenario-restart.sh       usage survives a slurmctld restart
#   (c) scenario-reconfigure.sh   reconfigure scales FAIRSHARE by weight
#   (e) scenario_switch.sh        priority/treeshare only (plugin
#                                 engineer's): multifactor and treeshare
#                                 give the same sshare/sprio text on one
#                                 state; bad PriorityParameters keys
#   (f) scenario_extensions.sh    priority/treeshare only (extensions
#                                 engineer's): fairshare=pbs orders bob
#                                 before suzy as PBS would; a bad key at
#                                 reconfigure; a bad formula at start
#   (g) scenario_caps.sh          priority/treeshare only (issue 20):
#                                 fscap= feasibility caps hold and release
#   (i) scenario_caps_paths.sh    priority/treeshare only (issue 20):
#                                 a requeued job, salloc and a job moved
#                                 to an uncapped account under fscap
#   (n) scenario_caps_paths.sh    priority/treeshare only (issue 27): the
#       (scenario_caps_paths user) same paths under a cap on suzy's
#                                 Maui user credential, which her job
#                                 moved to group1 keeps
#   (h) scenario_caps.sh          priority/treeshare only: a usage
#       (scenario_caps_window)    window roll releases a cap-held job;
#                                 empties RawUsage, so after the others
#   (m) scenario_credentials.sh   priority/treeshare only (issue 27):
#                                 Maui's fair share per credential gives
#                                 sprio's FAIRSHARE and formula's maui_fs
#   (k) scenario_handover.sh      priority/treeshare only (issue 31):
#                                 a reconfigure's new slurmctld killed
#                                 after its first cycle, the old one
#                                 resuming, loses no usage; leaves
#                                 slurmctld daemonised, so last but (d)
#   (d) scenario-node-power.sh    node off/on/kill helpers of the power lab
# TS_SCENARIOS="b c e f g i n h m k d" (letters) runs only those after (a); unset,
# all of them.
# then "cluster down" and a check, by pid, that nothing it started is
# left.  The cluster goes down on any exit (trap), logs stay.
# The directory is $TS_CHECK_DIR_PREFIX<NAME> (default
# <top>/build/cluster-check-<NAME>); the run holds an flock on
# <dir>.lock for its lifetime, so a second run on the same directory (or a
# "cluster up/down" there from another shell) fails at once instead of
# wiping this one.
# Appends TAP lines to TAP_FILE; exit status 1 if any test failed.
set -u -o pipefail

PLUGIN=${1:?usage: run-scenarios.sh PLUGIN TAP_FILE [NAME]}
TAP_FILE=$(readlink -f "${2:?usage: run-scenarios.sh PLUGIN TAP_FILE [NAME]}")
# P: the run's name (test names, directory, logs); scenarios that only
# apply to one plugin test $PLUGIN.
P=${3:-${PLUGIN#priority/}}
HERE=$(cd "$(dirname "$0")" && pwd)
TS_CHECK_DIR_PREFIX=${TS_CHECK_DIR_PREFIX:-$(cd "$HERE/../.." && pwd)/build/cluster-check-}
mkdir -p "$(dirname "$TS_CHECK_DIR_PREFIX$P")"
TS_CLUSTER_DIR=$(readlink -f "$TS_CHECK_DIR_PREFIX$P")
export TS_CLUSTER_DIR TS_CLUSTER_LOCK_HOLDER=$TS_CLUSTER_DIR

# shellcheck source=lib.sh
. "$HERE/lib.sh"
. "$HERE/scenario-usage-order.sh"
. "$HERE/scenario-restart.sh"
. "$HERE/scenario-reconfigure.sh"
. "$HERE/scenario-node-power.sh"
if [ "$PLUGIN" = priority/treeshare ]; then
	. "$HERE/scenario_switch.sh"
	. "$HERE/scenario_extensions.sh"
	. "$HERE/scenario_caps.sh"
	. "$HERE/scenario_caps_paths.sh"
	. "$HERE/scenario_handover.sh"
	. "$HERE/scenario_credentials.sh"
fi

# wanted LETTER - scenario LETTER is to run (TS_SCENARIOS, above).
wanted()
{
	[ -z "${TS_SCENARIOS:-}" ] || [[ " $TS_SCENARIOS " == *" $1 "* ]]
}

UP_LOG=$(dirname "$TAP_FILE")/cluster-$P.up.log
# The lock: fd 9 stays open (and locked) until this script exits.
exec 9>>"$TS_CLUSTER_DIR.lock"
if ! flock -n 9; then
	not_ok "$P: run-scenarios.sh gets $TS_CLUSTER_DIR to itself" \
		"in use by $(cat "$TS_CLUSTER_DIR.lock");" \
		"set TS_CHECK_DIR_PREFIX to run elsewhere"
	exit 1
fi
echo "run-scenarios.sh pid $$ ($PLUGIN) since $(date '+%F %T')" >"$TS_CLUSTER_DIR.lock"

PIDS=
DOWN_DONE=0

# down_and_check - stop the cluster and assert that no process it started
# (every pid its pidfiles named, and any slurmstepd of its slurmds) is
# alive afterwards. Each pid is kept with its start time (ts_pid_stamp).
down_and_check()
{
	local alive stepds p
	[ "$DOWN_DONE" = 1 ] && return
	DOWN_DONE=1
	# each pid file's own record, PID and start time, not a stamp taken
	# now: a daemon that exited (the handover's old slurmctld, when it
	# relinquishes control) may have its pid reused by then (pid_max
	# 32768 wraps within a run), and that process is not ours
	PIDS=$(printf '%s\n' $PIDS $(cat "$TS_CLUSTER_DIR"/run/pid/* 2>/dev/null |
		awk 'NF >= 2 { print $1 "@" $2; next } NF { print $1 }') | sort -u | xargs)
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
PIDS=$(ts_pid_stamp $(ts_cluster_pids) | xargs)
ok "$P: cluster up starts munged, mariadbd, slurmdbd, slurmctld with $PLUGIN and 4 slurmd ($(($(date +%s) - t0))s)"
sed 's/^/# /' "$UP_LOG"

if scenario_usage_order; then
	wanted b && scenario_restart
	wanted c && scenario_reconfigure
	if [ "$PLUGIN" = priority/treeshare ]; then
		wanted e && scenario_switch
		wanted f && scenario_extensions
		wanted g && scenario_caps
		wanted i && scenario_caps_paths
		wanted n && scenario_caps_paths user
		wanted h && scenario_caps_window
		wanted m && scenario_credentials
		wanted k && scenario_handover
	fi
fi
wanted d && scenario_node_power
down_and_check
diag "$P: scenarios done in $(($(date +%s) - t0))s; logs in $TS_CLUSTER_DIR/log"
[ "${TAP_FAILED:-0}" -eq 0 ]
