# SPDX-License-Identifier: GPL-2.0-or-later
#
# check_extensions.sh - issue 5's checks in the "harness" stage, sourced by
# check_parity.sh (which defines ok, not_ok, field, digits, $bin, $new,
# $work, $here, $ref).
#
# PriorityParameters has no multifactor reference: each fixture in
# testsuite/harness/extensions/ runs under priority/treeshare alone and
# its report is checked against the seeds' worked examples (000: PBS
# PP-718; 003: Maui's John), against Debian's multifactor where the math
# is the same (classic EffectvUsage is PBS's fairshare_tree_usage), and
# against stated properties (orderings, a fault never holds a job, a
# restart changes nothing).  See docs/ts-harness.1, EXTENSIONS.

ext=$here/extensions

# ext_run NAME [ts-harness options]: run extensions/NAME.fix (or
# $work/NAME.fix if it exists) under treeshare into $work/ext-NAME.{out,err};
# RET ts-harness's exit status.
ext_run() {
	local name=$1 fx
	shift
	fx=$ext/$name.fix
	[ -f "$work/$name.fix" ] && fx=$work/$name.fix
	"$bin" -p "$new" "$@" "$fx" >"$work/ext-$name.out" 2>"$work/ext-$name.err"
}

# job_prio REPORT CYCLE JOB: the job's priority after that cycle.
job_prio() {
	awk -F'|' -v c="$2" -v j="$3" \
		'$1 == "job" && $2 == c && $3 == j { print $5; exit }' "$1"
}

# prio_field REPORT CYCLE JOB COLUMN: a field of the job's sprio row.
prio_field() {
	awk -F'|' -v c="$2" -v j="$3" -v col="$4" \
		'$1 == "prio" && $2 == c && $3 == j { print $col; exit }' "$1"
}

# close A B REL: |A - B| <= REL * |B| (or REL when B is 0).
close() {
	awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN {
		d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b
		exit !(a != "" && d <= r * (m > 0 ? m : 1)) }'
}

# check NAME CONDITION_STATUS DIAGNOSTIC: one TAP line.
check() {
	if [ "$2" -eq 0 ]; then ok "$1"; else not_ok "$1" "$3"; fi
}

# --- PBS PP-718 (seed 000) -----------------------------------------------
ext_run seed000-pbs -v
r=$work/ext-seed000-pbs.out
got="$(digits "$(field "$r" 1 bob 11)" 3) $(digits "$(field "$r" 1 bob 12)" 3)"
got="$got $(digits "$(field "$r" 1 suzy 11)" 3) $(digits "$(field "$r" 1 suzy 12)" 3)"
[ "$got" = "0.125 0.648 0.500 0.382" ] &&
	close "$(field "$r" 1 bob 12)" "$(awk 'BEGIN { printf "%.17g", 2 ^ -(0.125 / 0.2) }')" 1e-15 &&
	close "$(field "$r" 1 suzy 12)" "$(awk 'BEGIN { printf "%.17g", 2 ^ -(0.5 / 0.36) }')" 1e-15
check pbs_seed000_gives_bob_0.125_0.648_suzy_0.5_0.382_despite_dampening_3 $? \
	"EffectvUsage/FairShare bob, suzy: want 0.125 0.648 0.500 0.382, got $got"

got="$(field "$r" 1 bob 8) $(field "$r" 1 suzy 8) $(field "$r" 1 scott 8)"
close "$(field "$r" 1 bob 8)" 0.2 1e-15 && close "$(field "$r" 1 suzy 8)" 0.36 1e-15 &&
	close "$(field "$r" 1 scott 8)" 0.24 1e-15
check pbs_sshare_normshares_is_fairshare_perc_0.2_0.36_0.24 $? \
	"NormShares bob suzy scott: want 0.2 0.36 0.24, got $got"

b=$(job_prio "$r" 2 1) s=$(job_prio "$r" 2 2)
want_b=$(awk -v f="$(field "$r" 2 bob 12)" 'BEGIN { printf "%d", 100000 * f }')
want_s=$(awk -v f="$(field "$r" 2 suzy 12)" 'BEGIN { printf "%d", 100000 * f }')
[ -n "$b" ] && [ "$b" -gt "$s" ] && [ "$b" = "$want_b" ] && [ "$s" = "$want_s" ] &&
	[ "$(prio_field "$r" 2 1 8)" = "64841.977732550484" ]
