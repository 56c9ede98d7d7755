#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# root.sh - a private Debian root (mmdebstrap) to build and test treeshare
# on another Debian release than the host's, and take it down again.
#
#   root.sh create DIST DIR   a fresh root of DIST (trixie, bookworm, ...)
#   root.sh mount DIR         proc, sysfs (ro), devpts, a tmpfs on dev/shm
#   root.sh run DIR [VAR=VALUE...] CMD...
#                             CMD inside (chroot, clean environment + VARs)
#   root.sh stop DIR          kill every process whose root is DIR
#   root.sh umount DIR        stop, then unmount whatever is mounted in DIR
#   root.sh remove DIR        umount, then delete DIR
#
# The root gets the host's own Debian mirror (or $MIRROR and
# $SECURITY_MIRROR), "deb" lines for DIST, DIST-updates and DIST-security
# and no "deb-src" line: make deps adds those itself, as on any machine.
# A policy-rc.d keeps package scripts from starting daemons; the tests
# start their own, privately.  Only processes whose /proc/PID/root is DIR
# or below it are ever signalled.  docs/treeshare-build.7.
set -u -o pipefail

die() { echo "root.sh: $*" >&2; exit 1; }

# host_mirror SUFFIX - the URI the host's apt uses for its own release's
# suite ending in SUFFIX ("" main archive, "-security"), without the
# trailing slash; empty if none.
host_mirror()
{
	local codename
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	apt-get indextargets --format '$(CODENAME) $(REPO_URI)' \
		'Created-By: Packages' 2>/dev/null |
		awk -v want="$codename$1" '$1 == want && !u { sub(/\/$/, "", $2); u = $2 } END { print u }'
}

cmd_create()
{
	local dist=${1:?create needs DIST} dir=${2:?create needs DIR}
	local mirror security t0=$SECONDS
	[ "$(id -u)" = 0 ] || die "create must run as root"
	if ! command -v mmdebstrap >/dev/null; then
		echo "root.sh: installing mmdebstrap on the host"
		apt-get -o DPkg::Lock::Timeout=600 install -y -q \
			--no-install-recommends mmdebstrap >/dev/null ||
			die "apt-get install mmdebstrap failed"
	fi
	mirror=${MIRROR:-$(host_mirror "")}
	security=${SECURITY_MIRROR:-$(host_mirror -security)}
	mirror=${mirror:-http://deb.debian.org/debian}
	security=${security:-http://deb.debian.org/debian-security}
	[ -e "$dir" ] && die "$dir exists; remove it first (root.sh remove $dir)"
	mkdir -p "$(dirname "$dir")"
	# beside it until the marker inside exists: a root that mmdebstrap
	# left half made (killed, failed) may be removed as well
	echo "treeshare release root $dist, being created $(date '+%F %T')" \
		>"$dir.creating"
	echo "root.sh: mmdebstrap $dist into $dir from $mirror and $security"
	# sid has no -updates and -security suites; testing's Release file
	# may be past its Valid-Until on a mirror (RECIPE 1).
	local sources=("deb $mirror $dist main") opts=()
	case $dist in
	sid|unstable) ;;
	*) sources+=("deb $mirror $dist-updates main" "deb $security $dist-security main") ;;
	esac
	case $dist in
	forky|testing|sid|unstable) opts+=(--aptopt='Acquire::Check-Valid-Until "false"') ;;
	esac
	# --include: what make needs to start; make deps installs the rest.
	nice -n "${RELEASE_NICE:-10}" mmdebstrap --variant=apt --mode=root "${opts[@]}" \
		--include=make,procps,iproute2,ca-certificates \
		"$dist" "$dir" "${sources[@]}" >"$dir.mmdebstrap.log" 2>&1 ||
		{ tail -20 "$dir.mmdebstrap.log" >&2; die "mmdebstrap $dist failed (log: $dir.mmdebstrap.log)"; }
	# the host's names (the root shares its network): munged and Slurm
	# look up this host's name
	cp /etc/hosts "$dir/etc/hosts"
	# no daemon starts from a package script inside the root
	printf '#!/bin/sh\nexit 101\n' >"$dir/usr/sbin/policy-rc.d"
	chmod 755 "$dir/usr/sbin/policy-rc.d"
	echo "treeshare release root $dist, created $(date '+%F %T')" \
		>"$dir/.treeshare-release-root"
	rm -f "$dir.creating"
	echo "root.sh: $dist root ready in $((SECONDS - t0)) s ($(du -sh "$dir" | cut -f1))"
}

