#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_e2e.sh - Slurm power saving through node_power, end to end.
#
# A cluster lab (testsuite/cluster/cluster, 4 nodes, in $TS_CLUSTER_DIR)
# whose slurm.conf names node_power-suspend/-resume/-resume-fail as
# SuspendProgram/ResumeProgram/ResumeFailProgram with SuspendTime=90 and
# power_save_interval=2.  SuspendTime counts from the nodes' last busy
# time, before the test powers them on by hand: at 30 s, on a loaded
# machine (CI's lanes side by side), slurmctld powered the first node
# down again before the fourth had registered.  node_power uses its IPMI backend: ipmitool ->
# one ipmi_sim per node -> chassis_control.sh, which starts the node's
# slurmd ("cluster node on", slurmd -b) or stops it (SIGTERM on soft off,
# SIGKILL on hard off).  Checked: idle nodes are powered down with never
# more than max_concurrent_nodes (2) in transition and show idle~; a job
# makes slurmctld resume nodes through node_power, they register and the
# job COMPLETES; an allocated node is refused a power off; `cycle` reads
# slurmctld through libslurm; a BMC that hangs makes slurmctld give up at
# ResumeTimeout and run ResumeFailProgram.  Waits are bounded (batch jobs
# may stay CONFIGURING up to 30 s after their nodes return, Slurm 22.05).
set -u
. "$(dirname "$0")/lib.sh"

CLUSTER=$TOP/testsuite/cluster/cluster
D=$(readlink -f "${TS_CLUSTER_DIR:-$TOP/build/cluster-power}")
B=$D.bmc
export SLURM_CONF=$D/etc/slurm.conf
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
# shellcheck source=../cluster/slurm-prefix.sh
. "$TOP/testsuite/cluster/slurm-prefix.sh"
SLURM_PREFIX=${SLURM_PREFIX:-}
ts_use_slurm_prefix "$SLURM_PREFIX" || exit 1
NODES="n1 n2 n3 n4"
# SLURM_RESUME_FILE's key for all nodes of a pass: "all_nodes" in 22.05,
# "all_nodes_resume" in 24.11 (src/slurmctld/power_save.c).
slurm_num=$(slurmctld -V | awk '{ split($2, v, "."); printf "%d%02d%02d", v[1], v[2], v[3] }')
ALL_NODES_KEY=all_nodes
[ "$slurm_num" -ge 241100 ] && ALL_NODES_KEY=all_nodes_resume
X=$(mktemp -d /tmp/np-e2e-XXXXXX)

cleanup() {
	local p
	for p in $(cat "$X/stopped" 2>/dev/null); do kill -CONT "$p" 2>/dev/null; done
	"$CLUSTER" --dir "$D" down >"$X/down.log" 2>&1
	bash "$POWER_DIR/bmc.sh" stop "$B"
	rm -rf "$X"
}
trap cleanup EXIT

if [ ! -x "$CLUSTER" ]; then
	not_ok "cluster lab tool $CLUSTER missing"
	exit 1
fi

# What went wrong, for a failing check.
show_logs() {
	echo "# --- sinfo: $(sinfo -h -N -p lab -o '%N=%t' 2>&1 | tr '\n' ' ')"
	echo "# --- node_power.log (tail)"
	log_tail "$D/log/node_power.log" 25
	echo "# --- slurmctld.log power lines (tail)"
	grep -iE 'power|resume|suspend' "$D/log/slurmctld.log" 2>/dev/null | tail -15 | diag
	echo "# --- chassis.log (tail)"
	log_tail "$D/chassis.log" 10
}

re_escape() { sed 's/[][\.*^$()]/\\&/g' <<<"$1"; }
states() { sinfo -h -N -p lab -o '%N=%t' | tr '\n' ' ' | sed 's/ $//'; }
all_state() { [ "$(sinfo -h -N -p lab -o '%t' | sort -u)" = "$1" ]; }
node_state() { sinfo -h -N -p lab -o '%N=%t' | grep -qx -- "$1=$2"; }
job_state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }
job_done() { [ "$(job_state "$1")" = COMPLETED ]; }

