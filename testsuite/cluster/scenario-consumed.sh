#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scenario-consumed.sh TAP_FILE - usage_metric=consumed (issue 20) on a
# cluster of its own (build/cluster-check-consumed; jobacct_gather/linux
# needs slurmd started with it, so the shared run cannot be reused):
#
#  1. PriorityParameters=usage_metric=consumed with jobacct_gather/none is
#     refused at start, the log line naming the key and the gatherer;
#  2. with jobacct_gather/linux, on idle nodes, bob's job sleeps and
#     cathy's burns both of its CPUs, same allocation (-c 2) and length:
#     while they run neither is charged; once slurmdbd holds their end,
#     each user's RawUsage is its job's TotalCPU (sacct) within 1 s + 2 %,
#     bob's a small fraction of cathy's (dedicated usage would give both
#     the same: 2 CPUs x the same seconds);
#     sshare-ext says so (--json usage_metric, -g's usage line);
#  3. nothing is charged twice: RawUsage stays put for the next cycle,
#     across a slurmctld restart and for the cycle after it;
#  4. the same as 2 with usage_window=1h (scontrol reconfigure), for suzy
#     and scott;
#  5. a switch from dedicated to consumed counts nothing twice (issue 31):
#     before step 4, usage_metric=dedicated at reconfigure; bob's burner
#     is charged dedicated at a cycle and cancelled right after it, and
#     cathy's runs across the switch, which is step 4's reconfigure,
#     seconds later; both are charged by the metric in force at their
#     start, dedicated: bob's RawUsage stays what that cycle charged, and
#     neither job's TotalCPU is charged by the consumed cycles whose spans
#     hold their ends (step 4's waits cover those cycles).
# PriorityDecayHalfLife=0 keeps usage undecayed so that it can be compared
# with TotalCPU to the second.  Appends TAP lines to TAP_FILE.
set -u -o pipefail

TAP_FILE=$(readlink -f "${1:?usage: scenario-consumed.sh TAP_FILE}")
HERE=$(cd "$(dirname "$0")" && pwd)
P=consumed
TS_CHECK_DIR_PREFIX=${TS_CHECK_DIR_PREFIX:-$(cd "$HERE/../.." && pwd)/build/cluster-check-}
mkdir -p "$(dirname "$TS_CHECK_DIR_PREFIX$P")"
TS_CLUSTER_DIR=$(readlink -f "$TS_CHECK_DIR_PREFIX$P")
export TS_CLUSTER_DIR TS_CLUSTER_LOCK_HOLDER=$TS_CLUSTER_DIR
# shellcheck source=lib.sh
. "$HERE/lib.sh"

CONS_SECS=65 # each job's run: a decay cycle (1 min) falls inside
CONS_LOG=$TS_CLUSTER_DIR/log/slurmctld.log
UP_LOG=$(dirname "$TAP_FILE")/cluster-$P.up.log
EXTRA=$(dirname "$TAP_FILE")/cluster-$P.conf

ts_cluster_own "$P" scenario-consumed.sh

# cons_totalcpu JOBID - sacct's TotalCPU of the job (its steps' sum) in
# seconds; sacct prints [D-][HH:]MM:SS[.mmm].
cons_totalcpu()
{
	sacct -n -P -j "$1" -o totalcpu | head -n 1 | awk '{
		d = 0; t = $1
		if (t ~ /-/) { split(t, p, "-"); d = p[1]; t = p[2] }
		n = split(t, f, ":"); s = 0
		for (i = 1; i <= n; i++) s = s * 60 + f[i]
		printf "%.3f\n", d * 86400 + s }'
}

# cons_usage USER - the user's RawUsage in sshare.
cons_usage()
{
	sshare -n -P -u "$1" -o user,rawusage |
		awk -F'|' -v u="$1" '$1 == u { print $2; exit }'
}

# cons_charged USER - USER's RawUsage is above 0.
cons_charged()
{
	[ "$(cons_usage "$1")" -gt 0 ] 2>/dev/null
}

# cons_sleep USER, cons_burn USER - the pair of jobs, 2 CPUs each for
# CONS_SECS; prints the job id.
cons_sleep()
{
	ts_submit "$1" -p lab -c 2 -t 5 --wrap "sleep $CONS_SECS"
}