is_root_dir()
{
	[ -f "$1/.treeshare-release-root" ] || [ -f "$1.creating" ] ||
		die "$1 is not a root made by root.sh create"
}

# mounts_under DIR - mount points at DIR or below, deepest first.
mounts_under()
{
	awk -v d="$1" '$2 == d || index($2, d "/") == 1 { print $2 }' /proc/self/mounts |
		awk '{ print length($0), $0 }' | sort -rn | cut -d' ' -f2-
}

cmd_mount()
{
	local dir
	dir=$(readlink -f "${1:?mount needs DIR}")
	is_root_dir "$dir"
	mountpoint -q "$dir/proc" || mount -t proc proc "$dir/proc" || die "mount proc"
	mountpoint -q "$dir/sys" || mount -t sysfs -o ro sysfs "$dir/sys" || die "mount sysfs"
	mkdir -p "$dir/dev/pts" "$dir/dev/shm"
	mountpoint -q "$dir/dev/pts" ||
		mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts "$dir/dev/pts" ||
		die "mount devpts"
	mountpoint -q "$dir/dev/shm" ||
		mount -t tmpfs -o mode=1777,size=512m shm "$dir/dev/shm" || die "mount shm"
}

cmd_run()
{
	local dir vars=()
	dir=$(readlink -f "${1:?run needs DIR}")
	shift
	is_root_dir "$dir"
	while [ $# -gt 0 ] && [[ $1 =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; do
		vars+=("$1")
		shift
	done
	env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" "${vars[@]}" \
		chroot "$dir" "$@"
}

# root_pids DIR - pids of processes whose root directory is DIR or below.
root_pids()
{
	local p r
	for p in /proc/[0-9]*; do
		r=$(readlink "$p/root" 2>/dev/null) || continue
		[ "$r" = "$1" ] || [ "${r#"$1"/}" != "$r" ] || continue
		p=${p#/proc/}
		[ "$p" = $$ ] || [ "$p" = "$BASHPID" ] || echo "$p"
	done
}

cmd_stop()
{
	local dir pids i
	dir=$(readlink -f "${1:?stop needs DIR}")
	pids=$(root_pids "$dir" | xargs)
	[ -n "$pids" ] || return 0
	echo "root.sh: stopping processes in $dir: $pids"
	# shellcheck disable=SC2086
	kill -TERM $pids 2>/dev/null
	for ((i = 0; i < 100; i++)); do
		pids=$(root_pids "$dir" | xargs)
		[ -n "$pids" ] || return 0
		sleep 0.1
	done
	# slurmstepd ignores SIGTERM (RECIPE 4)
	for ((i = 0; i < 50; i++)); do
		pids=$(root_pids "$dir" | xargs)
		[ -n "$pids" ] || return 0
		# shellcheck disable=SC2086
		kill -KILL $pids 2>/dev/null
		sleep 0.1
	done
	echo "root.sh: still alive in $dir after SIGKILL: $pids" >&2
	return 1
}

cmd_umount()
{
	local dir m rc=0
	dir=$(readlink -f "${1:?umount needs DIR}")
	[ -d "$dir" ] || return 0
	cmd_stop "$dir" || rc=1
	for m in $(mounts_under "$dir"); do
		umount "$m" 2>/dev/null || umount -l "$m" ||
			{ echo "root.sh: cannot unmount $m" >&2; rc=1; }
	done
	[ -z "$(mounts_under "$dir")" ] || rc=1
	return $rc
}

cmd_remove()
{
	local dir
	dir=$(readlink -f "${1:?remove needs DIR}")
	[ -e "$dir" ] || { rm -f "$dir.creating" "$dir.mmdebstrap.log"; return 0; }
	is_root_dir "$dir"
	cmd_umount "$dir" || die "not removing $dir: something is still mounted or running in it"
	rm -rf --one-file-system "$dir" "$dir.mmdebstrap.log" "$dir.creating"
}

main()
{
	case ${1:-} in
	create) shift; cmd_create "$@" ;;
	mount) shift; cmd_mount "$@" ;;
	run) shift; cmd_run "$@" ;;
	stop) shift; cmd_stop "$@" ;;
	umount) shift; cmd_umount "$@" ;;
	remove) shift; cmd_remove "$@" ;;
	*) sed -n '4,13s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
}

# One line: bash has read all of it before running it, so an edit of this
# file during a long "run" cannot feed it other lines afterwards.
main "$@"; exit $?
