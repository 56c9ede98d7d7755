# SPDX-License-Identifier: GPL-2.0-or-later
# scenario_caps_paths.sh - scenario (i), priority/treeshare only (issue
# 20): the ways into a start that scenario (g) does not take, under
# "account group2 fscap=1%" on seed 000's tree with (a)'s usage, on idle
# nodes:
#
#  1. requeue: two jobs of suzy (group2) run before the cap is set.
#     Slurm makes a requeued job wait cred_expire + 1 s (31 s in the
#     lab; reason BeginTime, its EligibleTime), so a check that it
#     pends proves nothing before that time: after it, a job of bob
#     makes the scheduler run, and the requeued job must not start.
#     The first is requeued right after the cycle that set the cap and
#     must not start in that pass, before the next cycle (Slurm before
#     25.05 does not ask the plugin at requeue: the plugin's watch passes
#     between cycles, every cred_expire / 2 s while a cap is reached,
#     hold it);
#     the second is requeued ~15 s before a cycle, which must hold it
#     (Priority=0, the cap's reason) before its EligibleTime; it must not
#     start in the pass after that time and still pends two cycles after
#     the requeue;
#  2. salloc: suzy's salloc --no-shell waits, its job pending with the
#     cap's reason, and is granted no allocation for two cycles; salloc
#     -I is refused;
#  3. account change: a cap-held job of suzy moved to group1 (scontrol
#     update Account=group1; suzy gets a group1 association for it)
#     starts within two cycles with no other command on it;
#  4. array: suzy's cap-held job array (--array=1-3, one pending record)
#     gets one task released by an operator (scontrol release <id>_1):
#     that task runs, and the array's other tasks, exempt with it (one
#     key, the array job id), get their priority back at the next pass
#     and run too, with no command on them (issue 31: they stayed held
#     with a frozen reason, the pass returning at the exempt key).
# Without the feature every check fails: the nodes are idle, so each job
# and allocation would start at once (the requeued one once eligible),
# and without the release of a moved job it would stay held.
# Scenario (n), scenario_caps_paths user (issue 27), takes the same
# steps under "user suzy@* fscap=0%", a cap on suzy's Maui user
# credential (her usage in every account; 0 % caps at once), every reason
# "FairshareCap:user:suzy=...": step 3's job moved to group1 must then
# still wait two cycles on, the cap following suzy into that account.
#
# Sourced by run-scenarios.sh after scenario_caps.sh (its caps_*
# helpers).  Leaves the cluster as it found it: no PriorityParameters, no
# running job, no suzy@group1.

# caps_epoch_of TIME - a Slurm timestamp (2026-11-26T22:45:37, as
# scontrol show job and slurmctld.log print them) in epoch seconds.
caps_epoch_of()
{
	[ -n "$1" ] && date -d "$1" +%s
}

# caps_job_time JOBID KEY - the job's KEY (EligibleTime, StartTime) in
# scontrol show job, in epoch seconds; nothing when it has none.
caps_job_time()
{
	caps_epoch_of "$(scontrol show job "$1" 2>/dev/null |
		sed -n "s/.*[[:space:]]$2=\([0-9T:-]*\).*/\1/p" | head -n 1)"
}

# caps_eligible_since JOBID EPOCH - the job's EligibleTime is after
# EPOCH (a requeue sets it); CAPS_EL holds it (epoch seconds).
caps_eligible_since()
{
	CAPS_EL=$(caps_job_time "$1" EligibleTime)
	if [ -n "$CAPS_EL" ] && [ "$CAPS_EL" -gt "$2" ]; then
		return 0
	fi
	CAPS_EL=
	return 1
}

# caps_requeue_eligible JOBID EPOCH ERRFILE - wait for the job requeued
# at EPOCH to get its EligibleTime (CAPS_EL) and for that time to pass;
# a not_ok line when it does not.
caps_requeue_eligible()
{
	CAPS_EL=
	if wait_for 60 "job $1's EligibleTime after its requeue" \
		caps_eligible_since "$1" "$2" 2>>"$3" &&
	   wait_for 90 "job $1's EligibleTime to pass" caps_now_past "$CAPS_EL" \
		2>>"$3"; then
		return 0
	fi
	not_ok "$P: fscap: suzy's requeued job $1 gets an EligibleTime after the requeue that passes within 90s" \
		"EligibleTime epoch '$CAPS_EL', requeued at $2" "$(cat "$3")" \
		"$(scontrol show job "$1" 2>&1 | grep -E 'Priority|Reason|Time=|Restarts')"
	return 1
}

