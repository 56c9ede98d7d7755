#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# slurm-src-check.sh SLURM_SRC [STAMP [PREFIX]] - is SLURM_SRC a Slurm
# source tree treeshare may be built against?  It must be
#   - configured: config.h and slurm/slurm_version.h made by its configure;
#   - a release: META's "Release:" is 1 (upstream's pre-releases carry 0rc1,
#     0pre1, ... there, and configure then appends it to
#     SLURM_VERSION_STRING), config.h agrees, and slurm_version.h's
#     SLURM_VERSION_NUMBER is META's Major.Minor.Micro;
#   - not a git snapshot: a tree with .git must have HEAD exactly at the
#     release's tag (slurm-MM-mm-u-1) with no tracked file changed;
#   - of a supported series: plugins/slurm_compat.h, the one place that
#     knows the releases, must compile against the tree (it stops with
#     #error on any other release; its message is passed on).
# A plugin built against anything else may load into a slurmctld of the
# same version number and then misbehave (structures laid out otherwise),
# so the build stops here, naming the tree and why.
# With PREFIX (make's SLURM_PREFIX: by default the prefix the tree was
# configured for), the clients link that Slurm's libslurm, so it must be
# this very release installed there: PREFIX/include/slurm/slurm.h with the
# tree's SLURM_VERSION_NUMBER, and PREFIX/lib/libslurm.so with the tree's
# soname (libslurm.so.SLURM_API_CURRENT) and, when the library names a
# release (Slurm's own libslurm carries its version string), this one.
# Otherwise one line names the tree, the prefix and what is missing or
# of another release.  With STAMP, writes "VERSION PATH [PREFIX]" there
# (PREFIX with symbolic links resolved; only when that changed, so make
# rebuilds only then).
set -u

src=${1:?usage: slurm-src-check.sh SLURM_SRC [STAMP [PREFIX]]}
stamp=${2:-}
prefix=${3:-}
die() { echo "treeshare: SLURM_SRC=$src: $*" >&2; exit 1; }

[ -d "$src" ] || die "no such directory (run make deps, or give a configured Slurm source tree)"
src=$(cd "$src" && pwd)
[ -f "$src/META" ] || die "not a Slurm source tree (no META file)"
[ -f "$src/config.h" ] && [ -f "$src/slurm/slurm_version.h" ] ||
	die "not configured (no config.h or slurm/slurm_version.h): run its ./configure first"

meta() { sed -n "s/^[[:space:]]*$1:[[:space:]]*\([^[:space:]]*\).*/\1/p" "$src/META" | head -1; }
major=$(meta Major) minor=$(meta Minor) micro=$(meta Micro)
release=$(meta Release) version=$(meta Version)
[[ $major =~ ^[0-9]+$ && $minor =~ ^[0-9]+$ && $micro =~ ^[0-9]+$ ]] ||
	die "META has no numeric Major/Minor/Micro ('$major' '$minor' '$micro')"
name="$major.$minor.$micro"
[ "$version" = "$name" ] || die "META's Version '$version' is not Major.Minor.Micro '$name'"
if [ "$release" != 1 ]; then
	die "Slurm $name-$release is a pre-release or snapshot (META Release: $release), not a release; treeshare builds only against released Slurm"
fi
cfg_release=$(sed -n 's/^#define RELEASE "\(.*\)"$/\1/p' "$src/config.h")
cfg_string=$(sed -n 's/^#define SLURM_VERSION_STRING "\(.*\)"$/\1/p' "$src/config.h")
[ "$cfg_release" = 1 ] && [ "$cfg_string" = "$name" ] ||
	die "config.h (RELEASE '$cfg_release', SLURM_VERSION_STRING '$cfg_string') does not match META ($name, release $release): configure this tree again"
num=$(sed -n 's/^#define SLURM_VERSION_NUMBER \(0x[0-9a-fA-F]*\)$/\1/p' "$src/slurm/slurm_version.h")
want=$(printf '0x%02x%02x%02x' "$((10#$major))" "$((10#$minor))" "$((10#$micro))")
[ -n "$num" ] && [ $((num)) = $((want)) ] ||
	die "slurm/slurm_version.h has SLURM_VERSION_NUMBER '$num', META says $name ($want): configure this tree again"