# --- bring-up --------------------------------------------------------------
cat >"$X/extra.conf" <<END
# node_power as Slurm's power-saving programs (docs/node_power.8)
SuspendProgram=$TOP/build/bin/node_power-suspend
ResumeProgram=$TOP/build/bin/node_power-resume
ResumeFailProgram=$TOP/build/bin/node_power-resume-fail
SuspendTime=90
SuspendTimeout=12
ResumeTimeout=45
SuspendRate=0
ResumeRate=0
BatchStartTimeout=10
SlurmctldParameters=power_save_interval=2,power_save_min_interval=0
# backfill every 2 s: pending jobs get an expected start and nodes soon
SchedulerParameters=bf_interval=2
DebugFlags=Priority,Power
END
start=$(now_ms)
# Bounded, and one retry: the lab's bring-up has been seen to lose
# slurmdbd at start, and to hang once waiting for a daemon it thought had
# died, while several clusters shared the machine (reported to its owner).
up() {
	timeout -k 10 300 "$CLUSTER" --dir "$D" up --no-nodes --nodes 4 \
		--conf-extra "$X/extra.conf" >"$X/up.log" 2>&1
}
if ! up; then
	echo "# cluster up failed once, retrying:"
	tail -n 4 "$X/up.log" | diag
	if ! up; then
		not_ok "cluster lab up (4 nodes, node_power as Suspend/ResumeProgram)"
		diag <"$X/up.log"
		exit 1
	fi
fi
ok "cluster lab up without slurmd, node_power as power programs ($(( ($(now_ms) - start) / 1000 )) s)"

rm -rf "$B"
if ! bash "$POWER_DIR/bmc.sh" start "$B" cluster "$D" $NODES 2>"$X/bmc.err"; then
	not_ok "4 ipmi_sim BMCs driving the cluster's slurmds"
	diag <"$X/bmc.err"
	exit 1
fi
export BMC_DIR=$B
chassis() { bmc_chassis "$1"; }
# shellcheck disable=SC2086
chassis_all() { bmc_chassis_all $NODES; }
# Beside SLURM_CONF: where node_power looks when slurmctld runs it.
cat >"$D/etc/node_power.json" <<END
{ "backend": "ipmi", "power_on_off_enable": "True",
  "poweroff_eligible": "n[1-4]", "max_concurrent_nodes": "2",
  "min_node_down_delay": "3", "max_wait": 30,
  "command_timeout": 10, "command_retries": 3, "soft_off_timeout": 5,
  "confirm_timeout": 30,
  "log_file": "$D/log/node_power.log",
  "state_file": "$D/state/node_power.state",
  "bmc": { $(bmc_json $NODES) } }
END
chmod 644 "$D/etc/node_power.json"
NPC=("$NP" -c "$D/etc/node_power.json")
check "node_power check-config accepts the cluster's configuration" \
	bash -c "'$NP' -c '$D/etc/node_power.json' check-config >/dev/null"

# command_retries 3 (ipmitool -R): on a loaded machine (CI's lanes side by
# side) ipmi_sim answered a status query later than ipmitool's 1 s once,
# and with 1 retry n1's power-on was reported failed though it was on.
# max_wait 30 and confirm_timeout 30: with max 2 nodes in transition the
# last two wait for the first two to be confirmed, and a slurmd started or
# stopped by its chassis took longer than the 9 s and 10 s once allowed
# under CI's load (the resume and then the power down failed).
# ResumeTimeout 45: slurmctld kills a power program still running after
# max(SuspendTimeout, ResumeTimeout) (25 s once killed the power down of
# four nodes midway; its claims were then "repaired" by the next run).

# --- power the nodes on, as an administrator would -------------------------
"${NPC[@]}" resume 'n[1-4]'
rc=$?
check "node_power resume n[1-4] powers the 4 chassis on (exit $rc)" \
	bash -c "[ $rc = 0 ] && [ '$(chassis_all)' = 'n1=on n2=on n3=on n4=on' ]"
if wait_for 60 "4 nodes idle" all_state idle; then
	ok "the 4 slurmds started by their BMCs registered: $(states)"
else
	not_ok "4 nodes idle after power on: $(states)"
	show_logs
	exit 1
fi

# --- 4 nodes powered down at once, at most 2 at a time ---------------------
# "state=power_down" makes slurmctld run SuspendProgram once for all four
# (SuspendTime would split them by the moment each became idle).
: >"$D/chassis.log"
start=$(now_ms)
scontrol update nodename='n[1-4]' state=power_down
if wait_for 60 "all nodes idle~ (SuspendTimeout 12)" all_state 'idle~'; then
	ok "scontrol power_down n[1-4]: slurmctld ran node_power, nodes $(states) after $(( ($(now_ms) - start) / 1000 )) s"
else
	not_ok "idle nodes powered down: $(states)"
	show_logs
