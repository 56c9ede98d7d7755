#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# offline.sh BUILD - stage "sshare-ext": sshare-ext's offline mode on the
# seed 000 trees (testsuite/trees), no Slurm daemon needed.  TAP to
# BUILD/check/sshare-ext.tap.  Expected numbers are seed 000's (PBS
# PP-718) worked examples or hand arithmetic shown next to each test.
set -u
build=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/testsuite/sshare-ext
B=$top/$build/bin/sshare-ext
SEED=$top/testsuite/trees/seed000.tree
PBSFS=$top/testsuite/trees/seed000-pbsfs.tree
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TAP_FILE=$top/$build/check/sshare-ext.tap
mkdir -p "$(dirname "$TAP_FILE")"
rm -f "$TAP_FILE"
# shellcheck source=../cluster/tap.sh
. "$top/testsuite/cluster/tap.sh"

# check NAME CMD... - ok if CMD succeeds, else not_ok with its output.
check()
{
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$name"
	else
		not_ok "$name" "$out"
	fi
}

# cell FILE USER COLUMN - a cell of a "-P -o User,..." output, by header.
cell()
{
	awk -F'|' -v u="$2" -v c="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$1 == u || ($1 ~ "^ *" u "$") { print $(col[c]); exit }' "$1"
}

# expect WHAT GOT WANT
expect()
{
	[ "$2" = "$3" ] && return 0
	echo "$1: got '$2', want '$3'"
	return 1
}

for f in "$B" "$SEED" "$PBSFS"; do
	[ -e "$f" ] || { not_ok "fixture $f exists"; exit 1; }
done

# --- seed 000 (PP-718) worked example -------------------------------
# Bob:  100/1200 + (200/1200 - 100/1200) * 50/100 = 0.125,
#       2^-(0.125/0.2) = 0.648420
# Suzy: 0 + (1000/1200 - 0) * 60/100 = 0.5, 2^-(0.5/0.36) = 0.381859
t_pbs_columns()
{
	"$B" --input "$SEED" -P -o User,TreeUsage,Perc,PBSFactor \
		>"$tmp/pbs" || return 1
	expect "bob TreeUsage" "$(cell "$tmp/pbs" bob TreeUsage)" 0.125000 &&
	expect "bob Perc" "$(cell "$tmp/pbs" bob Perc)" 0.200000 &&
	expect "bob PBSFactor" "$(cell "$tmp/pbs" bob PBSFactor)" 0.648420 &&
	expect "suzy TreeUsage" "$(cell "$tmp/pbs" suzy TreeUsage)" 0.500000 &&
	expect "suzy Perc" "$(cell "$tmp/pbs" suzy Perc)" 0.360000 &&
	expect "suzy PBSFactor" "$(cell "$tmp/pbs" suzy PBSFactor)" 0.381859
}
check "seed000: Bob 0.125 / 0.648 and Suzy 0.5 / 0.382 in TreeUsage / PBSFactor" \
	t_pbs_columns

# pbsfs -g scott, seed 000: the lines PBS prints, ids aside.
t_path_view()
{
	"$B" --input "$PBSFS" -g scott >"$tmp/g" || return 1
	local want line
	while IFS= read -r want; do
		grep -qxE "$want" "$tmp/g" || { echo "no line /$want/"; cat "$tmp/g"; return 1; }
	done <<'LINES'
fairshare entity: scott
Shares					: 40
Percentage				: 24\.000000%
fairshare_tree_usage	: 0\.832973
usage					: 1000 \(RawUsage\)
usage/perc				: 4167
TREEROOT  : +[0-9]+       1201 / 1\.000 = 1201
group2    : +[0-9]+       1001 / 0\.600 = 1668
scott     : +[0-9]+       1000 / 0\.240 = 4167
LINES
	line=$(grep -n '^Path from root: $' "$tmp/g" | cut -d: -f1)
	expect "path order" "$(sed -n "$((line + 1)),\$p" "$tmp/g" | cut -c1-8 | tr -d ' ' | tr '\n' ,)" "TREEROOT,group2,scott,"
}
check "seed000: -g scott shows tree usage 0.832973 and the path 1201/1668/4167" \
	t_path_view

# -g prints usage as sshare prints RawUsage: Slurm truncates the long
# double (consumed usage is fractional CPU-seconds), so scott's 999.7
# reads 999 in -g's usage and path lines and in the table, never 1000.
t_path_usage_truncated()
{
	"$B" --input "$SEED" --usage scott@group2=999.7 -g scott >"$tmp/gt" &&
		"$B" --input "$SEED" --usage scott@group2=999.7 -P \
			-o Account,User,RawUsage >"$tmp/gtt" || return 1
	expect "table RawUsage" "$(grep '|scott|' "$tmp/gtt" | cut -d'|' -f3)" 999 &&
	expect "-g usage" "$(sed -n 's/^usage\t*: \([0-9]*\) (RawUsage)$/\1/p' "$tmp/gt")" 999 &&
	expect "-g path" "$(awk '$1 == "scott" { print $4 }' "$tmp/gt")" 999
}
check "-g shows a fractional usage (999.7) truncated as sshare's RawUsage: 999 in usage, path and table" \
	t_path_usage_truncated

# The Account column as sshare indents it, rows in Slurm's order (users
# by name: scott before suzy, though the file lists suzy first).
t_indentation()
{
	"$B" --input "$SEED" -P -o Account,User >"$tmp/ind" || return 1
	diff -u - "$tmp/ind" <<'ROWS'
Account|User
root|
 group1|
  group1|bob
  group1|cathy
 group2|
  group2|scott
  group2|suzy
ROWS
}
check "account tree indented and ordered as sshare does" t_indentation

