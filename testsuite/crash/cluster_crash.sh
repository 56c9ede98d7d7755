#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cluster_crash.sh CONFIG TAP_FILE - crash consistency of
# priority/treeshare against a real slurmctld in the cluster lab
# (docs/ts-crash.7), one cluster per CONFIG in build/cluster-crash-CONFIG:
#   a  classic, no half-life, no windows: the crash matrix, every state
#      file damaged every way, ENOSPC on a small tmpfs, EIO
#   b  Fair Tree, usage windows, a half-life: the crash matrix, and
#      Maui's usage per credential (issue 27) checked like RawUsage
#   c  fairshare=pbs, a half-life, no windows: a few crash points
# Jobs of bob (4 CPUs), cathy (1) and scott (8) run throughout.  Each
# crash point kills slurmctld -9 at a random instant, starts it with
# fault_shim.so armed so that it kills itself at step K of the state save
# of its first cycle (which runs at start: one restart, not a minute),
# starts it again, and checks every user's RawUsage against the charge
# arithmetic: without decay, and with usage windows (which keep usage
# undecayed), RawUsage = CPUs x (last decay - job start), exactly (sshare
# rounds to the unit); with a half-life, between that times
# d^(last decay - start) and that.  A lost or doubled minute is 60 units
# per CPU.  slurmctld saves assoc_usage only every 300 s, never in these
# short lives: the usage after each kill comes from treeshare_state.
set -u -o pipefail

CONFIG=${1:?usage: cluster_crash.sh a|b|c TAP_FILE}
TAP_FILE=$(readlink -f "${2:?usage: cluster_crash.sh a|b|c TAP_FILE}")
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
prefix=${TS_CHECK_DIR_PREFIX:-$TOP/build/cluster-crash-}
mkdir -p "$(dirname "$prefix$CONFIG")"
TS_CLUSTER_DIR=$(readlink -f "$prefix$CONFIG")
export TS_CLUSTER_DIR TS_CLUSTER_LOCK_HOLDER=$TS_CLUSTER_DIR
# shellcheck source=../cluster/lib.sh
. "$TOP/testsuite/cluster/lib.sh"
DIR=$TS_CLUSTER_DIR
# shellcheck source=../cluster/daemon.sh
. "$TOP/testsuite/cluster/daemon.sh"
SHIM=$TOP/build/lib/ts_fault_shim.so
STATE=$DIR/state/ctld
LOG=$DIR/log/slurmctld.log
SMALL=$DIR/state-small
P="crash-$CONFIG"
declare -A CPUS=([bob]=4 [cathy]=1 [scott]=8) START=()
HL=0

exec 9>>"$TS_CLUSTER_DIR.lock"
if ! flock -n 9; then
	not_ok "$P: cluster_crash.sh gets $TS_CLUSTER_DIR to itself" \
		"in use by $(cat "$TS_CLUSTER_DIR.lock")"
	exit 1
fi
echo "cluster_crash.sh pid $$ ($CONFIG) since $(date '+%F %T')" >"$TS_CLUSTER_DIR.lock"

