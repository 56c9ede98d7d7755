#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stage.sh TAP_FILE - the "cluster" stage of make check.
#
# Runs run-scenarios.sh once per priority plugin, each on its own cluster
# (build/cluster-check-<plugin>), in parallel: the runs spend most of their
# time waiting for one-minute decay cycles, not on the CPU.  Debian's
# priority/multifactor always; priority/treeshare when
# build/lib/slurm/priority_treeshare.so exists.  The runs' TAP goes to
# TAP_FILE numbered as one stream, each run's output is printed as a
# block.  A watchdog stops a run that exceeds TS_CLUSTER_STAGE_TIMEOUT
# seconds (default 1080); its trap still takes its cluster down.  Then,
# when treeshare is built, release-load.sh (the plugin in the installed
# release's slurmctld, without slurmdbd) adds its lines.
set -u -o pipefail

TAP_FILE=${1:?usage: stage.sh TAP_FILE}
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
LIMIT=${TS_CLUSTER_STAGE_TIMEOUT:-1080}
mkdir -p "$(dirname "$TAP_FILE")"
TAP_FILE=$(readlink -f "$TAP_FILE")
OUT=$(dirname "$TAP_FILE")
rm -f "$TAP_FILE"

plugins=(priority/multifactor)
if [ -f "$TOP/build/lib/slurm/priority_treeshare.so" ]; then
	plugins+=(priority/treeshare)
fi

cat <<EOF
cluster lab: real munged, mariadbd, slurmdbd, slurmctld and 4 slurmd on
loopback, one cluster per priority plugin, in parallel:
  ${plugins[*]}
Each run waits for several one-minute decay cycles (~4 min; treeshare ~11).
EOF
if [ ${#plugins[@]} -eq 1 ]; then
	echo "priority/treeshare: not built (no build/lib/slurm/priority_treeshare.so); its run is skipped"
fi

declare -A pid=()
t0=$(date +%s)
for p in "${plugins[@]}"; do
	n=${p#priority/}
	rm -f "$OUT/cluster-$n.tap"
	"$HERE/run-scenarios.sh" "$p" "$OUT/cluster-$n.tap" \
		>"$OUT/cluster-$n.log" 2>&1 &
	pid[$p]=$!
done

# watchdog: SIGTERM a run past the limit (its EXIT trap runs cluster down)
while :; do
	running=0
	for p in "${plugins[@]}"; do
		kill -0 "${pid[$p]}" 2>/dev/null && running=1
	done
	[ "$running" = 0 ] && break
	if [ $(($(date +%s) - t0)) -ge "$LIMIT" ]; then
		for p in "${plugins[@]}"; do
			if kill -0 "${pid[$p]}" 2>/dev/null; then
				echo "cluster stage: $p still running after ${LIMIT}s; stopping it"
				kill -TERM "${pid[$p]}"
			fi
		done
		sleep 30
		break
	fi
	sleep 2
done

rc=0
n_tap=0
for p in "${plugins[@]}"; do
	n=${p#priority/}
	wait "${pid[$p]}" || rc=1
	printf '\n---- %s (log %s) ----\n' "$p" "$OUT/cluster-$n.log"
	cat "$OUT/cluster-$n.log"
	# renumber this run's TAP lines after the previous runs'
	if [ -f "$OUT/cluster-$n.tap" ]; then
		awk -v base="$n_tap" '
		/^(not )?ok [0-9]+ / { sub(/ok [0-9]+ /, "ok " (++k + base) " ") }
		{ print }' "$OUT/cluster-$n.tap" >>"$TAP_FILE"
		n_tap=$(grep -cE '^(not )?ok ' "$TAP_FILE")
	fi
	if [ ! -s "$OUT/cluster-$n.tap" ] ||
	   ! grep -qE '^(not )?ok ' "$OUT/cluster-$n.tap"; then
		echo "not ok $((++n_tap)) - $n: scenario run produced no test result" >>"$TAP_FILE"
		rc=1
	fi
done

# Issue 12's release check (release-load.sh, ~10 s, no slurmdbd): the
# built plugin in the installed release's own slurmctld, sprio twice,
# scontrol reconfigure, sprio again.
if [ -f "$TOP/build/lib/slurm/priority_treeshare.so" ]; then
	"$HERE/release-load.sh" "$OUT/cluster-release-load.tap" \
		>"$OUT/cluster-release-load.log" 2>&1 || rc=1
	printf '\n---- release load (log %s) ----\n' "$OUT/cluster-release-load.log"
	cat "$OUT/cluster-release-load.log"
	awk -v base="$n_tap" '
	/^(not )?ok [0-9]+ / { sub(/ok [0-9]+ /, "ok " (++k + base) " ") }
	{ print }' "$OUT/cluster-release-load.tap" >>"$TAP_FILE"
	n_tap=$(grep -cE '^(not )?ok ' "$TAP_FILE")
fi
echo "1..$n_tap" >>"$TAP_FILE"
printf '\ncluster stage: %d tests, %d failed, %ds\n' "$n_tap" \
	"$(grep -c '^not ok ' "$TAP_FILE")" $(($(date +%s) - t0))
exit $rc
