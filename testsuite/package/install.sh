#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# install.sh BUILD - stage "install": make install and make uninstall
# into a DESTDIR, and plain make on a fresh clone without root.
#
#  1. make install DESTDIR=D (default PREFIX, and PREFIX=/opt/treeshare
#     PLUGINDIR=/opt/slurm/lib): exactly the files of install-files.txt,
#     the plugin in Slurm's PluginDir, the programs byte for byte the
#     build's.  Run as root in a private mount namespace where the real
#     target directories are empty tmpfs: anything written outside D
#     lands there (and is reported), never on this machine.
#  2. make uninstall DESTDIR=D leaves no file or link under D.
#  3. plain make in a fresh copy of the tree, as user nobody: exit 2 and
#     one line on stderr saying to run "make deps" as root; make
#     check-unit and make check-structure there, as nobody, pass (they
#     need neither root nor Slurm's source), check-unit printing Check's
#     count (not with INSTALL_FRESH_CLONE_CHECKS=0).
# TAP to BUILD/check/install.tap.  Needs root (unshare -m) and the build.
set -u -o pipefail
build=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/testsuite/package
TAP_FILE=$top/$build/check/install.tap
mkdir -p "$(dirname "$TAP_FILE")"
rm -f "$TAP_FILE"
export TAP_FILE
# shellcheck source=../cluster/tap.sh
. "$top/testsuite/cluster/tap.sh"

work=$(mktemp -d /tmp/treeshare-install.XXXXXX)
trap 'rm -rf "$work"' EXIT
slurm_plugindir=$(make -s -C "$top" --no-print-directory \
	BUILD="$build" print-PLUGINDIR 2>/dev/null)

# expected PREFIX PLUGINDIR - install-files.txt for these directories.
expected()
{
	sed -e '/^#/d' -e "s,@PREFIX@,${1#/},g" -e "s,@PLUGINDIR@,${2#/},g" \
		"$here/install-files.txt" | sort
}

# listing DIR - what is under DIR, as install-files.txt lists it.
listing()
{
	(cd "$1" && find . -mindepth 1 ! -type d -printf '%M %P %l\n') |
		sed 's/ $//' | sort
}

# The mount namespace's propagation: private, as unshare makes it by
# default; in a chroot (make check-release), where "/" is no mount point
# and cannot be made private, the mounts as they are, which is safe only
# if none is shared (a tmpfs would then show outside).
propagation=private
if ! mountpoint -q /; then
	propagation=unchanged
	if grep -q ' shared:' /proc/self/mountinfo; then
		not_ok "install: a private mount namespace for the install (in a chroot with shared mounts: none can be made)"
		exit 1
	fi
fi

# install_in LOG GUARDED_DIRS MAKE_ARGS... - make MAKE_ARGS install as
# root in a new mount namespace where each of GUARDED_DIRS (space
# separated) is an empty tmpfs; prints what appeared in them, or make's
# output (LOG) if it failed.
install_in()
{
	unshare -m --propagation "$propagation" bash -c '
		top=$1 log=$2 guard=$3
		shift 3
		for g in $guard; do
			mkdir -p "$g" && mount -t tmpfs none "$g" || exit 3
		done
		make -s -C "$top" --no-print-directory "$@" install >"$log" 2>&1 ||
			{ cat "$log"; exit 4; }
		for g in $guard; do
			find "$g" -mindepth 1 -printf "outside DESTDIR: %p\n"
		done
	' install_in "$top" "$@"
}

