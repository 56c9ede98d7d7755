# SPDX-License-Identifier: GPL-2.0-or-later
# scenario-reconfigure.sh - scenario (c): "scontrol reconfigure" after
# PriorityWeightFairshare changed from W1 to W2 in slurm.conf scales
# sprio's weighted FAIRSHARE of every pending job by W2/W1.
#
# sprio prints weighted factors rounded to integers (%.0f), so with
# F1 = round(f * W1) and F2 = round(f * W2) for the same factor f:
#     |F2 - F1 * W2/W1|  <=  0.5 + 0.5 * W2/W1.
# No job runs, so between the two reads only decay acts, which leaves
# every fair-share factor as it was (it scales all usage alike).  The
# plugin recomputes pending jobs' priorities at its next decay cycle, so
# we wait up to PriorityCalcPeriod (+ 20 s) for sprio to change.
#
# Sourced by run-scenarios.sh after scenario-usage-order.sh ($P, PEND).

# sprio_fairshare_differs BEFORE - sprio's "jobid fairshare" list differs.
sprio_fairshare_differs()
{
	local now
	now=$(sprio -h -o '%i %F') && [ "$now" != "$1" ]
}

scenario_reconfigure()
{
	local snap=$TS_CLUSTER_DIR/snap w1 w2 period before bad="" n=0
	local u j f1 f2 name

	if [ ${#PEND[@]} -eq 0 ]; then
		not_ok "$P: scontrol reconfigure applies a new PriorityWeightFairshare" \
			"no pending jobs from scenario (a)"
		return 1
	fi
	ts_snapshot before-reconf
	w1=$(ts_config_get "$snap/before-reconf.config" PriorityWeightFairshare)
	period=$(ts_duration_secs "$(ts_config_get "$snap/before-reconf.config" PriorityCalcPeriod)")
	w2=$((w1 * 5 / 2))
	before=$(sprio -h -o '%i %F')

	"$TS_CLUSTER" conf "PriorityWeightFairshare=$w2" &&
		scontrol reconfigure >"$snap/reconf.out" 2>&1
	ts_snapshot reconf-config
	name="$P: scontrol reconfigure loads PriorityWeightFairshare=$w2 from the edited slurm.conf"
	if [ "$(ts_config_get "$snap/reconf-config.config" PriorityWeightFairshare)" = "$w2" ]; then
		ok "$name"
	else
		not_ok "$name" "$(cat "$snap/reconf.out")" \
			"scontrol show config: $(grep PriorityWeightFairshare "$snap/reconf-config.config")"
		return 1
	fi

	if ! wait_for $((period + 20)) "sprio FAIRSHARE to change after reconfigure" \
		sprio_fairshare_differs "$before"; then
		not_ok "$P: sprio FAIRSHARE changes within one PriorityCalcPeriod of the reconfigure" \
			"$(sprio -l 2>&1)"
		return 1
	fi
	ts_snapshot after-reconf
	diag "$P: sprio -l after PriorityWeightFairshare $w1 -> $w2 (${WAITED}s):"
	diag "$(cat "$snap/after-reconf.sprio")"

	for u in "${!PEND[@]}"; do
		j=${PEND[$u]}
		f1=$(ts_sprio_get "$snap/before-reconf.sprio" "$j" FAIRSHARE)
		f2=$(ts_sprio_get "$snap/after-reconf.sprio" "$j" FAIRSHARE)
		if [ -z "$f1" ] || [ -z "$f2" ] || [ "$f1" -eq 0 ]; then
			bad+="$u job $j: FAIRSHARE '$f1' -> '$f2' (need a non-zero value before)"$'\n'
			continue
		fi
		n=$((n + 1))
		awk -v a="$f1" -v b="$f2" -v w1="$w1" -v w2="$w2" 'BEGIN {
			r = w2 / w1; d = b - a * r; if (d < 0) d = -d
			exit !(d <= 0.5 + 0.5 * r) }' ||
			bad+="$u job $j: FAIRSHARE $f1 -> $f2, ratio $(awk -v a="$f1" -v b="$f2" 'BEGIN { printf "%.4f", b / a }'), weights $w1 -> $w2"$'\n'
	done
	name="$P: sprio FAIRSHARE of every pending job scales by the weight ratio $w2/$w1 after reconfigure"
	if [ -z "$bad" ] && [ "$n" -eq ${#PEND[@]} ]; then
		ok "$name"
	else
		not_ok "$name" "$bad"
	fi
}
