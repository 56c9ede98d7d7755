# SPDX-License-Identifier: GPL-2.0-or-later
# scenario_credentials.sh - scenario (m), priority/treeshare's run only
# (issue 27): Maui's fair share on every credential decides FairShare.
#
#  1. usage windows, a Maui history (fs_import=: one FS.<EPOCH> file of
#     600 CPU-seconds of scott's credentials, as if one job of his had
#     run under Maui), a targets file with user NAME@*, group, account, qos
#     and class entries (targets, a cap and floors) and Maui's weights
#     (fs_weight=100, fs_user_weight=10 .. fs_class_weight=5), and
#     AccountingStorageEnforce=associations,limits (under which Slurm
#     charges a job's last slice at its end, so that a job's usage is
#     exactly sacct's CPUs x elapsed seconds), at a slurmctld restart:
#     slurmctld says it keeps usage per credential, and a cycle takes the
#     table of credentials;
#  2. jobs of bob (2 CPUs), cathy and suzy (1 CPU each) run ~20 s and
#     end; then sprio's FAIRSHARE of scenario (a)'s pending jobs (every
#     user, partition wait) equals PriorityWeightFairshare x the
#     documented mapping 0.5 + sum / (200 x the weights of the
#     credentials with a target), sum being Maui's weighted sum of
#     deltas, computed here from sacct's CPU-seconds of each job and the
#     credentials it had (user, Unix group, account, QOS, partition);
#     sshare-ext --diagnose-f online (the controller's state, targets
#     and names) shows each credential's share as sacct's CPU-seconds
#     give it (bob, cathy, suzy; group1, group2; normal; lab), the
#     targets with Maui's suffixes, and each type's rows sum to 100 % of
#     every window with usage;
#     sshare-ext --export-maui writes the window as Maui's FS.<EPOCH>
#     file with the same figures by name, TOTAL their sum;
#     sshare-ext --diagnose-p gives each pending job the same factor and
#     Maui's component (100 x sum), computed here;
#  3. formula="maui_fs+1000000" at a restart: each pending job's
#     priority is 1000000 + 100 x sum, Maui's component, truncated;
#  3b. usage_window= removed at a restart: the usage per credential
#     decays by PriorityDecayHalfLife from the saved windows, and sprio's
#     FAIRSHARE stays the same mapping (no job ran since step 2);
#  4. a second QOS, lowq, with "qos lowq fscap=0%" (caps at once): bob's
#     job in lowq pends with Priority=0 and the reason naming the QOS
#     ("FairshareCap:qos:lowq=0.00%>=0%") in squeue and scontrol, while
#     bob's job in normal runs at once; a het job of bob with one
#     component in lowq waits whole, both components held with the
#     QOS's reason (the cap holds a het job as an account cap does), and
#     his next normal job runs beside it; raised (fscap=100%), the held
#     job and the het job start with no command on them.
# The expected figures never come from the plugin: sacct gives the
# usage, the Maui file one more row, the targets file and the weights
# the rest.  Every restart after the first names fs_import= too: the
# figures hold only if it is not read again.
#
# Sourced by run-scenarios.sh ($P, PEND from scenario (a)).  Leaves the
# lab's configuration (no PriorityParameters, AccountingStorageEnforce=
# associations) and no running job.  Run it after scenario (h): usage
# windows replace the tree's RawUsage.

CRED_LOG=$TS_CLUSTER_DIR/log/slurmctld.log
CRED_FILE=$TS_CLUSTER_DIR/etc/cred.targets
# Maui's FSWEIGHT and FS<TYPE>WEIGHT, in enum ts_cred order
CRED_WEIGHTS="100 10 20 30 40 5"
# a Maui statistics directory: its history starts the usage per
# credential at the first restart, and only there
CRED_HISTORY=$TS_CLUSTER_DIR/etc/maui-stats
CRED_PARAMS="usage_window=1d,usage_depth=2,usage_decay=1,fs_targets=$CRED_FILE,fs_weight=100,fs_user_weight=10,fs_group_weight=20,fs_account_weight=30,fs_qos_weight=40,fs_class_weight=5,fs_import=$CRED_HISTORY"

