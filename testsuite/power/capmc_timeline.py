#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""capmc_timeline.py CALLS_LOG DEEPEST [MAX] - nodes in transition over time.

Reads the capmc double's calls.log and prints the largest number of nids
in transition at one moment ("max_in_transition N"), where a nid is in
transition
  - from the start of a node_on/node_off/node_reinit call naming it until
    the double completes that transition ("trans" records), and
  - during a sleep-state ramp: from the start of the first
    set_sleep_state_limit call that takes it off level 0 or DEEPEST until
    the end of the call that lands it on 0 or DEEPEST.
These intervals lie inside node_power's own claims, so a count above MAX
proves node_power let more than max_concurrent_nodes move at once.
Exit 1 if MAX is given and exceeded.
"""
import json
import sys


def main():
    path, deepest = sys.argv[1], int(sys.argv[2])
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else None
    starts = {}  # pid -> start record of the call in progress
    events = []  # (time, +1/-1, nid)
    ramp_since = {}  # nid -> time its ramp started
    recs = [json.loads(line) for line in open(path)]
    recs.sort(key=lambda r: r["t"])
    for r in recs:
        if r["ev"] == "start":
            starts[r["pid"]] = r
        elif r["ev"] == "trans":
            start = starts.get(r["pid"], r)
            events.append((start["t"], 1, r["nid"]))
            events.append((r["to_t"], -1, r["nid"]))
        elif r["ev"] == "end" and r.get("verb") == "set_sleep_state_limit" \
                and r["e"] == 0:
            start = starts[r["pid"]]["t"]
            for nid in r["nids"]:
                if nid not in ramp_since:
                    ramp_since[nid] = start
                if r["limit"] in (0, deepest):
                    events.append((ramp_since.pop(nid), 1, nid))
                    events.append((r["t"], -1, nid))
    # Ends before starts at equal times: touching intervals don't overlap.
    events.sort(key=lambda e: (e[0], e[1]))
    cur = best = 0
    for _, d, _ in events:
        cur += d
        best = max(best, cur)
    print("max_in_transition %d" % best)
    return 1 if limit is not None and best > limit else 0


if __name__ == "__main__":
    sys.exit(main())