# Fair Tree (seed 004) on seed 000: group1 LF 0.4/(200/1200) = 2.4 beats
# group2 0.6/(1000/1200) = 0.72; bob and cathy tie (rank 4 of 4); suzy
# (no usage, LF inf) before scott: FairShare 1, 1, 0.5, 0.25.
t_fair_tree()
{
	"$B" --input "$SEED" -l -P >"$tmp/ft" || return 1
	"$B" --input "$SEED" -P -o User,FairShare,LevelFS,Rank,FairTreeFS \
		>"$tmp/ft2" || return 1
	expect "bob" "$(grep '^bob|' "$tmp/ft2")" "bob|1.000000|1.000000|4|1.000000" &&
	expect "cathy" "$(grep '^cathy|' "$tmp/ft2")" "cathy|1.000000|1.000000|4|1.000000" &&
	expect "suzy" "$(grep '^suzy|' "$tmp/ft2")" "suzy|0.500000|inf|2|0.500000" &&
	expect "scott" "$(grep '^scott|' "$tmp/ft2")" "scott|0.250000|0.400000|1|0.250000" &&
	expect "group1 LevelFS" "$(grep '^ group1||' "$tmp/ft" | cut -d'|' -f9)" 2.400000 &&
	expect "group2 FairShare blank" "$(grep '^ group2||' "$tmp/ft" | cut -d'|' -f8)" ""
}
check "fair tree: LevelFS 2.4 / 0.72, ranks 4 4 2 1, accounts' FairShare blank" \
	t_fair_tree

# --- what-if ----------------------------------------------------------
# scott 40 -> 90 shares: Perc 0.6 * 90/150 = 0.36, suzy 0.6 * 60/150 =
# 0.24; more target, same usage: scott's PBSFactor rises.  Suzy's tree
# usage falls to 1000/1200 * 60/150 = 0.333333, in step with her Perc, so
# her factor stays 2^-(0.333333/0.24) = 0.381859.
t_set_shares()
{
	"$B" --input "$SEED" -P -o User,Perc,PBSFactor >"$tmp/b" &&
	"$B" --input "$SEED" -P -o User,Perc,TreeUsage,PBSFactor \
		--set scott@group2=90 >"$tmp/w" || return 1
	expect "scott Perc" "$(cell "$tmp/w" scott Perc)" 0.360000 &&
	expect "suzy Perc" "$(cell "$tmp/w" suzy Perc)" 0.240000 &&
	expect "suzy TreeUsage" "$(cell "$tmp/w" suzy TreeUsage)" 0.333333 &&
	expect "suzy PBSFactor" "$(cell "$tmp/w" suzy PBSFactor)" 0.381859 &&
	awk -v a="$(cell "$tmp/b" scott PBSFactor)" \
	    -v b="$(cell "$tmp/w" scott PBSFactor)" 'BEGIN { exit !(b > a) }' ||
		{ echo "scott's PBSFactor did not rise"; return 1; }
}
check "--set scott@group2=90 moves Perc to 0.36/0.24, scott's PBSFactor up" \
	t_set_shares

# bob 100 -> 500: group1 600, root 1600 (ancestors follow); cathy's tree
# usage rises with her group's: 100/1600 + (600/1600 - 100/1600) * 0.5 =
# 0.21875; bob's factor falls.
t_set_usage()
{
	"$B" --input "$SEED" -P -o Account,User,RawUsage,TreeUsage,PBSFactor \
		--usage bob@group1=500 >"$tmp/u" || return 1
	expect "group1 RawUsage" "$(grep '^ group1||' "$tmp/u" | cut -d'|' -f3)" 600 &&
	expect "root RawUsage" "$(grep '^root||' "$tmp/u" | cut -d'|' -f3)" 1600 &&
	expect "cathy TreeUsage" "$(grep '|cathy|' "$tmp/u" | cut -d'|' -f4)" 0.218750 &&
	expect "bob PBSFactor" "$(grep '|bob|' "$tmp/u" | cut -d'|' -f5)" \
		"$(awk 'BEGIN { printf "%.6f", 2 ^ -((500/1600 + (600/1600 - 500/1600) * 0.5) / 0.2) }')"
}
check "--usage bob@group1=500 raises group1 to 600, root to 1600, cathy's tree usage" \
	t_set_usage

t_usage_below_children()
{
	local out rc
	out=$("$B" --input "$SEED" --usage group1=150 2>&1 >/dev/null)
	rc=$?
	expect "exit" "$rc" 1 &&
	expect "message" "$out" \
		"sshare-ext: error: --usage group1=150: below its children's usage 200"
}
check "--usage below an account's children's sum is refused" t_usage_below_children

t_set_parent()
{
	"$B" --input "$SEED" -l -P --set group1=parent >"$tmp/p" || return 1
	expect "RawShares" "$(grep '^ group1||' "$tmp/p" | cut -d'|' -f3)" parent &&
	expect "LevelFS blank" "$(grep '^ group1||' "$tmp/p" | cut -d'|' -f9)" ""
}
check "--set group1=parent prints 'parent' and a blank LevelFS, as sshare" t_set_parent

# --- JSON against the text view ---------------------------------------
t_json()
{
	"$B" --input "$SEED" -l -P >"$tmp/text" &&
	"$B" --input "$SEED" -l --json >"$tmp/json" || return 1
	python3 "$here/json_matches_text.py" "$tmp/text" "$tmp/json"
}
check "--json parses and equals the -l -P text view cell by cell" t_json

