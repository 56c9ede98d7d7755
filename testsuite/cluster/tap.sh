# SPDX-License-Identifier: GPL-2.0-or-later
# tap.sh - TAP output and bounded waits for the cluster lab's shell tests.
#
# Source it; set TAP_FILE to append the "ok N - name" lines to a file
# (they are printed on stdout too).  N continues the numbering already in
# TAP_FILE, so several scripts (or one per plugin) can share one file.
# A test's name states the behaviour it checks (STYLE.md 2.6).

TAP_FILE=${TAP_FILE:-/dev/null}

tap_emit()
{
	echo "$1"
	[ "$TAP_FILE" = /dev/null ] || echo "$1" >>"$TAP_FILE"
}

# tap_next - set TAP_COUNT to the next test number (in this shell, so
# call it directly, not in $(...)).
tap_next()
{
	if [ "$TAP_FILE" = /dev/null ]; then
		TAP_COUNT=$((${TAP_COUNT:-0} + 1))
	elif [ -f "$TAP_FILE" ]; then
		TAP_COUNT=$(($(grep -cE '^(not )?ok ' "$TAP_FILE") + 1))
	else
		TAP_COUNT=1
	fi
}

# ok NAME - a passing assertion.
ok()
{
	tap_next
	tap_emit "ok $TAP_COUNT - $*"
}

# not_ok NAME [DIAG...] - a failing assertion; DIAG lines follow as
# "# " comments so the failure explains itself.
not_ok()
{
	local name=$1 line l
	shift
	tap_next
	tap_emit "not ok $TAP_COUNT - $name"
	for line in "$@"; do
		while IFS= read -r l; do tap_emit "#   $l"; done <<<"$line"
	done
	TAP_FAILED=$((${TAP_FAILED:-0} + 1))
}

# todo NAME REASON [DIAG...] - a failing assertion of a known gap:
# "not ok N - NAME # TODO REASON" (TAP: an expected failure, not counted
# as one by stage.sh and check.sh); DIAG lines as for not_ok.
todo()
{
	local name=$1 reason=$2 line l
	shift 2
	tap_next
	tap_emit "not ok $TAP_COUNT - $name # TODO $reason"
	for line in "$@"; do
		while IFS= read -r l; do tap_emit "#   $l"; done <<<"$line"
	done
}

# diag TEXT - a TAP comment line.
diag()
{
	local l
	while IFS= read -r l; do tap_emit "# $l"; done <<<"$*"
}

# wait_for SECONDS WHAT CMD... - poll CMD (every 0.5 s) until it exits 0.
# On timeout prints "timeout after Ns waiting for WHAT" to stderr and
# returns 1; WAITED holds the seconds waited either way.
wait_for()
{
	local secs=$1 what=$2 t0
	shift 2
	t0=$(date +%s)
	while :; do
		if "$@" >/dev/null 2>&1; then
			WAITED=$(($(date +%s) - t0))
			return 0
		fi
		WAITED=$(($(date +%s) - t0))
		if [ "$WAITED" -ge "$secs" ]; then
			echo "timeout after ${secs}s waiting for $what" >&2
			return 1
		fi
		sleep 0.5
	done
}
