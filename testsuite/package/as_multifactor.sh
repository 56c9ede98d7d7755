#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# as_multifactor.sh BUILD - stage "as-multifactor": treeshare built as
# priority_multifactor.so (package treeshare-as-multifactor) is treeshare,
# every PriorityParameters key included, when Slurm's loader asks for
# priority/multifactor.
#
# ts-harness (docs/ts-harness.1) loads, through Slurm's own loader,
# priority/treeshare from the build and priority/multifactor from a
# PluginDir holding that .so and links to every other plugin of Debian's
# PluginDir (not Debian's priority_multifactor.so: as in the package,
# whose diversion renames it away, so a refused start cannot fall back
# to it).  On every fixture of testsuite/harness (the parity fixtures
# and the extensions': fairshare=pbs, windows, targets, formula, refused
# settings) both must print the same report and exit alike, and a
# refusal's error line must be the same but for the plugin_type prefix.
# TAP to BUILD/check/as-multifactor.tap.
set -u -o pipefail
build=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
TAP_FILE=$top/$build/check/as-multifactor.tap
mkdir -p "$(dirname "$TAP_FILE")"
rm -f "$TAP_FILE"
export TAP_FILE
# shellcheck source=../cluster/tap.sh
. "$top/testsuite/cluster/tap.sh"

bin=$top/$build/bin/ts-harness
alias_so=$top/$build/lib/slurm-as-multifactor/priority_multifactor.so
debdir=$(make -s -C "$top" --no-print-directory BUILD="$build" print-DEB_PLUGINDIR)
work=$(mktemp -d /tmp/treeshare-as-mf.XXXXXX)
trap 'rm -rf "$work"' EXIT

if [ ! -x "$bin" ] || [ ! -f "$alias_so" ] || [ ! -d "$debdir" ]; then
	not_ok "as-multifactor: ts-harness, the as-multifactor .so and Debian's PluginDir exist" \
		"$bin, $alias_so, $debdir"
	exit 1
fi
mkdir -p "$work/plugins"
for f in "$debdir"/*.so; do
	[ "$(basename "$f")" = priority_multifactor.so ] || ln -s "$f" "$work/plugins/"
done
cp "$alias_so" "$work/plugins/"
types=$(strings "$alias_so" | grep -x 'priority/[a-z]*')
if [ "$types" = priority/multifactor ]; then
	ok "as-multifactor: the .so's plugin_type is priority/multifactor"
else
	not_ok "as-multifactor: the .so's plugin_type is priority/multifactor" \
		"plugin type strings: $types"
fi

# errors FILE - the plugin's error lines, its prefix and temporary
# directories made neutral.
errors()
{
	grep -E 'error: priority/(treeshare|multifactor): ' "$1" |
		sed -e 's,priority/multifactor: ,priority/treeshare: ,' \
		    -e 's,/[^ ]*/ts-harness\.[A-Za-z0-9]*,TMP,g'
}

n=0
bad=""
refused=0
for fx in "$top"/testsuite/harness/fixtures/*.fix \
	  "$top"/testsuite/harness/extensions/*.fix; do
	name=$(basename "$fx" .fix)
	n=$((n + 1))
	(cd "$(dirname "$fx")" && "$bin" -p priority/treeshare "$fx") \
		>"$work/$name.ts" 2>"$work/$name.ts.err"
	rc_ts=$?
	(cd "$(dirname "$fx")" && "$bin" -p priority/multifactor \
		-d "$work/plugins" "$fx") >"$work/$name.mf" 2>"$work/$name.mf.err"
	rc_mf=$?
	[ "$rc_ts" = 0 ] || refused=$((refused + 1))
	if [ "$rc_ts" != "$rc_mf" ]; then
		bad+="$name: exit $rc_ts as priority/treeshare, $rc_mf as priority/multifactor"$'\n'
	elif ! cmp -s "$work/$name.ts" "$work/$name.mf"; then
		bad+="$name: reports differ: $(diff "$work/$name.ts" "$work/$name.mf" | head -5)"$'\n'
	elif [ "$(errors "$work/$name.ts.err")" != "$(errors "$work/$name.mf.err")" ]; then
		bad+="$name: error lines differ: $(diff <(errors "$work/$name.ts.err") <(errors "$work/$name.mf.err") | head -5)"$'\n'
	fi
done
if [ -z "$bad" ] && [ "$refused" -gt 0 ]; then
	ok "as-multifactor: on $n fixtures ($refused refused at start) priority/multifactor from the as-multifactor .so prints priority/treeshare's report, exit status and error lines"
else
	not_ok "as-multifactor: on $n fixtures priority/multifactor from the as-multifactor .so prints priority/treeshare's report, exit status and error lines" \
		"$bad" "fixtures refused at start: $refused (some must be)"
fi
! grep -q '^not ok' "$TAP_FILE"
