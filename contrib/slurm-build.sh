#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# slurm-build.sh TARBALL BUILD_DIR - a Slurm release from SchedMD's source,
# built into BUILD_DIR for treeshare's build and tests (make deps
# SLURM_TARBALL=..., docs/treeshare-build.7).
#
#   BUILD_DIR/upstream/slurm-VERSION   the source, configured and built
#                                      (make's SLURM_SRC)
#   BUILD_DIR/upstream/inst-VERSION    its install prefix (SLURM_PREFIX)
#
# 1. TARBALL's SHA-256 must be the one SHA256SUMS beside it gives (when
#    that file exists), and its name slurm-MAJOR.MINOR.MICRO.tar.{xz,bz2,gz}.
# 2. configure --prefix=inst-VERSION --sysconfdir=inst-VERSION/etc
#    --disable-debug --enable-multiple-slurmd (as Debian's packages: the
#    lab's nodes are slurmds on one host) --disable-static (libtool would
#    compile every source a second time for static archives nothing
#    here links); accounting_storage/mysql must be configured
#    (mysql_config), or slurmdbd cannot run.
# 3. TS_SLURM_BUILD=core (default): only what treeshare's tests run, the
#    daemons, the clients they call, libslurm and the plugins a lab
#    loads; make's own SUBDIRS, with the rest left out (below).  =all:
#    Slurm's whole "make".  Both: make -j$(nproc), then install.
# 4. A stamp (SLURM_SRC/.treeshare-configured: the tarball's SHA-256 and
#    the build mode) makes a second run with the same tarball do nothing;
#    a run that stopped after configure goes on from there.  A run
#    waits while another builds the same release (flock on
#    BUILD_DIR/upstream/slurm-VERSION.lock).
# Timings of configure, make and install are printed.
set -euo pipefail

tarball=${1:?usage: slurm-build.sh TARBALL BUILD_DIR}
build=${2:?usage: slurm-build.sh TARBALL BUILD_DIR}
mode=${TS_SLURM_BUILD:-core}
say() { echo "slurm-build: $*"; }
die() { echo "slurm-build: error: $*" >&2; exit 1; }

[ -f "$tarball" ] || die "SLURM_TARBALL=$tarball: no such file"
tarball=$(readlink -f "$tarball")
name=$(basename "$tarball")
[[ $name =~ ^slurm-([0-9]+\.[0-9]+\.[0-9]+)\.tar\.(xz|bz2|gz)$ ]] ||
	die "SLURM_TARBALL=$name: not named slurm-MAJOR.MINOR.MICRO.tar.xz (a SchedMD release tarball)"
version=${BASH_REMATCH[1]}
case $mode in core | all) ;; *) die "TS_SLURM_BUILD=$mode: core or all" ;; esac

mkdir -p "$build/upstream"
build=$(cd "$build" && pwd)
src=$build/upstream/slurm-$version
prefix=$build/upstream/inst-$version
stamp=$src/.treeshare-configured

# One build of a release at a time: .ci/run builds every release in the
# background while make check-upstream, release by release, waits here
# for the one it needs, then finds it built (the stamp below).
exec 9>"$build/upstream/slurm-$version.lock"
if ! flock -n 9; then
	say "Slurm $version: another build of it is under way; waiting for it"
	flock 9
fi

sum=$(sha256sum "$tarball" | awk '{ print $1 }')
sums=$(dirname "$tarball")/SHA256SUMS
if [ -f "$sums" ]; then
	want=$(awk -v f="$name" '{ n = $2; sub(/^\*/, "", n) } n == f { print $1 }' "$sums")
	[ -n "$want" ] || die "$sums lists no $name"
	[ "$want" = "$sum" ] ||
		die "$name: SHA-256 $sum is not $want ($sums); a damaged or different tarball"
	say "$name: SHA-256 matches $sums"
else
	say "$name: no SHA256SUMS beside it; SHA-256 $sum (not checked)"
fi

# core: the SUBDIRS of src/ and src/plugins/ without what no test
# runs.  Left out: clients no test calls (and sview, slurmrestd, sackd,
# scrun), and plugin types the lab never loads; data_parser is the
# largest part of a whole build.  certgen, mpi and gpu stay: 25.11's clients and
# daemons load certgen/script at start, slurmctld stops without an MPI
# plugin, slurmstepd without gpu/generic.  Slurm's libraries, the daemons and
# every plugin type the lab's slurm.conf names (or a daemon loads by
# default) stay.
skip_src="sattach sbcast scrontab sdiag slurmrestd sreport sstat strigger sview sackd scrun"
skip_plugins="burst_buffer cli_filter data_parser job_submit metrics node_features site_factor"
# The stamp names the mode and, for core, what is left out.
# TS_SLURM_CFLAGS: configure's CFLAGS (default: autoconf's -g -O2, as
# --disable-debug leaves them).  .ci/run gives -O0 (SchedMD's configure
# --disable-optimizations), for less than three quarters of -O1's
# compile time; the stamps name it, so another value builds again.
cflags=${TS_SLURM_CFLAGS:-}
configured="$sum multiple-slurmd no-static${cflags:+ cflags=$cflags}"
want_stamp="$sum $mode no-static${cflags:+ cflags=$cflags}"
[ "$mode" = all ] || want_stamp="$want_stamp -$skip_src -$skip_plugins"

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want_stamp" ] &&
   [ -x "$prefix/sbin/slurmctld" ]; then
	say "Slurm $version: built and installed in $prefix (cached)"
	exit 0