fi
# idle~ is slurmctld's view at SuspendTimeout; node_power may still be
# confirming the last two chassis off.
all_off() { [ "$(chassis_all)" = "n1=off n2=off n3=off n4=off" ]; }
wait_for 60 "all 4 chassis off" all_off
check "BMCs report all 4 chassis off ($(chassis_all))" [ "$(chassis_all)" = "n1=off n2=off n3=off n4=off" ]
check "no slurmd of the cluster is left running" \
	bash -c "for n in $NODES; do [ \"\$('$CLUSTER' --dir '$D' node status \$n)\" = off ] || exit 1; done"
max=$(awk '$3 == "set" && $4 == "shutdown" { print $1, 1 } $3 == "off" && $4 == "done" { print $1, -1 }' "$D/chassis.log" |
	sort -n -k1,1 -k2,2n | awk '{ c += $2; if (c > m) m = c } END { print m + 0 }')
check "chassis timeline of the power down: at most max_concurrent_nodes 2 shutting down at once (max $max)" \
	test "$max" -ge 1 -a "$max" -le 2
check "slurmctld's SuspendProgram call is logged by node_power: suspend n[1-4]" \
	has_line "$D/log/node_power.log" ";node_power_off;request: suspend n\[1-4\] \(4 nodes\)$"
check "two of the four waited for a slot (max_concurrent_nodes 2)" \
	[ "$(count_lines "$D/log/node_power.log" ';node_power_off;n[1-4]: waiting, max_concurrent_nodes \(2\) nodes are in transition$')" = 2 ]
n_done=$(grep -Ec ';node_power_off;n[1-4]: chassis power is off \(confirmed' "$D/log/node_power.log")
check "node_power confirmed 4 chassis off ($n_done)" [ "$n_done" -ge 4 ]

# --- a job brings nodes back ---------------------------------------------------
start=$(now_ms)
job=$(sbatch --parsable -N2 -p lab -o "$X/job-%j.out" --wrap 'srun hostname; sleep 8')
if [ -z "$job" ]; then
	not_ok "sbatch -N2 on powered-down nodes"
	show_logs
	exit 1
fi
wait_for 30 "job $job allocated its nodes" \
	bash -c "[ -n \"\$(squeue -h -j $job -o %N)\" ] && [ \"\$(squeue -h -j $job -o %N)\" != '(null)' ]"
jobnodes=$(squeue -h -j "$job" -o %N)
check "job $job got powered-down nodes $jobnodes (state $(job_state "$job"))" [ -n "$jobnodes" ]

# While the job holds them, a power off of its nodes is refused.
# (sinfo shows "mix": the job uses 1 of a node's 16 CPUs)
wait_for 20 "job $job's nodes allocated in sinfo" \
	bash -c "sinfo -h -N -p lab -n '$jobnodes' -o %t | grep -Eq '^(alloc|mix)'"
"${NPC[@]}" suspend "$jobnodes"
rc=$?
check "node_power suspend of the job's allocated nodes is refused (exit $rc)" [ $rc = 3 ]
check "the refusal names the node and says slurmctld reports it allocated" \
	has_line "$D/log/node_power.log" ";node_power_off;refused: n[1-4]: slurmctld reports it allocated or mixed$"

if wait_for 90 "job $job COMPLETED" job_done "$job"; then
	ok "job $job COMPLETED on nodes resumed by node_power, $(( ($(now_ms) - start) / 1000 )) s after submission"
else
	not_ok "job $job completed: state $(job_state "$job")"
	show_logs
fi
check "the job ran on its nodes: $(tr '\n' ' ' <"$X/job-$job.out" 2>/dev/null)" \
	[ "$(wc -l <"$X/job-$job.out" 2>/dev/null)" = 2 ]
check "slurmctld's ResumeProgram call is logged with SLURM_RESUME_FILE's JSON naming job $job" \
	has_line "$D/log/node_power.log" ";node_power_on;request: resume $(re_escape "$jobnodes") \(2 nodes\); SLURM_RESUME_FILE: .*\"job_id\":$job"
check "node_power powered the job's nodes on and confirmed them" \
	[ "$(grep -Ec ';node_power_on;n[1-4]: chassis power is on \(confirmed' "$D/log/node_power.log")" -ge 6 ]

# --- cycle reads slurmctld through libslurm ------------------------------
"${NPC[@]}" cycle
rc=$?
check "node_power cycle against the running slurmctld: exit $rc" [ $rc = 0 ]
check "cycle logged its snapshot: 4 nodes" \
	has_line "$D/log/node_power.log" ";node_power;cycle: 4 nodes, [0-9]+ pending jobs, 0 analyzed$"