# --- reading saved sshare output --------------------------------------
t_roundtrip()
{
	local algo
	for algo in fair_tree classic; do
		"$B" --input "$SEED" --algo $algo -l -P >"$tmp/saved.$algo" &&
		"$B" --input "$tmp/saved.$algo" -l -P >"$tmp/again.$algo" ||
			return 1
		diff -u "$tmp/saved.$algo" "$tmp/again.$algo" || return 1
		# blanks stripped: the hierarchy is inferred, same result
		sed 's/^ *//' "$tmp/saved.$algo" >"$tmp/flat.$algo"
		"$B" --input "$tmp/flat.$algo" -l -P | diff -u "$tmp/saved.$algo" - ||
			return 1
	done
}
check "saved sshare -l -P output reads back to the same view (indented and stripped)" \
	t_roundtrip

# --- algorithms side by side ----------------------------------------
# Classic: FairShare = 2^(-(EffectvUsage/NormShares)/damp) for every row,
# what ClassicFS shows; damp 2 takes its square root.  The printed inputs
# are rounded to 6 decimals, hence the tolerance.
t_classic()
{
	"$B" --input "$SEED" --algo classic -P -o User,FairShare,ClassicFS,EffectvUsage,NormShares >"$tmp/c1" &&
	"$B" --input "$SEED" --algo classic --damp 2 -P -o User,FairShare,ClassicFS >"$tmp/c2" || return 1
	awk -F'|' 'NR > 1 && $2 != $3 { print "row " NR ": FairShare " $2 " != ClassicFS " $3; bad = 1 }
		   NR > 1 && $5 > 0 && (2 ^ -($4 / $5) - $2)^2 > 4e-12 { print "row " NR ": " $2 " is not 2^-(" $4 "/" $5 ")"; bad = 1 }
		   END { exit bad }' "$tmp/c1" || return 1
	paste -d'|' "$tmp/c1" "$tmp/c2" | awk -F'|' 'NR > 1 && (sqrt($2) - $7)^2 > 4e-12 {
		print "row " NR ": damp 2 gives " $7 ", sqrt(" $2 ") expected"; bad = 1 } END { exit bad }'
}
check "classic: FairShare = ClassicFS = 2^-(EffectvUsage/NormShares), damp 2 its square root" \
	t_classic

# --damp is read as the files' numbers are (decimal.h): "2." is 2, while
# hex, a blank, an exponent or a fraction is refused by name.
t_damp_reader()
{
	local a
	"$B" --input "$SEED" --algo classic --damp 2. -P -o User,FairShare >"$tmp/d2" &&
		"$B" --input "$SEED" --algo classic --damp 2 -P -o User,FairShare |
		cmp -s - "$tmp/d2" || return 1
	for a in 0x10 " 5" 1e3 2.5 0; do
		"$B" --input "$SEED" --damp "$a" >/dev/null 2>"$tmp/de" && return 1
		grep -qF -- "--damp \"$a\" is not an integer 1..65535" "$tmp/de" ||
			{ cat "$tmp/de"; return 1; }
	done
}
check "--damp takes 2. as 2 and refuses 0x10, \" 5\", 1e3, 2.5 and 0 by name" t_damp_reader

t_pbs_algo()
{
	"$B" --input "$SEED" --algo pbs -P -o Account,User,FairShare,PBSFactor >"$tmp/pb" || return 1
	awk -F'|' 'NR > 1 && $3 != $4 { print; bad = 1 } END { exit bad }' "$tmp/pb"
}
check "--algo pbs: FairShare is the PBS factor on every row" t_pbs_algo

t_fair_tree_rank()
{
	"$B" --input "$SEED" -P -o User,Rank,FairTreeFS >"$tmp/r" || return 1
	awk -F'|' 'NR > 1 && $1 != "" && sprintf("%.6f", $2 / 4) != $3 { print; bad = 1 } END { exit bad }' "$tmp/r"
}
check "FairTreeFS = Rank / 4 users" t_fair_tree_rank

# --- --tree -------------------------------------------------------------
t_tree_view()
{
	"$B" --input "$SEED" --tree >"$tmp/tree" || return 1
	awk 'length($0) > 80 { print "line " NR " is " length($0) " columns"; bad = 1 } END { exit bad }' "$tmp/tree" || return 1
	# scott: 1000/1200 = 83.3% of a 24% target, over 2x: '>'
	grep -qE '^    scott +\[#{15}\|#{14}>\]  83\.3% of  24\.0%$' "$tmp/tree" ||
		{ echo "scott's bar"; cat "$tmp/tree"; return 1; }
	grep -qE '^    suzy +\[\.{15}\|\.{15}\]   0\.0% of  36\.0%$' "$tmp/tree" ||
		{ echo "suzy's bar"; cat "$tmp/tree"; return 1; }
	# bob: 100/1200 = 8.3% of 20%: 0.4167 * 15 = 6 cells
	grep -qE '^    bob +\[#{6}\.{9}\|\.{15}\]   8\.3% of  20\.0%$' "$tmp/tree"
}
check "--tree fits 80 columns, bars at usage/target (bob 6 cells, scott over 2x)" \
	t_tree_view

