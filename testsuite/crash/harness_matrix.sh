#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# harness_matrix.sh TAP_FILE - the in-process part of the "crash" stage:
# priority/treeshare in ts-harness(1) on a fake clock, killed (SIGKILL,
# fault_shim.so) at every step of one cycle's save, then restarted on
# what the kill left on disk (ts-harness -D DIR -r N), and every state
# file damaged every way before a restart.  docs/ts-crash.7 has the
# design; every assertion is on the numbers the harness reports.
#
# A crash in cycle 4's save (16 steps, plus a torn write of each file):
#   * after the rename of treeshare_state (the commit), the restarted
#     run's cycles 5 and 6 equal the run that never crashed, every field;
#   * before it, cycle 4 is lost as a cycle but not as usage: running
#     jobs are charged again from cycle 3's decay time.  Without a
#     half-life that is the never-crashed run, exactly; with one, it is
#     the run that stopped cleanly after cycle 3 and came back when
#     cycle 5 was due (one charge over two periods decays differently
#     from two: Slurm's charge formula, not a loss), every field;
#   * a job that ended between cycles 3 and 4 loses exactly its charge
#     since cycle 3 (cpus x seconds) when the commit did not happen.
# Then a failed commit (EIO, ENOSPC through the shim) and the damaged
# files, the refused start and -i, under valgrind memcheck.
# Environment: BUILD (build).
set -u
tap=${1:?usage: harness_matrix.sh TAP_FILE}
build=${BUILD:-build}
bin=$build/bin/ts-harness
shim=$build/lib/ts_fault_shim.so
top=$(pwd)
work=$build/crash/harness
P=priority/treeshare
SAVE=4   # the crashed save: cycle 4's
CYCLES=6
rm -rf "$work"
mkdir -p "$work" "$(dirname "$tap")"
: >"$tap"
n=0 failed=0

ok() { n=$((n + 1)); echo "ok $n - $1" | tee -a "$tap"; }
not_ok() {
	n=$((n + 1)) failed=$((failed + 1))
	echo "not ok $n - $1" | tee -a "$tap"
	[ -n "${2:-}" ] && printf '%s\n' "$2" | head -12 | sed 's/^/# /' |
		tee -a "$tap"
}
check() { if [ "$2" -eq 0 ]; then ok "$1"; else not_ok "$1" "${3:-}"; fi; }
diag() { printf '%s\n' "$@" | sed 's/^/# /' | tee -a "$tap"; }

# fixture NAME LINE... - base + variant lines in $work/NAME.fix.
fixture() {
	local name=$1
	shift
	{
		cat <<FIX
now 1700000000
cycles $CYCLES
conf PriorityCalcPeriod=5
conf PriorityWeightFairshare=100000
conf PriorityWeightAge=1000
conf AccountingStorageEnforce=associations,limits
qos high usage_factor=2
partition debug factor=1
tree $top/testsuite/trees/seed000.tree
job 1 bob:group1 state=running cpus=4 start=now-600 time_limit=600
job 2 cathy:group1 state=running cpus=1 start=now-900 time_limit=600 qos=high
job 3 scott:group2 state=running cpus=8 start=now-300 time_limit=600
job 11 bob:group1 submit=now-3600
job 12 suzy:group2 submit=now-3600
job 13 cathy:group1 submit=now-3600
job 14 scott:group2 submit=now-3600
FIX
		printf '%s\n' "$@"
	} >"$work/$name.fix"
}

# cycles FILE FIRST LAST [SHIFT] - the report lines of cycles FIRST..LAST
# (assoc, qos, job, prio), their cycle number lowered by SHIFT.
cycles() {
	awk -F'|' -v a="$2" -v b="$3" -v s="${4:-0}" '
	($1 == "assoc" || $1 == "qos" || $1 == "job" || $1 == "prio") &&
	$2 >= a && $2 <= b { $2 = $2 - s; print }' OFS='|' "$1"
}

# usage_only FILE CYCLE - the usage a cycle left: RawUsage and the TRES
# lists of every association, every QOS line.  (Outside Fair Tree a
# cycle's fair-share factors come from the usage before its charges:
# after a restart from an older commit they are a cycle behind, as
# multifactor's would be; the next cycle's are the same again.)
usage_only() {
	awk -F'|' -v c="$2" '
	$1 == "assoc" && $2 == c { print $1, $2, $3, $9, $(NF - 1), $NF }
	$1 == "qos" && $2 == c' "$1"
}

