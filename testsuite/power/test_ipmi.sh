#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_ipmi.sh - node_power's IPMI backend against real BMC emulators:
# three OpenIPMI ipmi_sim processes on 127.0.0.1, driven by ipmitool over
# IPMI 2.0 "lanplus".  The chassis power state is checked independently
# (our own ipmitool call) after every operation; a BMC that stops
# answering (SIGSTOP) must give a timeout within seconds, a log line and
# a non-zero exit; concurrent runs keep to max_concurrent_nodes.
set -u
. "$(dirname "$0")/lib.sh"

T=$(mktemp -d /tmp/np-ipmi-XXXXXX)
cleanup() {
	bash "$POWER_DIR/bmc.sh" stop "$T"
	rm -rf "$T"
}
trap cleanup EXIT

NODES="n1 n2 n3"
if ! bash "$POWER_DIR/bmc.sh" start "$T" file "$T" $NODES 2>"$T/bmc.err"; then
	not_ok "start 3 ipmi_sim BMCs"
	diag <"$T/bmc.err"
	exit 1
fi
ok "3 ipmi_sim BMCs answer lanplus on 127.0.0.1 ports $(awk '{print $2}' "$T/bmc.map" | tr '\n' ' ')"

export BMC_DIR=$T
port_of() { bmc_port "$1"; }
chassis() { bmc_chassis "$1"; }
# shellcheck disable=SC2086
chassis_all() { bmc_chassis_all $NODES; }

# config EXTRA_JSON: $T/np.json with a bmc entry per node.
config() {
	cat >"$T/np.json" <<-END
	{ "backend": "ipmi", "power_on_off_enable": "True",
	  "poweroff_eligible": "n[1-3]", "min_node_down_delay": "0",
	  "slurm_check": false, "command_timeout": 10, "command_retries": 1,
	  "soft_off_timeout": 5, "confirm_timeout": 10, "max_wait": 30,
	  "log_file": "$T/np.log", "state_file": "$T/np.state",
	  "bmc": { $(bmc_json $NODES) } $1 }
	END
	chmod 644 "$T/np.json"
}

np() { "$NP" -c "$T/np.json" "$@"; }

config ""
check "node_power check-config accepts the lanplus BMC configuration" \
	bash -c "'$NP' -c '$T/np.json' check-config >/dev/null"
check "all chassis start powered off" [ "$(chassis_all)" = "n1=off n2=off n3=off" ]

# --- power on three nodes -------------------------------------------------
start=$(now_ms)
np resume 'n[1-3]'
rc=$?
ms=$(($(now_ms) - start))
check "resume n[1-3]: exit 0 in ${ms} ms" [ $rc = 0 ]
check "BMCs report n1, n2, n3 on" [ "$(chassis_all)" = "n1=on n2=on n3=on" ]
check "log: ipmitool lanplus -C 3 command line, password only by file" \
	has_line "$T/np.log" ";node_power_on;launch: /usr/bin/ipmitool -I lanplus -C 3 -N 1 -R 1 -H 127.0.0.1 -p $(port_of n2) -U admin -f $T/bmc.pass chassis power on$"
check "log: power state read back and confirmed for each node" \
	[ "$(count_lines "$T/np.log" ';node_power_on;n[1-3]: chassis power is on \(confirmed after [0-9.]+ s\)$')" = 3 ]
check "password not in the log" bash -c "! grep -qF '$(cat "$T/bmc.pass")' '$T/np.log'"

# --- soft power off -------------------------------------------------------
start=$(now_ms)
np suspend 'n[1-2]'
rc=$?
ms=$(($(now_ms) - start))
check "suspend n[1-2] (soft): exit 0 in ${ms} ms, after the OS shut down (>= 500 ms)" \
	bash -c "[ $rc = 0 ] && [ $ms -ge 500 ]"
check "BMCs report n1, n2 off, n3 still on" [ "$(chassis_all)" = "n1=off n2=off n3=on" ]
check "log: 'chassis power soft' sent, then off confirmed" \
	bash -c "grep -q ';node_power_off;launch: .* chassis power soft$' '$T/np.log' && grep -q ';node_power_off;n1: chassis power is off (confirmed after' '$T/np.log'"

# --- a soft off the OS ignores is hardened after soft_off_timeout ---------
touch "$T/nosoft.n3"
config ', "soft_off_timeout": 2'
start=$(now_ms)
np suspend n3
rc=$?
ms=$(($(now_ms) - start))
rm -f "$T/nosoft.n3"
check "ignored soft off: hard off after soft_off_timeout 2 s, exit 0 (${ms} ms)" \
	bash -c "[ $rc = 0 ] && [ $ms -ge 2000 ] && [ '$(chassis n3)' = off ]"
