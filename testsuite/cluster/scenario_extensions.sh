# SPDX-License-Identifier: GPL-2.0-or-later
# scenario_extensions.sh - scenario (f), priority/treeshare's run only
# (issue 5, the extensions engineer's):
#
#  1. PriorityParameters=fairshare=pbs at "scontrol reconfigure" on seed
#     000's tree (loaded with sacctmgr by scenario (a)), while 64 CPUs of
#     scott's jobs make group2's usage dominate as in PP-718's example:
#     sshare's EffectvUsage and FairShare are PBS's fairshare_tree_usage
#     and fairshare_factor, computed here from sshare's RawShares and
#     RawUsage seed 000's way; sprio orders the pending jobs as those
#     factors rank their users, bob before suzy; sprio FAIRSHARE is
#     sshare's FairShare times PriorityWeightFairshare; sshare computing
#     FairShare in the client (NO_FAIR_TREE) gets PBS's factor from the
#     plugin; scontrol show config shows the PriorityParameters in force;
#  2. a bad key at the next reconfigure is one log line naming it and the
#     settings kept, and after the next cycle the factors are still PBS's
#     (22.05); on 24.11 the re-executed slurmctld stops instead, and,
#     started again with fairshare=pbs, the factors are PBS's after the
#     next cycle (lib.sh, TS_RECONF_KEEPS);
#  3. a formula that does not compile makes slurmctld refuse to start,
#     the column of the error in slurmctld.log.
#
# Sourced by run-scenarios.sh after scenario (e) ($P, PEND: one pending
# job per seed 000 user in the DOWN partition "wait").  Leaves the cluster
# as it found it: no PriorityParameters, no running job, slurmctld up.

EXT_LOG=$TS_CLUSTER_DIR/log/slurmctld.log
EXT_WORK_CPUS=16 # per scott job; 4 jobs fill the lab's 4 nodes

# ext_log_has LINE TEXT - slurmctld.log after line LINE holds TEXT.
# grep reads to the end (no -q): under pipefail, a grep -q that exits at
# the match can kill tail with SIGPIPE and fail the pipeline (seen once).
ext_log_has()
{
	tail -n "+$(($1 + 1))" "$EXT_LOG" | grep -F -- "$2" >/dev/null
}

# ext_pbs FILE - from an "sshare -l -a -P" file, PBS PP-718's values of
# every user, "NAME TREE_USAGE FACTOR" lines, computed seed 000's way from
# RawShares and RawUsage (the tree from the Account column's indentation):
#   u = RawUsage / root's; perc = parent's perc * shares / siblings' shares
#   tree usage = u under the root, else u + (parent's - u) * shares / sum
#   factor = 2^-(tree usage / perc), 0 with no shares.
ext_pbs()
{
	awk -F'|' '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{
		name = $1; d = match(name, /[^ ]/) - 1; sub(/^ +/, "", name)
		n++; user[n] = $2 != ""; nm[n] = user[n] ? $2 : name
		sh[n] = $(col["RawShares"]) + 0; use[n] = $(col["RawUsage"]) + 0
		if (d == 0) { par[n] = 0; root = n; last[0] = n; next }
		par[n] = last[d - 1]
		if (!user[n]) last[d] = n
		sum[par[n]] += sh[n]
	}
	END {
		tot = use[root]; perc[root] = 1
		for (i = 1; i <= n; i++) {
			if (i == root) continue
			p = par[i]; w = sum[p] ? sh[i] / sum[p] : 0
			u = tot ? use[i] / tot : 0
			eff[i] = p == root ? u : u + (eff[p] - u) * w
			perc[i] = perc[p] * w
			f = perc[i] > 0 ? 2 ^ -(eff[i] / perc[i]) : 0
			if (user[i])
				printf "%s %.9f %.9f\n", nm[i], eff[i], f
		}
	}' "$1"
}

# ext_check_pbs NAME - the snapshot NAME's sshare shows PBS's values for
# every seed user (|difference| <= 2e-3: RawUsage is printed truncated);
# RET 1 with the differences on stdout.
ext_check_pbs()
{
	local snap=$TS_CLUSTER_DIR/snap u eff f got_e got_f bad=""
	while read -r u eff f; do
		got_e=$(ts_sshare_get "$snap/$1.sshare" "$(user_acct "$u")" "$u" EffectvUsage)
		got_f=$(ts_sshare_get "$snap/$1.sshare" "$(user_acct "$u")" "$u" FairShare)
		awk -v a="$got_e" -v b="$eff" -v c="$got_f" -v d="$f" 'BEGIN {
			x = a - b; y = c - d; if (x < 0) x = -x; if (y < 0) y = -y
			exit !(a != "" && c != "" && x <= 2e-3 && y <= 2e-3) }' ||
			bad+="$u: EffectvUsage $got_e FairShare $got_f, PBS $eff $f; "
	done < <(ext_pbs "$snap/$1.sshare" | grep -wE "$(tr ' ' '|' <<<"$SEED_USERS")")
	[ -z "$bad" ] && return 0
	echo "$bad"
	return 1
}