fi

jobs=$(nproc 2>/dev/null || echo 2)
t0=$SECONDS
log=$build/upstream/slurm-$version.log
# A build that stopped half-way goes on where it stopped (make is
# incremental) once this tarball is unpacked and configured.
if [ "$(cat "$src/.treeshare-unpacked" 2>/dev/null)" = "$configured" ]; then
	say "Slurm $version: unpacked and configured before; building on (log: $log)"
else
	rm -rf "$src" "$prefix"
	tar -C "$build/upstream" -xf "$tarball"
	[ -f "$src/META" ] || die "$name does not unpack to slurm-$version/"
	: >"$log"
	say "configuring Slurm $version (log: $log)"
	t=$SECONDS
	# --enable-multiple-slurmd: the lab runs several slurmd on one host
	# (Debian's packages are configured so too); without it 25.11's srun
	# cannot reach any node but the first ("Duplicated NodeHostName").
	(cd "$src" && ./configure --prefix="$prefix" --sysconfdir="$prefix/etc" \
		--disable-debug --enable-multiple-slurmd --disable-static \
		${cflags:+CFLAGS="$cflags"} >>"$log" 2>&1) ||
		{ tail -20 "$log" >&2; die "configure of Slurm $version failed (log: $log)"; }
	grep -q '^#define HAVE_MYSQL 1' "$src/config.h" ||
		die "Slurm $version configured without MySQL (no mysql_config: Debian package libmariadb-dev-compat); slurmdbd could not store accounting"
	echo "$configured" >"$src/.treeshare-unpacked"
	say "configured in $((SECONDS - t))s"
fi

subdirs()
{
	# the value of SUBDIRS in the configured Makefile of $1, minus $2
	# shellcheck disable=SC2016
	make -s -C "$src/$1" -f Makefile -f - print-subdirs <<<'print-subdirs: ; @echo $(SUBDIRS)' |
		tr ' ' '\n' | grep -vxF -f <(tr ' ' '\n' <<<"$2") | grep . | tr '\n' ' '
}
t=$SECONDS
if [ "$mode" = all ]; then
	say "make -j$jobs (all of Slurm $version)"
	make -C "$src" -j"$jobs" >>"$log" 2>&1 ||
		{ tail -20 "$log" >&2; die "make of Slurm $version failed (log: $log)"; }
	say "built in $((SECONDS - t))s"
	t=$SECONDS
	make -C "$src" install >>"$log" 2>&1 ||
		{ tail -20 "$log" >&2; die "make install of Slurm $version failed (log: $log)"; }
else
	dirs=()
	for d in $(subdirs src "$skip_src"); do
		if [ "$d" = plugins ]; then
			for p in $(subdirs src/plugins "$skip_plugins"); do
				dirs+=("src/plugins/$p")
			done
		else
			dirs+=("src/$d")
		fi
	done
	say "make -j$jobs of libslurm, daemons, clients and plugins of Slurm $version"
	# Each directory's own make, in src's order (SUBDIRS given on the
	# command line would reach every sub-make below it too).
	for d in "${dirs[@]}"; do
		make -C "$src/$d" -j"$jobs" >>"$log" 2>&1 ||
			{ tail -20 "$log" >&2; die "make in $d of Slurm $version failed (log: $log)"; }
	done
	say "built in $((SECONDS - t))s"
	t=$SECONDS
	# slurm/*.h: the top Makefile installs them
	make -C "$src" install-pkgincludeHEADERS >>"$log" 2>&1 ||
		{ tail -20 "$log" >&2; die "make install of Slurm $version's headers failed (log: $log)"; }
	for d in "${dirs[@]}"; do
		make -C "$src/$d" install >>"$log" 2>&1 ||
			{ tail -20 "$log" >&2; die "make install in $d of Slurm $version failed (log: $log)"; }
	done
fi
say "installed in $prefix in $((SECONDS - t))s"
for p in sbin/slurmctld sbin/slurmd sbin/slurmstepd sbin/slurmdbd bin/sshare \
	bin/sprio lib/slurm/priority_multifactor.so \
	lib/slurm/accounting_storage_mysql.so; do
	[ -e "$prefix/$p" ] || die "Slurm $version: no $prefix/$p after the build (log: $log)"
done
echo "$want_stamp" >"$stamp"
say "Slurm $version ($mode) ready in $((SECONDS - t0))s: SLURM_SRC=$src SLURM_PREFIX=$prefix"
