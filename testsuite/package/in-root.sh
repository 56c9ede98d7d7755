#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# in-root.sh - stage "package", inside the fresh Debian root (stage.sh
# copies it to /opt/treeshare-test with the packages, the cluster lab and
# the build tree's priority_treeshare.so in build-plugin/).
#
#  1. apt-get install ./treeshare_*.deb: the plugin lands in Slurm's
#     PluginDir, sshare-ext and node_power in PATH.
#  2. the cluster lab, PluginDir left to Slurm's default: seed 000's tree,
#     short jobs charged when they end, then usage frozen
#     (PriorityDecayHalfLife=0) and one pending job per user.  On that one
#     state, slurmctld restarted each time with
#       A  priority/treeshare from the default PluginDir (the package's),
#       B  priority/treeshare from build-plugin/ (the build tree's),
#       C  Debian's priority/multifactor,
#     gives the same "sshare -l -a -P" and "sprio -l -h" text: A = B is
#     the package against the build tree on identical inputs; A = C is
#     the drop-in promise.  The package's sshare-ext prints sshare's text.
#  3. apt-get install ./treeshare-as-multifactor_*.deb: Debian's file is
#     diverted unchanged, a reinstall keeps it so; a bad PriorityParameters
#     key under multifactor's name refuses the start; with
#     PriorityType=priority/multifactor and PriorityParameters=fairshare=pbs
#     (a key only treeshare knows) slurmctld logs that treeshare runs
#     under multifactor's name and the key in force, and prints
#       D  what priority/treeshare prints with the same key (E),
#     unlike C.
#  4. apt-get remove treeshare-as-multifactor puts Debian's file back;
#     reinstalled, then apt-get purge of both: dpkg --verify
#     slurm-wlm-basic-plugins is clean and priority_multifactor.so is
#     byte for byte the one in Debian's .deb (sha256), no diversion and
#     no file of ours left.
# TAP appended to $TAP_FILE.
set -u -o pipefail
T=/opt/treeshare-test
export TS_CLUSTER_DIR=/var/tmp/lab DEBIAN_FRONTEND=noninteractive
# shellcheck source=../cluster/lib.sh
. "$T/testsuite/cluster/lib.sh"
SNAP=$TS_CLUSTER_DIR/snap
LOG=$TS_CLUSTER_DIR/log/slurmctld.log
APT=(apt-get -o DPkg::Lock::Timeout=600 -y -q)
TREE=$T/testsuite/trees/seed000.tree
declare -A PEND=()

deb_ts=$(ls "$T"/treeshare_*.deb)
deb_mf=$(ls "$T"/treeshare-as-multifactor_*.deb)
version=$(dpkg-deb -f "$deb_ts" Version)
plugindir=$(dpkg-query -L slurm-wlm-basic-plugins |
	sed -n 's,/priority_multifactor\.so$,,p')
mf=$plugindir/priority_multifactor.so
slurm_version=$(dpkg-query -W -f='${Version}' slurm-wlm-basic-plugins)

sha() { sha256sum <"$1" | cut -d' ' -f1; }

# deb_file_sha DEB PATH - sha256 of PATH inside package file DEB.
deb_file_sha()
{
	dpkg-deb --fsys-tarfile "$1" | tar -xOf - ".$2" | sha256sum | cut -d' ' -f1
}

# conf_drop KEY - remove every KEY= line from the lab's slurm.conf.
conf_drop()
{
	sed -i "/^[[:space:]]*$1[[:space:]]*=/Id" "$SLURM_CONF"
}

# ctld_lib NAME - the path of the priority plugin slurmctld has mapped.
ctld_lib()
{
	grep -o "/[^ ]*/$1\$" "/proc/$(ts_daemon_pid slurmctld)/maps" | sort -u
}

# settle NAME - after a restart: snapshot NAME once sprio lists every
# pending job and two snapshots 2 s apart agree (the start's first
# decay cycle is done).
settle()
{
	local i prev="" cur
	for ((i = 0; i < 30; i++)); do
		if ts_sprio_lists "${PEND[@]}" && ts_snapshot "$1"; then
			cur=$(cat "$SNAP/$1.sshare" "$SNAP/$1.sprio")
			[ -n "$prev" ] && [ "$cur" = "$prev" ] && return 0
			prev=$cur
		fi
		sleep 2
	done
	echo "no two equal snapshots 2 s apart within 60 s" >&2
	return 1
}