check_install()
{
	local label=$1 prefix=$2 plugindir=$3 d=$work/$1 out bad=""
	shift 3
	mkdir -p "$d"
	out=$(install_in "$work/$label.log" "$prefix $plugindir" \
		BUILD="$build" DESTDIR="$d" "$@" 2>&1)
	[ -z "$out" ] || bad+="$out"$'\n'
	diff <(expected "$prefix" "$plugindir") <(listing "$d") \
		>"$work/$label.diff" || bad+="$(cat "$work/$label.diff")"$'\n'
	cmp -s "$top/$build/lib/slurm/priority_treeshare.so" \
		"$d$plugindir/priority_treeshare.so" || bad+="plugin differs from the build's"$'\n'
	cmp -s "$top/$build/bin/sshare-ext" "$d$prefix/bin/sshare-ext" ||
		bad+="sshare-ext differs from the build's"$'\n'
	grep -qx "ExecStart=$prefix/sbin/node_power cycle" \
		"$d$prefix/share/doc/treeshare/examples/node_power-cycle.service" ||
		bad+="node_power-cycle.service does not run $prefix/sbin/node_power"$'\n'
	if [ -z "$bad" ]; then
		ok "install ($label): make install DESTDIR writes exactly the $(expected "$prefix" "$plugindir" | wc -l) files of install-files.txt, plugin in $plugindir, nothing outside DESTDIR"
	else
		not_ok "install ($label): make install DESTDIR writes exactly the files of install-files.txt, plugin in $plugindir, nothing outside DESTDIR" "$bad"
	fi
	make -s -C "$top" --no-print-directory BUILD="$build" DESTDIR="$d" "$@" \
		uninstall >"$work/$label.un" 2>&1
	out=$(listing "$d")
	if [ -z "$out" ]; then
		ok "install ($label): make uninstall DESTDIR leaves no file or link of ours"
	else
		not_ok "install ($label): make uninstall DESTDIR leaves no file or link of ours" \
			"$out" "$(cat "$work/$label.un")"
	fi
}

if [ -z "$slurm_plugindir" ] || [ ! -f "$slurm_plugindir/priority_multifactor.so" ]; then
	not_ok "install: make finds the PluginDir of the installed Slurm" \
		"PLUGINDIR '$slurm_plugindir' has no priority_multifactor.so"
else
	ok "install: make's PLUGINDIR is the installed Slurm's PluginDir ($slurm_plugindir)"
	check_install default /usr/local "$slurm_plugindir"
fi
check_install opt /opt/treeshare /opt/slurm/lib/slurm \
	PREFIX=/opt/treeshare PLUGINDIR=/opt/slurm/lib/slurm

# 3. a fresh copy of the tree (the files git tracks; without git, all
# but build/), as nobody.
clone=$work/clone
mkdir -p "$clone"
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$top" && git ls-files -z | tar --null -T - -cf -) | tar -xf - -C "$clone"
else
	tar -C "$top" --exclude=./build -cf - . | tar -xf - -C "$clone"
fi
chown -R nobody "$clone"
chmod 755 "$work"
out=$(cd "$clone" && runuser -u nobody -- make 2>&1 >/dev/null)
rc=$?
if [ "$rc" = 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] &&
   [[ $out == *'run "make deps" as root'* ]]; then
	ok "plain make on a fresh clone without root stops with one line: $out"
else
	not_ok "plain make on a fresh clone without root stops with one line saying to run make deps as root" \
		"exit $rc" "$out"
fi
# the contributor's loops: the Check suites and the structure checks.
# INSTALL_FRESH_CLONE_CHECKS=0 (make check-release's root in .ci/run):
# not here, where they would repeat the host's own (neither needs Slurm;
# the root's unit and structure stages still run).
if [ "${INSTALL_FRESH_CLONE_CHECKS:-1}" = 0 ]; then
	echo "# install: check-unit and check-structure on the fresh clone left to the host (INSTALL_FRESH_CLONE_CHECKS=0)"
	! grep -q '^not ok' "$TAP_FILE"
	exit
fi
t=$SECONDS
out=$(cd "$clone" && runuser -u nobody -- make -j"$(nproc)" check-unit 2>&1)
rc=$?
count=$(grep -E '^100%: Checks: [0-9]+, Failures: 0, Errors: 0$' <<<"$out")
if [ "$rc" = 0 ] && [ -n "$count" ] && [ ! -e "$clone/build/slurm-src" ]; then
	ok "make check-unit on a fresh clone as nobody, without Slurm's source: $count ($((SECONDS - t)) s)"
else
	not_ok "make check-unit on a fresh clone as nobody passes and prints its count" \
		"exit $rc" "$(tail -5 <<<"$out")"
fi
out=$(cd "$clone" && runuser -u nobody -- make check-structure 2>&1)
rc=$?
n=$(grep -c '^ok ' "$clone/build/check/structure.tap" 2>/dev/null)
if [ "$rc" = 0 ] && [ "${n:-0}" -gt 0 ] && ! grep -q '^not ok' "$clone/build/check/structure.tap"; then
	ok "make check-structure on a fresh clone as nobody: $n checks pass"
else
	not_ok "make check-structure on a fresh clone as nobody passes" "exit $rc" "$(tail -5 <<<"$out")"
fi
! grep -q '^not ok' "$TAP_FILE"