check pbs_orders_bob_pending_job_before_suzy_s $? \
	"priorities bob $b suzy $s: want $want_b > $want_s; sprio FAIRSHARE bob $(prio_field "$r" 2 1 8)"

grep -q 'PriorityParameters in force: fairshare=pbs$' "$work/ext-seed000-pbs.err"
check settings_in_force_are_logged_at_start $? \
	"no 'PriorityParameters in force: fairshare=pbs' in $work/ext-seed000-pbs.err"

ext_run seed000-pbs-no-fair-tree
r=$work/ext-seed000-pbs-no-fair-tree.out
close "$(field "$r" 1 bob 12)" "$(awk 'BEGIN { printf "%.17g", 2 ^ -(0.125 / 0.2) }')" 1e-15 &&
	close "$(field "$r" 1 suzy 12)" "$(awk 'BEGIN { printf "%.17g", 2 ^ -(0.5 / 0.36) }')" 1e-15
check pbs_no_fair_tree_sshare_computes_pbs_factor_in_the_client $? \
	"FairShare bob suzy: $(field "$r" 1 bob 12) $(field "$r" 1 suzy 12)"

# Every algorithm: the same PBS values; Debian's classic EffectvUsage
# (damping 1) is PBS's tree usage, measured on the same tree.
ext_run pbs-keywords-every-algorithm
r=$work/ext-pbs-keywords-every-algorithm.out
sed -e '/^conf PriorityParameters/d' -e '/^reconfigure/d' \
	-e 's#^tree \.\./#tree '"$PWD/$here"'/#' \
	-e '$a conf PriorityFlags=NO_FAIR_TREE' \
	"$ext/pbs-keywords-every-algorithm.fix" | sed 's/^cycles 4/cycles 1/' \
	>"$work/pbs-keywords-multifactor.fix"
"$bin" -p "$ref" "$work/pbs-keywords-multifactor.fix" >"$work/ext-mf.out" \
	2>"$work/ext-mf.err"
