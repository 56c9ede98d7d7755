#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# node_power_trust.sh TAP_FILE - node_power trusts only what root or
# SlurmUser own (issue 13): its configuration, BMC password files and
# capmc_path, and every directory above them, owned by root or SlurmUser
# and writable by neither group nor others (a directory owned by root
# with the sticky bit, as /tmp, passes); anything else is refused with
# the path and the reason.  Files are given away to nobody (uid 65534)
# and daemon (uid 1) with chown, as root.  Appends TAP lines to TAP_FILE,
# numbered after those already there.
set -u
tap=${1:?usage: node_power_trust.sh TAP_FILE}
build=${BUILD:-build}
NP=$(readlink -f "$build/bin/node_power")
n=$(grep -cE '^(not )?ok ' "$tap" 2>/dev/null)
failed=0

ok() { n=$((n + 1)); echo "ok $n - $1" | tee -a "$tap"; }
not_ok() {
	n=$((n + 1)) failed=$((failed + 1))
	echo "not ok $n - $1" | tee -a "$tap"
	[ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/# /' | tee -a "$tap"
}

if [ "$(id -u)" != 0 ]; then
	not_ok "node_power trust checks run as root (they chown files)" "uid $(id -u)"
	exit 1
fi
T=$(mktemp -d /tmp/np-trust-XXXXXX)
trap 'rm -rf "$T"' EXIT
chmod 755 "$T"
mkdir -p "$T/etc" "$T/bin" "$T/var"
printf 'secret\n' >"$T/etc/bmc.pass"
chmod 600 "$T/etc/bmc.pass"
printf '#!/bin/sh\nexit 0\n' >"$T/bin/capmc"
chmod 755 "$T/bin/capmc"
# a slurm.conf naming no SlurmUser: Slurm's default, root
printf 'ClusterName=trust\n' >"$T/etc/slurm.conf"
export SLURM_CONF=$T/etc/slurm.conf

# config NAME BACKEND - $T/etc/NAME.json (mode 0600) for that backend
config() {
	if [ "$2" = capmc ]; then
		cat >"$T/etc/$1.json" <<END
{ "backend": "capmc", "capmc_path": "$T/bin/capmc", "slurm_check": false,
  "log_file": "$T/var/np.log", "state_file": "$T/var/np.state" }
END
	else
		cat >"$T/etc/$1.json" <<END
{ "backend": "ipmi", "ipmitool_path": "/usr/bin/ipmitool", "slurm_check": false,
  "log_file": "$T/var/np.log", "state_file": "$T/var/np.state",
  "poweroff_eligible": "n1",
  "bmc": { "n1": { "address": "127.0.0.1", "user": "admin",
                   "password_file": "$T/etc/bmc.pass" } } }
END
	fi
	chmod 600 "$T/etc/$1.json"
}

# expect NAME OUTCOME REGEX WHAT - check-config on $T/etc/NAME.json:
# OUTCOME accepted (exit 0) or refused (exit 2, one stderr line matching
# REGEX that names the path).
expect() {
	local name=$1 outcome=$2 re=$3 what=$4 rc lines
	"$NP" -c "$T/etc/$name.json" check-config >"$T/out" 2>"$T/err"
	rc=$?
	lines=$(wc -l <"$T/err")
	if [ "$outcome" = accepted ] && [ "$rc" = 0 ]; then
		ok "node_power accepts $what"
	elif [ "$outcome" = refused ] && [ "$rc" = 2 ] && [ "$lines" = 1 ] &&
	     grep -Eq -- "$re" "$T/err"; then
		ok "node_power refuses $what ($(cat "$T/err"))"
	else
		not_ok "node_power $outcome $what" "exit $rc, $lines lines: $(cat "$T/err" "$T/out")"
	fi
}

if [ -x /usr/bin/ipmitool ]; then
	config good ipmi
	expect good accepted "" "files root owns, mode 0600, under root's directories and sticky /tmp"
fi
config cap capmc
expect cap accepted "" "a capmc_path root owns, mode 0755"

config cfg_nobody capmc
chown nobody "$T/etc/cfg_nobody.json"
expect cfg_nobody refused \
	"$T/etc/cfg_nobody.json: $T/etc/cfg_nobody.json is owned by nobody \\(uid 65534\\), not by root or SlurmUser root \\(uid 0\\)" \
	"a configuration owned by nobody, mode 0600"

if [ -x /usr/bin/ipmitool ]; then
	config pass_nobody ipmi
	chown nobody "$T/etc/bmc.pass"
	expect pass_nobody refused \
		"bmc n1: password_file: $T/etc/bmc.pass is owned by nobody \\(uid 65534\\)" \
		"a password file owned by nobody, mode 0600"
	chown root "$T/etc/bmc.pass"
fi

config capmc_nobody capmc
chown nobody "$T/bin/capmc"
expect capmc_nobody refused \
	"key \"capmc_path\": $T/bin/capmc is owned by nobody \\(uid 65534\\)" \
	"a capmc_path owned by nobody"
chown root "$T/bin/capmc"

chmod 777 "$T/bin/capmc"
expect capmc_nobody refused \
	"key \"capmc_path\": $T/bin/capmc has mode 0777: writable by group or others \\(chmod go-w $T/bin/capmc\\)" \
	"a capmc_path of mode 0777"
chmod 755 "$T/bin/capmc"

chmod 775 "$T/bin"
expect capmc_nobody refused \
	"key \"capmc_path\": directory $T/bin has mode 0775: writable by group or others" \
	"a capmc_path in a group-writable directory"
chmod 755 "$T/bin"

chown daemon "$T/etc"
expect cap refused \
	"$T/etc/cap.json: directory $T/etc is owned by daemon \\(uid 1\\)" \
	"a configuration in a directory owned by daemon"
chown root "$T/etc"

# a link in a trusted directory to a program in an untrusted one
mkdir -p "$T/elsewhere"
cp -p "$T/bin/capmc" "$T/elsewhere/capmc"
chown nobody "$T/elsewhere"
mv "$T/bin/capmc" "$T/bin/capmc.real"
ln -s "$T/elsewhere/capmc" "$T/bin/capmc"
expect cap refused \
	"key \"capmc_path\": directory $T/elsewhere is owned by nobody" \
	"a capmc_path linking into a directory owned by nobody"
rm "$T/bin/capmc"
mv "$T/bin/capmc.real" "$T/bin/capmc"

# a sticky world-writable directory owned by someone else
mkdir -p "$T/sticky"
chmod 1777 "$T/sticky"
chown nobody "$T/sticky"
cp -p "$T/bin/capmc" "$T/sticky/capmc"
sed "s#$T/bin/capmc#$T/sticky/capmc#" "$T/etc/cap.json" >"$T/etc/sticky.json"
chmod 600 "$T/etc/sticky.json"
expect sticky refused "directory $T/sticky is owned by nobody" \
	"a sticky directory not owned by root"

# SlurmUser=nobody in slurm.conf: nobody's files are trusted
printf 'ClusterName=trust\nSlurmUser=nobody  # the slurm account\n' >"$SLURM_CONF"
chown nobody "$T/etc/cfg_nobody.json"
expect cfg_nobody accepted "" "a configuration owned by SlurmUser (nobody, from slurm.conf)"
chown daemon "$T/etc/cfg_nobody.json"
expect cfg_nobody refused \
	"is owned by daemon \\(uid 1\\), not by root or SlurmUser nobody \\(uid 65534\\)" \
	"a configuration owned by daemon when SlurmUser is nobody"

# errors also reach stderr when run by hand, not only the log
printf 'ClusterName=trust\n' >"$SLURM_CONF"
cat >"$T/etc/run.json" <<END
{ "backend": "capmc", "capmc_path": "$T/bin/capmc", "slurm_check": false,
  "power_on_off_enable": true, "poweroff_eligible": "nid0000[1-2]",
  "log_file": "$T/var/np.log", "state_file": "$T/var/np.state" }
END
chmod 600 "$T/etc/run.json"
"$NP" -c "$T/etc/run.json" suspend 'n[1-' >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" != 0 ] && grep -q 'node_power_off;error: ' "$T/err" &&
   grep -q 'node_power_off;error: ' "$T/var/np.log"; then
	ok "node_power run by hand prints its errors on stderr too ($(head -1 "$T/err"))"
else
	not_ok "node_power run by hand prints its errors on stderr too" \
		"exit $rc; stderr: $(cat "$T/err"); log: $(tail -2 "$T/var/np.log")"
fi
[ "$failed" -eq 0 ]
