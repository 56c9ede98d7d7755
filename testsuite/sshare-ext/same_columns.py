#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""same_columns.py SSHARE_OUT EXT_OUT - does sshare-ext print sshare's
columns byte for byte?  sshare-ext may only append columns: every line of
EXT_OUT must be the same line of SSHARE_OUT, or begin with it followed by
more cells (fixed width: the sshare line, which ends with a blank; -P: the
line and a '|'; -p: the line, which ends with '|').  Prints the first
difference and exits 1, or exits 0."""
import sys


def main():
    ref = open(sys.argv[1], "rb").read().split(b"\n")
    ext = open(sys.argv[2], "rb").read().split(b"\n")
    if len(ref) != len(ext):
        print("%d lines from sshare, %d from sshare-ext" % (len(ref), len(ext)))
        show(ref, ext, min(len(ref), len(ext)))
        return 1
    for i, (r, e) in enumerate(zip(ref, ext)):
        if e == r:
            continue
        if r and e.startswith(r) and (r.endswith(b" ") or r.endswith(b"|")
                                      or e[len(r):len(r) + 1] == b"|"):
            continue
        print("line %d differs:" % (i + 1))
        print("  sshare:     %r" % r)
        print("  sshare-ext: %r" % e)
        return 1
    return 0


def show(ref, ext, n):
    for i in range(n):
        if ref[i] != ext[i] and not ext[i].startswith(ref[i]):
            print("first difference at line %d" % (i + 1))
            print("  sshare:     %r" % ref[i])
            print("  sshare-ext: %r" % ext[i])
            return


sys.exit(main())
