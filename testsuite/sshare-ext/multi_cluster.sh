#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# multi_cluster.sh BUILD - part of stage "sshare-ext-cluster": sshare-ext
# -M against Debian's sshare -M, with two clusters on one slurmdbd.
#
# Cluster tslab (build/cluster-sshare-ext-m1, priority/multifactor) and
# cluster tslab2 (build/cluster-sshare-ext-m2, priority/treeshare when
# built), started with "cluster up --name tslab2 --dbd-of" the first, so
# both register with the first one's slurmdbd.  seed 000's tree is loaded
# once (sacctmgr adds it to every cluster); short jobs charged at their
# end give the two clusters different usage (bob and scott on tslab,
# cathy and suzy on tslab2).  Then:
#   1. sshare -M and sshare-ext -M print the same text and exit status
#      for several clusters lists (both, all, one, one unknown, unknown
#      only) and option sets (sshare-ext may only append its -l columns);
#   2. each section is what sshare-ext prints with that cluster's own
#      SLURM_CONF, and the two sections differ (each cluster's own data).
# TAP appended to $TAP_FILE.  Both clusters go down on any exit, by pid.
set -u -o pipefail
build=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/testsuite/sshare-ext
B=$top/$build/bin/sshare-ext
D1=$top/$build/cluster-sshare-ext-m1
D2=$top/$build/cluster-sshare-ext-m2
export TS_CLUSTER_DIR=$D1
# shellcheck source=../cluster/lib.sh
. "$top/testsuite/cluster/lib.sh"
C1=$D1/etc/slurm.conf
C2=$D2/etc/slurm.conf
UP_LOG=$top/$build/check/sshare-ext-multi.up.log
WORK=$top/$build/check/sshare-ext-multi
rm -rf "$WORK"
mkdir -p "$WORK"

plugin2=priority/multifactor
[ -f "$top/build/lib/slurm/priority_treeshare.so" ] && plugin2=priority/treeshare

down_both()
{
	"$TS_CLUSTER" --dir "$D2" down >/dev/null 2>&1
	"$TS_CLUSTER" --dir "$D1" down >/dev/null 2>&1
}
trap down_both EXIT

# on CONF CMD... - CMD with SLURM_CONF=CONF.
on()
{
	local conf=$1
	shift
	SLURM_CONF=$conf "$@"
}

# limits CONF DIR - jobs charged when they end: restart that slurmctld.
limits()
{
	"$TS_CLUSTER" --dir "$2" conf AccountingStorageEnforce=associations,limits &&
		on "$1" "$TS_CLUSTER" --dir "$2" restart slurmctld
}

t0=$(date +%s)
: >"$UP_LOG"
if ! { timeout 300 "$TS_CLUSTER" --dir "$D1" up --nodes 1 &&
       timeout 300 "$TS_CLUSTER" --dir "$D2" up --nodes 1 --name tslab2 \
		--dbd-of "$D1" --plugin "$plugin2" &&
       limits "$C1" "$D1" && limits "$C2" "$D2"; } >>"$UP_LOG" 2>&1; then
	not_ok "-M: clusters tslab and tslab2 (--dbd-of) come up on one slurmdbd" \
		"$(tail -30 "$UP_LOG")"
	exit 1
fi
want=$(ts_tree_lines "$top/testsuite/trees/seed000.tree" |
	awk '{ print ($1 == "user" ? $3 "|" $2 : $2 "|") }' | sort)
if ! { ts_tree_load "$top/testsuite/trees/seed000.tree" &&
       SLURM_CONF=$C2 wait_for 30 "tslab2 to show the tree" \
		ts_tree_visible "$want" 1; } 2>"$WORK/load.err"; then
	not_ok "-M: seed000.tree loads into both clusters" "$(cat "$WORK/load.err")"
	exit 1