# ext_pbs_order NAME - the seed users by PBS factor, highest first.
ext_pbs_order()
{
	ext_pbs "$TS_CLUSTER_DIR/snap/$1.sshare" |
		grep -wE "$(tr ' ' '|' <<<"$SEED_USERS")" |
		sort -k3,3gr | cut -d' ' -f1 | xargs
}

# ext_ready NAME - a snapshot NAME in which fairshare=pbs has run a cycle
# with scott's jobs charged enough for PBS to put bob before suzy.
ext_ready()
{
	local order
	ts_snapshot "$1" || return 1
	order=$(ext_pbs_order "$1")
	[ "$(rank_of bob "$order")" -lt "$(rank_of suzy "$order")" ] &&
		ext_check_pbs "$1" >/dev/null
}

# ext_settle NAME - snapshot NAME once two snapshots 2 s apart agree (no
# cycle in between: sshare and sprio are of one cycle).
ext_settle()
{
	local snap=$TS_CLUSTER_DIR/snap i prev="" cur
	for ((i = 0; i < 30; i++)); do
		if ts_sprio_lists "${PEND[@]}" && ts_snapshot "$1"; then
			cur=$(cat "$snap/$1.sshare" "$snap/$1.sprio")
			[ -n "$prev" ] && [ "$cur" = "$prev" ] && return 0
			prev=$cur
		fi
		sleep 2
	done
	echo "no two equal snapshots 2 s apart within 60 s" >&2
	return 1
}

# ext_check_sprio NAME - sprio of snapshot NAME against PBS's order and
# factors; one TAP line each.
ext_check_sprio()
{
	local snap=$TS_CLUSTER_DIR/snap u f v w order_pbs order_prio diffs=""
	order_pbs=$(ext_pbs_order "$1")
	order_prio=$(for u in $SEED_USERS; do
		echo "$(ts_sprio_get "$snap/$1.sprio" "${PEND[$u]}" PRIORITY) $u"
		done | sort -k1,1gr | cut -d' ' -f2 | xargs)
	if [ "$order_prio" = "$order_pbs" ] &&
	   [ "$(rank_of bob "$order_prio")" -lt "$(rank_of suzy "$order_prio")" ]; then
		ok "$P: fairshare=pbs: sprio orders the pending jobs as PBS's fairshare_factor ranks their users, bob before suzy ($order_prio)"
	else
		not_ok "$P: fairshare=pbs: sprio orders the pending jobs as PBS's fairshare_factor ranks their users, bob before suzy" \
			"PBS order: $order_pbs" "sprio order: $order_prio" \
			"$(cat "$snap/$1.sprio")"
	fi
	w=$(ts_config_get "$snap/$1.config" PriorityWeightFairshare)
	for u in $SEED_USERS; do
		v=$(ts_sprio_get "$snap/$1.sprio" "${PEND[$u]}" FAIRSHARE)
		f=$(ts_sshare_get "$snap/$1.sshare" "$(user_acct "$u")" "$u" FairShare)
		awk -v f="$f" -v w="$w" -v v="$v" \
			'BEGIN { d = f * w - v; exit !(d <= 1 && d >= -1) }' ||
			diffs+="$u: FAIRSHARE $v, FairShare $f x $w; "
	done
	if [ -z "$diffs" ]; then
		ok "$P: fairshare=pbs: sprio FAIRSHARE is sshare's (PBS's) FairShare x PriorityWeightFairshare"
	else
		not_ok "$P: fairshare=pbs: sprio FAIRSHARE is sshare's (PBS's) FairShare x PriorityWeightFairshare" "$diffs"
	fi
}