cleanup()
{
	local pids
	pids=$(ts_pid_stamp $(ts_cluster_pids) | xargs)
	"$TS_CLUSTER" down >/dev/null 2>&1
	mountpoint -q "$SMALL" && umount "$SMALL"
	# shellcheck disable=SC2086
	[ -z "$(ts_pids_alive $pids)" ] ||
		not_ok "$P: cluster down leaves no process it started" \
			"alive: $(ts_pids_alive $pids | xargs)"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ------------------------------------------------------------- helpers

ctld_up() { scontrol ping 2>/dev/null | grep -q 'is UP'; }

# decay_time [FILE] - the last decay time in priority_last_decay_ran.
decay_time()
{
	python3 -c 'import struct, sys
print(struct.unpack(">q", open(sys.argv[1], "rb").read(8))[0])' \
		"${1:-$STATE/priority_last_decay_ran}" 2>/dev/null
}

ctld_pid() { pidfile_pid slurmctld; }

# start_ctld [ENV=VALUE...] - slurmctld with that environment; returns at
# once (use wait_ctld_up, or wait_ctld_dead when it is meant to die).
start_ctld()
{
	spawn slurmctld env "$@" slurmctld -D -f "$SLURM_CONF"
	# not a job of this shell: it would print "Killed" when one dies
	disown -a
}

wait_ctld_up()
{
	await slurmctld 60 "slurmctld to answer scontrol ping" ctld_up
}

# wait_commit SINCE - the first cycle after a start has committed: the
# last decay time is SINCE or later.
wait_commit()
{
	local t
	wait_for 60 "a commit with a last decay at $1 or later" \
		eval '[ "$(decay_time)" -ge '"$1"' ]'
	t=$(decay_time)
	[ -n "$t" ] && [ "$t" -ge "$1" ]
}

wait_ctld_dead()
{
	local pid
	pid=$(ctld_pid) || return 0
	wait_for 60 "slurmctld $pid to die" eval '! pid_alive '"$pid"
}

# kill9 - kill -9 the running slurmctld, at a random instant.
kill9()
{
	local pid
	pid=$(ctld_pid) || return 0
	sleep "0.$((RANDOM % 10))"
	kill -KILL "$pid" 2>/dev/null
	wait_ctld_dead
	rm -f "$DIR/run/pid/slurmctld"
}

# raw USER - RawUsage of USER's association in sshare.
raw()
{
	sshare -n -P -u "$1" -o user,rawusage |
		awk -F'|' -v u="$1" '$1 == u { print $2; exit }'
}

# identity - every user's RawUsage, and root's (their sum: the tree has
# no other usage), against CPUs x (last decay - start); diagnostics in
# IDENTITY_DIAG.  RET 0 if all hold.
identity()
{
	local L u got want lo t bad=0 line="" sum=0 oldest=${START[bob]}
	L=$(decay_time)
	for u in bob cathy scott; do
		[ "${START[$u]}" -lt "$oldest" ] && oldest=${START[$u]}
	done
	for u in bob cathy scott root; do
		if [ "$u" = root ]; then
			got=$(sshare -n -P -A root -o account,user,rawusage |
			      awk -F'|' '$1 ~ /root/ && $2 == "" { print $3; exit }')
			want=$sum
			t=$((L - oldest))
		else
			got=$(raw "$u")
			t=$((L - START[$u]))
			want=$((CPUS[$u] * t))
			sum=$((sum + want))
		fi
		lo=$(awk -v w="$want" -v t="$t" -v h="$HL" 'BEGIN {
			if (h == 0) { print w - 1; exit }
			d = 1 - 0.693 / (h * 60); printf "%d", w * d ^ t - 1 }')
		line+=" $u $got/$want"
		if [ -z "$got" ] || [ "$got" -lt "$lo" ] ||
		   [ "$got" -gt $((want + 3)) ]; then
			bad=1
			line+="(allowed $lo..$((want + 3)))"
		fi
	done
	IDENTITY_DIAG="last decay $L:$line"
	return $bad
}

# cred_identity - config b keeps Maui's usage per credential (a targets
# file's "user NAME@*" entry asks for it; no weight, so FairShare is the
# tree's): exported from treeshare_state as Maui's files (sshare-ext
# --export-maui), each user's and each Unix group's usage over all
# windows is CPUs x (last decay - start), as RawUsage, and TOTAL their
# sum.  Diagnostics in CRED_DIAG.  RET 0 if all hold.
cred_identity()
{
	local d=$DIR/export L u type sum=0 want
	CRED_DIAG="" CRED_BAD=0
	[ "$CONFIG" = b ] || return 0
	rm -rf "$d" && mkdir -p "$d"
	L=$(decay_time)
	if ! "$TOP/build/bin/sshare-ext" --export-maui="$d" \
		--state="$STATE/treeshare_state" >"$d.out" 2>"$d.err"; then
		CRED_DIAG="per credential: sshare-ext --export-maui: $(tail -1 "$d.err")"
		return 1
	fi
	for u in bob cathy scott; do
		want=$((CPUS[$u] * (L - START[$u])))
		sum=$((sum + want))
		for type in User Group; do
			cred_check "$type $u" "$(fs_sum "$d" "$type" "$u")" "$want"
		done
	done
	cred_check TOTAL "$(fs_sum "$d" TOTAL)" "$sum"
	CRED_DIAG="per credential in $(ls "$d" | wc -l) window files:$CRED_DIAG"
	return $CRED_BAD
}

# fs_sum DIR TYPE [NAME] - NAME's amounts of TYPE (or the TOTALs) over
# every FS file in DIR, rounded.
fs_sum()
{
	cat "$1"/FS.* | awk -v t="$2" -v n="${3:-}" \
		'$1 == t && (n == "" || $2 == n) { s += $NF } END { printf "%.0f", s }'
}

# cred_check WHAT GOT WANT - GOT within RawUsage's bounds of WANT, added
# to CRED_DIAG; CRED_BAD=1 if not.
cred_check()
{
	CRED_DIAG+=" $1 $2/$3"
	if [ -z "$2" ] || [ "$2" -lt $(($3 - 1)) ] || [ "$2" -gt $(($3 + 3)) ]; then
		CRED_BAD=1
		CRED_DIAG+="(allowed $(($3 - 1))..$(($3 + 3)))"
	fi
}

# restored_line - the plugin's last "restored" line (usage it put back
# and what slurmctld's assoc_usage had), shortened.
restored_line()
{
	grep 'usage of .* restored from' "$LOG" | tail -1 |
		sed 's/.*: root RawUsage/root RawUsage/'
}

# ----------------------------------------------------------- bring-up

case $CONFIG in
a) extra='PriorityFlags=NO_FAIR_TREE
PriorityDecayHalfLife=0
PriorityUsageResetPeriod=YEARLY' ;;
b) echo "user bob@* 30" >"$TS_CLUSTER_DIR.targets"
   chmod 644 "$TS_CLUSTER_DIR.targets"
   extra="PriorityDecayHalfLife=60
