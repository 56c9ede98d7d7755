# SPDX-License-Identifier: GPL-2.0-or-later
#
# check_credentials.sh - issue 27's usage per credential in the "harness"
# stage, sourced by check_extensions.sh (which defines ext_run, check,
# close, $work, $here, $ext, $build).
#
# Seed 003's John (maui-john.fix) with a user weight and a group target:
# the plugin keeps Maui's usage per user, group, account, QOS and class in
# the windows and saves it in treeshare_state; sshare-ext --diagnose-f
# reads it back.  John is alone in his uid and gid (the harness gives a
# job its user's uid as gid), so his user and group rows are his
# association's usage: 68.75 / 216.25 = 31.79 %, and per window (newest
# first) 60/110, 0/125, 10/100, 50/150.

sx=$build/bin/sshare-ext
c=$(cd "$work" && pwd)/cred
mkdir -p "$c"
chmod 755 "$c"
printf 'group 5001 10+\nqos normal 25-\n' >"$c/cred.targets"
chmod 644 "$c/cred.targets"

# cred_fix NAME [LINE]: maui-john.fix with uids 5001 (john) and 5002
# (mary), fs_targets and a user weight, and LINE appended.
cred_fix() {
	sed -e '/^user john /s/$/ uid=5001/' -e '/^user mary /s/$/ uid=5002/' \
		-e "/^conf PriorityParameters=/s#\$#,fs_targets=$c/cred.targets,fs_user_weight=10#" \
		"$ext/maui-john.fix" >"$work/$1.fix"
	[ -n "${2:-}" ] && echo "$2" >>"$work/$1.fix"
	return 0
}

# cred_view NAME: the view of run NAME's state into $work/NAME.view.
cred_view() {
	"$sx" --diagnose-f --state="$c/$1/treeshare_state" \
		--targets="$c/cred.targets" >"$work/$1.view" 2>"$work/$1.view-err"
}

# row VIEW TYPE NAME: that credential's figures after its name.
row() {
	awk -v t="$2" -v n="$3" '$0 == t { in_t = 1; next }
		/^[A-Z]+$/ { in_t = 0 }
		in_t && $1 == n { $1 = ""; sub(/^ /, ""); print; exit }' "$1"
}

# sums VIEW: per type, each window's rows summed; "TYPE k sum" lines.
sums() {
	awk '/^[A-Z]+$/ { t = $0; next }
		/^(FS|Total|Depth|Usage|-)/ || NF < 4 || t == "" { next }
		{ for (k = 4; k <= NF; k++) s[t " " (k - 4)] += $k }
		END { for (x in s) printf "%s %.2f\n", x, s[x] }' "$1" | sort
}

cred_fix cred-john
ext_run cred-john -D "$c/cred-john" -v
rc=$?
cred_view cred-john
vrc=$?
v=$work/cred-john.view
john=$(row "$v" USER 5001)
[ $rc -eq 0 ] && [ $vrc -eq 0 ] &&
	[ "$john" = "31.79 ------- 54.55 0.00 10.00 33.33" ] &&
	[ "$(row "$v" GROUP 5001)" = "31.79 10.00+ 54.55 0.00 10.00 33.33" ] &&
	[ "$(row "$v" USER 5002)" = "68.21 ------- 45.45 100.00 90.00 66.67" ] &&
	grep -q "Depth: 4 intervals   Interval Length: 12:00:00   Decay Rate: 0.50" "$v" &&
	grep -q "kept in the usage windows, from now on" "$work/ext-cred-john.err"
check credentials_give_seed003_john_per_user_and_group_through_the_plugin $? \
	"exit $rc/$vrc; john: '$john' (want 31.79 ------- 54.55 0.00 10.00 33.33); $(head -c 300 "$work/cred-john.view-err")"

# every job is charged to one credential of each type: each type's rows
# sum to 100 % of every window; one account and one partition ("debug",
# FNV-1a 0x72a1170d) hold everything
bad=$(sums "$v" | awk '$3 != "100.00"')
[ -z "$bad" ] && [ "$(sums "$v" | wc -l)" = 20 ] &&
	[ "$(row "$v" CLASS '#72a1170d')" = "100.00 ------- 100.00 100.00 100.00 100.00" ]
