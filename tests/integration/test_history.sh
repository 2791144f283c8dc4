#!/usr/bin/env bash
# qqbench history: the --record snapshots as series, cycles of this machine only (a change marked *), memory per key from every machine; no snapshot is an error.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
KD="${QQ_KERNEL_DIR:?}"
rm -rf bl bl2 pics pics2
mk() {
cat > h.yaml <<YAML
suite: hist
defaults:
  repetitions: 3
  warmup: 0
benchmarks:
  - name: chain
    kernel: $KD/chain
    args: [--steps, "2000", --ops, "$1"]
  - name: brain
    kernel: $KD/brain
    args: [--steps, "2", --cells, "$2"]
YAML
}
qq out.txt err.txt history h.yaml --baselines bl
mk 10 4
qq out.txt err.txt history h.yaml --baselines bl
check "no snapshot: exit 2 (got $rc)" test "$rc" = 2
check "no snapshot: says how to make one" has err.txt "no snapshot of suite 'hist'.*--record"
QQBENCH_FINGERPRINT=machine-a "$QQBENCH" run h.yaml --baselines bl --record v1 --no-report -q >/dev/null 2>&1 || true
mk 40 8
# Memory grew: accepted, so that v3 has v2's run as its baseline (a run
# that fails records no first baseline of its machine).
QQBENCH_FINGERPRINT=machine-b "$QQBENCH" run h.yaml --baselines bl --record v2 --update-baseline --no-report -q >/dev/null 2>&1 || true
# Two more runs into machine-b's baseline (no snapshot): it gates timing from 3 runs on.
for i in 1 2; do QQBENCH_FINGERPRINT=machine-b "$QQBENCH" run h.yaml --baselines bl --update-baseline --no-report -q >/dev/null 2>&1 || true; done
QQBENCH_FINGERPRINT=machine-b "$QQBENCH" run h.yaml --baselines bl --record v3 --no-report -q >/dev/null 2>&1 || true
# A snapshot keeps the verdicts of its run against the baseline (v3 had
# v2's run as its baseline; v2 had none), for keys noisy run after run.
check "v3 keeps its run's verdicts" has bl/machine-b/history/hist@v3.yaml '^- \{case: .*, verdict: [a-z]+\}$'
check "v2 (no baseline then) keeps none" hasnt bl/machine-b/history/hist@v2.yaml '^verdicts:'
export QQBENCH_FINGERPRINT=machine-b
qq out.txt err.txt history h.yaml --baselines bl
check "exit 0 (got $rc)" test "$rc" = 0
check "three snapshots" has out.txt '^Suite hist: 3 snapshots'
check "cycles are this machine's: v2 and v3, not v1" \
    sh -c "sed -n '/^Cycles/,/^Memory/p' out.txt | grep -q '^    v2 ' && ! sed -n '/^Cycles/,/^Memory/p' out.txt | grep -q '^    v1 '"
check "memory from every machine: v1 on machine-a" has out.txt '^    v1 .*\(machine-a\)'
check "memory from every machine: v2 on machine-b, marked changed" has out.txt '^    v2 .*\(machine-b\) \*$'
export QQBENCH_FINGERPRINT=machine-a
qq out.txt err.txt history h.yaml --baselines bl --key chain
unset QQBENCH_FINGERPRINT
check "--key and the other machine: v1's cycles, no brain" \
    sh -c "grep -q '^    v1 .* cyc' out.txt && ! grep -q 'brain' out.txt"
# The pictures: data, script, SVG and PNG for cycles and memory; the
# script draws them again with no warning.
export QQBENCH_FINGERPRINT=machine-b
qq out.txt err.txt history h.yaml --baselines bl --plot pics
unset QQBENCH_FINGERPRINT
check "--plot: exit 0 (got $rc)" test "$rc" = 0
for p in history-cycles history-memory; do
    check "--plot: $p.png and .svg" test -s pics/$p.png -a -s pics/$p.svg
    check "--plot: $p.svg is XML" valid_xml pics/$p.svg
    check "--plot: $p.gp re-runs with no warning" \
        sh -c "cd pics && gnuplot $p.gp 2> $p.replot.err && test ! -s $p.replot.err"
done
check "--plot: the memory data has the labels of both machines" \
    sh -c "grep -q '\"v1\"' pics/history-memory.dat && grep -q '\"v3\"' pics/history-memory.dat"
# --key of a timed key only: no memory series, so no history-memory picture,
# and the announcement names only what was written (issue 24).
rm -rf pics2
QQBENCH_FINGERPRINT=machine-b qq out.txt err.txt history h.yaml --baselines bl --key chain --plot pics2
check "--key chain --plot: exit 0 (got $rc)" test "$rc" = 0
check "--key chain --plot: history-cycles drawn" test -s pics2/history-cycles.png
check "--key chain --plot: no history-memory picture" test ! -e pics2/history-memory.png
check "--key chain --plot: announces history-cycles only" \
    has err.txt '^qqbench: pictures in pics2 \(history-cycles\)$'
check "--key chain --plot: does not announce history-memory" hasnt err.txt 'history-memory'
# Snapshots with the same date (to the second: recorded in one second by a
# script) come in version order: v9 before v10, not by text.
mkdir -p bl2/machine-b/history
for v in v10 v9; do
    sed -e "s/^label: .*/label: $v/" -e 's/^date: .*/date: "2026-01-02T03:04:05Z"/' \
        bl/machine-b/history/hist@v3.yaml > bl2/machine-b/history/hist@$v.yaml
done
QQBENCH_FINGERPRINT=machine-b qq out.txt err.txt history h.yaml --baselines bl2
check "same date: exit 0 (got $rc)" test "$rc" = 0
check "same date: v9 before v10" \
    awk '$1 == "v9" && !s { s = NR } $1 == "v10" && !t { t = NR } END { exit !(s && t && s < t) }' out.txt
: > blocked
qq out.txt err.txt history h.yaml --baselines bl --plot blocked/x
check "--plot into a file: exit 2 (got $rc)" test "$rc" = 2
[ "$fail" = 0 ] || show out.txt err.txt
finish
