#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# release-load.sh TAP_FILE - priority/treeshare in the installed Slurm's
# own slurmctld, the way issue 12 checks a release: the built .so carries
# the plugin ABI of the installed slurmctld, loads into it, orders pending
# jobs by partition factor (PriorityWeightPartition, two partitions of
# PriorityJobFactor 1 and 10), and survives "sprio -l" twice, "scontrol
# reconfigure" (24.11: a new slurmctld process) and a third "sprio -l";
# and the scheduler starts the jobs in that order.
#
# No slurmdbd is needed: a private munged, slurmctld and one "slurmd -N
# n1" (one CPU, kept busy by a first job so the others stay pending) on
# 127.0.0.1, free ports, everything under a private directory; stopped by
# pid (slurmstepd too) whatever happens.  About 30 s.
#
# Environment: BUILD (build), SLURM_PREFIX (a Slurm built from source;
# empty: Debian's).
set -u
TAP=${1:?usage: release-load.sh TAP_FILE}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD_DIR=$(cd "$TOP" && readlink -f "${BUILD:-build}")
SO=$BUILD_DIR/lib/slurm/priority_treeshare.so
# The Slurm under test: Debian's, or SLURM_PREFIX's (built from source).
# shellcheck source=slurm-prefix.sh
. "$TOP/testsuite/cluster/slurm-prefix.sh"
SLURM_PREFIX=${SLURM_PREFIX:-}
ts_use_slurm_prefix "$SLURM_PREFIX" || exit 1
REF=${SLURM_PREFIX:+$SLURM_PREFIX/lib/slurm}
REF=${REF:-/usr/lib/x86_64-linux-gnu/slurm-wlm}
mkdir -p "$(dirname "$TAP")"
: >"$TAP"
n=0

ok() {
	n=$((n + 1))
	echo "ok $n - $1" | tee -a "$TAP"
}
not_ok() {
	n=$((n + 1))
	echo "not ok $n - $1" | tee -a "$TAP"
	[ -n "${2:-}" ] && printf '%s\n' "$2" | head -8 | sed 's/^/# /' |
		tee -a "$TAP"
}
check() { # NAME STATUS DIAGNOSTIC
	if [ "$2" -eq 0 ]; then ok "$1"; else not_ok "$1" "$3"; fi
}

names="release_load_plugin_carries_the_installed_slurmctld_abi
release_load_real_slurmctld_maps_priority_treeshare_so
release_load_orders_pending_jobs_by_partition_factor
release_load_survives_sprio_l_twice
release_load_survives_scontrol_reconfigure_and_a_third_sprio_l
release_load_starts_the_higher_partition_factor_job_first"
if [ ! -f "$SO" ]; then
	for t in $names; do not_ok "$t" "$SO is not built"; done
	exit 1
fi

# plugin_version of a plugin: the 4 bytes at its symbol, little-endian.
abi_of() {
	local addr
	addr=$(nm -D --defined-only "$1" | awk '$3 == "plugin_version" { print $1 }')
	[ -n "$addr" ] || return 1
	objdump -s --start-address="0x$addr" \
		--stop-address="$(printf '0x%x' $((0x$addr + 4)))" "$1" |
		awk '$1 ~ /^[0-9a-f]+$/ && NF >= 2 { w = $2
			printf "0x%s%s%s\n", substr(w, 5, 2), substr(w, 3, 2),
			       substr(w, 1, 2); exit }'
}
# The installed slurmctld's release as SLURM_VERSION_NUMBER ("24.11.5").
ver=$(slurmctld -V | awk '{ print $2 }')
IFS=. read -r ma mi mu <<<"${ver%%-*}"
want=$(printf '0x%02x%02x%02x' "$ma" "$mi" "$mu")
got=$(abi_of "$SO")
[ "$got" = "$want" ] && [ "$(abi_of "$REF/priority_multifactor.so")" = "$want" ]
check release_load_plugin_carries_the_installed_slurmctld_abi $? \
	"slurmctld $ver wants $want; $SO carries ${got:-none}"

