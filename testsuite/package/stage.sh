#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stage.sh BUILD - stage "package": make deb's packages installed and run
# in a fresh Debian root, never on this machine itself.
#
#  0. first, make deb in a checkout only root can read (a clone in a
#     mode-700 directory: private_checkout.sh).
#  1. mmdebstrap builds a root of this machine's release from this
#     machine's archive (its apt sources), with Debian's Slurm, munge and
#     MariaDB; the archive's slurmctld must be the one built against.
#  2. proc and sys (recursively: slurmd needs the cgroup mounts) are
#     mounted in it; the packages, the cluster lab (testsuite/cluster),
#     seed 000's tree and the build tree's priority_treeshare.so are
#     copied to /opt/treeshare-test in it.
#  3. in-root.sh runs there under chroot: apt-get install, the cluster
#     lab from the default PluginDir, treeshare-as-multifactor, purge.
#  4. every process whose root is the root directory is stopped, by pid;
#     sys and proc are unmounted; the root is removed (TS_KEEP_ROOT=1
#     keeps it).
# The root is TS_PACKAGE_ROOT (default BUILD/package-root).  TAP to
# BUILD/check/package.tap.  Needs root and the archive.
set -u -o pipefail
build=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
TAP_FILE=$top/$build/check/package.tap
mkdir -p "$(dirname "$TAP_FILE")"
rm -f "$TAP_FILE"
export TAP_FILE
# shellcheck source=../cluster/tap.sh
. "$top/testsuite/cluster/tap.sh"

mkdir -p "$top/$build"
root=$(readlink -f "${TS_PACKAGE_ROOT:-$top/$build/package-root}")
debs=$top/$build/deb
test_dir=/opt/treeshare-test
t_stage=$(date +%s)