# usage FILE CYCLE NAME - RawUsage of association NAME after CYCLE.
usage() {
	awk -F'|' -v c="$2" -v u="$3" \
		'$1 == "assoc" && $2 == c && $5 == u { print $9; exit }' "$1"
}

# run_crash FIX DIR STEP ACTION - the run killed at STEP of save SAVE;
# RET its exit status (137: killed).  A subshell: bash would print
# "Killed" for a foreground command.
run_crash() {
	rm -rf "$2"
	{ (TS_FAULT_DIR=$2 TS_FAULT_SAVE=$SAVE TS_FAULT_STEP=$3 \
		TS_FAULT_ACTION=$4 TS_FAULT_LOG=$2.faults \
		LD_PRELOAD=$top/$shim exec "$bin" -p $P -D "$2" "$1" \
		>"$2.crash.out" 2>"$2.crash.err"); } 2>/dev/null
}

# one variant: NAME DECAYS(0/1) [jobend]
variant() {
	local name=$1 decays=$2 kind=${3:-} fx=$work/$1.fix steps k action
	local commit d res rc want got what lost detail table=""
	"$bin" -v -p $P "$fx" >"$work/$name.ref" 2>"$work/$name.ref.err" || {
		not_ok "$name: the run without a crash completes" \
			"$(tail -3 "$work/$name.ref.err")"
		return
	}
	# a clean stop after cycle 3, back when cycle 5 is due
	sed '$a restart 3 down=300' "$fx" >"$work/$name.restart.fix"
	"$bin" -p $P "$work/$name.restart.fix" >"$work/$name.restart" \
		2>"$work/$name.restart.err"
	# learn the steps of the save
	d=$work/$name.count
	rm -rf "$d"
	TS_FAULT_DIR=$d TS_FAULT_SAVE=$SAVE TS_FAULT_LOG=$d.faults \
		LD_PRELOAD=$top/$shim "$bin" -p $P -D "$d" "$fx" >/dev/null \
		2>"$d.err"
	steps=$(grep -c "^save $SAVE step" "$d.faults")
	commit=$(grep -m1 "rename .*/treeshare_state.new " "$d.faults" |
		 sed 's/^save [0-9]* step \([0-9]*\):.*/\1/')
	if [ "$steps" != 16 ] || [ -z "$commit" ]; then
		not_ok "$name: a save is 16 counted steps, the commit one of them" \
			"$(cat "$d.faults")"
		return
	fi
	for k in $(seq 1 "$steps") $(grep "^save $SAVE step [0-9]*: write" "$d.faults" |
				     sed 's/^save [0-9]* step \([0-9]*\):.*/\1t/'); do
		action=kill
		case $k in *t) action=torn k=${k%t} ;; esac
		d=$work/$name.$k.$action
		run_crash "$fx" "$d" "$k" "$action"
		rc=$?
		what="$(sed -n "s/^save $SAVE step $k: //p" "$d.faults" | head -1)"
		what=${what//$d/DIR}
		if [ "$rc" -ne 137 ]; then
			not_ok "$name: killed at step $k ($action) of the save" \
				"exit $rc, not 137 (SIGKILL); $(tail -2 "$d.crash.err")"
			continue
		fi
		"$bin" -v -p $P -D "$d" -r $SAVE "$fx" >"$d.out" 2>"$d.err"
		rc=$?
		if [ "$rc" -ne 0 ] || ! grep -q 'restored from .*/treeshare_state' "$d.err"; then
			not_ok "$name: restart after a kill at step $k ($action: $what) restores treeshare_state" \
				"exit $rc; $(grep treeshare "$d.err" | head -3)"
			continue
		fi
		got=$(usage "$d.out" $CYCLES root)
		if [ "$k" -gt "$commit" ]; then
			want=$(usage "$work/$name.ref" $CYCLES root)
			detail="committed: as the run without a crash"
			diff <(cycles "$work/$name.ref" 5 $CYCLES) \
				<(cycles "$d.out" 5 $CYCLES) >"$d.diff"
		elif [ "$kind" = jobend ]; then
			# suzy's job ended at now+800, cycle 3 ran at now+600:
			# 2 cpus x 200 s charged after the last commit
			lost=400
			want=$(usage "$work/$name.ref" $CYCLES root)
			detail="not committed: suzy's job end of 2 cpus x 200 s lost"
			: >"$d.diff"
			for u in root group2 suzy bob cathy scott group1 cathy; do
				local r s l=0
				case $u in root | group2 | suzy) l=$lost ;; esac
				r=$(usage "$work/$name.ref" $CYCLES $u)
				s=$(usage "$d.out" $CYCLES $u)
				awk -v r="$r" -v s="$s" -v l="$l" \
					'BEGIN { exit !(r - s == l) }' ||
					echo "$u: $s, want $r - $l" >>"$d.diff"
			done
			want="$want - $lost"
		elif [ "$decays" = 0 ]; then
			want=$(usage "$work/$name.ref" $CYCLES root)
			detail="not committed, no decay: the usage of the run without a crash"
			diff <(usage_only "$work/$name.ref" 5
			       cycles "$work/$name.ref" 6 $CYCLES) \
				<(usage_only "$d.out" 5
				  cycles "$d.out" 6 $CYCLES) >"$d.diff"
		else
			want=$(usage "$work/$name.restart" $((CYCLES - 1)) root)
			detail="not committed: as a clean stop after cycle 3"
			diff <(cycles "$work/$name.restart" 4 $((CYCLES - 1))) \
				<(cycles "$d.out" 5 $CYCLES 1) >"$d.diff"
		fi
		table+="$(printf '%-18s step %2s %-5s %-48s root %s (want %s)' \
			"$name" "$k" "$action" "$what" "$got" "$want")"$'\n'
		check "$name: kill at step $k ($action: $what) neither loses nor doubles usage ($detail)" \
			"$([ -s "$d.diff" ] && echo 1 || echo 0)" "$(head -6 "$d.diff")"
	done
	diag "${table%$'\n'}"
}

