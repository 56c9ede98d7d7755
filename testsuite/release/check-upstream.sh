#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-upstream.sh BUILD_DIR TARBALL... - make check-upstream: for each
# SchedMD release tarball, build that Slurm (make deps SLURM_TARBALL=,
# contrib/slurm-build.sh; cached in BUILD_DIR/upstream), build treeshare
# against it (make SLURM_TARBALL=) and run the stages that depend on the
# release against its own daemons, clients and priority/multifactor.
#
# UPSTREAM_STAGES: those stages (default: every release-dependent stage;
# .ci/run gives the core: harness sshare-ext-cluster cluster).  While one
# release's stages run (mostly waiting for decay cycles), the next
# release's Slurm builds beside them, niced (UPSTREAM_PREBUILD=0: not).
# Prints each release's build time, each stage's count and time, and as
# the last line "N passed, N failed" summed over every release; a
# release whose Slurm or treeshare does not build counts as one failure.
#
# UPSTREAM_BUILD_ONLY=1 (make upstream-slurm): only build each release's
# Slurm (make deps SLURM_TARBALL=), one after the other, each into
# BUILD_DIR/check/upstream-VERSION.build.log; exit status 1 if one does
# not build.  .ci/run runs it niced beside make check, so that
# check-upstream later finds every Slurm built.
set -u
build=${1:?usage: check-upstream.sh BUILD_DIR TARBALL...}
shift
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
# make check-upstream's own make exports the host's SLURM_SRC, SLURM_PREFIX
# and REF_PLUGINDIR; each release's make must derive them from its
# SLURM_TARBALL instead.
unset SLURM_SRC SLURM_PREFIX REF_PLUGINDIR SLURM_TARBALL
stages=${UPSTREAM_STAGES:-harness sshare-ext-cluster crash-cluster power-e2e cluster}
prebuild=${UPSTREAM_PREBUILD:-1}
[ $# -gt 0 ] || { echo "check-upstream: no release tarball (SLURM_TARBALLS)" >&2; exit 1; }
mkdir -p "$build/check"

# version TARBALL - "25.11.7" of .../slurm-25.11.7.tar.xz
version()
{
	local v
	v=$(basename "$1")
	v=${v#slurm-}
	echo "${v%.tar.*}"
}

if [ "${UPSTREAM_BUILD_ONLY:-0}" = 1 ]; then
	rc=0
	for tb in "$@"; do
		v=$(version "$tb")
		t=$SECONDS
		if SLURM_TARBALL=$tb make --no-print-directory deps \
			>"$build/check/upstream-$v.build.log" 2>&1; then
			echo "upstream-slurm: Slurm $v built in $((SECONDS - t))s"
		else
			echo "upstream-slurm: Slurm $v does not build (log: $build/check/upstream-$v.build.log)"
			rc=1
		fi
	done
	exit "$rc"
fi

passed=0 failed=0
summary=()
args=("$@")
bg=
for i in "${!args[@]}"; do
	tb=${args[$i]}
	v=$(version "$tb")
	log=$build/check/upstream-$v.log
	printf '\n======== Slurm %s (%s) ========\n' "$v" "$tb"
	if [ -n "$bg" ]; then
		echo "check-upstream: waiting for the build of Slurm $v begun beside the previous release's stages"
		wait "$bg"
		bg=
	fi
	t=$SECONDS
	if ! SLURM_TARBALL=$tb make --no-print-directory deps 2>&1 | tee "$log" ||
	   ! SLURM_TARBALL=$tb make --no-print-directory -j"$(nproc)" all >>"$log" 2>&1; then
		tail -20 "$log"
		echo "check-upstream: Slurm $v or treeshare against it does not build (log: $log)"
		summary+=("$(printf '%-9s build FAILED %5ds' "$v" $((SECONDS - t)))")
		failed=$((failed + 1))
		continue
	fi
	t_build=$((SECONDS - t))
	next=$((i + 1))
	if [ "$prebuild" = 1 ] && [ "$next" -lt ${#args[@]} ]; then
		nv=$(version "${args[$next]}")
		SLURM_TARBALL=${args[$next]} nice -n 10 make --no-print-directory deps \
			>"$build/check/upstream-$nv.prebuild.log" 2>&1 &
		bg=$!
	fi
	t=$SECONDS
	# shellcheck disable=SC2086 # one word per stage
	SLURM_TARBALL=$tb bash testsuite/check.sh $stages 2>&1 | tee -a "$log"
	t_stages=$((SECONDS - t))
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1)
	[ -n "$line" ] || line="0 passed, 1 failed"
	read -r p _ f _ <<<"$line"
	passed=$((passed + p)) failed=$((failed + f))
	summary+=("$(printf '%-9s build %4ds, stages %4ds: %s' "$v" "$t_build" "$t_stages" "$line")")
	summary+=("$(sed -n '/^==== summary/,$p' "$log" | grep -E '^[a-z-]+ +[0-9]+ passed' | sed "s/^/  $v /")")
done
[ -z "$bg" ] || wait "$bg"

printf '\n==== check-upstream summary (%s) ====\n' "$stages"
printf '%s\n' "${summary[@]}" | grep .
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