# --- filters, formats -------------------------------------------------
t_filters()
{
	expect "-u bob" "$("$B" --input "$SEED" -P -n -u bob -o Account,User | tr '\n' ,)" \
		"root|, group1|,  group1|bob, group2|," &&
	expect "-A group2" "$("$B" --input "$SEED" -P -n -A GROUP2 -o Account,User | tr '\n' ,)" \
		"group2|, group2|scott, group2|suzy," &&
	expect "-U" "$("$B" --input "$SEED" -P -n -U -o Account,User | tr '\n' ,)" \
		"group1|bob,group1|cathy,group2|scott,group2|suzy,"
}
check "-u, -A (any case) and -U select rows as the controller does" t_filters

t_format()
{
	# sshare: repeated items move last, NAME%LEN sets the width (the
	# header is cut to it too), prefixes name the first field that fits
	expect "header" "$("$B" --input "$SEED" -o User%-6,Raw%4,user%-6 -u bob | head -1)" \
		"RawS User   " &&
	expect "-p" "$("$B" --input "$SEED" -p -o Perc,PBS -u bob | sed -n 4p)" \
		"0.200000|0.648420|" &&
	# LevelFS 0.4 in 5 columns: "%5f" is too wide, "%5.5e" is 11, so
	# sshare prints "%*.*e" with width and precision 5 - 6 = -1: printf
	# then left-justifies and uses the default precision.
	expect "wide double" "$("$B" --input "$SEED" -n -o RawUsage%3,LevelFS%5 -U | sed -n 3p)" \
		"1000 4.000000e-01 "
}
check "--format: repeats move last, %LEN widths, -p trailing bar, %e when too narrow" \
	t_format

# --- errors: one line on stderr, exit 1 --------------------------------
# one_error WANT CMD... - CMD fails with status 1 and stderr = WANT.
one_error()
{
	local want=$1 out rc
	shift
	out=$("$@" 2>&1 >/dev/null)
	rc=$?
	expect "exit status of $*" "$rc" 1 && expect "stderr of $*" "$out" "$want"
}

t_errors()
{
	printf 'account a root 1\nuser u a 1\nuser v b 2\n' >"$tmp/bad.tree"
	one_error 'sshare-ext: error: unknown option "--bogus" (see sshare-ext --help)' \
		"$B" --bogus &&
	one_error 'sshare-ext: error: unknown option "-z" (see sshare-ext --help)' \
		"$B" -z &&
	one_error 'sshare-ext: error: option -o needs an argument' "$B" -o &&
	one_error 'sshare-ext: error: Invalid field requested: "nosuch"' \
		"$B" --input "$SEED" -o User,NoSuch &&
	one_error "sshare-ext: error: $tmp/bad.tree: line 3: parent \"b\" is not an account defined above" \
		"$B" --input "$tmp/bad.tree" &&
	one_error "sshare-ext: error: cannot read $tmp/none: No such file or directory" \
		"$B" --input "$tmp/none" &&
	one_error 'sshare-ext: error: --set nobody=3: no such account or user' \
		"$B" --input "$SEED" --set nobody=3 &&
	one_error 'sshare-ext: error: --algo "fast" is not classic, depth_oblivious, fair_tree or pbs' \
		"$B" --input "$SEED" --algo fast &&
	one_error 'sshare-ext: error: -g nobody: no such account or user' \
		"$B" --input "$SEED" -g nobody &&
	one_error 'sshare-ext: error: -M asks slurmdbd for clusters; --input reads a file: give one of them' \
		"$B" --input "$SEED" -M tslab &&
	SLURM_CONF=$tmp/none one_error \
		"sshare-ext: error: cannot read SLURM_CONF=$tmp/none: No such file or directory" "$B"
}
check "errors: one line on stderr and exit 1 (option, field, file line, name, config)" \
	t_errors

# Hostile files: each is refused in every view with its own one-line
# error naming the line, never a crash.  (Each cause in a file of its
# own: a file with several shows only the first.)
t_hostile()
{
	local i want view
	printf 'account a root 99999999999999999999\n' >"$tmp/h1"
	printf 'user u root 1 1e4000\n' >"$tmp/h2"
	printf 'Account|User|RawShares|RawUsage\nroot|||18446744073709551615\n u|x|parent|99\n' >"$tmp/h3"
	awk 'BEGIN { print "account a1 root 1"; for (i = 2; i <= 1001; i++) print "account a" i " a" i - 1 " 1" }' >"$tmp/h4"
	printf 'root 5\n\000account a root 1\n' >"$tmp/h5"
	awk 'BEGIN { printf "Account"; for (i = 0; i < 100; i++) printf "|User"; print "" }' >"$tmp/h6"
	while read -r i want; do
		for view in "-l" "--json" "--tree" "-g x"; do
			# shellcheck disable=SC2086
			one_error "sshare-ext: error: $tmp/h$i: $want" \
				timeout 20 "$B" --input "$tmp/h$i" $view || return 1
		done
	done <<'WANT'
1 line 1: SHARES "99999999999999999999" is not an integer 0..2147483646 or parent
2 line 1: USAGE "1e4000" is not a number 0..1.8e308
3 line 3: user "x" of account "u" is indented under "root"
4 line 1001: deeper than 1000 levels
5 line 2: NUL byte in the text
6 line 1: 101 header fields, at most 64
WANT
}
check "hostile input files: refused with the line and the reason, every view" \
	t_hostile