# the same without usage windows: usage per credential by half-life
CRED_HALF_LIFE="fs_targets=$CRED_FILE,fs_weight=100,fs_user_weight=10,fs_group_weight=20,fs_account_weight=30,fs_qos_weight=40,fs_class_weight=5"

# cred_cycles_since LINE - credential tables taken after LINE of the log.
cred_cycles_since()
{
	tail -n "+$(($1 + 1))" "$CRED_LOG" |
		grep -c 'fair share per credential: [0-9]* users'
}

cred_cycles_at_least()
{
	[ "$(cred_cycles_since "$1")" -ge "$2" ]
}

# cred_restart PARAMS - PriorityParameters=PARAMS and
# AccountingStorageEnforce=associations,limits at a slurmctld restart;
# waits for a cycle that takes the credential table.
cred_restart()
{
	local line
	line=$(wc -l <"$CRED_LOG")
	"$TS_CLUSTER" conf "PriorityParameters=$1" \
		"AccountingStorageEnforce=associations,limits"
	"$TS_CLUSTER" restart slurmctld >>"$TS_CLUSTER_DIR/snap/cred-restart.out" 2>&1 &&
		wait_for 150 "a cycle taking the credential table" \
			cred_cycles_at_least "$line" 1
}

# cred_usage_rows JOBID... - "user|group|account|qos|partition|cpusec"
# of each ended job, from sacct (ElapsedRaw x AllocCPUS).
cred_usage_rows()
{
	local ids
	ids=$(IFS=,; echo "$*")
	sacct -n -P -X -j "$ids" \
		-o user,group,account,qos,partition,elapsedraw,alloccpus,state |
		awk -F'|' '$8 !~ /RUNNING|PENDING/ {
			print $1 "|" $2 "|" $3 "|" $4 "|" $5 "|" $6 * $7 }'
}

# cred_expect TARGETS USAGE CREDS WEIGHTS - "FACTOR SUM" of a job whose
# credentials are CREDS ("user|group|account|qos|partition"): each
# type's usage share from USAGE (cred_usage_rows lines), its delta
# against the TARGETS file's entry (difference policy: T - U, a cap only
# below 0, a floor only above), SUM = sum of weight x delta, FACTOR =
# 0.5 + SUM / (200 x the weights of credentials with a target).
cred_expect()
{
	awk -v creds="$3" -v weights="$4" -F'|' '
	FILENAME == ARGV[1] {
		split($0, w, " ")
		if (w[1] == "#" || w[1] == "") next
		kind = w[1]; name = w[2]
		if (kind == "user") { if (name !~ /@\*$/) next; sub(/@\*$/, "", name) }
		t = w[3]; suffix = ""
		if (t ~ /[-+]$/) { suffix = substr(t, length(t)); t = substr(t, 1, length(t) - 1) }
		target[kind SUBSEP name] = t + 0; kindof[kind SUBSEP name] = suffix
		next
	}
	{
		total += $6
		used["user" SUBSEP $1] += $6; used["group" SUBSEP $2] += $6
		used["account" SUBSEP $3] += $6; used["qos" SUBSEP $4] += $6
		used["class" SUBSEP $5] += $6
	}
	END {
		split("user group account qos class", type, " ")
		split(creds, c, "|"); split(weights, wt, " ")
		sum = 0; wsum = 0
		for (k = 1; k <= 5; k++) {
			key = type[k] SUBSEP c[k]
			if (!(key in target)) continue
			u = total > 0 ? 100 * used[key] / total : 0
			d = target[key] - u
			if (kindof[key] == "-" && d > 0) d = 0
			if (kindof[key] == "+" && d < 0) d = 0
			sum += wt[k + 1] * d
			if (wt[k + 1] > 0) wsum += wt[k + 1]
		}
		f = wsum > 0 ? 0.5 + sum / (200 * wsum) : 0.5
		printf "%.9f %.9f\n", f, sum
	}' "$1" "$2"
}

