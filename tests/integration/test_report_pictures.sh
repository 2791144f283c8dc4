#!/usr/bin/env bash
# The report's pictures read without a calculator (issue 36 item 7), checked on the gnuplot scripts qqbench report writes from a crafted run JSON and on gnuplot drawing them: every time axis in ns, µs, ms or s at round figures (1, 2 or 5 times a power of ten, no "1.923e+05"), cycles in k and M (samples, A/B, scaling); samples-BENCH a panel per case and key, each on its own scale, so +9% on a case 4x faster than its neighbour fills the panel and the dashed baseline median never meets the border; memory.png's legend names every colour it draws, its colours are index.html's, and a panel that is 0 in every row is left out and said so; on a run against a reference build it compares the change build with the reference build in the samples picture's colours.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
command -v gnuplot >/dev/null || { echo "FAIL: gnuplot is not installed (make deps installs it)"; exit 1; }
command -v python3 >/dev/null || { echo "FAIL: python3 is needed to write the JSON (make deps-test installs it)"; exit 1; }
rm -rf rep rep3 repci ./*.json ./*.err ./*.out

# A run at 2600 MHz: bench 'pair', case small and case big 4x apart in
# every key; small is +9% against the baseline, big unchanged. The keys'
# medians read in ns (tiny), µs (step, pack) and ms (slow); bench 'spread' on 1 and 2 nodes. Memory: byte
# keys only (no object is created), one grew, one unchanged. CREATED: the
# objects created of every memory row.
write_run() {
    python3 - "$1" "$2" <<'PY'
import json, sys
out, created = sys.argv[1], int(sys.argv[2])
mhz = 2600.0
keys = {"tiny": 200.0, "step": 10000.0, "pack": 500000.0, "slow": 5200000.0}
def samples(med):
    return [med * (1 + 0.004 * ((i * 7) % 5 - 2)) for i in range(8)]
def case(name, variant, factor, change, mem):
    return {"name": name, "bench": "pair", "variant": variant, "nodes": 1, "tick_mhz": mhz,
            "launches": 8, "failed": False,
            "metrics": [{"key": k, "what": "per_hit", "samples": samples(v * factor * change)}
                        for k, v in keys.items()],
            "memory": [mem]}
def mem(key, alloc):
    return {"key": key, "obj_size": 16 if created else 0, "created": created, "deleted": 0,
            "obj_bytes": 16 * created, "alloc_bytes": alloc, "peak_bytes": 2 * alloc}
cases = [case("pair[small]@1", "small", 1, 1.09, mem("buffers", 40960)),
         case("pair[big]@1", "big", 4, 1.0, mem("scratch", 8192))]
cmps = []
for k, v in keys.items():
    for c, f, pct, verdict in (("pair[small]@1", 1, 9.0, "regressed"), ("pair[big]@1", 4, 0.0, "unchanged")):
        cmps.append({"case": c, "key": k, "kind": "baseline", "baseline_cycles_per_hit": v * f,
                     "current_cycles_per_hit": v * f * (1 + pct / 100), "change_pct": pct,
                     "interval_lo_pct": pct - 1, "interval_hi_pct": pct + 1, "threshold_pct": 3.0,
                     "confidence": 0.95, "verdict": verdict})
    cmps.append({"case": "pair[big]@1", "key": k, "kind": "ab", "reference": "pair[small]@1",
                 "baseline_cycles_per_hit": v * 1.09, "current_cycles_per_hit": v * 4,
                 "change_pct": 267.0, "interval_lo_pct": 260.0, "interval_hi_pct": 270.0,
                 "threshold_pct": 3.0, "confidence": 0.95, "verdict": "regressed"})
# Bench 'spread' on 1 and 2 nodes: a scaling picture of 1.5M cycles a hit.
for n, med in ((1, 1500000.0), (2, 1620000.0)):
    cases.append({"name": f"spread@{n}", "bench": "spread", "nodes": n, "tick_mhz": mhz,
                  "launches": 8, "failed": False,
                  "metrics": [{"key": "step", "what": "per_hit", "samples": samples(med)}],
                  "memory": []})
grew = cases[0]["memory"][0]
before = dict(grew, alloc_bytes=32768, peak_bytes=65536)
d = {"suite": "pics", "baseline": "bl/pics.yaml", "fingerprint": {"id": "x", "tick_mhz": mhz},
     "cases": cases, "comparisons": cmps,
     "memory_changes": [{"case": "pair[small]@1", "key": "buffers", "kind": "baseline",
                         "before": before, "after": grew, "verdict": 1}],
     "exit_code": 1}
json.dump(d, open(out, "w"), indent=1)
PY
}
write_run run.json 0
qq out.txt err.txt report run.json --out rep
check "report: exit 0, so gnuplot drew every picture without a warning (got $rc)" test "$rc" = 0
check "report: nothing on stderr" test ! -s err.txt
[ "$rc" = 0 ] || show err.txt

# The scripts' axes, read back: 'set ytics (...)', 'set y2tics (...)' and
# 'set yrange [...]' per panel, the baseline medians and the memory legend.
python3 - rep > axes.txt <<'PY' || true
import re, sys, math
d = sys.argv[1]
def panels(gp):
    """Per panel (a 'set title' up to its 'plot'): title, yrange, ytics, y2tics."""
    out, cur = [], None
    for line in open(f"{d}/{gp}", encoding="utf-8"):
        if line.startswith("set title '"):
            cur = {"title": line[10:].strip()}
            out.append(cur)
        elif cur is None:
            continue
        elif m := re.match(r"set yrange \[([-0-9.e+]+):([-0-9.e+]+)\]", line):
            cur["yrange"] = (float(m[1]), float(m[2]))
        elif m := re.match(r"set (y2?tics) \((.*)\) nomirror", line):
            cur[m[1]] = [(a, float(b)) for a, b in re.findall(r"'([^']*)' ([-0-9.e+]+)", m[2])]
    return out
def round_step(vals):
    """The tics step by 1, 2 or 5 times a power of ten, all multiples of it."""
    if len(vals) < 2:
        return False
    st = vals[1] - vals[0]
    e = math.floor(math.log10(st) + 1e-9)
    mant = st / 10 ** e
    return (any(abs(mant - m) < 1e-6 for m in (1, 2, 5))
            and all(abs((b - a) - st) < st * 1e-6 for a, b in zip(vals, vals[1:]))
            and all(abs(v / st - round(v / st)) < 1e-6 for v in vals))
UNITS = {"ns": 1, "µs": 1e3, "ms": 1e6, "s": 1e9}
def time_ok(tics, mhz):
    """Labels 'N UNIT' (or '0') at their place in ns... in the axis' unit."""
    units = {l.split(" ")[1] for l, _ in tics if l != "0"}
    if len(units) != 1:
        return False, "one unit per axis"
    u = units.pop()
    if u not in UNITS:
        return False, f"unit {u}"
    vals = []
    for l, at in tics:
        num = 0.0 if l == "0" else float(l.split(" ")[0])
        if "e" in l or abs(num * UNITS[u] - at) > 1e-6 * max(1, abs(at)):
            return False, f"label {l} at {at} ns"
        vals.append(num)
    top = max(abs(v) for v in vals)
    if not (1 <= top < 1000 or (u == "s" and top >= 1)):
        return False, f"{top} {u}: another unit reads it from 1 to 999"
    return round_step(vals), u
def count_ok(tics):
    SUF = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9}
    vals = []
    for l, at in tics:
        m = re.fullmatch(r"(-?[0-9.]+)([kMG]?)", l)
        if not m or "e" in l or abs(float(m[1]) * SUF[m[2]] - at) > 1e-6 * max(1, abs(at)):
            return False
        vals.append(float(m[1]))
    return round_step(vals)
for gp in ("samples-pair.gp", "ab-pair.gp"):
    ps = panels(gp)
    units = set()
    for p in ps:
        ok, u = time_ok(p.get("y2tics", []), 2600)
        print(f"{gp} {p['title']}: time axis {'ok' if ok is True else 'BAD'} ({u}): {p.get('y2tics')}")
        units.add(u)
        print(f"{gp} {p['title']}: cycles axis {'ok' if count_ok(p.get('ytics', [])) else 'BAD'}: {p.get('ytics')}")
    print(f"{gp}: units {' '.join(sorted(units))}")
    text = open(f"{d}/{gp}", encoding="utf-8").read()
    expo = re.search(r"set format y2|'[^']*[0-9]e[-+][0-9][^']*' ", text)
    print(f"{gp}: no exponent on any axis: {'BAD' if expo else 'ok'}")
for p in panels("scaling-spread.gp"):
    print(f"scaling-spread.gp {p['title']}: cycles axis {'ok' if count_ok(p.get('ytics', [])) else 'BAD'}: {p.get('ytics')}")
# samples: a panel per (key, case), its range around its own box and the
# baseline median.
ps = panels("samples-pair.gp")
print(f"samples panels: {len(ps)}")
base = {}
for line in open(f"{d}/samples-pair-baseline.dat"):
    if not line.startswith("#"):
        k, x, y, _ = line.split("\t")
        base[(int(k), round(float(x) + 0.45))] = float(y)
keys = ["tiny", "step", "pack", "slow"]
for p in ps:
    case = "small" if "small" in p["title"] else "big"
    key = next(k for k in keys if k in p["title"])
    b = base.get((keys.index(key), 1 if case == "small" else 2))
    lo, hi = p.get("yrange", (math.nan, math.nan))
    inside = b is not None and lo + 0.02 * (hi - lo) < b < hi - 0.02 * (hi - lo)
    print(f"panel {case} {key}: baseline median {b} inside [{lo}, {hi}] with room: {'ok' if inside else 'BAD'}")
    if case == "small" and b:
        share = (b * 0.09) / (hi - lo)
        print(f"panel {case} {key}: +9% spans {share:.2f} of the panel: {'ok' if share > 0.5 else 'BAD'}")
PY
cat axes.txt
check "every time axis in one plain unit, labels at round figures" test "$(grep -c 'time axis ok' axes.txt)" -ge 10
check "no time axis reads otherwise" hasnt axes.txt 'time axis BAD'
check "every cycles axis in plain figures (k, M) at round steps" hasnt axes.txt 'cycles axis BAD'
check "the scaling picture's cycles too" has axes.txt "^scaling-spread.gp 'step': cycles axis ok: .*'1.5M'"
check "the samples picture's time axes read in ns, µs and ms" has axes.txt '^samples-pair.gp: units ms ns µs$'
check "no exponent format left in the scripts" hasnt axes.txt 'no exponent on any axis: BAD'
check "the A/B picture's time axes too" has axes.txt '^ab-pair.gp: units ms ns µs$'
check "samples: a panel per key of each case (4 keys x 2 cases)" has axes.txt '^samples panels: 8$'
check "samples: a row per key, a column per case" has rep/samples-pair.gp '^set multiplot layout 4,2 '
check "samples: every baseline median inside its panel with room" test "$(grep -c 'inside .* with room: ok' axes.txt)" = 8
check "samples: +9% on the small case fills more than half its panel, in every key" test "$(grep -c 'spans .* of the panel: ok' axes.txt)" = 4
check "the time axis is labelled as time" has rep/samples-pair.gp "^set y2label 'time per hit \(2600 MHz ticks\)'"
check "a label of a round figure: 4.1 µs for the small case's step" has rep/samples-pair.gp "^set y2tics \(.*'4.1 µs' 4100[,)]"

# memory.png: objects created is 0 everywhere: two panels, said in the title
# and the caption; the legend names every colour drawn, in index.html's colours.
check "memory: the all-zero 'objects created' panel is left out" hasnt rep/memory.gp "^set title 'objects created'"
check "memory: two panels across" has rep/memory.gp '^set multiplot layout 1,2 '
check "memory: the title says what was left out" has rep/memory.gp "left out, as 0 in every row: objects created'"
check "memory: so does the caption on the page" has rep/index.html 'left out, as 0 in every row: objects created'
for entry in baseline grew unchanged; do
    check "memory: the legend names '$entry'" has rep/memory.gp "keyentry with boxes fc rgb '#[0-9A-F]{6}' title '$entry'"
done
check "memory: no 'shrank' entry (nothing shrank)" hasnt rep/memory.gp "title 'shrank'"
css=$(grep -o 'tr\.v-unchanged \.chip{background:#[0-9A-Fa-f]*}' rep/index.html | grep -o '#[0-9A-Fa-f]*' || true)
check "memory: 'unchanged' in the colour index.html gives unchanged rows ($css)" has rep/memory.gp "keyentry with boxes fc rgb '$css' title 'unchanged'"
grew_css=$(grep -o 'tr\.v-regressed \.chip{background:#[0-9A-Fa-f]*}' rep/index.html | grep -o '#[0-9A-Fa-f]*' || true)
check "memory: 'grew' in the colour of regressed rows ($grew_css)" has rep/memory.gp "keyentry with boxes fc rgb '$grew_css' title 'grew'"
# The data's colour column (live: 9th) holds those colours too.
check "memory: the unchanged bar is drawn in that colour" test "$(awk -F'\t' '$2 ~ /scratch/ {print $9}' rep/memory.dat)" = "$((16#${css#\#}))"

# With objects created: all three panels.
write_run run3.json 5
qq out3.txt err3.txt report run3.json --out rep3
check "objects created: exit 0 (got $rc)" test "$rc" = 0
check "objects created: three panels" has rep3/memory.gp '^set multiplot layout 1,3 '
check "objects created: nothing said left out" hasnt rep3/memory.gp 'left out'

# A run against a reference build (qqbench ci): memory.png compares the change build with the
# reference build, in the samples picture's colours (blue the reference, green the change), and
# never says there was no baseline to compare with. The reference's rows are the change rows'
# first bars, not rows of their own.
python3 - run.json <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
small, big = d["cases"][0], d["cases"][1]
refs = []
for c in (small, big):
    r = copy.deepcopy(c)
    r["name"] = c["name"] + " (reference build)"
    refs.append(r)
refs[0]["memory"][0].update(alloc_bytes=32768, peak_bytes=65536)
d["cases"] = [small, refs[0], big, refs[1]]
d["comparisons"] = [dict(c, kind="build", reference=c["case"] + " (reference build)")
                    for c in d["comparisons"] if c["kind"] == "baseline"]
d["memory_changes"] = [
    {"case": c["name"], "key": c["memory"][0]["key"], "kind": "build",
     "reference": r["name"], "before": r["memory"][0], "after": c["memory"][0],
     "verdict": 1 if c is small else 0, "unchanged": c is not small}
    for c, r in ((small, refs[0]), (big, refs[1]))]
d.update(baseline=None, against="/tmp/qqbench-ci-x/src/build/kernels")
json.dump(d, open("ci.json", "w"), indent=1)
PY
qq outci.txt errci.txt report ci.json --out repci
check "ci: exit 0 (got $rc)" test "$rc" = 0
[ "$rc" = 0 ] || show errci.txt
check "ci memory: titled as the change build against the reference build" \
    has repci/memory.gp 'Memory per object type, the change build against the reference build'
check "ci memory: never 'no baseline'" hasnt repci/memory.gp 'no baseline'
refc=$(sed -n "s/.*keyentry with boxes fc rgb '\(#[0-9A-Fa-f]*\)' title 'reference build'.*/\1/p" repci/memory.gp)
chgc=$(sed -n "s/.*keyentry with boxes fc rgb '\(#[0-9A-Fa-f]*\)' title 'change build'.*/\1/p" repci/memory.gp)
check "ci memory: the legend names the reference build and the change build ($refc, $chgc)" \
    test -n "$refc" -a -n "$chgc" -a "$refc" != "$chgc"