# ext_check_client - Debian's sshare with a slurm.conf of its own that
# has PriorityFlags=NO_FAIR_TREE and FairShareDampeningFactor=3 computes
# FairShare itself, calling priority_treeshare.so loaded in the client
# with EffectvUsage and NormShares: the plugin must learn fairshare=pbs
# from that slurm.conf and give PBS's factor, which ignores dampening
# (classic's 2^(-U/S/3) would not match).  One TAP line.
ext_check_client()
{
	local snap=$TS_CLUSTER_DIR/snap conf=$TS_CLUSTER_DIR/etc/client-nft.conf
	local bad="" u f

	sed -e '/^[[:space:]]*PriorityFlags[[:space:]]*=/Id' \
		-e '/^[[:space:]]*FairShareDampeningFactor[[:space:]]*=/Id' \
		"$SLURM_CONF" >"$conf"
	printf 'PriorityFlags=NO_FAIR_TREE\nFairShareDampeningFactor=3\n' >>"$conf"
	SLURM_CONF=$conf sshare -l -a -P >"$snap/ext-client.sshare" 2>"$snap/ext-client.err"
	cp "$snap/ext-pbs.config" "$snap/ext-client.config" 2>/dev/null
	bad=$(ext_check_pbs ext-client) || true
	for u in $SEED_USERS; do
		f=$(ts_sshare_get "$snap/ext-client.sshare" "$(user_acct "$u")" "$u" FairShare)
		[ -n "$f" ] || bad+="$u: no FairShare; "
	done
	if [ -z "$bad" ] && [ -s "$snap/ext-client.sshare" ]; then
		ok "$P: fairshare=pbs: sshare computing FairShare in the client (NO_FAIR_TREE, dampening 3) shows PBS's fairshare_factor"
	else
		not_ok "$P: fairshare=pbs: sshare computing FairShare in the client (NO_FAIR_TREE, dampening 3) shows PBS's fairshare_factor" \
			"$bad" "$(cat "$snap/ext-client.err")" \
			"$(cut -d'|' -f1-9 "$snap/ext-client.sshare")"
	fi
	rm -f "$conf"
}

