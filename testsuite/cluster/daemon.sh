# SPDX-License-Identifier: GPL-2.0-or-later
# daemon.sh - start, watch and stop the cluster lab's daemons by pid.
#
# Sourced by testsuite/cluster/cluster.  Needs $DIR (the cluster directory,
# absolute).  Every daemon runs in the foreground (-D/-F) in its own session
# and "PID STARTTIME" of the process we launched is written to
# $DIR/run/pid/NAME at once, so the record names exactly the process we
# started, before the daemon could fail.  The daemons' own pidfiles
# ($DIR/run/NAME.pid, same pid) are not read: a daemon truncates and
# rewrites its pidfile while starting.
#
# A recorded pid counts as ours only while the process with that pid has
# the recorded start time (field 22 of /proc/PID/stat, which exec keeps):
# a record whose pid the kernel gave to another process is never
# signalled (cf. MUNGE's tests/sharness.d/03-munged.sh).  Reading
# /proc/PID/environ for this proved unreliable while a daemon starts up.

# pid_alive PID - the process exists and is not a zombie.  PID 1 on this
# VM reaps orphans only every ~2 s, so a killed daemon lingers as Z.
# Both read /proc/PID/stat in bash, with no fork: chassis_control.sh
# answers ipmi_sim's "get power" with them inside its event loop.
pid_alive()
{
	local stat st
	[ -n "${1:-}" ] || return 1
	{ read -r stat <"/proc/$1/stat"; } 2>/dev/null || return 1
	stat=${stat##*) }
	st=${stat%% *}
	[ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}

# proc_starttime PID - the process's start time in clock ticks since boot.
proc_starttime()
{
	local stat
	{ read -r stat <"/proc/$1/stat"; } 2>/dev/null || return 1
	set -- ${stat##*) }
	echo "${20}"
}

# pid_is_ours PID - alive, and its cmdline or environment mentions $DIR
# (for processes we did not start ourselves: our slurmds' slurmstepds).
pid_is_ours()
{
	local text
	pid_alive "$1" || return 1
	# read first: "grep -q | ..." under pipefail fails on SIGPIPE
	text=$(tr '\0' '\n' 2>/dev/null <"/proc/$1/cmdline"
	       tr '\0' '\n' 2>/dev/null <"/proc/$1/environ")
	[[ $text == *"$DIR/"* ]]
}

# pidfile_pid NAME - the pid recorded for daemon NAME; fails if none.
pidfile_pid()
{
	local f=$DIR/run/pid/$1 pid rest
	[ -s "$f" ] || return 1
	read -r pid rest <"$f"
	[[ $pid =~ ^[0-9]+$ ]] && echo "$pid"
}

# daemon_running NAME - the process recorded for NAME is alive: its pid
# exists, is no zombie, and has the recorded start time.
daemon_running()
{
	local f=$DIR/run/pid/$1 pid start
	[ -s "$f" ] || return 1
	read -r pid start <"$f"
	[[ $pid =~ ^[0-9]+$ ]] && [ -n "$start" ] && pid_alive "$pid" &&
		[ "$(proc_starttime "$pid")" = "$start" ]
}

# spawn NAME CMD... - start CMD (a foreground daemon) in its own session,
# stdio to $DIR/log/NAME.stdout, record its pid.  perl clears the signal
# mask first: a ResumeProgram forked by slurmctld inherits SIGTERM blocked,
# and a slurmd started from there would ignore "cluster node off" (power
# lab RECIPE caveat 2).  It also closes inherited descriptors above 2 (a
# caller's lock file must not stay locked by a daemon).  perl then execs
# CMD, so $! is the daemon's pid.  The environment is passed as is;
# callers export SLURM_CONF.
spawn()
{
	local name=$1
	shift
	perl -MPOSIX -e 'POSIX::setsid();
		sigprocmask(SIG_SETMASK, POSIX::SigSet->new) or die "sigprocmask: $!";
		POSIX::close($_) for 3 .. 1023;
		exec @ARGV or die "exec $ARGV[0]: $!"' -- "$@" \
		</dev/null >>"$DIR/log/$name.stdout" 2>&1 &
	mkdir -p "$DIR/run/pid"
	echo "$! $(proc_starttime $!)" >"$DIR/run/pid/$name"
}

# last_lines NAME - the last 15 lines of NAME's log file and the last 5
# of its stdio (in the foreground Slurm daemons repeat their log there),
# indented, for timeout and failure messages.
last_lines()
{
	local f n
	for f in "$DIR/log/$1.log" "$DIR/log/$1.stdout"; do
		[ -s "$f" ] || continue
		n=15
		[ "$f" = "$DIR/log/$1.stdout" ] && [ -s "$DIR/log/$1.log" ] && n=5
		echo "  --- last $n lines of $f:"
		tail -n "$n" "$f" | sed 's/^/  | /'
	done
}

# exit_reason NAME - set EXIT_REASON to how NAME's process ended, if
# this shell spawned it: "exit status N" or "killed by signal SIG" (a
# daemon dying with an empty log was usually killed from outside).  Not
# in $(...): a subshell cannot wait for its parent's children.
exit_reason()
{
	local pid st
	EXIT_REASON="no pid recorded"
	pid=$(pidfile_pid "$1") || return 0
	if pid_alive "$pid"; then
		EXIT_REASON="pid $pid now belongs to another process"
		return 0
	fi
	wait "$pid" 2>/dev/null
	st=$?
	if [ "$st" = 127 ]; then
		EXIT_REASON="not started by this shell, status unknown"
	elif [ "$st" -gt 128 ]; then
		EXIT_REASON="killed by signal SIG$(kill -l $((st - 128)))"
	else
		EXIT_REASON="exit status $st"
	fi
}

# await NAME SECONDS WHAT CMD... - poll CMD every 0.2 s until it succeeds.
# Fails at once if daemon NAME died, or after SECONDS, saying which daemon,
# what we waited for, and its last log lines.
await()
{
	local name=$1 secs=$2 what=$3 end
	shift 3
	end=$(($(date +%s%N) / 1000000 + secs * 1000))
	while :; do
		if "$@" >/dev/null 2>&1; then
			return 0
		fi
		if ! daemon_running "$name"; then
			exit_reason "$name"
			echo "cluster: $name (pid $(pidfile_pid "$name")) exited" \
			     "($EXIT_REASON) while waiting for $what" >&2
			last_lines "$name" >&2
			return 1
		fi
		if [ $(($(date +%s%N) / 1000000)) -ge "$end" ]; then
			echo "cluster: timeout after ${secs}s waiting for $what" \
			     "($name, pid $(pidfile_pid "$name"))" >&2
			last_lines "$name" >&2
			return 1
		fi
		sleep 0.2
	done
}

# stop_daemon NAME [SECONDS] [SIGNAL] - send SIGNAL (default TERM) to
# NAME's recorded pid if it is ours, wait up to SECONDS (default 15) for it
# to go, then SIGKILL.  Removes the pidfile.  Logs stay.
stop_daemon()
{
	local name=$1 secs=${2:-15} sig=${3:-TERM} pid i
	pid=$(pidfile_pid "$name") ||
		{ rm -f "$DIR/run/pid/$name" "$DIR/run/$name.pid"; return 0; }
	if daemon_running "$name"; then
		kill -"$sig" "$pid" 2>/dev/null
		for ((i = 0; i < secs * 10; i++)); do
			pid_alive "$pid" || break
			sleep 0.1
		done
		if pid_alive "$pid"; then
			echo "cluster: $name (pid $pid) ignored SIG$sig for" \
			     "${secs}s; sending SIGKILL" >&2
			kill -KILL "$pid" 2>/dev/null
			for ((i = 0; i < 50; i++)); do
				pid_alive "$pid" || break
				sleep 0.1
			done
		fi
	fi
	rm -f "$DIR/run/pid/$name" "$DIR/run/$name.pid"
}

# dir_in_use - another process holds $DIR.lock (a scenario run owns this
# cluster), unless we run under it (it exports TS_CLUSTER_LOCK_HOLDER).
# Prints the holder's description.
dir_in_use()
{
	local lock=$DIR.lock
	[ -f "$lock" ] || return 1
	[ "${TS_CLUSTER_LOCK_HOLDER:-}" = "$DIR" ] && return 1
	flock -n "$lock" true 2>/dev/null && return 1
	cat "$lock"
}

# port_listening PORT - something listens on TCP PORT.
port_listening()
{
	ss -Hltn "sport = :$1" 2>/dev/null | grep -q .
}
