# SPDX-License-Identifier: GPL-2.0-or-later
# scenario_caps.sh - scenario (g), priority/treeshare's run only (issue
# 20): Maui feasibility caps (fscap= in the fs_targets file) on seed
# 000's tree, whose usage scenario (a) made (scott's group2 far ahead):
#
#  1. "account group2 fscap=1%" at reconfigure: a new job of suzy (group2)
#     stays pending, Priority=0, squeue %r and scontrol show job naming
#     the cap and the figures ("FairshareCap:group2=N%>=1%"), while bob's
#     (group1, uncapped sibling) runs at once on the idle nodes;
#     suzy's user-held job (sbatch -H) keeps its JobHeldUser;
#     a job array of suzy waits as one record with the reason; a het job
#     of cathy whose second component runs in group2 (cathy gets a
#     group2 association for it) waits whole, every component with
#     Priority=0 and group2's reason (held together), and then a new job
#     of bob runs at once (a het leader left with its priority would be
#     tried first and could leave it pending with reason Priority);
#  2. srun -I of a capped user is refused;
#  3. an operator's scontrol release of a cap-held job lets it run;
#     another cap-held job of suzy, which cannot start before its
#     --begin time 20 minutes on, released too: exempt, it gets a
#     priority back and waits for its begin time only;
#  4. two decay cycles later suzy's job still waits with the reason;
#     slurmctld restarted while capped: after its first cycle the holds
#     stand (adopted from the job records by their reason text; step 5's
#     release needs that adoption: the plugin releases only its own),
#     and the released --begin job is still exempt (the exempt set is
#     restored from treeshare_state; without that the first cycle
#     cap-holds it again);
#  5. the cap raised past the usage (fscap=100%) at reconfigure: the
#     held job, the array's tasks and the het job start within two
#     cycles with no command on them;
#     the user-held job stays held;
#  6. the cap back, then PriorityParameters without fs_targets at
#     reconfigure: a job of suzy submitted at once is not held (its
#     InitPrio in slurmctld.log is not 0: no cap is in force from the
#     reconfigure on, not only from the next cycle), and scenario (a)'s
#     pending group2 jobs, held again by the cap, get a priority back
#     within two cycles.
# Without the feature every "stays pending" check fails: the lab's nodes
# are idle, so every job would start at once.
#
# Sourced by run-scenarios.sh ($P, PEND from scenario (a)).  Leaves the
# cluster as it found it: no PriorityParameters, no running job.

CAPS_LOG=$TS_CLUSTER_DIR/log/slurmctld.log
CAPS_FILE=$TS_CLUSTER_DIR/etc/caps.targets

# One a cycle that evaluates caps: the tree's (account and user
# NAME[@ACCOUNT] caps) or, with credentials' caps only, the credentials'
# table (a file with both would count twice; no scenario has one).
CAPS_CYCLE_RE='fscap: [0-9]* of [0-9]* associations over their cap|fair share per credential: .* over their fscap'

# caps_cycles_since LINE - fscap evaluations (one a decay cycle) logged
# after line LINE of slurmctld.log.
caps_cycles_since()
{
	tail -n "+$(($1 + 1))" "$CAPS_LOG" | grep -Ec "$CAPS_CYCLE_RE"
}

# caps_cycles_at_least LINE N - at least N cycles evaluated caps since LINE.
caps_cycles_at_least()
{
	[ "$(caps_cycles_since "$1")" -ge "$2" ]
}

# caps_squeue JOBID FORMAT - squeue's FORMAT of the job; a het job's
# component JOB+N picked from its job's lines (squeue -j shows them all).
caps_squeue()
{
	if [[ "$1" == *+* ]]; then
		squeue -h -j "${1%+*}" -o "%i|$2" 2>/dev/null |
			awk -F'|' -v j="$1" '$1 == j { print $2; exit }'
	else
		squeue -h -j "$1" -o "$2" 2>/dev/null
	fi
}

# caps_reason JOBID - squeue's %r of the job.
caps_reason()
{
	caps_squeue "$1" %r
}

