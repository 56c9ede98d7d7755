#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""json_matches_text.py TEXT JSON - does sshare-ext's --json say what its
"-l -P" text says?  TEXT is "sshare-ext -l -P" output, JSON the same rows
from "--json": the document must parse, have one association per text
row in the same order, and every cell must be the JSON value as the text
prints it (6 decimals; blank = null or ""; inf and parent as strings).
Prints the first difference and exits 1."""
import json
import sys

KEYS = {"RawShares": "raw_shares", "NormShares": "norm_shares",
        "RawUsage": "raw_usage", "NormUsage": "norm_usage",
        "EffectvUsage": "effectv_usage", "FairShare": "fairshare",
        "LevelFS": "level_fs", "TreeUsage": "tree_usage", "Perc": "perc",
        "PBSFactor": "pbs_factor", "Rank": "rank",
        "ClassicFS": "classic_fs", "DOFS": "dofs",
        "FairTreeFS": "fair_tree_fs", "GrpTRESMins": "grp_tres_mins",
        "TRESRunMins": "tres_run_mins"}


def same(text, value):
    if text == "":
        return value in (None, "")
    if text in ("inf", "parent") or not isinstance(value, (int, float)):
        return value == text
    if "." in text:
        return "%.6f" % value == text
    return value == int(text)


def main():
    rows = [l.rstrip("\n").split("|") for l in open(sys.argv[1])]
    head, rows = rows[0], rows[1:]
    doc = json.load(open(sys.argv[2]))
    if doc.get("format") != "sshare-ext/1":
        print("format %r" % doc.get("format"))
        return 1
    assoc = doc["associations"]
    if len(assoc) != len(rows):
        print("%d JSON rows, %d text rows" % (len(assoc), len(rows)))
        return 1
    for n, (text, obj) in enumerate(zip(rows, assoc), 2):
        cells = dict(zip(head, text))
        if obj["account"] != cells["Account"].strip() or \
           (obj["user"] or "") != cells["User"]:
            print("line %d: JSON row is %s/%s" % (n, obj["account"],
                                                 obj["user"]))
            return 1
        for col, key in KEYS.items():
            if col in cells and not same(cells[col], obj[key]):
                print("line %d %s: text %r, JSON %r" % (n, col, cells[col],
                                                        obj[key]))
                return 1
    print("%d rows agree" % len(rows))
    return 0


sys.exit(main())