PriorityParameters=usage_window=01:00:00,usage_depth=4,fs_targets=$TS_CLUSTER_DIR.targets"
   HL=0 ;; # RawUsage is the windows' sum, undecayed
c) extra='PriorityDecayHalfLife=60
PriorityParameters=fairshare=pbs'
   HL=60 ;;
*) echo "cluster_crash.sh: unknown config $CONFIG" >&2; exit 2 ;;
esac
mkdir -p "$(dirname "$TS_CLUSTER_DIR")"
printf '%s\nAccountingStorageEnforce=associations,limits\n' "$extra" \
	>"$TS_CLUSTER_DIR.extra.conf"
t0=$(date +%s)
if ! "$TS_CLUSTER" up --plugin priority/treeshare \
	--conf-extra "$TS_CLUSTER_DIR.extra.conf" >"$TS_CLUSTER_DIR.up.log" 2>&1; then
	not_ok "$P: cluster up with priority/treeshare" "$(tail -5 "$TS_CLUSTER_DIR.up.log")"
	exit 1
fi
if ! ts_tree_load "$TOP/testsuite/trees/seed000.tree"; then
	not_ok "$P: the seed 000 tree loads" ""
	exit 1
fi
jobs=()
for u in bob cathy scott; do
	jobs+=("$(ts_submit "$u" -p lab -c "${CPUS[$u]}" --wrap 'sleep 3600')")
done
if ! wait_for 60 "the jobs to run" ts_jobs_running "${jobs[@]}"; then
	not_ok "$P: bob's, cathy's and scott's jobs run" "$(squeue 2>&1)"
	exit 1
