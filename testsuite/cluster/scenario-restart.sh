# SPDX-License-Identifier: GPL-2.0-or-later
# scenario-restart.sh - scenario (b): usage survives a slurmctld restart.
#
# slurmctld saves association usage in StateSaveLocation when it stops
# and the priority plugin decays it on start for the time since its last
# cycle.  With no job running, usage can only shrink by decay, so after
# the restart every association's RawUsage U' must satisfy
#     U * d^(T + P) - 1  <=  U'  <=  U + 1
# where U is the value read T seconds before the read after the restart,
# P = PriorityCalcPeriod (the last cycle before U's read ran up to P
# earlier), d = the per-second decay factor for PriorityDecayHalfLife H
# (the smaller of Slurm's 1 - 0.693/H and the exact 2^(-1/H)), and 1 is
# sshare's integer rounding.
#
# With priority/treeshare the restart is made with slurmdbd down, and
# root_after_outage (below) follows (issue 31).
#
# Sourced by run-scenarios.sh after scenario-usage-order.sh ($P, PEND).

scenario_restart()
{
	local snap=$TS_CLUSTER_DIR/snap t1 t2 hl period bad="" line
	local acct user before after lo n=0 order_before order_after prio
	local outage=""

	[ "$PLUGIN" = priority/treeshare ] && outage=--dbd-down

	if [ ! -s "$snap/pending.sshare" ]; then
		not_ok "$P: usage survives a slurmctld restart" \
			"no usage snapshot from scenario (a)"
		return 1
	fi
	ts_snapshot before-restart
	t1=$(date +%s)
	# treeshare: the restart with slurmdbd down, for root_after_outage
	if ! "$TS_CLUSTER" restart slurmctld $outage >"$snap/restart.out" 2>&1; then
		not_ok "$P: cluster restart slurmctld brings slurmctld back" \
			"$(cat "$snap/restart.out")"
		return 1
	fi
	if ! wait_for 30 "sprio after the restart" ts_sprio_lists "${PEND[@]}"; then
		not_ok "$P: pending jobs survive a slurmctld restart" "$(sprio -l 2>&1)"
		return 1
	fi
	ts_snapshot after-restart
	t2=$(date +%s)
	ok "$P: slurmctld restarts on its saved state with the pending jobs ($(( t2 - t1 ))s)"

	hl=$(ts_duration_secs "$(ts_config_get "$snap/after-restart.config" PriorityDecayHalfLife)")
	period=$(ts_duration_secs "$(ts_config_get "$snap/after-restart.config" PriorityCalcPeriod)")
	while IFS='|' read -r acct user before; do
		[ "$before" -gt 0 ] 2>/dev/null || continue
		after=$(ts_sshare_get "$snap/after-restart.sshare" "$acct" "$user" RawUsage)
		lo=$(awk -v u="$before" -v h="$hl" -v t=$((t2 - t1 + period)) 'BEGIN {
			d = 1 - 0.693 / h; e = 2 ^ (-1 / h); if (e < d) d = e
			printf "%d", u * d ^ t - 1 }')
		n=$((n + 1))
		if [ -z "$after" ] || [ "$after" -lt "$lo" ] ||
		   [ "$after" -gt $((before + 1)) ]; then
			bad+="$acct/$user: RawUsage $before before, '$after' after; allowed $lo..$((before + 1))"$'\n'
		fi
	done < <(awk -F'|' 'NR > 1 { a = $1; sub(/^ +/, "", a); print a "|" $2 "|" $5 }' \
		 "$snap/before-restart.sshare")
	if [ "$n" -ge 3 ] && [ -z "$bad" ]; then
		ok "$P: RawUsage of all $n associations with usage survives a slurmctld restart within the decay of $((t2 - t1 + period))s at half-life ${hl}s"
	else
		not_ok "$P: RawUsage of every association with usage survives a slurmctld restart within the decay allowed" \
			"${bad:-only $n associations had usage before the restart}"
	fi

	prio=$(ts_sprio_col PRIORITY)
	order_before=$(sort -k"$prio,$prio"nr -k1,1n "$snap/before-restart.sprio" | awk '{ print $3 }' | xargs)
	order_after=$(sort -k"$prio,$prio"nr -k1,1n "$snap/after-restart.sprio" | awk '{ print $3 }' | xargs)
	if [ "$order_before" = "$order_after" ]; then
		ok "$P: pending jobs keep their sprio order across a slurmctld restart ($order_after)"
	else
		not_ok "$P: pending jobs keep their sprio order across a slurmctld restart" \
			"before: $order_before" "after:  $order_after"
	fi
	[ -n "$outage" ] && root_after_outage
}

