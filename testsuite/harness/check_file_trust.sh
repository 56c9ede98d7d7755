# SPDX-License-Identifier: GPL-2.0-or-later
#
# check_file_trust.sh - issue 31's checks of fs_targets= in the "harness"
# stage, sourced by check_extensions.sh (which defines ext_run, check,
# field, $work, $here, $series, $kept_targets).  The harness runs as
# root, so the files can be given to nobody.
#
# A targets file is read only if root or SlurmUser owns it and neither
# group nor others may write it; a symbolic link on the way must be
# root's or SlurmUser's too; bytes of the file reach the log quoted.

t=$(cd "$work" && pwd)/trust
mkdir -p "$t"
chmod 755 "$t"
cp "$here/extensions/seed003.targets" "$t/root.targets"
cp "$t/root.targets" "$t/nobody.targets"
cp "$t/root.targets" "$t/open.targets"
chmod 644 "$t/root.targets" "$t/nobody.targets"
chown nobody: "$t/nobody.targets"
chmod 666 "$t/open.targets"
printf 'root:*:20228:0:99999:7:::\n' >"$t/shadow"
chmod 600 "$t/shadow"
ln -sf "$t/shadow" "$t/link.targets"
chown -h nobody: "$t/link.targets"
printf '\033[2J\033[31mFAKE-LOG-LINE bob 20\n' >"$t/esc.targets"
chmod 644 "$t/esc.targets"

# trust_fix NAME START_FILE [RECONFIGURE_FILE]: $work/NAME.fix, targets.fix
# with fs_targets= START_FILE, and at cycle 1 RECONFIGURE_FILE.
trust_fix() {
	sed -e '/^conf PriorityParameters/d' -e '/^reconfigure/d' \
		-e 's#^tree \.\./#tree '"$PWD/$here"'/#' \
		-e 's/^cycles .*/cycles 2/' \
		"$here/extensions/targets.fix" >"$work/$1.fix"
	echo "conf PriorityParameters=fairshare=pbs,fs_targets=$t/$2" >>"$work/$1.fix"
	[ -n "${3:-}" ] && echo "reconfigure 1 PriorityParameters=fairshare=pbs,fs_targets=$t/$3" >>"$work/$1.fix"
	return 0
}

nobody_uid=$(id -u nobody)
owner="is owned by nobody (uid $nobody_uid), not by root or SlurmUser"

trust_fix trust-nobody nobody.targets
ext_run trust-nobody
rc=$? e=$work/ext-trust-nobody.err
[ $rc -ne 0 ] && grep "fs_targets $t/nobody.targets: $t/nobody.targets $owner" "$e" |
	grep -q "; mode 0644; slurmctld cannot start"
check targets_file_owned_by_nobody_refuses_start_naming_owner_and_mode $? \
	"exit $rc; $(grep treeshare "$e" | head -2)"

trust_fix trust-open open.targets
ext_run trust-open
rc=$? e=$work/ext-trust-open.err
[ $rc -ne 0 ] && grep -qF "fs_targets $t/open.targets: $t/open.targets has mode 0666: writable by group or others (chmod go-w $t/open.targets); owner root (uid 0); slurmctld cannot start" "$e"
check targets_file_writable_by_others_refuses_start_naming_mode_and_owner $? \
	"exit $rc; $(grep treeshare "$e" | head -2)"

# Cycle 1 under root.targets; the reconfigure to nobody's file is refused
# and cycle 2 keeps root.targets' factors (bob's floor, group2's target).
trust_fix trust-reconf root.targets nobody.targets
ext_run trust-reconf
rc=$? r=$work/ext-trust-reconf.out e=$work/ext-trust-reconf.err
g2=$(awk 'BEGIN { printf "%.17g", 0.5 + (30 - 1000 / 12) / 200 }')
bob=$(awk 'BEGIN { printf "%.17g", 0.5 + (50 - 100 / 12) / 200 }')
diag=""
for c in 1 2; do
	close "$(field "$r" $c suzy 12)" "$g2" 1e-12 &&
		close "$(field "$r" $c bob 12)" "$bob" 1e-12 ||
		diag="$diag cycle $c suzy $(field "$r" $c suzy 12) bob $(field "$r" $c bob 12), want $g2 $bob;"
done
grep "$t/nobody.targets $owner" "$e" | grep -qF "; $kept_targets" ||
	diag="$diag no '$owner ... $kept_targets' line;"
[ -z "$diag" ]
check targets_file_owned_by_nobody_at_reconfigure_keeps_previous_targets $? \
	"exit $rc;$diag"

# nobody's link to a root-only file: refused on the link; not a byte of
# the file it points to reaches the log.
trust_fix trust-link link.targets
ext_run trust-link
rc=$? e=$work/ext-trust-link.err
[ $rc -ne 0 ] &&
	grep -qF "fs_targets $t/link.targets: symbolic link $t/link.targets is owned by nobody (uid $nobody_uid)" "$e" &&
	! grep -q '20228' "$e" "$work/ext-trust-link.out"
check symlink_owned_by_nobody_to_root_only_file_is_refused_and_nothing_of_it_logged $? \
	"exit $rc; $(grep -c 20228 "$e") lines with the file's bytes; $(grep treeshare "$e" | head -2)"

trust_fix trust-esc esc.targets
ext_run trust-esc
rc=$? e=$work/ext-trust-esc.err
[ $rc -ne 0 ] &&
	grep -qF "fs_targets $t/esc.targets: line 1: unknown kind '\\x1b[2J\\x1b[31mFAKE-LOG-LINE' (expected account, user, group, qos or class); slurmctld cannot start" "$e" &&
	! grep -q "$(printf '\033')" "$e"
check esc_in_targets_file_reaches_the_log_as_x1b $? \
	"exit $rc; $(grep -a treeshare "$e" | head -2 | od -c | head -4)"

# Maui's other credentials and weights (issue 27) without usage_window=:
# read and checked, the usage per credential kept by half-life (logged),
# and the tree's factors in sshare are root.targets' (bob's floor,
# group2's target).
{
	cat "$t/root.targets"
	printf 'user bob@* 30\ngroup physdept 20\nqos normal 10-\nclass debug fscap=10%%\n'
} >"$t/cred.targets"
chmod 644 "$t/cred.targets"
trust_fix trust-cred cred.targets
sed -i 's#^conf PriorityParameters=.*#&,fs_weight=100,fs_qos_weight=40#' "$work/trust-cred.fix"
ext_run trust-cred -v
rc=$? r=$work/ext-trust-cred.out e=$work/ext-trust-cred.err
diag=""
close "$(field "$r" 2 suzy 12)" "$g2" 1e-12 &&
	close "$(field "$r" 2 bob 12)" "$bob" 1e-12 ||
	diag="$diag suzy $(field "$r" 2 suzy 12) bob $(field "$r" 2 bob 12), want $g2 $bob;"
grep -qF "fs_targets $t/cred.targets: 4 user@*, group, qos and class entries" "$e" ||
	diag="$diag no '4 user@*, group, qos and class entries' line: $(grep -a treeshare "$e" | head -2);"
grep -qF "usage per credential (user, group, account, qos, class) decaying by PriorityDecayHalfLife, from now on" "$e" ||
	diag="$diag no 'decaying by PriorityDecayHalfLife' line;"
[ $rc -eq 0 ] && [ -z "$diag" ]
check credential_targets_and_weights_without_usage_window_keep_usage_by_half_life_and_the_tree_factors $? \
	"exit $rc;$diag"