# cred_view_check USAGE VIEW - the --diagnose-f view VIEW against the
# usage rows: each credential's "%" as sacct's CPU-seconds give it
# (within 0.01), the targets file's targets with their suffixes, and
# every type's rows summing to 100 in each window with usage.  Prints
# what differs; RET 0 when nothing does.
cred_view_check()
{
	awk -F'|' -v view="$2" -v targets="$CRED_FILE" '
	function pct(v) { return sprintf("%.2f", 100 * v / total) }
	FILENAME == targets {
		split($0, w, " ")
		if (w[1] == "#" || w[1] == "" || w[3] ~ /^fscap/) next
		n = w[2]; if (w[1] == "user") sub(/@\*$/, "", n)
		t = w[3]; sfx = ""
		if (t ~ /[-+]$/) { sfx = substr(t, length(t)); t = substr(t, 1, length(t) - 1) }
		want_t[toupper(w[1]) " " n] = sprintf("%.2f%s", t, sfx)
		next
	}
	FILENAME != view {
		total += $6
		u["USER " $1] += $6; u["GROUP " $2] += $6; u["ACCOUNT " $3] += $6
		u["QOS " $4] += $6; u["CLASS " $5] += $6
		next
	}
	/^(USER|GROUP|ACCOUNT|QOS|CLASS)$/ { type = $0; next }
	{ nf = split($0, f, " ") }
	/^TotalUsage/ { for (k = 4; k <= nf; k++) tot[k] = f[k]; next }
	type != "" && nf >= 4 && $0 !~ /^-/ {
		key = type " " f[1]
		got_p[key] = f[2]; got_t[key] = f[3]
		for (k = 4; k <= nf; k++) sum[type " " k] += f[k]
	}
	END {
		for (key in u)
			if (got_p[key] == "" || got_p[key] - pct(u[key]) > 0.01 ||
			    pct(u[key]) - got_p[key] > 0.01)
				printf "%s: %% %s, sacct gives %s\n", key, got_p[key], pct(u[key])
		for (key in want_t)
			if (key in got_p && got_t[key] != want_t[key])
				printf "%s: target %s, the file says %s\n", key, got_t[key], want_t[key]
		for (key in sum) {
			split(key, kk, " ")
			if (tot[kk[2]] > 0 && (sum[key] < 99.95 || sum[key] > 100.05))
				printf "%s: window %d rows sum to %.2f\n", kk[1], kk[2] - 4, sum[key]
		}
	}' "$CRED_FILE" "$1" "$2"
}

# cred_view_ok USAGE - sshare-ext --diagnose-f online into $CRED_VIEW
# passes cred_view_check and names a user, an account, a QOS and a
# partition.
cred_view_ok()
{
	"$TS_TOP/build/bin/sshare-ext" --diagnose-f >"$CRED_VIEW" \
		2>"$TS_CLUSTER_DIR/snap/cred-view.err" &&
		[ -z "$(cred_view_check "$1" "$CRED_VIEW")" ] &&
		grep -q '^bob ' "$CRED_VIEW" && grep -q '^group1 ' "$CRED_VIEW" &&
		grep -q '^normal ' "$CRED_VIEW" && grep -q '^lab ' "$CRED_VIEW"
}

# cred_export_ok USAGE DIR - sshare-ext --export-maui=DIR (online)
# writes one FS.<EPOCH> file whose User, Group, Account, QOS and Class
# lines are USAGE's sums by name (within 0.5: sshare-ext's shortest
# decimals of the plugin's long doubles) and whose TOTAL is their sum.
cred_export_ok()
{
	rm -rf "$2" && mkdir -p "$2" &&
		"$TS_TOP/build/bin/sshare-ext" --export-maui="$2" >"$2.out" || return 1
	[ "$(ls "$2" | grep -c '^FS\.[0-9]*$')" -eq 1 ] || return 1
	awk -F'|' 'FILENAME == ARGV[1] {
		total += $6
		u["User " $1] += $6; u["Group " $2] += $6; u["Account " $3] += $6
		u["QOS " $4] += $6; u["Class " $5] += $6
		next
	}
	$1 == "TOTAL" { got_total = $2; next }
	$1 !~ /^#/ { got[$1 " " $2] = $3 }
	END {
		bad = 0
		for (k in u) {
			d = got[k] - u[k]
			if (!(k in got) || d > 0.5 || d < -0.5) {
				print k ": " got[k] ", expected " u[k] > "/dev/stderr"; bad = 1
			}
		}
		d = got_total - total
		if (d > 0.5 || d < -0.5) { print "TOTAL " got_total ", expected " total > "/dev/stderr"; bad = 1 }
		exit bad
	}' "$1" FS=' ' "$2"/FS.*
}

