#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scale.sh BUILD - stage "sshare-ext-scale": sshare-ext offline on a
# site-size tree (issue 13): 4,000,000 associations (20 top accounts,
# 2,000 accounts, 3,997,980 users; ~104 MB), generated here, read with
# the default columns and with -l -a (every algorithm), each measured by
# GNU time (/usr/bin/time -v, package "time").  Asserts: peak memory
# under 1 GiB, every row printed, the root's RawUsage the sum of the
# users' given usage (awk's arithmetic), and one user's values by hand.
# Prints bytes per association against the input's own bytes per line.
# TAP to BUILD/check/sshare-ext-scale.tap.  ~1 minute.
set -u
build=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
B=$top/$build/bin/sshare-ext
TAP_FILE=$top/$build/check/sshare-ext-scale.tap
mkdir -p "$(dirname "$TAP_FILE")"
rm -f "$TAP_FILE"
# shellcheck source=../cluster/tap.sh
. "$top/testsuite/cluster/tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sshare-ext-scale.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
LIMIT_KB=1048576 # 1 GiB
N=4000000

if [ ! -x /usr/bin/time ]; then
	not_ok "GNU time is installed (make deps installs package time)" "/usr/bin/time missing"
	exit 1
fi

# The tree: user uK under account a(K mod 2000), shares 1 + K mod 5,
# usage (K * 7919) mod 100000; accounts under g(A mod 20).
t0=$(date +%s)
awk -v n=$N 'BEGIN {
	ng = 20; na = 2000; nu = n - ng - na
	for (g = 0; g < ng; g++) printf "account g%d root %d\n", g, 1 + g % 7
	for (a = 0; a < na; a++) printf "account a%d g%d %d\n", a, a % ng, 1 + a % 13
	for (u = 0; u < nu; u++)
		printf "user u%d a%d %d %d\n", u, u % na, 1 + u % 5, (u * 7919) % 100000
}' >"$tmp/tree"
bytes=$(stat -c %s "$tmp/tree")
sum=$(awk '$1 == "user" { s += $5 } END { printf "%.0f", s }' "$tmp/tree")
diag "generated $N associations, $bytes bytes, in $(($(date +%s) - t0))s"

# run NAME ARGS... - sshare-ext under GNU time; sets KB, SECS, RC.
run()
{
	local name=$1
	shift
	/usr/bin/time -v "$B" "$@" --input="$tmp/tree" >"$tmp/$name.out" \
		2>"$tmp/$name.time"
	RC=$?
	KB=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/$name.time")
	SECS=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tmp/$name.time")
}

for mode in default long; do
	if [ $mode = default ]; then
		run $mode -P
	else
		run $mode -P -l -a
	fi
	rows=$(($(wc -l <"$tmp/$mode.out") - 1))
	root=$(awk -F'|' 'NR == 2 { print $5 }' "$tmp/$mode.out")
	per=$(awk -v k="$KB" -v n=$N 'BEGIN { printf "%.0f", k * 1024 / n }')
	ratio=$(awk -v k="$KB" -v b="$bytes" 'BEGIN { printf "%.1f", k * 1024 / b }')
	if [ "$RC" = 0 ] && [ -n "$KB" ] && [ "$KB" -lt $LIMIT_KB ] &&
	   [ "$rows" = $((N + 1)) ] && [ "$root" = "$sum" ]; then
		ok "sshare-ext $mode: $N associations in ${KB} KiB (< 1 GiB; $per bytes an association, ${ratio}x the input's $((bytes / N)) bytes a line), $SECS, every row, root RawUsage $root = the users' sum"
	else
		not_ok "sshare-ext $mode reads $N associations in under 1 GiB, printing every row and the root's sum" \
			"exit $RC, peak ${KB:-?} KiB, $rows rows (want $((N + 1))), root RawUsage '$root' (want $sum)" \
			"$(head -3 "$tmp/$mode.time")"
	fi
done

# User u3999 of a1999 (3999 mod 2000): a1999's users are uK for
# K = 1999 + 2000 j <= 3997979, j = 0 .. 1997, 1998 of them, each with
# shares 1 + K mod 5 = 5 (2000 j adds nothing mod 5); NormShares (Fair
# Tree: per level) 5 / (1998 x 5) = 1/1998.  RawUsage 3999 x 7919 mod
# 100000 = 68081.
line=$(awk -F'|' '$2 == "u3999" { print $3 "|" $4 "|" $5; exit }' "$tmp/long.out")
want="5|$(awk 'BEGIN { printf "%.6f", 1 / 1998 }')|68081"
if [ "$line" = "$want" ]; then
	ok "u3999's RawShares, NormShares and RawUsage by hand ($line)"
else
	not_ok "u3999's RawShares, NormShares and RawUsage by hand" "got '$line', want '$want'"
fi
[ "${TAP_FAILED:-0}" = 0 ]