# root_pids - pids of the processes whose root directory is $root or
# below it (the daemons in-root.sh started there).
root_pids()
{
	local p r
	for p in /proc/[0-9]*; do
		r=$(readlink "$p/root" 2>/dev/null) || continue
		case $r in "$root" | "$root"/*) echo "${p#/proc/}" ;; esac
	done
}

# teardown [keep] - stop what runs in the root (TERM, then KILL, by pid),
# unmount, and remove the root unless "keep".
teardown()
{
	local pids i
	pids=$(root_pids | xargs)
	if [ -n "$pids" ]; then
		echo "package: stopping processes left in $root: $pids" >&2
		# shellcheck disable=SC2086
		kill -TERM $pids 2>/dev/null
		for ((i = 0; i < 50; i++)); do
			[ -z "$(root_pids)" ] && break
			sleep 0.2
		done
		pids=$(root_pids | xargs)
		# shellcheck disable=SC2086
		[ -z "$pids" ] || kill -KILL $pids 2>/dev/null
	fi
	mountpoint -q "$root/sys" && umount -R "$root/sys"
	mountpoint -q "$root/proc" && umount "$root/proc"
	# Only a directory this stage made (marker) is ever removed.
	if [ "${1:-}" != keep ] && [ "${TS_KEEP_ROOT:-0}" != 1 ] &&
	   [ -f "$root/.treeshare-package-root" ] &&
	   ! mountpoint -q "$root/sys" && ! mountpoint -q "$root/proc"; then
		rm -rf "$root"
	fi
}

# --- 0. make deb in a mode-700 checkout ------------------------------
bash "$top/testsuite/package/private_checkout.sh" "$build"

# A root left by an earlier run: its processes and mounts go first.
[ -d "$root" ] && teardown
if [ -e "$root" ]; then
	not_ok "package: $root is free for a new root" \
		"it exists and is not a root this stage made (no .treeshare-package-root)"
	exit 1
fi
trap 'teardown; diag "package: stage took $(($(date +%s) - t_stage))s"' EXIT

deb_ts=$(ls "$debs"/treeshare_*.deb 2>/dev/null | head -1)
deb_mf=$(ls "$debs"/treeshare-as-multifactor_*.deb 2>/dev/null | head -1)
if [ -z "$deb_ts" ] || [ -z "$deb_mf" ]; then
	not_ok "make deb built treeshare_*.deb and treeshare-as-multifactor_*.deb in $debs"
	exit 1
fi
want_slurm=$(dpkg-deb -f "$deb_ts" Depends | grep -o 'slurmctld (= [^)]*)' |
	sed 's/slurmctld (= \(.*\))/\1/')

# --- 1. the root ------------------------------------------------------
codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
mapfile -t mirrors < <(apt-get indextargets \
	--format '$(CREATED_BY) $(REPO_URI) $(RELEASE) $(COMPONENT)' |
	awk '$1 == "Packages" { print "deb " $2 " " $3 " " $4 }' | sort -u)
t=$(date +%s)
if ! mmdebstrap --variant=apt --mode=root --skip=cleanup/apt \
	--include=slurmctld,slurmd,slurmdbd,slurm-client,munge,mariadb-server,mariadb-client,iproute2,procps,passwd,hostname \
	--customize-hook='cp /etc/hosts "$1/etc/hosts"; touch "$1/.treeshare-package-root"' \
	--customize-hook='printf "#!/bin/sh\nexit 101\n" >"$1/usr/sbin/policy-rc.d"; chmod 755 "$1/usr/sbin/policy-rc.d"' \
	"$codename" "$root" "${mirrors[@]}" >"$top/$build/check/package-mmdebstrap.log" 2>&1; then
	not_ok "mmdebstrap builds a fresh $codename root" \
		"$(tail -20 "$top/$build/check/package-mmdebstrap.log")"
	exit 1
fi
got_slurm=$(chroot "$root" dpkg-query -W -f='${Version}' slurmctld)
if [ "$got_slurm" = "$want_slurm" ]; then
	ok "package: a fresh $codename root from mmdebstrap ($(($(date +%s) - t))s, $(du -sm "$root" | cut -f1) MB) has Debian's slurmctld $got_slurm, the version the packages depend on"
else
	not_ok "package: a fresh $codename root from mmdebstrap has the slurmctld the packages depend on" \
		"root: slurmctld $got_slurm; packages: slurmctld (= $want_slurm): rebuild them (make deb) against the archive's Slurm"
	exit 1
fi

# --- 2. mounts and files ----------------------------------------------
mount -t proc proc "$root/proc" &&
	mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys" ||
	{ not_ok "package: proc and sys mount in the root"; exit 1; }
mkdir -p "$root$test_dir/build-plugin"
cp "$deb_ts" "$deb_mf" "$root$test_dir/"
cp "$top/$build/lib/slurm/priority_treeshare.so" "$root$test_dir/build-plugin/"
(cd "$top" && tar -cf - testsuite/cluster testsuite/trees \
	testsuite/package/in-root.sh) | tar -xf - -C "$root$test_dir"
cp "$TAP_FILE" "$root$test_dir/package.tap"

# --- 3. the tests -----------------------------------------------------
t=$(date +%s)
# The root's labs claim ports in the root's own /tmp: they get a block
# claimed here, beside the labs of this side (testsuite/cluster/config.sh).
ports=$("$top/testsuite/cluster/cluster" --dir "$root" ports-claim 200) ||
	{ not_ok "package: a block of 200 free ports for the root's lab"; exit 1; }
timeout -k 10 600 chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root LANG=C.UTF-8 TAP_FILE=$test_dir/package.tap TS_LAB_PORTS="$ports" \
	bash "$test_dir/testsuite/package/in-root.sh" 2>&1 |
	tee "$top/$build/check/package-in-root.log"
rc=${PIPESTATUS[0]}
"$top/testsuite/cluster/cluster" --dir "$root" ports-drop
cp "$root$test_dir/package.tap" "$TAP_FILE"
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	not_ok "package: in-root.sh ends within 600 s"
fi
diag "package: in-root.sh took $(($(date +%s) - t))s"
# Logs of the cluster in the root, for a failure's diagnosis.
if [ -d "$root/var/tmp/lab/log" ]; then
	rm -rf "$top/$build/check/package-lab-log"
	cp -r "$root/var/tmp/lab/log" "$top/$build/check/package-lab-log"
fi
[ "$rc" = 0 ] && ! grep -q '^not ok' "$TAP_FILE"
