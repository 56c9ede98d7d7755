#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_capmc.sh - node_power against the capmc test double
# (capmc_double.py): seed 001's exact command lines and log lines, their
# order, node_status confirmation, injected errors (e=22, e=52), hangs,
# crash recovery, min_node_down_delay, refusals, slurmctld's bare
# environment, and 8 concurrent invocations that never have more than
# max_concurrent_nodes nodes in transition (capmc_timeline.py).
set -u
. "$(dirname "$0")/lib.sh"

ROOT=$(mktemp -d /tmp/np-capmc-XXXXXX)
BG_PIDS=()
cleanup() {
	local p
	for p in "${BG_PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
	rm -rf "$ROOT"
}
trap cleanup EXIT

# setup NAME DOUBLE_JSON NP_JSON_EXTRA: a fresh directory $T with the
# double as $T/capmc/capmc, and $T/np.json (nid000[24-27] eligible).
setup() {
	T=$ROOT/$1
	capmc_double_install "$T" "$2"
	cat >"$T/np.json" <<END
{ "power_on_off_enable": "True", "power_ramp_rate_enable": "True",
  "poweroff_eligible": "nid000[24-27]", "min_node_down_delay": "0",
  "capmc_path": "$T/capmc/capmc", "slurm_check": false,
  "poll_interval": 1, "sleep_state_pause": 1, "command_timeout": 10,
  "log_file": "$T/np.log", "state_file": "$T/np.state" $3 }
END
	chmod 644 "$T/np.json"
	export T
}

np() { "$NP" -c "$T/np.json" "$@"; }

# calls: the double's calls in order, one "argv..." line each.
calls() { capmc_calls "$T/capmc/calls.log"; }

# start_times VERB: start time (s, float) of each call of VERB.
start_times() {
	python3 -c '
import json, signal, sys
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["ev"] == "start" and r["argv"][0] == sys.argv[2]:
        print("%.3f" % r["t"])' "$T/capmc/calls.log" "$1"
}

# log_msgs: the EVENT;MESSAGE part of node_power's log lines.
log_msgs() { cut -d';' -f5- "$T/np.log"; }
export -f calls capmc_calls start_times log_msgs

DOUBLE4='{"nids": [24, 25, 26, 27], "latency": 1.0, "deepest": 4}'

# --- A. seed 001's power-off command and log lines ----------------------
setup seed_off "$DOUBLE4" ""
np suspend 'nid000[24-25]'
rc=$?
check "suspend nid000[24-25] exits 0" [ $rc = 0 ]
check "first capmc call is seed 001's 'capmc node_off --nids 24-25'" \
	[ "$(calls | head -1)" = "node_off --nids 24-25" ]
check "node_off is confirmed by node_status polls of the same nids" \
	bash -c "[ \"\$(calls | sed -n 2p)\" = 'node_status --nids 24-25' ]"
check "log has seed 001's 'node_power_off;launch: <capmc> node_off --nids 24-25'" \
	has_line "$T/np.log" "^[0-9]{2}/[0-9]{2}/[0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2};0008;node_power\[[0-9]+\]@[^;]+;Node;node_power_off;launch: $T/capmc/capmc node_off --nids 24-25$"
check "log has 'node_power_off;launch: finished' right after the launch" \
	bash -c "grep -A1 'launch: .*node_off' '$T/np.log' | tail -1 | grep -q ';node_power_off;launch: finished$'"
np status >"$T/status"
check "status: both nodes off, times as MON DD YY HH:MM:SS" \
	bash -c "[ \$(grep -Ec '^nid0002[45] power=off sleep=0 op=none last_state_change_time=[A-Z][a-z]{2} [0-9]{2} [0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} ' '$T/status') = 2 ]"
python3 "$POWER_DIR/capmc_timeline.py" "$T/capmc/calls.log" 4 >/dev/null

# --- B. power on: status first, node_on, confirmed by node_status -------
: >"$T/np.log"
: >"$T/capmc/calls.log"
np resume 'nid000[24-25]'
rc=$?
check "resume nid000[24-25] exits 0" [ $rc = 0 ]
check "resume runs node_status, then 'capmc node_on --nids 24-25', then polls" \
	bash -c "[ \"\$(calls | head -3 | tr '\n' '|')\" = 'node_status --nids 24-25|node_on --nids 24-25|node_status --nids 24-25|' ]"