if [ -e "$src/.git" ]; then
	tag=$(printf 'slurm-%s-%s-%s-1' "$major" "$minor" "$micro")
	command -v git >/dev/null || die "a git checkout, and git is not installed to check that it is the release $tag"
	head_tag=$(git -C "$src" describe --exact-match --tags HEAD 2>/dev/null)
	[ "$head_tag" = "$tag" ] ||
		die "a git snapshot: HEAD $(git -C "$src" rev-parse --short HEAD 2>/dev/null) is not the release tag $tag${head_tag:+ (it is $head_tag)}"
	git -C "$src" diff --quiet HEAD -- 2>/dev/null ||
		die "a git checkout of $tag with changed files (git diff HEAD); treeshare builds only against the release as tagged"
fi

top=$(cd "$(dirname "$0")/.." && pwd)
out=$(printf '#include "plugins/slurm_compat.h"\n' |
	${CC:-cc} ${CFLAGS:-} -std=c11 -D_GNU_SOURCE -fsyntax-only -iquote "$top" -I"$src" -x c - 2>&1) ||
	die "Slurm $name is refused by plugins/slurm_compat.h: $(sed -n 's/.*#error "\(.*\)"$/\1/p' <<<"$out" | head -1 |
		grep . || echo "plugins/slurm_compat.h does not compile against it: $(grep -m1 'error' <<<"$out")")"

if [ -n "$prefix" ]; then
	# pdie WHAT - the one line on PREFIX
	pdie() { die "Slurm $name's prefix $prefix $*; if it is installed elsewhere, give SLURM_PREFIX=<there>"; }
	[ -d "$prefix" ] || pdie "does not exist: this Slurm is not installed (make install in the tree)"
	prefix=$(cd "$prefix" && pwd -P)
	h=$prefix/include/slurm/slurm_version.h
	[ -f "$prefix/include/slurm/slurm.h" ] && [ -f "$h" ] ||
		pdie "has no include/slurm/slurm.h: this Slurm is not installed there (make install in the tree)"
	hnum=$(sed -n 's/^#define SLURM_VERSION_NUMBER \(0x[0-9a-fA-F]*\)$/\1/p' "$h")
	[ -n "$hnum" ] && [ $((hnum)) = $((want)) ] ||
		pdie "has the headers of another release (include/slurm/slurm_version.h: SLURM_VERSION_NUMBER '$hnum', not $want)"
	lib=$prefix/lib/libslurm.so
	[ -e "$lib" ] || pdie "has no lib/libslurm.so: this Slurm is not installed there (make install in the tree)"
	api=$(sed -n 's/^#define SLURM_API_CURRENT \([0-9]*\)$/\1/p' "$src/config.h")
	soname=$(objdump -p "$lib" 2>/dev/null | sed -n 's/^ *SONAME *//p')
	[ -z "$api" ] || ! command -v objdump >/dev/null || [ "$soname" = "libslurm.so.$api" ] ||
		pdie "has a lib/libslurm.so of another release (soname '$soname', Slurm $name's is libslurm.so.$api)"
	# the release strings the library holds (Slurm's: its own version)
	libv=$(LC_ALL=C tr -c '[:print:]' '\n' <"$lib" | grep -xE '[0-9]+\.[0-9]+\.[0-9]+' | sort -u)
	[ -z "$libv" ] || grep -qxF "$name" <<<"$libv" ||
		pdie "has a lib/libslurm.so of another release (it is Slurm $(head -1 <<<"$libv"), not $name)"
fi

if [ -n "$stamp" ]; then
	mkdir -p "$(dirname "$stamp")"
	echo "$name $src${prefix:+ $prefix}" >"$stamp.tmp.$$"
	if cmp -s "$stamp.tmp.$$" "$stamp"; then rm -f "$stamp.tmp.$$"; else mv "$stamp.tmp.$$" "$stamp"; fi
fi
exit 0
