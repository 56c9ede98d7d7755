#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# private_checkout.sh BUILD - part of stage "package": make deb from a
# checkout that only root can read (issue 22).  A clone in root's home
# (mode 700 on Debian) or under mktemp -d used to fail at its last step:
# lintian runs as nobody and could not read build/deb/*.changes.
#
# The checkout is a git clone of this tree into a mktemp -d directory
# (mode 700), with the work tree's versions of the tracked files copied
# over it (so uncommitted changes are what is tested), or, where there is
# no git (make check-release's root), a copy of the tree without its
# build output; build/slurm-src is linked to this build's.  make deb must exit 0 with both packages built,
# lintian having read them (its "no error" line, and not "is not a
# readable file").  Its packages are then copied to BUILD/deb: they are
# the ones the rest of the stage installs (one make deb, not two).  TAP
# appended to TAP_FILE; needs root.  ~2 min.
set -u -o pipefail
build=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../cluster/tap.sh
. "$top/testsuite/cluster/tap.sh"

name="package: make deb as root in a mode-700 checkout"
if [ "$(id -u)" != 0 ]; then
	not_ok "$name" "needs root"
	exit 1
fi
private=$(mktemp -d)
trap 'rm -rf "$private"' EXIT
mode=$(stat -c %a "$private")
co=$private/treeshare
log=$top/$build/check/package-private-checkout.log
mkdir -p "$(dirname "$log")"
t=$(date +%s)
# copy_tree - the tree's files into $co: a git clone with the work
# tree's tracked files over it; without git (make check-release's root
# has a copy of the tree and no git), every file but the build output.
copy_tree()
{
	if command -v git >/dev/null && [ -e "$top/.git" ]; then
		git clone -q "$top" "$co" &&
			(cd "$top" && git ls-files -z |
				while IFS= read -r -d '' f; do
					[ -e "$f" ] && printf '%s\0' "$f"
				done | tar --null -T - -cf -) | tar -xf - -C "$co"
	else
		mkdir "$co" &&
			tar -C "$top" --exclude='./build' --exclude='./build-*' \
				-cf - . | tar -xf - -C "$co"
	fi
}
if ! copy_tree >"$log" 2>&1; then
	not_ok "$name" "cannot make the checkout: $(tail -3 "$log")"
	exit 1
fi
mkdir "$co/build"
ln -s "$(readlink -f "$top/$build/slurm-src")" "$co/build/slurm-src"
# the outer make's flags and command-line variables stay out of it
(cd "$co" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make deb) >>"$log" 2>&1
rc=$?
shopt -s nullglob
found=("$co"/build/deb/treeshare_*.deb "$co"/build/deb/treeshare-as-multifactor_*.deb)
debs="${found[*]##*/}"
if [ "$mode" = 700 ] && [ "$rc" = 0 ] && [ "${#found[@]}" = 2 ] &&
   grep -q '^build-deb: lintian: no error' "$log" &&
   ! grep -q 'is not a readable file' "$co/build/deb/lintian.txt"; then
	ok "$name: exit 0, both packages ($debs), lintian read them ($(($(date +%s) - t))s)"
	rm -rf "$top/$build/deb"
	mkdir -p "$top/$build/deb"
	cp -p "$co"/build/deb/*.deb "$co"/build/deb/lintian.txt "$top/$build/deb/"
else
	not_ok "$name: exit 0, both packages, lintian read them" \
		"directory mode $mode; make deb exit $rc; packages: ${debs:-none}" \
		"$(grep -E '^(build-deb|make)' "$log" | tail -6)"
	exit 1
fi