# caps_held_by_cap JOBID ACCOUNT PERCENT - the job is pending with
# Priority=0 and the cap's reason in squeue %r and scontrol show job.
caps_held_by_cap()
{
	local r show re="^FairshareCap:$2=[0-9]+\\.[0-9]{2}%>=$3%\$"
	r=$(caps_reason "$1")
	show=$(scontrol show job "$1" 2>/dev/null)
	[ "$(caps_squeue "$1" %T)" = PENDING ] &&
		[[ "$r" =~ $re ]] &&
		grep -qF "Reason=$r " <<<"$show" &&
		grep -qw 'Priority=0' <<<"$show"
}

# caps_none_pending JOBID... - no task or component of them is pending.
caps_none_pending()
{
	local j
	for j in "$@"; do
		[ -z "$(squeue -h -t PD -j "$j" -o %i 2>/dev/null)" ] || return 1
	done
}

# caps_het_waits JOBID - every component pending and held with group2's
# cap reason: the group2 one (+1) and the group1 one (+0) with it.
caps_het_waits()
{
	local states
	states=$(squeue -h -j "$1" -o %T 2>/dev/null | sort -u)
	[ "$states" = PENDING ] && caps_held_by_cap "$1+1" group2 1 &&
		caps_held_by_cap "$1+0" group2 1
}

# caps_user_held JOBID - pending with the user's hold, not the cap's.
caps_user_held()
{
	[ "$(ts_job_state "$1")" = PENDING ] &&
		[ "$(caps_reason "$1")" = JobHeldUser ]
}

# caps_exempt JOBID - pending with a priority and without the cap's
# reason (an operator's release exempts it).
caps_exempt()
{
	local p
	p=$(caps_squeue "$1" %Q)
	[ "$(caps_squeue "$1" %T)" = PENDING ] &&
		[ -n "$p" ] && [ "$p" -gt 0 ] &&
		[[ "$(caps_reason "$1")" != FairshareCap:* ]]
}

# caps_prio_above_zero JOBID... - every job has a priority > 0.
caps_prio_above_zero()
{
	local j p
	for j in "$@"; do
		p=$(squeue -h -j "$j" -o %Q 2>/dev/null)
		[ -n "$p" ] && [ "$p" -gt 0 ] || return 1
	done
}

# caps_set TEXT [PARAMS] - the targets file and PriorityParameters naming
# it (and PARAMS, more key=value,...), at reconfigure; waits for the
# first cycle that evaluates the caps.
caps_set()
{
	local line
	printf '%s\n' "$1" >"$CAPS_FILE"
	line=$(wc -l <"$CAPS_LOG")
	CAPS_T0=$(date +%s)
	"$TS_CLUSTER" conf "PriorityParameters=fs_targets=$CAPS_FILE${2:+,$2}"
	scontrol reconfigure >>"$TS_CLUSTER_DIR/snap/caps-reconf.out" 2>&1
	wait_for 150 "a cycle evaluating the caps" caps_cycles_at_least "$line" 1
}