"${NPC[@]}" status >"$X/status"
check "status shows last_used_time recorded by cycle for all 4 nodes" \
	[ "$(grep -Ec 'last_used_time=[A-Z][a-z]{2} [0-9]{2} [0-9]{2} [0-9:]{8}$' "$X/status")" = 4 ]

# --- cycle ramps sleep states by Slurm's demand (capmc double) -----------
# A second node_power "site" on the same cluster: the capmc backend (the
# test double; nids 1-4 from the node names), ramp-rate limiting on,
# node_idle_limit 0.  Its cycle must ramp down the idle, powered-up nodes
# of the finished job (seed 001's "power_ramp_limit: nodes to ramp down")
# and leave the powered-down ones alone.
capmc_double_install "$X" '{"nids": [1, 2, 3, 4], "latency": 0.5, "deepest": 4}'
cat >"$X/capmc.json" <<END
{ "backend": "capmc", "capmc_path": "$X/capmc/capmc",
  "power_ramp_rate_enable": "True", "node_idle_limit": "0",
  "sleep_state_pause": 1, "max_concurrent_nodes": 4, "max_wait": 30,
  "log_file": "$X/capmc-np.log", "state_file": "$X/capmc.state" }
END
chmod 644 "$X/capmc.json"
calls() { capmc_calls "$X/capmc/calls.log" | tr '\n' '|'; }
idle_now=$(sinfo -h -N -p lab -t idle -o '%N=%t' | sed -n 's/=idle$//p' | paste -sd, -)
"$NP" -c "$X/capmc.json" cycle
rc=$?
check "capmc site's cycle: exit $rc; idle powered-up nodes were $idle_now" [ $rc = 0 ]
check "cycle logged seed 001's 'power_ramp_limit: nodes to ramp down: $jobnodes'" \
	has_line "$X/capmc-np.log" ";node_power;power_ramp_limit: nodes to ramp down: $(re_escape "$jobnodes")$"
check "the job's nodes ramped down with --limit 1 2 3 4 (capmc calls: $(calls))" \
	[ "$(calls)" = "set_sleep_state_limit --nids 1-2 --limit 1|set_sleep_state_limit --nids 1-2 --limit 2|set_sleep_state_limit --nids 1-2 --limit 3|set_sleep_state_limit --nids 1-2 --limit 4|" ]

# --- a hung BMC: slurmctld gives up at ResumeTimeout -------------------------
wait_for 60 "n4 powered down" node_state n4 'idle~'
sim=$(cat "$B/ipmi_sim.n4.pid")
kill -STOP "$sim"
echo "$sim" >>"$X/stopped"
start=$(now_ms)
job=$(sbatch --parsable -w n4 -p lab -o /dev/null --wrap true)
if wait_for 90 "n4 down~ after ResumeTimeout 45" node_state n4 'down~'; then
	ok "hung BMC of n4: slurmctld marks it down~ at ResumeTimeout ($(( ($(now_ms) - start) / 1000 )) s)"
else
	not_ok "hung BMC of n4: down~ ($(states))"
	show_logs
fi
# ipmitool's own error (-R 1: "Unable to establish ... session" in 2 s)
# or, with command_retries 3, command_timeout's kill after 10 s
check "node_power's resume of n4 failed within command_timeout, logged with ipmitool's error or its kill" \
	grep -Eq ";node_power_on;error: n4: /usr/bin/ipmitool .* chassis power status: (exit 1: |timed out after 10 s, killed)" "$D/log/node_power.log"
wait_for 15 "ResumeFailProgram n4" has_line "$D/log/node_power.log" ";node_power_on;resume failed: slurmctld gave up on n4 at ResumeTimeout"
check "ResumeFailProgram (node_power-resume-fail n4) logged it" \
	has_line "$D/log/node_power.log" ";node_power_on;resume failed: slurmctld gave up on n4 at ResumeTimeout; power state now unknown$"
kill -CONT "$sim"
scancel "$job" 2>/dev/null

# --- the job's nodes, idle for SuspendTime, are powered down again --------
if wait_for 150 "$jobnodes idle~ after SuspendTime 90 + SuspendTimeout 12" \
	bash -c "[ \"\$(sinfo -h -N -p lab -n '$jobnodes' -o %t | sort -u)\" = 'idle~' ]"; then
	ok "after the job, $jobnodes idle for SuspendTime were powered down: $(states)"
else
	not_ok "after the job, $jobnodes powered down by SuspendTime: $(states)"
	show_logs
fi
check "slurmctld's SuspendTime-driven call reached node_power: suspend $jobnodes" \
	has_line "$D/log/node_power.log" ";node_power_off;request: suspend $(re_escape "$jobnodes") \(2 nodes\)$"