diag=""
for user in bob:1 suzy:2 scott:3; do
	u=${user%:*} j=${user#*:}
	want=$(awk -v e="$(field "$work/ext-mf.out" 1 "$u" 11)" \
		'BEGIN { printf "%d", 1e9 * e }')
	for c in 1 2 3 4; do
		got=$(job_prio "$r" $c $j)
		[ "$got" = "$want" ] || diag="$diag $u cycle $c: $got, want $want;"
	done
done
seed="$(digits "$(awk -v p="$(job_prio "$r" 1 1)" 'BEGIN { print p / 1e9 }')" 6)"
seed="$seed $(digits "$(awk -v p="$(job_prio "$r" 1 3)" 'BEGIN { print p / 1e9 }')" 6)"
[ "$seed" = "0.124896 0.832973" ] || diag="$diag bob, scott $seed, want 0.124896 0.832973 (pbsfs -g)"
[ -z "$diag" ]
check pbs_tree_usage_same_under_classic_depth_oblivious_fair_tree_pbs_and_multifactor $? "$diag"

# --- formula= ------------------------------------------------------------
ext_run formula-seed000
r=$work/ext-formula-seed000.out
diag=""
for user in bob:1 suzy:2 scott:3 cathy:4; do
	u=${user%:*} j=${user#*:}
	want=$(awk -v f="$(field "$r" 1 "$u" 12)" 'BEGIN { printf "%d", 1e9 * f }')
	got=$(job_prio "$r" 1 $j)
	[ "$got" = "$want" ] || diag="$diag $u: $got, want $want;"
done
[ -z "$diag" ]
check formula_pp718_pow_gives_1e9_times_fairshare_factor $? "$diag"

diag=""
for c in 2 3; do
	for j in 1 2 3 4; do
		got=$(job_prio "$r" $c $j)
		[ "$got" = 5 ] || diag="$diag cycle $c job $j: $got;"
	done
done
[ -z "$diag" ]
check formula_pp718_pow_equals_fairshare_factor_bit_for_bit $? \
	"1e18 * (pow(...) - fairshare_factor) + 5 should be 5:$diag"

diag=""
for c in 1 2 3; do
	for j in 5 6; do
		got=$(job_prio "$r" $c $j)
		[ "$got" = 1 ] || diag="$diag cycle $c job $j: $got;"
		[ "$(prio_field "$r" $c $j 14)" = 1 ] ||
			diag="$diag sprio cycle $c job $j: $(prio_field "$r" $c $j 14);"
	done
done
grep -q '^set|3|5|1$' "$r" && grep -q '^set|3|6|1$' "$r" || diag="$diag priority_p_set not 1;"
[ "$(field "$r" 1 zed 12)" = 0 ] || diag="$diag zed FairShare $(field "$r" 1 zed 12);"
[ -z "$diag" ]
check formula_zero_shares_gives_priority_1_never_0_held_and_fairshare_0 $? "$diag"

lines=$(grep -c "formula: division by zero at column" "$work/ext-formula-seed000.err")
[ "$lines" = 2 ] && grep -q 'column 37; the formula.s value is 0 (reported once)' \
	"$work/ext-formula-seed000.err"
check formula_division_by_zero_logged_once_per_compiled_formula $? \
	"$lines lines for 2 formulas, 3 cycles, 2 jobs of zed: $(grep 'division' "$work/ext-formula-seed000.err")"

if [ "$series" = 22.05 ]; then
	[ "$(prio_field "$r" 1 1 14)" = "$(job_prio "$r" 1 1)" ] &&
		close "$(prio_field "$r" 1 1 8)" "$(awk -v f="$(field "$r" 1 bob 12)" 'BEGIN { printf "%.17g", 100000 * f }')" 1e-15
	check sprio_shows_formula_value_as_priority_and_weighted_fairshare_input $? \
		"sprio bob: PRIORITY $(prio_field "$r" 1 1 14) vs $(job_prio "$r" 1 1), FAIRSHARE $(prio_field "$r" 1 1 8)"
else
	# 24.11 sends no factors with a direct_prio row: sprio shows 0.
	[ "$(prio_field "$r" 1 1 14)" = "$(job_prio "$r" 1 1)" ] &&
		[ "$(prio_field "$r" 1 1 8)" = 0 ] && [ "$(job_prio "$r" 1 1)" -gt 1 ]
	check sprio_shows_formula_value_as_priority_and_no_factors $? \
		"sprio bob: PRIORITY $(prio_field "$r" 1 1 14) vs $(job_prio "$r" 1 1), FAIRSHARE $(prio_field "$r" 1 1 8) (want 0)"
fi

ext_run formula-faults
r=$work/ext-formula-faults.out
diag=""
for c in 1 2 3; do
	for j in 1 2; do
		[ "$(job_prio "$r" $c $j)" = 1 ] || diag="$diag cycle $c job $j: $(job_prio "$r" $c $j);"
	done
done
e=$work/ext-formula-faults.err
[ "$(grep -c 'formula: overflow in exp()' "$e")" = 1 ] || diag="$diag overflow lines: $(grep -c overflow "$e");"
[ "$(grep -c 'formula: domain error in sqrt()' "$e")" = 1 ] || diag="$diag domain lines: $(grep -c domain "$e");"
[ -z "$diag" ]
check formula_overflow_and_domain_error_give_priority_1_logged_once_each $? "$diag"

[ "$(job_prio "$r" 4 1)" = 1000000000 ] && [ "$(job_prio "$r" 4 2)" = 1000000000 ]
check formula_zero_usage_gives_fairshare_factor_1 $? \
	"1e9 * fairshare_factor + fairshare_tree_usage: $(job_prio "$r" 4 1) $(job_prio "$r" 4 2)"

ext_run bad-formula
rc=$?
[ $rc -ne 0 ] && grep -q "formula: column 45: expected ')' after function arguments, found end of formula; slurmctld cannot start" \
	"$work/ext-bad-formula.err"
check bad_formula_refuses_start_naming_the_column $? \
	"exit $rc; $(grep treeshare "$work/ext-bad-formula.err" | head -2)"

ext_run contradiction
rc=$?
[ $rc -ne 0 ] && grep -q "fairshare=fair_tree contradicts PriorityFlags=NO_FAIR_TREE" \
	"$work/ext-contradiction.err"
check fairshare_contradicting_priority_flags_refuses_start_naming_both $? \
	"exit $rc; $(grep treeshare "$work/ext-contradiction.err" | head -2)"

# --- Maui targets (seed 003) ---------------------------------------------
ext_run targets
r=$work/ext-targets.out e=$work/ext-targets.err
diag=""
expect() { # CYCLE USER WANT
	close "$(field "$r" "$1" "$2" 12)" "$3" 1e-12 ||
		diag="$diag cycle $1 $2: $(field "$r" "$1" "$2" 12), want $3;"
}
g2=$(awk 'BEGIN { printf "%.17g", 0.5 + (30 - 1000 / 12) / 200 }')
bob=$(awk 'BEGIN { printf "%.17g", 0.5 + (50 - 100 / 12) / 200 }')
expect 1 suzy "$g2"
expect 1 scott "$g2"
expect 1 bob "$bob"
expect 1 cathy "$(awk 'BEGIN { printf "%.17g", 2 ^ -(0.125 / 0.2) }')"
[ "$(job_prio "$r" 1 1)" = "$(awk -v f="$bob" 'BEGIN { printf "%d", 1e5 * f }')" ] ||
	diag="$diag bob's job $(job_prio "$r" 1 1);"
[ -z "$diag" ]
check targets_difference_policy_gives_target_and_floor_factors $? "$diag"

diag=""
g2=$(awk 'BEGIN { printf "%.17g", 2 ^ -((1000 / 12) / 30) }')
bob=$(awk 'BEGIN { printf "%.17g", 2 ^ -((100 / 12) / 50) }')
expect 2 suzy "$g2"
expect 2 scott "$g2"
expect 2 bob "$bob"
[ -z "$diag" ]
check targets_ratio_policy_at_reconfigure_gives_pbs_like_factors $? "$diag"

# What a refused reconfigure logs: 22.05 keeps the running plugin; from
# 24.11 the new slurmctld cannot start and the old one resumes with its
# configuration (ts-harness(1), reconfigure).
if [ "$series" = 22.05 ]; then
	kept_targets="previous targets kept"
	kept_conf="running configuration kept (PriorityParameters in force: 'fairshare=pbs,fs_targets="
else
	kept_targets="this slurmctld cannot start (scontrol reconfigure"
	kept_conf=$kept_targets
fi
diag=""
expect 3 suzy "$g2"
expect 3 bob "$bob"
grep -qF "/bad.targets: line 4: target '120' out of range 0..100; $kept_targets" "$e" ||
	diag="$diag no 'line 4 ... $kept_targets' line;"
[ -z "$diag" ]
check targets_file_error_at_reconfigure_is_logged_and_keeps_previous_targets $? "$diag"

diag=""
expect 4 suzy "$g2"
expect 4 bob "$bob"
grep "fs_target (column 15): unknown key" "$e" | grep -qF "$kept_conf" ||
	diag="$diag no 'unknown key ... $kept_conf' line;"
[ -z "$diag" ]
check bad_key_at_reconfigure_is_logged_and_keeps_running_configuration $? "$diag"

# --- issue 31: who may own the targets file; its bytes quoted in the log
. "$here/check_file_trust.sh"
. "$here/check_credentials.sh"

# --- Maui usage windows (seed 003) ---------------------------------------
ext_run maui-john
r=$work/ext-maui-john.out
close "$(field "$r" 11 john 10)" "$(awk 'BEGIN { printf "%.17g", 68.75 / 216.25 }')" 1e-12 &&
	[ "$(field "$r" 11 john 9)" = 297000 ] && [ "$(field "$r" 11 root 9)" = 934200 ]
check maui_windows_give_seed003_john_68.75_over_216.25_through_the_plugin $? \
	"john NormUsage $(field "$r" 11 john 10) (want 0.3179190751), RawUsage $(field "$r" 11 john 9) of $(field "$r" 11 root 9) (want 297000 of 934200)"

got="$(field "$r" 3 john 9) $(field "$r" 3 root 9) $(field "$r" 4 john 9) $(field "$r" 4 root 9)"
[ "$got" = "180000 540000 115200 396000" ]
check maui_windows_roll_at_boundary_splitting_running_jobs $? \
	"RawUsage john, root, cycles 3 and 4: want 180000 540000 115200 396000, got $got"

[ "$(job_prio "$r" 11 10)" -gt "$(job_prio "$r" 11 11)" ]
check maui_windows_order_john_pending_job_before_mary_s $? \
	"john $(job_prio "$r" 11 10), mary $(job_prio "$r" 11 11)"

for d in none torn corrupt both; do
	sed "\$a restart 7 damage=$d" "$ext/maui-john.fix" |
		sed 's#^tree \.\./#tree '"$PWD/$here"'/#' >"$work/maui-john-$d.fix"
	ext_run "maui-john-$d"
	echo $? >"$work/ext-maui-john-$d.rc"
done
cmp -s "$r" "$work/ext-maui-john-none.out"
check maui_windows_survive_restart_identically $? \
	"$(diff "$r" "$work/ext-maui-john-none.out" | head -4)"

lost=$(awk 'BEGIN { printf "%.17g", 68.75 / (216.25 - 0.5 * 14400 / 4320) }')
for d in torn:"torn or truncated" corrupt:"CRC mismatch"; do
	what=${d%%:*} why=${d#*:}
	o=$work/ext-maui-john-$what.out e=$work/ext-maui-john-$what.err
	grep -q "treeshare_state: $why.*; using .*treeshare_state.prev, saved at 2023-11-15T14:00:00Z (last decay 2023-11-15T14:00:00Z): usage charged by jobs that ended after that is lost" "$e" &&
		close "$(field "$o" 11 john 10)" "$lost" 1e-12
	check "maui_${what}_state_file_falls_back_to_prev_losing_only_what_came_after" $? \
		"john $(field "$o" 11 john 10), want $lost; log: $(grep treeshare "$e" | head -2)"
done

e=$work/ext-maui-john-both.err
[ "$(cat "$work/ext-maui-john-both.rc")" -ne 0 ] &&
	[ "$(grep -c 'treeshare_state unusable: .*treeshare_state: torn or truncated.*treeshare_state.prev: CRC mismatch.*slurmctld cannot start' "$e")" = 1 ]
check maui_both_state_file_copies_bad_refuses_start_logged_once $? \
	"exit $(cat "$work/ext-maui-john-both.rc"); $(grep -c unusable "$e") lines"

sed '$a reconfigure 4 PriorityParameters=usage_window=4:00:00,usage_depth=4,usage_decay=0.5' \
	"$ext/maui-john.fix" >"$work/maui-john-4h.fix"
ext_run maui-john-4h -v
o=$work/ext-maui-john-4h.out
grep -q "usage_window changed 43200 -> 14400 s: 4 windows of 43200 s roll out by 2023-11-15T20:00:00Z" \
	"$work/ext-maui-john-4h.err" && [ "$(field "$o" 5 john 9)" = "$(field "$r" 5 john 9)" ] &&
	[ "$(field "$o" 5 root 9)" = "$(field "$r" 5 root 9)" ]
check maui_window_length_change_at_reconfigure_keeps_usage_and_logs_rollout $? \
	"cycle 5 john/root $(field "$o" 5 john 9)/$(field "$o" 5 root 9) vs $(field "$r" 5 john 9)/$(field "$r" 5 root 9); $(grep 'usage_window changed' "$work/ext-maui-john-4h.err")"

# --- the end of a job that never started ---------------------------------
# 26.05's het-job limits validation ends each pending component once at
# submission.  26.05: treeshare charges nothing (bob's RawUsage as with no
# end at all); earlier releases: exactly what multifactor charges.
ext_run pending-job-end
r=$work/ext-pending-job-end.out
sed -e 's#^tree \.\./#tree '"$PWD/$here"'/#' -e '/^job 1 /s/ finish=[^ ]*//' \
	"$ext/pending-job-end.fix" >"$work/pending-job-unended.fix"
ext_run pending-job-unended
u=$work/ext-pending-job-unended.out
"$bin" -p "$ref" "$ext/pending-job-end.fix" >"$work/ext-pending-mf.out" \
	2>"$work/ext-pending-mf.err"
m=$work/ext-pending-mf.out
if [ "$series" = 26.05 ]; then
	[ -n "$(field "$r" 2 bob 9)" ] &&
		[ "$(field "$r" 2 bob 9)" = "$(field "$u" 2 bob 9)" ] &&
		[ "$(field "$r" 3 bob 9)" = "$(field "$u" 3 bob 9)" ]
	check job_end_of_a_pending_job_charges_nothing_on_26.05 $? \
		"bob RawUsage $(field "$r" 2 bob 9), without the end $(field "$u" 2 bob 9) (multifactor $(field "$m" 2 bob 9))"
else
	[ -n "$(field "$r" 2 bob 9)" ] &&
		[ "$(field "$r" 2 bob 9)" = "$(field "$m" 2 bob 9)" ] &&
		[ "$(field "$r" 2 bob 9)" != "$(field "$u" 2 bob 9)" ]
	check job_end_of_a_pending_job_charges_as_multifactor_before_26.05 $? \
		"bob RawUsage $(field "$r" 2 bob 9), multifactor $(field "$m" 2 bob 9), without the end $(field "$u" 2 bob 9)"
fi