check credentials_every_type_sums_to_the_total_in_every_window $? \
	"sums not 100: $bad; class: $(row "$v" CLASS '#72a1170d')"

# a restart at cycle 7 (slurmctld stopped, started): the same view
cred_fix cred-restart "restart 7"
ext_run cred-restart -D "$c/cred-restart"
cred_view cred-restart
cmp -s "$v" "$work/cred-restart.view"
check credentials_survive_restart_identically $? \
	"$(diff "$v" "$work/cred-restart.view" | head -4)"

# without usage_window= the usage per credential decays by
# PriorityDecayHalfLife, charged and decayed as usage_raw: John alone in
# uid and gid 5001, his user and group shares are his RawUsage over the
# root's after the last cycle, and every type sums to 100
cred_fix cred-hl
sed -i 's#usage_window=12:00:00,usage_depth=4,usage_decay=0.5,##' "$work/cred-hl.fix"
ext_run cred-hl -D "$c/cred-hl" -v
rc=$?
cred_view cred-hl
v=$work/cred-hl.view
want=$(awk -F'|' '$1 == "assoc" && $2 == 11 && $5 == "root" { root = $9 }
	$1 == "assoc" && $2 == 11 && $5 == "john" { john = $9 }
	END { if (root > 0) printf "%.2f", 100 * john / root }' "$work/ext-cred-hl.out")
john=$(row "$v" USER 5001)
[ $rc -eq 0 ] && [ -n "$want" ] && [ "$want" != "0.00" ] &&
	grep -q "usage per credential (user, group, account, qos, class) decaying by PriorityDecayHalfLife, from now on" \
		"$work/ext-cred-hl.err" &&
	[ "${john%% *}" = "$want" ] && [ "$(row "$v" GROUP 5001 | cut -d' ' -f1)" = "$want" ] &&
	[ -z "$(sums "$v" | awk '$3 != "100.00"')" ]
check credentials_without_windows_decay_by_half_life_as_raw_usage $? \
	"exit $rc; john '$john', RawUsage share $want; $(grep -a 'per credential' "$work/ext-cred-hl.err" | head -2); $(head -c 300 "$work/cred-hl.view-err")"

# --- fs_import= (issue 27, migration): seed 003's John as Maui's files ---
# John's and Mary's usage per window (oldest first: John 50, 10, 0, 60 of
# totals 150, 100, 125, 110) as four FS.<EPOCH> files, John in every
# credential type (user and group 5001, account maui, QOS normal, class
# debug) and Mary only as user and group 5002, the rest of each TOTAL
# being usage without a credential of that type.  Imported at the start
# (fake clock B0 + 2 h, windows of 12 h from B0), the view gives John's
# seed figures in every type: 31.79 % weighted, per window 54.55 0.00
# 10.00 33.33 (newest first).  Offline the view names QOS by id, so the
# QOS row shows no target.
h=$c/maui-stats
mkdir -p "$h"
chmod 755 "$h"
b0=1699963200
for w in "0 50 150" "1 10 100" "2 0 125" "3 60 110"; do
	set -- $w
	start=$((b0 - (3 - $1) * 43200))
	{
		echo "# Fairshare Data File (Duration: 43200 Seconds) Starting: seed 003"
		printf 'User 5001 %s\nUser 5002 %s\nGroup 5001 %s\nGroup 5002 %s\n' \
			"$2" "$(($3 - $2))" "$2" "$(($3 - $2))"
		printf 'Account maui %s\nQOS normal %s\nClass debug %s\nTOTAL %s\n' \
			"$2" "$2" "$2" "$3"
	} >"$h/FS.$start"
	chmod 644 "$h/FS.$start"
done
printf 'this is no FS file\n' >"$h/stats.1699963200"

# import_fix NAME DIR: maui-john.fix with no running job, one cycle, and
# fs_import=DIR.
import_fix() {
	cred_fix "$1"
	sed -i -e '/state=running/d' -e 's/^cycles .*/cycles 1/' \
		-e "/^conf PriorityParameters=/s#\$#,fs_import=$2#" "$work/$1.fix"
}

# row_in VIEW TYPE FIGURES: some row of TYPE has these figures.
row_in() {
	awk -v t="$2" -v f="$3" '$0 == t { in_t = 1; next }
		/^[A-Z]+$/ { in_t = 0 }
		in_t { n = $1; $1 = ""; sub(/^ /, ""); if ($0 == f) found = 1 }
		END { exit !found }' "$1"
}

import_fix cred-import "$h"
ext_run cred-import -D "$c/cred-import" -v
rc=$?
cred_view cred-import
v=$work/cred-import.view
seed="54.55 0.00 10.00 33.33"
[ $rc -eq 0 ] &&
	grep -qF "fs_import $h: window files: 4 imported, 0 older than usage_depth left out; lines: 28; TOTAL 485; each file in the window holding its start, at most 0 s after it" \
		"$work/ext-cred-import.err" &&
	grep -q "kept in the usage windows, from fs_import" "$work/ext-cred-import.err" &&
	[ "$(row "$v" USER 5001)" = "31.79 ------- $seed" ] &&
	[ "$(row "$v" GROUP 5001)" = "31.79 10.00+ $seed" ] &&
	row_in "$v" ACCOUNT "31.79 ------- $seed" &&
	row_in "$v" QOS "31.79 ------- $seed" &&
	[ "$(row "$v" CLASS '#72a1170d')" = "31.79 ------- $seed" ] &&
	[ "$(row "$v" USER 5002)" = "68.21 ------- 45.45 100.00 90.00 66.67" ]
check fs_import_gives_seed003_john_in_every_credential_type $? \
	"exit $rc; $(grep -a 'fs_import' "$work/ext-cred-import.err" | head -2); user 5001 '$(row "$v" USER 5001)' class '$(row "$v" CLASS '#72a1170d')'; $(head -c 300 "$work/cred-import.view-err")"

bad=$(sums "$v" | awk '$3 != "100.00"')
[ -z "$bad" ] && [ "$(sums "$v" | wc -l)" = 20 ]
check fs_import_keeps_every_type_summing_to_the_total $? "sums not 100: $bad"

# all or nothing, by file and line: a name not known here, a window of
# another length, a directory someone else may write.  slurmctld does
# not start, and says why.
# import_refused NAME DIR CHECK MESSAGE: with fs_import=DIR slurmctld
# does not start, and its log says MESSAGE.
import_refused() {
	local rc e=$work/ext-$1.err
	import_fix "$1" "$2"
	ext_run "$1"
	rc=$?
	[ $rc -ne 0 ] && grep -qF "$4; slurmctld cannot start" "$e"
	check "$3" $? "exit $rc; $(grep -a treeshare "$e" | head -2)"
}

cp -r "$h" "$c/maui-bad"
sed -i '3s/.*/User nosuchuser 1/' "$c/maui-bad/FS.$b0"
import_refused cred-import-name "$c/maui-bad" \
	fs_import_refuses_an_unknown_name_by_file_and_line \
	"fs_import: $c/maui-bad/FS.$b0 line 3: user 'nosuchuser': not known here; remove the line to import the rest"

cp -r "$h" "$c/maui-6h"
sed -i '1s/43200/21600/' "$c/maui-6h/FS.$((b0 - 86400))"
import_refused cred-import-length "$c/maui-6h" \
	fs_import_refuses_a_window_of_another_length \
	"fs_import: $c/maui-6h/FS.$((b0 - 86400)) line 1: a window of 21600 s, but usage_window is 43200 s: import windows of the same length"

cp -r "$h" "$c/maui-open"
chmod 777 "$c/maui-open"
import_refused cred-import-open "$c/maui-open" \
	fs_import_refuses_a_directory_others_may_write \
	"fs_import: directory $c/maui-open has mode 0777: writable by group or others (chmod go-w $c/maui-open); owner root (uid 0)"
