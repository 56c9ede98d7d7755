#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stage.sh TAP_FILE - the "cluster" stage of make check.
#
# Runs run-scenarios.sh once per run below, each on its own cluster
# (build/cluster-check-<run>), in parallel: the runs spend most of their
# time waiting for one-minute decay cycles, not on the CPU.
#   multifactor     Debian's priority/multifactor, every scenario it has
#   treeshare       priority/treeshare, every scenario but (g), with
#                   the window roll of caps (h) after (f)
#   treeshare-caps  priority/treeshare, (a) then the caps scenario (g),
#                   which needs (a)'s usage; split off because (g) alone
#                   takes ~6 min of waiting for cycles; (h) is not here
#                   because this run is the longer one; then (m), Maui's
#                   credentials (~3 min), which needs (a)'s pending jobs
#   treeshare-caps2 priority/treeshare, (a) then caps scenario (i)
#                   (requeue, salloc, a move to another account under
#                   a cap), which needs (a)'s usage; a run of its own
#                   because (i) waits ~2.5 min for cycles, which would
#                   make the treeshare run the longest; then (n), the
#                   same paths under a cap on a Maui user credential
#                   (~2.5 min), and (k), the failed reconfigure
#                   hand-over (~2.5 min, 24.11 on)
#   consumed        scenario-consumed.sh (usage_metric=consumed, issue
#                   20; letter j for TS_SCENARIOS): a cluster of its own
#                   with jobacct_gather/linux, not run-scenarios.sh's
#   replay          scenario-replay.sh (ts-replay's fidelity, issue 30;
#                   letter r): a cluster of its own, seven cycles of
#                   jobs and sshare snapshots, replayed from sacct
# The treeshare runs only when build/lib/slurm/priority_treeshare.so
# exists.  A caller's TS_SCENARIOS narrows every run to those letters; a
# run left with none of its letters is skipped.  The runs' TAP goes to
# TAP_FILE numbered as one stream, each run's output is printed as a
# block.  A watchdog stops a run that exceeds TS_CLUSTER_STAGE_TIMEOUT
# seconds (default 1500); its trap still takes its cluster down.  Then,
# when treeshare is built, release-load.sh (the plugin in the installed
# release's slurmctld, without slurmdbd) adds its lines.
set -u -o pipefail

TAP_FILE=${1:?usage: stage.sh TAP_FILE}
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
LIMIT=${TS_CLUSTER_STAGE_TIMEOUT:-1500}
mkdir -p "$(dirname "$TAP_FILE")"
TAP_FILE=$(readlink -f "$TAP_FILE")
OUT=$(dirname "$TAP_FILE")
rm -f "$TAP_FILE"
. "$TOP/testsuite/bgrun.sh"

# run name -> "PLUGIN|scenario letters after (a)" (run-scenarios.sh)
declare -A run=([multifactor]="priority/multifactor|b c d")
runs=(multifactor)
if [ -f "$TOP/build/lib/slurm/priority_treeshare.so" ]; then
	run[treeshare]="priority/treeshare|b c e f h d"
	run[treeshare-caps]="priority/treeshare|g m"
	run[treeshare-caps2]="priority/treeshare|i n k"
	run[consumed]="consumed|j"
	run[replay]="replay|r"
	runs+=(treeshare treeshare-caps treeshare-caps2 consumed replay)
fi