# The burner is one loop that times itself (bash's SECONDS), the job's
# only process, so that no signal is needed to end it: with two loops
# under timeout, on Slurm 25.11.7 timeout's SIGTERM did not end them,
# and on 25.05.8 the script's shell never returned from "wait" (its
# children stayed zombies): the job ran to its limit and was cancelled
# with TotalCPU 0.  One CPU of the two burns, CONS_BURN_CPU CPU-seconds
# (its /proc stat), then the job sleeps out its run (exec: still one
# process): every check needs 5 CPU-seconds, and CI runs five such
# clusters beside Slurm's builds, where a minute of burning each took
# cores the builds wait for.
CONS_BURN_CPU=10
cons_burn()
{
	local secs=${2:-$CONS_SECS}
	ts_submit "$1" -p lab -c 2 -t 5 --wrap \
		"exec bash -c 'SECONDS=0; while [ \$SECONDS -lt $secs ]; do read -r -a s </proc/\$\$/stat; [ \$((s[13] + s[14])) -ge $((CONS_BURN_CPU * 100)) ] && exec sleep \$(($secs - SECONDS)); for ((i = 0; i < 100000; i++)); do :; done; done'"
}

# cons_cycle_after N - more than N "state committed" lines (cycles).
cons_cycle_after()
{
	[ "$(grep -c 'state committed' "$CONS_LOG")" -gt "$1" ]
}

# cons_dedicated_after LINE N - the consumed cycles logged after line
# LINE of slurmctld.log skipped at least N ended jobs as started before
# usage_metric=consumed came in force (charged dedicated).
cons_dedicated_after()
{
	tail -n "+$(($1 + 1))" "$CONS_LOG" |
		sed -n 's/.*; \([0-9]*\) started before usage_metric=consumed came in force.*/\1/p' |
		awk -v n="$2" '{ s += $1 } END { exit !(s >= n) }'
}

# cons_close USAGE TOTALCPU - RawUsage (truncated) is TotalCPU within
# 1 s + 2 %.
cons_close()
{
	awk -v u="$1" -v t="$2" 'BEGIN { d = u - t; if (d < 0) d = -d
		exit !(t != "" && u != "" && d <= 1 + 0.02 * t) }'
}

cons_jobs_done()
{
	local j
	for j in "$@"; do
		case $(sacct -n -P -X -j "$j" -o state | head -n 1) in
		COMPLETED*) ;;
		*) return 1 ;;
		esac
	done
}

# 1. Refused with jobacct_gather/none (the lab's default).
printf 'PriorityParameters=usage_metric=consumed\nPriorityDecayHalfLife=0\n' >"$EXTRA"
t0=$(date +%s)
up_rc=0
"$TS_CLUSTER" up --plugin priority/treeshare --nodes 2 --conf-extra "$EXTRA" \
	>"$UP_LOG" 2>&1 || up_rc=$?
want="usage_metric=consumed needs JobAcctGatherType=jobacct_gather/linux or jobacct_gather/cgroup"
if grep -qF -- "$want" "$CONS_LOG" 2>/dev/null && [ "$up_rc" != 0 ]; then
	ok "$P: usage_metric=consumed with jobacct_gather/none stops slurmctld with a line naming both"
else
	not_ok "$P: usage_metric=consumed with jobacct_gather/none stops slurmctld with a line naming both" \
		"$(grep -F usage_metric "$CONS_LOG" 2>/dev/null | tail -n 3)" "$(tail -n 5 "$UP_LOG")"
fi
"$TS_CLUSTER" down >/dev/null 2>&1

# 2. Sleep against burn (on this shared 2-core machine the burner gets
# what CPU it can: its TotalCPU, not 2 x CONS_SECS, is the reference).
printf 'PriorityParameters=usage_metric=consumed\nPriorityDecayHalfLife=0\nJobAcctGatherType=jobacct_gather/linux\nJobAcctGatherFrequency=10\n' >"$EXTRA"
if ! "$TS_CLUSTER" up --plugin priority/treeshare --nodes 2 --conf-extra "$EXTRA" \
	>"$UP_LOG" 2>&1; then
	not_ok "$P: cluster up with jobacct_gather/linux and usage_metric=consumed" \
		"$(tail -n 20 "$UP_LOG")"
	exit 1
fi
ok "$P: cluster up with jobacct_gather/linux and usage_metric=consumed ($(($(date +%s) - t0))s)"
ts_tree_load "$TS_TOP/testsuite/trees/seed000.tree" || {
	not_ok "$P: seed 000 tree loaded"
	exit 1
}
mkdir -p "$TS_CLUSTER_DIR/jobs"
sleeper=$(cons_sleep bob)
burner=$(cons_burn cathy)
wait_for 60 "both jobs to run" ts_jobs_running "$sleeper" "$burner" || true
n0=$(grep -c 'state committed' "$CONS_LOG")
wait_for 75 "a decay cycle while both jobs run" \
	sh -c "[ \$(grep -c 'state committed' '$CONS_LOG') -gt $n0 ]" || true
