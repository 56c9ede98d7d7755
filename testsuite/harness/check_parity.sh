#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check_parity.sh TAP_FILE - the "harness" stage of make check.
#
# Runs build/bin/ts-harness for Debian's priority/multifactor (the
# reference) and for priority/treeshare on every fixture and on seeded
# random cases, and requires the same report (ts-harness(1), COMPARE).
# First it checks the harness itself: multifactor against multifactor,
# the seed 000 worked example under classic and Fair Tree, and test24.1's
# first-cycle effect.  Then calls around and after fini() (-F): Debian's
# multifactor crashes on them, treeshare must not.  Then issue 5's
# PriorityParameters fixtures (check_extensions.sh), which have no
# multifactor reference.  Last,
# valgrind memcheck and helgrind on the treeshare plugin, counting only
# errors in the plugin's code.
#
# Until build/lib/slurm/priority_treeshare.so exists every treeshare line
# fails, loudly, naming the missing file.
#
# Environment: BUILD (build), HARNESS_CASES (random cases per algorithm,
# 200), HARNESS_BATCH (cases per TAP line, 25), HARNESS_JOBS (parallel
# runs, 2).  Reports stay in build/harness/run-PID until the next run.
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
algos="classic depth_oblivious fair_tree"
# One directory per run, so that runs started by several people on one
# checkout do not delete each other's reports; those of finished runs go.
for old in "$build"/harness/run-*; do
	[ -d "$old" ] || continue
	kill -0 "${old##*/run-}" 2>/dev/null || rm -rf "$old"
done
work=$build/harness/run-$$
mkdir -p "$work/random" "$(dirname "$tap")"
: >"$tap"
n=0
export bin ref new work

ok() {
	n=$((n + 1))
	echo "ok $n - $1" | tee -a "$tap"
}
not_ok() {
	n=$((n + 1))
	echo "not ok $n - $1" | tee -a "$tap"
	if [ -n "${2:-}" ]; then
		printf '%s\n' "$2" | sed 's/^#* *//; s/^/# /' | head -12 |
			tee -a "$tap"
	fi
}