# caps_cycle_epochs_in - the epoch seconds of the fscap evaluations (one
# a decay cycle) in the slurmctld.log lines on stdin.
caps_cycle_epochs_in()
{
	grep -E "$CAPS_CYCLE_RE" | sed -n 's/^\[\([^].]*\)[.0-9]*\] .*/\1/p' |
		while read -r t; do caps_epoch_of "$t"; done
}

# caps_cycle_epochs LINE - those logged after line LINE of slurmctld.log.
caps_cycle_epochs()
{
	tail -n "+$(($1 + 1))" "$CAPS_LOG" | caps_cycle_epochs_in
}

# caps_cycles_in LINE FROM TO - cycles logged after LINE at epoch seconds
# in (FROM, TO].
caps_cycles_in()
{
	caps_cycle_epochs "$1" | awk -v a="$2" -v b="$3" '$1 > a && $1 <= b' |
		grep -c .
}

# caps_cycles_after LINE EPOCH N - at least N cycles after LINE began
# after EPOCH.
caps_cycles_after()
{
	[ "$(caps_cycles_in "$1" "$2" 9999999999)" -ge "$3" ]
}

# caps_now_past EPOCH - the clock is past EPOCH.
caps_now_past()
{
	[ "$(date +%s)" -gt "$1" ]
}

# caps_salloc_job NAME - the id of suzy's job named NAME (squeue).
caps_salloc_job()
{
	squeue -h -u suzy -n "$1" -o %i 2>/dev/null | head -n 1
}

# caps_has_salloc_job NAME - suzy has a job named NAME.
caps_has_salloc_job()
{
	[ -n "$(caps_salloc_job "$1")" ]
}

# caps_array_running JOBID N - N tasks of array JOBID run, none pends.
caps_array_running()
{
	[ "$(squeue -h -j "$1" -t R -o %i 2>/dev/null | grep -c .)" -eq "$2" ] &&
		caps_none_pending "$1"
}