# Random bytes (the fuzz target's ground, in small): exit 0 or 1, never a
# signal, and an error is one line.
t_random()
{
	local i out rc
	for i in 1 2 3; do
		head -c 65536 /dev/urandom >"$tmp/r$i"
		[ "$i" = 2 ] && tr '\000' '|' <"$tmp/r1" >"$tmp/r$i"
		[ "$i" = 3 ] && { echo 'Account|User|RawShares|RawUsage'; head -c 4096 /dev/urandom | tr -d '\000'; } >"$tmp/r$i"
		out=$(timeout 20 "$B" --input "$tmp/r$i" -l 2>&1 >/dev/null)
		rc=$?
		[ "$rc" -le 1 ] || { echo "r$i: exit $rc"; return 1; }
		if [ "$rc" = 1 ] && { [ "$(printf '%s\n' "$out" | wc -l)" != 1 ] ||
			[[ $out != "sshare-ext: error: "* ]]; }; then
			echo "r$i: stderr '$out'"; return 1
		fi
	done
}
check "random bytes: exit 0 or 1, never a signal; an error is one line" t_random

# A 200000-byte user name is merely long: read and printed whole.
t_long_name()
{
	local name
	name=$(awk 'BEGIN { for (i = 0; i < 200000; i++) printf "x" }')
	echo "user $name root 1 5" >"$tmp/long"
	[ "$("$B" --input "$tmp/long" -P -n -U -o User,RawUsage)" = "$name|5" ] ||
		{ echo "the long name's row differs"; return 1; }
}
check "a 200000-byte user name is read and printed whole" t_long_name

# Usage sums past what a usage line may give (1.8e308): refused with the
# line, not printed as inf or a clamped number (issue 13).
t_overflow()
{
	local out
	printf 'account a root 1\nuser u1 a 1 1.7e308\nuser u2 a 1 1.7e308\n' \
		>"$tmp/ovf"
	out=$("$B" --input "$tmp/ovf" 2>&1)
	[ $? = 1 ] && [ "$out" = 'sshare-ext: error: '"$tmp/ovf"': line 1: usage of account "a" adds up to 3.4e+308, above 1.8e308 (the largest usage a line may give)' ] ||
		{ echo "file sum: $out"; return 1; }
	out=$("$B" --input "$SEED" --usage bob@group1=1.7e308 \
		--usage cathy@group1=1.7e308 2>&1)
	[ $? = 1 ] && [ "$out" = "sshare-ext: error: --usage cathy@group1=1.7e308: group1's usage would add up to 3.4e+308, above 1.8e308" ] ||
		{ echo "what-if sum: $out"; return 1; }
	# an account name of 300 bytes is named whole (it was cut at 160)
	local long
	long=$(printf 'a%.0s' {1..300})
	printf 'account %s root 1\nuser u1 %s 1 1.7e308\nuser u2 %s 1 1\n' \
		"$long" "$long" "$long" >"$tmp/ovf-long"
	out=$("$B" --input "$tmp/ovf-long" --usage "u2@$long=1.7e308" 2>&1)
	[ $? = 1 ] && [ "$out" = "sshare-ext: error: --usage u2@$long=1.7e308: $long's usage would add up to 3.4e+308, above 1.8e308" ] ||
		{ echo "what-if, long name: $out"; return 1; }
}
check "usage sums above 1.8e308 are refused naming the line or the --usage" t_overflow

# --- fscap= feasibility caps (--targets) ----------------------------
# seed 000: group2 1000 of 1200 = 83.33% >= 80%: group2, scott and suzy
# capped by group2; bob's own 100 >= 100 (absolute); cathy@group1 8.33%
# < 50%; group1 and the root not capped.
t_caps()
{
	printf 'account group2 fscap=80%%\nuser bob fscap=100\nuser cathy@group1 fscap=50%%\n' \
		>"$tmp/caps"
	"$B" --input "$SEED" --targets "$tmp/caps" -a -P \
		-o User,FSCap,CapUsage,CappedBy >"$tmp/capcols" || return 1
	expect "group2 row" "$(grep -m1 '^|80.00%|' "$tmp/capcols")" \
		"|80.00%|83.33%|group2" &&
	expect "scott CappedBy" "$(cell "$tmp/capcols" scott CappedBy)" group2 &&
	expect "suzy CappedBy" "$(cell "$tmp/capcols" suzy CappedBy)" group2 &&
	expect "suzy FSCap" "$(cell "$tmp/capcols" suzy FSCap)" "" &&
	expect "bob FSCap" "$(cell "$tmp/capcols" bob FSCap)" 100 &&
	expect "bob CapUsage" "$(cell "$tmp/capcols" bob CapUsage)" 100 &&
	expect "bob CappedBy" "$(cell "$tmp/capcols" bob CappedBy)" bob@group1 &&
	expect "cathy CapUsage" "$(cell "$tmp/capcols" cathy CapUsage)" 8.33% &&
	expect "cathy CappedBy" "$(cell "$tmp/capcols" cathy CappedBy)" no &&
	expect "uncapped rows" "$(grep -c '|no$' "$tmp/capcols")" 3 || return 1
	"$B" --input "$SEED" --targets "$tmp/caps" -l -P >"$tmp/capl" &&
	head -n 1 "$tmp/capl" | grep -q '|FSCap|CapUsage|CappedBy$' ||
		{ echo "-l with --targets: $(head -n 1 "$tmp/capl")"; return 1; }
	"$B" --input "$SEED" --targets "$tmp/caps" -g scott >"$tmp/capg" &&
	grep -qxF "$(printf 'fscap\t\t\t\t\t: none')" "$tmp/capg" &&
	grep -qxF "$(printf 'capped by\t\t\t\t: group2')" "$tmp/capg" ||
		{ echo "-g scott:"; cat "$tmp/capg"; return 1; }
	"$B" --input "$SEED" --targets "$tmp/caps" -g bob >"$tmp/capg" &&
	grep -qxF "$(printf 'fscap usage\t\t\t\t: 100')" "$tmp/capg" ||
		{ echo "-g bob:"; cat "$tmp/capg"; return 1; }
	printf 'account group2 20 fscap=8x\n' >"$tmp/badcaps"
	one_error "sshare-ext: error: --targets $tmp/badcaps: line 1 column 19: fscap '8x' is not an amount of usage (N) or a percentage (N%)" \
		"$B" --input "$SEED" --targets "$tmp/badcaps"
}
check "seed000 with fscap=: FSCap, CapUsage, CappedBy for every association, -l and -g show them, a bad cap named by line and column" t_caps