check "log has seed 001's 'node_power_on;launch: <capmc> node_on --nids 24-25' and 'finished'" \
	bash -c "log_msgs | grep -qx 'node_power_on;launch: $T/capmc/capmc node_on --nids 24-25' && log_msgs | grep -qx 'node_power_on;launch: finished'"

# A node already on is re-initialised, not left waiting for a boot.
: >"$T/capmc/calls.log"
np resume nid00024
check "resume of a node already on runs 'capmc node_reinit --nids 24', not node_on" \
	bash -c "calls | grep -qx 'node_reinit --nids 24' && ! calls | grep -q node_on"

# --- C. ramps: seed 001's set_sleep_state_limit lines, level by level ---
setup ramp "$DOUBLE4" ""
np ramp-down 'nid000[24-25]'
rc1=$?
np ramp-up 'nid000[24-25]'
rc2=$?
check "ramp-down and ramp-up exit 0" [ "$rc1$rc2" = 00 ]
want='set_sleep_state_limit --nids 24-25 --limit 1|set_sleep_state_limit --nids 24-25 --limit 2|set_sleep_state_limit --nids 24-25 --limit 3|set_sleep_state_limit --nids 24-25 --limit 4|set_sleep_state_limit --nids 24-25 --limit 3|set_sleep_state_limit --nids 24-25 --limit 2|set_sleep_state_limit --nids 24-25 --limit 1|set_sleep_state_limit --nids 24-25 --limit 0|'
check "ramp steps --limit 1 2 3 4 down and 3 2 1 0 up, in that order" \
	[ "$(calls | tr '\n' '|')" = "$want" ]
check "log has seed 001's 'power_ramp_down;launch: <capmc> set_sleep_state_limit --nids 24-25 --limit 4'" \
	bash -c "cut -d';' -f5- '$T/np.log' | grep -qx 'power_ramp_down;launch: $T/capmc/capmc set_sleep_state_limit --nids 24-25 --limit 4'"
check "log has seed 001's 'power_ramp_up;launch: <capmc> set_sleep_state_limit --nids 24-25 --limit 0'" \
	bash -c "cut -d';' -f5- '$T/np.log' | grep -qx 'power_ramp_up;launch: $T/capmc/capmc set_sleep_state_limit --nids 24-25 --limit 0'"
gaps=$(start_times set_sleep_state_limit | head -4 | awk 'NR>1 {printf "%.2f ", $1-p} {p=$1}')
check "ramp pauses sleep_state_pause (1 s) between levels (gaps: $gaps)" \
	awk -v g="$gaps" 'BEGIN { n = split(g, a, " "); for (i = 1; i <= n; i++) if (a[i] < 0.95) exit 1; exit n != 3 }'

# --- D. 8 concurrent invocations, max_concurrent_nodes 3 ----------------
DOUBLE16='{"nids": [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16], "latency": 1.0, "deepest": 2}'
setup concurrent "$DOUBLE16" ', "max_concurrent_nodes": 3, "max_wait": 120, "sleep_state_levels": [1, 2]'
sed -i 's/"poweroff_eligible": "nid000\[24-27\]"/"poweroff_eligible": "nid[00001-00016]"/' "$T/np.json"
for phase in suspend resume ramp-down; do
	: >"$T/capmc/calls.log"
	start=$(now_ms)
	pids=()
	for k in 0 1 2 3 4 5 6 7; do
		a=$(printf 'nid%05d' $((2 * k + 1)))
		b=$(printf 'nid%05d' $((2 * k + 2)))
		np "$phase" "$a,$b" &
		pids+=($!)
	done
	fails=0
	for p in "${pids[@]}"; do wait "$p" || fails=$((fails + 1)); done
	secs=$(( ($(now_ms) - start) / 1000 ))
	max=$(python3 "$POWER_DIR/capmc_timeline.py" "$T/capmc/calls.log" 2 3 | awk '{print $2}')
	check "8 concurrent '$phase' of 2 nodes each: all exit 0 (${secs} s)" [ "$fails" = 0 ]
	check "8 concurrent '$phase': recorded max in transition $max, never above max_concurrent_nodes 3, and reached" \
		[ "$max" = 3 ]
	echo "# $phase: 16 nodes, 8 processes, max in transition $max, ${secs} s"