check "log: 'still on 2 s after soft off: hard off'" \
	has_line "$T/np.log" ";node_power_off;n3: still on 2 s after soft off: hard off$"

# --- power on a node that is on already: power cycle ----------------------
config ""
np resume n1
: >"$T/chassis.log"
np resume n1
rc=$?
check "resume of a node whose BMC says on: exit 0, node on" \
	bash -c "[ $rc = 0 ] && [ '$(chassis n1)' = on ]"
check "it was power-cycled (chassis: power 0 then back on), and that is logged" \
	bash -c "grep -q 'n1 set power 0' '$T/chassis.log' && grep -q ';node_power_on;n1: chassis power is on already: power cycle' '$T/np.log'"

# --- hard power off -------------------------------------------------------
config ', "power_off_method": "hard"'
np suspend n1
rc=$?
check "power_off_method hard: 'chassis power off', exit 0, BMC says off" \
	bash -c "[ $rc = 0 ] && [ '$(chassis n1)' = off ] && grep -q ';node_power_off;launch: .* chassis power off$' '$T/np.log'"

# --- a BMC that stops answering -------------------------------------------
config ""
np resume n2
sim=$(cat "$T/ipmi_sim.n2.pid")
kill -STOP "$sim"
start=$(now_ms)
np suspend n2
rc=$?
ms=$(($(now_ms) - start))
kill -CONT "$sim"
check "hung BMC (SIGSTOP): suspend fails with exit 1 within seconds (${ms} ms)" \
	bash -c "[ $rc = 1 ] && [ $ms -lt 10000 ]"
check "hung BMC: the timeout is logged naming the node and ipmitool's error" \
	has_line "$T/np.log" ";node_power_off;error: n2: /usr/bin/ipmitool .* chassis power status: exit 1: .*(Unable to establish|Unable to get|timeout|Timeout)"
check "hung BMC: node left as it was (on), its power recorded unknown, slot freed" \
	bash -c "[ '$(chassis n2)' = on ] && '$NP' -c '$T/np.json' status n2 | grep -q 'n2 power=unknown sleep=0 op=none'"
echo "# hung BMC: ipmitool -N 1 -R 1 gave up after ${ms} ms"

# --- wrong password -------------------------------------------------------
printf 'wrong\n' >"$T/wrong.pass"
chmod 600 "$T/wrong.pass"
sed "s#$T/bmc.pass#$T/wrong.pass#g" "$T/np.json" >"$T/wrong.json"
chmod 644 "$T/wrong.json"
"$NP" -c "$T/wrong.json" suspend n3
rc=$?
check "wrong BMC password: exit 1, RMCP+ session refusal logged" \
	bash -c "[ $rc = 1 ] && grep -q 'n3: .*: exit 1: .*RMCP+' '$T/np.log'"

# --- concurrency: 3 runs, max_concurrent_nodes 2 --------------------------
config ', "max_concurrent_nodes": 2'
np resume 'n[1-3]' >/dev/null
: >"$T/chassis.log"
# Each OS takes 3 s to shut down, so that the three runs overlap even
# when a loaded machine starts them a second apart (with 0.5 s, CI's
# Debian 13 lane saw only one in transition at a time).
echo 3 >"$T/soft_off_secs"
pids=()
for n in $NODES; do
	np suspend "$n" &
	pids+=($!)
done
fails=0
for p in "${pids[@]}"; do wait "$p" || fails=$((fails + 1)); done
check "3 concurrent suspends with max_concurrent_nodes 2: all exit 0, all off" \
	bash -c "[ $fails = 0 ] && [ '$(chassis_all)' = 'n1=off n2=off n3=off' ]"
# In transition: from "set shutdown" to "off done" in the chassis log.
max=$(awk '$3 == "set" && $4 == "shutdown" { print $1, 1 } $3 == "off" && $4 == "done" { print $1, -1 }' "$T/chassis.log" |
	sort -n -k1,1 -k2,2n | awk '{ c += $2; if (c > m) m = c } END { print m + 0 }')
check "chassis timeline: at most 2 nodes shutting down at once, and 2 reached (max $max)" [ "$max" = 2 ]
rm -f "$T/soft_off_secs"
check "the third run waited for a slot" \
	has_line "$T/np.log" ";node_power_off;n[1-3]: waiting, max_concurrent_nodes \(2\) nodes are in transition$"