offs=''
for n in $(scontrol show hostnames "$jobnodes"); do offs="$offs $(chassis "$n")"; done
check "BMCs of $jobnodes report off:$offs" [ "$offs" = " off off" ]

# --- cycle powers up the nodes a pending job is scheduled on -------------
# Job A holds n[1-2] for a while; job B needs all 4 nodes exclusively, so it waits
# and backfill plans it on n[1-4] at A's end: cycle must ask slurmctld to
# power up the powered-down n3 and n4 ahead of time (PP-824's ramp up by
# estimated start time and scheduled nodes).
scontrol update nodename=n4 state=resume
wait_for 20 "n4 back to idle~ after state=resume" node_state n4 'idle~'
job_a=$(sbatch --parsable -N2 --exclusive -w 'n[1-2]' -t 2 -p lab -o /dev/null --wrap 'sleep 100')
job_b=$(sbatch --parsable -N4 --exclusive -t 1 -p lab -o /dev/null --wrap true)
planned() { squeue -h -j "$job_b" -o '%S %Y' | grep -Eq '^[0-9]{4}-.* n\[1-4\]$'; }
if wait_for 40 "backfill to plan job $job_b on n[1-4]" planned; then
	ok "backfill planned pending job $job_b: $(squeue -h -j "$job_b" -o 'start %S on %Y')"
else
	not_ok "backfill planned pending job $job_b: $(squeue -h -j "$job_b" -o 'start %S on %Y, reason %r')"
fi
"${NPC[@]}" cycle
rc=$?
check "cycle with a planned job: exit $rc, 1 job analyzed" \
	bash -c "[ $rc = 0 ] && grep -q ';node_power;cycle: 4 nodes, [0-9]* pending jobs, 1 analyzed$' '$D/log/node_power.log'"
check "cycle asked slurmctld to power up n[3-4], scheduled for the pending job" \
	has_line "$D/log/node_power.log" ";node_power_on;cycle: asked slurmctld to power up n\[3-4\], scheduled for pending jobs$"
# Up (registered) until SuspendTime powers them down again: "idle", or
# "plnd" (22.05: planned by backfill for a pending job), possibly with
# "#" for a moment after registering.
both_up() {
	local s
	s=$(states)
	echo "$(date +%T.%N) $s" >>"$X/both_up.log"
	[[ " $s " =~ \ n3=(idle|plnd)#?\  ]] && [[ " $s " =~ \ n4=(idle|plnd)#?\  ]] &&
		[ "$(chassis n3) $(chassis n4)" = "on on" ]
}
if wait_for 30 "n3 and n4 powered up" both_up; then
	ok "slurmctld resumed n3 and n4 through node_power ahead of the job: $(states)"
else
	sort -u -k2 "$X/both_up.log" | tail -8 | diag
	not_ok "n3 and n4 powered up ahead of the job: $(states)"
	show_logs
fi
check "slurmctld's ResumeProgram call for the power-up of n[3-4] is logged" \
	has_line "$D/log/node_power.log" ';node_power_on;request: resume n\[(3-4|1-4)\] \([24] nodes\); SLURM_RESUME_FILE: \{"jobs":.*"'"$ALL_NODES_KEY"'":"n\[(3-4|1-4)\]"\}$'
# The capmc site's next cycle ramps the now allocated n[1-2] back up.
: >"$X/capmc/calls.log"
"$NP" -c "$X/capmc.json" cycle
rc=$?
check "capmc site's cycle with job $job_a on n[1-2]: exit $rc, 'power_ramp_limit: nodes to ramp up: n[1-2]'" \
	bash -c "[ $rc = 0 ] && grep -q ';node_power;power_ramp_limit: nodes to ramp up: n\[1-2\]$' '$X/capmc-np.log'"
check "n[1-2] ramped up with --limit 3 2 1 0 (capmc calls: $(calls))" \
	[ "$(calls)" = "set_sleep_state_limit --nids 1-2 --limit 3|set_sleep_state_limit --nids 1-2 --limit 2|set_sleep_state_limit --nids 1-2 --limit 1|set_sleep_state_limit --nids 1-2 --limit 0|" ]
scancel "$job_a" "$job_b" 2>/dev/null

# --- everything node_power did stayed within the limit ---------------------
check "no node_power run exceeded max_concurrent_nodes: no 'repaired' or corrupt-state line" \
	bash -c "! grep -Eq 'repaired|is corrupt' '$D/log/node_power.log'"
echo "# node_power.log: $(wc -l <"$D/log/node_power.log") lines; last lines:"
log_tail "$D/log/node_power.log" 8
