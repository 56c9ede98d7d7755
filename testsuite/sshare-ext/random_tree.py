#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""random_tree.py SEED - a random account tree in the tree file format
(docs/sshare-ext.1, FILES; no usage column) for --explain's lab check:
three accounts under the root (two with equal shares), one or two
sub-accounts each, one of them Fairshare=parent, and users tsx1.. with
shares drawn from few values, so that Level FS ties (equal shares, or no
usage at all: inf) are common."""
import random
import sys

rng = random.Random(int(sys.argv[1]))
print("# random tree, seed %s" % sys.argv[1])
users = 0
for top, shares in (("rxa", 10), ("rxb", 10), ("rxc", 20)):
    print("account %s root %d" % (top, shares))
    for k in range(rng.choice((1, 2))):
        sub = "%s%d" % (top, k + 1)
        parent_share = "parent" if (top, k) == ("rxc", 0) else \
            str(rng.choice((1, 1, 2)))
        print("account %s %s %s" % (sub, top, parent_share))
        for _ in range(rng.choice((1, 2, 3))):
            users += 1
            print("user tsx%d %s %d" % (users, sub, rng.choice((1, 1, 2))))
