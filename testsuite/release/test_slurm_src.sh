#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_slurm_src.sh BUILD - stage "slurm-src": which Slurm trees the build
# accepts (contrib/slurm-src-check.sh, docs/treeshare-build.7).  The real
# tree make deps configured (BUILD/slurm-src) is accepted; copies of its
# version files, altered as upstream's pre-releases, git snapshots,
# unconfigured and unsupported trees would be, are refused with a message
# naming the tree and the reason, and "make SLURM_SRC=..." stops on them
# before compiling anything.  Fake trees of other supported series'
# micro releases are accepted; those of other series refused.  TAP to BUILD/check/slurm-src.tap.
set -u
build=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
real=$top/$build/slurm-src
CHECK=$top/contrib/slurm-src-check.sh
TAP_FILE=$top/$build/check/slurm-src.tap
mkdir -p "$(dirname "$TAP_FILE")"
rm -f "$TAP_FILE"
export TAP_FILE
# shellcheck source=../cluster/tap.sh
. "$top/testsuite/cluster/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# fake NAME - a tree with the real tree's META, config.h and
# slurm/slurm_version.h (and what slurm_compat.h includes), in $tmp/NAME.
fake()
{
	local d=$tmp/$1
	mkdir -p "$d/slurm" "$d/src/common"
	cp "$real/META" "$real/config.h" "$d/"
	cp "$real"/slurm/*.h "$d/slurm/"
	cp "$real/src/common/list.h" "$d/src/common/" 2>/dev/null
	echo "$d"
}

# fake_release NAME MAJOR MINOR MICRO - a fake tree claiming that release.
fake_release()
{
	local d
	d=$(fake "$1")
	sed -i -e "s/^\( *Major:\s*\).*/\1$2/" -e "s/^\( *Minor:\s*\).*/\1$3/" \
		-e "s/^\( *Micro:\s*\).*/\1$4/" -e "s/^\( *Version:\s*\).*/\1$2.$3.$4/" "$d/META"
	sed -i "s/^#define SLURM_VERSION_STRING .*/#define SLURM_VERSION_STRING \"$2.$3.$4\"/" "$d/config.h"
	sed -i "s/^#define SLURM_VERSION_NUMBER .*/#define SLURM_VERSION_NUMBER $(printf '0x%02x%02x%02x' "$((10#$2))" "$((10#$3))" "$((10#$4))")/" \
		"$d/slurm/slurm_version.h"
	echo "$d"
}
# refused NAME TREE PATTERN - the check fails on TREE with one line
# matching PATTERN that names the tree.
refused()
{
	local out rc
	out=$(bash "$CHECK" "$2" 2>&1)
	rc=$?
	if [ "$rc" != 0 ] && [ "$(grep -c . <<<"$out")" = 1 ] &&
	   [[ $out == "treeshare: SLURM_SRC=$2: "* ]] && grep -qE -- "$3" <<<"$out"; then
		ok "$1: refused ($out)"
	else
		not_ok "$1: refused with a message matching /$3/" "exit $rc: $out"
	fi
}

if [ ! -f "$real/config.h" ]; then
	not_ok "make deps configured $real"
	exit 1
fi
read -r major minor micro < <(awk '/^ *(Major|Minor|Micro):/ { printf "%s ", $2 }' "$real/META")
name=$major.$minor.$micro

if out=$(bash "$CHECK" "$real" "$tmp/stamp" 2>&1) &&
   [ "$(cat "$tmp/stamp")" = "$name $real" ]; then
	ok "the tree make deps configured (Slurm $name) is accepted and stamped"
else
	not_ok "the tree make deps configured (Slurm $name) is accepted" "$out"
fi

d=$(fake prerelease)
sed -i 's/^\( *Release:\s*\).*/\10rc1/' "$d/META"
refused "a pre-release tree (META Release: 0rc1)" "$d" "pre-release or snapshot \(META Release: 0rc1\)"

d=$(fake stale)
sed -i "s/^#define SLURM_VERSION_STRING .*/#define SLURM_VERSION_STRING \"$name-0pre1\"/" "$d/config.h"
refused "a tree configured for another META (config.h says $name-0pre1)" "$d" "does not match META"

d=$(fake unconfigured)
rm -f "$d/config.h"
refused "an unconfigured tree (no config.h)" "$d" "not configured"

d=$(fake numbers)
sed -i 's/^#define SLURM_VERSION_NUMBER .*/#define SLURM_VERSION_NUMBER 0x170b00/' "$d/slurm/slurm_version.h"
refused "a tree whose slurm_version.h disagrees with META" "$d" "SLURM_VERSION_NUMBER '0x170b00'"

# accepted NAME TREE - the check passes on TREE (compat header included).
accepted()
{
	local out
	if out=$(bash "$CHECK" "$2" 2>&1); then
		ok "$1: accepted"
	else
		not_ok "$1: accepted" "$out"
	fi
}

# Any micro release of a supported series (one build per micro, each
# against its own tree); the compatibility header is keyed on changes.
d=$(fake_release othermicro "$major" "$minor" 99)
accepted "another micro release of the series ($major.$minor.99)" "$d"
for r in "24 11 7" "25 05 8" "25 11 3" "26 05 5"; do
	read -r ma mi mu <<<"$r"
	d=$(fake_release "v$ma$mi$mu" "$ma" "$mi" "$mu")
	accepted "a micro release of a supported series ($ma.$mi.$mu)" "$d"
done

for r in "23 02 7" "23 11 10" "27 05 0"; do
	read -r ma mi mu <<<"$r"
	d=$(fake_release "v$ma$mi$mu" "$ma" "$mi" "$mu")
	refused "a series treeshare does not support ($ma.$mi.$mu)" "$d" \
		"Slurm $ma.$mi.$mu is refused by plugins/slurm_compat.h: unsupported Slurm release series"
done

d=$(fake gitsnap)
if command -v git >/dev/null; then
	(cd "$d" && git init -q && git add META && git -c user.name=t -c user.email=t@t commit -q -m snap) >/dev/null 2>&1
	refused "a git checkout whose HEAD is not the release tag" "$d" "a git snapshot: HEAD [0-9a-f]+ is not the release tag slurm-$major-$minor-$micro-1"
else
	mkdir "$d/.git"
	refused "a git checkout, git not installed to check its HEAD" "$d" "a git checkout, and git is not installed"
fi

# make stops on a refused tree before compiling anything
d=$tmp/prerelease
out=$(cd "$top" && make --no-print-directory BUILD="$tmp/b" SLURM_SRC="$d" \
	"$tmp/b/lib/slurm/priority_treeshare.so" 2>&1)
rc=$?
if [ "$rc" != 0 ] && grep -q "pre-release or snapshot" <<<"$out" &&
   ! grep -qE '^(cc|gcc|clang) .*priority_treeshare' <<<"$out"; then
	ok "make SLURM_SRC=<pre-release tree> stops before compiling the plugin"
else
	not_ok "make SLURM_SRC=<pre-release tree> stops before compiling the plugin" "exit $rc" "$out"
fi

# The prefix the clients link (make's SLURM_PREFIX): by default, for any
# tree but make deps' Debian one, the prefix the tree was configured for
# (its Makefile's "prefix =", else config.h's SLURM_PREFIX).
# print VAR TREE [ARGS] - make's VAR for SLURM_SRC=TREE
print()
{
	(cd "$top" && env -u SLURM_PREFIX make -s --no-print-directory BUILD="$tmp/b" \
		SLURM_SRC="$2" "${@:3}" "print-$1" 2>&1)
}
real_prefix=$(print SLURM_PREFIX "$top/$build/slurm-src" BUILD="$build")
if [ -z "$real_prefix" ]; then
	ok "the tree make deps configured: no SLURM_PREFIX (Debian's packages are its install)"
else
	not_ok "the tree make deps configured: no SLURM_PREFIX" "SLURM_PREFIX '$real_prefix'"
fi
d=$(fake_release prefixed "$major" "$minor" "$micro")
printf 'prefix = %s\nexec_prefix = ${prefix}\n' "$tmp/site" >"$d/Makefile"
got=$(print SLURM_PREFIX "$d" print-PLUGINDIR print-PREFIX | tr '\n' ' ')
got=${got% }
if [ "$got" = "$tmp/site/lib/slurm $tmp/site $tmp/site" ]; then  # PLUGINDIR PREFIX SLURM_PREFIX
	ok "make SLURM_SRC=<a site's tree>: SLURM_PREFIX, PLUGINDIR and PREFIX follow its configured prefix ($got)"
else
	not_ok "make SLURM_SRC=<a site's tree>: SLURM_PREFIX, PLUGINDIR and PREFIX follow its configured prefix" "$got"
fi
rm "$d/Makefile"
sed -i "s|^#define SLURM_PREFIX .*|#define SLURM_PREFIX \"$tmp/site2\"|" "$d/config.h"
got="$(print SLURM_PREFIX "$d") $(print SLURM_PREFIX "$d" SLURM_PREFIX=/opt/s)"
if [ "$got" = "$tmp/site2 /opt/s" ]; then
	ok "without its Makefile, the prefix in the tree's config.h; SLURM_PREFIX= given wins ($got)"
else
	not_ok "without its Makefile, the prefix in the tree's config.h; SLURM_PREFIX= given wins" "$got"
fi

# refused_prefix NAME TREE PREFIX PATTERN - as refused, with PREFIX
refused_prefix()
{
	local out rc
	out=$(bash "$CHECK" "$2" "" "$3" 2>&1)
	rc=$?
	if [ "$rc" != 0 ] && [ "$(grep -c . <<<"$out")" = 1 ] &&
	   [[ $out == "treeshare: SLURM_SRC=$2: "* ]] && [[ $out == *"prefix $3 "* ]] &&
	   grep -qE -- "$4" <<<"$out"; then
		ok "$1: refused ($out)"
	else
		not_ok "$1: refused with one line naming the prefix and matching /$4/" "exit $rc: $out"
	fi
}
# a prefix holding Debian's libslurm and public headers, as Slurm's make
# install would lay them out
debprefix()
{
	mkdir -p "$1/lib" "$1/include"
	ln -s /usr/include/slurm "$1/include/slurm"
	ln -s "$(readlink -f "$(${CC:-cc} -print-file-name=libslurm.so)")" "$1/lib/libslurm.so"
}
mkdir -p "$tmp/empty"
refused_prefix "a prefix where that Slurm is not installed" "$real" "$tmp/empty" \
	"has no include/slurm/slurm.h: this Slurm is not installed there"
debprefix "$tmp/deb"
if out=$(bash "$CHECK" "$real" "$tmp/stamp2" "$tmp/deb" 2>&1) &&
   [ "$(cat "$tmp/stamp2")" = "$name $real $tmp/deb" ]; then
	ok "a prefix with this release's libslurm and headers (Debian's $name) is accepted and stamped"
else
	not_ok "a prefix with this release's libslurm and headers is accepted" "$out"
fi
d=$(fake_release other "$major" "$minor" 99)
refused_prefix "another micro release's headers in the prefix" "$d" "$tmp/deb" \
	"has the headers of another release .*SLURM_VERSION_NUMBER '0x[0-9a-f]+', not $(printf '0x%02x%02x%02x' "$((10#$major))" "$((10#$minor))" 99)"
mkdir -p "$tmp/mixed/lib" "$tmp/mixed/include/slurm"
cp "$d"/slurm/*.h "$tmp/mixed/include/slurm/"
cp -P "$tmp/deb/lib/libslurm.so" "$tmp/mixed/lib/"
refused_prefix "a prefix with this release's headers and another release's libslurm" "$d" "$tmp/mixed" \
	"has a lib/libslurm.so of another release \(it is Slurm $name, not $major.$minor.99\)"
sed -i 's/^#define SLURM_API_CURRENT .*/#define SLURM_API_CURRENT 99/' "$d/config.h"
refused_prefix "a prefix whose libslurm has another series' soname" "$d" "$tmp/mixed" \
	"has a lib/libslurm.so of another release \(soname 'libslurm.so.[0-9]+', Slurm $major.$minor.99's is libslurm.so.99\)"

# make SLURM_SRC=<tree> with no SLURM_PREFIX stops before compiling
# anything when the tree's own prefix has no libslurm
d=$(fake_release siteonly "$major" "$minor" "$micro")
printf 'prefix = %s\n' "$tmp/empty" >"$d/Makefile"
out=$(cd "$top" && env -u SLURM_PREFIX make --no-print-directory BUILD="$tmp/b" SLURM_SRC="$d" \
	"$tmp/b/bin/sshare-ext" 2>&1)
rc=$?
if [ "$rc" != 0 ] && [ "$(grep -c "^treeshare: SLURM_SRC=$d: .* prefix $tmp/empty has no" <<<"$out")" = 1 ] &&
   ! grep -qE '^(cc|gcc|clang) ' <<<"$out"; then
	ok "make SLURM_SRC=<tree whose prefix has no Slurm installed> stops before compiling: $(grep '^treeshare:' <<<"$out")"
else
	not_ok "make SLURM_SRC=<tree whose prefix has no Slurm installed> stops before compiling, with one line" "exit $rc" "$out"
fi
echo "1..$(grep -cE '^(not )?ok' "$TAP_FILE")" >>"$TAP_FILE"
! grep -q '^not ok' "$TAP_FILE"
