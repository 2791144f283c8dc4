#!/usr/bin/env bash
# km_compare.sh - the Km line's one-line change (pow -> direct) measured five ways: qqbench, the kernel's bulk timing, Google Benchmark dependent and independent, callgrind.
#
# Usage: tools/km_compare.sh [BUILD_DIR] [--json FILE] [--callgrind-only]
#   BUILD_DIR  a CMake build of this tree (default: build); needs
#              harness/qqbench, kernels/channel, tools/km_count, and
#              tools/gbench_km (Google Benchmark rows are skipped without it)
#   --json F   also write every figure (with samples' spread) to F
#   --callgrind-only  only the instruction counts, which no machine's speed
#              or load changes (what `make test` checks; needs valgrind)
# Environment (defaults in brackets): KM_REPS qqbench launches per variant
# [10], KM_BULK Km_bulk repetitions [1000000], KM_GB_REPS Google Benchmark
# repetitions [10], KM_GB_MIN_TIME seconds per repetition [0.1], KM_CG_REPS
# km_count repetitions under callgrind [100000], KM_SIZE/KM_STEPS channel's
# --size/--steps for qqbench and callgrind [4/2000], KM_WORK a folder for
# the intermediate files [a fresh temporary folder, removed at exit],
# KM_CALLGRIND=0 skips the callgrind rows [1].
# Needs python3; valgrind for the callgrind rows (skipped without it).
#
# Every timed figure is the median over launches (qqbench, Km_bulk) or over
# repetitions (Google Benchmark, CPU time), in TSC ticks; its standard
# uncertainty is 1.2533 * 1.4826 * MAD / sqrt(n) (the median's standard
# error for normal data, with MAD as a robust sigma); a delta's is the
# root sum of squares of both variants'. Exit status: 0 when every row
# that could run ran, 1 on a failure, 2 on bad usage.
set -euo pipefail

build=build json_out= cg_only=0
while [ $# -gt 0 ]; do
    case "$1" in
    --json) [ $# -ge 2 ] || { echo "km_compare: --json needs a file" >&2; exit 2; }
            json_out="$2"; shift 2 ;;
    --callgrind-only) cg_only=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "km_compare: unknown option $1" >&2; exit 2 ;;
    *) build="$1"; shift ;;
    esac
done
reps=${KM_REPS:-10} bulk=${KM_BULK:-1000000} gb_reps=${KM_GB_REPS:-10}
gb_min=${KM_GB_MIN_TIME:-0.1} cg_reps=${KM_CG_REPS:-100000}
size=${KM_SIZE:-4} steps=${KM_STEPS:-2000}

qqbench="$build/harness/qqbench" channel="$build/kernels/channel"
km_count="$build/tools/km_count" gbench="$build/tools/gbench_km"
for p in "$qqbench" "$channel" "$km_count"; do
    [ -x "$p" ] || { echo "km_compare: $p not built" >&2; exit 1; }
done
command -v python3 >/dev/null || { echo "km_compare: needs python3" >&2; exit 1; }
channel=$(cd "$(dirname "$channel")" && pwd)/channel

if [ -n "${KM_WORK:-}" ]; then
    work="$KM_WORK"; mkdir -p "$work"
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/km_compare.XXXXXX")
    trap 'rm -rf "$work"' EXIT
fi

# 1, 2. qqbench A/B on channel (the Km state's net per hit), with the
# kernel's own bulk timing of the line (Km_bulk) in the same launches.
cat > "$work/km.yaml" <<YAML
suite: km_compare
defaults: {repetitions: $reps, warmup: 1}
benchmarks:
  - name: km
    kernel: $channel
    args: [--size, "$size", --steps, "$steps", --bulk, "$bulk"]
    keys: [Km, Km_bulk]
    variants:
      pow: [--variant, pow]
      direct: [--variant, direct]