done
check "waiting processes log that max_concurrent_nodes (3) nodes are in transition" \
	has_line "$T/np.log" "waiting, max_concurrent_nodes \(3\) nodes are in transition"
np status >"$T/status"
check "after the three phases all 16 nodes are on at sleep level 2, none in transition" \
	bash -c "[ \$(grep -c 'power=on sleep=2 op=none' '$T/status') = 16 ] && grep -q '0 in transition' '$T/status'"

# --- E. e=22: logged with err_msg, not retried, exit 1 ------------------
setup e22 '{"nids": [24, 25, 26, 27], "latency": 0.5,
  "errors": [{"verb": "node_off", "nid": 24, "e": 22, "err_msg": "Invalid argument (injected)"}]}' ""
np suspend nid00024
rc=$?
check "capmc e=22 on node_off: exit 1" [ $rc = 1 ]
check "e=22 is logged with its err_msg" \
	has_line "$T/np.log" ";node_power_off;error: $T/capmc/capmc node_off --nids 24: e=22 err_msg=\"Invalid argument \(injected\)\" \(attempt 1 of 3\)$"
check "e=22 is not retried (one node_off call)" \
	[ "$(calls | grep -c '^node_off')" = 1 ]
np status nid00024 >"$T/status"
check "after the failure the node's power is unknown and its slot is free" \
	grep -q 'nid00024 power=unknown sleep=0 op=none' "$T/status"

# --- F. e=52 once: logged, retried, succeeds ----------------------------
setup e52 '{"nids": [24, 25, 26, 27], "latency": 0.5, "initial": "off",
  "errors": [{"verb": "node_on", "nid": 25, "e": 52, "err_msg": "Invalid exchange (injected)", "times": 1}]}' ""
np resume nid00025
rc=$?
check "capmc e=52 once on node_on: retried, exit 0" [ $rc = 0 ]
check "e=52 is logged with its err_msg, attempt 1 of 3" \
	has_line "$T/np.log" ";node_power_on;error: $T/capmc/capmc node_on --nids 25: e=52 err_msg=\"Invalid exchange \(injected\)\" \(attempt 1 of 3\)$"
check "the retry is a second identical node_on" \
	[ "$(calls | grep -c '^node_on --nids 25$')" = 2 ]

# --- G. a hanging capmc is killed at command_timeout --------------------
setup hang '{"nids": [24, 25, 26, 27], "latency": 0.5, "initial": "off", "hang": [{"verb": "node_on", "nid": 26}]}' \
	', "command_timeout": 2, "command_retries": 1'
start=$(now_ms)
np resume nid00026
rc=$?
ms=$(($(now_ms) - start))
check "hanging node_on: exit 1 after 2 attempts of 2 s (${ms} ms)" \
	bash -c "[ $rc = 1 ] && [ $ms -ge 4000 ] && [ $ms -lt 9000 ]"
check "hang logged as 'timed out after 2 s, killed'" \
	has_line "$T/np.log" ";node_power_on;error: $T/capmc/capmc node_on --nids 26: timed out after 2 s, killed \(attempt 2 of 2\)"
left=$(pgrep -f "$T/capmc/capmc node_on" | wc -l)
check "no capmc process is left behind ($left)" [ "$left" = 0 ]

# --- H. completion is confirmed by polling node_status ------------------
setup poll '{"nids": [24, 25, 26, 27], "latency": 3.0, "initial": "off"}' ""
start=$(now_ms)
np resume nid00027
rc=$?
ms=$(($(now_ms) - start))
n=$(calls | grep -c '^node_status --nids 27$')
check "node_on with 3 s latency: exit 0 only once node_status says on (${ms} ms, $n node_status calls)" \
	bash -c "[ $rc = 0 ] && [ $ms -ge 3000 ] && [ $n -ge 3 ]"

