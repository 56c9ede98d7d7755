#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bmc.sh start DIR MODE MODE_DIR NODE...  - one ipmi_sim (simulated BMC)
#                                           per node on 127.0.0.1
# bmc.sh stop DIR                         - stop them, by pid
#
# Each BMC listens on its own free UDP port (IPMI 1.5/2.0 "lanplus"),
# knows one admin user with a random password (DIR/bmc.pass, mode 0600),
# and drives its chassis through chassis_control.sh MODE NODE MODE_DIR.
# Writes DIR/bmc.map ("NODE PORT" lines) and DIR/ipmi_sim.NODE.pid.
# OpenIPMI 2.0.33's ipmi_sim: a "guid" is needed for RMCP+, and its state
# directory (-s) keeps users once changed over IPMI, so each start gets a
# fresh one.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
IPMI_SIM=/usr/bin/ipmi_sim

free_udp_port() {
	local p
	for _ in $(seq 1 200); do
		p=$((20000 + RANDOM % 20000))
		if ! ss -Hlnu "sport = :$p" | grep -q .; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

start() {
	local dir=$1 mode=$2 mode_dir=$3 k=0 node port
	shift 3
	mkdir -p "$dir"
	(umask 077 && od -An -N8 -tx1 /dev/urandom | tr -d ' \n' >"$dir/bmc.pass")
	cat >"$dir/bmc.emu" <<-END
	# one MC at 0x20: the BMC, with chassis support (device flags 0x9f)
	mc_setbmc 0x20
	mc_add 0x20 0 no-device-sdrs 0x23 9 8 0x9f 0x1291 0xf02 persist_sdr
	sel_enable 0x20 1000 0x0a
	mc_enable 0x20
	END
	: >"$dir/bmc.map"
	for node in "$@"; do
		k=$((k + 1))
		port=$(free_udp_port) || { echo "bmc.sh: no free UDP port" >&2; return 1; }
		(umask 077 && cat >"$dir/bmc-$node.conf") <<-END
		name "bmc-$node"
		set_working_mc 0x20
		  startlan 1
		    addr 127.0.0.1 $port
		    priv_limit admin
		    allowed_auths_callback none md2 md5 straight
		    allowed_auths_user none md2 md5 straight
		    allowed_auths_operator none md2 md5 straight
		    allowed_auths_admin none md2 md5 straight
		    guid $(printf 'a1b2c3d4e5f60718293a4b5c6d7e%04x' "$k")
		  endlan
		  chassis_control "$HERE/chassis_control.sh $mode $node $mode_dir"
		  user 2 true "admin" "$(cat "$dir/bmc.pass")" admin 10 none md2 md5 straight
		END
		rm -rf "$dir/state-$node"
		mkdir -p "$dir/state-$node"
		setsid "$IPMI_SIM" -c "$dir/bmc-$node.conf" -f "$dir/bmc.emu" \
			-s "$dir/state-$node" -n </dev/null \
			>>"$dir/ipmi_sim.$node.log" 2>&1 &
		echo $! >"$dir/ipmi_sim.$node.pid"
		echo "$node $port" >>"$dir/bmc.map"
	done
	# Ready when every BMC answers a chassis status.
	for node in "$@"; do
		port=$(awk -v n="$node" '$1 == n { print $2 }' "$dir/bmc.map")
		for _ in $(seq 1 50); do
			/usr/bin/ipmitool -I lanplus -C 3 -N 1 -R 1 -H 127.0.0.1 \
				-p "$port" -U admin -f "$dir/bmc.pass" \
				chassis power status >/dev/null 2>&1 && break
			sleep 0.1
		done || { echo "bmc.sh: BMC of $node on port $port does not answer" >&2; return 1; }
	done
}

stop() {
	local dir=$1 f pid
	for f in "$dir"/ipmi_sim.*.pid; do
		[ -e "$f" ] || continue
		pid=$(cat "$f")
		kill -CONT "$pid" 2>/dev/null
		kill "$pid" 2>/dev/null
		for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -9 "$pid" 2>/dev/null
		rm -f "$f"
	done
}

case ${1:-} in
start) shift; start "$@" ;;
stop) shift; stop "$@" ;;
*) echo "usage: $0 start DIR MODE MODE_DIR NODE... | stop DIR" >&2; exit 2 ;;
esac
