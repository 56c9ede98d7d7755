# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# lib.sh - helpers for node_power's shell tests (sourced).
#
# Each test script prints TAP result lines without numbers ("ok - name",
# "not ok - name") and "# ..." diagnostics; run.sh numbers them.  Waits are
# bounded and say what timed out.  Processes a test starts are stopped by
# pid in its cleanup trap.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
NP=${NP:-$TOP/build/bin/node_power}
export POWER_DIR=$TOP/testsuite/power

ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; }
diag() { sed 's/^/# /'; }

# check NAME COMMAND...: ok if the command succeeds.
check() {
	local name=$1
	shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}

# wait_for SECONDS DESCRIPTION COMMAND...: poll every 0.1 s.
wait_for() {
	local secs=$1 what=$2 end
	shift 2
	end=$(($(date +%s%N) + secs * 1000000000))
	while [ "$(date +%s%N)" -lt "$end" ]; do
		"$@" && return 0
		sleep 0.1
	done
	echo "# TIMEOUT after ${secs}s waiting for: $what"
	return 1
}

# has_line FILE EXTENDED_REGEX: the file has a matching line.
has_line() { grep -Eq -- "$2" "$1"; }

# count_lines FILE EXTENDED_REGEX
count_lines() { grep -Ec -- "$2" "$1"; }

# log_tail FILE: the last lines of a log, as TAP diagnostics.
log_tail() { tail -n "${2:-15}" "$1" 2>/dev/null | diag; }

# now_ms: wall clock in milliseconds.
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# capmc_double_install DIR SETTINGS_JSON: DIR/capmc/capmc is the capmc
# double (capmc_double.py) with those settings; it logs its calls to
# DIR/capmc/calls.log.  A copy, not a link into the tree: node_power
# trusts a capmc_path only if no directory above it is group or world
# writable, which a checkout (umask 002) may be.
capmc_double_install() {
	mkdir -p "$1/capmc"
	install -m 0755 "$POWER_DIR/capmc_double.py" "$1/capmc/capmc"
	echo "$2" >"$1/capmc/capmc-double.json"
}

# capmc_calls LOG: the capmc double's calls (capmc_double.py's calls.log)
# in order, one "VERB --nids LIST [--limit N]" line each.
capmc_calls() {
	python3 -c '
import json, signal, sys
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["ev"] == "start":
        print(" ".join(r["argv"]))' "$1" 2>/dev/null
}

# capmc_call_pids LOG VERB: pids of the double's processes that ran VERB.
capmc_call_pids() {
	python3 -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["ev"] == "start" and r["argv"][:1] == [sys.argv[2]]:
        print(r["pid"])' "$1" "$2" 2>/dev/null
}

# Simulated BMCs started by "bmc.sh start $BMC_DIR ...".
# bmc_port NODE: its UDP port.
bmc_port() { awk -v n="$1" '$1 == n { print $2 }' "$BMC_DIR/bmc.map"; }

# bmc_chassis NODE: the BMC's own answer, "on" or "off"; empty when three
# sessions got none (a test's observation must not fail where node_power,
# with its own retries, succeeded: CI's lanes slow ipmi_sim down).
bmc_chassis() {
	local port ans
	port=$(bmc_port "$1")
	for _ in 1 2 3; do
		ans=$(/usr/bin/ipmitool -I lanplus -C 3 -N 2 -R 2 -H 127.0.0.1 \
			-p "$port" -U admin -f "$BMC_DIR/bmc.pass" \
			chassis power status 2>&1 |
			sed -n 's/^Chassis Power is \(on\|off\)$/\1/p')
		[ -n "$ans" ] && break
	done
	echo "$ans"
}

# bmc_chassis_all NODE...: "n1=on n2=off ..."
bmc_chassis_all() {
	local n out=''
	for n in "$@"; do out="$out $n=$(bmc_chassis "$n")"; done
	echo "${out# }"
}

# bmc_json NODE...: the members of node_power's "bmc" key for them.
bmc_json() {
	local n out=''
	for n in "$@"; do
		out="$out${out:+, }\"$n\": {\"address\": \"127.0.0.1\", \"port\": $(bmc_port "$n"), \"user\": \"admin\", \"password_file\": \"$BMC_DIR/bmc.pass\"}"
	done
	echo "$out"
}