fi
for j in "${jobs[@]}"; do
	u=$(squeue -h -j "$j" -o %u)
	START[$u]=$(date -d "$(squeue -h -j "$j" -o %S)" +%s)
done
# a clean restart: its first cycle charges the jobs and commits
stop_daemon slurmctld 30
t=$(date +%s)
start_ctld
if ! wait_ctld_up || ! wait_commit "$t"; then
	not_ok "$P: slurmctld restarts and commits its first cycle" "$(tail -5 "$LOG")"
	exit 1
fi
identity && cred_identity
check_id=$?
if [ $check_id -eq 0 ]; then
	ok "$P: after a clean restart RawUsage is CPUs x running time ($IDENTITY_DIAG${CRED_DIAG:+; $CRED_DIAG}) ($(($(date +%s) - t0))s)"
else
	not_ok "$P: after a clean restart RawUsage is CPUs x running time" "$IDENTITY_DIAG" "$CRED_DIAG"
fi

# ------------------------------------------------------- crash points

# count the steps of one save (armed, step 0: log only), then restart
count_steps()
{
	local f=$DIR/log/faults.count
	rm -f "$f"
	kill9
	start_ctld LD_PRELOAD="$SHIM" TS_FAULT_DIR="$STATE" TS_FAULT_SAVE=1 \
		TS_FAULT_LOG="$f"
	wait_ctld_up && wait_for 60 "one save" grep -q 'save 1 step 16' "$f"
	STEPS=$(grep -c '^save 1 step' "$f")
	WRITES=$(sed -n 's/^save 1 step \([0-9]*\): write.*/\1/p' "$f" | xargs)
	COMMIT=$(sed -n 's/^save 1 step \([0-9]*\): rename .*treeshare_state.new .*/\1/p' "$f")
	STEP_WHAT=$f
}

# crash_point STEP ACTION - kill -9, start armed (dies at STEP of its
# first save), start, check.
crash_point()
{
	local k=$1 action=$2 f=$DIR/log/faults.$1.$2 t what detail
	rm -f "$f"
	kill9
	start_ctld LD_PRELOAD="$SHIM" TS_FAULT_DIR="$STATE" TS_FAULT_SAVE=1 \
		TS_FAULT_STEP="$k" TS_FAULT_ACTION="$action" TS_FAULT_LOG="$f"
	wait_ctld_dead
	rm -f "$DIR/run/pid/slurmctld"
	what=$(sed -n "s/^save 1 step $k: //p" "$STEP_WHAT" | sed "s#$STATE#STATE#g")
	if ! grep -q "^save 1 step $k: killed" "$f"; then
		not_ok "$P: slurmctld killed at step $k ($action) of its first save" \
			"$(tail -3 "$f" 2>&1)" "$(tail -3 "$LOG")"
		start_ctld
		wait_ctld_up
		return
	fi
	t=$(date +%s)
	start_ctld
	if ! wait_ctld_up || ! wait_commit "$t"; then
		not_ok "$P: slurmctld starts after a kill at step $k ($action)" "$(tail -5 "$LOG")"
		return
	fi
	detail="$( [ "$k" -gt "$COMMIT" ] && echo committed || echo 'not committed')"
	if identity && cred_identity; then
		ok "$P: kill at step $k ($action: $what), $detail: no loss, no double ($IDENTITY_DIAG${CRED_DIAG:+; $CRED_DIAG}; $(restored_line))"
	else
		not_ok "$P: kill at step $k ($action: $what), $detail: no loss, no double" \
			"$IDENTITY_DIAG" "$CRED_DIAG" "$(restored_line)"
	fi
}

t1=$(date +%s)
count_steps
if [ "$STEPS" != 16 ] || [ -z "$COMMIT" ]; then
	not_ok "$P: a save is 16 counted steps with the commit among them" \
		"$(cat "$STEP_WHAT")"
	exit 1