ts_jobs_running "$sleeper" "$burner" || diag "$P: a job ended before the cycle"
run_b=$(cons_usage bob) run_c=$(cons_usage cathy)
if [ "$run_b" = 0 ] && [ "$run_c" = 0 ]; then
	ok "$P: running jobs are charged no fair-share usage (RawUsage bob $run_b, cathy $run_c)"
else
	not_ok "$P: running jobs are charged no fair-share usage" "bob $run_b, cathy $run_c"
fi
wait_for 90 "both jobs to complete in sacct" cons_jobs_done "$sleeper" "$burner" || true
tb=$(cons_totalcpu "$sleeper") tc=$(cons_totalcpu "$burner")
# The lag (60 s) and one cycle (60 s) after the end, plus slack.
wait_for 200 "cathy's consumed usage to be charged" cons_charged cathy || true
ub=$(cons_usage bob) uc=$(cons_usage cathy)
diag "$P: sleeping job $sleeper: TotalCPU ${tb}s, bob's RawUsage $ub; burning job $burner: TotalCPU ${tc}s, cathy's RawUsage $uc"
if cons_close "$uc" "$tc" && cons_close "$ub" "$tb"; then
	ok "$P: each user's RawUsage is its job's TotalCPU (bob $ub vs ${tb}s, cathy $uc vs ${tc}s)"
else
	not_ok "$P: each user's RawUsage is its job's TotalCPU" \
		"bob $ub vs ${tb}s, cathy $uc vs ${tc}s"
fi
if awk -v b="$ub" -v c="$uc" -v s="$CONS_SECS" 'BEGIN {
	exit !(c >= 5 && b <= 0.1 * c) }'; then
	ok "$P: the sleeping job's charge is a small fraction of the burning job's ($ub vs $uc)"
else
	not_ok "$P: the sleeping job's charge is a small fraction of the burning job's" \
		"bob $ub, cathy $uc (the burner needs 5 CPU-seconds at least)"
fi

# sshare-ext shows the metric (JSON) and marks the usage as consumed (-g).
ext=$TS_TOP/build/bin/sshare-ext
if "$ext" --json 2>&1 | grep -qF '"usage_metric": "consumed"' &&
   "$ext" -g cathy 2>&1 | grep -qE "^usage[[:space:]]+: $uc \(RawUsage, consumed CPU-seconds\)$"; then
	ok "$P: sshare-ext shows usage_metric consumed (--json) and cathy's usage as consumed CPU-seconds (-g)"
else
	not_ok "$P: sshare-ext shows usage_metric consumed (--json) and cathy's usage as consumed CPU-seconds (-g)" \
		"$("$ext" --json 2>&1 | grep -F usage_metric)" "$("$ext" -g cathy 2>&1 | grep -F usage)"
fi

# 3. Charged once: the next cycle, then a restart and the cycle after
# it (each cycle asks slurmdbd for the jobs that ended in its span; the
# first after a restart takes the span from the state saved).
n0=$(grep -c 'consumed usage of' "$CONS_LOG")
wait_for 90 "the next decay cycle" \
	sh -c "[ \$(grep -c 'consumed usage of' '$CONS_LOG') -ge $((n0 + 1)) ]" || true
ub1=$(cons_usage bob) uc1=$(cons_usage cathy)
"$TS_CLUSTER" restart slurmctld >/dev/null 2>&1
n0=$(grep -c 'consumed usage of' "$CONS_LOG")
wait_for 150 "a decay cycle after the restart" \
	sh -c "[ \$(grep -c 'consumed usage of' '$CONS_LOG') -ge $((n0 + 1)) ]" || true
ub2=$(cons_usage bob) uc2=$(cons_usage cathy)
if [ "$ub1" = "$ub" ] && [ "$uc1" = "$uc" ] &&
   [ "$ub2" = "$ub" ] && [ "$uc2" = "$uc" ] && [ -n "$uc" ]; then
	ok "$P: nothing is charged twice: RawUsage unchanged after the next cycle, a slurmctld restart and the cycle after it (bob $ub2, cathy $uc2)"
else
	not_ok "$P: nothing is charged twice: RawUsage unchanged after the next cycle, a slurmctld restart and the cycle after it" \
		"bob $ub -> $ub1 -> $ub2, cathy $uc -> $uc1 -> $uc2"
fi
# 5. (first half) dedicated at reconfigure; bob's burner charged at a
# cycle, cancelled right after it; cathy's runs on across the switch.
n0=$(grep -c 'PriorityParameters' "$CONS_LOG")
"$TS_CLUSTER" conf "PriorityParameters=usage_metric=dedicated" &&
	scontrol reconfigure >/dev/null 2>&1
wait_for 30 "slurmctld to take usage_metric=dedicated" \
	sh -c "[ \$(grep -c 'PriorityParameters' '$CONS_LOG') -gt $n0 ]" || true