t_help()
{
	"$B" --help | grep -q -- '--input=FILE' &&
	"$B" --usage | grep -q -- '--input=FILE' &&
	"$B" -V | grep -q '^sshare-ext' &&
	[ "$("$B" -e | tr -s ' \n' '\n\n' | grep -c .)" = 25 ] ||
		{ echo "help/usage/version/helpformat"; return 1; }
}
check "--help, --usage, -V and -e (25 fields) exit 0" t_help

# --- ts-replay's --every and its resource line (issue 30) ------------
# Two days of a small generated site (replay_workload.sh: 3 accounts of
# 4 users, 2000 jobs; 16 rows with the root) under its Fair Tree conf,
# cycles 1 to 576: the rows of --every 1d
# are exactly the full output's rows of cycles 288 and 576 (a 5-minute
# period), byte for byte; a length that is not whole cycles is refused
# naming the period; the summary ends with the CPU seconds and peak RSS.
t_replay_every()
{
	local R=$top/$build/bin/ts-replay w=$tmp/replay
	local span=(--start 2026-11-01T00:00:00 --end 2026-11-03T00:00:00)
	bash "$top/testsuite/bench/replay_workload.sh" "$w" 2000 3 4 2 ||
		return 1
	TZ=UTC "$R" -c "$w/slurm.conf" -t "$w/site.tree" -j "$w/jobs.sacct" \
		"${span[@]}" >"$w/all.csv" 2>"$w/all.err" &&
	TZ=UTC "$R" -c "$w/slurm.conf" -t "$w/site.tree" -j "$w/jobs.sacct" \
		"${span[@]}" --every 1d >"$w/day.csv" 2>"$w/day.err" ||
		{ cat "$w/all.err" "$w/day.err"; return 1; }
	awk -F, 'NR == 1 || $2 % 288 == 0' "$w/all.csv" >"$w/want.csv"
	expect "rows of --every 1d" "$(wc -l <"$w/day.csv")" 33 &&
	cmp "$w/want.csv" "$w/day.csv" &&
	expect "cycles" "$(grep -c ',576,' "$w/day.csv")" 16 || return 1
	one_error "ts-replay: error: --every \"7m\" is not a whole number of cycles of PriorityCalcPeriod 00:05:00" \
		env TZ=UTC "$R" -c "$w/slurm.conf" -t "$w/site.tree" \
		-j "$w/jobs.sacct" --every 7m || return 1
	tail -n 1 "$w/day.err" |
		grep -Eq '^ts-replay: [0-9]+\.[0-9]{2} s of CPU \([0-9.]+ user, [0-9.]+ system\), peak RSS [1-9][0-9]*\.[0-9] MB$' ||
		{ echo "resource line: $(tail -n 1 "$w/day.err")"; return 1; }
}
check "ts-replay --every 1d prints exactly the daily cycles' rows, refuses a length that is not whole cycles, reports CPU and peak RSS" t_replay_every