fi
case $CONFIG in
c) points="1:kill 7:kill 8:kill 16:kill ${WRITES%% *}:torn" ;;
*) points="$(seq -s ' ' -f '%g:kill' 1 "$STEPS") $(for w in $WRITES; do printf '%s:torn ' "$w"; done)" ;;
esac
for p in $points; do
	crash_point "${p%%:*}" "${p#*:}"
done
diag "$P: $(wc -w <<<"$points") crash points in $(($(date +%s) - t1))s"

# ------------------------------------------- damaged files (config a)

# damage_case FILE MODE REGEX - clean stop, damage, start: the log names
# the file and the defect (REGEX) and nothing is lost.
damage_case()
{
	local file=$1 mode=$2 re=$3 t line
	stop_daemon slurmctld 30
	if [ "$mode" = missing ]; then
		rm -f "$STATE/$file"
	else
		python3 "$HERE/state_damage.py" "$mode" "$STATE/$file"
	fi
	t=$(date +%s)
	start_ctld
	if ! wait_ctld_up || ! wait_commit "$t"; then
		not_ok "$P: $file $mode: slurmctld starts" "$(tail -5 "$LOG")"
		return
	fi
	line=$(grep -E "$re" "$LOG" | tail -1)
	if [ -n "$line" ] && identity; then
		ok "$P: $file $mode is logged with the file and the defect, nothing lost ($IDENTITY_DIAG)"
		diag "  ${line#*priority/treeshare: }"
	else
		not_ok "$P: $file $mode is logged with the file and the defect, nothing lost" \
			"log: ${line:-no line matching $re}" "$IDENTITY_DIAG"
	fi
}

# write_error WHAT ERRNO_TEXT BEFORE CALL - a commit whose CALL (write,
# fsync) fails with ERRNO_TEXT is logged naming the call and the file,
# leaves treeshare_state as BEFORE and no .new behind, and slurmctld
# runs on.
write_error()
{
	local re="state not saved: cannot $4 $STATE/treeshare_state.new: $2; the files keep the state committed at "
	if wait_for 60 "the error to be logged" grep -q "$re" "$LOG" &&
	   cmp -s "$STATE/treeshare_state" "$3" &&
	   [ ! -e "$STATE/treeshare_state.new" ] && ctld_up; then
		ok "$P: $1 names the file, keeps the previous state, slurmctld runs on"
		diag "  $(grep -o "state not saved: .*" "$LOG" | tail -1)"
	else
		not_ok "$P: $1 names the file, keeps the previous state, slurmctld runs on" \
			"$(grep treeshare "$LOG" | tail -3)"
	fi
}

