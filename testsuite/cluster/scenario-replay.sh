#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scenario-replay.sh TAP_FILE - ts-replay's fidelity (issue 30): the
# history of a live cluster, replayed under its own slurm.conf, gives the
# figures the plugin gave, cycle by cycle.  A cluster of its own
# (build/cluster-check-replay), priority/treeshare under the lab's
# configuration (Fair Tree, 1-minute cycles, AccountingStorageEnforce=
# associations) with a 5-minute half-life, seed 000's tree:
#
#  1. jobs of the four users over about seven cycles: several CPU counts,
#     runs across cycles, one entirely between two cycles (never charged:
#     Slurm charges a job's end only with AccountingStorageEnforce=limits);
#     and one job each in the DOWN partition "wait", pending throughout;
#  2. after each cycle ("state committed: last decay T" in slurmctld.log)
#     a snapshot of sshare -a -l -P and of sprio (each pending job's
#     priority), kept only if no other cycle came while they were taken; after the third, share changes with sacctmgr:
#     bob's fairshare 50 -> 10, group2's 60 -> 20 (right after a cycle,
#     so that slurmctld has them well before the next one);
#  3. sacct -a -P, the tree as sshare printed it before the first job,
#     sacctmgr's transactions (-x) and the cycles' times from the log go
#     to ts-replay --cycles;
#  4. every snapshot's user rows: FairShare equal to the replay's within
#     1e-4, NormShares and NormUsage (6 decimals in sshare) within 1e-6
#     and RawUsage (printed rounded) within 1 or 1e-4 of it; every
#     pending job's sprio priority within 1 of the replay's
#     (--priorities: Slurm's sum of the weighted factors a history
#     gives; the lab weighs fair share only).
# Measured (22.05.8, 7 snapshots): NormUsage within 4.8e-7, sshare's
# rounding; RawUsage within its rounding; FairShare equal.
# Appends TAP lines to TAP_FILE.
set -u -o pipefail

TAP_FILE=$(readlink -f "${1:?usage: scenario-replay.sh TAP_FILE}")
HERE=$(cd "$(dirname "$0")" && pwd)
P=replay
TS_CHECK_DIR_PREFIX=${TS_CHECK_DIR_PREFIX:-$(cd "$HERE/../.." && pwd)/build/cluster-check-}
mkdir -p "$(dirname "$TS_CHECK_DIR_PREFIX$P")"
TS_CLUSTER_DIR=$(readlink -f "$TS_CHECK_DIR_PREFIX$P")
export TS_CLUSTER_DIR TS_CLUSTER_LOCK_HOLDER=$TS_CLUSTER_DIR
# shellcheck source=lib.sh
. "$HERE/lib.sh"

RP_LOG=$TS_CLUSTER_DIR/log/slurmctld.log
UP_LOG=$(dirname "$TAP_FILE")/cluster-$P.up.log
EXTRA=$(dirname "$TAP_FILE")/cluster-$P.conf
RP_CYCLES=7 # snapshots wanted

ts_cluster_own "$P" scenario-replay.sh

# rp_commits - the cycles committed so far (slurmctld.log lines).
rp_commits()
{
	grep -c 'state committed: last decay ' "$RP_LOG"
}

# rp_last_cycle - the time of the last cycle committed.
rp_last_cycle()
{
	sed -n 's/.*state committed: last decay \([0-9]*\).*/\1/p' "$RP_LOG" |
		tail -n 1
}

# rp_after N - more than N cycles committed.
rp_after()
{
	[ "$(rp_commits)" -gt "$1" ]
}

# rp_snapshot N - after cycle N+1 is committed, sshare -a -l -P into
# $W/snap.T (T its time); RET 1 when another cycle came meanwhile.
rp_snapshot()
{
	local t n
	wait_for 100 "cycle $(($1 + 1))" rp_after "$1" || return 1
	n=$(rp_commits)
	t=$(rp_last_cycle)
	sshare -a -l -P >"$W/snap.$t" 2>/dev/null &&
		sprio -h -o '%i|%Y' >"$W/sprio.$t" 2>/dev/null || return 1
	if [ "$(rp_commits)" != "$n" ]; then
		rm -f "$W/snap.$t" "$W/sprio.$t"
		return 1
	fi
}

