#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_config.sh - node_power refuses bad configurations with one line
# naming the file and the key, line/column or file mode, and exit status
# 2, before doing anything; good ones pass check-config.
set -u
. "$(dirname "$0")/lib.sh"

T=$(mktemp -d /tmp/np-config-XXXXXX)
trap 'rm -rf "$T"' EXIT
printf 'secret\n' >"$T/bmc.pass"
chmod 600 "$T/bmc.pass"

# write NAME: the config body from stdin into $T/NAME.json, mode 0644
write() {
	cat >"$T/$1.json"
	chmod 644 "$T/$1.json"
}

# refuses NAME REGEX [SUBCOMMAND...]: exit 2, exactly one stderr line
# matching REGEX, which names the file.
refuses() {
	local name=$1 re=$2 rc lines
	shift 2
	[ $# -gt 0 ] || set -- check-config
	timeout 20 "$NP" -c "$T/$name.json" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	lines=$(wc -l <"$T/err")
	if [ "$rc" = 2 ] && [ "$lines" = 1 ] && grep -Eq -- "$re" "$T/err" &&
		grep -Fq "$T/$name.json" "$T/err"; then
		ok "config refused: $name ($(cat "$T/err"))"
	else
		not_ok "config refused: $name: exit $rc, $lines lines, want /$re/"
		diag <"$T/err"
	fi
}

base='"backend": "ipmi", "power_on_off_enable": "True", "slurm_check": false,
 "log_file": "'$T'/np.log", "state_file": "'$T'/np.state"'

write good <<END
{ $base, "max_concurrent_nodes": "3", "poweroff_eligible": "n[1-2]",
  "bmc": { "n[1-2]": { "address": "127.0.0.1", "port": 9001,
    "user": "admin", "password_file": "$T/bmc.pass" } } }
END
"$NP" -c "$T/good.json" check-config >"$T/out" 2>&1
check "config accepted: seed string values, hostlist bmc key, mode 0600 password" \
	grep -q "OK: backend ipmi, max_concurrent_nodes 3, 2 nodes poweroff_eligible" "$T/out"

write syntax <<END
{ $base,
  "max_concurrent_nodes": ,
  "node_idle_limit": 5 }
END
refuses syntax 'line 3, column 27: JSON syntax error'

write truncated <<END
{ $base, "max_concurrent_nodes": 5
END
refuses truncated 'JSON syntax error: unexpected end of file'

write trailing <<END
{ $base } }
END
refuses trailing "text after the closing '}'"

write unknown <<END
{ $base, "max_concurent_nodes": 5 }
END
refuses unknown 'unknown key "max_concurent_nodes"'

write range <<END
{ $base, "max_concurrent_nodes": "0" }
END
refuses range 'key "max_concurrent_nodes": 0 is out of range 1..100000'

write pause <<END
{ $base, "sleep_state_pause": 11 }
END
refuses pause 'key "sleep_state_pause": 11 is out of range 1..10'

write boolean <<END
{ $base, "power_on_off_enable": "yes" }
END
refuses boolean 'key "power_on_off_enable": "yes" is not a boolean'

write fraction <<END
{ $base, "min_node_down_delay": 1.5 }
END
refuses fraction 'key "min_node_down_delay": 1.5 is not a whole number'

write relative <<END
{ $base, "ipmitool_path": "ipmitool" }
END
refuses relative 'key "ipmitool_path": "ipmitool" is not an absolute path'

write levels <<END
{ "backend": "capmc", "capmc_path": "/bin/true", "slurm_check": false,
  "sleep_state_levels": [1, 3, 2] }
END
refuses levels 'key "sleep_state_levels": 2 after 3, levels must ascend'

write bmc_member <<END
{ $base, "bmc": { "n1": { "address": "x", "user": "u",
  "password_file": "$T/bmc.pass", "passwd": "secret" } } }
END
refuses bmc_member 'key "bmc": "n1": unknown member "passwd"'

write no_bmc <<END
{ $base, "poweroff_eligible": "n[1-3]", "bmc": { "n[1-2]": {
  "address": "x", "user": "u", "password_file": "$T/bmc.pass" } } }
END
refuses no_bmc 'key "poweroff_eligible": node n3 has no bmc entry'

write ramp_ipmi <<END
{ $base, "power_ramp_rate_enable": true }
END
refuses ramp_ipmi 'key "power_ramp_rate_enable": True needs backend "capmc"'

sed "s#$T/np.state#$T/missing/np.state#" "$T/good.json" >"$T/state_dir.json"
chmod 644 "$T/state_dir.json"
refuses state_dir "key \"state_file\": directory $T/missing: No such file or directory"

cp "$T/good.json" "$T/public_pass.json"
printf 'secret\n' >"$T/public.pass"
chmod 644 "$T/public.pass"
sed -i "s#$T/bmc.pass#$T/public.pass#" "$T/public_pass.json"
refuses public_pass "bmc n1: password_file $T/public.pass has mode 0644: readable by group or others"

chmod 640 "$T/public.pass"
refuses public_pass "has mode 0640: readable by group or others"

chmod 604 "$T/public.pass"
refuses public_pass "has mode 0604: readable by group or others"

# Read-only for its owner is private too.
chmod 400 "$T/public.pass"
"$NP" -c "$T/public_pass.json" check-config >"$T/out" 2>&1
check "password file of mode 0400 accepted" grep -q ": OK: backend ipmi" "$T/out"

# Not a regular file: a FIFO nobody writes to is refused, not waited on.
mkfifo "$T/fifo.json"
refuses fifo 'not a regular file'

head -c 1048577 /dev/zero | tr '\0' ' ' >"$T/huge.json"
chmod 644 "$T/huge.json"
refuses huge 'larger than 1048576 bytes'

cp "$T/good.json" "$T/writable.json"
chmod 666 "$T/writable.json"
refuses writable 'has mode 0666: writable by group or others'

# A refused configuration stops a suspend before anything happens, and
# the refusal reaches the log file it names.
write refused_run <<END
{ $base, "poweroff_eligible": "n1", "max_wait": -1 }
END
refuses refused_run 'key "max_wait": -1 is out of range 0..86400' suspend n1
check "refused config is logged to its log_file and nothing else happens" \
	bash -c "grep -q 'configuration refused: .*max_wait' '$T/np.log' && [ ! -e '$T/np.state' ]"

"$NP" suspend >/dev/null 2>"$T/err"
check "usage error (suspend without a host list) exits 2" [ $? = 2 ]
"$NP" -c "$T/good.json" frobnicate >/dev/null 2>"$T/err"
rc=$?
check "unknown subcommand exits 2 naming it" \
	bash -c "[ $rc = 2 ] && grep -q 'unknown subcommand \"frobnicate\"' '$T/err'"