# damage FIX FILE MODE WANT_LOG [-i] - restart after cycle 3 with FILE
# damaged as MODE: the restart logs WANT_LOG (a regular expression,
# file and defect) and cycles 4..6 are those of the run without damage,
# every field (nothing lost: only what came after the previous copy, and
# nothing did).
damage() {
	local fx=$work/$1.fix file=$2 mode=$3 want=$4 opt=${5:-} base
	base=$work/$1.$file.$mode$opt
	sed "\$a restart 3 damage=$mode file=$file" "$fx" >"$base.fix"
	"$bin" -v $opt -p $P "$base.fix" >"$base.out" 2>"$base.err"
	local rc=$? line
	line=$(grep -m1 -E "$want" "$base.err")
	diff <(cycles "$work/$1.ref" 4 $CYCLES) <(cycles "$base.out" 4 $CYCLES) \
		>"$base.diff"
	[ "$rc" -eq 0 ] && [ -n "$line" ] && [ ! -s "$base.diff" ]
	check "$1: $file $mode${opt:+ with $opt} is named in the log and loses nothing" $? \
		"exit $rc; log: $(grep treeshare "$base.err" | head -3); $(head -3 "$base.diff")"
	[ -n "$line" ] && diag "  ${line#*priority/treeshare: }"
}

t0=$(date +%s)
nodecay='conf PriorityDecayHalfLife=0'
reset='conf PriorityUsageResetPeriod=QUARTERLY'
fixture classic 'conf PriorityFlags=NO_FAIR_TREE' "$nodecay" "$reset"
fixture classic_slurm_saved 'conf PriorityFlags=NO_FAIR_TREE' "$nodecay" \
	"$reset" 'slurm_save 2' 'slurm_save 3'
fixture fair_tree_halflife 'conf PriorityDecayHalfLife=1-0'
fixture pbs_windows "$nodecay" "$reset" \
	'conf PriorityParameters=fairshare=pbs,usage_window=00:20:00,usage_depth=4'
fixture windows_halflife 'conf PriorityDecayHalfLife=1-0' \
	'conf PriorityParameters=usage_window=00:20:00,usage_depth=3,usage_decay=0.5'
fixture jobend 'conf PriorityFlags=NO_FAIR_TREE' "$nodecay" "$reset" \
	'job 4 suzy:group2 state=running cpus=2 start=now-60 time_limit=600 finish=now+800'

