#!/usr/bin/env bash
# The report of a run against a reference build (qqbench run --against, qqbench ci) and of variants compared (issue 36), from crafted run JSONs: samples-BENCH draws a case and its reference build in one panel on one y scale, each in its colour and named under its box, variants compared within 1.5x of each other in one panel too, cases 4x apart on scales of their own, the baseline's dashed median inside the shared panel with room; index.html says what it compared (the change build against the reference build), heads the build table's columns by build, and never says "first run becomes the baseline" or "no baseline yet" of a run that compared against a reference build and got no comparison; a failed case's panel says it has no launch, with no axis of made-up figures.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
command -v gnuplot >/dev/null || { echo "FAIL: gnuplot is not installed (make deps installs it)"; exit 1; }
command -v python3 >/dev/null || { echo "FAIL: python3 is needed to write the JSON (make deps-test installs it)"; exit 1; }
rm -rf rep none ./*.json ./*.err ./*.out ./*.txt

# A run at 2600 MHz against the reference build /tmp/ci-x/ref (crafted figures): bench p,
# keys step and pack. p[a]@1 is 9% faster than its reference build (the change -9%), and
# its stored baseline's median stands above both (1.2x the reference); p[c]@1 is a
# variant 5% off p[a]@1 (compared A/B); p[b]@1 and its reference build 4x p[a]'s
# (p[b]@1 compared A/B with p[a]@1: +300%).
# none.json: the same run whose reference build failed every case: no comparison.
python3 - <<'PY'
import json
mhz = 2600.0
keys = {"step": 10000.0, "pack": 500000.0}
def samples(med):
    return [med * (1 + 0.004 * ((i * 7) % 5 - 2)) for i in range(8)]
def case(name, variant, factor, failed=False):
    return {"name": name, "bench": "p", "variant": variant, "nodes": 1, "tick_mhz": mhz,
            "launches": 0 if failed else 8, "failed": failed,
            "metrics": [] if failed else [{"key": k, "what": "per_hit", "samples": samples(v * factor)}
                                          for k, v in keys.items()],
            "memory": []}
def cmp(c, k, kind, ref, base, cur, verdict):
    pct = (cur / base - 1) * 100
    d = {"case": c, "key": k, "kind": kind, "baseline_cycles_per_hit": base,
         "current_cycles_per_hit": cur, "change_pct": pct, "interval_lo_pct": pct - 0.5,
         "interval_hi_pct": pct + 0.5, "threshold_pct": 3.0, "confidence": 0.95,
         "verdict": verdict}
    if ref:
        d["reference"] = ref
    return d
cases = [case("p[a]@1", "a", 1.0), case("p[b]@1", "b", 4.0), case("p[c]@1", "c", 1.05),
         case("p[a]@1 (reference build)", "a", 1 / 0.91),
         case("p[b]@1 (reference build)", "b", 4.0)]
cmps = []
for k, v in keys.items():
    ref_a = v / 0.91  # the reference build of a: a is 9% faster
    cmps += [cmp("p[a]@1", k, "build", "p[a]@1 (reference build)", ref_a, v, "improved"),
             cmp("p[b]@1", k, "build", "p[b]@1 (reference build)", 4 * v, 4 * v, "unchanged"),
             cmp("p[c]@1", k, "ab", "p[a]@1", v, 1.05 * v, "regressed"),
             cmp("p[b]@1", k, "ab", "p[a]@1", v, 4 * v, "regressed"),
             cmp("p[a]@1", k, "baseline", None, 1.2 * ref_a, v, "improved")]
d = {"suite": "vs", "baseline": "bl/vs.yaml", "against": "/tmp/ci-x/ref",
     "fingerprint": {"id": "x", "tick_mhz": mhz}, "cases": cases, "comparisons": cmps,
     "memory_changes": [], "exit_code": 0, "kernel_failures": 0}
json.dump(d, open("run.json", "w"), indent=1)
d.update(cases=[case("p@1", "p", 1.0), case("p@1 (reference build)", "p", 1.0, True)],
         comparisons=[], baseline=None, exit_code=3, kernel_failures=1)
json.dump(d, open("none.json", "w"), indent=1)
PY
qq out.txt err.txt report run.json --out rep
check "report: exit 0, gnuplot drew every picture without a warning (got $rc)" test "$rc" = 0
[ "$rc" = 0 ] || show err.txt

# samples-p: a panel per key of {a's reference build, a, c} and of {b's reference build, b}.
G=rep/samples-p.gp
check "samples: 2 panels a key, 4 in all (not one per case: 10)" test "$(grep -c "^set title '" "$G")" = 4
check "samples: the panels of a key on a row" has "$G" '^set multiplot layout 2,2 '
check "samples: the pair panel names the reference build under its box" \
    has "$G" "^set label 1 'reference build' at first 1\.[0-9]+, graph 0 center offset 0,-1 tc rgb '#0072B2'$"
check "samples: and the change build, in another colour" \
    has "$G" "^set label 2 'change build' at first 2\.[0-9]+, graph 0 center offset 0,-1 tc rgb '#009E73'$"
check "samples: the shared panel of three names each case, a's reference build first" \
    has "$G" "^set label 1 'a @1'\.\"\\\\n\"\.'reference build' at first 0\.[0-9]+, graph 0 center offset 0,-1 tc rgb '#0072B2'$"
check "samples: then a, in the change build's colour" has "$G" "^set label 2 'a @1' at first 1\.[0-9]+, graph 0 center offset 0,-1 tc rgb '#009E73'$"
check "samples: then the variant c" has "$G" "^set label 3 'c @1' at first 1\.[0-9]+, graph 0 "
check "samples: the title's legend says which colour is which build" \
    has "$G" "blue = the reference build, green = the change build"

# The panels read back from the data and the script: which slots share a panel (x between
# G + 0.5 and G + 1.5), each panel's y range against its boxes and the dashed median.
python3 - rep > panels.txt <<'PY' || true
import re, sys
d = sys.argv[1]
boxes = [l.rstrip("\n").split("\t") for l in open(f"{d}/samples-p-boxes.dat") if not l.startswith("#")]
panel = {}
for b in boxes:
    panel.setdefault((int(b[0]), b[10]), set()).add(round(float(b[1])))
for (k, name), ps in sorted(panel.items()):
    print(f"key {k} {name}: panel {' '.join(map(str, sorted(ps)))}")
ranges, k = [], None
for line in open(f"{d}/samples-p.gp", encoding="utf-8"):
    if m := re.match(r"set yrange \[([-0-9.e+]+):([-0-9.e+]+)\]", line):
        ranges.append((float(m[1]), float(m[2])))
base = [l.split("\t") for l in open(f"{d}/samples-p-baseline.dat") if not l.startswith("#")]
for key in (0, 1):
    lo, hi = ranges[2 * key]  # the first panel of the key's row: a, its reference, c
    meds = {b[10]: float(b[4]) for b in boxes if int(b[0]) == key}
    a, ref = meds["p[a]@1"], meds["p[a]@1 (reference build)"]
    bl = [float(b[2]) for b in base if int(b[0]) == key]
    inside = all(lo + 0.02 * (hi - lo) < y < hi - 0.02 * (hi - lo) for y in bl + list(meds.values())
                 if y < 2 * a)
    print(f"key {key}: dashed median {bl} and the boxes inside [{lo}, {hi}] with room: {'ok' if bl and inside else 'BAD'}")
    share = (ref - a) / (hi - lo)
    print(f"key {key}: the -9% spans {share:.2f} of the shared panel: {'ok' if share > 0.2 else 'BAD'}")
PY
cat panels.txt
for k in 0 1; do
    check "key $k: a and its reference build in one panel" \
        test "$(grep -Ec "^key $k p\[a\]@1( \(reference build\))?: panel 1$" panels.txt)" = 2
    check "key $k: c (5% off a, compared A/B) in a's panel" has panels.txt "^key $k p\[c\]@1: panel 1$"
    check "key $k: b and its reference build in the next panel (4x a's: a scale of their own)" \
        test "$(grep -Ec "^key $k p\[b\]@1( \(reference build\))?: panel 2$" panels.txt)" = 2
    check "key $k: the baseline's dashed median inside the shared panel with room" has panels.txt "^key $k: dashed .*: ok$"
    check "key $k: the -9% fills a fifth of the shared panel or more" has panels.txt "^key $k: the -9% spans .*: ok$"
done

# index.html says what was compared.
H=rep/index.html
check "index: the build table's columns are the builds" \
    has "$H" '<th class="n">reference build</th><th class="n">change build</th>'
check "index: the header says the change build was compared against the reference build" \
    has "$H" "compared: the change build \(this run's kernels\) against the reference build: /tmp/ci-x/ref"

# No comparison at all: the reference build failed.
qq none.out none.err report none.json --out none
check "no comparison: report exit 0 (got $rc)" test "$rc" = 0
[ "$rc" = 0 ] || show none.err
check "no comparison: never 'the first run ... becomes the baseline'" hasnt none/index.html 'becomes the baseline'
check "no comparison: never 'nothing to compare against'" hasnt none/index.html 'nothing to compare against'
check "no comparison: never 'no baseline yet'" hasnt none/index.html 'no baseline yet'
check "no comparison: says what it was to compare and why nothing was" \
    has none/index.html '<p>No comparisons: this run compares the change build against the reference build, and no case has figures from both \(the kernel failures below say why\)\.</p>'
# Its samples picture: the failed reference build's panels say so, with no axis of made-up
# figures (they read 0 to 1 cycles per hit, 0 to 0.4 ns).
check "no comparison: each failed case's panel says it has no launch" \
    test "$(grep -c "^set label 1 'no launch recorded: the case failed' at graph 0.5, 0.5 center" none/samples-p.gp)" = 2
check "no comparison: no tics of a panel with nothing in it" hasnt none/samples-p.gp "'0\.[0-9]+ ns'|'0\.2' 0\.2"
finish