# --- I. crash recovery: a run killed mid-operation ----------------------
setup crash '{"nids": [24, 25, 26, 27], "latency": 0.5, "hang": [{"verb": "node_off", "nid": 27}]}' \
	', "command_timeout": 60'
"$NP" -c "$T/np.json" suspend nid00027 &
victim=$!
BG_PIDS+=("$victim")
wait_for 10 "the suspend's claim in the state file" \
	grep -q "nid00027 power=unknown sleep=0 op=off owner=$victim" "$T/np.state"
node_off_started() { [ -n "$(capmc_call_pids "$T/capmc/calls.log" node_off)" ]; }
wait_for 10 "the suspend's hanging capmc node_off" node_off_started
kill -9 "$victim"
wait "$victim" 2>/dev/null
# its capmc, orphaned mid-call, by the pid the double logged
for p in $(capmc_call_pids "$T/capmc/calls.log" node_off); do
	kill -9 "$p" 2>/dev/null
done
echo '{"nids": [24, 25, 26, 27], "latency": 0.5}' >"$T/capmc/capmc-double.json"
np resume nid00027
rc=$?
check "after a run was killed mid-power-off, the next run succeeds (exit $rc)" [ $rc = 0 ]
check "the dead run's claim is repaired and logged" \
	has_line "$T/np.log" ";node_power_off;repaired: nid00027 was left in off by dead pid $victim since [0-9]+; claim released, power now unknown$"

# --- J. min_node_down_delay ---------------------------------------------
setup delay "$DOUBLE4" ""
sed -i 's/"min_node_down_delay": "0"/"min_node_down_delay": "3", "max_wait": 10/' "$T/np.json"
np suspend nid00024
off_done=$(now_ms)
np resume nid00024
rc=$?
on_at=$(start_times node_on | head -1)
gap=$(awk -v a="$on_at" -v b="$off_done" 'BEGIN { printf "%.1f", a - b / 1000 }')
check "resume right after suspend waits for min_node_down_delay 3 s (node_on ${gap} s later, exit $rc)" \
	awk -v g="$gap" -v rc=$rc 'BEGIN { exit !(rc == 0 && g >= 1.9) }'
check "the wait is logged" \
	has_line "$T/np.log" ";node_power_on;nid00024: waiting [0-9]+ s for min_node_down_delay \(3 s\)$"
sed -i 's/"min_node_down_delay": "3", "max_wait": 10/"min_node_down_delay": "100", "max_wait": 2/' "$T/np.json"
np suspend nid00025
: >"$T/capmc/calls.log"
np resume nid00025
rc=$?
check "min_node_down_delay beyond max_wait: not powered on, exit 3" \
	bash -c "[ $rc = 3 ] && ! grep -q node_on '$T/capmc/calls.log'"
check "that refusal is logged" \
	has_line "$T/np.log" ";node_power_on;nid00025: powered off at [0-9]+, min_node_down_delay 100 s ends in [0-9]+ s, after the wait limit: not powering on$"

# --- K. what may not be powered off is ramped down, or refused ----------
# Seed 001: power off/on only for eligible nodes when power_on_off_enable
# is set, else sleep-state ramping only.
setup refuse "$DOUBLE4" ""
sed -i 's/"poweroff_eligible": "nid000\[24-27\]"/"poweroff_eligible": "nid00024"/' "$T/np.json"
np suspend 'nid000[24-25]'
rc=$?
check "suspend nid000[24-25] with only nid00024 eligible: exit $rc" [ $rc = 0 ]
check "eligible nid00024 powered off, ineligible nid00025 ramped down instead" \
	[ "$(calls | grep -v node_status | tr '\n' '|')" = "node_off --nids 24|set_sleep_state_limit --nids 25 --limit 1|set_sleep_state_limit --nids 25 --limit 2|set_sleep_state_limit --nids 25 --limit 3|set_sleep_state_limit --nids 25 --limit 4|" ]
check "logged: 'nid00025: not powered off (not in poweroff_eligible): ramping its sleep state down instead'" \
	has_line "$T/np.log" ";node_power_off;nid00025: not powered off \(not in poweroff_eligible\): ramping its sleep state down instead$"
