# SPDX-License-Identifier: GPL-2.0-or-later
# scenario-node-power.sh - scenario (d): the node power helpers that the
# power lab's SuspendProgram/ResumeProgram use.  "cluster node off" and
# "node kill" end exactly that node's slurmd (its pid is gone, the other
# nodes' slurmds keep theirs); "node on" starts a new slurmd with -b that
# registers again, so slurmctld shows the node idle.
#
# Sourced by run-scenarios.sh ($P); needs a cluster with nodes n1..n4.

# node_idle NODE - sinfo shows NODE idle (responding).
node_idle()
{
	[ "$(sinfo -h -N -p lab -n "$1" -o %t)" = idle ]
}

# slurmd_start_time NODE - the node's SlurmdStartTime in scontrol.
slurmd_start_time()
{
	scontrol show node "$1" | sed -n 's/.*SlurmdStartTime=\([^ ]*\).*/\1/p'
}

# start_time_changed NODE OLD - SlurmdStartTime is no longer OLD.
start_time_changed()
{
	local t
	t=$(slurmd_start_time "$1") && [ -n "$t" ] && [ "$t" != "$2" ]
}

scenario_node_power()
{
	local node=n4 pid0 pid1 pid2 before after st name t0

	# The scenario before may end with a reconfigure, which from 24.11
	# re-executes slurmctld: its start-up, slow under load, is not what
	# is tested here (and a missing SlurmdStartTime would pass as "no
	# change").
	wait_for 90 "slurmctld to answer" ts_ctld_answers
	t0=$(slurmd_start_time "$node")
	before=$(for n in n1 n2 n3; do ts_daemon_pid "slurmd.$n"; echo; done | xargs)
	pid0=$(ts_daemon_pid "slurmd.$node")
	"$TS_CLUSTER" node off "$node" >/dev/null 2>&1
	st=$("$TS_CLUSTER" node status "$node")
	name="$P: cluster node off stops that node's slurmd by pid and no other"
	after=$(ts_pids_alive $before | xargs)
	if [ -n "$pid0" ] && [ -z "$(ts_pids_alive "$pid0")" ] &&
	   [ "$st" = off ] && [ "$after" = "$before" ]; then
		ok "$name"
	else
		not_ok "$name" "slurmd $node pid $pid0 alive: $(ts_pids_alive "$pid0")," \
			"status '$st'; other slurmds $before, alive $after"
	fi

	# SlurmdStartTime has 1 s resolution: let it tick.
	sleep 1
	"$TS_CLUSTER" node on "$node" >/dev/null 2>&1
	pid1=$(ts_daemon_pid "slurmd.$node")
	name="$P: cluster node on starts a new slurmd -b for the node and slurmctld sees it register"
	if [ -n "$pid1" ] && [ "$pid1" != "$pid0" ] &&
	   grep -q -- ' -b ' <(tr '\0' ' ' <"/proc/$pid1/cmdline" 2>/dev/null) &&
	   wait_for 30 "$node to register a new SlurmdStartTime" \
		start_time_changed "$node" "$t0" &&
	   wait_for 30 "$node idle in sinfo" node_idle "$node"; then
		ok "$name"
	else
		not_ok "$name" "pid before $pid0, after '$pid1'" \
			"SlurmdStartTime before $t0, now $(slurmd_start_time "$node")" \
			"$(sinfo -N 2>&1)" "$(ts_ctld_state)"
	fi
	PIDS="$PIDS $(ts_pid_stamp "$pid1")"

	"$TS_CLUSTER" node kill "$node" >/dev/null 2>&1
	st=$("$TS_CLUSTER" node status "$node")
	name="$P: cluster node kill ends the node's slurmd at once (SIGKILL)"
	if [ -z "$(ts_pids_alive "$pid1")" ] && [ "$st" = off ]; then
		ok "$name"
	else
		not_ok "$name" "pid $pid1 alive: $(ts_pids_alive "$pid1"), status '$st'"
	fi
	"$TS_CLUSTER" node on "$node" >/dev/null 2>&1
	pid2=$(ts_daemon_pid "slurmd.$node")
	[ -n "$pid2" ] && PIDS="$PIDS $(ts_pid_stamp "$pid2")"
}
