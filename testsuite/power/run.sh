#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh TAP SCRIPT... - run node_power's test scripts, number their
# "ok - ..." / "not ok - ..." lines into the TAP file, echo everything,
# exit 1 if any test failed or a script died without reporting.
set -u
tap=$1
shift
mkdir -p "$(dirname "$tap")"
: >"$tap"
n=0 failed=0
for script in "$@"; do
	start=$(date +%s)
	echo "# --- $script"
	rc=missing
	script_failed=0
	while IFS= read -r line; do
		case $line in
		__rc=*)
			rc=${line#__rc=}
			continue
			;;
		"ok - "* | "not ok - "*)
			n=$((n + 1))
			if [ "${line#not ok}" != "$line" ]; then
				failed=$((failed + 1))
				script_failed=1
			fi
			line=$(echo "$line" | sed "s/^\(not ok\|ok\) - /\1 $n - /")
			echo "$line" >>"$tap"
			;;
		esac
		echo "$line"
	done < <(bash "$script" 2>&1; echo "__rc=$?")
	# A script that died without reporting a failure counts as one.
	if [ "$rc" != 0 ] && [ "$script_failed" = 0 ]; then
		n=$((n + 1))
		failed=$((failed + 1))
		echo "not ok $n - $script exited with status $rc" | tee -a "$tap"
	fi
	echo "# $script: $(($(date +%s) - start)) s"
done
echo "1..$n" >>"$tap"
echo "# $n tests, $failed failed"
[ "$failed" = 0 ]
