#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# valgrind.sh UNIT_BIN TAP - run every unit suite in-process (CK_FORK=no)
# under valgrind --leak-check=full; one TAP line per suite, failing on any
# leak or memory error valgrind reports.
set -u
bin=$1 tap=$2
log_dir=$(dirname "$tap")/unit-valgrind
mkdir -p "$log_dir"
: >"$tap"
n=0
suites=$(sed -n 's/^TS_SUITE(\(.*\))$/\1/p' "$(dirname "$bin")/../obj/unit/suites.h")
for s in $suites; do
	n=$((n + 1))
	log=$log_dir/$s.log
	CK_FORK=no valgrind --quiet --leak-check=full --show-leak-kinds=definite,indirect,possible \
		--errors-for-leak-kinds=definite,indirect,possible \
		--error-exitcode=99 "$bin" /dev/null "$s" >"$log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		echo "ok $n - valgrind: suite $s has no leak and no memory error" >>"$tap"
	else
		echo "not ok $n - valgrind: suite $s (exit $rc; see $log)" >>"$tap"
		tail -20 "$log"
	fi
done
echo "1..$n" >>"$tap"
cat "$tap"
