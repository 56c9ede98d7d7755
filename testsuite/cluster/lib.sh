# SPDX-License-Identifier: GPL-2.0-or-later
# lib.sh - helpers for scenario tests against a running cluster lab.
#
#   export TS_CLUSTER_DIR=build/cluster-mine   # or leave the default
#   . testsuite/cluster/lib.sh                  # sets SLURM_CONF, sources tap.sh
#   ts_tree_load testsuite/trees/seed000.tree
#   j=$(ts_submit bob -c 4 --wrap 'sleep 600')
#   ts_wait_usage_change 75 && ts_snapshot after-usage
#
# Every function works on the cluster in $TS_CLUSTER_DIR (default
# <top>/build/cluster), talks to it only through Slurm's commands (Debian's,
# or SLURM_PREFIX's: slurm-prefix.sh) with SLURM_CONF pointed at that
# cluster, and bounds every wait.
# docs/cluster-lab.7 (LIBRARY) lists them all.

TS_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TS_TOP=$(cd "$TS_LIB_DIR/../.." && pwd)
TS_CLUSTER=$TS_LIB_DIR/cluster
# Same choice as the cluster tool: TS_CLUSTER_DIR, else the cluster of
# SLURM_CONF, else <top>/build/cluster.
if [ -z "${TS_CLUSTER_DIR:-}" ] && [ -n "${SLURM_CONF:-}" ] &&
   [ -f "$(dirname "$(dirname "$SLURM_CONF")")/.treeshare-cluster" ]; then
	TS_CLUSTER_DIR=$(dirname "$(dirname "$SLURM_CONF")")
fi
TS_CLUSTER_DIR=$(readlink -f "${TS_CLUSTER_DIR:-$TS_TOP/build/cluster}")
export TS_CLUSTER_DIR
export SLURM_CONF=$TS_CLUSTER_DIR/etc/slurm.conf
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH
# shellcheck source=slurm-prefix.sh
. "$TS_LIB_DIR/slurm-prefix.sh"
# Only SLURM_PREFIX decides (make exports it, empty for Debian's): a
# lab.env left by an earlier run on another Slurm must not.
ts_use_slurm_prefix "${SLURM_PREFIX:-}" || return 1
export PATH

# shellcheck source=tap.sh
. "$TS_LIB_DIR/tap.sh"

# The installed Slurm release ("24.11.5") and as one comparable number
# (241105); output formats differ by release.  slurmctld -V, as the
# cluster tool: 24.11's client commands read slurm.conf even for -V, and
# retry for 60 s while the lab's does not exist yet.
TS_SLURM=$(slurmctld -V 2>/dev/null | awk '{ print $2 }')
TS_SLURM_NUM=$(awk -F. '{ printf "%d%02d%02d", $1, $2, $3 }' <<<"${TS_SLURM:-0.0.0}")

# The columns of "sprio -l" (sprio.c's long format): 24.11 added ACCOUNT
# after USER and QOSNAME after the partition factor (whose header says
# PARTITION a second time; PARTPRIO here).
if [ "$TS_SLURM_NUM" -ge 241100 ]; then
	TS_SPRIO_LONG="JOBID PARTITION USER ACCOUNT PRIORITY SITE AGE ASSOC FAIRSHARE JOBSIZE PARTPRIO QOSNAME QOS NICE"
else
	TS_SPRIO_LONG="JOBID PARTITION USER PRIORITY SITE AGE ASSOC FAIRSHARE JOBSIZE PARTPRIO QOS NICE"
fi

# ts_die MSG - message on stderr, return 1 (callers: "|| return 1").
ts_die()
{
	echo "lib.sh: $*" >&2
	return 1
}

# ------------------------------------------------------------ users, tree

# ts_users_create NAME... - local users (and same-name groups) for test
# jobs.  Idempotent; safe when two clusters create the same user at once.
ts_users_create()
{
	local u
	for u in "$@"; do
		id -u "$u" >/dev/null 2>&1 && continue
		useradd --no-create-home --user-group --shell /bin/bash \
			--comment "treeshare cluster lab test user" "$u" \
			2>/dev/null || id -u "$u" >/dev/null 2>&1 ||
			{ ts_die "useradd $u failed"; return 1; }
	done
}

