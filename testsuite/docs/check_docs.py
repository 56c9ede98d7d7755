#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check_docs.py TAP - the man pages render cleanly and document every key.

Each man page in docs/ must render with groff -man -ww without a warning.
Every key, option and subcommand is read from the code that accepts it
(the key tables of src/settings.c and src/power/config.c, sshare-ext's
getopt table, node_power's subcommand table) and must have an entry of its
own in its man page: a tag line (the line after .TP, or a .B/.IP line)
naming it in bold.  A key added to the code without its man page entry
fails here.  And priority_treeshare(5) and fairshare-algorithms(7) must
state multifactor's DEPTH_OBLIVIOUS defect alike (issue 22).
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
check_table("sshare-ext/ts_replay.c",
            r'^\t\t\{ "([a-z]+)", (?:no|required|optional)_argument',
            "docs/ts-replay.1", "ts-replay option --")
check_table("src/slurm_prio_conf.c",
            r'"((?:Priority|FairShare)[A-Za-z]+)"',
            "docs/ts-replay.1", "slurm.conf key")



def man_text(src):
    """A man page fragment as words: requests and font escapes dropped."""
    text = re.sub(r"^\.\S+\s?", "", src, flags=re.M)
    text = re.sub(r"\\f[BIRP]|\\\(..|\\", "", text)
    return " ".join(text.split())


def section(page, title):
    """The text of a man page's .SH TITLE, up to the next .SH."""
    src = open(page, encoding="utf-8").read()
    m = re.search(r"^\.SH \"?" + re.escape(title) + r"\"?\n(.*?)(?=^\.SH )",
                  src, re.M | re.S)
    return m.group(1) if m else ""


def depth_oblivious_paragraphs():
    """What each page says about multifactor's DEPTH_OBLIVIOUS defect:
    priority_treeshare(5)'s DIFFERENCES entry, fairshare-algorithms(7)'s
    TREESHARE VERSUS SLURM 22.05 bullet."""
    out = {}
    diff = section("docs/priority_treeshare.5",
                   "DIFFERENCES FROM PRIORITY/MULTIFACTOR")
    for entry in re.split(r"^\.TP\n", diff, flags=re.M):
        # the entry on the siblings, the one giving test24.1's figures
        if entry.startswith("DEPTH_OBLIVIOUS") and "test24.1" in entry:
            out["docs/priority_treeshare.5"] = man_text(entry)
    vs = section("docs/fairshare-algorithms.7", "TREESHARE VERSUS SLURM 22.05")
    for bullet in re.split(r"^\.IP .*\n", vs, flags=re.M):
        if bullet.startswith("DEPTH_OBLIVIOUS"):
            out["docs/fairshare-algorithms.7"] = man_text(bullet)
    return out


# Multifactor's DEPTH_OBLIVIOUS defect (issue 22): both pages must state
# the same condition (it lasts until an sshare or a pending job of a
# sibling computes the siblings' usage, cycle after cycle), and neither
# may limit it to the first cycle after a start; priority_treeshare(5)
# points to fairshare-algorithms(7).
do = depth_oblivious_paragraphs()
for page in ("docs/priority_treeshare.5", "docs/fairshare-algorithms.7"):
    text = do.get(page, "")
    ok(text, f"{page}: the DEPTH_OBLIVIOUS paragraph on multifactor's "
       "siblings is found", "no such paragraph")
    if not text:
        continue
    need = ["sshare", "pending job of", "cycle after cycle",
            "not only in the first cycle"]
    missing = [w for w in need if w not in text]
    ok(not missing, f"{page}: multifactor's DEPTH_OBLIVIOUS defect lasts "
       "until an sshare or a sibling's pending job computes the siblings, "
       "cycle after cycle", "missing: " + ", ".join(missing))
    # "wrong only in the first cycle", "first cycle after a start reads
    # ... (... from cycle 2 on)": the old text; "from cycle 2 on" only in
    # a sentence that says why (sshare every cycle)
    limits = re.findall(r"(?<!not )only in (?:its |the )?first cycle"
                        r"|first cycle after a start reads", text)
    limits += [x for x in re.split(r"(?<=\.) ", text)
               if "from cycle 2 on" in x and "sshare" not in x]
    ok(not limits, f"{page}: does not limit multifactor's DEPTH_OBLIVIOUS "
       "defect to the first cycle", "; ".join(limits))
text = do.get("docs/priority_treeshare.5", "")
ok("fairshare-algorithms(7)" in text,
   "docs/priority_treeshare.5: the DEPTH_OBLIVIOUS paragraph points to "
   "fairshare-algorithms(7)", "no fairshare-algorithms(7) in it")

with open(tap_path, "w") as tap:
    for n, (good, name, detail) in enumerate(results, 1):
        tap.write(f"{'ok' if good else 'not ok'} {n} - {name}\n")
        if not good and detail:
            tap.write(f"# {detail}\n")
    tap.write(f"1..{len(results)}\n")
print(open(tap_path).read(), end="")
sys.exit(0 if all(g for g, _, _ in results) else 1)
