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

# without usage_window= nothing is kept per credential, and it is said
cred_fix cred-hl
sed -i 's#usage_window=12:00:00,usage_depth=4,usage_decay=0.5,##' "$work/cred-hl.fix"
ext_run cred-hl -D "$c/cred-hl" -v
cred_view cred-hl
grep -q "usage per credential (user, group, account, qos, class) is kept only with usage_window=" \
	"$work/ext-cred-hl.err" &&
	grep -q "holds no usage per credential" "$work/cred-hl.view-err"
check credentials_without_windows_are_said_not_kept $? \
	"$(grep -a 'per credential' "$work/ext-cred-hl.err" | head -2); $(cat "$work/cred-hl.view-err")"