# ts_tree_lines FILE - the associations of a tree file (docs/sshare-ext.1,
# FILES) as "KIND NAME PARENT SHARES" lines, comments and the root line
# dropped.  Errors name the line.
ts_tree_lines()
{
	awk '
	{ sub(/#.*/, "") }
	NF == 0 { next }
	$1 == "root" { next }
	($1 != "account" && $1 != "user") || NF < 4 || NF > 5 ||
	($4 != "parent" && $4 !~ /^[0-9]+$/) {
		printf "%s:%d: expected KIND NAME PARENT SHARES [USAGE], got: %s\n",
		       FILENAME, FNR, $0 > "/dev/stderr"
		bad = 1; exit 1
	}
	{ print $1, $2, $3, $4 }
	END { exit bad }' "$1"
}

# ts_tree_load FILE - create the tree's accounts and users with their
# shares (sacctmgr; SHARES "parent" = fairshare=parent), create the local
# users, and wait until slurmctld shows every association in sshare.
# The USAGE column is not loaded: Slurm only lets sacctmgr reset raw usage
# to 0, so usage comes from running jobs.  Unless the file has a "user
# root" line, the root/root association that "sacctmgr add cluster" made is
# deleted, so the tree (NormShares, Fair Tree ranks) is exactly the file's;
# root can then no longer submit jobs as itself (tests use --uid).
ts_tree_load()
{
	local file=$1 lines kind name parent shares users=() got want
	local drop_root=1
	lines=$(ts_tree_lines "$file") || return 1
	while read -r kind name parent shares; do
		[ "$kind" = user ] && users+=("$name")
		[ "$kind $name" = "user root" ] && drop_root=0
	done <<<"$lines"
	ts_users_create "${users[@]}" || return 1
	while read -r kind name parent shares; do
		if [ "$kind" = account ]; then
			sacctmgr -i -Q add account "$name" parent="$parent" \
				fairshare="$shares" description="$name" \
				organization=treeshare >/dev/null ||
				{ ts_die "sacctmgr add account $name failed"; return 1; }
		else
			sacctmgr -i -Q add user "$name" account="$parent" \
				fairshare="$shares" >/dev/null ||
				{ ts_die "sacctmgr add user $name account=$parent failed"; return 1; }
		fi
	done <<<"$lines"
	if [ "$drop_root" = 1 ] &&
	   [ -n "$(sacctmgr -n -P show assoc account=root user=root format=user)" ]; then
		sacctmgr -i -Q delete user name=root account=root >/dev/null ||
			{ ts_die "sacctmgr delete user root account=root failed"; return 1; }
	fi
	want=$(awk '{ print ($1 == "user" ? $3 "|" $2 : $2 "|") }' <<<"$lines" |
	       sort)
	wait_for 30 "slurmctld to show the associations of $file" \
		ts_tree_visible "$want" "$drop_root" ||
		{ ts_die "sshare -a lacks some of: $(echo $want)"; return 1; }
}

# ts_tree_visible WANT NO_ROOT - every "account|user" of WANT is a row of
# sshare; with NO_ROOT 1, "root|root" is not.
ts_tree_visible()
{
	local have
	have=$(sshare -a -n -P -o account,user | sed 's/^ *//' | sort -u)
	[ -z "$(comm -23 <(echo "$1") <(echo "$have"))" ] || return 1
	[ "$2" = 1 ] || return 0
	! grep -qx 'root|root' <<<"$have"
}

# ts_cluster_own RUN SCRIPT - a scenario with a cluster of its own takes
# $TS_CLUSTER_DIR (its lock file, held on fd 9 for the script's life) or
# says "not ok" and exits 1; the cluster is taken down at exit.
ts_cluster_own()
{
	exec 9>>"$TS_CLUSTER_DIR.lock"
	if ! flock -n 9; then
		not_ok "$1: $2 gets $TS_CLUSTER_DIR to itself" \
			"in use by $(cat "$TS_CLUSTER_DIR.lock")"
		exit 1
	fi
	echo "$2 pid $$ since $(date '+%F %T')" >"$TS_CLUSTER_DIR.lock"
	trap '"$TS_CLUSTER" down >/dev/null 2>&1' EXIT
	trap 'exit 130' INT TERM
}

# ------------------------------------------------------------ jobs

# ts_submit USER SBATCH_ARG... - submit a batch job as USER (sbatch run by
# root with --uid/--gid); prints the job id.  Output goes to
# $TS_CLUSTER_DIR/jobs/JOBID.out, the job runs in /tmp.
ts_submit()
{
	local user=$1
	shift
	sbatch --parsable --uid="$user" --gid="$user" --chdir=/tmp \
		-o "$TS_CLUSTER_DIR/jobs/%j.out" -J "ts-$user" "$@" |
		cut -d';' -f1
}

# ts_job_state JOBID - the job's state (PENDING, RUNNING, ...).
ts_job_state()
{
	squeue -h -j "$1" -o %T 2>/dev/null
}

# ts_jobs_running JOBID... - all of them are RUNNING.
ts_jobs_running()
{
	local j
	for j in "$@"; do
		[ "$(ts_job_state "$j")" = RUNNING ] || return 1
	done
}

# ts_no_job_running - squeue shows no running or completing job.
ts_no_job_running()
{
	[ -z "$(squeue -h -t R,CG,CF -o %A)" ]
}

# ts_no_job_pending_in PARTITION - no job waits in PARTITION.
ts_no_job_pending_in()
{
	[ -z "$(squeue -h -t PD -p "$1" -o %A)" ]
}

# ts_users_have_usage USER... - every USER's RawUsage in sshare is > 0.
ts_users_have_usage()
{
	local u v
	for u in "$@"; do
		v=$(sshare -n -P -u "$u" -o user,rawusage |
		    awk -F'|' -v u="$u" '$1 == u { print $2; exit }')
		[ -n "$v" ] && [ "$v" -gt 0 ] || return 1
	done
}

# ts_sprio_lists JOBID... - every JOBID is a line of sprio.
ts_sprio_lists()
{
	local out j
	out=$(sprio -h -o '%i') || return 1
	for j in "$@"; do
		grep -qx " *$j" <<<"$out" || return 1
	done
}

# ts_sprio_count_at_least N - sprio lists at least N jobs.
ts_sprio_count_at_least()
{
	[ "$(sprio -h -o '%i' | grep -c .)" -ge "$1" ]
}

# ------------------------------------------------------------ snapshots

# ts_snapshot NAME - sshare -l -a -P, sprio -l -h and scontrol show config
# into $TS_CLUSTER_DIR/snap/NAME.{sshare,sprio,config}.
ts_snapshot()
{
	local s=$TS_CLUSTER_DIR/snap/$1
	mkdir -p "$TS_CLUSTER_DIR/snap"
	sshare -l -a -P >"$s.sshare" &&
	sprio -l -h >"$s.sprio" &&
	scontrol show config >"$s.config"
}

# ts_sshare_get FILE ACCOUNT USER FIELD - one value of an "sshare -l -a -P"
# file; USER "" selects the account's own row; FIELD is a header name
# (RawShares, RawUsage, FairShare, LevelFS, ...).
ts_sshare_get()
{
	awk -F'|' -v a="$2" -v u="$3" -v f="$4" '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ acct = $1; sub(/^ +/, "", acct) }
	acct == a && $2 == u { print $(col[f]); found = 1; exit }
	END { exit !found }' "$1"
}

# ts_sprio_col FIELD - FIELD's column (1-based) in "sprio -l" lines.
ts_sprio_col()
{
	awk -v f="$1" -v names="$TS_SPRIO_LONG" 'BEGIN {
		n = split(names, c, " ")
		for (i = 1; i <= n; i++) if (c[i] == f) { print i; exit }
		exit 1 }'
}

# ts_sprio_get FILE JOBID FIELD - one value of an "sprio -l -h" file.
# FIELD: USER PRIORITY SITE AGE ASSOC FAIRSHARE JOBSIZE PARTPRIO QOS NICE
# (and from 24.11 ACCOUNT QOSNAME).
ts_sprio_get()
{
	local c
	c=$(ts_sprio_col "$3") || { ts_die "ts_sprio_get: no sprio column $3"; return 1; }
	awk -v j="$2" -v c="$c" '
	$1 == j { print $c; found = 1; exit }
	END { exit !found }' "$1"
}

# ts_config_get FILE KEY - a value of a "scontrol show config" file; KEY
# in any case (scontrol prints "PriorityWeightFairShare" for the key
# slurm.conf spells PriorityWeightFairshare).
ts_config_get()
{
	awk -v k="$2" 'tolower($1) == tolower(k) {
		sub(/^[^=]*= */, ""); print; found = 1; exit }
		END { exit !found }' "$1"
}