YAML
rc=0
if [ "$cg_only" = 0 ]; then
    "$qqbench" run "$work/km.yaml" --baselines "$work/bl" --json "$work/qq.json" -q \
        > "$work/qq.out" 2> "$work/qq.err" || rc=$?
    if [ ! -s "$work/qq.json" ]; then
        echo "km_compare: qqbench run failed (exit $rc):" >&2; cat "$work/qq.err" >&2; exit 1
    fi
fi

# 3, 4. Google Benchmark, both forms, CPU time per repetition.
if [ "$cg_only" = 1 ]; then
    :
elif [ -x "$gbench" ]; then
    "$gbench" --benchmark_format=json --benchmark_repetitions="$gb_reps" \
        --benchmark_min_time="$gb_min" > "$work/gb.json" 2> "$work/gb.err" || {
        echo "km_compare: $gbench failed:" >&2; cat "$work/gb.err" >&2; exit 1; }
else
    echo "km_compare: $gbench not built (no libbenchmark-dev or C++ compiler): Google Benchmark rows skipped" >&2
fi

# 5. callgrind: the line alone (km_count) and the whole kernel step.
cg_line() { # VARIANT -> instructions counted in km_count_VARIANT
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.$1" \
        --toggle-collect="km_count_$1" "$km_count" "$1" "$cg_reps" > /dev/null 2>&1
    sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$work/cg.$1"
}
cg_step() { # VARIANT -> instructions counted in channel's compartment_step
    QQ_OUTPUT="$work/cg.qq" valgrind --tool=callgrind \
        --callgrind-out-file="$work/cgk.$1" --toggle-collect=compartment_step \
        "$channel" --variant "$1" --size "$size" --steps "$steps" > /dev/null 2>&1
    sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$work/cgk.$1"
}
cg=""
if [ "${KM_CALLGRIND:-1}" = 0 ] && [ "$cg_only" = 0 ]; then
    :
elif command -v valgrind >/dev/null; then
    cg="$(cg_line pow) $(cg_line direct) $(cg_step pow) $(cg_step direct)"
elif [ "$cg_only" = 1 ]; then
    echo "km_compare: --callgrind-only needs valgrind" >&2; exit 1
else
    echo "km_compare: valgrind not found: callgrind rows skipped" >&2
fi

KM_CG="$cg" KM_CG_REPS="$cg_reps" KM_NKM=$((2 * size * steps)) \
python3 - "$work" "$json_out" <<'PY'
import json, math, os, statistics, sys

work, json_out = sys.argv[1], sys.argv[2]

def summary(xs):
    """median and its standard uncertainty (robust: MAD as sigma)."""
    xs = [float(x) for x in xs]
    med = statistics.median(xs)
    mad = statistics.median([abs(x - med) for x in xs])
    u = 1.2533 * 1.4826 * mad / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
    return {"median": med, "u": u, "n": len(xs), "samples": xs}

rows = []  # (label, pow, direct) with pow/direct summaries

qqp = os.path.join(work, "qq.json")
qq = json.load(open(qqp)) if os.path.exists(qqp) else None
def qq_samples(variant, key, what):
    for c in qq["cases"]:
        if c["variant"] == variant:
            for m in c["metrics"]:
                if m["key"] == key and m["what"] == what:
                    return m["samples"]
    sys.exit("km_compare: qqbench JSON lacks %s %s of %s" % (key, what, variant))
mhz = qq["cases"][0]["tick_mhz"] if qq else None
def qq_net(variant):
    """Net per hit before the floor at the counter's resolution (the judged
    per_hit stores a figure at or below half a counter step as half a step):
    raw per hit minus the launch's own calibrated empty state."""
    raw = qq_samples(variant, "Km", "per_hit_raw")
    empty = qq_samples(variant, "@timer", "empty")
    return [r - e for r, e in zip(raw, empty)]
