#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-release.sh DIST BUILD - "make check-release DIST=trixie": the
# README's "make check" inside a fresh Debian DIST root, as a Debian admin
# of that release would run it (docs/treeshare-build.7).
#
#  1. root.sh create: mmdebstrap DIST into BUILD/release-DIST/root (the
#     host's mirror; only "deb" lines, a policy-rc.d; no cache outside
#     BUILD, CI starts fresh);
#  2. the tree as it is now: every file git tracks plus untracked ones not
#     ignored, from the working tree (uncommitted edits included, build/
#     and ignored files left out), copied to /srv/treeshare in the root;
#  3. proc, sysfs (ro), devpts and a tmpfs on /dev/shm mounted;
#  4. "make check" in /srv/treeshare (make deps installs the packages,
#     adds deb-src and fetches the exact Slurm source itself), with
#     CHECK_SKIP="$RELEASE_SKIP" (default: fuzz unit-valgrind, the stages
#     whose code never sees Slurm and which the host's make check runs)
#     and WITH_CI_STAGES as given (.ci/run: 1; stage "package" then builds
#     and tests DIST's packages in a root nested in this one),
#     TS_LAB_PORTS=RELEASE_LAB_PORTS (the labs' port range: the root's
#     /tmp, where labs claim their ports, is not the host's, so .ci/run
#     gives the root a range of its own), at nice RELEASE_NICE (default
#     10; .ci/run 0: its longest lane; the root's mmdebstrap in step 1
#     too), INSTALL_FRESH_CLONE_CHECKS=RELEASE_INSTALL_FRESH_CLONE_CHECKS
#     (default 1; .ci/run 0: stage install leaves the fresh clone's
#     check-unit and check-structure, which never see Slurm, to the host),
#     HARNESS_CASES=RELEASE_HARNESS_CASES (the harness's random parity
#     cases per algorithm; default HARNESS_CASES, else 200; .ci/run 100);
#  5. always, also on failure or interruption (trap): every process whose
#     root is inside the root killed by pid, everything unmounted, the
#     inner TAP and logs copied to BUILD/release-DIST/check, the root
#     removed (RELEASE_KEEP_ROOT=1 keeps it, unmounted).
# The inner run's summary is printed; the last line is the inner make
# check's own "N passed, N failed" (or "0 passed, 1 failed" if it never
# got that far); exit status 0 only if it ran and nothing failed.
set -u -o pipefail

DIST=${1:?usage: check-release.sh DIST BUILD}
BUILD=${2:?usage: check-release.sh DIST BUILD}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
ROOTSH=$TOP/testsuite/release/root.sh
mkdir -p "$BUILD"
BUILD=$(cd "$BUILD" && pwd)
WORK=$BUILD/release-$DIST
R=$WORK/root
IN=/srv/treeshare
LOG=$WORK/make-check.log
SKIP=${RELEASE_SKIP-fuzz unit-valgrind}
t0=$SECONDS

say() { echo "check-release: $*"; }

# finish - stop and unmount everything in the root, keep its TAP and
# logs, remove it (or keep it with RELEASE_KEEP_ROOT=1).  Once.
FINISHED=0
finish()
{
	local rc=0
	[ "$FINISHED" = 1 ] && return 0
	FINISHED=1
	[ -d "$R" ] || return 0
	say "cleaning up $R"
	bash "$ROOTSH" umount "$R" || rc=1
	if [ -d "$R$IN/build/check" ]; then
		rm -rf "$WORK/check"
		mkdir -p "$WORK/check"
		cp -a "$R$IN/build/check/." "$WORK/check/" 2>/dev/null
		say "inner TAP and logs: $WORK/check"
	fi
	if [ "${RELEASE_KEEP_ROOT:-0}" = 1 ]; then
		say "root kept in $R (RELEASE_KEEP_ROOT=1; remove with: $ROOTSH remove $R)"
	else
		bash "$ROOTSH" remove "$R" || rc=1
	fi
	return $rc
}

cleanup()
{
	local rc=$?
	trap - EXIT INT TERM HUP
	finish || rc=1
	exit "$rc"
}
trap cleanup EXIT
trap 'say "interrupted"; exit 130' INT TERM HUP

main()
{
	[ "$(id -u)" = 0 ] || { say "must run as root (mmdebstrap, chroot, mount)"; exit 1; }
	mkdir -p "$WORK"
	if [ -e "$R" ]; then
		say "removing the root of an earlier run"
		bash "$ROOTSH" remove "$R" || exit 1
	fi
	rm -f "$LOG"

	t=$SECONDS
	bash "$ROOTSH" create "$DIST" "$R" || exit 1
	t_create=$((SECONDS - t))

	say "copying the working tree (git-tracked and untracked, not ignored) to $IN"
	mkdir -p "$R$IN"
	(cd "$TOP" && git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do
			[ -e "$f" ] && printf '%s\0' "$f"
		done | tar --null -T - -cf -) | tar -C "$R$IN" -xf - ||
		{ say "copying the tree failed"; exit 1; }
	bash "$ROOTSH" mount "$R" || exit 1

	say "make check in the $DIST root (CHECK_SKIP=\"$SKIP\"; log $LOG)"
	t=$SECONDS
	# In the background, waited for: a signal to this script runs the
	# trap at once (bash defers traps until a foreground job ends), and
	# the trap's cleanup ends the processes of the root.
	rm -f "$WORK/inner.rc"
	{
		bash "$ROOTSH" run "$R" "CHECK_SKIP=$SKIP" \
			"WITH_CI_STAGES=${WITH_CI_STAGES:-}" \
			"INSTALL_FRESH_CLONE_CHECKS=${RELEASE_INSTALL_FRESH_CLONE_CHECKS:-1}" \
			"HARNESS_CASES=${RELEASE_HARNESS_CASES:-${HARNESS_CASES:-200}}" \
			"TS_LAB_PORTS=${RELEASE_LAB_PORTS:-${TS_LAB_PORTS:-}}" bash -c "cd $IN && nice -n ${RELEASE_NICE:-10} make check" 2>&1
		echo $? >"$WORK/inner.rc"
	} | tee "$LOG" &
	wait $!
	inner=$(cat "$WORK/inner.rc" 2>/dev/null || echo 1)
	t_check=$((SECONDS - t))

	summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$LOG" | tail -1)
	finish || { say "cleanup of $R failed"; inner=1; }
	echo
	say "$DIST: root ${t_create}s, make check ${t_check}s, in all $((SECONDS - t0))s"
	if [ -z "$summary" ]; then
		say "$DIST: make check ended (status $inner) without its summary line"
		summary="0 passed, 1 failed"
	fi
	sed -n '/^==== summary ====$/,/^[0-9]* passed, [0-9]* failed$/p' "$LOG" | sed '$d'
	echo "$summary"
	[ "$inner" = 0 ] && [[ $summary == *" 0 failed" ]]
}

# One line: bash has read all of it before running it, so an edit of this
# file during the long make check cannot feed it other lines afterwards.
main; exit $?