# rp_job USER CPUS SECS - a job of USER on CPUS CPUs sleeping SECS.
rp_job()
{
	ts_submit "$1" -p lab -n "$2" -t 5 --wrap "sleep $3" >/dev/null
}

printf 'PriorityDecayHalfLife=5\n' >"$EXTRA"
t0=$(date +%s)
if ! "$TS_CLUSTER" up --plugin priority/treeshare --nodes 2 --conf-extra "$EXTRA" \
	>"$UP_LOG" 2>&1; then
	not_ok "$P: cluster up with priority/treeshare and a 5-minute half-life" \
		"$(tail -n 20 "$UP_LOG")"
	exit 1
fi
ok "$P: cluster up with priority/treeshare and a 5-minute half-life ($(($(date +%s) - t0))s)"
ts_tree_load "$TS_TOP/testsuite/trees/seed000.tree" || {
	not_ok "$P: seed 000 tree loaded"
	exit 1
}
W=$TS_CLUSTER_DIR/replay
rm -rf "$W"
mkdir -p "$W" "$TS_CLUSTER_DIR/jobs"
sshare -a -l -P >"$W/tree.sshare"

# The first cycle after the tree: usage 0 there, the replay's start.
n0=$(rp_commits)
wait_for 100 "a cycle with the tree loaded" rp_after "$n0" || true
n0=$(rp_commits)
first=$(rp_last_cycle)
for u in bob cathy suzy scott; do
	ts_submit "$u" -p wait -n 1 -t 5 --wrap "sleep 1" >/dev/null
done
rp_job bob 4 150
rp_job scott 8 100
rp_job suzy 1 200
sleep 3
rp_job cathy 2 20 # between two cycles: never charged
snaps=0
for k in $(seq 1 "$RP_CYCLES"); do
	rp_snapshot "$(rp_commits)" && snaps=$((snaps + 1))
	case $k in
	2)
		rp_job bob 6 90
		rp_job cathy 3 130
		;;
	3)
		rp_job scott 5 45
		sleep 5 # not in the cycle's second: which comes first is unknown
		sacctmgr -i -Q modify user bob account=group1 set fairshare=10 >/dev/null &&
			sacctmgr -i -Q modify account group2 set fairshare=20 >/dev/null ||
			diag "$P: sacctmgr modify failed"
		;;
	esac
done
last=$(rp_last_cycle)
diag "$P: $snaps snapshots of $RP_CYCLES cycles, from $(TZ=UTC date -d "@$first" +%T) to $(TZ=UTC date -d "@$last" +%T) UTC"

sed -n 's/.*state committed: last decay \([0-9]*\).*/\1/p' "$RP_LOG" |
	awk -v a="$first" -v b="$last" '$1 >= a && $1 <= b' >"$W/cycles"
TZ=UTC sacct -a -P -X -S "$(TZ=UTC date -d "@$((first - 60))" +%FT%T)" \
	-o JobID,User,Account,Submit,Eligible,Start,End,AllocTRES,AllocCPUS,State \
	>"$W/jobs.sacct" 2>"$W/sacct.err"
TZ=UTC sacctmgr -P list transactions >"$W/transactions" 2>"$W/sacctmgr.err"
cat "$TS_CLUSTER_DIR/etc/slurm.conf" "$EXTRA" >"$W/replay.conf"
if TZ=UTC "$TS_TOP/build/bin/ts-replay" -c "$W/replay.conf" \
	-t "$W/tree.sshare" -j "$W/jobs.sacct" --cycles "$W/cycles" \
	-x "$W/transactions" --priorities "$W/priorities.csv" \
	>"$W/replay.csv" 2>"$W/replay.err" &&
	[ "$(sed -n 's/.*, \([0-9]*\) share changes applied.*/\1/p' "$W/replay.err")" = 2 ]; then
	ok "$P: ts-replay reads the cluster's slurm.conf, sshare tree, sacct jobs, sacctmgr transactions and logged cycle times ($(grep -c . "$W/cycles") cycles, $(($(wc -l <"$W/jobs.sacct") - 1)) jobs, $(sed -n 's/.*, \([0-9]*\) share changes applied.*/\1/p' "$W/replay.err") share changes applied)"
else
	not_ok "$P: ts-replay reads the cluster's slurm.conf, sshare tree, sacct jobs, sacctmgr transactions and logged cycle times" \
		"$(cat "$W/replay.err")" "$(head -n 12 "$W/jobs.sacct")"
