# SPDX-License-Identifier: GPL-2.0-or-later
# scenario_switch.sh - scenario (e), priority/treeshare's run only:
#
#  1. a bad PriorityParameters key at "scontrol reconfigure" is logged in
#     one line naming the key, and slurmctld keeps running with the
#     configuration in force (22.05), or the re-executed slurmctld stops
#     and starts again on its state without the key (24.11; lib.sh,
#     TS_RECONF_KEEPS);
#  2. the same usage state read by Debian's priority/multifactor and by
#     priority/treeshare (PriorityType switched, slurmctld restarted each
#     time) gives identical "sshare -l -a -P" and "sprio -l -h" text,
#     under Fair Tree and under classic fair share (where Debian's sshare
#     loads the configured plugin itself for the FairShare column);
#  3. a bad PriorityParameters key makes slurmctld refuse to start, with
#     one log line naming the key.
#
# For 2, usage must not move between the two readings: no job runs and
# PriorityDecayHalfLife=0 (with PriorityUsageResetPeriod=YEARLY, which
# Slurm then requires) freezes it; PriorityWeightAge is the lab's 0, so
# sprio does not move with the clock either.  Both plugins share the
# state file priority_last_decay_ran, so each restart's first cycle
# covers exactly the time since the other plugin's last one.
#
# Sourced by run-scenarios.sh after scenarios (a)-(c) ($P, PEND: one
# pending job per seed 000 user in the DOWN partition "wait").  Leaves the
# cluster as it found it: the lab's PriorityDecayHalfLife, reset period
# and PriorityType, no PriorityParameters, slurmctld up.

SWITCH_LOG=$TS_CLUSTER_DIR/log/slurmctld.log

# switch_conf_drop KEY - remove every KEY= line from the lab's slurm.conf
# ("cluster conf" can only replace one).
switch_conf_drop()
{
	sed -i "/^[[:space:]]*$1[[:space:]]*=/Id" "$SLURM_CONF"
}

# switch_log_since LINE - slurmctld.log from line LINE + 1 on.
switch_log_since()
{
	tail -n "+$(($1 + 1))" "$SWITCH_LOG"
}

# switch_log_has LINE TEXT TEXT2 - the log since LINE has a line holding
# TEXT and, after it, TEXT2.
switch_log_has()
{
	switch_log_since "$1" | grep -F -- "$2" | grep -qF -- "$3"
}

# switch_settle NAME - snapshot NAME once two snapshots 2 s apart agree and
# sprio lists every pending job: the restart's first cycle is done.
switch_settle()
{
	local snap=$TS_CLUSTER_DIR/snap i prev="" cur
	for ((i = 0; i < 30; i++)); do
		if ts_sprio_lists "${PEND[@]}" && ts_snapshot "$1"; then
			cur=$(cat "$snap/$1.sshare" "$snap/$1.sprio")
			[ -n "$prev" ] && [ "$cur" = "$prev" ] && return 0
			prev=$cur
		fi
		sleep 2
	done
	echo "no two equal snapshots 2 s apart within 60 s" >&2
	return 1
}

# switch_restart TYPE - PriorityType TYPE, restart slurmctld.
switch_restart()
{
	"$TS_CLUSTER" conf PriorityType="$1" &&
	"$TS_CLUSTER" restart slurmctld
}

