#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-upstream.sh BUILD_DIR TARBALL... - make check-upstream: for each
# SchedMD release tarball, build that Slurm (make deps SLURM_TARBALL=,
# contrib/slurm-build.sh; cached in BUILD_DIR/upstream), build treeshare
# against it as a site would, with only its configured tree (make
# SLURM_SRC=build/upstream/slurm-VERSION: SLURM_PREFIX is the tree's
# prefix), check with ldd that sshare-ext and node_power load that
# release's libslurm from there (not Debian's), and run the stages that
# depend on the release (make SLURM_TARBALL=, the same tree and prefix:
# nothing rebuilt) against its own daemons, clients and
# priority/multifactor.
#
# Each release gets its own copy of the working tree,
# BUILD_DIR/upstream-trees/VERSION (git-tracked and untracked files, not
# the ignored ones), whose build/upstream is BUILD_DIR/upstream: its own
# build/ (the plugin, the lab directories, the TAP files), the Slurm
# builds shared.  So the releases can run side by side: the CPU-bound
# stages (harness) run one release at a time, and a release's lab stages
# (sshare-ext-cluster crash-cluster power-e2e cluster: mostly waiting for
# decay cycles, each lab on its own free ports) start first and run in
# the background, beside each other (CHECK_BESIDE), beside the same
# release's harness and beside the next release's build, harness and
# labs (UPSTREAM_LABS_BESIDE=0: one release after the other, labs first).
#
# UPSTREAM_STAGES: the stages (default: every release-dependent stage;
# .ci/run: harness sshare-ext-cluster cluster).  While one
# release's stages run, the next release's Slurm builds beside them,
# at nice UPSTREAM_PREBUILD_NICE (default 10; .ci/run 0: the builds are
# its longest path) (UPSTREAM_PREBUILD=0: not).
# Prints each release's build time, each stage's count and time, and as
# the last line "N passed, N failed" summed over every release; a
# release whose Slurm or treeshare does not build counts as one failure.
#
# UPSTREAM_BUILD_ONLY=1 (make upstream-slurm): only build each release's
# Slurm (make deps SLURM_TARBALL=), one after the other (with
# UPSTREAM_BUILD_PARALLEL=1 all at once), each into
# BUILD_DIR/check/upstream-VERSION.build.log; exit status 1 if one does
# not build.  .ci/run runs them all at once beside make check-upstream, whose make deps
# waits for each release's build (contrib/slurm-build.sh's lock) and then
# finds it built.
set -u -o pipefail
build=${1:?usage: check-upstream.sh BUILD_DIR TARBALL...}
shift
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
# make check-upstream's own make exports the host's SLURM_SRC, SLURM_PREFIX
# and REF_PLUGINDIR; each release's make must derive them from its
# SLURM_TARBALL instead.
unset SLURM_SRC SLURM_PREFIX REF_PLUGINDIR SLURM_TARBALL
stages=${UPSTREAM_STAGES:-harness bench-guard sshare-ext-cluster crash-cluster power-e2e cluster}
prebuild=${UPSTREAM_PREBUILD:-1}
beside=${UPSTREAM_LABS_BESIDE:-1}
lab_stage_names=" sshare-ext-cluster crash-cluster power-e2e cluster "
[ $# -gt 0 ] || { echo "check-upstream: no release tarball (SLURM_TARBALLS)" >&2; exit 1; }
mkdir -p "$build/check"
build=$(cd "$build" && pwd)

# version TARBALL - "25.11.7" of .../slurm-25.11.7.tar.xz
version()
{
	local v
	v=$(basename "$1")
	v=${v#slurm-}
	echo "${v%.tar.*}"
}

# build_one TARBALL [NICE] - one release's Slurm (at nice NICE, default
# 0); its line on stdout
build_one()
{
	local v t=$SECONDS
	v=$(version "$1")
	if SLURM_TARBALL=$1 nice -n "${2:-0}" make --no-print-directory deps \
		>"$build/check/upstream-$v.build.log" 2>&1; then
		echo "upstream-slurm: Slurm $v built in $((SECONDS - t))s"
	else
		echo "upstream-slurm: Slurm $v does not build (log: $build/check/upstream-$v.build.log)"
		return 1
	fi
}

if [ "${UPSTREAM_BUILD_ONLY:-0}" = 1 ]; then
	rc=0
	if [ "${UPSTREAM_BUILD_PARALLEL:-0}" = 1 ]; then
		# each in its own build/upstream/slurm-X, inst-X and logs
		# UPSTREAM_BUILD_NICE_STEP=N: the first release at nice 0, each
		# next one N more, so that they are ready one after the other and
		# a check-upstream run beside (.ci/run) starts each release's
		# stages while the next ones still build.
		pids=() n=0
		for tb in "$@"; do
			build_one "$tb" $((n * ${UPSTREAM_BUILD_NICE_STEP:-0})) &
			pids+=($!)
			n=$((n + 1))
		done
		for p in "${pids[@]}"; do
			wait "$p" || rc=1
		done
		exit "$rc"
	fi
	for tb in "$@"; do
		build_one "$tb" || rc=1
	done
	exit "$rc"
fi

cpu_stages=() lab_stages=()
for s in $stages; do
	if [[ $lab_stage_names == *" $s "* ]]; then
		lab_stages+=("$s")
	else
		cpu_stages+=("$s")
	fi
done

# copy_tree DIR - this working tree's files (git-tracked and untracked,
# not ignored; without git, all but build/) in DIR, with DIR/build/upstream
# a link to this tree's Slurm builds
copy_tree()
{
	rm -rf "$1"
	mkdir -p "$1/build"
	if git rev-parse --git-dir >/dev/null 2>&1; then
		git ls-files -z --cached --others --exclude-standard |
			while IFS= read -r -d '' f; do
				[ -e "$f" ] && printf '%s\0' "$f"
			done | tar --null -T - -cf -
	else
		tar --exclude=./build --exclude='./build-*' -cf - .
	fi | tar -C "$1" -xf - || return 1
	mkdir -p "$build/upstream"
	ln -s "$build/upstream" "$1/build/upstream"
}

# stage_lines LOG VERSION - the per-stage lines of check.sh's summary
stage_lines()
{
	sed -n '/^==== summary/,$p' "$1" | grep -E '^[a-z0-9-]+ +[0-9]+ passed' |
		sed "s/^/  $2 /"
}

# count LOG - check.sh's last "N passed, N failed"; a run without one
# counts as one failure
count()
{
	grep -E '^[0-9]+ passed, [0-9]+ failed$' "$1" | tail -1 | grep . ||
		echo "0 passed, 1 failed"
}

# client_link TREE VERSION - TREE's clients, built by "make SLURM_SRC=<the
# release's configured tree>" with no other variable, load that release's
# libslurm from the prefix the tree was configured for (its Makefile's
# "prefix ="), not the one on the default paths (Debian's libslurm-dev);
# one TAP line each
client_link()
{
	local prefix want bin got
	prefix=$(sed -n 's/^prefix = //p' "$1/build/upstream/slurm-$2/Makefile")
	want=$(readlink -f "$prefix/lib/libslurm.so")
	for bin in sshare-ext node_power; do
		got=$(ldd "$1/build/bin/$bin" 2>&1 | awk '$1 ~ /^libslurm\.so/ { print $3 }')
		if [ -n "$prefix" ] && [ -f "$want" ] && [[ $got == "$prefix/lib/"* ]] &&
		   [ "$(readlink -f "$got")" = "$want" ]; then
			echo "ok - $bin built by make SLURM_SRC=build/upstream/slurm-$2 alone loads Slurm $2's libslurm from the tree's prefix: $got"
		else
			echo "not ok - $bin built by make SLURM_SRC=build/upstream/slurm-$2 alone loads Slurm $2's libslurm from $prefix/lib (ldd: '$got')"
		fi
	done
}

passed=0 failed=0
summary=()
args=("$@")
bg=
declare -A lab_pid=() lab_t0=() t_build=() t_cpu=()
done_versions=()
for i in "${!args[@]}"; do
	tb=$(readlink -f "${args[$i]}")
	v=$(version "$tb")
	tree=$build/upstream-trees/$v
	log=$build/check/upstream-$v.log
	printf '\n======== Slurm %s (%s) ========\n' "$v" "$tb"
	if [ -n "$bg" ]; then
		echo "check-upstream: waiting for the build of Slurm $v begun beside the previous release's stages"
		wait "$bg"
		bg=
	fi
	t=$SECONDS
	if ! copy_tree "$tree" ||
	   ! (cd "$tree" && SLURM_TARBALL=$tb make --no-print-directory deps) 2>&1 | tee "$log" ||
	   ! (cd "$tree" && make --no-print-directory -j"$(nproc)" SLURM_SRC="build/upstream/slurm-$v" all) \
		>>"$log" 2>&1; then
		tail -20 "$log"
		echo "check-upstream: Slurm $v or treeshare against it does not build (log: $log)"
		summary+=("$(printf '%-9s build FAILED %5ds' "$v" $((SECONDS - t)))")
		failed=$((failed + 1))
		continue
	fi
	t_build[$v]=$((SECONDS - t))
	client_link "$tree" "$v" | tee -a "$log" >"$log.link"
	p=$(grep -c '^ok ' "$log.link") f=$(grep -c '^not ok ' "$log.link")
	passed=$((passed + p)) failed=$((failed + f))
	summary+=("$(printf '%-9s client link (make SLURM_SRC= alone): %d passed, %d failed' "$v" "$p" "$f")")
	next=$((i + 1))
	if [ "$prebuild" = 1 ] && [ "$next" -lt ${#args[@]} ]; then
		nv=$(version "${args[$next]}")
		SLURM_TARBALL=${args[$next]} nice -n "${UPSTREAM_PREBUILD_NICE:-10}" \
			make --no-print-directory deps \
			>"$build/check/upstream-$nv.prebuild.log" 2>&1 &
		bg=$!
	fi
	# The lab stages start first, in the background, and the harness
	# runs beside them: the labs mostly wait for decay cycles, so the
	# last release's harness is no longer on CI's longest path.  Both
	# makes then find built, with the very variables they are given,
	# all that either would build (check-lab-prereqs, check.sh).
	if ! (cd "$tree" && SLURM_TARBALL=$tb make --no-print-directory -j"$(nproc)" \
		all check-lab-prereqs) >>"$log" 2>&1; then
		echo "check-upstream: Slurm $v: make all check-lab-prereqs failed (log: $log)"
		summary+=("$(printf '%-9s make all check-lab-prereqs FAILED' "$v")")
		failed=$((failed + 1))
	fi
	: >"$log.lab"
	if [ ${#lab_stages[@]} -gt 0 ]; then
		lab_t0[$v]=$SECONDS
		(cd "$tree" && SLURM_TARBALL=$tb CHECK_BESIDE="${lab_stages[*]}" \
			bash testsuite/check.sh "${lab_stages[@]}"
		 echo "check-upstream: lab stages of $v done after $((SECONDS - ${lab_t0[$v]}))s") \
			>"$log.lab" 2>&1 &
		lab_pid[$v]=$!
		if [ "$beside" = 1 ]; then
			echo "check-upstream: Slurm $v: lab stages (${lab_stages[*]}) run in the background (log: $log.lab)"
		else
			wait "${lab_pid[$v]}"
			lab_pid[$v]=waited
		fi
	fi
	t=$SECONDS
	: >"$log.cpu"
	if [ ${#cpu_stages[@]} -gt 0 ]; then
		(cd "$tree" && SLURM_TARBALL=$tb CHECK_BESIDE= bash testsuite/check.sh "${cpu_stages[@]}") 2>&1 |
			tee "$log.cpu"
	fi
	t_cpu[$v]=$((SECONDS - t))
	done_versions+=("$v")
done
[ -z "$bg" ] || wait "$bg"

for v in "${done_versions[@]}"; do
	log=$build/check/upstream-$v.log
	t_lab=0
	if [ -n "${lab_pid[$v]:-}" ]; then
		[ "${lab_pid[$v]}" = waited ] || wait "${lab_pid[$v]}"
		printf '\n======== Slurm %s: lab stages ========\n' "$v"
		cat "$log.lab"
		t_lab=$(sed -n 's/^check-upstream: lab stages of .* done after \([0-9]*\)s$/\1/p' "$log.lab")
	fi
	line="0 passed, 0 failed"
	lines=()
	for part in cpu lab; do
		[ -s "$log.$part" ] || continue
		c=$(count "$log.$part")
		read -r p _ f _ <<<"$c"
		passed=$((passed + p)) failed=$((failed + f))
		read -r lp _ lf _ <<<"$line"
		line="$((lp + p)) passed, $((lf + f)) failed"
		lines+=("$(stage_lines "$log.$part" "$v")")
	done
	cat "$log.cpu" "$log.lab" >>"$log"
	summary+=("$(printf '%-9s build %4ds, harness-type stages %4ds, lab stages %4ds: %s' \
		"$v" "${t_build[$v]}" "${t_cpu[$v]}" "${t_lab:-0}" "$line")")
	summary+=("${lines[@]}")
done

printf '\n==== check-upstream summary (%s) ====\n' "$stages"
printf '%s\n' "${summary[@]}" | grep .
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