if qq:
    rows.append(("qqbench Km state, net per hit", "ticks",
                 summary(qq_net("pow")), summary(qq_net("direct"))))
    rows.append(("kernel Km_bulk (dependent)", "ticks",
                 summary(qq_samples("pow", "Km_bulk", "mean")),
                 summary(qq_samples("direct", "Km_bulk", "mean"))))

gb_mhz = None
gbp = os.path.join(work, "gb.json")
if os.path.exists(gbp):
    gb = json.load(open(gbp))
    gb_mhz = float(gb["context"]["tsc_mhz"])
    def gb_ticks(name):
        xs = [b["cpu_time"] * {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b["time_unit"]]
              * gb_mhz / 1000.0
              for b in gb["benchmarks"]
              if b.get("run_type") == "iteration" and b["run_name"] == name]
        if not xs:
            sys.exit("km_compare: Google Benchmark JSON lacks " + name)
        return summary(xs)
    rows.append(("Google Benchmark, dependent calls", "ticks",
                 gb_ticks("km_pow_dep"), gb_ticks("km_direct_dep")))
    rows.append(("Google Benchmark, independent calls", "ticks",
                 gb_ticks("km_pow_indep"), gb_ticks("km_direct_indep")))

cg = os.environ.get("KM_CG", "").split()
if len(cg) == 4:
    n, nkm = int(os.environ["KM_CG_REPS"]), int(os.environ["KM_NKM"])
    exact = lambda v: {"median": v, "u": 0.0, "n": 1, "samples": [v]}
    rows.append(("callgrind, km_count (per repetition)", "instr",
                 exact(int(cg[0]) / n), exact(int(cg[1]) / n)))
    rows.append(("callgrind, channel step (per Km line)", "instr",
                 exact(int(cg[2]) / nkm), exact(int(cg[3]) / nkm)))

cpu = "unknown CPU"  # the figures are per CPU family (docs/PERFORMANCE.md)
try:
    for line in open("/proc/cpuinfo"):
        if line.startswith(("model name", "Hardware", "CPU part")) and ":" in line:
            cpu = line.split(":", 1)[1].strip() or cpu
            break
except OSError:
    pass
out = {"tick_mhz_qqbench": mhz, "tick_mhz_gbench": gb_mhz, "cpu": cpu, "rows": []}
if mhz is None:
    print("Km line, pow -> direct; instructions counted by callgrind; CPU %s" % cpu)
else:
    print("Km line, pow -> direct; TSC %.1f MHz%s; median +- standard uncertainty; CPU %s"
          % (mhz, "" if gb_mhz is None else " (gbench_km measured %.1f)" % gb_mhz, cpu))
print("%-40s %5s %17s %17s %19s" % ("measure", "unit", "pow", "direct", "delta"))
for label, unit, p, d in rows:
    delta, ud = d["median"] - p["median"], math.hypot(p["u"], d["u"])
    fmt = lambda m, u: ("%8.2f +- %5.2f" % (m, u)) if u else ("%8.2f" % m).ljust(17)
    print("%-40s %5s %17s %17s %19s" % (label, unit, fmt(p["median"], p["u"]),
          fmt(d["median"], d["u"]), fmt(delta, ud)))
    out["rows"].append({"measure": label, "unit": unit, "pow": p, "direct": d,
                        "delta": delta, "delta_u": ud})

byname = {r["measure"]: r for r in out["rows"]}
q, g = byname.get("qqbench Km state, net per hit"), byname.get("Google Benchmark, dependent calls")
if q and g:
    diff, u = q["delta"] - g["delta"], math.hypot(q["delta_u"], g["delta_u"])
    out["qq_vs_gb_dep"] = {"diff": diff, "u": u, "z": diff / u if u else float("inf")}
    print("qqbench delta - GB dependent delta: %.2f +- %.2f ticks (%.1f standard uncertainties)"
          % (diff, u, abs(diff / u) if u else float("inf")))
if json_out:
    with open(json_out, "w") as f:
        json.dump(out, f, indent=1)
PY
