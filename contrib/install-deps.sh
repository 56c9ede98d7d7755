#!/bin/bash
# install-deps.sh - everything treeshare needs, as root, on Debian 12
# (bookworm) or Debian 13 (trixie); docs/treeshare-build.7.
#
# 1. apt-get installs the project's packages, with this release's names
#    (skipped when all are installed, so a second run is cheap).
# 2. Fetches Debian's slurm-wlm source for exactly the installed slurmctld
#    version into BUILD/slurm-src and configures it with Debian's flags
#    (debian/rules), for Slurm's internal headers and config.h.  The
#    archive may hold that version's files in different suites and no
#    .dsc at all (trixie: orig in trixie, debian.tar.xz in
#    trixie-security): each file is fetched from whichever suite's pool
#    has it, checked against the SHA-256 of apt's verified Sources index,
#    and a missing .dsc is rebuilt from that index's stanza, so
#    dpkg-source -x checks every file again.  Missing deb-src entries for
#    the running release (and its -updates and -security, where apt has
#    "deb" entries for them) are added.  A stamp
#    records the configured version; a later run with the same version
#    does nothing.  Where the exact source cannot be had, one message
#    names the version and the missing files.
# 3. With SLURM_SRC set to a tree of the site's own (not BUILD/slurm-src),
#    nothing is fetched: that tree is checked (contrib/slurm-src-check.sh)
#    and used as it is.
# 4. With SLURM_TARBALL (a SchedMD release tarball), the packages that
#    release's build needs are installed too (libmariadb-dev-compat for
#    slurmdbd's accounting_storage/mysql, libmunge-dev, libjson-c-dev,
#    libyaml-dev) and contrib/slurm-build.sh builds it into
#    BUILD/upstream, then it is checked like a site's own tree; Debian's
#    Slurm source is not fetched.
#
# Usage: contrib/install-deps.sh [BUILD_DIR]   (default: build)
# TS_DEPS_EXTRA: more packages to install with these (make deps-deb).
# TS_DEPS_UPSTREAM=1: also the packages of 4. (make deps-upstream), so
# that later builds of SchedMD's releases need no apt-get.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
mkdir -p "$build"
build=$(cd "$build" && pwd)
src_dir=$build/slurm-src
stamp=$src_dir/.treeshare-configured
dl=$build/slurm-dl
apt_get=(apt-get -o DPkg::Lock::Timeout=600)

say() { echo "install-deps: $*"; }
die() { echo "install-deps: error: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "must run as root (apt-get install)"

# shellcheck disable=SC1091
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
[ -n "$codename" ] || die "/etc/os-release names no VERSION_CODENAME; not a Debian release?"

# LLVM's version differs by release: the fuzz stage links clang's
# libFuzzer and sanitizer runtimes from libclang-rt-N-dev.
case $codename in
bookworm) llvm=14 ;;
trixie) llvm=19 ;;
*) llvm= ;;
esac

packages=(
	build-essential clang check pkg-config dpkg-dev
	libslurm-dev slurmctld slurmd slurmdbd slurm-client
	munge libmunge-dev mariadb-server mariadb-client
	libjson-c-dev libfreeipmi-dev freeipmi-tools ipmitool openipmi
	valgrind clang-format python3 bc procps iproute2 locales groff-base
	perl util-linux passwd xz-utils time
	${TS_DEPS_EXTRA:-}
)
# Slurm's own build (make deps SLURM_TARBALL=, or make deps-upstream
# before several such builds): its configure finds these.
[ -z "${SLURM_TARBALL:-}${TS_DEPS_UPSTREAM:-}" ] ||
	packages+=(libmariadb-dev-compat libyaml-dev)

