# SPDX-License-Identifier: GPL-2.0-or-later
# bgrun.sh - sourced: background runs whose exit status survives pid reuse.
#
# bash forgets a finished background child's status as soon as a later
# child of the same shell is given its pid, and `wait PID` then returns
# 127 ("not a child of this shell").  With pid_max 32768 and CI forking
# all over the machine, the pids wrap in minutes, and a stage that polls
# with `sleep 2` and $(date) while its longest run goes on gets one of
# them (stop 34's CI: "multifactor: every test passed but the run exited
# with status 127").  `kill -0 PID` has the same flaw the other way: it
# reports a reused pid as a run still going.  So each run writes its own
# status to a file, and the stage asks the file.

# bg_start STATUS_FILE CMD [ARG...] - run CMD in the background; when it
# ends, its exit status (128+N: signal N) goes to STATUS_FILE.  BG_PID is
# the wrapper's pid, for bg_stop.
bg_start()
{
	local status_file=$1
	shift
	rm -f "$status_file"
	(
		"$@"
		echo $? >"$status_file.tmp" && mv "$status_file.tmp" "$status_file"
	) &
	BG_PID=$!
}

# bg_running STATUS_FILE - true while the run has not written its status.
bg_running()
{
	[ ! -e "$1" ]
}

# bg_stop WRAPPER_PID - SIGTERM the run (the wrapper's child, so that the
# run's own EXIT trap takes its cluster down); its status is then 143.
bg_stop()
{
	pkill -TERM -P "$1" 2>/dev/null
}

# bg_status STATUS_FILE - print the run's exit status; "none" when it
# never wrote one (killed with its wrapper, or still going).
bg_status()
{
	local st
	if read -r st 2>/dev/null <"$1" && [ -n "$st" ]; then
		echo "$st"
	else
		echo none
	fi
}