# cred_jobs_view_ok USAGE JOBID... - sshare-ext --diagnose-p's line of
# each job has cred_expect's factor (to 1e-6) and 100 x its sum as the
# component (to 0.01).  CRED_MISMATCH says which had not.
cred_jobs_view_ok()
{
	local view=$TS_CLUSTER_DIR/snap/cred.pview j want got
	CRED_MISMATCH=""
	"$TS_TOP/build/bin/sshare-ext" --diagnose-p >"$view" || return 1
	for j in "${@:2}"; do
		want=$(cred_expect "$CRED_FILE" "$1" "$(cred_job_creds "$j")" \
			"$CRED_WEIGHTS" | awk '{ printf "%.6f %.2f", $1, 100 * $2 }')
		got=$(awk -v j="$j" '$1 == j { printf "%.6f %.2f", $6, $5; exit }' "$view")
		[ "$got" = "$want" ] ||
			CRED_MISMATCH+="job $j: --diagnose-p '$got', expected factor and component '$want'"$'\n'
	done
	[ -z "$CRED_MISMATCH" ]
}

# cred_job_creds JOBID - "user|group|account|qos|partition" of a job.
cred_job_creds()
{
	squeue -h -j "$1" -o '%u|%g|%a|%q|%P' 2>/dev/null
}

# cred_matches WHAT USAGE JOBID... - each job's figure is the one
# expected (within 1, sprio's and squeue's rounding): WHAT fs, sprio's
# FAIRSHARE, PriorityWeightFairshare x the expected factor; WHAT prio,
# squeue's priority, 1000000 + Maui's component (100 x sum).
# CRED_MISMATCH says which was not.
cred_matches()
{
	local j want got
	CRED_MISMATCH=""
	for j in "${@:3}"; do
		want=$(cred_expect "$CRED_FILE" "$2" "$(cred_job_creds "$j")" \
			"$CRED_WEIGHTS" | awk -v what="$1" -v w="$CRED_FS_WEIGHT" '{
			printf "%.3f", what == "fs" ? $1 * w : 1000000 + 100 * $2 }')
		if [ "$1" = fs ]; then
			got=$(sprio -h -j "$j" -o '%F' 2>/dev/null | tr -d ' ')
		else
			got=$(squeue -h -j "$j" -o '%Q' 2>/dev/null | tr -d ' ')
		fi
		if [ -z "$got" ] || ! awk -v a="$got" -v b="$want" \
			'BEGIN { d = a - b; exit !(d <= 1 && d >= -1) }'; then
			CRED_MISMATCH+="job $j ($(cred_job_creds "$j")): $1 '$got', expected $want"$'\n'
		fi
	done
	[ -z "$CRED_MISMATCH" ]
}

# cred_qos_held JOBID REASON - pending, Priority=0, REASON in squeue %r
# and in scontrol show job.
cred_qos_held()
{
	local show
	show=$(scontrol show job "$1" 2>/dev/null)
	[ "$(squeue -h -j "$1" -o %T 2>/dev/null)" = PENDING ] &&
		[ "$(squeue -h -j "$1" -o %r 2>/dev/null)" = "$2" ] &&
		grep -qF "Reason=$2 " <<<"$show" && grep -qw 'Priority=0' <<<"$show"
}