variant classic 0
variant classic_slurm_saved 0
variant fair_tree_halflife 1
variant pbs_windows 0
variant windows_halflife 1
variant jobend 0 jobend
# Every state file damaged every way, before a restart after cycle 3.
t1=$(date +%s)
for m in torn:"torn or truncated" corrupt:"CRC mismatch" zero:"zero length" \
	 random:"not a treeshare state file .bad magic." \
	 trailing:"trailing bytes" future:"save time .* is 3600 s after now" \
	 negative:"last decay time -1 is negative" missing:"missing"; do
	mode=${m%%:*} why=${m#*:}
	damage classic treeshare_state "$mode" \
		"treeshare_state: $why.*; using .*treeshare_state.prev, saved at .*: usage charged by jobs that ended after that is lost"
	# the "restored" line names the copy read, not the refused one
	grep -q 'usage of .* restored from .*/treeshare_state\.prev, saved at' \
		"$work/classic.treeshare_state.$mode.err"
	check "classic: treeshare_state $mode: the restored line names treeshare_state.prev" $? \
		"$(grep -m1 'restored from' "$work/classic.treeshare_state.$mode.err")"
done
for m in torn:"neither multifactor's 16 nor treeshare's 28 .torn or truncated." \
	 corrupt:"CRC mismatch" zero:"zero length" \
	 random:"(CRC mismatch|bad magic|neither)" \
	 trailing:"neither multifactor's 16 nor treeshare's 28 .trailing bytes." \
	 future:"last decay time .* is 3600 s after now" \
	 negative:"last decay time -1 is negative" missing:"missing" \
	 both:"torn or truncated.; .*priority_last_decay_ran.old: CRC mismatch"; do
	mode=${m%%:*} why=${m#*:}
	damage classic priority_last_decay_ran "$mode" \
		"priority_last_decay_ran: .*$why.*nothing lost: treeshare_state holds the decay time"
done
# refused BASE RESTART WANT NAME - classic with the line RESTART added
# must refuse the start (exit status 2) with exactly one line matching
# WANT (a regular expression), left in $line.
refused() {
	local base=$1 rc
	sed "\$a $2" "$work/classic.fix" >"$base.fix"
	"$bin" -v -p $P "$base.fix" >"$base.out" 2>"$base.err"
	rc=$?
	line=$(grep -E "$3" "$base.err")
	[ "$rc" -eq 2 ] && [ "$(printf '%s\n' "$line" | grep -c .)" = 1 ]
	check "$4" $? "exit $rc (2: refused); $(grep treeshare "$base.err" |
		grep -v PriorityParameters | tail -3)"
}
# both copies of treeshare_state bad: refused, both named, once
refused "$work/classic.treeshare_state.both" \
	'restart 3 damage=both file=treeshare_state' \
	'treeshare_state unusable: .*treeshare_state: torn or truncated: .*; .*treeshare_state.prev: CRC mismatch .*; slurmctld cannot start' \
	"classic: both copies of treeshare_state bad refuses the start, naming both, logged once"
diag "  ${line#*priority/treeshare: }"
damage classic treeshare_state both \
	"treeshare_state unusable: .*; starting anyway .-i." -i
# No treeshare_state (issue 22): after a clean stop treeshare_state and
# its .prev are removed and priority_last_decay_ran is damaged.  Its
# .old is cycle 2's decay time, but slurmctld's usage saved at the stop
# holds the charges up to cycle 3's: charging from .old counted cycle 3
# twice for the running jobs (14 CPUs x 300 s = 4200 at root; the old
# code started and ended with root 30600 = REF + 4200).  Now the start is
# refused naming both copies and treeshare_state; with -i cycle 3's
# interval is lost, never counted twice: root REF - 4200, bob - 4 x 300,
# cathy - 1 x 300 x UsageFactor 2, scott - 8 x 300, suzy (no job) as REF.
for mode in corrupt zero future negative missing; do
	base=$work/classic.no_state.$mode
	refused "$base" \
		"restart 3 remove=treeshare_state damage=$mode file=priority_last_decay_ran" \
		"the last decay time unusable: .*/priority_last_decay_ran: [^;]*; .*/priority_last_decay_ran.old \(last decay [^)]*\) is an older copy, and without .*/treeshare_state or its .prev nothing tells .*: charging from it could count usage twice; slurmctld cannot start" \
		"classic: no treeshare_state, priority_last_decay_ran $mode: the start is refused naming both copies, logged once"
	[ -n "$line" ] && [ "$mode" = corrupt ] && diag "  ${line#*priority/treeshare: }"
	"$bin" -v -i -p $P "$base.fix" >"$base.i.out" 2>"$base.i.err"
	rc=$?
	: >"$base.i.diff"
	for u in root:4200 bob:1200 cathy:600 scott:2400 suzy:0; do
		r=$(usage "$work/classic.ref" $CYCLES "${u%%:*}")
		got=$(usage "$base.i.out" $CYCLES "${u%%:*}")
		awk -v r="$r" -v s="$got" -v l="${u#*:}" \
			'BEGIN { exit !(r - s == l) }' ||
			echo "${u%%:*}: $got, want $r - ${u#*:}" >>"$base.i.diff"
	done
	[ "$rc" -eq 0 ] && [ ! -s "$base.i.diff" ] &&
		grep -q "the last decay time is unusable: .*; starting anyway (-i): running jobs are charged from the first cycle on" "$base.i.err"
	check "classic: no treeshare_state, priority_last_decay_ran $mode, -i: cycle 3's interval is lost, never counted twice (root $(usage "$base.i.out" $CYCLES root) = REF - 4200)" $? \
		"exit $rc; $(head -5 "$base.i.diff"); $(grep treeshare "$base.i.err" | grep -v PriorityParameters | tail -2)"
done
# With treeshare_state, a damaged priority_last_decay_ran is read from
# .old, a cycle behind: the debug line says so and names the defect, not
# "a stop between the two writes" (issue 22).
for m in missing:"missing" zero:"zero length" \
	 negative:"last decay time -1 is negative" \
	 future:"last decay time .* is 3600 s after now"; do
	mode=${m%%:*} why=${m#*:}
	base=$work/classic.behind.$mode
	sed -e '$a conf DebugFlags=Priority' \
	    -e "\$a restart 3 damage=$mode file=priority_last_decay_ran" \
		"$work/classic.fix" >"$base.fix"
	"$bin" -vvv -p $P "$base.fix" >"$base.out" 2>"$base.err"
	rc=$?
	line=$(grep -m1 "priority_last_decay_ran.old is behind .*/treeshare_state: it was read because .*/priority_last_decay_ran: $why" "$base.err")
	[ "$rc" -eq 0 ] && [ -n "$line" ] && ! grep -q "stop between" "$base.err"
	check "classic: priority_last_decay_ran $mode with treeshare_state: the line on .old being behind names the defect, not a stop" $? \
		"exit $rc; $(grep -E 'behind|nothing lost' "$base.err" | head -3)"
done
# A kill right after the commit (the step after treeshare_state's rename,
# before priority_last_decay_ran's): that file is behind because of the
# stop, and the line says so.
commit=$(grep -m1 "rename .*/treeshare_state.new " "$work/classic.count.faults" |
	 sed 's/^save [0-9]* step \([0-9]*\):.*/\1/')
sed '$a conf DebugFlags=Priority' "$work/classic.fix" >"$work/classic_prio.fix"
d=$work/classic_prio.after_commit
run_crash "$work/classic_prio.fix" "$d" $((commit + 1)) kill
rc=$?
"$bin" -vvv -p $P -D "$d" -r $SAVE "$work/classic_prio.fix" >"$d.out" 2>"$d.err"
rc2=$?
[ "$rc" -eq 137 ] && [ "$rc2" -eq 0 ] &&
	! grep -q "save $SAVE step $((commit + 1)): rename .*priority_last_decay_ran" "$d.faults" &&
	grep -q "priority_last_decay_ran is behind .*/treeshare_state: a stop between the commit and the write of .*priority_last_decay_ran, or that write failed" "$d.err"
check "classic: a kill after the commit leaves priority_last_decay_ran behind, and the line names the stop" $? \
	"kill exit $rc, restart exit $rc2; $(grep "step $((commit + 1))" "$d.faults"); $(grep -E 'behind' "$d.err" | head -2)"
# an upgrade: the state as a treeshare before issue 13 kept it
damage pbs_windows treeshare_state old_format \
	"priority_last_decay_ran read once in priority/multifactor's 16-byte format"
base=$work/pbs_windows.treeshare_state.old_format
grep -q 'treeshare_windows read once' "$base.err" &&
	grep -q 'treeshare_windows is in treeshare_state now' "$base.err"
check "pbs_windows: an older treeshare's treeshare_windows is read once and retired" $? \
	"$(grep treeshare_windows "$base.err" | head -3)"
# A reconfigure that drops usage_window (it used to save the windows
# file outside the state-file lock): the windows stay in memory and in
# treeshare_state, no file of their own is written, and setting
# usage_window again after a restart resumes them (not started afresh
# from RawUsage: "no saved usage windows" is logged at the first start
# only).
base=$work/windows_dropped
rm -rf "$base"
sed -e '$a reconfigure 2 PriorityParameters=fairshare=fair_tree' \
    -e '$a restart 3' \
    -e '$a reconfigure 4 PriorityParameters=usage_window=00:20:00,usage_depth=3,usage_decay=0.5' \
	"$work/windows_halflife.fix" >"$base.fix"
"$bin" -v -p $P -D "$base" "$base.fix" >"$base.out" 2>"$base.err"
rc=$?
[ "$rc" -eq 0 ] &&
	grep -Eq '(usage_window removed|no usage_window): .*windows are kept in treeshare_state' "$base.err" &&
	[ "$(grep -c 'no saved usage windows' "$base.err")" = 1 ] &&
	[ -z "$(find "$base" -name 'treeshare_windows*')" ]
check "windows_halflife: usage_window dropped at reconfigure is kept (no file of its own), resumed after a restart" $? \
	"exit $rc; $(grep -E 'usage_window|usage windows' "$base.err" | head -4); $(ls "$base")"
# Issue 31: the jobs feasibility caps hold and those an operator
# released, in treeshare_state (version 2; job keys added here to a
# clean stop's state, the CRC made right), and treeshare_state damaged.
# The restart must decide first and say where the keys came from: the
# line on the unusable file comes before "restored from .../.prev".  With
# both copies bad, -i names the operator releases it loses (read past the
# bad CRC: 2).
base=$work/classic.keys
rm -rf "$base"
"$bin" -p $P -c 3 -D "$base" "$work/classic.fix" >"$base.first" 2>&1
python3 - "$base/treeshare_state" "$base/treeshare_state.prev" <<'PY'
import struct, sys, zlib
for path in sys.argv[1:]:
    d = open(path, 'rb').read()[:-4]
    # held 11, 12, 13 and exempt 14, 15 (job id, submit time)
    keys = struct.pack('<II', 3, 2) + b''.join(
        struct.pack('<Iq', j, 1699996400) for j in (11, 12, 13, 14, 15))
    body = struct.unpack('<Q', d[16:24])[0] + len(keys)
    d = d[:8] + struct.pack('<I', 2) + d[12:16] + struct.pack('<Q', body) + d[24:] + keys
    open(path, 'wb').write(d + struct.pack('<I', zlib.crc32(d) & 0xffffffff))
PY
cp -a "$base" "$base.i"
python3 testsuite/crash/state_damage.py corrupt "$base/treeshare_state"
"$bin" -v -p $P -D "$base" -r 3 "$work/classic.fix" >"$base.out" 2>"$base.err"
rc=$?
bad=$(grep -n 'treeshare_state: CRC mismatch.*; using .*/treeshare_state.prev' "$base.err" | cut -d: -f1 | head -1)
keys=$(grep -n 'fscap: 3 cap-held and 2 operator-released jobs restored from .*/treeshare_state.prev;' "$base.err" | cut -d: -f1 | head -1)
[ "$rc" -eq 0 ] && [ -n "$bad" ] && [ -n "$keys" ] && [ "$bad" -lt "$keys" ]
check "classic: treeshare_state bad, keys from .prev: the unusable file is named first, then the keys restored from treeshare_state.prev" $? \
	"exit $rc; $(grep -E 'fscap|CRC mismatch' "$base.err" | head -3)"
python3 testsuite/crash/state_damage.py corrupt "$base.i/treeshare_state"
python3 testsuite/crash/state_damage.py corrupt "$base.i/treeshare_state.prev"
"$bin" -v -i -p $P -D "$base.i" -r 3 "$work/classic.fix" >"$base.i.out" 2>"$base.i.err"
rc=$?
line=$(grep -m1 'treeshare_state unusable: .*starting anyway (-i)' "$base.i.err")
[ "$rc" -eq 0 ] && printf '%s' "$line" | grep -q 'and 2 operator releases from fscap are lost'
check "classic: both copies bad with -i: the line counts the 2 operator releases lost" $? \
	"exit $rc; ${line:-no -i line}"
[ -n "$line" ] && diag "  ${line#*priority/treeshare: }"
diag "corruption matrix: $(($(date +%s) - t1)) s"

# The numbers themselves, from the fixture: without decay every running
# job's charge is cpus x seconds from the first "last decay" (now - 300)
# to cycle 6 (now + 1500): (4 + 1 x UsageFactor 2 + 8) x 1800 = 25200
# on top of the 1200 slurmctld restored.  jobend adds suzy's job: 2
# cpus from now - 60 to now + 800.
for v in classic:26400 pbs_windows:26400 jobend:28120; do
	got=$(usage "$work/${v%%:*}.ref" $CYCLES root)
	[ "$got" = "${v#*:}" ]
	check "${v%%:*}: the run without a crash charges root ${v#*:} (cpus x seconds by hand)" $? \
		"root RawUsage $got"
done
# The fault paths under valgrind memcheck (issue 13): every defect read
# and logged, the fall backs, -i setting files aside, the upgrade, a
# refused start, and failed commits (EIO on the fsync, ENOSPC on the
# write, through the shim) logged and recovered from.  Counted as in the
# harness stage: an error with a frame of the plugin in a stack.
t2=$(date +%s)
vg_verdict() {
	awk -v plugin=priority_treeshare.so -v tool=memcheck \
		-f "$top/testsuite/harness/valgrind_verdict.awk" "$1"
}
# vg NAME WANT_RC FIXTURE [ENV=VALUE...] [-- ts-harness options]
vg() {
	local name=$1 want=$2 fx=$3 xml rc out
	local -a env=() opts=()
	shift 3
	while [ $# -gt 0 ] && [ "$1" != -- ]; do env+=("$1"); shift; done
	[ "${1:-}" = -- ] && shift
	opts=("$@")
	xml=$work/vg.$(basename "$fx" .fix).xml
	env "${env[@]}" valgrind --tool=memcheck --leak-check=full \
		--show-leak-kinds=definite,indirect,possible \
		--suppressions="$top/testsuite/harness/valgrind.supp" \
		--xml=yes --xml-file="$xml" "$bin" -v -t 300 -p $P "${opts[@]}" \
		"$fx" >"$xml.out" 2>"$xml.err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		not_ok "$name" "ts-harness exited $rc under memcheck, not $want: $(tail -3 "$xml.err")"
	elif out=$(vg_verdict "$xml"); then
		ok "$name"
	else
		not_ok "$name" "$out (full log: $xml)"
	fi
}
# failed_commit FIXTURE ACTION STEP ERRNO_TEXT LOST WHAT CALL - under
# memcheck, the commit of fini() at a restart after cycle 3 (save 4)
# fails at STEP with ACTION: the log names the failed CALL (write,
# fsync), treeshare_state.new and ERRNO_TEXT, and root's usage after
# cycle 6 is REF's less LOST (LOST 0: every field of cycles 4..6 is
# REF's).
failed_commit() {
	local fx=$1 act=$2 step=$3 text=$4 lost=$5 what=$6 call=$7 line want got every
	local base=$work/vg.$act
	sed '$a restart 3' "$work/$fx.fix" >"$base.fix"
	rm -rf "$base"
	vg "memcheck: $act on $what of a commit leaks nothing" 0 "$base.fix" \
		LD_PRELOAD="$top/$shim" TS_FAULT_DIR="$base" TS_FAULT_SAVE=4 \
		TS_FAULT_STEP="$step" TS_FAULT_ACTION="$act" -- -D "$base"
	line=$(grep -m1 "state not saved: cannot $call .*/treeshare_state.new: $text; the files keep the state committed at" \
		"$work/vg.vg.$act.xml.err")
	want=$(($(usage "$work/$fx.ref" $CYCLES root) - lost))
	got=$(usage "$work/vg.vg.$act.xml.out" $CYCLES root)
	: >"$base.diff"
	every=""
	if [ "$lost" = 0 ]; then
		every=", every field of cycles 4..6 as REF's"
		diff <(cycles "$work/$fx.ref" 4 $CYCLES) \
			<(cycles "$work/vg.vg.$act.xml.out" 4 $CYCLES) >"$base.diff"
	fi
	[ -n "$line" ] && [ "$got" = "$want" ] && [ ! -s "$base.diff" ]
	check "$fx: $act on $what of treeshare_state.new is logged as \"cannot $call\" naming the file; root $got = REF - $lost$every" $? \
		"$(grep treeshare "$work/vg.vg.$act.xml.err" | head -3); root $got, want $want; $(head -3 "$base.diff")"
	[ -n "$line" ] && diag "  ${line#*priority/treeshare: }"
}
if ! command -v valgrind >/dev/null; then
	not_ok "the fault paths run under valgrind" "valgrind is not installed"
else
	sed -e '$a restart 1 damage=corrupt' \
	    -e '$a restart 2 damage=random file=priority_last_decay_ran' \
	    -e '$a restart 3 damage=both file=priority_last_decay_ran' \
	    -e '$a restart 4 damage=future' \
	    -e '$a restart 5 damage=old_format' \
		"$work/pbs_windows.fix" >"$work/vg.damaged.fix"
	vg "memcheck: damaged files, fall backs and the upgrade leak nothing" 0 \
		"$work/vg.damaged.fix"
	sed '$a restart 2 damage=both' "$work/windows_halflife.fix" \
		>"$work/vg.refused.fix"
	vg "memcheck: both copies bad, the refused start leaks nothing" 2 \
		"$work/vg.refused.fix"
	cp "$work/vg.refused.fix" "$work/vg.ignored.fix"
	vg "memcheck: both copies bad with -i, set aside as .bad, leaks nothing" 0 \
		"$work/vg.ignored.fix" -- -i
	# no treeshare_state and priority_last_decay_ran corrupt (issue 22)
	cp "$work/classic.no_state.corrupt.fix" "$work/vg.no_state.fix"
	vg "memcheck: no treeshare_state, a damaged priority_last_decay_ran: the refused start leaks nothing" 2 \
		"$work/vg.no_state.fix"
	cp "$work/vg.no_state.fix" "$work/vg.no_state_i.fix"
	vg "memcheck: the same with -i leaks nothing" 0 \
		"$work/vg.no_state_i.fix" -- -i
	# A failed commit: the one of fini() at a restart after cycle 3
	# (the harness waits for no cycle there).  Nothing ended since cycle
	# 3 in pbs_windows: nothing lost.  In jobend suzy's job ended in that
	# gap: exactly its charge since cycle 3 is lost (2 CPUs x 200 s), the
	# loss the guarantee allows.
	failed_commit pbs_windows eio 3 "Input/output error" 0 "the fsync" fsync
	failed_commit jobend enospc 2 "No space left on device" 400 "the write" write
fi
diag "valgrind: $(($(date +%s) - t2)) s"

# priority_last_decay_ran failing after the commit (ENOSPC on its write,
# step 10 of cycle 3's save): the log says treeshare_state was committed
# and names the file that was not; the next commit says "state saved
# again"; every field of cycles 1..6 is REF's (nothing lost or doubled).
d=$work/decay_record_enospc
rm -rf "$d"
TS_FAULT_DIR=$d TS_FAULT_SAVE=3 TS_FAULT_STEP=10 TS_FAULT_ACTION=enospc \
	TS_FAULT_LOG=$d.faults LD_PRELOAD=$top/$shim \
	"$bin" -v -p $P -D "$d" "$work/pbs_windows.fix" >"$d.out" 2>"$d.err"
rc=$?
line=$(grep -m1 "state committed to treeshare_state, but priority_last_decay_ran not updated: cannot write .*/priority_last_decay_ran.new: No space left on device" "$d.err")
diff <(cycles "$work/pbs_windows.ref" 1 $CYCLES) <(cycles "$d.out" 1 $CYCLES) >"$d.diff"
[ "$rc" -eq 0 ] && grep -q "^save 3 step 10: fails with ENOSPC" "$d.faults" &&
	grep -q "^save 3 step 9: open .*/priority_last_decay_ran.new" "$d.faults" &&
	[ -n "$line" ] && grep -q "state saved again" "$d.err" &&
	! grep -q "state not saved" "$d.err" && [ ! -s "$d.diff" ]
check "pbs_windows: ENOSPC on priority_last_decay_ran after the commit is logged as a commit; usage as REF's" $? \
	"exit $rc; $(grep -E 'step 10|enospc' "$d.faults" | head -2); $(grep treeshare "$d.err" | grep -v restored | head -3); $(head -3 "$d.diff")"
[ -n "$line" ] && diag "  ${line#*priority/treeshare: }"
diag "crash matrix: $n runs in $(($(date +%s) - t0)) s"
[ "$failed" -eq 0 ]
