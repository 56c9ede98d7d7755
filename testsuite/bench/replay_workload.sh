#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# replay_workload.sh DIR [JOBS [ACCOUNTS [USERS_PER_ACCOUNT [DAYS]]]] -
# issue 30's scale for ts-replay(1): a site's tree and DAYS of sacct
# history, written into DIR as site.tree, jobs.sacct and slurm.conf.
# Defaults: 1,000,000 jobs, 100 accounts of 49 users (5,000 associations
# with the accounts), 30 days from 2026-11-01.  Deterministic (awk's
# srand(27)): the same arguments give the same files with one awk.  Jobs: start
# uniform over the days, run 1 min to 24 h (log-uniform), 1 to 64 CPUs,
# a user by a heavy tail (u^2: a tenth of the users submit a third of
# the jobs), those that would end after the last day still running
# (no End), as sacct shows them.
set -eu -o pipefail

DIR=${1:?usage: replay_workload.sh DIR [JOBS [ACCOUNTS [USERS [DAYS]]]]}
JOBS=${2:-1000000}
ACCOUNTS=${3:-100}
USERS=${4:-49}
DAYS=${5:-30}
mkdir -p "$DIR"

awk -v accounts="$ACCOUNTS" -v users="$USERS" '
BEGIN {
	print "# replay_workload.sh: " accounts " accounts of " users " users"
	for (a = 0; a < accounts; a++) {
		printf "account acct%d root %d\n", a, 1 + (a * 7) % 10
		for (u = 0; u < users; u++)
			printf "user u%d_%d acct%d %d\n", a, u, a, 1 + (u * 3) % 5
	}
}' >"$DIR/site.tree"

cat >"$DIR/slurm.conf" <<'EOF'
# replay_workload.sh: Fair Tree, one-week half-life, a cycle every 5 min
PriorityType=priority/treeshare
PriorityDecayHalfLife=7-0
PriorityCalcPeriod=5
EOF

# UTC times, as sacct prints them under TZ=UTC (the bench reads them so).
awk -v jobs="$JOBS" -v accounts="$ACCOUNTS" -v users="$USERS" \
	-v days="$DAYS" '
# stamp(T) - UTC time T as sacct prints it (civil from days: any awk)
function stamp(t,    d, s, z, era, doe, yoe, y, doy, mp, dd, m) {
	d = int(t / 86400)
	s = t - d * 86400
	z = d + 719468
	era = int(z / 146097)
	doe = z - era * 146097
	yoe = int((doe - int(doe / 1460) + int(doe / 36524) - int(doe / 146096)) / 365)
	y = yoe + era * 400
	doy = doe - (365 * yoe + int(yoe / 4) - int(yoe / 100))
	mp = int((5 * doy + 2) / 153)
	dd = doy - int((153 * mp + 2) / 5) + 1
	m = mp < 10 ? mp + 3 : mp - 9
	y += m <= 2
	return sprintf("%04d-%02d-%02dT%02d:%02d:%02d", y, m, dd,
		int(s / 3600), int(s % 3600 / 60), s % 60)
}
BEGIN {
	srand(27)
	t0 = 1793491200 # 2026-11-01T00:00:00Z
	span = days * 86400
	n_users = accounts * users
	print "JobID|User|Account|QOS|Partition|Eligible|Start|End|State|AllocCPUS"
	for (j = 1; j <= jobs; j++) {
		r = rand()
		k = int(r * r * n_users)
		a = int(k / users)
		u = k % users
		start = t0 + int(rand() * span)
		run = int(exp(log(60) + rand() * (log(86400) - log(60))))
		cpus = 1 + int(rand() * rand() * 64)
		if (start + run > t0 + span) {
			end = "Unknown"
			state = "RUNNING"
		} else {
			end = stamp(start + run)
			state = "COMPLETED"
		}
		printf "%d|u%d_%d|acct%d|normal|batch|%s|%s|%s|%s|%d\n", j, a, \
			u, a, stamp(start - 30), stamp(start), end, state, cpus
	}
}' >"$DIR/jobs.sacct"