DIR=$(mktemp -d "${TMPDIR:-/tmp}/ts-release-load.XXXXXX")
mkdir -p "$DIR/state" "$DIR/spool" "$DIR/log" "$DIR/run"
chmod 755 "$DIR" "$DIR/run" # munged wants its socket's path open to all
export SLURM_CONF=$DIR/slurm.conf

# pid_in FILE - the pid on the first line of a Slurm pid file.  Only the
# first line: from 25.11 on, the slurmctld started by "scontrol
# reconfigure" rewrites the file from its start without truncating it
# (update_pidfile(), src/common/daemonize.c), so a new pid shorter than
# the old one leaves the old one's tail on a second line ("455", "2"
# after 31662; seen in CI).
pid_in() {
	local pid
	read -r pid 2>/dev/null <"$1" && [[ $pid =~ ^[0-9]+$ ]] && echo "$pid"
}

# Every process of ours, by pid file, then any slurmstepd of our slurmd
# (its environment names our slurm.conf).
stop_all() {
	local f p
	scancel -u "$(id -un)" 2>/dev/null
	wait_for 15 sh -c '! squeue -h | grep -q .'
	for f in "$DIR"/run/slurmd.pid "$DIR"/run/slurmctld.pid \
		"$DIR"/run/munged.pid; do
		p=$(pid_in "$f") && kill "$p" 2>/dev/null
	done
	for p in $(pgrep -x slurmstepd); do
		tr '\0' '\n' 2>/dev/null <"/proc/$p/environ" |
			grep -qxF "SLURM_CONF=$SLURM_CONF" && kill -KILL "$p"
	done
	sleep 1
	"$TOP/testsuite/cluster/cluster" --dir "$DIR" ports-drop
	rm -rf "$DIR"
}
trap stop_all EXIT

# wait_for SECS CMD...: poll CMD until it succeeds, at most SECS seconds.
wait_for() {
	local end=$(($(date +%s) + $1))
	shift
	until "$@" >/dev/null 2>&1; do
		[ "$(date +%s)" -ge "$end" ] && return 1
		sleep 1
	done
}

# two ports, claimed like every lab's (testsuite/cluster/config.sh)
ports=$("$TOP/testsuite/cluster/cluster" --dir "$DIR" ports-claim 2) ||
	{ echo "release-load: no two free ports" >&2; exit 1; }
port=${ports%-*}

mungekey -c -k "$DIR/munge.key" >/dev/null 2>&1 &&
	munged --socket="$DIR/run/munge.socket" --key-file="$DIR/munge.key" \
		--pid-file="$DIR/run/munged.pid" --log-file="$DIR/log/munged.log" \
		--seed-file="$DIR/state/munged.seed" 2>"$DIR/log/munged.err"
host=$(hostname -s)
cat >"$SLURM_CONF" <<EOF
ClusterName=tsrelease
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$DIR/run/munge.socket
PluginDir=$BUILD_DIR/lib/slurm:$REF
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool/%n
SlurmctldPidFile=$DIR/run/slurmctld.pid
SlurmdPidFile=$DIR/run/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
SlurmctldDebug=verbose
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SelectType=select/cons_tres
PriorityType=priority/treeshare
PriorityWeightPartition=1000
NodeName=n1 NodeHostname=$host NodeAddr=127.0.0.1 CPUs=1 RealMemory=100 State=UNKNOWN
PartitionName=lo Nodes=n1 PriorityJobFactor=1 Default=YES State=UP
PartitionName=hi Nodes=n1 PriorityJobFactor=10 State=UP
EOF
# 24.11's slurmd starts a cgroup plugin unless told not to (22.05 has no
# such value and needs no cgroup.conf here).
[ "$ma" -ge 23 ] && echo CgroupPlugin=disabled >"$DIR/cgroup.conf"

slurmctld 2>"$DIR/log/slurmctld.err" &&
	wait_for 30 scontrol ping &&
	slurmd -N n1 2>"$DIR/log/slurmd.err" &&
	wait_for 30 sh -c 'sinfo -h -o %T | grep -qx idle'