check "ci memory: the samples picture draws the reference and the change in those colours" \
    test "$(grep -c "lc rgb '$refc'" repci/samples-pair.gp)" -gt 0 -a \
         "$(grep -c "lc rgb '$chgc'" repci/samples-pair.gp)" -gt 0
check "ci memory: the reference bars in the reference's colour" \
    has repci/memory.gp "with boxxyerror fc rgb '$refc'"
check "ci memory: the unchanged change bar in the change's colour" \
    test "$(awk -F'\t' '$2 ~ /scratch/ {print $9}' repci/memory.dat)" = "$((16#${chgc#\#}))"
check "ci memory: the grown change bar in the colour of regressed rows" \
    test "$(awk -F'\t' '$2 ~ /buffers/ {print $9}' repci/memory.dat)" = "$((16#${grew_css#\#}))"
check "ci memory: a grown bar names the reference's figure" has repci/memory.dat '40\.0 KB \(reference: 32\.0 KB\)'
check "ci memory: a row per change case, none for the reference build's" \
    test "$(grep -vc '^#' repci/memory.dat)" = 2
[ "$fail" = 0 ] || show repci/memory.gp

# Every script re-draws with plain gnuplot, no warning.
for g in rep/*.gp rep3/memory.gp repci/memory.gp; do
    dir=$(dirname "$g") name=$(basename "$g") prc=0
    rm -f "$dir/${name%.gp}.png"
    (cd "$dir" && gnuplot "$name") > replot.out 2> replot.err || prc=$?
    check "gnuplot $g: exit 0, no warning" test "$prc" = 0 -a ! -s replot.err
    [ -s replot.err ] && show replot.err
    check "gnuplot $g: drew the PNG" test -s "$dir/${name%.gp}.png"
done
finish