installed() {
	[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

export DEBIAN_FRONTEND=noninteractive
updated=0
apt_update() {
	[ "$updated" = 1 ] && return 0
	"${apt_get[@]}" update -q >"$build/apt-update.log" 2>&1 ||
		{ tail -20 "$build/apt-update.log" >&2; die "apt-get update failed (log: $build/apt-update.log)"; }
	updated=1
}

if [ -z "$llvm" ]; then
	# another release: clang's own dependency names the version
	installed clang || apt_update
	llvm=$(apt-cache depends clang 2>/dev/null | awk '
		!v && /^ *Depends: clang-[0-9]+$/ { v = substr($2, 7) } END { print v }')
	[ -n "$llvm" ] || die "cannot tell which clang-N the 'clang' package of $codename depends on"
fi
packages+=("libclang-rt-$llvm-dev")

missing=()
for p in "${packages[@]}"; do
	installed "$p" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	say "installing on $codename: ${missing[*]}"
	apt_update
	# Daemons installed here must not start system-wide; the project
	# starts its own, privately, in tests.
	"${apt_get[@]}" install -y -q --no-install-recommends "${missing[@]}" \
		>"$build/apt-install.log" 2>&1 ||
		{ tail -20 "$build/apt-install.log" >&2; die "apt-get install failed (log: $build/apt-install.log)"; }
else
	say "packages: all installed ($codename)"
fi

# TS_DEPS_PACKAGES_ONLY=1 (.ci/run): the packages alone; the Slurm
# source comes with the first make that needs it.
[ "${TS_DEPS_PACKAGES_ONLY:-0}" = 1 ] && exit 0

# --- a SchedMD release tarball -----------------------------------------
if [ -n "${SLURM_TARBALL:-}" ]; then
	bash "$top/contrib/slurm-build.sh" "$SLURM_TARBALL" "$build" || exit 1
	src=${SLURM_SRC:-$build/upstream/$(basename "${SLURM_TARBALL%.tar.*}")}
	bash "$top/contrib/slurm-src-check.sh" "$src" || exit 1
	exit 0
fi

# --- a site's own Slurm tree ------------------------------------------
if [ -n "${SLURM_SRC:-}" ] &&
   [ "$(readlink -m "$SLURM_SRC")" != "$(readlink -m "$src_dir")" ] &&
   [ "$(readlink -m "$top/$SLURM_SRC")" != "$(readlink -m "$src_dir")" ]; then
	say "SLURM_SRC=$SLURM_SRC: using that tree, nothing fetched"
	bash "$top/contrib/slurm-src-check.sh" "$SLURM_SRC" ||
		exit 1
	exit 0
fi

ctld_version=$(dpkg-query -W -f='${Version}' slurmctld)
upstream=${ctld_version#*:}
upstream=${upstream%-*}

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$ctld_version" ]; then
	say "slurm source $ctld_version: configured (cached)"
	exit 0
fi

# --- deb-src entries for the running release ---------------------------
# $(CODENAME) of apt's index targets is the distribution as written in
# the sources (bookworm, trixie-security, ...).
# Read once into a variable: awk leaving a pipe early would make
# apt-get fail on the closed pipe, and pipefail and -e end the script.
targets() {
	apt-get indextargets --format '$(CREATED_BY) $(CODENAME) $(REPO_URI)' 2>/dev/null || true
}
tg=$(targets)
# The release itself, and its -updates and -security where apt has
# binary packages from them (sid has neither).
want_suites=("$codename")
for s in "$codename-updates" "$codename-security"; do
	awk -v s="$s" '$1 == "Packages" && $2 == s { f = 1 } END { exit !f }' <<<"$tg" &&
		want_suites+=("$s")
done
need=()
for s in "${want_suites[@]}"; do
	awk -v s="$s" '$1 == "Sources" && $2 == s { f = 1 } END { exit !f }' <<<"$tg" ||
		need+=("$s")
done
if [ ${#need[@]} -gt 0 ]; then
	keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	[ -f "$keyring" ] || die "no $keyring (package debian-archive-keyring)"
	{
		echo "# added by treeshare's contrib/install-deps.sh: the exact Slurm source"
		for s in "${need[@]}"; do
			# the archive the binary packages of this suite come from
			uri=$(awk -v s="$s" '$1 == "Packages" && $2 == s && !u { sub(/\/$/, "", $3); u = $3 } END { print u }' <<<"$tg")
			if [ -z "$uri" ]; then
				case $s in
				*-security) uri=http://deb.debian.org/debian-security ;;
				*) uri=http://deb.debian.org/debian ;;
				esac
			fi
			printf '\nTypes: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
				"$uri" "$s" "$keyring"
		done
	} >/etc/apt/sources.list.d/treeshare-deb-src.sources
	say "added deb-src entries for ${need[*]} (/etc/apt/sources.list.d/treeshare-deb-src.sources)"
	updated=0
	apt_update
elif [ -z "$(apt-cache showsrc --only-source slurm-wlm 2>/dev/null | head -1)" ]; then
	apt_update
fi

# --- the exact source --------------------------------------------------
# The distributions whose Sources index lists exactly this version.
dists=$(apt-cache madison slurm-wlm | awk -F'|' -v v="$ctld_version" '
	{ gsub(/ /, "", $2) } $2 == v && $3 ~ / Sources$/ {
		n = split($3, a, " "); split(a[n - 1], d, "/"); print d[1] }' | sort -u)
[ -n "$dists" ] ||
	die "slurm-wlm $ctld_version (the installed slurmctld) is in no Sources index apt knows; deb-src suites: $(targets | awk '$1 == "Sources" { print $2 }' | sort -u | xargs)"

rm -rf "$dl" "$src_dir"
mkdir -p "$dl"
# Every suite's URIs for each file; the .dsc, the orig and debian tarballs.
for d in $dists; do
	{ "${apt_get[@]}" source --print-uris -qq "slurm-wlm/$d" 2>/dev/null || true; } |
		awk "\$1 ~ /^'/ { gsub(/'/, \"\", \$1); print \$2, \$4, \$1 }"
done >"$dl/uris"
files=$(awk '{ print $1 }' "$dl/uris" | sort -u)
ver_noepoch=${ctld_version#*:}
dsc=slurm-wlm_$ver_noepoch.dsc
grep -qx "$dsc" <<<"$files" ||
	die "apt lists no $dsc for slurm-wlm $ctld_version in ${dists//$'\n'/, }"

say "fetching slurm-wlm source $ctld_version (${dists//$'\n'/, })"
missing=()
tried=()
for f in $files; do
	got=0
	while read -r name hash uri; do
		[ "$name" = "$f" ] || continue
		tried+=("$uri")
		if /usr/lib/apt/apt-helper download-file "$uri" "$dl/$f" "$hash" \
			>>"$dl/fetch.log" 2>&1; then
			got=1
			break
		fi
		rm -f "$dl/$f"
	done <"$dl/uris"
	[ "$got" = 1 ] || missing+=("$f")
done

only_dsc_missing=0
[ "${missing[*]:-}" = "$dsc" ] && only_dsc_missing=1
if [ ${#missing[@]} -gt 0 ] && [ "$only_dsc_missing" = 0 ]; then
	die "the exact source of the installed Slurm, slurm-wlm $ctld_version, is not on the archive: ${missing[*]} cannot be fetched (tried: ${tried[*]}); build against a configured tree of that release instead: make SLURM_SRC=/path/to/slurm-$upstream (log: $dl/fetch.log)"
fi
if [ "$only_dsc_missing" = 1 ]; then
	# The stanza of apt's verified Sources index, as a .dsc: dpkg-source
	# checks the tarballs against its checksums.
	say "no $dsc on the archive; rebuilding it from the Sources index"
	apt-cache showsrc --only-source slurm-wlm | awk -v v="$ctld_version" '
		/^Package: / { keep = 0; buf = "" }
		{ buf = buf $0 "\n" }
		/^Version: / { if ($2 == v) keep = 1 }
		/^$/ { if (keep && !done) { printf "%s", buf; done = 1 } keep = 0; buf = "" }
		END { if (keep && !done) printf "%s", buf }' |
		sed -e 's/^Package: /Source: /' |
		grep -v -e '\.dsc$' -e '^Directory:' -e '^Priority:' -e '^Section:' \
			>"$dl/$dsc"
	grep -q "^Version: $ctld_version\$" "$dl/$dsc" ||
		die "the Sources index has no stanza for slurm-wlm $ctld_version"
fi
src_version=$(awk '/^Version:/ { print $2 }' "$dl/$dsc")
[ "$src_version" = "$ctld_version" ] ||
	die "version mismatch: slurmctld is $ctld_version but the fetched slurm-wlm source is $src_version"
(cd "$dl" && dpkg-source -x "$dsc" "$src_dir" >"$dl/dpkg-source.log" 2>&1) ||
	{ tail -5 "$dl/dpkg-source.log" >&2; die "dpkg-source -x $dsc failed (log: $dl/dpkg-source.log)"; }

# Debian's configure flags (debian/rules, override_dh_auto_configure).
grep -q -- '--enable-multiple-slurmd' "$src_dir/debian/rules" ||
	die "debian/rules of $src_version does not build multiple-slurmd; check its configure flags"
say "configuring slurm $upstream with Debian's flags"
(cd "$src_dir" && ./configure --prefix=/usr --sysconfdir=/etc/slurm \
	--with-munge --without-rpath --disable-debug \
	--enable-multiple-slurmd >"$build/slurm-configure.log" 2>&1) ||
	{ tail -20 "$build/slurm-configure.log" >&2; die "slurm configure failed (log: $build/slurm-configure.log)"; }
[ -f "$src_dir/config.h" ] || die "configure did not produce $src_dir/config.h"
bash "$top/contrib/slurm-src-check.sh" "$src_dir" || exit 1
echo "$ctld_version" >"$stamp"
say "slurm source $ctld_version configured in $src_dir"
