#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# debian-orig-tarball.sh VERSION OUT_DIR - SchedMD's source of a Slurm
# release that ../shared/slurm-src lacks, from Debian's archive, as a
# release tarball contrib/slurm-build.sh takes (make check-upstream's
# SLURM_TARBALLS; .ci/run's fourth upstream release).
#
# Debian's orig tarball of slurm-wlm is GitHub's archive of SchedMD's
# release tag (debian/watch), unpacking to slurm-slurm-MA-MI-MC-1/; it
# is fetched from the pool of the host's own Debian mirror, checked
# against the SHA-256 below (from the .dsc of Debian's signed Sources
# index), its META must name VERSION, and it is packed again as
# OUT_DIR/slurm-VERSION.tar.gz unpacking to slurm-VERSION/, with a
# SHA256SUMS beside it that slurm-build.sh checks.  A second run with
# the tarball in place does nothing.
set -euo pipefail

version=${1:?usage: debian-orig-tarball.sh VERSION OUT_DIR}
out=${2:?usage: debian-orig-tarball.sh VERSION OUT_DIR}
say() { echo "debian-orig-tarball: $*"; }
die() { echo "debian-orig-tarball: error: $*" >&2; exit 1; }

# VERSION SHA-256 of slurm-wlm_VERSION.orig.tar.gz (Debian 13's
# slurm-wlm_24.11.5-4+deb13u1.dsc)
known="24.11.5 e1a5547edd212c38b5e3230a284133f777b32746551f094aaa81cc4af375e332"
want=$(awk -v v="$version" '$1 == v { print $2 }' <<<"$known")
[ -n "$want" ] || die "no SHA-256 known for Slurm $version's Debian orig tarball"

tarball=$out/slurm-$version.tar.gz
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -f "$tarball" ] && (cd "$out" && sha256sum --quiet -c SHA256SUMS 2>/dev/null); then
	say "$tarball: there already"
	exit 0
fi

# The URI apt uses for the host's own release (as testsuite/release/root.sh).
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
mirror=${MIRROR:-$(apt-get indextargets --format '$(CODENAME) $(REPO_URI)' \
	'Created-By: Packages' 2>/dev/null |
	awk -v c="$codename" '$1 == c { sub(/\/$/, "", $2); print $2; exit }')}
mirror=${mirror:-http://deb.debian.org/debian}
orig=slurm-wlm_$version.orig.tar.gz
url=$mirror/pool/main/s/slurm-wlm/$orig

work=$(mktemp -d "$out/.orig.XXXXXX")
trap 'rm -rf "$work"' EXIT
say "fetching $url"
curl -fsS --retry 3 -o "$work/$orig" "$url" || die "cannot fetch $url"
got=$(sha256sum "$work/$orig" | awk '{ print $1 }')
[ "$got" = "$want" ] || die "$orig: SHA-256 $got, not Debian's $want"

tag=slurm-slurm-${version//./-}-1
tar -C "$work" -xzf "$work/$orig"
[ -f "$work/$tag/META" ] || die "$orig does not unpack to $tag/"
grep -Eq "^ +Version:[[:space:]]+$version\$" "$work/$tag/META" ||
	die "$orig: META does not name version $version"
mv "$work/$tag" "$work/slurm-$version"
tar -C "$work" -czf "$work/slurm-$version.tar.gz" "slurm-$version"
mv "$work/slurm-$version.tar.gz" "$tarball"
(cd "$out" && sha256sum "slurm-$version.tar.gz" >SHA256SUMS)
say "$tarball: SchedMD's tag slurm-${version//./-}-1 from Debian's $orig"
