#!/usr/bin/env python3
# swing_snapshots.py ROOT: six --record snapshots of suite "hs" on machine "machine-h" under ROOT
# (tests/integration/test_history_relative.sh), written as the baseline format says
# (docs/BASELINES.md), seeded: series "big" (a million cycles) swings with load by -30% to
# +60%, series "small" (200 cycles, 0.5% noise) steps up by 10% at v4 and stays.
import os, random, sys
root = sys.argv[1]
d = os.path.join(root, "machine-h", "history"); os.makedirs(d, exist_ok=True)
rnd = random.Random(7)
swing = [1.0, 1.6, 0.7, 1.5, 0.8, 1.4]
step = [1.0, 1.0, 1.0, 1.1, 1.1, 1.1]
for i in range(6):
    lab = "v%d" % (i + 1)
    def samples(med, rel):
        return [med * (1 + rel * rnd.uniform(-1, 1)) for _ in range(9)]
    big = samples(1e6 * swing[i], 0.02)
    small = samples(200.0 * step[i], 0.005)
    def metric(key, s):
        return ("  - key: %s\n    what: per_hit\n    median: .nan\n    mad: .nan\n    noise_pct: .nan\n"
                "    min: .nan\n    samples: [%s]\n" % (key, ", ".join("%.17g" % v for v in s)))
    cases = ""
    for name, key, s in (("big@1", "Big", big), ("small@1", "Small", small)):
        cases += ("- name: %s\n  bench: %s\n  nodes: 1\n  tick_mhz: 2000\n  launches: 9\n  metrics:\n%s"
                  % (name, name.split("@")[0], metric(key, s)))
    text = ("qqbench_baseline: 2\nsuite: hs\nlabel: %s\ndate: \"2026-01-0%dT00:00:00Z\"\nqqbench_version: \"0.1.0\"\n"
            "fingerprint:\n  id: machine-h\n  cpu: X\n  tick_mhz: 2000\n  invariant: true\n  cores: 2\n"
            "  compiler: GNU\n  flags: Release\ncases:\n%s...\n" % (lab, i + 1, cases))
    open(os.path.join(d, "hs@%s.yaml" % lab), "w").write(text)