# ts_duration_secs D - Slurm's "[days-]hh:mm:ss" (as scontrol show config
# prints durations) in seconds.
ts_duration_secs()
{
	awk -v d="$1" 'BEGIN {
		days = 0
		if (d ~ /-/) { split(d, p, "-"); days = p[1]; d = p[2] }
		n = split(d, t, ":"); s = 0
		for (i = 1; i <= n; i++) s = s * 60 + t[i]
		print days * 86400 + s }'
}

# ------------------------------------------------------------ decay cycles

# ts_raw_usage - every association's RawUsage, "account|user|usage" lines.
ts_raw_usage()
{
	sshare -a -n -P -o account,user,rawusage | sed 's/^ *//'
}

# ts_wait_usage_change SECONDS - wait until some association's RawUsage
# differs from now: a priority decay cycle ran and had usage to decay or
# add.  (With all usage 0 and no job, a cycle changes nothing visible.)
ts_wait_usage_change()
{
	local before
	before=$(ts_raw_usage) || return 1
	wait_for "$1" "a decay cycle to change RawUsage in sshare" \
		ts_usage_differs "$before"
}

ts_usage_differs()
{
	local now
	now=$(ts_raw_usage) && [ "$now" != "$1" ]
}

# ts_decay_log_times - epoch seconds of the decay cycles slurmctld logged
# (DebugFlags=Priority; multifactor's "Decay factor over" line, or the
# pattern in TS_DECAY_LOG_RE).
ts_decay_log_times()
{
	grep -E "${TS_DECAY_LOG_RE:-Decay factor over}" \
		"$TS_CLUSTER_DIR/log/slurmctld.log" |
		sed -n 's/^\[\([^].]*\)\.[0-9]*\].*/\1/p' |
		while read -r t; do date -d "$t" +%s; done
}

