#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_bgrun.sh TAP_FILE - testsuite/bgrun.sh, which the cluster and
# crash-cluster stages use to learn how their parallel runs ended: a
# run's status is its own (3, 143 when stopped, "none" while it goes on),
# and it survives the reuse of the run's pid by a later child of the
# stage's shell, where bash's `wait` answers 127.  The reuse is forced in
# a private pid namespace, whose next pid is set through ns_last_pid
# (root); where that is refused (a root without CAP_SYS_ADMIN), the test
# says so and is skipped.  Under a second.
set -u
TAP=${1:?usage: test_bgrun.sh TAP_FILE}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../bgrun.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0
ok()
{
	echo "ok $((++n)) - bgrun: $1" >>"$TAP"
}
not_ok()
{
	echo "not ok $((++n)) - bgrun: $1" >>"$TAP"
}

bg_start "$T/three" sh -c 'exit 3'
bg_start "$T/long" sleep 30
long=$BG_PID
for _ in $(seq 50); do
	bg_running "$T/three" || break
	sleep 0.1
done
st3=$(bg_status "$T/three") stl=$(bg_status "$T/long")
if [ "$st3" = 3 ] && [ "$stl" = none ] && bg_running "$T/long"; then
	ok "a run's status is its own (exit 3 -> $st3) and a run still going has none ($stl)"
else
	not_ok "a run's status is its own: exit 3 -> '$st3', still going -> '$stl'"
fi

bg_stop "$long"
wait "$long" 2>/dev/null
stl=$(bg_status "$T/long")
if [ "$stl" = 143 ]; then
	ok "a run stopped by bg_stop ends with SIGTERM's status ($stl)"
else
	not_ok "a run stopped by bg_stop ends with SIGTERM's status: '$stl', not 143"
fi

# In a pid namespace of its own: a run exits 7; the next child of the same
# shell is made to get its pid; wait's answer and the file's are compared.
out=$(unshare --pid --fork --mount-proc bash -c '
	. "$1"
	bg_start "$2/seven" sh -c "exit 7"
	p=$BG_PID
	while bg_running "$2/seven"; do sleep 0.05; done
	sleep 0.1
	echo $((p - 1)) >/proc/sys/kernel/ns_last_pid || exit 99
	sh -c "echo \$\$" >"$2/reused"
	read -r c <"$2/reused"
	wait "$p" 2>/dev/null
	echo "pid $p reused $c wait $? file $(bg_status "$2/seven")"
' - "$HERE/../bgrun.sh" "$T" 2>"$T/unshare.err")
rc=$?
if [ "$rc" != 0 ] || [ -z "$out" ]; then
	echo "ok $((++n)) - bgrun: a run's status survives its pid's reuse # SKIP no private pid namespace here (status $rc: $(head -c 200 "$T/unshare.err"))" >>"$TAP"
else
	set -- $out
	if [ "$2" = "$4" ] && [ "$6" != 7 ] && [ "$8" = 7 ]; then
		ok "a run's status survives its pid's reuse by the next child ($out: bash's wait no longer has it, the file has 7)"
	elif [ "$2" != "$4" ]; then
		echo "ok $((++n)) - bgrun: a run's status survives its pid's reuse # SKIP the pid was not reused ($out)" >>"$TAP"
	else
		not_ok "a run's status survives its pid's reuse: $out (the file must say 7)"
	fi
fi