scenario_caps_paths()
{
	local snap=$TS_CLUSTER_DIR/snap rq rq2 moved poke sa sa_pid sa_out line
	local t_rq t_rq2 c0 t_move st out r n name arr t_arr
	local cap="account group2 fscap=1%" key=group2 pct=1 F=fscap
	local -a all=()

	if [ "${1:-}" = user ]; then
		cap="user suzy@* fscap=0%" key=user:suzy pct=0
		F="fscap on suzy's user credential"
	fi

	[ "$PLUGIN" = priority/treeshare ] || return 0
	if ! wait_for 30 "no job to run" ts_no_job_running; then
		not_ok "$P: caps paths scenario starts with no job running" "$(squeue 2>&1)"
		return 1
	fi

	# suzy's jobs run before the cap; suzy@group1 for step 3
	rq=$(ts_submit suzy -p lab -c 1 --wrap 'sleep 600')
	rq2=$(ts_submit suzy -p lab -c 1 --wrap 'sleep 600')
	all+=("$rq" "$rq2")
	sacctmgr -i -Q add user suzy account=group1 fairshare=1 >/dev/null
	if ! wait_for 30 "suzy's jobs to run" ts_jobs_running "$rq" "$rq2" \
		2>"$snap/caps-paths.err" ||
	   ! wait_for 30 "suzy's group1 association" \
		ts_tree_visible "group1|suzy" 0 2>>"$snap/caps-paths.err" ||
	   ! caps_set "$cap" 2>>"$snap/caps-paths.err"; then
		not_ok "$P: $F: suzy's job runs, suzy@group1 exists and a cycle evaluates $cap" \
			"$(cat "$snap/caps-paths.err")" "$(squeue 2>&1)" "$(tail -n 20 "$CAPS_LOG")"
		scancel "${all[@]}"
		wait_for 30 "suzy's job to end" ts_no_job_running
		sacctmgr -i -Q delete user name=suzy account=group1 >/dev/null
		return 1
	fi
	line=$(wc -l <"$CAPS_LOG")

	# Right after a cycle: the next comes after the requeued job's
	# EligibleTime, the worst case for the requeue.
	t_rq=$(date +%s)
	scontrol requeue "$rq" >"$snap/caps-requeue.out" 2>&1
	moved=$(ts_submit suzy -p lab -c 1 --wrap 'sleep 300')
	all+=("$moved")
	sa_out=$snap/caps-salloc.out
	(cd /tmp && exec timeout 300 runuser -u suzy -- salloc --no-shell \
		-J ts-salloc -p lab -n 1 </dev/null >"$sa_out" 2>&1) &
	sa_pid=$!

	# --- 3. account change (its cycles run beside the others') --------
	t_move=
	if caps_held_by_cap "$moved" "$key" "$pct" &&
	   scontrol update jobid="$moved" Account=group1 >"$snap/caps-move.out" 2>&1; then
		t_move=$(date +%s)
	else
		not_ok "$P: $F: suzy's cap-held job moves to group1 (scontrol update Account=group1)" \
			"$(cat "$snap/caps-move.out" 2>/dev/null)" \
			"state $(ts_job_state "$moved"), reason $(caps_reason "$moved")"
	fi

	# --- 4. an array: one task released, the others exempt ---------
	arr=$(ts_submit suzy -p lab -c 1 --array=1-3 --wrap 'sleep 300')
	all+=("$arr")
	t_arr=
	if caps_held_by_cap "$arr" "$key" "$pct" &&
	   scontrol release "${arr}_1" >"$snap/caps-array.out" 2>&1; then
		t_arr=$(date +%s)
	else
		not_ok "$P: $F: suzy's cap-held array waits with the cap's reason and an operator releases its task 1 (scontrol release ${arr}_1)" \
			"$(cat "$snap/caps-array.out" 2>/dev/null)" \
			"$(squeue -j "$arr" -o '%i %T %Q %r' 2>&1)"
	fi

	# --- 2. salloc -I refused, salloc without it waits ---------------
	out=$(cd /tmp && timeout 30 runuser -u suzy -- salloc -I --no-shell \
		-J ts-salloc-i -p lab -n 1 </dev/null 2>&1)
	r=$?
	if [ "$r" -ne 0 ] && [ "$r" -ne 124 ] && grep -qi 'immediate\|priority' <<<"$out"; then
		ok "$P: $F: salloc -I of a capped user is refused (exit $r: $(grep -i 'immediate\|priority' <<<"$out" | head -n 1))"
	else
		not_ok "$P: $F: salloc -I of a capped user is refused" "exit $r" "$out"
		sa=$(caps_salloc_job ts-salloc-i)
		[ -n "$sa" ] && all+=("$sa")
	fi
	sa=
	if wait_for 30 "suzy's salloc job" caps_has_salloc_job ts-salloc \
		2>"$snap/caps-salloc.err"; then
		sa=$(caps_salloc_job ts-salloc)
		all+=("$sa")
	fi

	# --- 1. the requeued jobs ----------------------------------------
	# Once rq's EligibleTime has passed, a job of bob makes the
	# scheduler run before the next cycle: rq must not start in it.
	# Slurm before 25.05 does not ask the plugin for a requeued job's
	# priority (25.05's batch_requeue_fini does): there a watch pass
	# between cycles must hold it before its EligibleTime.
	if caps_requeue_eligible "$rq" "$t_rq" "$snap/caps-rq.err"; then
		poke=$(ts_submit bob -p lab -c 1 --wrap 'sleep 300')
		all+=("$poke")
		wait_for 30 "bob's job to run" ts_jobs_running "$poke" 2>>"$snap/caps-rq.err"
		n=$(caps_cycles_in "$line" "$t_rq" "$(date +%s)")
		name="$F: suzy's job requeued while $key is capped does not start once eligible, when a scheduler pass starts bob's job before the next cycle"
		if ts_jobs_running "$poke" && [ "$n" = 0 ] &&
		   [ "$(ts_job_state "$rq")" = PENDING ]; then
			ok "$P: $name (EligibleTime $((CAPS_EL - t_rq))s after the requeue, bob's job started $(($(caps_job_time "$poke" StartTime) - CAPS_EL))s after it; reason $(caps_reason "$rq"), priority $(caps_squeue "$rq" %Q))"
		else
			not_ok "$P: $name" \
				"EligibleTime $((CAPS_EL - t_rq))s after the requeue, $n cycle(s) since the requeue; job $rq: $(ts_job_state "$rq"), bob's $(ts_job_state "$poke")" \
				"$(cat "$snap/caps-requeue.out" "$snap/caps-rq.err")" \
				"$(squeue -o '%i %u %a %T %Q %r %S' 2>&1)"
		fi
	fi

	# rq2 requeued ~15 s before the next cycle, which must hold it
	# before its EligibleTime; then a scheduler pass after that time
	# (another job of bob) must leave it pending, and it still pends
	# with the reason two cycles after its requeue.
	c0=$(head -n "$line" "$CAPS_LOG" | caps_cycle_epochs_in | tail -n 1)
	wait_for 60 "15s before the next cycle" caps_now_past "$((c0 + 44))"
	t_rq2=$(date +%s)
	scontrol requeue "$rq2" >>"$snap/caps-requeue.out" 2>&1
	if caps_requeue_eligible "$rq2" "$t_rq2" "$snap/caps-rq2.err"; then
		poke=$(ts_submit bob -p lab -c 1 --wrap 'sleep 300')
		all+=("$poke")
		wait_for 30 "bob's job to run" ts_jobs_running "$poke" 2>>"$snap/caps-rq2.err"
	fi
	n=$(caps_cycles_in "$line" "$t_rq2" "${CAPS_EL:-0}")
	if [ -n "$CAPS_EL" ] && [ "$n" -ge 1 ] && ts_jobs_running "$poke" &&
	   wait_for 150 "two cycles after the second requeue" \
		caps_cycles_after "$line" "$t_rq2" 2 2>>"$snap/caps-rq2.err" &&
	   caps_held_by_cap "$rq2" "$key" "$pct"; then
		ok "$P: $F: suzy's job requeued $((c0 + 60 - t_rq2))s before a cycle is cap-held by it, does not start when a scheduler pass starts bob's job after its EligibleTime, and two cycles after the requeue pends with Priority=0 and the reason '$(caps_reason "$rq2")' on idle nodes ($(scontrol show job "$rq2" | grep -o 'Restarts=[0-9]*'))"
	else
		not_ok "$P: $F: suzy's job requeued before a cycle is cap-held by it, does not start when a scheduler pass starts bob's job after its EligibleTime, and two cycles after the requeue pends with Priority=0 and the cap's reason on idle nodes" \
			"requeued at $t_rq2, EligibleTime '${CAPS_EL:-}', $n cycle(s) between; cycles at: $(caps_cycle_epochs "$line" | xargs)" \
			"$(cat "$snap/caps-rq2.err")" "$(squeue -o '%i %u %a %T %Q %r %S' 2>&1)" \
			"$(scontrol show job "$rq2" 2>&1 | grep -E 'Priority|Reason|Time=|Restarts')"
	fi

	# --- 2b. the salloc still waits, two cycles on --------------------
	n=$(caps_cycles_in "$line" "$t_rq" "$(date +%s)")
	if [ -n "$sa" ] && [ "$n" -ge 2 ] &&
	   caps_held_by_cap "$sa" "$key" "$pct" && kill -0 "$sa_pid" 2>/dev/null &&
	   ! grep -q 'Granted job allocation' "$sa_out"; then
		ok "$P: $F: suzy's salloc --no-shell waits with the cap's reason ($(caps_reason "$sa")), no allocation granted $n cycles on ($(head -n 1 "$sa_out"))"
	else
		not_ok "$P: $F: suzy's salloc --no-shell waits with the cap's reason, no allocation granted two cycles on" \
			"salloc job '$sa', $n cycle(s)" \
			"$(cat "$snap/caps-salloc.err" "$sa_out")" \
			"$(squeue -o '%i %u %a %j %T %Q %r' 2>&1)"
	fi

	# --- 3b. the moved job has started (an account's cap), or still
	# waits (suzy's user credential: its cap follows her into group1)
	if [ -n "$t_move" ] && [ "$key" = user:suzy ]; then
		if wait_for 150 "two cycles after the move" \
			caps_cycles_after "$line" "$t_move" 2 2>>"$snap/caps-move.out" &&
		   caps_held_by_cap "$moved" "$key" "$pct"; then
			ok "$P: $F: suzy's cap-held job moved to group1 (scontrol update Account=group1) still waits two cycles on, with the reason '$(caps_reason "$moved")' (account $(caps_squeue "$moved" %a)): Maui's user is one credential in every account"
		else
			not_ok "$P: $F: suzy's cap-held job moved to group1 still waits two cycles on with the user credential's reason" \
				"$(cat "$snap/caps-move.out")" \
				"$(squeue -o '%i %u %a %T %Q %r' 2>&1)"
		fi
	elif [ -n "$t_move" ]; then
		st=
		wait_for 150 "the moved job to run" caps_running "$moved" \
			2>>"$snap/caps-move.out" && st=$(caps_job_time "$moved" StartTime)
		n=$(caps_cycles_in "$line" "$t_move" "${st:-0}")
		if [ -n "$st" ] && [ "$n" -le 2 ]; then
			ok "$P: $F: suzy's cap-held job moved to group1 (scontrol update Account=group1) starts $((st - t_move))s after the move, after $n cycle(s), with no other command (account $(caps_squeue "$moved" %a))"
		else
			not_ok "$P: $F: suzy's cap-held job moved to group1 (scontrol update Account=group1) starts within two cycles with no other command" \
				"$(cat "$snap/caps-move.out")" "start '$st', $n cycle(s) since the move" \
				"$(squeue -o '%i %u %a %T %Q %r' 2>&1)"
		fi
	fi

	# --- 4b. every task of the array runs -----------------------------
	if [ -n "$t_arr" ]; then
		n=
		if wait_for 90 "every task of the array to run" \
			caps_array_running "$arr" 3 2>>"$snap/caps-array.out"; then
			st=$(caps_job_time "${arr}_3" StartTime)
			n=$(caps_cycles_in "$line" "$t_arr" "${st:-0}")
			ok "$P: $F: after an operator released task 1 of suzy's cap-held array, its tasks 2 and 3 (exempt with it) run too, with no command on them (task 3 started $((${st:-0} - t_arr))s and $n cycle(s) after the release; $(grep -c "JobId=${arr}_.*released: exempt from fscap: an operator released a task of its array" "$CAPS_LOG") record(s) released by a pass)"
		else
			not_ok "$P: $F: after an operator released task 1 of suzy's cap-held array, its tasks 2 and 3 (exempt with it) run too, with no command on them" \
				"$(cat "$snap/caps-array.out")" \
				"$(squeue -j "$arr" -o '%i %T %Q %r' 2>&1)" \
				"$(grep -F "$arr" "$CAPS_LOG" | tail -n 8)"
		fi
	fi

	# --- back to the lab's configuration -------------------------------
	scancel "${all[@]}"
	wait "$sa_pid" 2>/dev/null
	# the jobs end before the reconfigure: 25.05's slurmctld unloads
	# accounting_storage/slurmdbd there before its RPC threads stop, and
	# the step completions of jobs just cancelled then call into it
	# (cluster-lab(7), FACTS)
	wait_for 30 "no job to run" ts_no_job_running ||
		not_ok "$P: scancel ends the caps paths scenario's jobs within 30s" "$(squeue 2>&1)"
	sed -i '/^[[:space:]]*PriorityParameters[[:space:]]*=/Id' "$SLURM_CONF"
	scontrol reconfigure >>"$snap/caps-reconf.out" 2>&1
	# the caps go at the next cycle (priority_treeshare(5)): until then a
	# new job would still be held, (a)'s pending ones are
	wait_for 150 "a cycle to release (a)'s pending jobs" \
		caps_prio_above_zero "${PEND[@]}" 2>>"$snap/caps-reconf.out" ||
		not_ok "$P: $F: the next cycle after the reconfigure without fs_targets gives (a)'s pending jobs a priority again" \
			"$(squeue -o '%i %u %a %T %Q %r' 2>&1)"
	sacctmgr -i -Q delete user name=suzy account=group1 >/dev/null
	rm -f "$CAPS_FILE"
}
