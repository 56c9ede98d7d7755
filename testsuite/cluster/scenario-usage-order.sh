# SPDX-License-Identifier: GPL-2.0-or-later
# scenario-usage-order.sh - scenario (a): seed 000's tree (PBS PP-718:
# group1 40 = bob 50 + cathy 50, group2 60 = suzy 60 + scott 40) loaded
# with sacctmgr; real jobs accrue usage across a PriorityCalcPeriod;
# sprio orders pending jobs as sshare's FairShare ranks their users.
#
# Sourced by run-scenarios.sh with the cluster up, lib.sh loaded and $P
# (the plugin label) set.  Leaves for the later scenarios: usage in the
# tree, no running job, one pending job per user in PEND[user].

# CPUs per workload job: usage grows by CPUs x seconds, so the users'
# RawUsage must rank scott > bob > cathy, and suzy runs nothing.
declare -A WORK_CPUS=([bob]=4 [cathy]=1 [scott]=8)
declare -A PEND=() RUN=()
TREE=$TS_TOP/testsuite/trees/seed000.tree
SEED_USERS="bob cathy suzy scott"

scenario_usage_order()
{
	local snap=$TS_CLUSTER_DIR/snap kind name parent shares got bad=""
	local u j acct sum v t0 order_fs order_prio fs prio w diffs="" period

	# --- the tree ---------------------------------------------------
	if ! ts_tree_load "$TREE" 2>"$snap/tree-load.err"; then
		not_ok "$P: seed000.tree loads into slurmdbd with sacctmgr" \
			"$(cat "$snap/tree-load.err")"
		return 1
	fi
	ts_snapshot tree
	while read -r kind name parent shares; do
		if [ "$kind" = account ]; then
			got=$(ts_sshare_get "$snap/tree.sshare" "$name" "" RawShares)
		else
			got=$(ts_sshare_get "$snap/tree.sshare" "$parent" "$name" RawShares)
		fi
		[ "$got" = "$shares" ] ||
			bad+="$kind $name (under $parent): RawShares '$got', tree file $shares"$'\n'
	done < <(ts_tree_lines "$TREE")
	if [ -z "$bad" ]; then
		ok "$P: sshare shows every association of seed000.tree with its shares"
	else
		not_ok "$P: sshare shows every association of seed000.tree with its shares" "$bad"
	fi

	# --- usage from running jobs ------------------------------------
	for u in "${!WORK_CPUS[@]}"; do
		j=$(ts_submit "$u" -p lab -c "${WORK_CPUS[$u]}" --wrap 'sleep 900') ||
			{ not_ok "$P: sbatch --uid=$u accepts a job for $u"; return 1; }
		RUN[$u]=$j
	done
	if ! wait_for 30 "the workload jobs to run" ts_jobs_running "${RUN[@]}" \
		2>"$snap/run.err"; then
		not_ok "$P: jobs of bob, cathy and scott start on the lab partition" \
			"$(cat "$snap/run.err")" "$(squeue 2>&1)"
		return 1
	fi
	t0=$(date +%s)
	if wait_for 90 "RawUsage > 0 for bob, cathy and scott" \
		ts_users_have_usage bob cathy scott 2>"$snap/usage.err"; then
		ok "$P: running jobs accrue usage at the next decay cycle (RawUsage > 0 for bob, cathy, scott after ${WAITED}s)"
	else
		not_ok "$P: running jobs accrue usage at the next decay cycle (RawUsage > 0 for bob, cathy, scott)" \
			"$(cat "$snap/usage.err")" "$(sshare -a -l 2>&1)"
		return 1
	fi

	# Let the jobs run one full PriorityCalcPeriod (the next cycle comes
	# no sooner anyway), stop them; the next cycle adds their last slice
	# of run time.  From then on only decay acts: it scales all usage
	# alike, so fair-share factors stay put.
	period=$(ts_duration_secs "$(ts_config_get "$snap/tree.config" PriorityCalcPeriod)")
	while [ $(( $(date +%s) - t0 )) -lt "$period" ]; do sleep 1; done
	scancel "${RUN[@]}"
	wait_for 30 "the workload jobs to end" ts_no_job_running ||
		not_ok "$P: scancel ends the workload jobs within 30s" "$(squeue 2>&1)"
	if ! ts_wait_usage_change 90 2>"$snap/cycle.err"; then
		not_ok "$P: a decay cycle follows within PriorityCalcPeriod" \
			"$(cat "$snap/cycle.err")"
		return 1
	fi
	ts_snapshot usage
	diag "$P: usage after the workload (jobs ran $(( $(date +%s) - t0 ))s+):"
	diag "$(cut -d'|' -f1-9 "$snap/usage.sshare")"

	v=$(ts_sshare_get "$snap/usage.sshare" group2 suzy RawUsage)
	if [ "$v" = 0 ]; then
		ok "$P: suzy, who ran no job, keeps RawUsage 0"
	else
		not_ok "$P: suzy, who ran no job, keeps RawUsage 0" "RawUsage $v"
	fi

	local ub uc us
	ub=$(ts_sshare_get "$snap/usage.sshare" group1 bob RawUsage)
	uc=$(ts_sshare_get "$snap/usage.sshare" group1 cathy RawUsage)
	us=$(ts_sshare_get "$snap/usage.sshare" group2 scott RawUsage)
	if [ "$us" -gt "$ub" ] && [ "$ub" -gt "$uc" ] && [ "$uc" -gt 0 ]; then
		ok "$P: RawUsage follows CPUs x run time: scott (8 CPUs) > bob (4) > cathy (1)"
	else
		not_ok "$P: RawUsage follows CPUs x run time: scott (8 CPUs) > bob (4) > cathy (1)" \
			"scott $us, bob $ub, cathy $uc"
	fi

	# An account's usage is the sum of its children's; sshare prints
	# each rounded to an integer, so allow 1 per summand.
	bad=""
	for acct in group1 group2; do
		sum=0
		for u in $(awk -v a="$acct" '$1 == "user" && $3 == a { print $2 }' \
			   <(ts_tree_lines "$TREE")); do
			sum=$((sum + $(ts_sshare_get "$snap/usage.sshare" "$acct" "$u" RawUsage)))
		done
		v=$(ts_sshare_get "$snap/usage.sshare" "$acct" "" RawUsage)
		[ $((v - sum)) -le 2 ] && [ $((sum - v)) -le 2 ] ||
			bad+="$acct: RawUsage $v, its users' sum $sum"$'\n'
	done
	sum=$(( $(ts_sshare_get "$snap/usage.sshare" group1 "" RawUsage) +
		$(ts_sshare_get "$snap/usage.sshare" group2 "" RawUsage) ))
	v=$(ts_sshare_get "$snap/usage.sshare" root "" RawUsage)
	[ $((v - sum)) -le 2 ] && [ $((sum - v)) -le 2 ] ||
		bad+="root: RawUsage $v, group1 + group2 = $sum"$'\n'
	if [ -z "$bad" ]; then
		ok "$P: each account's RawUsage is the sum of its children's (group1, group2, root)"
	else
		not_ok "$P: each account's RawUsage is the sum of its children's (group1, group2, root)" "$bad"
	fi

	# --- pending jobs: sprio order vs sshare FairShare ----------------
	for u in $SEED_USERS; do
		j=$(ts_submit "$u" -p wait -c 1 --wrap 'sleep 60') ||
			{ not_ok "$P: sbatch -p wait queues a job for $u"; return 1; }
		PEND[$u]=$j
	done
	if ! wait_for 20 "sprio to list the pending jobs" ts_sprio_lists "${PEND[@]}"; then
		not_ok "$P: sprio lists the pending jobs of bob, cathy, suzy, scott" \
			"$(sprio -l 2>&1)"
		return 1
	fi
	ts_snapshot pending
	diag "$P: pending jobs (sprio -l):"
	diag "$(cat "$snap/pending.sprio")"

	fs=$(for u in $SEED_USERS; do
		echo "$(ts_sshare_get "$snap/pending.sshare" "$(user_acct "$u")" "$u" FairShare) $u"
	     done)
	prio=$(for u in $SEED_USERS; do
		echo "$(ts_sprio_get "$snap/pending.sprio" "${PEND[$u]}" PRIORITY) $u"
	       done)
	if [ "$(cut -d' ' -f1 <<<"$fs" | sort -u | wc -l)" = 4 ]; then
		ok "$P: sshare gives bob, cathy, suzy and scott four distinct FairShare values"
	else
		not_ok "$P: sshare gives bob, cathy, suzy and scott four distinct FairShare values" "$fs"
	fi
	order_fs=$(sort -k1,1gr <<<"$fs" | cut -d' ' -f2 | xargs)
	order_prio=$(sort -k1,1gr <<<"$prio" | cut -d' ' -f2 | xargs)
	if [ "$order_fs" = "$order_prio" ]; then
		ok "$P: sprio orders the pending jobs as sshare's FairShare ranks their users ($order_prio)"
	else
		not_ok "$P: sprio orders the pending jobs as sshare's FairShare ranks their users" \
			"sshare FairShare order: $order_fs" "sprio PRIORITY order: $order_prio" \
			"FairShare: $(echo $fs)" "PRIORITY: $(echo $prio)"
	fi

	# Less usage than a sibling with at least as many shares ranks higher
	# under every fair-share algorithm of Slurm and PBS.
	if [ "$(rank_of cathy "$order_prio")" -lt "$(rank_of bob "$order_prio")" ] &&
	   [ "$(rank_of suzy "$order_prio")" -lt "$(rank_of scott "$order_prio")" ]; then
		ok "$P: a user with less usage outranks a sibling with as many shares (cathy > bob, suzy > scott)"
	else
		not_ok "$P: a user with less usage outranks a sibling with as many shares (cathy > bob, suzy > scott)" \
			"sprio order: $order_prio"
	fi

	w=$(ts_config_get "$snap/pending.config" PriorityWeightFairshare)
	for u in $SEED_USERS; do
		j=${PEND[$u]}
		v=$(ts_sprio_get "$snap/pending.sprio" "$j" FAIRSHARE)
		got=$(awk -v u="$u" '$2 == u { print $1 }' <<<"$fs")
		awk -v f="$got" -v w="$w" -v v="$v" \
			'BEGIN { d = f * w - v; exit !(d <= 1 && d >= -1) }' ||
			diffs+="$u job $j: FAIRSHARE $v, FairShare $got x $w"$'\n'
	done
	if [ -z "$diffs" ]; then
		ok "$P: sprio FAIRSHARE equals sshare FairShare x PriorityWeightFairshare for each pending job"
	else
		not_ok "$P: sprio FAIRSHARE equals sshare FairShare x PriorityWeightFairshare for each pending job" "$diffs"
	fi
}

# user_acct USER - USER's account in the seed 000 tree.
user_acct()
{
	awk -v u="$1" '$1 == "user" && $2 == u { print $3; exit }' \
		<(ts_tree_lines "$TREE")
}

# rank_of WORD "W1 W2 ..." - 1-based position of WORD in the list.
rank_of()
{
	awk -v w="$1" '{ for (i = 1; i <= NF; i++) if ($i == w) { print i; exit } }' <<<"$2"
}
