#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# build-deb.sh BUILD_DIR - "make deb": the Debian packages treeshare and
# treeshare-as-multifactor for the Slurm installed here, with Debian's own
# tools (debian/, debhelper, dpkg-buildpackage -b), then lintian.
#
# The version is treeshare's (the top of debian/changelog) + "+slurm" +
# the installed slurmctld's version, e.g. 0.1.0+slurm22.05.8-4+deb12u3:
# dpkg compares treeshare's version first, then Slurm's upstream version,
# then Slurm's Debian revision (the part after the last "-"), so a newer
# treeshare sorts above an older one and, for one treeshare, a build for
# a newer Slurm above one for an older.  The distribution field is the
# build system's codename (bookworm, trixie).
#
# The tree is copied to BUILD_DIR/deb/src (the files git tracks, as they
# are in the work tree, or everything but build/ outside git), so the
# package build never writes into the work tree.  The .deb, .buildinfo
# and .changes files and lintian's output end up in BUILD_DIR/deb.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=$(readlink -f "${1:-$top/build}")
out=$build/deb
slurm_src=$build/slurm-src

die() { echo "build-deb: error: $*" >&2; exit 1; }

slurm_version=$(dpkg-query -W -f='${Version}' slurmctld 2>/dev/null) ||
	die "slurmctld is not installed (make deps installs it)"
[ "$(cat "$slurm_src/.treeshare-configured" 2>/dev/null)" = "$slurm_version" ] ||
	die "$slurm_src is not Slurm's source configured for slurmctld $slurm_version: run make deps"
ts_version=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
# An epoch ("1:") cannot stand inside a version: dropped.
version=$ts_version+slurm${slurm_version#*:}
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:?}")

src=$out/src/treeshare-$ts_version
rm -rf "$out"
mkdir -p "$src"
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$top" && git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
		tar --null -T - -cf -) | tar -xf - -C "$src"
else
	tar -C "$top" --exclude=./build -cf - . | tar -xf - -C "$src"
fi
sed -i "1s/^treeshare ([^)]*) [^;]*;/treeshare ($version) $codename;/" \
	"$src/debian/changelog"
[ "$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)" = "$version" ] ||
	die "cannot set version $version in debian/changelog"

echo "build-deb: treeshare $version for slurmctld $slurm_version ($codename)"
t0=$(date +%s)
(cd "$src" && SLURM_SRC=$slurm_src dpkg-buildpackage -b -us -uc \
	>"$out/dpkg-buildpackage.log" 2>&1) ||
	{ tail -30 "$out/dpkg-buildpackage.log" >&2; die "dpkg-buildpackage failed (log: $out/dpkg-buildpackage.log)"; }
mv "$out"/src/*.deb "$out"/src/*.buildinfo "$out"/src/*.changes "$out"/
echo "build-deb: built in $(($(date +%s) - t0))s:"
(cd "$out" && ls -1 ./*.deb | sed 's,^\./,  ,')

changes=$(ls "$out"/*.changes)
echo "build-deb: lintian $(basename "$changes")"
# lintian advises against running as root: as nobody when root.  nobody
# may not reach $out (a checkout in a mode-700 directory, as root's home
# or mktemp -d): it reads a copy of the .changes and of the files it
# lists, in a directory of its own, removed afterwards.
as_user=()
lint_dir=
check=$changes
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	lint_dir=$(mktemp -d "${TMPDIR:-/tmp}/build-deb-lintian.XXXXXX")
	trap 'rm -rf "$lint_dir"' EXIT
	cp "$out"/*.deb "$out"/*.buildinfo "$changes" "$lint_dir"/
	chmod 755 "$lint_dir"
	chmod 644 "$lint_dir"/*
	check=$lint_dir/$(basename "$changes")
	if runuser -u nobody -- test -r "$check"; then
		as_user=(runuser -u nobody --)
	else
		echo "build-deb: nobody cannot read $lint_dir (TMPDIR=${TMPDIR:-}): lintian runs as root"
	fi
fi
rc=0
(cd /tmp && "${as_user[@]}" lintian --info --display-info --pedantic \
	"$check") >"$out/lintian.txt" 2>&1 || rc=$?
sed 's/^/  /' "$out/lintian.txt"
grep -q '^E: ' "$out/lintian.txt" && die "lintian reports errors ($out/lintian.txt)"
[ "$rc" = 0 ] || die "lintian exited $rc ($out/lintian.txt)"
echo "build-deb: lintian: no error"
