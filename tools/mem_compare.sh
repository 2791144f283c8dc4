#!/usr/bin/env bash
# mem_compare.sh - the cost of memory keys: tracked/plain malloc+free per block size and thread count, by qqbench and by callgrind.
#
# Usage: tools/mem_compare.sh [BUILD_DIR [REF_BUILD_DIR]]
#   BUILD_DIR      a CMake build of this tree (default: build); needs
#                  harness/qqbench and kernels/mem_overhead
#   REF_BUILD_DIR  optional: a build of the same tree with another
#                  qq/src/qq_mem.c (the one before a change); its cases run
#                  in the same qqbench run (--against), interleaved
# Environment: MEM_REPS launches per case [9], MEM_SEED the round order's
# seed [1], MEM_CALLGRIND=0 skips the callgrind rows [1], MEM_WORK a folder
# for the intermediate files [a fresh temporary folder, removed at exit].
# Needs python3; valgrind for the callgrind rows.
#
# qqbench: the mem_pairs benchmark of configs/qq-overhead.yaml. A case's
# figure is the median over launches of the net ticks per round (20000
# pairs per thread), shown per pair (wall time of a round / 20000: with 2
# threads, the time of a pair in each thread); "tracked/plain" is qqbench's A/B
# estimate (median of the per-round ratios, Hodges-Lehmann) with its 95%
# interval; the reference build's ratio is the ratio of its medians.
# "floor/plain": the same A/B for the floor (mem_floor: the least address
# table, one thread, no locks, no freed records; kernels/mem_overhead.c),
# run in the same qqbench run: what any table lookup costs here.
# Issue 25's goals (mem_vs_floor, mem_threads; when the kernels have
# tracked2): tracked/floor with one thread, and tracked2/tracked (two
# threads at once on one key against one), qqbench's A/B estimates with
# their 95% intervals, beside plain2/plain (the ratio of medians: what two
# threads cost libc and the machine by themselves).
# callgrind: instructions per pair inside the round functions (inclusive:
# libc's malloc and free, and the memory keys or the floor's table), one
# thread, 5 rounds of 20000 pairs; exact and repeatable.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
ref=${2:-}
[ -n "$ref" ] && ref=$(cd "$ref" && pwd)
reps=${MEM_REPS:-9}
seed=${MEM_SEED:-1}
work=${MEM_WORK:-}
if [ -z "$work" ]; then
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"

for f in "$build/harness/qqbench" "$build/kernels/mem_overhead"; do
    [ -x "$f" ] || { echo "mem_compare.sh: $f: not built" >&2; exit 2; }
done
if [ -n "$ref" ] && [ ! -x "$ref/kernels/mem_overhead" ]; then
    echo "mem_compare.sh: $ref/kernels/mem_overhead: not built" >&2
    exit 2
fi

against=()
[ -n "$ref" ] && against=(--against "$ref/kernels")
# mem_floor (the floor/plain column) when the reference build's kernel has the floor too
only=(--only mem_pairs)
if [ -z "$ref" ] || "$ref/kernels/mem_overhead" --help 2>&1 | grep -q floor; then
    only+=(--only mem_floor)
fi
# Issue 25's goals (mem_vs_floor, mem_threads) when the kernels have tracked2
if [ -z "$ref" ] || "$ref/kernels/mem_overhead" --help 2>&1 | grep -q tracked2; then
    only+=(--only mem_vs_floor --only mem_threads)
fi
echo "qqbench run configs/qq-overhead.yaml ${only[*]} (${reps} launches per case) ..." >&2
"$build/harness/qqbench" run "$root/configs/qq-overhead.yaml" "${only[@]}" \
    --kernels "$build/kernels" "${against[@]}" --repetitions "$reps" --seed "$seed" \
    --no-confirm --no-report --baselines "$work/baselines" --json "$work/run.json" \
    > "$work/run.txt" 2>&1 || rc=$?
# 1 is qqbench's "a comparison regressed" (the tracked side against the
# reference build's, say): a result to print, not a failure.
if [ "${rc:-0}" -gt 1 ]; then
    cat "$work/run.txt" >&2
    exit 3
fi

python3 - "$work/run.json" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
pairs = 20000
med = {}
for c in d["cases"]:
    for m in c["metrics"]:
        if m["key"] == "pairs" and m["what"] == "per_hit":
            med[c["name"]] = (m["median"], c["tick_mhz"])
# The floor's run (mem_floor: plain, floor and tracked, one thread) in the
# same qqbench run: its plain side is the floor's reference.
floor = {}
for c in d["comparisons"]:
    m = re.match(r"mem_floor\[floor,bytes=(\d+)\]@1$", c.get("case", ""))
    if m and c.get("kind") == "ab" and c["key"] == "pairs":
        floor[int(m.group(1))] = c
ab = {c["case"]: c for c in d["comparisons"] if c.get("kind") == "ab" and c["key"] == "pairs"}
have_ref = any(n.endswith("(reference build)") for n in med)
def ns(name):
    t, mhz = med[name]
    return t / pairs / mhz * 1000.0