scenario_extensions()
{
	local snap=$TS_CLUSTER_DIR/snap line u j bad want
	local -a work=()

	[ "$PLUGIN" = priority/treeshare ] || return 0
	if ! wait_for 30 "no job to run" ts_no_job_running; then
		not_ok "$P: extensions scenario starts with no job running" "$(squeue 2>&1)"
		return 1
	fi

	# --- 1. fairshare=pbs at reconfigure -------------------------------
	line=$(wc -l <"$EXT_LOG")
	"$TS_CLUSTER" conf PriorityParameters=fairshare=pbs
	scontrol reconfigure >"$snap/ext-reconf.out" 2>&1
	for u in 1 2 3 4; do
		j=$(ts_submit scott -p lab -c "$EXT_WORK_CPUS" --wrap 'sleep 600') ||
			{ not_ok "$P: sbatch queues scott's 16-CPU jobs"; return 1; }
		work+=("$j")
	done
	if ! wait_for 30 "scott's jobs to run" ts_jobs_running "${work[@]}" 2>"$snap/ext-run.err"; then
		not_ok "$P: four 16-CPU jobs of scott run on the lab partition" \
			"$(cat "$snap/ext-run.err")" "$(squeue 2>&1)"
		scancel "${work[@]}"
		return 1
	fi
	if wait_for 150 "a fairshare=pbs cycle with scott's jobs charged" \
		ext_ready ext-wait 2>"$snap/ext-wait.err" &&
	   ext_settle ext-pbs 2>>"$snap/ext-wait.err" &&
	   bad=$(ext_check_pbs ext-pbs); then
		ok "$P: fairshare=pbs at reconfigure: sshare's EffectvUsage and FairShare are PBS's fairshare_tree_usage and fairshare_factor from RawShares and RawUsage (after ${WAITED}s)"
	else
		not_ok "$P: fairshare=pbs at reconfigure: sshare's EffectvUsage and FairShare are PBS's fairshare_tree_usage and fairshare_factor from RawShares and RawUsage" \
			"$(cat "$snap/ext-wait.err")" "$bad" "$(ext_pbs "$snap/ext-wait.sshare")" \
			"$(cut -d'|' -f1-9 "$snap/ext-wait.sshare")"
	fi
	diag "$P: fairshare=pbs (sshare -l -a -P):"
	diag "$(cut -d'|' -f1-9 "$snap/ext-pbs.sshare")"
	diag "$P: fairshare=pbs (sprio -l -h):"
	diag "$(cat "$snap/ext-pbs.sprio")"
	ext_check_sprio ext-pbs
	ext_check_client
	if [ "$(ts_config_get "$snap/ext-pbs.config" PriorityParameters)" = fairshare=pbs ] &&
	   ext_log_has "$line" "priority/treeshare: PriorityParameters in force: fairshare=pbs"; then
		ok "$P: scontrol show config shows PriorityParameters=fairshare=pbs and slurmctld logs it in force"
	else
		not_ok "$P: scontrol show config shows PriorityParameters=fairshare=pbs and slurmctld logs it in force" \
			"show config: $(ts_config_get "$snap/ext-pbs.config" PriorityParameters)" \
			"$(tail -n "+$((line + 1))" "$EXT_LOG" | grep -F 'in force')"
	fi

	# --- 2. a bad key at reconfigure keeps fairshare=pbs ---------------
	line=$(wc -l <"$EXT_LOG")
	want="usage_windw (column 15): unknown key"
	"$TS_CLUSTER" conf PriorityParameters=fairshare=pbs,usage_windw=1h
	scontrol reconfigure >>"$snap/ext-reconf.out" 2>&1
	if [ "$TS_RECONF_KEEPS" = 0 ]; then
		# 24.11: the re-executed slurmctld refuses the key and ends
		# (lib.sh, TS_RECONF_KEEPS); started again with fairshare=pbs,
		# PBS's factors hold over the next cycle.
		if wait_for 30 "the refusal in slurmctld.log" ext_log_has "$line" \
			"$want; known keys are fairshare, usage_window, usage_depth, usage_decay, fs_targets, fs_policy, formula, usage_metric, fs_weight, fs_user_weight, fs_group_weight, fs_account_weight, fs_qos_weight, fs_class_weight and fs_import; this slurmctld cannot start" &&
		   [ "$(tail -n "+$((line + 1))" "$EXT_LOG" | grep -c usage_windw)" = 1 ] &&
		   wait_for 30 "slurmctld to end" ts_ctld_stopped &&
		   "$TS_CLUSTER" conf PriorityParameters=fairshare=pbs &&
		   "$TS_CLUSTER" restart slurmctld >"$snap/ext-keep.err" 2>&1 &&
		   ts_wait_usage_change 90 2>>"$snap/ext-keep.err" &&
		   ext_settle ext-kept 2>>"$snap/ext-keep.err" &&
		   bad=$(ext_check_pbs ext-kept); then
			ok "$P: a bad PriorityParameters key at reconfigure is logged naming it and stops the re-executed slurmctld (24.11, attached); restarted with fairshare=pbs, PBS's factors hold over the next cycle"
		else
			not_ok "$P: a bad PriorityParameters key at reconfigure is logged naming it and stops the re-executed slurmctld (24.11, attached); restarted with fairshare=pbs, PBS's factors hold over the next cycle" \
				"want: $want ...; this slurmctld cannot start" \
				"$(tail -n "+$((line + 1))" "$EXT_LOG" | grep -F usage_windw)" \
				"$(cat "$snap/ext-keep.err")" "$bad"
		fi
	elif wait_for 30 "the reconfigure error in slurmctld.log" ext_log_has "$line" \
		"$want; known keys are fairshare, usage_window, usage_depth, usage_decay, fs_targets, fs_policy, formula, usage_metric, fs_weight, fs_user_weight, fs_group_weight, fs_account_weight, fs_qos_weight, fs_class_weight and fs_import; running configuration kept (PriorityParameters in force: 'fairshare=pbs')" &&
	   ts_wait_usage_change 90 2>"$snap/ext-keep.err" &&
	   ext_settle ext-kept 2>>"$snap/ext-keep.err" &&
	   bad=$(ext_check_pbs ext-kept); then
		ok "$P: a bad PriorityParameters key at reconfigure is logged naming it; fairshare=pbs stays in force over the next cycle"
	else
		not_ok "$P: a bad PriorityParameters key at reconfigure is logged naming it; fairshare=pbs stays in force over the next cycle" \
			"want: $want ... running configuration kept" \
			"$(tail -n "+$((line + 1))" "$EXT_LOG" | grep -F usage_windw)" \
			"$(cat "$snap/ext-keep.err")" "$bad"
	fi
	scancel "${work[@]}"
	wait_for 30 "scott's jobs to end" ts_no_job_running ||
		not_ok "$P: scancel ends scott's jobs within 30s" "$(squeue 2>&1)"

	# --- 3. a formula that does not compile refuses start -------------
	line=$(wc -l <"$EXT_LOG")
	want="formula: column 45: expected ')' after function arguments, found end of formula; slurmctld cannot start"
	"$TS_CLUSTER" conf 'PriorityParameters=fairshare=pbs,formula="pow(2,-(fairshare_tree_usage/fairshare_perc)"'
	if "$TS_CLUSTER" restart slurmctld >"$snap/ext-formula.out" 2>&1; then
		not_ok "$P: slurmctld refuses to start with a formula that does not compile" \
			"it started: $(cat "$snap/ext-formula.out")"
	elif ext_log_has "$line" "$want" &&
	     [ "$(tail -n "+$((line + 1))" "$EXT_LOG" | grep -cF -- "$want")" = 1 ]; then
		ok "$P: slurmctld refuses to start with a formula that does not compile, the column in its log once"
	else
		not_ok "$P: slurmctld refuses to start with a formula that does not compile, the column in its log once" \
			"want: $want" "$(tail -n "+$((line + 1))" "$EXT_LOG" | tail -n 15)"
	fi

	# --- back to the lab's configuration -------------------------------
	sed -i '/^[[:space:]]*PriorityParameters[[:space:]]*=/Id' "$SLURM_CONF"
	if ! "$TS_CLUSTER" restart slurmctld >"$snap/ext-back.out" 2>&1; then
		not_ok "$P: slurmctld starts again without PriorityParameters" \
			"$(cat "$snap/ext-back.out")"
		return 1
	fi
}
