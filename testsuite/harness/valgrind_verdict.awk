# SPDX-License-Identifier: GPL-2.0-or-later
#
# valgrind_verdict.awk - read valgrind's XML (--xml=yes) and count the
# errors that belong to the plugin under test.
#   awk -v plugin=priority_treeshare.so -v tool=memcheck -f ... FILE.xml
# memcheck: any error (leak, invalid access, uninitialised use) with a
#           frame in the plugin anywhere in one of its stacks: the plugin
#           allocated, or touched, the memory.
# helgrind: a data race whose racing access (first frame of either
#           stack) is in the plugin.  Lock-order reports are not races.
# Prints one "# kind: what" line per counted error, then "count N";
# exit status 1 if N > 0.
BEGIN { n = 0 }
/<error>/ {
	in_error = 1; kind = ""; what = ""; anywhere = 0; top = 0
}
in_error && /<kind>/ {
	kind = $0; sub(/.*<kind>/, "", kind); sub(/<\/kind>.*/, "", kind)
}
in_error && (/<what>/ || /<text>/) && what == "" {
	what = $0; sub(/.*<(what|text)>/, "", what)
	sub(/<\/(what|text)>.*/, "", what)
}
in_error && /<stack>/ { frame = 0 }
in_error && /<frame>/ { frame++ }
in_error && /<obj>/ && index($0, plugin) {
	anywhere = 1
	if (frame == 1)
		top = 1
}
/<\/error>/ {
	in_error = 0
	if ((tool == "memcheck" && anywhere) ||
	    (tool == "helgrind" && kind == "Race" && top)) {
		n++
		print "# " kind ": " what
	}
}
END {
	print "count " n
	exit n > 0
}
