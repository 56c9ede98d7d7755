#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""explain_check.py SSHARE_EXT JOBS_FILE SSHARE_FILE ALGO [PAIRS] - sshare-ext
--explain against the controller's own figures (issue 29):

  1. every pending job of JOBS_FILE (squeue -h -t PD -o "%i|%Q|%P"):
     its explained contributions, summed in slurmctld's order, give the
     priority squeue shows (each partition's where squeue has one);
  2. every pair of those jobs in one partition (PAIRS of them drawn at
     random when there are more): the job --explain A,B puts ahead is
     the one with the higher squeue priority (equal: tied);
  3. Fair Tree: the level named as deciding is the first level where
     the two users' paths have different Level FS in sshare -a -l -P
     (SSHARE_FILE), or a tie there.

A job whose priority moved between squeue's snapshot and the explanation
(a cycle ran in between) is retried once with a fresh squeue.  Prints
one line per failure, exits 1 on any.
"""
import itertools
import json
import random
import subprocess
import sys

ext, jobs_file, sshare_file, algo = sys.argv[1:5]
max_pairs = int(sys.argv[5]) if len(sys.argv) > 5 else 0
bad = []
multi = 0


def explain(ids):
    out = subprocess.run([ext, "--explain", ",".join(ids), "--json"],
                         capture_output=True, text=True, check=False)
    if out.returncode:
        bad.append("--explain %s: exit %d: %s" %
                   (",".join(ids), out.returncode, out.stderr.strip()))
        return None
    return json.loads(out.stdout)


def squeue():
    out = subprocess.run(["squeue", "-h", "-t", "PD", "-o", "%i|%Q|%P"],
                         capture_output=True, text=True, check=True)
    return {l.split("|")[0]: int(l.split("|")[1])
            for l in out.stdout.split("\n") if l}


def formula_wrong(row):
    """The lab's formula, 10000*fairshare_factor, recomputed from the
    variable --explain shows (6 digits: within 1.5 of the priority)."""
    v = dict(kv.split("=") for kv in (row["formula_variables"] or "").split())
    try:
        value = 10000 * float(v["fairshare_factor"])
    except (KeyError, ValueError):
        return ["formula variables %r" % row["formula_variables"]]
    if abs(value - row["priority"]) > 1.5:
        return ["formula from its variables %.2f, priority %d" %
                (value, row["priority"])]
    return []


jobs = {}
for line in open(jobs_file):
    jid, prio, part = line.strip().split("|")
    jobs[jid] = (int(prio), part)

# 1. sums
sums = 0
for jid in sorted(jobs, key=int):
    for attempt in (0, 1):
        doc = explain([jid])
        if doc is None:
            break
        job = doc["jobs"][0]
        wrong = []
        for row in job["rows"]:
            if row["direct"] and algo == "formula":
                wrong += formula_wrong(row)
            if row["slurmctld_priority"] is None:
                continue
            if len(job["rows"]) > 1 and not attempt:
                multi += 1
            if row["priority"] != row["slurmctld_priority"]:
                wrong.append("%s: explained %d, slurmctld %d" %
                             (row["partition"], row["priority"],
                              row["slurmctld_priority"]))
        if not job["rows"]:
            wrong.append("no rows")
        if job["priority"] != squeue().get(jid, job["priority"]):
            wrong.append("squeue moved")
        if not wrong:
            sums += 1
            break
        if attempt:
            bad.append("job %s: %s" % (jid, "; ".join(wrong)))

# Fair Tree's paths from sshare -a -l -P: account chain and Level FS
levelfs, parent_of, via_parent = {}, {}, set()
rows = [l.rstrip("\n").split("|") for l in open(sshare_file)]
head = rows[0]
col = {h: i for i, h in enumerate(head)}
stack = []
for r in rows[1:]:
    acct, user = r[col["Account"]], r[col["User"]]
    depth = (len(acct) - len(acct.lstrip(" "))) if not user else None
    name = acct.strip()
    lfs = r[col["LevelFS"]] if "LevelFS" in col else ""
    if not user and r[col["RawShares"]] == "parent":
        via_parent.add(name)  # Fair Tree looks through it
    if user:
        key = (name, user)
        levelfs[key] = lfs
        parent_of[key] = name
    else:
        levelfs[name] = lfs
        stack = stack[:depth] + [name]
        parent_of[name] = stack[-2] if len(stack) > 1 else None


def path(key):
    p = [key]
    while p[-1] is not None and parent_of.get(p[-1]) is not None:
        p.append(parent_of[p[-1]])
    return [k for k in reversed(p) if k not in via_parent]


# 2. and 3. pairs
pairs = 0
levels = 0
by_part = {}
for jid, (prio, part) in jobs.items():
    if "," not in part:
        by_part.setdefault(part, []).append(jid)
todo = []
for part, ids in by_part.items():
    todo += itertools.combinations(sorted(ids, key=int), 2)
if max_pairs and len(todo) > max_pairs:
    todo = random.Random(29).sample(todo, max_pairs)
def verdict(a, b):
    """--explain A,B and squeue right after: the document, both
    priorities, and whether the verdict is squeue's order."""
    doc = explain([a, b])
    if doc is None:
        return None, None, None, True
    cmp = doc["comparison"]
    now = squeue()
    pa, pb = now.get(a), now.get(b)
    if pa is None or pb is None:
        return None, pa, pb, True
    if pa == pb:
        return doc, pa, pb, cmp["tied"]
    return doc, pa, pb, str(cmp["ahead"]) == (a if pa > pb else b)


for a, b in todo:
    doc, pa, pb, ok = verdict(a, b)
    if not ok:
        # a cycle between the two requests moves both: ask again once
        doc, pa, pb, ok = verdict(a, b)
    if doc is None:
        continue
    cmp = doc["comparison"]
    if not ok:
        bad.append("pair %s,%s: squeue %s/%s, --explain ahead %s tied %s"
                   % (a, b, pa, pb, cmp["ahead"], cmp["tied"]))
        continue
    pairs += 1
    if algo != "fair_tree" or not cmp["common_ancestor"]:
        continue
    ja, jb = doc["jobs"]
    ka = (ja["account"], ja["user"])
    kb = (jb["account"], jb["user"])
    if ka == kb:
        continue
    pa_, pb_ = path(ka), path(kb)
    first = None
    for x, y in zip(pa_, pb_):
        if x != y:
            first = (x, y)
            break
    if first is None:
        continue
    la, lb = levelfs.get(first[0]), levelfs.get(first[1])
    name = lambda k: k[1] if isinstance(k, tuple) else k
    if [name(first[0]), name(first[1])] != cmp["sides"]:
        bad.append("pair %s,%s: paths part at %s/%s, --explain says %s"
                   % (a, b, name(first[0]), name(first[1]),
                      cmp["sides"]))
        continue
    same = la == lb
    values = cmp["side_values"]
    six = lambda v: v if isinstance(v, str) else "%.6f" % v
    if not same and six(values[0]) == six(values[1]):
        bad.append("pair %s,%s: sshare Level FS %s/%s differ, --explain"
                   " gives %s" % (a, b, la, lb, values))
        continue
    levels += 1

print("sums %d/%d, partitions of multi-partition jobs %d, pairs %d, "
      "Fair Tree levels %d" % (sums, len(jobs), multi, pairs, levels))
for b in bad[:12]:
    print(b)
if len(bad) > 12:
    print("... %d more" % (len(bad) - 12))
sys.exit(1 if bad else 0)
