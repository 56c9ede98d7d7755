#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# profile.sh CG_DIR - what treeshare's steady-state cycle spends beyond the
# floor, from make bench's callgrind dumps (ALGO-SCALE-PLUGIN.2: the
# cycle).  For each ALGO-SCALE with a treeshare and a floor (touch) dump:
# the cycle's instructions, the floor's, and treeshare's split, by the
# inclusive counts of its functions (callgrind_annotate --inclusive):
#   tree walk   cycle.c fair_share(): the tree copied in, shares and usage
#               normalised, every association's factor (classic,
#               DEPTH_OBLIVIOUS, Fair Tree's ranking, PBS)
#   charge      usage_charge_job() and usage_decay()'s decay_assoc(): running jobs' usage
#               and the half-life decay
#   commit      checkpoint_commit(): the state file
#   priorities  job_prio_recompute(): each job's factors and sum
#   rest        the list walk, locks, prefetch ring
# The tree walk, the charge and the commit are inherent (every fair-share
# plugin does them, multifactor included); "inherent" is their share of
# what the cycle spends beyond the floor.  Printed by make bench after
# the figures (docs/ts-harness.1).
set -u -o pipefail
dir=${1:?usage: profile.sh CG_DIR}
command -v callgrind_annotate >/dev/null ||
	{ echo "profile.sh: no callgrind_annotate (package valgrind)" >&2; exit 1; }

# incl DUMP FUNC... - the inclusive Ir of FUNC (and its compiler clones)
# in treeshare's object, summed; 0 if absent
incl()
{
	local dump=$1
	shift
	callgrind_annotate --inclusive=yes --threshold=100 "$dump" 2>/dev/null |
		awk -v want="$*" '
		BEGIN { n = split(want, w, " ") }
		/priority_treeshare\.so\]$/ {
			f = $(NF - 1)
			sub(/^.*:/, "", f)
			sub(/\.(isra|constprop|lto_priv|part|cold)\..*$/, "", f)
			for (i = 1; i <= n; i++)
				if (f == w[i]) { v = $1; gsub(/,/, "", v); s += v }
		}
		END { printf "%.0f\n", s }'
}

# total DUMP - the dump's PROGRAM TOTALS
total()
{
	callgrind_annotate --threshold=100 "$1" 2>/dev/null |
		awk '/PROGRAM TOTALS/ { v = $1; gsub(/,/, "", v); print v; exit }'
}

m() { awk -v v="$1" 'BEGIN { printf "%8.2f", v / 1e6 }'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%5.1f%%", 100 * a / b; else printf "%6s", "-" }'; }

printf '\nprofile of the cycle (Ir, millions; from %s)\n' "$dir"
printf '  %-22s %8s %8s %8s | %8s %8s %8s %8s %8s | %9s\n' "algorithm, workload" \
	cycle floor beyond "tree" charge commit "prios" rest inherent
found=0
for ts in "$dir"/*-treeshare.2; do
	[ -f "$ts" ] || continue
	key=$(basename "$ts" -treeshare.2)
	floor=$dir/$key-touch.2
	[ -f "$floor" ] || continue
	found=1
	t=$(total "$ts") f=$(total "$floor")
	tree=$(incl "$ts" fair_share)
	charge=$(incl "$ts" usage_charge_job decay_assoc)
	commit=$(incl "$ts" checkpoint_commit)
	prios=$(incl "$ts" job_prio_recompute)
	rest=$((t - tree - charge - commit - prios))
	beyond=$((t - f))
	printf '  %-22s %s %s %s | %s %s %s %s %s | %9s\n' "${key/-/, }" \
		"$(m "$t")" "$(m "$f")" "$(m "$beyond")" "$(m "$tree")" \
		"$(m "$charge")" "$(m "$commit")" "$(m "$prios")" "$(m "$rest")" \
		"$(pct $((tree + charge + commit)) "$beyond")"
done
[ "$found" = 1 ] || { echo "profile.sh: no treeshare and floor cycle dumps in $dir" >&2; exit 1; }