scenario_caps()
{
	local snap=$TS_CLUSTER_DIR/snap capped free uheld over line r out
	local array het free2 later script=$TS_CLUSTER_DIR/jobs/caps-het.sh
	local -a all=()

	[ "$PLUGIN" = priority/treeshare ] || return 0
	if ! wait_for 30 "no job to run" ts_no_job_running; then
		not_ok "$P: caps scenario starts with no job running" "$(squeue 2>&1)"
		return 1
	fi

	# --- 1. capped and uncapped siblings ------------------------------
	if ! caps_set "account group2 fscap=1%" 2>"$snap/caps-set.err"; then
		not_ok "$P: fscap: a cycle evaluates account group2 fscap=1% after reconfigure" \
			"$(cat "$snap/caps-set.err")" "$(tail -n 20 "$CAPS_LOG")"
		return 1
	fi
	line=$(wc -l <"$CAPS_LOG")
	capped=$(ts_submit suzy -p lab -c 1 --wrap 'sleep 300')
	free=$(ts_submit bob -p lab -c 1 --wrap 'sleep 300')
	uheld=$(ts_submit suzy -p lab -c 1 -H --wrap 'sleep 300')
	over=$(ts_submit suzy -p lab -c 1 --wrap 'sleep 300')
	later=$(ts_submit suzy -p lab -c 1 --begin=now+20minutes --wrap 'sleep 300')
	array=$(ts_submit suzy -p lab -c 1 --array=1-3 --wrap 'sleep 300')
	all=("$capped" "$free" "$uheld" "$over" "$later" "$array")
	if wait_for 30 "bob's job to run" ts_jobs_running "$free" 2>"$snap/caps-1.err" &&
	   caps_held_by_cap "$capped" group2 1; then
		ok "$P: fscap: suzy's job (group2 at its 1% cap) pends with Priority=0 and reason '$(caps_reason "$capped")' in squeue and scontrol, bob's (group1) runs at once (${WAITED}s)"
	else
		not_ok "$P: fscap: suzy's job (group2 at its 1% cap) pends with Priority=0 and the cap's reason in squeue and scontrol, bob's (group1) runs at once" \
			"$(cat "$snap/caps-1.err")" "$(squeue -o '%i %u %a %T %Q %r' 2>&1)" \
			"$(scontrol show job "$capped" 2>&1 | grep -E 'Priority|Reason')"
	fi
	# The het job after bob's job runs: its components are linked only
	# after submission, so its group1 one keeps its priority until the
	# next set pass or cycle, and a main scheduler pass that tries it
	# first could leave bob's job pending (reason Priority) meanwhile.
	printf '#!/bin/sh\nsleep 300\n' >"$script"
	sacctmgr -i -Q add user cathy account=group2 fairshare=1 >/dev/null
	wait_for 30 "cathy's group2 association" ts_tree_visible "group2|cathy" 0 ||
		true
	het=$(ts_submit cathy -p lab -c 1 -A group1 : -p lab -c 1 -A group2 "$script")
	all+=("$het")
	if caps_held_by_cap "$array" group2 1; then
		ok "$P: fscap: suzy's job array waits as one pending record with the cap's reason"
	else
		not_ok "$P: fscap: suzy's job array waits as one pending record with the cap's reason" \
			"$(squeue -j "$array" -o '%i %T %Q %r' 2>&1)"
	fi
	if [ -n "$het" ] &&
	   wait_for 90 "the het job to wait with the cap's reason" caps_het_waits "$het"; then
		ok "$P: fscap: a het job with one component in group2 waits whole, both components held (Priority=0) with the cap's reason $(caps_reason "$het+0") (${WAITED}s)"
	else
		not_ok "$P: fscap: a het job with one component in group2 waits whole, both components held (Priority=0) with the cap's reason" \
			"het job '$het'" "$(squeue -j "${het:-0}" -o '%i %a %T %Q %r' 2>&1)"
	fi
	free2=$(ts_submit bob -p lab -c 1 --wrap 'sleep 300')
	all+=("$free2")
	if wait_for 30 "bob's second job to run" ts_jobs_running "$free2" 2>"$snap/caps-1b.err"; then
		ok "$P: fscap: beside the held het job, a new job of bob (group1) runs at once (${WAITED}s)"
	else
		not_ok "$P: fscap: beside the held het job, a new job of bob (group1) runs at once" \
			"$(cat "$snap/caps-1b.err")" "$(squeue -o '%i %u %a %T %Q %r' 2>&1)"
	fi
	if caps_user_held "$uheld"; then
		ok "$P: fscap: suzy's user-held job (sbatch -H) keeps the reason JobHeldUser under the cap"
	else
		not_ok "$P: fscap: suzy's user-held job (sbatch -H) keeps the reason JobHeldUser under the cap" \
			"reason: $(caps_reason "$uheld")"
	fi

	# --- 2. srun -I refused -------------------------------------------
	out=$(cd /tmp && timeout 30 runuser -u suzy -- srun -I -p lab -n 1 true 2>&1)
	r=$?
	if [ "$r" -ne 0 ] && [ "$r" -ne 124 ] && grep -qi 'immediate\|priority' <<<"$out"; then
		ok "$P: fscap: srun -I of a capped user is refused (exit $r: $(head -n 1 <<<"$out"))"
	else
		not_ok "$P: fscap: srun -I of a capped user is refused" "exit $r" "$out"
	fi

	# --- 3. operator override -----------------------------------------
	if caps_held_by_cap "$over" group2 1 &&
	   scontrol release "$over" >"$snap/caps-release.out" 2>&1 &&
	   wait_for 90 "the released job to run" ts_jobs_running "$over"; then
		ok "$P: fscap: an operator's scontrol release of a cap-held job lets it run (${WAITED}s)"
	else
		not_ok "$P: fscap: an operator's scontrol release of a cap-held job lets it run" \
			"$(cat "$snap/caps-release.out")" "state $(ts_job_state "$over"), reason $(caps_reason "$over")"
	fi

	# the --begin job: held like the others, then released (step 4b)
	if wait_for 30 "suzy's --begin job to be cap-held" \
		caps_held_by_cap "$later" group2 1 2>"$snap/caps-later.err" &&
	   scontrol release "$later" >>"$snap/caps-later.err" 2>&1; then
		wait_for 30 "the released --begin job to get a priority" \
			caps_exempt "$later" 2>>"$snap/caps-later.err" || true
	fi

	# --- 4. still held two cycles later -------------------------------
	if wait_for 150 "two more decay cycles" caps_cycles_at_least "$line" 2 \
		2>"$snap/caps-4.err" &&
	   caps_held_by_cap "$capped" group2 1 && caps_user_held "$uheld" &&
	   caps_held_by_cap "$array" group2 1 && caps_het_waits "$het"; then
		ok "$P: fscap: two decay cycles later suzy's job still pends with the cap's reason ($(caps_reason "$capped")), the user hold still JobHeldUser"
	else
		not_ok "$P: fscap: two decay cycles later suzy's job still pends with the cap's reason, the user hold still JobHeldUser" \
			"$(cat "$snap/caps-4.err")" "$(squeue -o '%i %u %a %T %Q %r' 2>&1)"
	fi

	# --- 4b. restart while capped ---------------------------------------
	line=$(wc -l <"$CAPS_LOG")
	if "$TS_CLUSTER" restart slurmctld >"$snap/caps-restart.out" 2>&1 &&
	   wait_for 150 "a cycle after the restart" caps_cycles_at_least "$line" 1 \
		2>>"$snap/caps-restart.out" &&
	   caps_held_by_cap "$capped" group2 1 && caps_user_held "$uheld" &&
	   caps_held_by_cap "$array" group2 1; then
		ok "$P: fscap: after a slurmctld restart while capped the holds stand with the reason (${WAITED}s to the first cycle)"
	else
		not_ok "$P: fscap: after a slurmctld restart while capped the holds stand with the reason" \
			"$(cat "$snap/caps-restart.out")" "$(squeue -o '%i %u %a %T %Q %r' 2>&1)"
	fi
	if [ -n "$later" ] && caps_exempt "$later"; then
		ok "$P: fscap: an operator-released capped job that cannot start yet (--begin) stays exempt across the restart (priority $(caps_squeue "$later" %Q), reason $(caps_reason "$later"))"
	else
		not_ok "$P: fscap: an operator-released capped job that cannot start yet (--begin) stays exempt across the restart" \
			"job '$later': state $(caps_squeue "${later:-0}" %T), priority $(caps_squeue "${later:-0}" %Q), reason $(caps_reason "${later:-0}")" \
			"$(cat "$snap/caps-later.err" 2>/dev/null)" "$(grep -i 'restored\|exempt' "$CAPS_LOG" | tail -n 5)"
	fi

	# --- 5. the cap raised past the usage -----------------------------
	if caps_set "account group2 fscap=100%" 2>"$snap/caps-5.err" &&
	   wait_for 130 "the held jobs to run" \
		caps_none_pending "$capped" "$array" "$het" 2>>"$snap/caps-5.err" &&
	   [ $(($(date +%s) - CAPS_T0)) -le 150 ]; then
		ok "$P: fscap: raised past group2's usage (fscap=100%), the held job, the array's tasks and the het job start within two cycles with no command on them ($(($(date +%s) - CAPS_T0))s after the reconfigure)"
	else
		not_ok "$P: fscap: raised past group2's usage (fscap=100%), the held job, the array's tasks and the het job start within two cycles with no command on them" \
			"$(($(date +%s) - CAPS_T0))s after the reconfigure" \
			"$(cat "$snap/caps-5.err")" "$(squeue -o '%i %u %a %T %Q %r' 2>&1)"
	fi
	if caps_user_held "$uheld"; then
		ok "$P: fscap: the user-held job stays held (JobHeldUser) after the cap lifts"
	else
		not_ok "$P: fscap: the user-held job stays held (JobHeldUser) after the cap lifts" \
			"state $(ts_job_state "$uheld"), reason $(caps_reason "$uheld")"
	fi
	scancel "${all[@]}"
	wait_for 30 "the caps jobs to end" ts_no_job_running
	sacctmgr -i -Q delete user name=cathy account=group2 >/dev/null

	# --- 6. the cap removed at reconfigure ----------------------------
	if caps_set "account group2 fscap=1%" 2>"$snap/caps-6.err" &&
	   wait_for 90 "the pending group2 jobs to be cap-held" \
		caps_held_by_cap "${PEND[scott]}" group2 1 2>>"$snap/caps-6.err"; then
		sed -i '/^[[:space:]]*PriorityParameters[[:space:]]*=/Id' "$SLURM_CONF"
		scontrol reconfigure >>"$snap/caps-reconf.out" 2>&1
		caps_unheld_at_submit "$snap/caps-6.err"
		if wait_for 150 "a priority for scott's and suzy's pending jobs" \
			caps_prio_above_zero "${PEND[scott]}" "${PEND[suzy]}" 2>>"$snap/caps-6.err"; then
			ok "$P: fscap: a reconfigure without fs_targets releases the cap-held jobs at the next cycle (${WAITED}s)"
		else
			not_ok "$P: fscap: a reconfigure without fs_targets releases the cap-held jobs at the next cycle" \
				"$(cat "$snap/caps-6.err")" "$(squeue -o '%i %u %a %T %Q %r' 2>&1)"
		fi
	else
		not_ok "$P: fscap: scenario (a)'s pending group2 jobs are cap-held under fscap=1%" \
			"$(cat "$snap/caps-6.err")" "$(squeue -o '%i %u %a %T %Q %r' 2>&1)"
	fi

	# --- back to the lab's configuration -------------------------------
	sed -i '/^[[:space:]]*PriorityParameters[[:space:]]*=/Id' "$SLURM_CONF"
	scontrol reconfigure >>"$snap/caps-reconf.out" 2>&1
	wait_for 30 "no job to run" ts_no_job_running ||
		not_ok "$P: scancel ends the caps scenario's jobs within 30s" "$(squeue 2>&1)"
	rm -f "$CAPS_FILE"
}

