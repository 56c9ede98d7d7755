#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# replay.sh TS_REPLAY DIR - issue 30's scale goal for ts-replay(1), part
# of make bench: 30 days of a site with 1,000,000 jobs and 5,000
# associations (replay_workload.sh, written once into DIR) replayed
# under one configuration (Fair Tree, a 5-minute cycle: 8,640 cycles) in
# at most 60 s of one core.  The rows are printed once a simulated day
# (--every 1d) to /dev/null: every cycle's would be 44 million lines,
# whose formatting, not the replay, would take the time.  Prints the
# CPU seconds and peak RSS ts-replay reports and PASS or FAIL; exit 1
# on FAIL or on a replay that fails.
# Then the same history compared under three configurations (classic,
# Fair Tree, fairshare=pbs; --compare, samples once a day): its CPU
# seconds and peak RSS, against the same 60 s a configuration.
set -u -o pipefail

BIN=${1:?usage: replay.sh TS_REPLAY DIR}
DIR=${2:?usage: replay.sh TS_REPLAY DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
GOAL_CPU=60

if [ ! -s "$DIR/jobs.sacct" ] || [ "$HERE/replay_workload.sh" -nt "$DIR/jobs.sacct" ]; then
	rm -rf "$DIR"
	bash "$HERE/replay_workload.sh" "$DIR" || exit 1
fi
err=$DIR/replay.err
if ! TZ=UTC "$BIN" -c "$DIR/slurm.conf" -t "$DIR/site.tree" \
	-j "$DIR/jobs.sacct" --every 1d >/dev/null 2>"$err"; then
	echo "replay (issue 30): ts-replay failed:"
	cat "$err"
	exit 1
fi
sed 's/^/  /' "$err"
read -r cpu rss < <(sed -n 's/^ts-replay: \([0-9.]*\) s of CPU.*peak RSS \([0-9.]*\) MB$/\1 \2/p' "$err")
if [ -z "${cpu:-}" ]; then
	echo "replay (issue 30): no resource line from ts-replay"
	exit 1
fi
verdict=PASS
awk -v c="$cpu" -v g="$GOAL_CPU" 'BEGIN { exit !(c <= g) }' || verdict=FAIL
echo "replay (issue 30): 1,000,000 jobs, 5,000 associations, 30 days of 5-min cycles: $cpu s of CPU (goal <= $GOAL_CPU s), peak RSS $rss MB: $verdict"
[ "$verdict" = PASS ] || exit 1

sed 's/^PriorityCalcPeriod=5$/&\nPriorityFlags=NO_FAIR_TREE/' "$DIR/slurm.conf" >"$DIR/classic.conf"
cp "$DIR/slurm.conf" "$DIR/fair_tree.conf"
{ cat "$DIR/slurm.conf"; echo PriorityParameters=fairshare=pbs; } >"$DIR/pbs.conf"
for c in classic fair_tree pbs; do
	printf 'PriorityWeightFairshare=10000\nPriorityWeightAge=1000\n' >>"$DIR/$c.conf"
done
if ! TZ=UTC "$BIN" -c "$DIR/classic.conf" -c "$DIR/fair_tree.conf" \
	-c "$DIR/pbs.conf" -t "$DIR/site.tree" -j "$DIR/jobs.sacct" \
	--every 1d --compare "$DIR/compare" >"$DIR/compare.out" 2>"$err"; then
	echo "replay --compare (issue 30): ts-replay failed:"
	cat "$err"
	exit 1
fi
sed 's/^/  /' "$DIR/compare.out" "$err"
read -r cpu rss < <(sed -n 's/^ts-replay: \([0-9.]*\) s of CPU.*peak RSS \([0-9.]*\) MB$/\1 \2/p' "$err")
verdict=PASS
awk -v c="${cpu:-999}" -v g="$((3 * GOAL_CPU))" 'BEGIN { exit !(c <= g) }' || verdict=FAIL
echo "replay --compare (issue 30): the same, 3 configurations side by side: ${cpu:-?} s of CPU (goal <= $((3 * GOAL_CPU)) s), peak RSS ${rss:-?} MB: $verdict"
[ "$verdict" = PASS ]