if [ "$CONFIG" = a ]; then
	t1=$(date +%s)
	for m in torn:"torn or truncated" corrupt:"CRC mismatch" \
		 zero:"zero length" random:"not a treeshare state file .bad magic." \
		 trailing:"trailing bytes" \
		 future:"save time .* is 3[56][0-9][0-9] s after now" \
		 negative:"last decay time -1 is negative" missing:"missing"; do
		damage_case treeshare_state "${m%%:*}" \
			"$STATE/treeshare_state: ${m#*:}.*; using $STATE/treeshare_state.prev"
	done
	for m in torn:"torn or truncated" corrupt:"CRC mismatch" \
		 zero:"zero length" random:"CRC mismatch|bad magic|neither" \
		 trailing:"trailing bytes" \
		 future:"last decay time .* is 3[56][0-9][0-9] s after now" \
		 negative:"last decay time -1 is negative" missing:"missing"; do
		damage_case priority_last_decay_ran "${m%%:*}" \
			"$STATE/priority_last_decay_ran: .*(${m#*:}).*nothing lost"
	done

	# both copies bad: refused, both named; -i sets them aside
	stop_daemon slurmctld 30
	mkdir -p "$DIR/backup"
	cp -p "$STATE"/treeshare_state* "$DIR/backup/"
	python3 "$HERE/state_damage.py" torn "$STATE/treeshare_state"
	python3 "$HERE/state_damage.py" corrupt "$STATE/treeshare_state.prev"
	start_ctld
	wait_ctld_dead
	rm -f "$DIR/run/pid/slurmctld"
	line=$(grep "treeshare_state unusable: $STATE/treeshare_state: torn or truncated: .*; $STATE/treeshare_state.prev: CRC mismatch .*; slurmctld cannot start" "$LOG" | tail -1)
	if [ -n "$line" ] && ! ctld_up; then
		ok "$P: both copies of treeshare_state bad: slurmctld refuses to start, naming both"
		diag "  ${line#*error: }"
	else
		not_ok "$P: both copies of treeshare_state bad: slurmctld refuses to start, naming both" \
			"$(grep treeshare "$LOG" | tail -3)"
	fi
	t=$(date +%s)
	spawn slurmctld slurmctld -D -i -f "$SLURM_CONF"
	disown -a
	if wait_ctld_up && wait_commit "$t" &&
	   [ -f "$STATE/treeshare_state.bad" ] && [ -f "$STATE/treeshare_state.prev.bad" ] &&
	   grep -q 'treeshare_state unusable: .*starting anyway (-i)' "$LOG" && identity; then
		ok "$P: slurmctld -i starts anyway, keeps both as .bad, from slurmctld's usage after a clean stop ($IDENTITY_DIAG)"
	else
		not_ok "$P: slurmctld -i starts anyway and keeps both copies as .bad" \
			"$(grep treeshare "$LOG" | tail -3)" "$IDENTITY_DIAG"
	fi
	diag "$P: damaged files in $(($(date +%s) - t1))s"

	# EIO: the fsync of treeshare_state.new fails once
	stop_daemon slurmctld 30
	cp -p "$STATE/treeshare_state" "$DIR/backup/before-eio"
	start_ctld LD_PRELOAD="$SHIM" TS_FAULT_DIR="$STATE" TS_FAULT_SAVE=1 \
		TS_FAULT_STEP=3 TS_FAULT_ACTION=eio TS_FAULT_LOG="$DIR/log/faults.eio"
	wait_ctld_up
	write_error "EIO on the fsync of treeshare_state.new" \
		"Input/output error" "$DIR/backup/before-eio" fsync
	stop_daemon slurmctld 30
	if grep -q 'state saved again' "$LOG"; then
		ok "$P: the next commit (at shutdown) succeeds and says so"
	else
		not_ok "$P: the next commit (at shutdown) succeeds and says so" "$(grep treeshare "$LOG" | tail -3)"
	fi

	# ENOSPC: StateSaveLocation on a full 2 MB tmpfs
	mkdir -p "$SMALL"
	mount -t tmpfs -o size=2m,mode=0755 tmpfs "$SMALL"
	cp -a "$STATE/." "$SMALL/"
	"$TS_CLUSTER" conf StateSaveLocation="$SMALL"
	STATE=$SMALL
	cp -p "$SMALL/treeshare_state" "$DIR/backup/before-enospc"
	dd if=/dev/zero of="$SMALL/filler" bs=4k 2>/dev/null
	start_ctld
	wait_ctld_up
	write_error "ENOSPC on a full tmpfs" "No space left on device" \
		"$DIR/backup/before-enospc" write
	rm -f "$SMALL/filler"
	kill9
	t=$(date +%s)
	start_ctld
	if wait_ctld_up && wait_commit "$t" && identity; then
		ok "$P: a kill -9 after the full disk loses nothing once there is room ($IDENTITY_DIAG)"
	else
		not_ok "$P: a kill -9 after the full disk loses nothing once there is room" "$IDENTITY_DIAG"
	fi
fi

diag "$P: done in $(($(date +%s) - t0))s"
[ "${TAP_FAILED:-0}" -eq 0 ]