# caps_unheld_at_submit ERRFILE - right after a reconfigure without
# fs_targets, a job of suzy (group2, over the cap just removed) gets a
# priority at its submission: slurmctld.log's InitPrio is not 0 and no
# "held: FairshareCap" line names it.  Its TAP line; the job is cancelled.
caps_unheld_at_submit()
{
	local j init
	wait_for 60 "slurmctld to answer after the reconfigure" ts_ctld_answers 2>>"$1"
	j=$(ts_submit suzy -p lab -c 1 --wrap 'sleep 300')
	# 26.05 prints "JobID=N SLUID=... InitPrio=", earlier "JobId=N InitPrio="
	wait_for 10 "job $j's submission in slurmctld.log" \
		grep -Eq "submit_batch_job: Job(Id|ID)=$j .*InitPrio=" "$CAPS_LOG" 2>>"$1"
	init=$(sed -En "s/.*submit_batch_job: Job(Id|ID)=$j .*InitPrio=([0-9]+).*/\2/p" "$CAPS_LOG" | head -n 1)
	if [ -n "$init" ] && [ "$init" -gt 0 ] &&
	   ! grep -Eq "Job(Id|ID)=$j held: FairshareCap" "$CAPS_LOG"; then
		ok "$P: fscap: a job of suzy submitted right after the reconfigure without fs_targets is not held (InitPrio=$init): the caps end with it, not at the next cycle"
	else
		not_ok "$P: fscap: a job of suzy submitted right after the reconfigure without fs_targets is not held" \
			"InitPrio '${init:-none}'" "$(grep -E "Job(Id|ID)=$j " "$CAPS_LOG" | head -n 5)" \
			"$(cat "$1")"
	fi
	scancel "$j" 2>/dev/null
}