: >"$T/capmc/calls.log"
np resume 'nid000[24-25]'
rc=$?
check "resume: ramped-down nid00025 ramped up first, then both powered on (nid00025, still on, re-initialised); exit $rc" \
	bash -c "[ $rc = 0 ] && [ \"\$(calls | grep -v '^node_status' | tr '\n' '|')\" = 'set_sleep_state_limit --nids 25 --limit 3|set_sleep_state_limit --nids 25 --limit 2|set_sleep_state_limit --nids 25 --limit 1|set_sleep_state_limit --nids 25 --limit 0|node_on --nids 24|node_reinit --nids 25|' ]"
sed -i 's/"power_ramp_rate_enable": "True"/"power_ramp_rate_enable": "False"/' "$T/np.json"
: >"$T/capmc/calls.log"
np suspend nid00025
rc=$?
check "ramping disabled: suspend of ineligible nid00025 refused (exit $rc), no capmc call" \
	bash -c "[ $rc = 3 ] && [ ! -s '$T/capmc/calls.log' ]"
check "refusal logged: 'node_power_off;refused: nid00025: not in poweroff_eligible'" \
	has_line "$T/np.log" ";node_power_off;refused: nid00025: not in poweroff_eligible$"
sed -i 's/"power_on_off_enable": "True"/"power_on_off_enable": "False"/' "$T/np.json"
np suspend nid00024
rc=$?
check "power_on_off_enable and power_ramp_rate_enable False: suspend refused (exit $rc), no capmc call" \
	bash -c "[ $rc = 3 ] && [ ! -s '$T/capmc/calls.log' ]"
check "refusal logged: 'refused: nid00024: power_on_off_enable is False'" \
	has_line "$T/np.log" ";node_power_off;refused: nid00024: power_on_off_enable is False$"
# The result line whole, however long (issue 13: it was cut at 1500
# bytes): 676 names that no range can shorten, all refused.
many=$(printf 'node%s\n' {a..z}{a..z} | paste -sd,)
np suspend "$many"
rc=$?
check "a result line of 676 refused nodes is logged whole (exit $rc): ends with nodezz" \
	bash -c "[ $rc = 3 ] && grep ';node_power_off;result: ' '$T/np.log' | tail -1 | grep -q 'nodezy,nodezz (exit 3)\$'"

# --- L. run as slurmctld runs it ----------------------------------------
# argv[0] the link's base name, environment SLURM_CONF only, fds 0-2
# closed, SIGTERM and SIGINT blocked.
setup slurmctld_env "$DOUBLE4" ""
mv "$T/np.json" "$T/node_power.json"
touch "$T/slurm.conf"
env -i SLURM_CONF="$T/slurm.conf" /usr/bin/perl -MPOSIX -e \
	'sigprocmask(SIG_BLOCK, POSIX::SigSet->new(SIGTERM, SIGINT)) or die; exec { $ARGV[0] } "node_power-suspend", $ARGV[1] or die' \
	"$TOP/build/bin/node_power-suspend" nid00024 <&- >&- 2>&-
rc=$?
check "as SuspendProgram (name node_power-suspend, no PATH, fds closed, SIGTERM blocked): exit 0" [ $rc = 0 ]
check "config found beside \$SLURM_CONF; node powered off" \
	grep -q 'node_off --nids 24' <(calls)
check "capmc ran with no signal blocked and LC_ALL as its only environment" \
	python3 -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["ev"] == "start" and (r["sigblk"] != "0000000000000000" or r["env"] != ["LC_ALL"]):
        sys.exit(1)' "$T/capmc/calls.log"
check "nothing leaked into the state file through a closed stdout" \
	bash -c "'$NP' -c '$T/node_power.json' status nid00024 | grep -q 'power=off'"

# --- N. a corrupt state file is set aside -------------------------------
setup corrupt "$DOUBLE4" ""
printf 'node_power-state 1 next_ticket=3\nnid00024 power=maybe\n' >"$T/np.state"
np suspend nid00024
rc=$?
check "corrupt state file: moved to .corrupt, logged, run goes on (exit $rc)" \
	bash -c "[ $rc = 0 ] && [ -e '$T/np.state.corrupt' ] && grep -q 'is corrupt (line 2: bad field \"power=maybe\")' '$T/np.log'"