# cred_squeue JOB+N FORMAT - squeue's FORMAT of het component N (squeue
# -j JOB shows every component).
cred_squeue()
{
	squeue -h -j "${1%+*}" -o "%i|$2" 2>/dev/null |
		awk -F'|' -v j="$1" '$1 == j { print $2; exit }'
}

# cred_het_held JOBID REASON - every component of het job JOBID pending
# with Priority=0 and REASON.
cred_het_held()
{
	local k
	for k in 0 1; do
		[ "$(cred_squeue "$1+$k" %T)" = PENDING ] &&
			[ "$(cred_squeue "$1+$k" %Q)" = 0 ] &&
			[ "$(cred_squeue "$1+$k" %r)" = "$2" ] || return 1
	done
}

# cred_het_running JOBID - every component of het job JOBID runs.
cred_het_running()
{
	[ "$(squeue -h -j "$1" -o %T 2>/dev/null | sort -u)" = RUNNING ]
}

# cred_qos_cap SNAP - step 4: a QOS fscap holds that QOS's jobs only.
cred_qos_cap()
{
	local snap=$1 capped free het free2 want="FairshareCap:qos:lowq=0.00%>=0%"
	local script=$TS_CLUSTER_DIR/jobs/cred-het.sh
	sacctmgr -i -Q add qos lowq >/dev/null &&
		sacctmgr -i -Q modify user where name=bob set qos+=lowq >/dev/null ||
		{ not_ok "$P: credentials: sacctmgr adds QOS lowq for bob"; return 1; }
	echo "qos lowq fscap=0%" >>"$CRED_FILE"
	if ! cred_restart "$CRED_PARAMS" 2>"$snap/cred-4.err"; then
		not_ok "$P: credentials: slurmctld restarts with qos lowq fscap=0%" \
			"$(cat "$snap/cred-4.err")"
		return 1
	fi
	capped=$(ts_submit bob -p lab -c 1 --qos=lowq --wrap 'sleep 300')
	free=$(ts_submit bob -p lab -c 1 --wrap 'sleep 300')
	if wait_for 90 "bob's normal job to run and his lowq job to be cap-held" \
		eval 'ts_jobs_running "$free" && cred_qos_held "$capped" "$want"' \
		2>>"$snap/cred-4.err"; then
		ok "$P: credentials: qos lowq fscap=0%: bob's lowq job pends with Priority=0 and reason '$want' in squeue and scontrol, his normal job runs at once (${WAITED}s)"
	else
		not_ok "$P: credentials: qos lowq fscap=0%: bob's lowq job pends with Priority=0 and the QOS's reason, his normal job runs at once" \
			"$(cat "$snap/cred-4.err")" "$(squeue -o '%i %u %q %T %Q %r' 2>&1)" \
			"$(grep 'fair share per credential' "$CRED_LOG" | tail -n 2)"
	fi
	printf '#!/bin/sh\nsleep 300\n' >"$script"
	het=$(ts_submit bob -p lab -c 1 : -p lab -c 1 --qos=lowq "$script")
	if [ -n "$het" ] &&
	   wait_for 90 "bob's het job to wait with the QOS's reason" \
		cred_het_held "$het" "$want" 2>>"$snap/cred-4.err"; then
		ok "$P: credentials: qos lowq fscap=0%: bob's het job with one component in lowq waits whole, both components Priority=0 with reason '$want' (${WAITED}s)"
	else
		not_ok "$P: credentials: qos lowq fscap=0%: bob's het job with one component in lowq waits whole, both components Priority=0 with the QOS's reason" \
			"het job '$het'" "$(squeue -j "${het:-0}" -o '%i %q %T %Q %r' 2>&1)"
	fi
	free2=$(ts_submit bob -p lab -c 1 --wrap 'sleep 300')
	if wait_for 30 "bob's next normal job to run" ts_jobs_running "$free2" \
		2>>"$snap/cred-4.err"; then
		ok "$P: credentials: beside the held het job, bob's next job in normal runs at once (${WAITED}s)"
	else
		not_ok "$P: credentials: beside the held het job, bob's next job in normal runs at once" \
			"$(squeue -o '%i %u %q %T %Q %r' 2>&1)"
	fi
	sed -i 's/^qos lowq fscap=0%$/qos lowq fscap=100%/' "$CRED_FILE"
	scontrol reconfigure >>"$snap/cred-4.err" 2>&1
	if wait_for 150 "the lowq job and the het job to run" \
		eval 'ts_jobs_running "$capped" && cred_het_running "$het"' \
		2>>"$snap/cred-4.err"; then
		ok "$P: credentials: raised to fscap=100% at reconfigure, the held lowq job and the het job start with no command on them (${WAITED}s)"
	else
		not_ok "$P: credentials: raised to fscap=100% at reconfigure, the held lowq job and the het job start with no command on them" \
			"$(cat "$snap/cred-4.err")" "$(squeue -o '%i %u %q %T %Q %r' 2>&1)"
	fi
	scancel "$capped" "$free" ${het:+"$het"} ${free2:+"$free2"}
	wait_for 30 "the lowq jobs to end" ts_no_job_running || true
	sacctmgr -i -Q modify user where name=bob set qos-=lowq >/dev/null
	sacctmgr -i -Q delete qos lowq >/dev/null
}