# caps_group2_usage - group2's RawUsage in sshare (the account's row).
caps_group2_usage()
{
	ts_raw_usage | awk -F'|' '$1 == "group2" && $2 == "" { print $3; exit }'
}

# caps_running JOBID - the job is RUNNING.
caps_running()
{
	[ "$(caps_squeue "$1" %T)" = RUNNING ]
}

# scenario_caps_window - scenario (h): a window roll releases a cap-held
# job.  usage_window=60,usage_depth=2 at reconfigure puts the usage so far
# into the current one-minute window (group2 over "fscap=1%"); the cycles
# (one a minute) roll one window each, before they evaluate the caps, so
# the first cycle sees that usage as window 1 and holds suzy's job
# submitted then; the next (rarely the one after) drops it, group2's
# usage is 0 and the job starts with no command on it.
# Leaves no PriorityParameters and no job; RawUsage is then the (empty)
# window usage, so run it after every scenario that needs (a)'s usage.
scenario_caps_window()
{
	local snap=$TS_CLUSTER_DIR/snap job t0 u

	[ "$PLUGIN" = priority/treeshare ] || return 0
	if ! wait_for 30 "no job to run" ts_no_job_running ||
	   ! caps_set "account group2 fscap=1%" "usage_window=60,usage_depth=2" \
		2>"$snap/caps-window.err"; then
		not_ok "$P: fscap: a cycle evaluates group2 fscap=1% with one-minute usage windows" \
			"$(cat "$snap/caps-window.err")" "$(squeue 2>&1)" "$(tail -n 20 "$CAPS_LOG")"
		return 1
	fi
	u=$(caps_group2_usage)
	job=$(ts_submit suzy -p lab -c 1 --wrap 'sleep 300')
	t0=$(date +%s)
	if caps_held_by_cap "$job" group2 1 &&
	   wait_for 150 "the window roll to release suzy's job" \
		caps_running "$job" 2>>"$snap/caps-window.err"; then
		ok "$P: fscap: a window roll releases a cap-held job: group2 RawUsage $u -> $(caps_group2_usage) at the next window, suzy's job runs $(($(date +%s) - t0))s after it was held, with no command on it"
	else
		not_ok "$P: fscap: a window roll releases a cap-held job" \
			"group2 RawUsage $u -> $(caps_group2_usage)" "$(cat "$snap/caps-window.err")" \
			"$(squeue -o '%i %u %a %T %Q %r' 2>&1)"
	fi
	scancel "$job"
	# ended before the reconfigure (25.05: scenario_caps_paths.sh)
	wait_for 30 "no job to run" ts_no_job_running ||
		not_ok "$P: scancel ends the window scenario's job within 30s" "$(squeue 2>&1)"
	sed -i '/^[[:space:]]*PriorityParameters[[:space:]]*=/Id' "$SLURM_CONF"
	scontrol reconfigure >>"$snap/caps-reconf.out" 2>&1
	rm -f "$CAPS_FILE"
}