# restart_snap NAME KEY=VALUE... - set slurm.conf keys, restart
# slurmctld, settle, snapshot NAME.
restart_snap()
{
	local name=$1
	shift
	[ $# -eq 0 ] || "$TS_CLUSTER" conf "$@" || return 1
	"$TS_CLUSTER" restart slurmctld >"$SNAP/$name.restart" 2>&1 &&
		settle "$name" 2>>"$SNAP/$name.restart" ||
		{ cat "$SNAP/$name.restart"; return 1; }
}

# same LABEL X Y - sshare and sprio text of snapshots X and Y identical.
same()
{
	local out bad=""
	for out in sshare sprio; do
		cmp -s "$SNAP/$2.$out" "$SNAP/$3.$out" ||
			bad+="$out: $(diff "$SNAP/$2.$out" "$SNAP/$3.$out")"$'\n'
	done
	if [ -z "$bad" ]; then
		ok "package: $1: sshare -l -a -P and sprio -l -h text identical ($(grep -c . "$SNAP/$2.sshare") and $(grep -c . "$SNAP/$2.sprio") lines)"
	else
		not_ok "package: $1: sshare -l -a -P and sprio -l -h text identical" "$bad"
	fi
}

echo "package: in the root: treeshare $version, Slurm $slurm_version, PluginDir $plugindir"
deb_sha=$(sha "$mf")
slurm_deb=$(ls /var/cache/apt/archives/slurm-wlm-basic-plugins_*.deb 2>/dev/null | head -1)
pkg_sha=$( [ -n "$slurm_deb" ] && deb_file_sha "$slurm_deb" "$mf")
if [ -n "$pkg_sha" ] && [ "$pkg_sha" = "$deb_sha" ]; then
	ok "package: Debian's priority_multifactor.so in the root is the one in $(basename "$slurm_deb") (sha256 ${pkg_sha:0:16}...)"
else
	not_ok "package: Debian's priority_multifactor.so in the root is the one in Debian's .deb" \
		"installed $deb_sha, .deb '${pkg_sha}' ($slurm_deb)"
fi

# --- 1. treeshare -------------------------------------------------------
t=$(date +%s)
if "${APT[@]}" install "$deb_ts" >/tmp/apt-ts.log 2>&1 &&
   [ "$(dpkg-query -W -f='${Version}' treeshare)" = "$version" ] &&
   [ -f "$plugindir/priority_treeshare.so" ] &&
   [ -x /usr/bin/sshare-ext ] && [ -x /usr/sbin/node_power ] &&
   [ -f /usr/share/man/man5/priority_treeshare.5.gz ]; then
	ok "package: apt-get install ./$(basename "$deb_ts") installs the plugin in $plugindir, sshare-ext, node_power and the man pages ($(($(date +%s) - t))s)"
else
	not_ok "package: apt-get install ./$(basename "$deb_ts") installs the plugin, sshare-ext, node_power and the man pages" \
		"$(tail -15 /tmp/apt-ts.log)"
	exit 1
fi

# --- 2. the cluster lab ---------------------------------------------------
t=$(date +%s)
if ! "$TS_CLUSTER" up --plugin priority/treeshare --nodes 2 >/tmp/up.log 2>&1; then
	not_ok "package: cluster up with priority/treeshare" "$(cat /tmp/up.log)"
	exit 1
fi
trap '"$TS_CLUSTER" down >/dev/null 2>&1' EXIT
mkdir -p "$SNAP"
# Slurm's default PluginDir; jobs charged when they end (limits).
conf_drop PluginDir
"$TS_CLUSTER" conf AccountingStorageEnforce=associations,limits &&
	"$TS_CLUSTER" restart slurmctld >/tmp/restart.log 2>&1 ||
	{ not_ok "package: slurmctld restarts without a PluginDir line" "$(cat /tmp/restart.log)"; exit 1; }
lib=$(ctld_lib priority_treeshare.so)
pd=$(scontrol show config | awk '$1 == "PluginDir" { print $3 }')
if [[ $lib == *"$plugindir/priority_treeshare.so" ]] && [ "$pd" = "$plugindir" ]; then
	ok "package: slurmctld with PriorityType=priority/treeshare and no PluginDir line loads the package's plugin from Slurm's default PluginDir ($pd)"
else
	not_ok "package: slurmctld with PriorityType=priority/treeshare and no PluginDir line loads the package's plugin from Slurm's default PluginDir" \
		"PluginDir '$pd', mapped '$lib'"
fi

if ! ts_tree_load "$TREE" 2>/tmp/tree.err; then
	not_ok "package: seed000.tree loads" "$(cat /tmp/tree.err)"
	exit 1
fi
for u in bob:4 cathy:1 scott:8; do
	ts_submit "${u%:*}" -p lab -c "${u#*:}" --wrap 'sleep 3' >/dev/null
done
if wait_for 60 "the jobs to end" sh -c '[ -z "$(squeue -h)" ]' &&
   wait_for 30 "usage" ts_users_have_usage bob cathy scott; then
	ok "package: jobs of bob, cathy and scott run and are charged ($(($(date +%s) - t))s since cluster up)"
else
	not_ok "package: jobs of bob, cathy and scott run and are charged" \
		"$(squeue 2>&1)" "$(sshare -a -l 2>&1)"
	exit 1
fi
# Freeze usage: no decay, no job running; pending jobs for sprio.
"$TS_CLUSTER" conf PriorityDecayHalfLife=0 PriorityUsageResetPeriod=YEARLY
for u in bob cathy suzy scott; do
	PEND[$u]=$(ts_submit "$u" -p wait -c 1 --wrap 'sleep 60')
done

if restart_snap installed; then
	lib_a=$(ctld_lib priority_treeshare.so)
else
	not_ok "package: (A) slurmctld restarts with the installed priority/treeshare"
	exit 1
fi
if restart_snap build PluginDir="$T/build-plugin:$plugindir"; then
	lib_b=$(ctld_lib priority_treeshare.so)
	if [[ $lib_a == *"$plugindir/priority_treeshare.so" ]] &&
	   [[ $lib_b == *"$T/build-plugin/priority_treeshare.so" ]]; then
		ok "package: (A) is the package's plugin, (B) the build tree's, by slurmctld's memory map"
	else
		not_ok "package: (A) is the package's plugin, (B) the build tree's, by slurmctld's memory map" \
			"A: $lib_a" "B: $lib_b"
	fi
	same "installed plugin (A) and build tree's plugin (B) on one state" installed build
else
	not_ok "package: (B) slurmctld restarts with the build tree's priority/treeshare"
fi
conf_drop PluginDir
if restart_snap multifactor PriorityType=priority/multifactor; then
	same "installed treeshare (A) and Debian's priority/multifactor (C) on one state" installed multifactor
else
	not_ok "package: (C) slurmctld restarts with Debian's priority/multifactor"
fi
bad=""
for o in "-a" "-a -P" "-a -p -o Account,User,RawShares,RawUsage,FairShare"; do
	# shellcheck disable=SC2086
	cmp -s <(sshare $o 2>&1) <(/usr/bin/sshare-ext $o 2>&1) ||
		bad+="$o: $(diff <(sshare $o 2>&1) <(/usr/bin/sshare-ext $o 2>&1))"$'\n'
done
if [ -z "$bad" ]; then
	ok "package: the package's sshare-ext prints sshare's text (-a; -a -P; -a -p -o ...)"
else
	not_ok "package: the package's sshare-ext prints sshare's text" "$bad"
fi

# --- 3. treeshare-as-multifactor ------------------------------------------
t=$(date +%s)
"${APT[@]}" install "$deb_mf" >/tmp/apt-mf.log 2>&1
ours_sha=$(deb_file_sha "$deb_mf" "$mf")
div=$(dpkg-divert --list "$mf")
if [ "$div" = "diversion of $mf to $mf.distrib by treeshare-as-multifactor" ] &&
   [ "$(sha "$mf.distrib")" = "$deb_sha" ] && [ "$(sha "$mf")" = "$ours_sha" ]; then
	ok "package: apt-get install ./$(basename "$deb_mf") diverts Debian's priority_multifactor.so unchanged to .distrib and installs treeshare's ($(($(date +%s) - t))s)"
else
	not_ok "package: apt-get install ./$(basename "$deb_mf") diverts Debian's priority_multifactor.so unchanged and installs treeshare's" \
		"diversion: '$div'" "$(ls -l "$plugindir"/priority_multifactor* 2>&1)" \
		"$(tail -15 /tmp/apt-mf.log)"
fi
"${APT[@]}" install --reinstall "$deb_mf" >/tmp/apt-mf2.log 2>&1
if [ "$(dpkg-divert --list "$mf")" = "$div" ] &&
   [ "$(sha "$mf.distrib")" = "$deb_sha" ] && [ "$(sha "$mf")" = "$ours_sha" ]; then
	ok "package: a reinstall of treeshare-as-multifactor keeps the diversion and both files"
else
	not_ok "package: a reinstall of treeshare-as-multifactor keeps the diversion and both files" \
		"$(dpkg-divert --list "$mf")" "$(tail -15 /tmp/apt-mf2.log)"
fi

# A bad key under multifactor's name refuses the start, as treeshare
# does: Debian's multifactor, diverted to a name Slurm never loads,
# cannot stand in for it.
line=$(wc -l <"$LOG")
"$TS_CLUSTER" conf PriorityType=priority/multifactor PriorityParameters=bogus_key=1
if "$TS_CLUSTER" restart slurmctld >/tmp/bad.log 2>&1; then
	not_ok "package: under multifactor's name a bad PriorityParameters key refuses the start" \
		"slurmctld started: $(tail -n "+$((line + 1))" "$LOG" | grep -i priority | head -5)"
elif tail -n "+$((line + 1))" "$LOG" | grep -F "priority/multifactor: PriorityParameters=bogus_key=1: bogus_key (column 1): unknown key" |
	grep -qF "; slurmctld cannot start"; then
	ok "package: under multifactor's name a bad PriorityParameters key refuses the start with treeshare's one line"
else
	not_ok "package: under multifactor's name a bad PriorityParameters key refuses the start with treeshare's one line" \
		"$(tail -n "+$((line + 1))" "$LOG" | tail -8)"
fi

line=$(wc -l <"$LOG")
if restart_snap as-multifactor PriorityType=priority/multifactor \
	PriorityParameters=fairshare=pbs; then
	lib=$(ctld_lib priority_multifactor.so)
	log=$(tail -n "+$((line + 1))" "$LOG")
	if [[ $lib == *"$mf" ]] &&
	   grep -qF "priority/multifactor: this is treeshare (priority/treeshare) under priority/multifactor's name" <<<"$log" &&
	   grep -qF "priority/multifactor: PriorityParameters in force: fairshare=pbs" <<<"$log"; then
		ok "package: PriorityType=priority/multifactor runs treeshare: its start line in slurmctld.log, the treeshare-only key fairshare=pbs in force"
	else
		not_ok "package: PriorityType=priority/multifactor runs treeshare: its start line in slurmctld.log, the treeshare-only key fairshare=pbs in force" \
			"mapped: $lib" "$(grep -i 'priority' <<<"$log" | head -10)"
	fi
	if restart_snap treeshare-pbs PriorityType=priority/treeshare; then
		same "treeshare under multifactor's name (D) and priority/treeshare (E), both fairshare=pbs" as-multifactor treeshare-pbs
	else
		not_ok "package: (E) slurmctld restarts with priority/treeshare and fairshare=pbs"
	fi
	if ! cmp -s "$SNAP/as-multifactor.sshare" "$SNAP/multifactor.sshare"; then
		ok "package: fairshare=pbs under multifactor's name changes sshare from Debian's multifactor's (C): the key took effect"
	else
		not_ok "package: fairshare=pbs under multifactor's name changes sshare from Debian's multifactor's (C): the key took effect"
	fi
else
	not_ok "package: (D) slurmctld restarts with PriorityType=priority/multifactor from treeshare-as-multifactor, PriorityParameters=fairshare=pbs"
fi
"$TS_CLUSTER" down >/dev/null 2>&1
trap - EXIT

# --- 4. remove, purge -------------------------------------------------------
"${APT[@]}" remove treeshare-as-multifactor >/tmp/apt-rm.log 2>&1
if [ -z "$(dpkg-divert --list "$mf")" ] && [ "$(sha "$mf")" = "$deb_sha" ] &&
   [ ! -e "$mf.distrib" ] && [ -f "$plugindir/priority_treeshare.so" ]; then
	ok "package: apt-get remove treeshare-as-multifactor puts Debian's priority_multifactor.so back (sha256) and removes the diversion; treeshare stays"
else
	not_ok "package: apt-get remove treeshare-as-multifactor puts Debian's priority_multifactor.so back and removes the diversion" \
		"$(dpkg-divert --list "$mf")" "$(ls -l "$plugindir"/priority_* 2>&1)" "$(tail -10 /tmp/apt-rm.log)"
fi
"${APT[@]}" install "$deb_mf" >/tmp/apt-mf3.log 2>&1
"${APT[@]}" purge treeshare treeshare-as-multifactor >/tmp/apt-purge.log 2>&1
verify=$(dpkg --verify slurm-wlm-basic-plugins 2>&1)
vrc=$?
left=$(ls "$plugindir"/priority_treeshare.so "$mf.distrib" /usr/bin/sshare-ext \
	/usr/sbin/node_power 2>/dev/null; dpkg-divert --list '*treeshare*';
	dpkg-divert --list "$mf"; dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' \
	treeshare treeshare-as-multifactor 2>/dev/null | grep -v '^un ')
if [ "$vrc" = 0 ] && [ -z "$verify" ] && [ "$(sha "$mf")" = "$pkg_sha" ] &&
   [ -z "$left" ]; then
	ok "package: after apt-get purge dpkg --verify slurm-wlm-basic-plugins is clean, priority_multifactor.so is the .deb's byte for byte (sha256), nothing of treeshare is left"
else
	not_ok "package: after apt-get purge dpkg --verify slurm-wlm-basic-plugins is clean, priority_multifactor.so is the .deb's byte for byte, nothing of treeshare is left" \
		"dpkg --verify (exit $vrc): $verify" "sha256 $(sha "$mf"), .deb's $pkg_sha" \
		"left: $left" "$(tail -10 /tmp/apt-purge.log)"
fi
! grep -q '^not ok' "$TAP_FILE"