fi

# Every snapshot's user rows against the replay's row at its cycle.
for s in "$W"/snap.*; do
	[ -e "$s" ] || continue
	t=${s##*.}
	when=$(TZ=UTC date -d "@$t" +%FT%T)
	awk -F'|' -v when="$when" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$(col["User"]) != "" {
			a = $(col["Account"]); gsub(/ /, "", a)
			print when "|" a "|" $(col["User"]) "|" \
				$(col["RawUsage"]) "|" $(col["FairShare"]) "|" \
				$(col["NormUsage"]) "|" $(col["NormShares"])
		}' "$s"
done >"$W/live"
awk -F, 'NR > 1 && $4 != "" { print $1 "|" $3 "|" $4 "|" $7 "|" $10 "|" $8 "|" $6 }' \
	"$W/replay.csv" >"$W/replayed"
awk -F'|' '
	function abs(x) { return x < 0 ? -x : x }
	NR == FNR {
		k = $1 "|" $2 "|" $3; u[k] = $4; f[k] = $5; nu[k] = $6
		ns[k] = $7; next
	}
	{
		k = $1 "|" $2 "|" $3; n++
		if (!(k in u)) { print "no replayed row: " $0; bad++; next }
		du = abs(u[k] - $4); df = abs(f[k] - $5); dn = abs(nu[k] - $6)
		ds = abs(ns[k] - $7)
		if (ds > 1e-6) {
			print "NormShares differ: live " $0 " replayed " ns[k]
			bad++
		}
		tol = $4 * 1e-4; if (tol < 1) tol = 1
		if (dn > mn) mn = dn
		if (du > tol || df > 1e-4 || dn > 1e-6) {
			print "differs: live " $0 " replayed " u[k] " " f[k] " " nu[k]
			bad++
		} else if ($4 > 0)
			used++
	}
	END {
		printf "%d rows, %d with usage, %d differ, NormUsage within %.2g\n",
			n, used, bad, mn
		exit !(n >= 4 * 5 && used >= 10 && !bad)
	}' "$W/replayed" "$W/live" >"$W/verdict"
if [ $? = 0 ]; then
	ok "$P: every snapshot's FairShare within 1e-4, NormShares and NormUsage within 1e-6 and RawUsage within 1e-4 (or 1) of the replay: $(tail -n 1 "$W/verdict")"
else
	not_ok "$P: every snapshot's FairShare within 1e-4, NormShares and NormUsage within 1e-6 and RawUsage within 1e-4 (or 1) of the replay" \
		"$(head -n 20 "$W/verdict")" "$(tail -n 4 "$W/replay.err")"
fi

# Every pending job in every sprio snapshot against the replay's
# priority at that cycle.
for s in "$W"/sprio.*; do
	[ -e "$s" ] || continue
	t=${s##*.}
	when=$(TZ=UTC date -d "@$t" +%FT%T)
	awk -F'|' -v when="$when" '{ gsub(/ /, ""); print when "|" $1 "|" $2 }' "$s"
done >"$W/live.prio"
awk -F, 'NR > 1 { print $1 "|" $2 "|" $5 }' "$W/priorities.csv" >"$W/replayed.prio"
awk -F'|' '
	NR == FNR { p[$1 "|" $2] = $3; next }
	{
		n++
		if (!(($1 "|" $2) in p)) { print "no replayed priority: " $0; bad++; next }
		d = p[$1 "|" $2] - $3; if (d < 0) d = -d
		if (d > 1) { print "differs: sprio " $0 " replayed " p[$1 "|" $2]; bad++ }
	}
	END {
		printf "%d pending-job samples, %d differ by more than 1\n", n, bad
		exit !(n >= 4 * 5 && !bad)
	}' "$W/replayed.prio" "$W/live.prio" >"$W/verdict.prio"
if [ $? = 0 ]; then
	ok "$P: every pending job's sprio priority within 1 of the replay's: $(tail -n 1 "$W/verdict.prio")"
else
	not_ok "$P: every pending job's sprio priority within 1 of the replay's" \
		"$(head -n 20 "$W/verdict.prio")" "$(head -n 3 "$W/live.prio")" \
		"$(head -n 3 "$W/replayed.prio")"
fi