# ------------------------------------------------------------ reconfigure

# TS_RECONF_KEEPS - 1 when "scontrol reconfigure" with a configuration
# slurmctld refuses leaves the lab's slurmctld running on its previous
# one (22.05: the plugin keeps its settings), 0 from 24.11: reconfigure
# re-executes slurmctld, in the lab's attached mode (-D) in place, and the
# new process cannot start (daemonised, the old process would stay).
if [ "$TS_SLURM_NUM" -ge 241100 ]; then TS_RECONF_KEEPS=0; else TS_RECONF_KEEPS=1; fi

# ts_ctld_stopped - the slurmctld the cluster tool started has exited.
ts_ctld_stopped()
{
	[ -z "$(ts_pids_alive "$(ts_daemon_pid slurmctld)")" ]
}

# ts_ctld_answers - scontrol ping finds the lab's slurmctld UP.
ts_ctld_answers()
{
	scontrol ping 2>/dev/null | grep -q 'is UP'
}

# ts_ctld_state - for a failure's diagnostics: whether the recorded
# slurmctld is alive and answers, and the end of its log.
ts_ctld_state()
{
	local pid
	pid=$(ts_daemon_pid slurmctld)
	echo "slurmctld pid $pid alive: '$(ts_pids_alive "$pid")'," \
		"ping: $(scontrol ping 2>&1 | tr '\n' ' ')"
	tail -n 25 "$TS_CLUSTER_DIR/log/slurmctld.log" 2>&1
}

# ------------------------------------------------------------ processes

# ts_cluster_pids - the pids the cluster tool recorded (run/pid/NAME): the
# processes "cluster up" and "cluster node on" started and still own.
ts_cluster_pids()
{
	local f
	for f in "$TS_CLUSTER_DIR"/run/pid/*; do
		[ -s "$f" ] && awk '{ print $1; exit }' "$f"
	done | grep . | sort -un
}

# ts_daemon_pid NAME - the pid recorded for daemon NAME (munged, mariadbd,
# slurmdbd, slurmctld, slurmd.nK).
ts_daemon_pid()
{
	local f=$TS_CLUSTER_DIR/run/pid/$1
	[ -s "$f" ] && awk '{ print $1; exit }' "$f"
}

# ts_pid_start PID - PID's start time (clock ticks after boot, field 22 of
# /proc/PID/stat), empty once it is gone.
ts_pid_start()
{
	sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $20 }'
}

# ts_pid_stamp PID... - each live PID as PID@START, so that a later
# ts_pids_alive does not take another process for it: pid_max is 32768
# here and the parallel labs wrap it within one run.
ts_pid_stamp()
{
	local p st
	for p in "$@"; do
		st=$(ts_pid_start "$p")
		[ -n "$st" ] && echo "$p@$st"
	done
}

# ts_pids_alive PID[@START]... - those of them still alive (zombies
# excluded: PID 1 here reaps orphans only every few seconds); one with
# @START counts only while the process of that pid has that start time.
ts_pids_alive()
{
	local t p st
	for t in "$@"; do
		p=${t%@*}
		[ -r "/proc/$p/stat" ] || continue
		if [ "$t" != "$p" ] && [ "$(ts_pid_start "$p")" != "${t#*@}" ]; then
			continue
		fi
		st=$(sed 's/^.*) \(.\).*$/\1/' "/proc/$p/stat" 2>/dev/null)
		[ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ] && echo "$t"
	done
}
