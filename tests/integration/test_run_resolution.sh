#!/usr/bin/env bash
# Net figures near zero: two empty chains are 'unresolved' between variants and against the baseline (never regressed or improved), and a real chain against an empty one keeps its verdict with a note that its size is a bound.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
K="${QQ_KERNEL_DIR:?QQ_KERNEL_DIR not set}/chain"
[ -x "$K" ] || { echo "FAIL: chain kernel not built at $K"; exit 1; }
rm -rf bl
cat > e.yaml <<YAML
suite: resolution
defaults:
  repetitions: 6
  warmup: 1
benchmarks:
  - name: chain
    kernel: $K
    args: [--steps, "5000"]
    variants:
      a0: [--ops, "0"]
      b0: [--ops, "0"]
      c40: [--ops, "40"]
YAML
for run in 1 2; do
    if [ $run = 2 ]; then
        # Two more runs into the baseline: it gates timing from 3 runs on
        # (docs/STATISTICS.md section 17).
        for i in 1 2; do
            qq more.txt more_err.txt run e.yaml --baselines bl -q --update-baseline
            check "baseline run $((i + 1)) added (exit $rc)" test "$rc" = 0
        done
    fi
    qq out$run.txt err$run.txt run e.yaml --baselines bl --json e$run.json
    check "run $run: exit 0 (got $rc)" test "$rc" = 0
    v=$(jq_py e$run.json '[.comparisons[]|select(.case=="chain[b0]@1")|.verdict]|unique|join(",")' \
        '",".join(sorted(set(c["verdict"] for c in d["comparisons"] if c["case"]=="chain[b0]@1")))')
    check "run $run: empty vs empty is unresolved (got '$v')" test "$v" = unresolved
    n=$(jq_py e$run.json '[.comparisons[]|select(.case=="chain[c40]@1" and .kind=="ab")|.figures_below_resolution][0]' \
        '[c["figures_below_resolution"] for c in d["comparisons"] if c["case"]=="chain[c40]@1" and c["kind"]=="ab"][0]')
    v=$(jq_py e$run.json '[.comparisons[]|select(.case=="chain[c40]@1" and .kind=="ab")|.verdict][0]' \
        '[c["verdict"] for c in d["comparisons"] if c["case"]=="chain[c40]@1" and c["kind"]=="ab"][0]')
    check "run $run: 40 multiply-adds vs none: regressed (got $v), one figure below resolution (got $n)" \
        test "$v $n" = "regressed 1"
    check "run $run: the table says why" has out$run.txt 'unresolved \(both within the counter.s resolution'
    check "run $run: the summary counts them" has out$run.txt '^[0-9]+ comparisons? unresolved: net figures within the counter.s resolution'
done
# The second run compared a0 and b0 with the baseline (3 runs) too: unresolved as well.
v=$(jq_py e2.json '[.comparisons[]|select(.kind=="baseline" and (.case=="chain[a0]@1" or .case=="chain[b0]@1"))|.verdict]|unique|join(",")' \
    '",".join(sorted(set(c["verdict"] for c in d["comparisons"] if c["kind"]=="baseline" and c["case"] in ("chain[a0]@1","chain[b0]@1"))))')
check "against the baseline: empty chains unresolved (got '$v')" test "$v" = unresolved
[ "$fail" = 0 ] || show out1.txt out2.txt
finish