sw_b=$(cons_burn bob 240)
sw_c=$(cons_burn cathy 100)
sw_u0=$(cons_usage bob)
wait_for 60 "the dedicated jobs to run" ts_jobs_running "$sw_b" "$sw_c" || true
n0=$(grep -c 'state committed' "$CONS_LOG")
wait_for 75 "a dedicated cycle while they run" cons_cycle_after "$n0" || true
scancel "$sw_b"
wait_for 30 "bob's job to end" sh -c "! squeue -h -j $sw_b -o %i | grep -q ." || true
sw_ub=$(cons_usage bob)
sw_running=$(ts_job_state "$sw_c")
sw_line=$(wc -l <"$CONS_LOG")

# 4. The same with usage windows (usage_window=1h, usage_decay 1: RawUsage
# is the windows' sum), for suzy (sleeps) and scott (burns).  This
# reconfigure is step 5's switch from dedicated to consumed.
"$TS_CLUSTER" conf "PriorityParameters=usage_metric=consumed,usage_window=1h" &&
	scontrol reconfigure >/dev/null 2>&1
sw_t=$(date +%s)
wait_for 90 "slurmctld to take usage_window=1h" \
	grep -qF "in force: usage_window=01:00:00,usage_depth=8,usage_decay=1,usage_metric=consumed" "$CONS_LOG" || true
sleeper=$(cons_sleep suzy)
burner=$(cons_burn scott)
wait_for 60 "both jobs to run" ts_jobs_running "$sleeper" "$burner" || true
wait_for 150 "both jobs to complete in sacct" cons_jobs_done "$sleeper" "$burner" || true
tb=$(cons_totalcpu "$sleeper") tc=$(cons_totalcpu "$burner")
wait_for 200 "scott's consumed usage to be charged" cons_charged scott || true
ub=$(cons_usage suzy) uc=$(cons_usage scott)
diag "$P: usage windows: sleeping job $sleeper: TotalCPU ${tb}s, suzy's RawUsage $ub; burning job $burner: TotalCPU ${tc}s, scott's RawUsage $uc"
if cons_close "$uc" "$tc" && cons_close "$ub" "$tb" &&
   awk -v b="$ub" -v c="$uc" 'BEGIN { exit !(c >= 5 && b <= 0.1 * c) }'; then
	ok "$P: with usage windows too, RawUsage is TotalCPU (suzy $ub vs ${tb}s, scott $uc vs ${tc}s)"
else
	not_ok "$P: with usage windows too, RawUsage is TotalCPU" \
		"suzy $ub vs ${tb}s, scott $uc vs ${tc}s"
fi

# 5. (second half) the consumed cycles whose spans hold both ends have
# run (skipping both jobs, logged); bob's RawUsage is what the dedicated
# cycle charged, and no TotalCPU of either job was charged.
wait_for 150 "the consumed cycles over both jobs' ends" \
	cons_dedicated_after "$sw_line" 2 || true
sw_ub2=$(cons_usage bob)
tb=$(cons_totalcpu "$sw_b") tc=$(cons_totalcpu "$sw_c")
sw_tc=$(tail -n "+$((sw_line + 1))" "$CONS_LOG" |
	grep -E "job ($sw_b|$sw_c) ended [0-9]+: TotalCPU" | head -n 2)
if cons_dedicated_after "$sw_line" 2 && [ -z "$sw_tc" ] &&
   [ "$sw_running" = RUNNING ] &&
   awk -v a="$sw_ub" -v b="$sw_ub2" -v z="$sw_u0" 'BEGIN {
	d = b - a; if (d < 0) d = -d; exit !(a > z && d <= 1) }'; then
	ok "$P: a switch from dedicated to consumed charges each job once, by the metric in force at its start: bob's job, charged dedicated at a cycle and cancelled before the switch, keeps RawUsage $sw_ub -> $sw_ub2 (its TotalCPU ${tb}s not added), cathy's, running across it, is not charged its TotalCPU ${tc}s either"
else
	not_ok "$P: a switch from dedicated to consumed charges each job once, by the metric in force at its start" \
		"bob $sw_u0 -> $sw_ub (dedicated cycle) -> $sw_ub2 (TotalCPU ${tb}s), cathy's job $sw_running at the switch (TotalCPU ${tc}s)" \
		"consumed charges: ${sw_tc:-none}" \
		"$(tail -n "+$((sw_line + 1))" "$CONS_LOG" | grep -F 'consumed usage of' | head -n 4)"
fi
"$TS_CLUSTER" down >/dev/null 2>&1
[ "${TAP_FAILED:-0}" -eq 0 ]