# --- ts-replay --compare: swapped pairs worked by hand (issue 30) ----
# Seed 000's tree.  bob and scott run 1 CPU each from T0; each of the
# four users has a job pending from T0 (jobs 10-13, starting an hour
# later).  PriorityWeightFairshare=1000, a cycle every 5 minutes, two
# samples.  At T0+5m classic has no usage yet: the four tie at 1000.  At
# T0+10m group1 and group2 have used alike; classic (EffectvUsage bob
# 0.5, cathy 0.25, scott 0.5, suzy 0.3 over NormShares 0.2, 0.2, 0.24,
# 0.36) gives 176, 420, 235, 561; Fair Tree (group2 first: ranks suzy 4,
# scott 3, cathy 2, bob 1) 250, 500, 750, 1000.  One pair of six swaps:
# cathy's job 11 ahead of scott's 12 under classic, behind under Fair
# Tree; tau-b = (5 - 1) / 6.  Test vectors as in test_replay_compare.c.
t_replay_compare()
{
	local R=$top/$build/bin/ts-replay w=$tmp/compare
	mkdir -p "$w"
	printf '%s\n' 'JobID|User|Account|Eligible|Start|End|AllocCPUS' \
		'1|bob|group1||2026-11-01T00:00:00||1' \
		'2|scott|group2||2026-11-01T00:00:00||1' \
		'10|bob|group1|2026-11-01T00:00:00|2026-11-01T01:00:00||1' \
		'11|cathy|group1|2026-11-01T00:00:00|2026-11-01T01:00:00||1' \
		'12|scott|group2|2026-11-01T00:00:00|2026-11-01T01:00:00||1' \
		'13|suzy|group2|2026-11-01T00:00:00|2026-11-01T01:00:00||1' \
		>"$w/jobs.sacct"
	printf 'PriorityCalcPeriod=5\nPriorityDecayHalfLife=60\nPriorityWeightFairshare=1000\n' \
		>"$w/fair_tree.conf"
	{ cat "$w/fair_tree.conf"; echo PriorityFlags=NO_FAIR_TREE; } \
		>"$w/classic.conf"
	TZ=UTC "$R" -c "$w/classic.conf" -c "$w/fair_tree.conf" -t "$SEED" \
		-j "$w/jobs.sacct" --start 2026-11-01T00:00:00 \
		--end 2026-11-01T00:10:00 --compare "$w/out" --swapped \
		>"$w/summary" 2>"$w/err" || { cat "$w/err"; return 1; }
	expect "pairs.csv" "$(tail -n +2 "$w/out/pairs.csv")" \
		"2026-11-01T00:05:00,fair_tree,4,6,0,0,6,0,
2026-11-01T00:10:00,fair_tree,4,6,1,5,0,0,0.6666666666666666" &&
	expect "swapped.csv" "$(tail -n +2 "$w/out/swapped.csv")" \
		"2026-11-01T00:10:00,fair_tree,11,12,420,235,500,750" &&
	expect "bob in fairshare.csv" \
		"$(grep -c '^2026-11-01T00:10:00,group1,bob,0.17677669529663' "$w/out/fairshare.csv")" 1 &&
	expect "movers" "$(sed -n 1p "$w/out/movers.csv")" \
		"Account,User,Mean.classic,Mean.fair_tree,MeanChange.fair_tree,MaxGain.fair_tree,MaxLoss.fair_tree" &&
	expect "the jobs in no order" \
		"$(grep -c '; 2 jobs without Eligible are in no pending order$' "$w/err")" 1 &&
	grep -q "1 swapped (8.33 %); Kendall's tau-b 0.6667 on average over 1 samples" "$w/summary" &&
	expect "panels" "$(grep -c '<rect x=' "$w/out/movers.svg")" 4 || return 1
	one_error "ts-replay: error: --compare needs two or more -c" \
		"$R" -c "$w/classic.conf" -t "$SEED" -j "$w/jobs.sacct" \
		--compare "$w/out" || return 1
	one_error "ts-replay: error: several -c need --compare DIR" \
		"$R" -c "$w/classic.conf" -c "$w/fair_tree.conf" -t "$SEED" \
		-j "$w/jobs.sacct" || return 1
	sed 's/=5$/=10/' "$w/fair_tree.conf" >"$w/ten.conf"
	one_error "ts-replay: error: configuration 2: the sample length 300 s is not a whole number of its PriorityCalcPeriod 600 s" \
		env TZ=UTC "$R" -c "$w/classic.conf" -c "$w/ten.conf" \
		-t "$SEED" -j "$w/jobs.sacct" --compare "$w/out" --every 5m
}
check "ts-replay --compare: classic against Fair Tree on seed 000, swapped pairs and tau-b as worked by hand, the report's files, bad combinations refused" t_replay_compare

# --- ts-replay --cycles: the plugin's cycle times (issue 30) ---------
# bob runs 2 CPUs from 00:00:00; cycles at 00:00:00, 00:01:01, 00:02:00
# (a wake-up a second late), read from a slurmctld log (other lines and
# a commit logged twice ignored) or a bare list: the same rows, at those
# times; bob's RawUsage at 00:02:00 is 2 x 61 s then 2 x 59 s, each
# decayed over its own interval (a one-minute half-life:
# d = 1 - 0.693/60, usage = (122 d^61) d^59 + 118 d^59).  A time before
# the one above is refused with its line.
t_replay_cycles()
{
	local R=$top/$build/bin/ts-replay w=$tmp/cycles
	mkdir -p "$w"
	printf '%s\n' 'JobID|User|Account|Start|End|AllocCPUS' \
		'1|bob|group1|2026-11-01T00:00:00||2' >"$w/jobs.sacct"
	printf 'PriorityCalcPeriod=1\nPriorityDecayHalfLife=1\n' >"$w/s.conf"
	printf '%s\n' '[2026-11-01T00:00:00.100] slurmctld version 22.05.8 started' \
		'[2026-11-01T00:00:00.200] debug:  priority/treeshare: state committed: last decay 1793491200, 812 bytes' \
		'[2026-11-01T00:01:01.300] debug:  priority/treeshare: state committed: last decay 1793491261, 812 bytes' \
		'[2026-11-01T00:01:01.400] debug:  priority/treeshare: state committed: last decay 1793491261, 812 bytes' \
		'[2026-11-01T00:02:00.100] debug:  priority/treeshare: state committed: last decay 1793491320, 812 bytes' \
		>"$w/slurmctld.log"
	printf '1793491200\n1793491261\n1793491320\n' >"$w/list"
	TZ=UTC "$R" -c "$w/s.conf" -t "$SEED" -j "$w/jobs.sacct" \
		--cycles "$w/slurmctld.log" >"$w/a.csv" 2>"$w/a.err" &&
	TZ=UTC "$R" -c "$w/s.conf" -t "$SEED" -j "$w/jobs.sacct" \
		--cycles "$w/list" >"$w/b.csv" 2>/dev/null ||
		{ cat "$w/a.err"; return 1; }
	cmp -s "$w/a.csv" "$w/b.csv" || { echo "log and list differ"; return 1; }
	expect "times" "$(cut -d, -f1,2 "$w/a.csv" | sort -u | tail -n +1 | tr '\n' ' ')" \
		"2026-11-01T00:01:01,1 2026-11-01T00:02:00,2 Time,Cycle " || return 1
	awk -F, '$2 == 2 && $4 == "bob" { u = $7 } END {
		d = 1 - 0.693 / 60
		want = 122 * d^61 * d^59 + 118 * d^59
		r = u / want - 1; if (r < 0) r = -r
		if (r > 1e-12) { print "bob " u ", want " want; exit 1 } }' \
		"$w/a.csv" || return 1
	# -x: bob's fairshare 50 -> 10 at 00:01:30 (sacctmgr's transactions):
	# Fair Tree's NormShares, among his siblings: 50/100 at 00:01:01,
	# 10/60 at 00:02:00
	printf '%s\n' 'Time|Action|Actor|Where|Info' \
		"2026-10-01T00:00:00|Add Associations|root|id_assoc=5|mod_time=1, acct='group1', user='bob', \`partition\`='', shares=50" \
		'2026-11-01T00:01:30|Modify Associations|root|(id_assoc=5)|shares=10' \
		'2026-11-01T00:01:40|Modify Associations|root|(id_assoc=6)|shares=10' \
		>"$w/txn"
	TZ=UTC "$R" -c "$w/s.conf" -t "$SEED" -j "$w/jobs.sacct" \
		--cycles "$w/list" -x "$w/txn" >"$w/x.csv" 2>"$w/x.err" ||
		{ cat "$w/x.err"; return 1; }
	expect "bob's NormShares" "$(awk -F, '$4 == "bob" { printf "%s ", $6 }' "$w/x.csv")" \
		"0.5 0.16666666666666666 " &&
	expect "unknown id" "$(grep -c "^$w/txn:4: id_assoc=6: no Add Associations line above names it: skipped$" "$w/x.err")" 1 &&
	expect "applied" "$(grep -c ', 1 share changes applied$' "$w/x.err")" 1 || return 1
	printf 'Time|Action|Actor|Info\n' >"$w/notxn"
	one_error "$w/notxn:1: no field Where in the header (sacctmgr -P list transactions)" \
		"$R" -c "$w/s.conf" -t "$SEED" -j "$w/jobs.sacct" -x "$w/notxn" || return 1
	printf '1793491261\n1793491200\n' >"$w/back"
	one_error "$w/back:2: a cycle time before the one above" \
		"$R" -c "$w/s.conf" -t "$SEED" -j "$w/jobs.sacct" --cycles "$w/back"
}
check "ts-replay --cycles: the plugin's logged cycle times (or a list), each decaying over its own interval, and -x share changes from the next cycle on; a time going back or a transactions header without Where refused by line" t_replay_cycles