# pair FIXTURE PLUGIN_A PLUGIN_B: run both, compare; on success print
# nothing, else one diagnostic paragraph.  Results next to the fixture's
# name in $work.
pair() {
	local fx=$1 out a b
	out=$work/$(basename "$fx" .fix)
	a=$out.${2##*/}.1 b=$out.${3##*/}.2
	if ! "$bin" -p "$2" "$fx" >"$a" 2>"$a.err"; then
		echo "$2 failed on $fx:"
		tail -3 "$a.err"
		return 1
	fi
	if ! "$bin" -p "$3" "$fx" >"$b" 2>"$b.err"; then
		echo "$3 failed on $fx:"
		tail -3 "$b.err"
		return 1
	fi
	if ! "$bin" compare "$a" "$b" >"$out.diff"; then
		echo "$fx ($2 = A, $3 = B):"
		cat "$out.diff"
		return 1
	fi
}
export -f pair

# cases LIST_FILE PLUGIN_A PLUGIN_B: pair() over every fixture in the
# list, $jobs at a time; RET the first failure's diagnostic, empty if
# none.
cases() {
	xargs -a "$1" -P "$jobs" -I{} bash -c \
		'pair "$1" "$2" "$3" >"$1.verdict" 2>&1 || true' _ {} "$2" "$3"
	local fx
	while read -r fx; do
		if [ -s "$fx.verdict" ]; then
			cat "$fx.verdict"
			return
		fi
	done <"$1"
}

# field REPORT CYCLE NAME COLUMN: one field of an assoc line.
field() {
	awk -F'|' -v c="$2" -v name="$3" -v col="$4" \
		'$1 == "assoc" && $2 == c && $5 == name { print $col; exit }' \
		"$1"
}

# digits VALUE N: VALUE rounded to N decimals.
digits() { awk -v v="$1" -v n="$2" 'BEGIN { printf "%.*f\n", n, v }'; }

if [ ! -x "$bin" ]; then
	not_ok "ts-harness is built" "$bin missing"
	exit 1
fi
# The Slurm release ts-harness and the plugins are built for: "22.05"
# or "24.11" (check_extensions.sh expects what that release does).
series=$("$bin" version | cut -d. -f1-2)
echo "# Slurm $("$bin" version)" | tee -a "$tap"

# --- the build refuses a release it does not know -----------------------
# The configured tree with its version changed to 23.02.1: compiling the
# compatibility header must fail, naming that release and the supported.
src=${SLURM_SRC:-$build/slurm-src}
fake=$work/slurm-23.02.1
mkdir -p "$fake/slurm"
sed 's/^#define SLURM_VERSION_NUMBER .*/#define SLURM_VERSION_NUMBER 0x170201/' \
	"$src/slurm/slurm_version.h" >"$fake/slurm/slurm_version.h"
sed 's/^#define SLURM_VERSION_STRING .*/#define SLURM_VERSION_STRING "23.02.1"/' \
	"$src/config.h" >"$fake/config.h"
echo '#include "plugins/slurm_compat.h"' >"$fake/t.c"
if out=$(${CC:-cc} -std=c11 -iquote . -I"$fake" -I"$src" -fsyntax-only \
	"$fake/t.c" 2>&1); then
	not_ok "build_refuses_slurm_23.02.1_naming_it_and_the_supported_releases" \
		"slurm_compat.h compiled against 23.02.1"
elif grep -q 'the Slurm tree is 23.02.1' <<<"$out" &&
	grep -q 'supports the series 22.05, 24.11, 25.05, 25.11 and 26.05' <<<"$out"; then
	ok "build_refuses_slurm_23.02.1_naming_it_and_the_supported_releases"
else
	not_ok "build_refuses_slurm_23.02.1_naming_it_and_the_supported_releases" "$out"
fi

# --- the harness itself -------------------------------------------------
# Its slurmctld stand-ins are exactly what this release's multifactor
# takes from slurmctld: the symbols it leaves undefined that are not
# libslurmfull's (unversioned: libc's carry a version), and the globals it
# defines for itself (plugin_* and libslurmfull's aside).  The harness
# also exports the clock, pthread_join, part_list, the state-file lock and
# assoc_mgr's lock and unlock, timed for make bench, and last_part_update,
# which treeshare reads on every release and 22.05's multifactor does not
# (docs/ts-harness.1, STUBBED SLURMCTLD SYMBOLS).
deb=${TH_DEB_PLUGINDIR:-/usr/lib/x86_64-linux-gnu/slurm-wlm}

# --- the reference is the release's own multifactor ---------------------
# Debian's: with treeshare-as-multifactor installed,
# $deb/priority_multifactor.so is treeshare itself (Debian's file diverted
# to .distrib): every parity test below would compare treeshare with
# itself and pass.  The file must have the checksum dpkg recorded for
# slurm-wlm-basic-plugins.  A Slurm built from source (TH_SLURM_PREFIX):
# the file must be the one its build made, byte for byte (SLURM_SRC).
ref_so=$deb/priority_multifactor.so
if [ -n "${TH_SLURM_PREFIX:-}" ]; then
	built=$src/src/plugins/priority/multifactor/.libs/priority_multifactor.so
	if [ -f "$built" ] && cmp -s "$built" "$ref_so"; then
		ok "reference_is_the_release_build_own_priority_multifactor_so"
	else
		not_ok "reference_is_the_release_build_own_priority_multifactor_so" \
			"$ref_so is not $built (the file SLURM_SRC's build made)"
	fi
else
	sums=$(dpkg-query --control-path slurm-wlm-basic-plugins md5sums 2>/dev/null)
	want_md5=$(awk -v p="${ref_so#/}" '$2 == p { print $1 }' "${sums:-/dev/null}")
	got_md5=$(md5sum <"$ref_so" 2>/dev/null | cut -d' ' -f1)
	if [ -n "$want_md5" ] && [ "$want_md5" = "$got_md5" ]; then
		ok "reference_is_debians_own_priority_multifactor_so"
	else
		not_ok "reference_is_debians_own_priority_multifactor_so" \
			"$ref_so has md5 ${got_md5:-none}, slurm-wlm-basic-plugins packaged ${want_md5:-none} ($(dpkg-divert --list "$ref_so" 2>/dev/null)); purge treeshare-as-multifactor before make check"
	fi
fi

syms() { nm -D "$@" 2>/dev/null | awk '$NF !~ /@/ { print $NF }' | sort -u; }
full=$(syms --defined-only "$deb/libslurmfull.so")
need=$( {
	comm -23 <(syms --undefined-only "$deb/priority_multifactor.so") <(echo "$full")
	nm -D --defined-only "$deb/priority_multifactor.so" |
		awk '$2 ~ /^[BDG]$/ && $3 !~ /^plugin_/ { print $3 }' | sort -u |
		comm -23 - <(echo "$full")
} | grep -v '^_' | sort -u)
extra="assoc_mgr_lock assoc_mgr_unlock clock_gettime gettimeofday last_part_update lock_state_files part_list pthread_join time unlock_state_files"
have=$(syms --defined-only "$bin" | grep -v '^_')
missing=$(comm -23 <(echo "$need") <(echo "$have") | tr '\n' ' ')
unneeded=$(comm -13 <(echo "$need") <(echo "$have") |
	grep -vxF -f <(tr ' ' '\n' <<<"$extra") | tr '\n' ' ')
if [ -n "$need" ] && [ -z "$missing" ] && [ -z "$unneeded" ]; then
	ok "harness_exports_exactly_what_this_release_multifactor_takes_from_slurmctld"
else
	not_ok "harness_exports_exactly_what_this_release_multifactor_takes_from_slurmctld" \
		"missing: ${missing:-none}; exported but not needed: ${unneeded:-none}"
fi

# fixtures/ for every release, fixtures-SERIES/ for what releases from
# that series on have (24.11: jobs of several QOS).
from_series() { [ "$(printf '%s\n' "$1" "$series" | sort -V | head -1)" = "$1" ]; }
{
	ls "$here"/fixtures/*.fix
	for d in "$here"/fixtures-*/; do
		d=${d%/}
		if from_series "${d##*/fixtures-}"; then ls "$d"/*.fix; fi
	done
} 2>/dev/null >"$work/fixtures.list"
for fx in $(cat "$work/fixtures.list"); do
	name=$(basename "$fx" .fix)
	if diag=$(pair "$fx" $ref $ref); then
		ok "multifactor_twice_gives_same_report_on_$name"
	else
		not_ok "multifactor_twice_gives_same_report_on_$name" "$diag"
	fi
done

# Seed 000 (PP-718) worked example, classic fair share, damping 1.
s0=$work/seed000-classic.multifactor.1
want="0.125 0.648 0.500 0.382"
got="$(digits "$(field "$s0" 1 bob 11)" 3) $(digits "$(field "$s0" 1 bob 12)" 3)"
got="$got $(digits "$(field "$s0" 1 suzy 11)" 3) $(digits "$(field "$s0" 1 suzy 12)" 3)"
if [ "$got" = "$want" ]; then
	ok "multifactor_gives_seed000_bob_0.125_0.648_suzy_0.5_0.382"
else
	not_ok "multifactor_gives_seed000_bob_0.125_0.648_suzy_0.5_0.382" \
		"EffectvUsage/FairShare bob, suzy: want $want, got $got"
fi

# The same tree under Fair Tree, ranked by hand with seed 004's rules.
ft=$work/seed000-fair-tree.multifactor.1
want="1 1 0.5 0.25"
got="$(field "$ft" 1 bob 12) $(field "$ft" 1 cathy 12) $(field "$ft" 1 suzy 12) $(field "$ft" 1 scott 12)"
if [ "$got" = "$want" ]; then
	ok "multifactor_fair_tree_ranks_seed000_bob_cathy_1_suzy_0.5_scott_0.25"
else
	not_ok "multifactor_fair_tree_ranks_seed000_bob_cathy_1_suzy_0.5_scott_0.25" \
		"FairShare bob cathy suzy scott: want $want, got $got"
fi

# test24.1's tree: multifactor's first DEPTH_OBLIVIOUS cycle reads
# uncomputed siblings (AccountB 8.9e-9), the second gives 0.2288.
t24=$work/test24.1-depth-oblivious.multifactor.1
got="$(awk -v v="$(field "$t24" 1 AccountB 11)" 'BEGIN { printf "%.1e", v }') $(digits "$(field "$t24" 2 AccountB 11)" 4)"
if [ "$got" = "8.9e-09 0.2288" ]; then
	ok "multifactor_depth_oblivious_cycle1_defect_is_reproduced"
else
	not_ok "multifactor_depth_oblivious_cycle1_defect_is_reproduced" \
		"AccountB EffectvUsage cycle 1, cycle 2: want 8.9e-09 0.2288, got $got"
fi

# The comparison rules themselves, on a real report: a fair-share field
# may move by 1e-12 relative but not by 1e-6; a sprio factor not by 1 ulp.
# nudge REPORT FIELD FACTOR OUT: bob's assoc field FIELD times FACTOR.
nudge() {
	awk -F'|' -v col="$2" -v f="$3" 'BEGIN { OFS = "|" }
		$1 == "assoc" && $2 == 1 && $5 == "bob" {
			$col = sprintf("%.17g", $col * f) }
		{ print }' "$1" >"$4"
}
nudge "$s0" 11 1.000001 "$work/nudged-6"
if ! "$bin" compare "$s0" "$work/nudged-6" >/dev/null; then
	ok "compare_rejects_1e-6_relative_change_of_EffectvUsage"
else
	not_ok "compare_rejects_1e-6_relative_change_of_EffectvUsage"
fi
nudge "$s0" 11 1.000000000001 "$work/nudged-12"
if "$bin" compare "$s0" "$work/nudged-12" >/dev/null &&
	! cmp -s "$s0" "$work/nudged-12"; then
	ok "compare_accepts_1e-12_relative_change_of_EffectvUsage"
else
	not_ok "compare_accepts_1e-12_relative_change_of_EffectvUsage"
fi
awk -F'|' 'BEGIN { OFS = "|" } $1 == "prio" && !done {
		$6 = sprintf("%.17g", $6 * (1 + 2.3e-16)); done = 1 } { print }' \
	"$s0" >"$work/nudged-prio"
if ! cmp -s "$s0" "$work/nudged-prio" &&
	! "$bin" compare "$s0" "$work/nudged-prio" >/dev/null; then
	ok "compare_rejects_one_ulp_change_of_a_sprio_factor"
else
	not_ok "compare_rejects_one_ulp_change_of_a_sprio_factor"
fi

# Random cases: generate, then check multifactor is deterministic on all.
for algo in $algos; do
	: >"$work/random/$algo.list"
	for seed in $(seq 1 "$cases"); do
		fx=$work/random/$algo-$seed.fix
		"$bin" gen -a "$algo" -s "$seed" >"$fx"
		echo "$fx" >>"$work/random/$algo.list"
	done
	diag=$(cases "$work/random/$algo.list" $ref $ref)
	if [ -z "$diag" ]; then
		ok "multifactor_twice_gives_same_report_on_${cases}_random_${algo}_cases"
	else
		not_ok "multifactor_twice_gives_same_report_on_${cases}_random_${algo}_cases" "$diag"
	fi
done

# --- parity: treeshare against multifactor -------------------------------
missing="$treeshare_so does not exist: the treeshare plugin is not built"
for fx in $(cat "$work/fixtures.list"); do
	name="treeshare_matches_multifactor_on_$(basename "$fx" .fix)"
	if [ ! -f "$treeshare_so" ]; then
		not_ok "$name" "$missing"
	elif diag=$(pair "$fx" $ref $new); then
		ok "$name"
	else
		not_ok "$name" "$diag"
	fi
done

for algo in $algos; do
	for first in $(seq 1 "$batch" "$cases"); do
		last=$((first + batch - 1))
		[ "$last" -gt "$cases" ] && last=$cases
		name="treeshare_matches_multifactor_on_random_${algo}_cases_${first}_to_${last}"
		if [ ! -f "$treeshare_so" ]; then
			not_ok "$name" "$missing"
			continue
		fi
		sed -n "${first},${last}p" "$work/random/$algo.list" \
			>"$work/random/$algo.$first.list"
		diag=$(cases "$work/random/$algo.$first.list" $ref $new)
		if [ -z "$diag" ]; then
			ok "$name"
		else
			not_ok "$name" "$diag"
		fi
	done
done

# --- calls around and after fini() --------------------------------------
# From 24.11 slurmctld unloads its priority plugin (priority_g_fini())
# while RPC threads still serve job ends and submissions, which then call
# the plugin through the pointers priority_g_*() kept (ts-harness(1),
# CALLS AFTER FINI).  Debian's multifactor crashes on them; treeshare
# must let a call already inside finish before fini() frees what it uses,
# stay mapped, turn later calls away with a harmless value and one log
# line, and serve again once started again in the same process.
af_fx=$here/fixtures/usage-running-classic.fix
af=$work/after-fini
new_name=${new##*/}
# af_field KIND COLUMN: a field of treeshare's after_fini|KIND line.
af_field() {
	awk -F'|' -v k="$1" -v c="$2" \
		'$1 == "after_fini" && $2 == k { print $c; exit }' "$af.$new_name"
}
# (no core file; bash's "Segmentation fault" line not on the TAP stream)
{ (
	ulimit -c 0
	exec "$bin" -p $ref -F "$af_fx" >"$af.${ref##*/}" 2>"$af.${ref##*/}.err"
); } 2>/dev/null
rc=$?
if [ $rc -eq 139 ]; then
	ok "multifactor_crashes_on_a_call_after_fini_as_upstream_slurmctld_would"
else
	not_ok "multifactor_crashes_on_a_call_after_fini_as_upstream_slurmctld_would" \
		"exit $rc, not 139 (SIGSEGV): if Debian's multifactor now survives calls after fini, update priority_treeshare(5) DIFFERENCES and this check"
fi
if [ ! -f "$treeshare_so" ]; then
	for name in fini_waits_for_a_call_already_inside stays_mapped_after_slurm_unloads_it \
		refuses_priority_p_set_after_fini_returning_last_prio \
		refuses_priority_p_job_end_after_fini_charging_nothing \
		logs_one_line_for_the_calls_after_fini \
		serves_calls_again_when_started_again_in_the_same_process; do
		not_ok "treeshare_$name" "$missing"
	done
else
	{ (
		ulimit -c 0
		exec "$bin" -p $new -v -F "$af_fx" >"$af.$new_name" 2>"$af.$new_name.err"
	); } 2>/dev/null
	rc=$?
	diag="exit $rc; $(grep '^after_fini' "$af.$new_name" | tr '\n' ' ')$(tail -2 "$af.$new_name.err")"
	job=$(af_field inside 3)
	got=$(af_field inside 4)
	# A computed priority (a refusal gives last_prio, 1 here): 22.05
	# gives the set line's; from 24.11 the held call, before any cycle,
	# computes its fair share on demand (8400 where the set line has 8354)
	if [ -n "$job" ] && [ "$(af_field inside 5)" = 0 ] &&
		[ -n "$got" ] && [ "$got" -gt 1 ]; then
		ok "treeshare_fini_waits_for_a_call_already_inside"
	else
		not_ok "treeshare_fini_waits_for_a_call_already_inside" \
			"want after_fini|inside|$job|PRIORITY>1|0 (fini returned after the call, which computed a priority); $diag"
	fi
	if [ "$(af_field mapped 3)" = 1 ]; then
		ok "treeshare_stays_mapped_after_slurm_unloads_it"
	else
		not_ok "treeshare_stays_mapped_after_slurm_unloads_it" \
			"dlopen(RTLD_NOLOAD) after fini found no priority_treeshare.so (-z nodelete, module.mk); $diag"
	fi
	if [ -n "$(af_field set 4)" ] && [ "$(af_field set 4)" = "$(af_field set 5)" ]; then
		ok "treeshare_refuses_priority_p_set_after_fini_returning_last_prio"
	else
		not_ok "treeshare_refuses_priority_p_set_after_fini_returning_last_prio" "$diag"
	fi
	if [ -n "$(af_field job_end 4)" ] &&
		[ "$(af_field job_end 4)" = "$(af_field job_end 5)" ]; then
		ok "treeshare_refuses_priority_p_job_end_after_fini_charging_nothing"
	else
		not_ok "treeshare_refuses_priority_p_job_end_after_fini_charging_nothing" \
			"RawUsage of the job's association changed: $diag"
	fi
	lines=$(grep -c 'called after fini(): ignored' "$af.$new_name.err")
	if [ "$lines" = 1 ]; then
		ok "treeshare_logs_one_line_for_the_calls_after_fini"
	else
		not_ok "treeshare_logs_one_line_for_the_calls_after_fini" \
			"$lines lines for two calls; $diag"
	fi
	again=$(af_field again 4)
	if [ $rc -eq 0 ] && [ -n "$again" ] && [ "$again" -gt 1 ] &&
		[ "$again" != "$(af_field set 4)" ]; then
		ok "treeshare_serves_calls_again_when_started_again_in_the_same_process"
	else
		not_ok "treeshare_serves_calls_again_when_started_again_in_the_same_process" \
			"want a computed priority, not 0, 1 or the refusal's $(af_field set 4); $diag"
	fi
fi

# --- issue 5: PriorityParameters, checked against the seeds ---------------
if [ -f "$treeshare_so" ]; then
	. "$here/check_extensions.sh"
else
	not_ok "treeshare_extensions_are_checked" "$missing"
fi

# --- valgrind on the treeshare plugin ------------------------------------
# verdict TOOL XML: errors of the plugin in valgrind's XML.
verdict() {
	awk -v plugin=priority_treeshare.so -v tool="$1" \
		-f "$here/valgrind_verdict.awk" "$2"
}
# valgrind_line NAME TOOL FIXTURE [ts-harness options]: one TAP line.
valgrind_line() {
	local name=$1 tool=$2 fx=$3 xml out rc
	local -a opts=(--tool="$tool")
	shift 3
	[ "$tool" = memcheck ] && opts+=(--leak-check=full
		--show-leak-kinds=definite,indirect,possible)
	xml=$work/$tool-$(basename "$fx" .fix).xml
	valgrind "${opts[@]}" --suppressions="$here/valgrind.supp" \
		--xml=yes --xml-file="$xml" "$bin" -p $new -t 300 "$@" "$fx" \
		>"$xml.out" 2>"$xml.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		not_ok "$name" "ts-harness exited $rc under $tool: $(tail -3 "$xml.err")"
	elif out=$(verdict "$tool" "$xml"); then
		ok "$name"
	else
		not_ok "$name" "$out (full log: $xml)"
	fi
}
vg_fixture=$here/fixtures/usage-running-classic.fix
ext_fixture=$here/extensions/valgrind.fix
names="treeshare_leaks_nothing_under_valgrind_memcheck
treeshare_decay_thread_has_no_data_race_under_helgrind
treeshare_extensions_leak_nothing_under_valgrind_memcheck
treeshare_extensions_have_no_data_race_under_helgrind"
if ! command -v valgrind >/dev/null; then
	for name in $names; do
		not_ok "$name" "valgrind is not installed"
	done
elif [ ! -f "$treeshare_so" ]; then
	for name in $names; do
		not_ok "$name" "$missing"
	done
else
	valgrind_line treeshare_leaks_nothing_under_valgrind_memcheck \
		memcheck "$vg_fixture"
	valgrind_line treeshare_decay_thread_has_no_data_race_under_helgrind \
		helgrind "$vg_fixture" -c 3
	# issue 5: windows, targets, formula, a restart and a reconfigure
	valgrind_line treeshare_extensions_leak_nothing_under_valgrind_memcheck \
		memcheck "$ext_fixture"
	valgrind_line treeshare_extensions_have_no_data_race_under_helgrind \
		helgrind "$ext_fixture"
fi

echo "# reports and diagnostics: $work" | tee -a "$tap"
[ "$(grep -c '^not ok' "$tap")" -eq 0 ]