head = "| block | threads | plain ns/pair | tracked ns/pair | tracked/plain (95% interval) | floor/plain (95% interval) |"
sep = "|---|---|---|---|---|---|"
if have_ref:
    head += " reference: tracked ns/pair | reference: tracked/plain |"
    sep += "---|---|"
print(head)
print(sep)
rows = []
for name in med:
    m = re.match(r"mem_pairs\[tracked,bytes=(\d+),threads=(\d+)\]@1$", name)
    if m:
        rows.append((int(m.group(1)), int(m.group(2)), name))
for b, t, name in sorted(rows):
    plain = name.replace("tracked", "plain")
    c = ab[name]
    line = "| %d B | %d | %.2f | %.2f | %.2f (%.2f-%.2f) |" % (
        b, t, ns(plain), ns(name), 1 + c["change_pct"] / 100,
        1 + c["interval_lo_pct"] / 100, 1 + c["interval_hi_pct"] / 100)
    f = floor.get(b) if t == 1 else None
    line += " %.2f (%.2f-%.2f) |" % (1 + f["change_pct"] / 100, 1 + f["interval_lo_pct"] / 100,
                                     1 + f["interval_hi_pct"] / 100) if f else " |"
    if have_ref:
        rt, rp = name + " (reference build)", plain + " (reference build)"
        line += " %.2f | %.2f |" % (ns(rt), med[rt][0] / med[rp][0])
    print(line)
def ci(c):
    return "%.2f (%.2f-%.2f)" % (1 + c["change_pct"] / 100, 1 + c["interval_lo_pct"] / 100,
                                 1 + c["interval_hi_pct"] / 100)
goal = sorted(int(m.group(1)) for m in (re.match(r"mem_vs_floor\[tracked,bytes=(\d+)\]@1$", n)
                                       for n in ab) if m)
if goal:
    print()
    print("| block | tracked/floor, 1 thread (95% interval; goal 1.15) | tracked2/tracked: "
          "2 threads on one key against 1 (95% interval; goal 1.5) | plain2/plain (ratio of "
          "medians: the machine's and libc's own) |")
    print("|---|---|---|---|")
    for b in goal:
        f = ab.get("mem_vs_floor[tracked,bytes=%d]@1" % b)
        t = ab.get("mem_threads[tracked2,bytes=%d]@1" % b)
        p1, p2 = "mem_threads[plain,bytes=%d]@1" % b, "mem_threads[plain2,bytes=%d]@1" % b
        pp = "%.2f" % (med[p2][0] / med[p1][0]) if p1 in med and p2 in med else ""
        print("| %d B | %s | %s | %s |" % (b, ci(f) if f else "", ci(t) if t else "", pp))
print()
fp = d.get("fingerprint") or {}
print("run %s, round order seed %s, machine %s (%s, %s cores, %s)" % (
    d.get("date"), d.get("round_order_seed"), fp.get("id"), fp.get("cpu"), fp.get("cores"),
    fp.get("compiler")))
PY

[ "${MEM_CALLGRIND:-1}" = 0 ] && exit 0
command -v valgrind > /dev/null || { echo "(valgrind not found: no callgrind rows)"; exit 0; }
# Instructions per pair in KERNEL's round function for VARIANT and BYTES.
count() {
    local out="$work/cg.out" n=20000 steps=4
    valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect="$2_round" \
        "$1" --variant "$2" --bytes "$3" --size $n --steps $steps > /dev/null 2>&1
    local per
    per=$(callgrind_annotate "$out" 2>/dev/null |
        awk -v p=$((n * (steps + 1))) '/PROGRAM TOTALS/ { gsub(",", "", $1); printf "%.1f", $1 / p }')
    # Nothing counted: the function was inlined away or renamed.
    if [ -z "$per" ] || [ "$per" = 0.0 ]; then
        echo "mem_compare.sh: callgrind counted no instructions in $2_round of $1" >&2
        exit 3
    fi
    echo "$per"
}
echo
head="| block | plain instr/pair | tracked instr/pair | tracked - plain | floor - plain |"
sep="|---|---|---|---|---|"
if [ -n "$ref" ]; then
    head+=" reference: tracked instr/pair | reference: tracked - plain |"
    sep+="---|---|"
fi
echo "$head"
echo "$sep"
for b in 16 64 256 1024 4096 16384 65536; do
    p=$(count "$build/kernels/mem_overhead" plain $b)
    t=$(count "$build/kernels/mem_overhead" tracked $b)
    f=$(count "$build/kernels/mem_overhead" floor $b)
    line="| $b B | $p | $t | $(awk -v a="$t" -v b="$p" 'BEGIN { printf "%.1f", a - b }') |"
    line+=" $(awk -v a="$f" -v b="$p" 'BEGIN { printf "%.1f", a - b }') |"
    if [ -n "$ref" ]; then
        r=$(count "$ref/kernels/mem_overhead" tracked $b)
        line+=" $r | $(awk -v a="$r" -v b="$p" 'BEGIN { printf "%.1f", a - b }') |"
    fi
    echo "$line"
done