# --- ts-replay --compare: a week of seed 000 (issue 30, deliverable 6) -
# ts-replay(1)'s EXAMPLE, testsuite/sshare-ext/week: bob 16 CPUs on
# weekdays, scott 4 CPUs all week, cathy and suzy little; on Sunday each
# queues a job (8 CPUs) that starts on Monday.  Samples every 6 h.  Each
# swapped pair's four priorities are recomputed here from fairshare.csv
# and the jobs' Eligible times (10000 x FairShare + 1000 x wait / 7 d,
# truncated), and the swaps are the man page's.
t_replay_week()
{
	local R=$top/$build/bin/ts-replay d=$top/testsuite/sshare-ext/week
	local w=$tmp/week
	TZ=UTC "$R" -c "$d/classic.conf" -c "$d/fair_tree.conf" \
		-c "$d/pbs.conf" -t "$SEED" -j "$d/jobs.sacct" \
		--start 2026-11-02T00:00:00 --end 2026-11-09T00:00:00 \
		--every 6h --compare "$w" --swapped >"$tmp/week.out" \
		2>"$tmp/week.err" || { cat "$tmp/week.err"; return 1; }
	expect "swapped.csv" "$(tail -n +2 "$w/swapped.csv")" \
		"2026-11-08T12:00:00,fair_tree,117,115,4456,3477,5033,7535
2026-11-08T18:00:00,fair_tree,117,115,4459,3827,5069,7571" || return 1
	awk -F, -v sacct="$d/jobs.sacct" '
		BEGIN {
			while ((getline l < sacct) > 0) {
				split(l, f, "|")
				user[f[1]] = f[2]; elig[f[1]] = f[4]
			}
		}
		FILENAME ~ /fairshare/ { fs[$1 "|" $3 "|" $2] = $0; next }
		FNR == 1 { next }
		{
			for (i = 0; i < 4; i++) {
				job = i % 2 ? $4 : $3
				c = i < 2 ? "classic" : "fair_tree"
				col = i < 2 ? 4 : 5
				k = $1 "|" user[job] "|" (user[job] ~ /bob|cathy/ ? "group1" : "group2")
				split(fs[k], r, ",")
				cmd = "TZ=UTC date -d " $1 " +%s"; cmd | getline t; close(cmd)
				cmd = "TZ=UTC date -d " elig[job] " +%s"; cmd | getline e; close(cmd)
				p = int(10000 * r[col] + 1000 * (t - e) / 604800)
				if (p != $(5 + i)) {
					print "job " job " under " c ": " p " recomputed, " $(5 + i) " reported"
					bad = 1
				}
			}
		}
		END { exit bad }' "$w/fairshare.csv" "$w/swapped.csv" || return 1
	grep -qx "  pending pairs: 19 over 28 samples, 2 swapped (10.53 %); Kendall's tau-b 0.8222 on average over 3 samples" "$tmp/week.out" &&
	expect "pbs swaps" "$(grep -c ',pbs,' "$w/swapped.csv")" 0 ||
		{ cat "$tmp/week.out"; return 1; }
}
check "ts-replay --compare: seed 000's week under classic, Fair Tree and fairshare=pbs (the man page's example): the swapped pair's priorities recomputed from FairShare and age" t_replay_week

[ "${TAP_FAILED:-0}" = 0 ]