up=$?
ctld=$(pid_in "$DIR/run/slurmctld.pid")
grep -q "$SO" "/proc/${ctld:-0}/maps" 2>/dev/null
check release_load_real_slurmctld_maps_priority_treeshare_so $? \
	"daemons up: $([ $up = 0 ] && echo yes || echo no); $(tail -3 "$DIR/log/slurmctld.log" "$DIR/log/munged.log" 2>/dev/null)"
if [ $up -ne 0 ]; then
	why=$(tail -n 2 "$DIR"/log/slurmd.err "$DIR"/log/slurmd.log 2>/dev/null)
	for t in $(tail -n 4 <<<"$names"); do
		not_ok "$t" "the daemons did not start: $why"
	done
	exit 1
fi

# One job takes the only CPU; two jobs in each partition wait.
(cd "$DIR" && sbatch -Q -p hi -o /dev/null --wrap 'sleep 300' &&
	wait_for 30 sh -c 'squeue -h -t R -o %i | grep -q .' &&
	for p in lo hi lo hi; do
		sbatch -Q -p "$p" -o /dev/null --wrap 'sleep 300'
	done)
# "JOBID PARTITION PRIORITY" of pending jobs, highest priority first
pending() { squeue -h -t PD -S -p,i -o '%i %P %Q'; }
order=$(pending | awk '{ printf "%s:%s ", $2, $3 }')
[ "$order" = "hi:1000 hi:1000 lo:100 lo:100 " ]
check release_load_orders_pending_jobs_by_partition_factor $? \
	"pending jobs, highest priority first: ${order:-none} (want hi:1000 hi:1000 lo:100 lo:100)"

# sprio -l (every field of the reply), then the rows' job, partition,
# priority and weighted partition factor.
rows() {
	sprio -l >"$DIR/log/sprio-l.out" 2>&1 &&
		[ "$(grep -c ' hi \| lo ' "$DIR/log/sprio-l.out")" = 4 ] &&
		sprio -h -o '%i %r %Y %P'
}
good_rows() {
	[ "$(wc -l <<<"$1")" = 4 ] && awk '
		!(($2 == "hi" && $3 == 1000 && $4 == 1000) ||
		  ($2 == "lo" && $3 == 100 && $4 == 100)) { bad = 1 }
		END { exit bad }' <<<"$1"
}
r1=$(rows) && r2=$(rows) && [ "$r1" = "$r2" ] && good_rows "$r1" &&
	kill -0 "$ctld"
check release_load_survives_sprio_l_twice $? \
	"first: ${r1:-none}; second: ${r2:-none}; slurmctld $(kill -0 "$ctld" 2>/dev/null && echo alive || echo gone)"

scontrol reconfigure >"$DIR/log/reconfigure.out" 2>&1
sleep 2
wait_for 30 scontrol ping
new=$(pid_in "$DIR/run/slurmctld.pid")
r3=$(rows)
[ -n "$r3" ] && [ "$r3" = "$r1" ] && grep -q "$SO" "/proc/${new:-0}/maps"
check release_load_survives_scontrol_reconfigure_and_a_third_sprio_l $? \
	"slurmctld pid $ctld -> ${new:-none}; third sprio: ${r3:-none}; $(tail -2 "$DIR/log/slurmctld.log")"

# The order is what the scheduler follows: when the CPU frees, the first
# job of hi starts, though a job of lo was submitted before it (FIFO
# would start that one).
first_hi=$(pending | awk '$2 == "hi" { print $1 }' | sort -n | head -1)
scancel "$(squeue -h -t R -o %i)"
wait_for 30 sh -c 'squeue -h -t R -o %i | grep -q .'
started=$(squeue -h -t R -o '%i %P')
[ -n "$first_hi" ] && [ "$started" = "$first_hi hi" ]
check release_load_starts_the_higher_partition_factor_job_first $? \
	"running after the first job was cancelled: ${started:-none} (want ${first_hi:-?} hi); pending: $(pending | tr '\n' ' ')"
[ "$(grep -c '^not ok' "$TAP")" -eq 0 ]
