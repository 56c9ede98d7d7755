#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cluster_stage.sh TAP_FILE - the "crash-cluster" stage of make check:
# cluster_crash.sh's three configurations, each on its own cluster, in
# parallel (they mostly wait for slurmctld to start), their TAP merged in
# one stream.  A watchdog stops a run past TS_CRASH_STAGE_TIMEOUT seconds
# (default 900: CI runs it beside Slurm's builds, where two configs took
# over 420); its trap still takes its cluster down.  ~2 minutes alone.
set -u -o pipefail
TAP_FILE=${1:?usage: cluster_stage.sh TAP_FILE}
HERE=$(cd "$(dirname "$0")" && pwd)
LIMIT=${TS_CRASH_STAGE_TIMEOUT:-900}
mkdir -p "$(dirname "$TAP_FILE")"
TAP_FILE=$(readlink -f "$TAP_FILE")
OUT=$(dirname "$TAP_FILE")
rm -f "$TAP_FILE"
. "$HERE/../bgrun.sh"
configs=(a b c)

echo "crash-cluster: priority/treeshare killed -9 and killed at every step of"
echo "its state save in a real slurmctld (three clusters in parallel):"
echo "  a  classic, no half-life: crash matrix, damaged files, EIO, ENOSPC"
echo "  b  Fair Tree, usage windows, a half-life: crash matrix"
echo "  c  fairshare=pbs, a half-life: five crash points"
declare -A pid=()
t0=$(date +%s)
for c in "${configs[@]}"; do
	rm -f "$OUT/crash-$c.tap"
	bg_start "$OUT/crash-$c.rc" bash "$HERE/cluster_crash.sh" "$c" \
		"$OUT/crash-$c.tap" >"$OUT/crash-$c.log" 2>&1
	pid[$c]=$BG_PID
done
while :; do
	running=0
	for c in "${configs[@]}"; do
		bg_running "$OUT/crash-$c.rc" && running=1
	done
	[ "$running" = 0 ] && break
	if [ $(($(date +%s) - t0)) -ge "$LIMIT" ]; then
		for c in "${configs[@]}"; do
			bg_running "$OUT/crash-$c.rc" &&
				echo "crash-cluster: config $c still running after ${LIMIT}s; stopping it" &&
				bg_stop "${pid[$c]}"
		done
		sleep 20
		break
	fi
	sleep 2
done
rc=0 n=0
for c in "${configs[@]}"; do
	wait "${pid[$c]}" 2>/dev/null	# its log complete; status from the file
	st=$(bg_status "$OUT/crash-$c.rc")
	[ "$st" = 0 ] || rc=1
	printf '\n---- config %s (log %s) ----\n' "$c" "$OUT/crash-$c.log"
	cat "$OUT/crash-$c.log"
	if [ -s "$OUT/crash-$c.tap" ]; then
		awk -v base="$n" '/^(not )?ok [0-9]+ / {
			sub(/ok [0-9]+ /, "ok " (++k + base) " ") } { print }' \
			"$OUT/crash-$c.tap" >>"$TAP_FILE"
		n=$(grep -cE '^(not )?ok ' "$TAP_FILE")
		if [ "$st" != 0 ] && ! grep -q '^not ok ' "$OUT/crash-$c.tap"; then
			echo "not ok $((++n)) - crash-$c: every test passed but the run exited with status $st" >>"$TAP_FILE"
		fi
	else
		echo "not ok $((++n)) - crash-$c: no test result" >>"$TAP_FILE"
		rc=1
	fi
done
echo "1..$n" >>"$TAP_FILE"
printf '\ncrash-cluster: %d tests, %d failed, %ds\n' "$n" \
	"$(grep -c '^not ok ' "$TAP_FILE")" $(($(date +%s) - t0))
exit $rc