scenario_credentials()
{
	local snap=$TS_CLUSTER_DIR/snap usage=$TS_CLUSTER_DIR/snap/cred.usage
	local u j line pend=() ran=()

	[ "$PLUGIN" = priority/treeshare ] || return 0
	for u in bob cathy suzy scott; do
		[ -n "${PEND[$u]:-}" ] && [ "$(ts_job_state "${PEND[$u]}")" = PENDING ] &&
			pend+=("${PEND[$u]}")
	done
	if [ "${#pend[@]}" -ne 4 ] || ! wait_for 30 "no job to run" ts_no_job_running; then
		not_ok "$P: credentials: scenario (a)'s four pending jobs are there and nothing runs" \
			"pending: ${pend[*]}" "$(squeue 2>&1)"
		return 1
	fi

	# --- 1. credentials configured ------------------------------------
	cat >"$CRED_FILE" <<'EOF'
# Maui credentials (issue 27): a target, a floor, caps
user bob@* 40
user suzy@* 30+
group bob 60-
group suzy 20-
account group1 50
account group2 30
qos normal 90
class wait 10
class lab 40
EOF
	# scott's credentials as squeue names them, 600 CPU-seconds a minute
	# ago in Maui's data file; the same row joins sacct's below
	history_row="$(cred_job_creds "${PEND[scott]}")|600"
	mkdir -p "$CRED_HISTORY"
	chmod 755 "$CRED_HISTORY"
	awk -F'|' -v now="$(date +%s)" -v dir="$CRED_HISTORY" '{
		f = dir "/FS." (now - 60)
		print "# Fairshare Data File (Duration: 86400 Seconds) Starting: lab" >f
		print "User " $1 " " $6 >f; print "Group " $2 " " $6 >f
		print "Account " $3 " " $6 >f; print "QOS " $4 " " $6 >f
		print "Class " $5 " " $6 >f; print "TOTAL " $6 >f
	}' <<<"$history_row"
	CRED_FS_WEIGHT=$(scontrol show config |
		awk 'tolower($1) == "priorityweightfairshare" { print $3 }')
	line=$(wc -l <"$CRED_LOG")
	# awk reads the whole log: "tail | grep -q" fails under pipefail
	# when grep stops first and tail, still writing, gets SIGPIPE
	if cred_restart "$CRED_PARAMS" 2>"$snap/cred-1.err" &&
	   awk -v from="$line" 'NR > from && /usage per credential \(user, group, account, qos, class\) kept in the usage windows, from fs_import/ { kept = 1 }
		NR > from && /fs_import .*: window files: 1 imported, 0 older than usage_depth left out; lines: 5; TOTAL 600;/ { read = 1 }
		END { exit !(kept && read) }' "$CRED_LOG"; then
		ok "$P: credentials: with usage_window= and fs_*_weight slurmctld keeps usage per credential, starts it from the Maui file of fs_import= (1 window, 5 lines, TOTAL 600) and takes the table of credentials each cycle (${WAITED}s after a restart)"
	else
		not_ok "$P: credentials: with usage_window= and fs_*_weight slurmctld keeps usage per credential and takes the table of credentials each cycle" \
			"$(cat "$snap/cred-1.err")" "$(tail -n 5 "$snap/cred-restart.out" 2>/dev/null)" \
			"$(tail -n "+$((line + 1))" "$CRED_LOG" | grep -i 'credential\|error' | tail -n 10)"
		return 1
	fi

	# --- 2. known usage, FairShare by hand ------------------------------
	ran+=("$(ts_submit bob -p lab -c 2 --wrap 'sleep 20')")
	ran+=("$(ts_submit cathy -p lab -c 1 --wrap 'sleep 20')")
	ran+=("$(ts_submit suzy -p lab -c 1 --wrap 'sleep 20')")
	if ! wait_for 90 "the credential jobs to end" ts_no_job_running 2>"$snap/cred-2.err"; then
		not_ok "$P: credentials: jobs of bob, cathy and suzy run and end" \
			"$(cat "$snap/cred-2.err")" "$(squeue 2>&1)"
	fi
	# sacct has the ended jobs once slurmdbd took their end records
	wait_for 30 "sacct to show the jobs' ends" \
		eval '[ "$(cred_usage_rows "${ran[@]}" | wc -l)" -eq 3 ]' || true
	cred_usage_rows "${ran[@]}" >"$usage"
	echo "$history_row" >>"$usage"
	if wait_for 150 "sprio's FAIRSHARE to follow the credentials' usage" \
		cred_matches fs "$usage" "${pend[@]}" 2>>"$snap/cred-2.err"; then
		ok "$P: credentials: sprio's FAIRSHARE of every user's pending job is PriorityWeightFairshare x (0.5 + Maui's weighted sum / (200 x the weights with a target)), the sum computed from sacct's CPU-seconds ($(tr '\n' ' ' <"$usage"))"
	else
		cred_matches fs "$usage" "${pend[@]}"
		not_ok "$P: credentials: sprio's FAIRSHARE of every user's pending job is the documented mapping of Maui's weighted sum" \
			"$CRED_MISMATCH" "usage: $(cat "$usage")" "$(cat "$snap/cred-2.err")" \
			"$(grep 'fair share per credential' "$CRED_LOG" | tail -n 3)"
	fi

	# --- 2b. Maui's diagnose -f, online ---------------------------------
	CRED_VIEW=$snap/cred.view
	if wait_for 90 "the committed state to show the usage" \
		cred_view_ok "$usage" 2>"$snap/cred-view.wait"; then
		ok "$P: credentials: sshare-ext --diagnose-f online names users, groups, accounts, QOS and partitions, gives each its share as sacct's CPU-seconds do, the targets with Maui's suffixes, and each type's rows sum to 100 in every window"
	else
		not_ok "$P: credentials: sshare-ext --diagnose-f online shows the credentials' usage, named, as sacct gives it" \
			"$(cat "$snap/cred-view.wait")" "$(cred_view_check "$usage" "$CRED_VIEW")" \
			"$(cat "$snap/cred-view.err")" "$(cat "$CRED_VIEW")"
	fi

	# --- 2b'. the windows as Maui's files, online ------------------------
	if cred_export_ok "$usage" "$snap/cred-export" 2>"$snap/cred-export.err"; then
		ok "$P: credentials: sshare-ext --export-maui writes the usage per credential as Maui's FS.<EPOCH> file, every user, group, account, QOS and partition named with the CPU-seconds sacct (and the imported file) give it, TOTAL their sum"
	else
		not_ok "$P: credentials: sshare-ext --export-maui writes each credential's usage, named, as Maui's file" \
			"$(cat "$snap/cred-export.err")" "$(cat "$snap"/cred-export/FS.* 2>&1)"
	fi

	# --- 2c. Maui's diagnose -p -----------------------------------------
	if cred_jobs_view_ok "$usage" "${pend[@]}" 2>"$snap/cred-p.err"; then
		ok "$P: credentials: sshare-ext --diagnose-p gives each pending job the FS deltas, Maui's component (100 x sum) and the FairShare computed here"
	else
		not_ok "$P: credentials: sshare-ext --diagnose-p gives each pending job Maui's component and FairShare" \
			"$CRED_MISMATCH" "$(cat "$snap/cred-p.err")" "$(cat "$snap/cred.pview")"
	fi

	# --- 3. Maui's component through the formula ------------------------
	line=$(wc -l <"$CRED_LOG")
	if cred_restart "$CRED_PARAMS,formula=\"maui_fs+1000000\"" 2>"$snap/cred-3.err" &&
	   awk -v from="$line" 'NR > from && /fs_import .* not read: usage per credential is saved/ { found = 1 }
		END { exit !found }' "$CRED_LOG" &&
	   wait_for 90 "the priorities to follow the formula" \
		cred_matches prio "$usage" "${pend[@]}" 2>>"$snap/cred-3.err"; then
		ok "$P: credentials: at a restart fs_import= is not read again (the usage is saved), and formula=\"maui_fs+1000000\" gives each pending job 1000000 + FSWEIGHT x Maui's weighted sum ($(squeue -h -j "$(IFS=,; echo "${pend[*]}")" -o '%u=%Q' | tr '\n' ' '))"
	else
		cred_matches prio "$usage" "${pend[@]}"
		not_ok "$P: credentials: at a restart fs_import= is not read again, and formula=\"maui_fs+1000000\" gives each pending job 1000000 + Maui's component" \
			"$CRED_MISMATCH" "$(cat "$snap/cred-3.err")" \
			"$(tail -n "+$((line + 1))" "$CRED_LOG" | grep 'fs_import' | tail -n 3)"
	fi

	# --- 3b. without usage windows: half-life per credential -----------
	# usage_window= removed at a restart: the saved windows become one
	# value per credential (their decay-weighted usage), which decays by
	# PriorityDecayHalfLife; no job has run since step 2, so every share,
	# and sprio's FairShare, stays what sacct gives
	line=$(wc -l <"$CRED_LOG")
	if cred_restart "$CRED_HALF_LIFE" 2>"$snap/cred-3b.err" &&
	   awk -v from="$line" 'NR > from && /usage per credential \(user, group, account, qos, class\) decaying by PriorityDecayHalfLife, from the saved one/ { found = 1 }
		END { exit !found }' "$CRED_LOG" &&
	   wait_for 90 "sprio's FAIRSHARE by half-life" \
		cred_matches fs "$usage" "${pend[@]}" 2>>"$snap/cred-3b.err"; then
		ok "$P: credentials: without usage_window= (a restart) the usage per credential decays by PriorityDecayHalfLife from the saved windows, and sprio's FAIRSHARE of every pending job stays the mapping of Maui's sum from sacct's CPU-seconds"
	else
		cred_matches fs "$usage" "${pend[@]}"
		not_ok "$P: credentials: without usage_window= the usage per credential decays by half-life from the saved windows, FairShare as before" \
			"$CRED_MISMATCH" "$(cat "$snap/cred-3b.err")" \
			"$(tail -n "+$((line + 1))" "$CRED_LOG" | grep 'per credential' | tail -n 3)"
	fi

	# --- 4. a QOS at its fscap ----------------------------------------
	cred_qos_cap "$snap"

	# --- back to the lab's configuration -------------------------------
	sed -i '/^[[:space:]]*PriorityParameters[[:space:]]*=/Id' "$SLURM_CONF"
	"$TS_CLUSTER" conf AccountingStorageEnforce=associations
	"$TS_CLUSTER" restart slurmctld >>"$snap/cred-restart.out" 2>&1 ||
		not_ok "$P: credentials: slurmctld restarts on the lab's configuration" \
			"$(tail -n 5 "$snap/cred-restart.out")"
	rm -f "$CRED_FILE"
	rm -rf "$CRED_HISTORY"
}