fi
# (job ids are per cluster: each writes its output in its own directory)
for j in "$D1 bob 4" "$D1 scott 8" "$D2 cathy 1" "$D2 suzy 2"; do
	set -- $j
	TS_CLUSTER_DIR=$1 SLURM_CONF=$1/etc/slurm.conf \
		ts_submit "$2" -p lab -c "$3" --wrap 'sleep 3' >/dev/null
done
if SLURM_CONF=$C1 wait_for 60 "tslab's jobs to be charged" ts_users_have_usage bob scott &&
   SLURM_CONF=$C2 wait_for 60 "tslab2's jobs to be charged" ts_users_have_usage cathy suzy; then
	ok "-M: tslab and tslab2 on one slurmdbd, each with its own usage ($(($(date +%s) - t0))s)"
else
	not_ok "-M: tslab and tslab2 on one slurmdbd, each with its own usage" \
		"$(on "$C1" sshare -a 2>&1)" "$(on "$C2" sshare -a 2>&1)"
	exit 1
fi

# same_text OPTS - sshare OPTS and sshare-ext OPTS: same stdout (sshare-ext
# may append its -l columns) and exit status; retried if a decay cycle
# changed sshare's own output around sshare-ext's run.
same_text()
{
	local try ref ref2 ext
	for try in 1 2 3; do
		# shellcheck disable=SC2086
		ref=$(sshare $1 2>/dev/null; echo "rc=$?")
		# shellcheck disable=SC2086
		ext=$("$B" $1 2>/dev/null; echo "rc=$?")
		# shellcheck disable=SC2086
		ref2=$(sshare $1 2>/dev/null; echo "rc=$?")
		[ "$ref" = "$ref2" ] && break
	done
	printf '%s\n' "$ref" >"$WORK/ref.out"
	printf '%s\n' "$ext" >"$WORK/ext.out"
	python3 "$here/same_columns.py" "$WORK/ref.out" "$WORK/ext.out"
}

bad=""
n=0
export SLURM_CONF=$C1
for m in "-M tslab,tslab2" "--clusters=all" "-M tslab2" "-M TSLAB2,nosuch" "-M nosuch"; do
	for o in "-a" "-a -l" "-a -P" "-A group2 -p" "-u bob,suzy" \
		 "-a -o Account,User,RawUsage,FairShare,Eff"; do
		n=$((n + 1))
		out=$(same_text "$m $o" 2>&1) || bad+="$m $o:"$'\n'"$out"$'\n'
	done
done
if [ -z "$bad" ]; then
	ok "-M: sshare-ext prints sshare's text and exit status for $n cluster lists and option sets (both, all, one, one unknown, unknown only)"
else
	not_ok "-M: sshare-ext prints sshare's text and exit status for $n cluster lists and option sets" "$bad"
fi

# 2. each section is that cluster's own sshare-ext output
"$B" -M tslab,tslab2 -a -l -P >"$WORK/multi" 2>&1
awk '/^CLUSTER: / { f = "'"$WORK"'/sec." $2; next } /^$/ { next } { print > f }' "$WORK/multi"
on "$C1" "$B" -a -l -P >"$WORK/own.tslab" 2>&1
on "$C2" "$B" -a -l -P >"$WORK/own.tslab2" 2>&1
if cmp -s "$WORK/sec.tslab" "$WORK/own.tslab" &&
   cmp -s "$WORK/sec.tslab2" "$WORK/own.tslab2" &&
   ! cmp -s "$WORK/sec.tslab" "$WORK/sec.tslab2"; then
	ok "-M: each section is what sshare-ext prints with that cluster's SLURM_CONF, and the two differ"
else
	not_ok "-M: each section is what sshare-ext prints with that cluster's SLURM_CONF, and the two differ" \
		"$(cat "$WORK/multi")" "own tslab:" "$(cat "$WORK/own.tslab")" \
		"own tslab2:" "$(cat "$WORK/own.tslab2")"
fi
diag "-M: done in $(($(date +%s) - t0))s"
