#!/bin/bash
# install-deps.sh - everything treeshare needs on Debian 12, as root.
#
# 1. apt-get installs the packages of the whole project (skipped when all
#    are already installed, so a second run is cheap).
# 2. Fetches Debian's slurm-wlm source for exactly the installed slurmctld
#    version into build/slurm-src and runs its configure with Debian's flags
#    (debian/rules), so Slurm's internal headers and config.h can be used.
#    A stamp file records the configured version; a later run with the same
#    version does nothing.
#
# Usage: contrib/install-deps.sh [BUILD_DIR]   (default: build)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
src_dir=$build/slurm-src
stamp=$src_dir/.treeshare-configured

packages=(
	build-essential clang libclang-rt-14-dev check pkg-config dpkg-dev
	libslurm-dev slurmctld slurmd slurmdbd slurm-client
	munge libmunge-dev mariadb-server mariadb-client
	libjson-c-dev libfreeipmi-dev freeipmi-tools ipmitool openipmi
	valgrind clang-format python3 bc procps iproute2 locales time
)

say() { echo "install-deps: $*"; }
die() { echo "install-deps: error: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "must run as root (apt-get install)"

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
		grep -q '^install ok installed$' || missing+=("$p")
done

export DEBIAN_FRONTEND=noninteractive
if [ ${#missing[@]} -gt 0 ]; then
	say "installing ${missing[*]}"
	apt-get update -q >/dev/null
	# Daemons installed here must not start system-wide; the project
	# starts its own, privately, in tests.
	apt-get install -y -q --no-install-recommends "${missing[@]}" \
		>"$build/apt-install.log" 2>&1 ||
		{ tail -20 "$build/apt-install.log" >&2; die "apt-get install failed (log: $build/apt-install.log)"; }
else
	say "packages: all installed"
fi

ctld_version=$(dpkg-query -W -f='${Version}' slurmctld)
upstream=${ctld_version%%-*}

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$ctld_version" ]; then
	say "slurm source $ctld_version: configured (cached)"
	exit 0
fi

# apt-get source needs a deb-src entry; add bookworm's if apt has none.
if ! apt-get indextargets --format '$(CREATED_BY)' 2>/dev/null | grep -q '^Sources$'; then
	say "adding a bookworm deb-src entry"
	cat >/etc/apt/sources.list.d/treeshare-deb-src.sources <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	apt-get update -q >/dev/null
fi

mkdir -p "$build/slurm-dl"
rm -rf "$build/slurm-dl"/* "$src_dir"
say "fetching slurm-wlm source $ctld_version"
(cd "$build/slurm-dl" && apt-get source -q --download-only "slurm-wlm=$ctld_version" \
	>"$build/slurm-dl/fetch.log" 2>&1) ||
	die "cannot fetch slurm-wlm source $ctld_version (log: $build/slurm-dl/fetch.log)"
dsc=$(ls "$build"/slurm-dl/slurm-wlm_*.dsc)
src_version=$(awk '/^Version:/ {print $2}' "$dsc")
[ "$src_version" = "$ctld_version" ] ||
	die "version mismatch: slurmctld is $ctld_version but the fetched slurm-wlm source is $src_version"
(cd "$build/slurm-dl" && dpkg-source -q -x "$(basename "$dsc")" "$src_dir" >/dev/null 2>&1) ||
	die "dpkg-source -x $dsc failed"

# Debian's configure flags (debian/rules, override_dh_auto_configure).
grep -q -- '--enable-multiple-slurmd' "$src_dir/debian/rules" ||
	die "debian/rules of $src_version does not build multiple-slurmd; check its configure flags"
say "configuring slurm $upstream with Debian's flags"
(cd "$src_dir" && ./configure --prefix=/usr --sysconfdir=/etc/slurm \
	--with-munge --without-rpath --disable-debug \
	--enable-multiple-slurmd >"$build/slurm-configure.log" 2>&1) ||
	{ tail -20 "$build/slurm-configure.log" >&2; die "slurm configure failed (log: $build/slurm-configure.log)"; }
[ -f "$src_dir/config.h" ] || die "configure did not produce $src_dir/config.h"
echo "$ctld_version" >"$stamp"
say "slurm source $ctld_version configured in $src_dir"