# root_children SSHARE - "root|sum" of an "sshare -l -a -P" file: root's
# RawUsage and the sum of its direct children's (rows indented once).
root_children()
{
	awk -F'|' 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$1 == "root" && $2 == "" { r = $(col["RawUsage"]) }
	$1 ~ /^ [^ ]/ { s += $(col["RawUsage"]) }
	END { print r "|" s }' "$1"
}

# root_is_sum SSHARE - root's RawUsage is its children's sum (each row
# rounded by sshare: within their count), and not 0.
root_is_sum()
{
	local rs
	rs=$(root_children "$1")
	awk -F'|' -v n="$(grep -c '^ [^ ]' "$1")" '{
		d = $1 - $2; if (d < 0) d = -d
		exit !($2 > 0 && d <= n) }' <<<"$rs"
}

# root_after_outage - issue 31: slurmctld restarted with slurmdbd down
# (above) runs from its cache; when slurmdbd returns, Slurm's association
# refresh copies the old root's usage into the new root and adds every
# leaf's on top (root twice its children, every release).  The next
# cycle must set root to its children's sum and say so; a restart keeps
# it so (the committed root is not put back over its children's).
root_after_outage()
{
	local snap=$TS_CLUSTER_DIR/snap log=$TS_CLUSTER_DIR/log/slurmctld.log
	local period line t0 rs name

	t0=$(date +%s)
	period=$(ts_duration_secs "$(ts_config_get "$snap/after-restart.config" PriorityCalcPeriod)")
	if ! "$TS_CLUSTER" restart slurmdbd >"$snap/outage.out" 2>&1; then
		not_ok "$P: slurmdbd comes back after the restart without it" \
			"$(cat "$snap/outage.out")"
		return 1
	fi
	name="$P: slurmdbd back after a start from the cache: the next cycle sets root's doubled RawUsage to its children's sum"
	if wait_for $((period + 30)) "the reloaded association list's check" \
		grep -q 'the association list was reloaded from slurmdbd: .* accounts did not hold' "$log"; then
		line=$(grep 'the association list was reloaded' "$log" | tail -1)
		ts_snapshot after-outage
		rs=$(root_children "$snap/after-outage.sshare")
		# "(root RawUsage X -> Y)": Slurm's X is about twice Y
		if awk -v l="$line" 'BEGIN {
			if (!match(l, /RawUsage [0-9]+ -> [0-9]+/)) exit 1
			split(substr(l, RSTART + 9, RLENGTH - 9), v, " -> ")
			exit !(v[2] > 0 && v[1] >= 1.8 * v[2] && v[1] <= 2.2 * v[2]) }' &&
		   root_is_sum "$snap/after-outage.sshare"; then
			ok "$name (${line##*did not hold what their children hold: }; sshare root|children $rs, ${WAITED}s)"
		else
			not_ok "$name" "${line:-no line}" "sshare root|children: $rs" \
				"$(grep -i 'database appears down' "$log" | tail -1)"
		fi
	else
		not_ok "$name" "no 'reloaded' line in $((period + 30)) s" \
			"sshare root|children: $(ts_snapshot after-outage; root_children "$snap/after-outage.sshare")"
	fi
	name="$P: after the outage, a slurmctld restart keeps root's RawUsage its children's sum"
	if "$TS_CLUSTER" restart slurmctld >"$snap/outage-restart.out" 2>&1 &&
	   wait_for 30 "sprio after the restart" ts_sprio_lists "${PEND[@]}"; then
		ts_snapshot after-outage-restart
		rs=$(root_children "$snap/after-outage-restart.sshare")
		if root_is_sum "$snap/after-outage-restart.sshare"; then
			ok "$name (root|children $rs; outage checks $(($(date +%s) - t0))s)"
		else
			not_ok "$name" "sshare root|children: $rs" \
				"$(grep 'restored from' "$log" | tail -1)"
		fi
	else
		not_ok "$name" "$(cat "$snap/outage-restart.out")"
	fi
}
