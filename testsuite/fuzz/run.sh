#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh MODE BUILD SECONDS NAME... - run the libFuzzer targets.
#
# MODE check (make check-fuzz): SECONDS is the budget of all targets
# together; each gets SECONDS / count, at least 5 and at most 15.
# MODE long (make fuzz): each target runs SECONDS.
# First every regression input of every target is replayed (one TAP line
# per target), then each target fuzzes from its seed corpus plus the
# working corpus in BUILD/fuzz/corpus/NAME (one TAP line per target).
# TAP goes to BUILD/check/fuzz.tap (check) or fuzz-long.tap (long).
set -u
mode=$1 build=$2 seconds=$3
shift 3
names=("$@")
dir=testsuite/fuzz
if [ "$mode" = check ]; then
	tap=$build/check/fuzz.tap
	per=$((seconds / (${#names[@]} > 0 ? ${#names[@]} : 1)))
	[ "$per" -gt 15 ] && per=15
	[ "$per" -lt 5 ] && per=5
else
	tap=$build/check/fuzz-long.tap
	per=$seconds
fi
: >"$tap"
n=0 failed=0
common=(-rss_limit_mb=2048 -timeout=10 -max_len=4096)

report() { # STATUS TEXT
	n=$((n + 1))
	echo "$1 $n - $2" | tee -a "$tap"
	[ "$1" = ok ] || failed=$((failed + 1))
}

# 1. Regression inputs: each must run clean.
for name in "${names[@]}"; do
	bin=$build/fuzz/bin/fuzz_$name
	log=$build/fuzz/log/$name.regressions.log
	mkdir -p "$(dirname "$log")"
	inputs=()
	if [ -d "$dir/regressions/$name" ]; then
		while IFS= read -r -d '' f; do
			inputs+=("$f")
		done < <(find "$dir/regressions/$name" -type f \
			! -name README.md -print0 | sort -z)
	fi
	if [ "${#inputs[@]}" -eq 0 ]; then
		report ok "fuzz_$name replays its 0 regression inputs"
		continue
	fi
	if "$bin" "${common[@]}" "${inputs[@]}" >"$log" 2>&1; then
		report ok "fuzz_$name replays its ${#inputs[@]} regression inputs without a failure"
	else
		report "not ok" "fuzz_$name fails on a regression input (see $log)"
		grep -m1 -E 'ERROR|runtime error|Running:' "$log" | tail -1
	fi
done

# 2. A bounded fuzzing run per target.
for name in "${names[@]}"; do
	bin=$build/fuzz/bin/fuzz_$name
	work=$build/fuzz/corpus/$name
	art=$build/fuzz/artifacts/$name
	log=$build/fuzz/log/$name.run.log
	mkdir -p "$work" "$art"
	opts=("${common[@]}" -max_total_time="$per" -print_final_stats=1
		-artifact_prefix="$art/")
	[ -f "$dir/$name.dict" ] && opts+=(-dict="$dir/$name.dict")
	seeds=()
	[ -d "$dir/corpus/$name" ] && seeds=("$dir/corpus/$name")
	start=$(date +%s)
	"$bin" "${opts[@]}" "$work" "${seeds[@]}" >"$log" 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	if [ "$rc" -eq 0 ]; then
		report ok "fuzz_$name ran ${secs} s, ${execs:-?} inputs, no failure"
	else
		crash=$(ls -t "$art" 2>/dev/null | head -1)
		report "not ok" "fuzz_$name failed after ${secs} s: input $art/$crash (see $log; fix, then keep the input in $dir/regressions/$name/)"
		grep -m1 -E 'ERROR|runtime error' "$log"
	fi
done
echo "1..$n" >>"$tap"
[ "$failed" -eq 0 ]