# switch_compare LABEL - snapshot under priority/multifactor, then under
# priority/treeshare, each after a slurmctld restart; one TAP line each
# for sshare and sprio.  Returns 1 if a restart fails.
switch_compare()
{
	local snap=$TS_CLUSTER_DIR/snap tag=${1// /-} out n

	if ! switch_restart priority/multifactor >"$snap/switch-mf.out" 2>&1 ||
	   ! switch_settle "switch-$tag-multifactor" 2>>"$snap/switch-mf.out"; then
		not_ok "$P: slurmctld restarts with priority/multifactor on treeshare's state ($1)" \
			"$(cat "$snap/switch-mf.out")"
		return 1
	fi
	if ! switch_restart priority/treeshare >"$snap/switch-ts.out" 2>&1 ||
	   ! switch_settle "switch-$tag-treeshare" 2>>"$snap/switch-ts.out"; then
		not_ok "$P: slurmctld restarts with priority/treeshare on multifactor's state ($1)" \
			"$(cat "$snap/switch-ts.out")"
		return 1
	fi
	for out in sshare sprio; do
		if cmp -s "$snap/switch-$tag-multifactor.$out" \
			  "$snap/switch-$tag-treeshare.$out"; then
			n=$(grep -c . "$snap/switch-$tag-treeshare.$out")
			ok "$P: $1: $out text is identical under priority/multifactor and priority/treeshare on the same state ($n lines)"
		else
			not_ok "$P: $1: $out text is identical under priority/multifactor and priority/treeshare on the same state" \
				"$(diff "$snap/switch-$tag-multifactor.$out" \
					"$snap/switch-$tag-treeshare.$out")"
		fi
	done
}

scenario_switch()
{
	local snap=$TS_CLUSTER_DIR/snap line want
	local key=bogus_key params="bogus_key=1"

	[ "$PLUGIN" = priority/treeshare ] || return 0
	if ! wait_for 30 "no job to run" ts_no_job_running; then
		not_ok "$P: switch scenario starts with no job running" "$(squeue 2>&1)"
		return 1
	fi

	# --- 1. bad key at reconfigure ------------------------------------
	line=$(wc -l <"$SWITCH_LOG")
	want="priority/treeshare: PriorityParameters=$params: $key (column 1): unknown key"
	"$TS_CLUSTER" conf PriorityParameters="$params"
	scontrol reconfigure >"$snap/switch-reconf.out" 2>&1
	if [ "$TS_RECONF_KEEPS" = 0 ]; then
		# 24.11: the re-executed slurmctld refuses the key and ends
		# (lib.sh, TS_RECONF_KEEPS); it starts again without it.
		if wait_for 30 "the refusal in slurmctld.log" \
			switch_log_has "$line" "$want" "; this slurmctld cannot start" &&
		   [ "$(switch_log_since "$line" | grep -c -- "$key")" = 1 ] &&
		   wait_for 30 "slurmctld to end" ts_ctld_stopped &&
		   switch_conf_drop PriorityParameters &&
		   "$TS_CLUSTER" restart slurmctld >>"$snap/switch-reconf.out" 2>&1 &&
		   wait_for 30 "sprio after the restart" ts_sprio_lists "${PEND[@]}"; then
			ok "$P: a bad PriorityParameters key at reconfigure is one log line naming it; the re-executed slurmctld (24.11, attached) stops, and starts again on its state without it"
		else
			not_ok "$P: a bad PriorityParameters key at reconfigure is one log line naming it; the re-executed slurmctld (24.11, attached) stops, and starts again on its state without it" \
				"want: $want ...; this slurmctld cannot start" \
				"$(switch_log_since "$line" | grep -- "$key")" \
				"slurmctld pid $(ts_daemon_pid slurmctld) alive: $(ts_pids_alive "$(ts_daemon_pid slurmctld)")" \
				"$(cat "$snap/switch-reconf.out")"
		fi
	elif wait_for 30 "the reconfigure error in slurmctld.log" \
		switch_log_has "$line" "$want" "; running configuration kept" &&
	   [ "$(switch_log_since "$line" | grep -c -- "$key")" = 1 ] &&
	   scontrol ping | grep -q 'is UP' && ts_sprio_lists "${PEND[@]}"; then
		ok "$P: a bad PriorityParameters key at reconfigure is one log line naming it; slurmctld runs on"
	else
		not_ok "$P: a bad PriorityParameters key at reconfigure is one log line naming it; slurmctld runs on" \
			"want: $want" "$(switch_log_since "$line" | grep -- "$key")" \
			"$(cat "$snap/switch-reconf.out")"
	fi
	switch_conf_drop PriorityParameters

	# --- 2. same state, same text under both plugins ------------------
	# Fair Tree (the lab's default), then classic fair share, where sshare
	# itself loads the configured plugin to print FairShare.
	"$TS_CLUSTER" conf PriorityDecayHalfLife=0 PriorityUsageResetPeriod=YEARLY
	switch_compare "Fair Tree" || return 1
	"$TS_CLUSTER" conf PriorityFlags=NO_FAIR_TREE
	switch_compare classic || return 1
	switch_conf_drop PriorityFlags

	# --- 3. bad key at start ------------------------------------------
	line=$(wc -l <"$SWITCH_LOG")
	"$TS_CLUSTER" conf PriorityParameters="$params"
	if "$TS_CLUSTER" restart slurmctld >"$snap/switch-bad.out" 2>&1; then
		not_ok "$P: slurmctld refuses to start with a bad PriorityParameters key" \
			"it started: $(cat "$snap/switch-bad.out")"
	elif switch_log_has "$line" "$want" "; slurmctld cannot start" &&
	     [ "$(switch_log_since "$line" | grep -c -- "$key")" = 1 ]; then
		ok "$P: slurmctld refuses to start with a bad PriorityParameters key, one log line naming it"
	else
		not_ok "$P: slurmctld refuses to start with a bad PriorityParameters key, one log line naming it" \
			"want: $want" "$(switch_log_since "$line" | tail -n 15)"
	fi

	# --- back to the lab's configuration -------------------------------
	switch_conf_drop PriorityParameters
	"$TS_CLUSTER" conf PriorityDecayHalfLife=60 PriorityUsageResetPeriod=NONE
	if ! "$TS_CLUSTER" restart slurmctld >"$snap/switch-back.out" 2>&1; then
		not_ok "$P: slurmctld starts again on the lab's configuration" \
			"$(cat "$snap/switch-back.out")"
		return 1
	fi
}
