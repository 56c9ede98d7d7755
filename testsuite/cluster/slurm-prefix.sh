# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# slurm-prefix.sh - which Slurm the cluster lab runs: Debian's packages,
# or a Slurm built from source installed in SLURM_PREFIX (make
# SLURM_TARBALL=... sets it; docs/cluster-lab.7).  Sourced by the cluster
# tool, lib.sh, release-load.sh and test_e2e.sh.  A lab records its prefix
# in etc/lab.env (LAB_SLURM_PREFIX): slurmctld runs Suspend/ResumePrograms
# with only SLURM_CONF set, and they must start that Slurm's slurmd again;
# only the cluster tool reads it back.

# ts_use_slurm_prefix PREFIX - PREFIX's sbin and bin ahead of Debian's on
# PATH (nothing for an empty PREFIX).
ts_use_slurm_prefix()
{
	local p=$1
	[ -n "$p" ] || return 0
	[ -x "$p/sbin/slurmctld" ] || {
		echo "SLURM_PREFIX=$p: no sbin/slurmctld there (a Slurm installed from source; make deps SLURM_TARBALL=...)" >&2
		return 1
	}
	# first on PATH, even when a script put /usr/sbin ahead of it again
	case "$PATH" in "$p/sbin:$p/bin:"*) return 0 ;; esac
	PATH=$p/sbin:$p/bin:$PATH
}

# ts_lab_slurm_prefix DIR - the SLURM_PREFIX the lab in DIR was brought
# up with (empty: Debian's Slurm, or no lab there).
ts_lab_slurm_prefix()
{
	[ -f "$1/etc/lab.env" ] || return 0
	sed -n 's/^LAB_SLURM_PREFIX=//p' "$1/etc/lab.env"
}

# ts_slurm_prefix_init CLUSTER_DIR - PATH for SLURM_PREFIX when it is set
# (even empty: make exports it), else for the lab in CLUSTER_DIR.
ts_slurm_prefix_init()
{
	[ -n "${SLURM_PREFIX+set}" ] || SLURM_PREFIX=$(ts_lab_slurm_prefix "$1")
	ts_use_slurm_prefix "$SLURM_PREFIX"
}
