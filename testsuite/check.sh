#!/bin/bash
# check.sh STAGE... - run the test stages of "make check" in order.
#
# Each stage is the make target check-STAGE.  It writes TAP to
# $BUILD/check/STAGE.tap ("ok N - name" / "not ok N - name").  A stage
# that exits non-zero without reporting a failing test counts as one
# failure, so a crash or a missing tool never passes silently.
# A "not ok N - name # TODO reason" line (a known gap, TAP's expected
# failure) counts neither way.
# The last line printed is "N passed, N failed".
#
# CHECK_BESIDE: stages that run in the background, beside the stages
# after them (make check: the lab stages, CHECK_STAGES_LATE, given first,
# which spend most of their time waiting for decay cycles, each lab on
# its own free ports).  Before the first of them starts,
# "make check-lab-prereqs" builds what they need, so that no two makes
# build one file.  Their
# output is kept in $BUILD/check/STAGE.out and printed, in stage order,
# once the foreground stages are done; each one's time is its own.
#
# CHECK_SKIP (environment or make variable): stages not to run, e.g.
# "fuzz unit-valgrind" inside make check-release's root; each is listed
# as skipped in the summary and counts neither way.  A name that is no
# stage is an error.
set -u
build=${BUILD:-build}
mkdir -p "$build/check"
passed=0 failed=0
summary=()

for s in ${CHECK_SKIP:-}; do
	case " $* " in
	*" $s "*) ;;
	*) echo "check.sh: CHECK_SKIP names '$s', which is no stage of make check ($*)" >&2
	   exit 2 ;;
	esac
done

# account STAGE RC SECS - count STAGE's TAP into the totals and the
# summary, given its exit status and time
account()
{
	local stage=$1 rc=$2 secs=$3 tap=$build/check/$1.tap p=0 f=0
	if [ -f "$tap" ]; then
		p=$(grep -c '^ok ' "$tap")
		f=$(grep '^not ok ' "$tap" | grep -vc '^not ok [0-9]* - .* # TODO ')
	fi
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - stage $stage exited with status $rc" >>"$tap"
		f=1
	fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - stage $stage ran no test" >>"$tap"
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	summary+=("$(printf '%-16s %5d passed %4d failed %5ds' "$stage" "$p" "$f" "$secs")")
	if [ "$f" -gt 0 ]; then
		grep '^not ok ' "$tap" | grep -v '^not ok [0-9]* - .* # TODO ' |
			sed "s/^/  $stage: /"
	fi
}

beside=() prereqs_built=0
declare -A beside_pid=()
for stage in "$@"; do
	case " ${CHECK_SKIP:-} " in
	*" $stage "*)
		printf '\n==== stage %s: skipped (CHECK_SKIP) ====\n' "$stage"
		summary+=("$(printf '%-16s skipped (CHECK_SKIP)' "$stage")")
		continue ;;
	esac
	rm -f "$build/check/$stage.tap" "$build/check/$stage.rc"
	case " ${CHECK_BESIDE:-} " in
	*" $stage "*)
		if [ "$prereqs_built" = 0 ]; then
			make --no-print-directory check-lab-prereqs || exit 2
			prereqs_built=1
		fi
		printf '\n==== stage %s: started in the background (%s) ====\n' \
			"$stage" "$build/check/$stage.out"
		(
			start=$(date +%s)
			make --no-print-directory "check-$stage" >"$build/check/$stage.out" 2>&1
			echo "$? $(( $(date +%s) - start ))" >"$build/check/$stage.rc"
		) &
		beside_pid[$stage]=$!
		beside+=("$stage")
		continue ;;
	esac
	printf '\n==== stage %s ====\n' "$stage"
	start=$(date +%s)
	make --no-print-directory "check-$stage"
	rc=$?
	account "$stage" "$rc" $(( $(date +%s) - start ))
done

for stage in "${beside[@]}"; do
	wait "${beside_pid[$stage]}"
	printf '\n==== stage %s (ran in the background) ====\n' "$stage"
	cat "$build/check/$stage.out"
	read -r rc secs <"$build/check/$stage.rc" 2>/dev/null || { rc=1 secs=0; }
	account "$stage" "$rc" "$secs"
done

printf '\n==== summary ====\n'
printf '%s\n' "${summary[@]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
