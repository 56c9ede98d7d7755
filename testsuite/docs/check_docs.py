#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check_docs.py TAP - the man pages render cleanly and document every key.

Each man page in docs/ must render with groff -man -ww without a warning.
Every key, option and subcommand is read from the code that accepts it
(the key tables of src/settings.c and src/power/config.c, sshare-ext's
getopt table, node_power's subcommand table) and must have an entry of its
own in its man page: a tag line (the line after .TP, or a .B/.IP line)
naming it in bold.  A key added to the code without its man page entry
fails here.
"""
import glob
import re
import subprocess
import sys

tap_path = sys.argv[1]
results = []


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


def tags(page):
    """Bold words of a man page's entry tags (the line after .TP, .IP)."""
    lines = open(page, encoding="utf-8").read().split("\n")
    out = set()
    for i, line in enumerate(lines):
        tag = None
        if line.startswith(".TP") and i + 1 < len(lines):
            tag = lines[i + 1]
        elif line.startswith(".IP "):
            tag = line[4:]
        if tag is None:
            continue
        tag = tag.replace("\\-", "-")
        for word in re.findall(r"\\fB([^\\]+)\\f[RP]", tag):
            out.add(word.strip())
        m = re.match(r"\.BR?\s+\"?([^\" ]+)", tag)
        if m:
            out.add(m.group(1).strip())
    return out


def covered(key, page_tags):
    return any(t == key or t.startswith(key + "=") or t.lstrip("-") == key
               for t in page_tags)


for page in sorted(glob.glob("docs/*.[1-8]")):
    r = subprocess.run(["groff", "-man", "-ww", "-z", "-t", page],
                       capture_output=True, text=True)
    warn = (r.stderr or "").strip()
    ok(r.returncode == 0 and not warn,
       f"{page} renders with groff -man -ww without a warning",
       warn.splitlines()[0] if warn else "")


def check_table(src, pattern, page, what):
    text = open(src, encoding="utf-8").read()
    keys = re.findall(pattern, text, re.M)
    ok(keys, f"{src}: the {what} table is found", "no key matched")
    page_tags = tags(page)
    for k in keys:
        ok(covered(k, page_tags), f"{page} documents {what} {k}",
           f"no .TP/.B entry naming {k}")


check_table("src/settings.c", r'^\t\{ "([a-z_]+)", TS_SET_', "docs/priority_treeshare.5",
            "PriorityParameters key")
check_table("src/power/config.c", r'^\t\{ "([a-z_]+)", TS_POWER_KEY_', "docs/node_power.8",
            "node_power config key")
check_table("sshare-ext/cli.c", r'^\t\{ "([a-zA-Z]+)", (?:no|required|optional)_argument',
            "docs/sshare-ext.1", "sshare-ext option --")

with open(tap_path, "w") as tap:
    for n, (good, name, detail) in enumerate(results, 1):
        tap.write(f"{'ok' if good else 'not ok'} {n} - {name}\n")
        if not good and detail:
            tap.write(f"# {detail}\n")
    tap.write(f"1..{len(results)}\n")
print(open(tap_path).read(), end="")
sys.exit(0 if all(g for g, _, _ in results) else 1)
