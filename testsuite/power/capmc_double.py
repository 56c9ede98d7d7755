#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""capmc test double: behaves like Cray's capmc CLI for node_power's tests.

Run through a link named "capmc" in a directory that also holds
capmc-double.json (the test's settings); state.json and calls.log are kept
beside it.  Verbs (as the real CLI): node_on, node_off, node_reinit,
node_status, set_sleep_state_limit, each with "--nids LIST" (capmc's
"24-25,30" syntax) and, for set_sleep_state_limit, "--limit N".  Every
reply is JSON on stdout: {"e": 0, "err_msg": ""} plus, for node_status,
the nids listed under their state ("on", "off").

Behaviour:
  - node_on/node_off/node_reinit start a transition that completes
    "latency" seconds later; until then node_status shows the old state
    (node_reinit: "off").
  - "errors": [{"verb", "nid", "e", "err_msg", "times"}] injects a capmc
    error reply (e != 0) for calls of that verb naming that nid, "times"
    times (0 or absent: always).
  - "hang": [{"verb", "nid"}] makes such calls sleep for an hour (the
    caller's timeout must kill us).
  - unknown nids, verbs or limits answer e=22 (invalid argument).
Every call is recorded in calls.log as JSON lines: "start" (time, pid,
argv, blocked signal mask), "end" (time, pid, e), and "trans" (nid, time
the transition started and completes) - capmc_timeline.py reads them.
State and log are updated under flock, so concurrent calls are safe.
"""
import fcntl
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(sys.argv[0]))
CONFIG = os.path.join(HERE, "capmc-double.json")
STATE = os.path.join(HERE, "state.json")
CALLS = os.path.join(HERE, "calls.log")
LOCK = os.path.join(HERE, "state.lock")


def parse_nids(text):
    """capmc's nid list "24-25,30" -> [24, 25, 30]; ValueError if bad."""
    nids = []
    for part in text.split(","):
        if "-" in part:
            lo, hi = part.split("-", 1)
            lo, hi = int(lo), int(hi)
            if hi < lo:
                raise ValueError(part)
            nids.extend(range(lo, hi + 1))
        else:
            nids.append(int(part))
    return nids


def sigblk():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("SigBlk:"):
                return line.split()[1]
    return "?"


class Locked:
    """flock on state.lock for the duration of a with-block."""

    def __enter__(self):
        self.fd = os.open(LOCK, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)


def record(entry):
    entry.setdefault("t", time.time())
    entry.setdefault("pid", os.getpid())
    with open(CALLS, "a") as f:
        f.write(json.dumps(entry, sort_keys=True) + "\n")


def load_state(cfg):
    try:
        with open(STATE) as f:
            st = json.load(f)
    except FileNotFoundError:
        st = {"nodes": {}, "errors_used": {}}
        for nid in cfg.get("nids", []):
            st["nodes"][str(nid)] = {
                "power": cfg.get("initial", "on"),
                "target": None,
                "ready_at": 0,
                "sleep": 0,
            }
    return st


def save_state(st):
    tmp = STATE + ".tmp"
    with open(tmp, "w") as f:
        json.dump(st, f)
    os.rename(tmp, STATE)


def settle(st, now):
    """Finish transitions whose time has come."""
    for node in st["nodes"].values():
        if node["target"] and now >= node["ready_at"]:
            node["power"] = node["target"]
            node["target"] = None


def reply(e=0, err_msg="", **extra):
    out = {"e": e, "err_msg": err_msg}
    out.update(extra)
    return out


def injected(cfg, st, verb, nids):
    """An injected error reply for this call, or None."""
    for i, inj in enumerate(cfg.get("errors", [])):
        if inj["verb"] != verb or inj["nid"] not in nids:
            continue
        times = inj.get("times", 0)
        used = st["errors_used"].get(str(i), 0)
        if times and used >= times:
            continue
        st["errors_used"][str(i)] = used + 1
        return reply(inj["e"], inj.get("err_msg", "injected error"))
    return None


def main():
    argv = sys.argv[1:]
    with open(CONFIG) as f:
        cfg = json.load(f)
    record({"ev": "start", "argv": argv, "sigblk": sigblk(),
            "env": sorted(os.environ)})
    verb = argv[0] if argv else ""
    out = None
    nids = []
    limit = None
    try:
        if len(argv) >= 3 and argv[1] == "--nids":
            nids = parse_nids(argv[2])
        if len(argv) == 5 and argv[3] == "--limit":
            limit = int(argv[4])
        elif len(argv) != 3:
            raise ValueError("arguments")
    except ValueError:
        out = reply(22, "Invalid argument: %s" % " ".join(argv))

    for hang in cfg.get("hang", []):
        if out is None and hang["verb"] == verb and hang["nid"] in nids:
            time.sleep(3600)

    with Locked():
        st = load_state(cfg)
        now = time.time()
        settle(st, now)
        unknown = [n for n in nids if str(n) not in st["nodes"]]
        if out is None and unknown:
            out = reply(22, "Invalid nid %d" % unknown[0])
        if out is None:
            out = injected(cfg, st, verb, nids)
        if out is not None:
            pass
        elif verb in ("node_on", "node_off", "node_reinit"):
            target = "off" if verb == "node_off" else "on"
            latency = float(cfg.get("latency", 1.0))
            for nid in nids:
                node = st["nodes"][str(nid)]
                if verb == "node_reinit":
                    node["power"] = "off"
                if node["power"] == target and not node["target"]:
                    continue
                node["target"] = target
                node["ready_at"] = now + latency
                record({"ev": "trans", "nid": nid, "to": target,
                        "from_t": now, "to_t": now + latency})
            out = reply()
        elif verb == "node_status":
            states = {"on": [], "off": []}
            for nid in nids:
                states[st["nodes"][str(nid)]["power"]].append(nid)
            out = reply(**states)
        elif verb == "set_sleep_state_limit" and limit is not None and \
                0 <= limit <= int(cfg.get("deepest", 4)):
            for nid in nids:
                st["nodes"][str(nid)]["sleep"] = limit
            out = reply()
        else:
            out = reply(22, "Invalid argument: %s" % " ".join(argv))
        save_state(st)
        record({"ev": "end", "e": out["e"], "verb": verb, "nids": nids,
                "limit": limit})
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
