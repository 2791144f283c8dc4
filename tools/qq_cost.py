#!/usr/bin/env python3
"""qq_cost.py - the table of QQ's own cost (docs/PERFORMANCE.md) from a qqbench JSON report of
configs/qq-overhead.yaml.

    qqbench run configs/qq-overhead.yaml --json qq-overhead.json
    python3 tools/qq_cost.py qq-overhead.json

Each figure is the median over launches of the launch's mean over rounds,
and each ratio is taken against the reference measured in the same launches.
"""
import json
import sys

EVENT_BYTES = 24


def value(case, key):
    """Median over launches of the per-launch mean of value KEY."""
    for m in case["metrics"]:
        if m["key"] == key and m["what"] == "mean":
            return m["median"]
    raise KeyError(f"{case['name']}: no values of {key}")


def arg(case, name, default):
    cmd = case["command"]
    return int(cmd[cmd.index(name) + 1]) if name in cmd else default


def main(path):
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    cases = {c["name"]: c for c in report["cases"] if not c["failed"]}
    fp = report["fingerprint"]
    print(f"suite {report['suite']}, {report['date']}, {fp['cpu']}, {fp['cores']} cores, "
          f"ticks {fp['tick_mhz']:.0f} MHz, {fp['compiler']} {fp['flags']}")
    print()
    print("| figure | goal | measured | ratio |")
    print("|---|---|---|---|")
    goal = {"mark": "<= 1.1x", "count": "<= 1.1x", "value": "<= 1.1x", "state": "<= 1.1x"}
    for name, mode in (("recording@1", "ordered"), ("recording_unordered@1", "unordered")):
        c = cases.get(name)
        if not c:
            continue
        bare, ordered = value(c, "cost_bare"), value(c, "cost_ordered")
        print(f"| bare read ({mode} build) | | {bare:.1f} ticks | 1 |")
        print(f"| ordered read, open+close / 2 ({mode} build) | | {ordered:.1f} ticks "
              f"| {ordered / bare:.2f}x bare |")
        for kind in ("mark", "count", "value", "state", "mark_off", "state_off"):
            ref_name = "ordered" if kind.startswith("state") and mode == "ordered" else "bare"
            ref = ordered if ref_name == "ordered" else bare
            v = value(c, f"cost_{kind}")
            what = kind.replace("_off", " with QQRecord(0)")
            if kind == "state":
                what = "state event (on or off)"
            print(f"| {what}, {mode} | {goal.get(kind, '')} | {v:.1f} ticks "
                  f"| {v / ref:.2f}x {ref_name} |")
    c = cases.get("write@1")
    if c:
        n = arg(c, "--size", 10000000)
        w, p = value(c, "write_ms"), value(c, "plain_ms")
        gb = n * EVENT_BYTES / 1e9
        print(f"| QQOut write, {n:.0e} events to the page cache | >= 2 GB/s | {w:.1f} ms, "
              f"{gb / w * 1e3:.2f} GB/s | {w / p:.2f}x plain write ({p:.1f} ms, "
              f"{gb / p * 1e3:.2f} GB/s) |")
        try:
            s = value(c, "fsync_ms")
            print(f"| fsync of that file, apart | | {s:.1f} ms, {gb / s * 1e3:.2f} GB/s | |")
        except KeyError:
            pass
    for variant in ("auto", "direct", "token", "mpiio", "gather"):
        for nodes in (1, 2, 4):
            c = cases.get(f"merge[{variant}]@{nodes}")
            if not c:
                continue
            n = arg(c, "--size", 1000000)
            m, g = value(c, "merge_ms"), value(c, "gatherv_ms")
            gw = value(c, "gatherv_write_ms")
            try:
                w = value(c, "write_ms")
                plain = f"; {m / w:.2f}x rank 0's write alone ({w:.1f} ms)"
            except KeyError:  # a report from before write_ms
                plain = ""
            goal = "<= 50 ms" if nodes == 4 and variant == "auto" else ""
            print(f"| merge ({variant}), {nodes} x {n:.0e} events | {goal} | {m:.1f} ms "
                  f"| {m / g:.2f}x MPI_Gatherv ({g:.1f} ms); {m / gw:.2f}x Gatherv + write "
                  f"({gw:.1f} ms){plain} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: qq_cost.py REPORT.json")
    main(sys.argv[1])
