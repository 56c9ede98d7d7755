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
# Sourced by run-scenarios.sh after scenario-usage-order.sh ($P, PEND).

scenario_restart()
{
	local snap=$TS_CLUSTER_DIR/snap t1 t2 hl period bad="" line
	local acct user before after lo n=0 order_before order_after prio

	if [ ! -s "$snap/pending.sshare" ]; then
		not_ok "$P: usage survives a slurmctld restart" \
			"no usage snapshot from scenario (a)"
		return 1
	fi
	ts_snapshot before-restart
	t1=$(date +%s)
	if ! "$TS_CLUSTER" restart slurmctld >"$snap/restart.out" 2>&1; then
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
}
