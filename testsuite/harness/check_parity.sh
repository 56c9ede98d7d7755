#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check_parity.sh TAP_FILE - the "harness" stage of make check.
#
# Runs build/bin/ts-harness for Debian's priority/multifactor (the
# reference) and for priority/treeshare on every fixture and on seeded
# random cases, and requires the same report (ts-harness(1), COMPARE).
# First it checks the harness itself: multifactor against multifactor,
# the seed 000 worked example, and test24.1's first-cycle effect.  Then
# valgrind (memcheck, helgrind) on the treeshare plugin.
#
# Until build/lib/slurm/priority_treeshare.so exists every treeshare line
# fails, loudly, naming the missing file.
#
# Environment: BUILD (build), HARNESS_CASES (random cases per algorithm,
# 200), HARNESS_BATCH (cases per TAP line, 25), HARNESS_JOBS (parallel
# runs, 2).
set -u
tap=${1:?usage: check_parity.sh TAP_FILE}
build=${BUILD:-build}
bin=$build/bin/ts-harness
here=testsuite/harness
cases=${HARNESS_CASES:-200}
batch=${HARNESS_BATCH:-25}
jobs=${HARNESS_JOBS:-2}
treeshare_so=$build/lib/slurm/priority_treeshare.so
ref=priority/multifactor
new=priority/treeshare
work=$build/harness
rm -rf "$work"
mkdir -p "$work" "$(dirname "$tap")"
: >"$tap"
n=0

ok() { n=$((n + 1)); echo "ok $n - $1" | tee -a "$tap"; }
not_ok() {
	n=$((n + 1))
	echo "not ok $n - $1" | tee -a "$tap"
	[ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/# /' | tee -a "$tap"
	return 0
}

# run PLUGIN FIXTURE OUT: one harness run; stderr kept next to OUT.
run() {
	"$bin" -p "$1" "$2" >"$3" 2>"$3.err"
}

# parity NAME FIXTURE...: multifactor and treeshare on each fixture.
parity() {
	local name=$1 fx out diag=""
	shift
	if [ ! -f "$treeshare_so" ]; then
		not_ok "$name" "$treeshare_so does not exist: the treeshare plugin is not built"
		return
	fi
	for fx in "$@"; do
		out=$work/$(basename "$fx" .fix)
		if ! run $ref "$fx" "$out.ref"; then
			diag="multifactor failed on $fx: $(tail -3 "$out.ref.err")"
			break
		fi
		if ! run $new "$fx" "$out.new"; then
			diag="treeshare failed on $fx: $(tail -3 "$out.new.err")"
			break
		fi
		if ! "$bin" compare "$out.ref" "$out.new" >"$out.diff"; then
			diag="$fx: $(sed 's/^# //' "$out.diff")"
			break
		fi
	done
	if [ -z "$diag" ]; then ok "$name"; else not_ok "$name" "$diag"; fi
}

# field REPORT CYCLE NAME COLUMN: one field of an assoc line.
field() {
	awk -F'|' -v c="$2" -v name="$3" -v col="$4" \
		'$1 == "assoc" && $2 == c && $5 == name { print $col; exit }' "$1"
}

# digits VALUE N: VALUE rounded to N decimals.
digits() { awk -v v="$1" -v n="$2" 'BEGIN { printf "%.*f\n", n, v }'; }

if [ ! -x "$bin" ]; then
	not_ok "ts-harness is built" "$bin missing"
	exit 1
fi

# --- the harness itself -------------------------------------------------
for fx in "$here"/fixtures/*.fix; do
	name=$(basename "$fx" .fix)
	a=$work/$name.det1 b=$work/$name.det2
	if run $ref "$fx" "$a" && run $ref "$fx" "$b" &&
		"$bin" compare "$a" "$b" >"$a.diff"; then
		ok "multifactor_twice_gives_same_report_$name"
	else
		not_ok "multifactor_twice_gives_same_report_$name" \
			"$(cat "$a.err" "$b.err" "$a.diff" 2>/dev/null | tail -5)"
	fi
done

# Seed 000 (PP-718) worked example, classic fair share, damping 1.
s0=$work/seed000-classic.det1
want="0.125 0.648 0.500 0.382"
got="$(digits "$(field "$s0" 1 bob 11)" 3) $(digits "$(field "$s0" 1 bob 12)" 3)"
got="$got $(digits "$(field "$s0" 1 suzy 11)" 3) $(digits "$(field "$s0" 1 suzy 12)" 3)"
if [ "$got" = "$want" ]; then
	ok "multifactor_gives_seed000_bob_0.125_0.648_suzy_0.5_0.382"
else
	not_ok "multifactor_gives_seed000_bob_0.125_0.648_suzy_0.5_0.382" \
		"EffectvUsage/FairShare bob, suzy: want $want, got $got"
fi

# test24.1's tree: multifactor's first DEPTH_OBLIVIOUS cycle reads
# uncomputed siblings (AccountB 8.9e-9), the second gives 0.2288.
t24=$work/test24.1-depth-oblivious.det1
got="$(awk -v v="$(field "$t24" 1 AccountB 11)" 'BEGIN { printf "%.1e", v }') $(digits "$(field "$t24" 2 AccountB 11)" 4)"
if [ "$got" = "8.9e-09 0.2288" ]; then
	ok "multifactor_depth_oblivious_cycle1_defect_is_reproduced"
else
	not_ok "multifactor_depth_oblivious_cycle1_defect_is_reproduced" \
		"AccountB EffectvUsage cycle 1, cycle 2: want 8.9e-09 0.2288, got $got"
fi

# --- parity on the hand-written fixtures --------------------------------
for fx in "$here"/fixtures/*.fix; do
	parity "treeshare_matches_multifactor_on_$(basename "$fx" .fix)" "$fx"
done

[ "$(grep -c '^not ok' "$tap")" -eq 0 ]