# letters RUN - the run's scenario letters, narrowed by TS_SCENARIOS.
letters()
{
	local l out=
	for l in ${run[$1]#*|}; do
		if [ -z "${TS_SCENARIOS:-}" ] ||
		   [[ " $TS_SCENARIOS " == *" $l "* ]]; then
			out="$out $l"
		fi
	done
	echo "${out# }"
}

cat <<EOF
cluster lab: real munged, mariadbd, slurmdbd, slurmctld and 4 slurmd on
loopback, one cluster per run, in parallel:
  ${runs[*]}
Each run waits for several one-minute decay cycles (~4-8 min).
EOF
if [ ${#runs[@]} -eq 1 ]; then
	echo "priority/treeshare: not built (no build/lib/slurm/priority_treeshare.so); its runs are skipped"
fi

declare -A pid=()
t0=$(date +%s)
started=()
for n in "${runs[@]}"; do
	rm -f "$OUT/cluster-$n.tap"
	l=$(letters "$n")
	if [ -n "${TS_SCENARIOS:-}" ] && [ -z "$l" ]; then
		echo "$n: none of its scenarios in TS_SCENARIOS='$TS_SCENARIOS'; skipped"
		continue
	fi
	if [ "${run[$n]%%|*}" = consumed ] || [ "${run[$n]%%|*}" = replay ]; then
		bg_start "$OUT/cluster-$n.rc" "$HERE/scenario-${run[$n]%%|*}.sh" \
			"$OUT/cluster-$n.tap" >"$OUT/cluster-$n.log" 2>&1
	else
		bg_start "$OUT/cluster-$n.rc" env TS_SCENARIOS="$l" \
			"$HERE/run-scenarios.sh" "${run[$n]%%|*}" \
			"$OUT/cluster-$n.tap" "$n" >"$OUT/cluster-$n.log" 2>&1
	fi
	pid[$n]=$BG_PID
	started+=("$n")
done
runs=("${started[@]}")

# watchdog: SIGTERM a run past the limit (its EXIT trap runs cluster down)
while :; do
	running=0
	for n in "${runs[@]}"; do
		bg_running "$OUT/cluster-$n.rc" && running=1
	done
	[ "$running" = 0 ] && break
	if [ $(($(date +%s) - t0)) -ge "$LIMIT" ]; then
		for n in "${runs[@]}"; do
			if bg_running "$OUT/cluster-$n.rc"; then
				echo "cluster stage: $n still running after ${LIMIT}s; stopping it"
				bg_stop "${pid[$n]}"
			fi
		done
		sleep 30
		break
	fi
	sleep 2
done

rc=0
# bgrun.sh itself first: how the runs' statuses above are read
"$HERE/test_bgrun.sh" "$TAP_FILE" 2>/dev/null
printf '\n---- bgrun.sh (test_bgrun.sh) ----\n'
cat "$TAP_FILE"
n_tap=$(grep -cE '^(not )?ok ' "$TAP_FILE")
grep -q '^not ok ' "$TAP_FILE" && rc=1
for n in "${runs[@]}"; do
	wait "${pid[$n]}" 2>/dev/null	# its log complete; status from the file
	st=$(bg_status "$OUT/cluster-$n.rc")
	if [ "${run[$n]%%|*}" = consumed ]; then
		printf '\n---- %s: scenario-consumed.sh (log %s) ----\n' "$n" \
			"$OUT/cluster-$n.log"
	else
		printf '\n---- %s: %s, scenarios (a) %s (log %s) ----\n' "$n" \
			"${run[$n]%%|*}" "$(letters "$n")" "$OUT/cluster-$n.log"
	fi
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
	elif [ "$st" != 0 ] && ! grep -q '^not ok ' "$OUT/cluster-$n.tap"; then
		# A run whose every test passed but which exited non-zero:
		# name it, with its status (128+N: signal N; "none": it
		# never ended) and where its log ended.
		{
			echo "not ok $((++n_tap)) - $n: every test passed but the run exited with status $st"
			tail -n 5 "$OUT/cluster-$n.log" | sed 's/^/#   /'
		} >>"$TAP_FILE"
	fi
	[ "$st" = 0 ] || rc=1
done

# Issue 12's release check (release-load.sh, ~10 s, no slurmdbd): the
# built plugin in the installed release's own slurmctld, sprio twice,
# scontrol reconfigure, sprio again.
if [ -f "$TOP/build/lib/slurm/priority_treeshare.so" ]; then
	"$HERE/release-load.sh" "$OUT/cluster-release-load.tap" \
		>"$OUT/cluster-release-load.log" 2>&1
	st=$?
	printf '\n---- release load (log %s) ----\n' "$OUT/cluster-release-load.log"
	cat "$OUT/cluster-release-load.log"
	awk -v base="$n_tap" '
	/^(not )?ok [0-9]+ / { sub(/ok [0-9]+ /, "ok " (++k + base) " ") }
	{ print }' "$OUT/cluster-release-load.tap" >>"$TAP_FILE"
	n_tap=$(grep -cE '^(not )?ok ' "$TAP_FILE")
	if [ "$st" != 0 ] &&
	   ! grep -q '^not ok ' "$OUT/cluster-release-load.tap"; then
		echo "not ok $((++n_tap)) - release load: every test passed but release-load.sh exited with status $st" >>"$TAP_FILE"
	fi
	[ "$st" = 0 ] || rc=1
fi
echo "1..$n_tap" >>"$TAP_FILE"
printf '\ncluster stage: %d tests, %d failed, %d known gaps (TODO), %ds\n' "$n_tap" \
	"$(grep '^not ok ' "$TAP_FILE" | grep -vc '^not ok [0-9]* - .* # TODO ')" \
	"$(grep -c '^not ok [0-9]* - .* # TODO ' "$TAP_FILE")" $(($(date +%s) - t0))
exit $rc
