#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# chassis_control.sh MODE NODE DIR get power [boot]
# chassis_control.sh MODE NODE DIR set power 0|1 | shutdown 1 | reset 1 | boot X | identify A B
#
# The chassis of one simulated node, run by OpenIPMI's ipmi_sim for
# "chassis power ..." requests (its chassis_control program; ipmi_sim
# appends "get power" / "set power 1" ...).  ipmi_sim runs it with popen()
# inside its single event loop and reads its stdout to EOF, so it must
# answer at once and must not leave stdout open: slow actions run
# detached, and "get power" reports what is true now.
#
# MODE file:    the node's power is the file DIR/power.NODE (1 or 0).
#               "shutdown" (soft off) completes 0.5 s later, unless
#               DIR/nosoft.NODE exists (an OS that ignores ACPI).
# MODE cluster: the node is a slurmd of the cluster lab in DIR
#               (testsuite/cluster/cluster --dir DIR node on|off|kill|
#               status NODE): power on starts it, off kills it (SIGKILL),
#               shutdown stops it (SIGTERM).
# Every request is appended to DIR/chassis.log with a nanosecond time:
# "T NODE set power 0", and "T NODE off done" when power actually drops.
set -u
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mode=$1 node=$2 dir=$3 op=$4
shift 4
HERE=${0%/*}	# bmc.sh runs us by absolute path
CLUSTER=$HERE/../cluster/cluster
LOG=$dir/chassis.log

note() { echo "$(date +%s.%N) $node $*" >>"$LOG"; }

# detached CMD...: run CMD with no tie to our stdout or to ipmi_sim.
detached() { setsid "$@" </dev/null >>"$dir/chassis.out" 2>&1 & }

# "get power" is answered inside ipmi_sim's event loop, so it reads the
# lab's pid record itself (daemon.sh, ~10 ms) instead of running the
# cluster script (~90 ms idle, over a second under CI's three lanes:
# ipmitool's 1 s timeouts expired and slurmscriptd killed node_power at
# max(SuspendTimeout, ResumeTimeout) before it had confirmed all off).
power_now() {
	if [ "$mode" = file ]; then
		cat "$dir/power.$node" 2>/dev/null || echo 0
		return
	fi
	# shellcheck disable=SC2034 # daemon.sh's functions read it
	DIR=$dir
	# shellcheck source=/dev/null
	. "$HERE/../cluster/daemon.sh"
	if daemon_running "slurmd.$node"; then
		echo 1
	else
		echo 0
	fi
}

power_set() {
	local v=$1 how=$2	# how: hard | soft
	if [ "$mode" = file ]; then
		if [ "$v" = 1 ] || [ "$how" = hard ]; then
			# a rename: "get power" never reads a file half written
			echo "$v" >"$dir/power.$node.$$" &&
				mv -f "$dir/power.$node.$$" "$dir/power.$node"
			[ "$v" = 0 ] && note "off done"
		elif [ ! -e "$dir/nosoft.$node" ]; then
			# the OS's shutdown: 0.5 s, or what $dir/soft_off_secs says
			detached bash -c "sleep $(cat "$dir/soft_off_secs" 2>/dev/null || echo 0.5); echo 0 >'$dir/power.$node.soft' && mv -f '$dir/power.$node.soft' '$dir/power.$node'; echo \"\$(date +%s.%N) $node off done\" >>'$LOG'"
		fi
	elif [ "$v" = 1 ]; then
		detached "$CLUSTER" --dir "$dir" node on "$node"
	elif [ "$how" = hard ]; then
		detached bash -c "'$CLUSTER' --dir '$dir' node kill '$node'; echo \"\$(date +%s.%N) $node off done\" >>'$LOG'"
	else
		detached bash -c "'$CLUSTER' --dir '$dir' node off '$node'; echo \"\$(date +%s.%N) $node off done\" >>'$LOG'"
	fi
}

case $op in
get)
	for p in "$@"; do
		case $p in
		power) echo "power:$(power_now)" ;;
		boot) echo "boot:default" ;;
		*) echo "Invalid parameter: $p"; exit 1 ;;
		esac
	done
	;;
set)
	note "set $*"
	while [ $# -ge 2 ]; do
		p=$1 v=$2
		shift 2
		case $p in
		power) power_set "$v" hard ;;
		shutdown) power_set 0 soft ;;
		reset) power_set 0 hard; power_set 1 hard ;;
		boot) ;;
		identify) shift ;;
		*) echo "Invalid parameter: $p"; exit 1 ;;
		esac
	done
	;;
*)
	echo "usage: $0 file|cluster NODE DIR get|set ..." >&2
	exit 1
	;;
esac
exit 0
