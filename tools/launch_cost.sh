#!/usr/bin/env bash
# launch_cost.sh [BUILD_DIR] [N] - qqbench's own cost per launch: N launches of one small kernel through qqbench run against N bare fork+exec of it.
# Both write the kernel's .qq file; qqbench also reads it, keeps its samples
# and judges them (no report folder, baselines in a scratch folder). The
# kernel is chain --steps 1: its own run is mostly QQInit's tick calibration.
set -euo pipefail
build=${1:-build}
n=${2:-40}
kernel=$(cd "$build/kernels" && pwd)/chain
qqbench=$build/harness/qqbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/launch.yaml" <<YAML
suite: launch-cost
defaults:
  repetitions: $n
  warmup: 0
benchmarks:
  - name: chain
    kernel: $kernel
    args: ["--steps", "1"]
YAML

now() { date +%s.%N; }
t0=$(now)
for ((i = 0; i < n; i++)); do
    QQ_OUTPUT="$tmp/bare.qq" "$kernel" --steps 1 >/dev/null
done
t1=$(now)
"$qqbench" run "$tmp/launch.yaml" --no-report --baselines "$tmp/baselines" --work "$tmp" -q \
    >"$tmp/run.out" 2>&1 || { cat "$tmp/run.out" >&2; exit 1; }
t2=$(now)
awk -v n="$n" -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN {
    bare = (b - a) / n * 1e3; run = (c - b) / n * 1e3
    printf "launches %d\nbare_ms_per_launch %.2f\nqqbench_ms_per_launch %.2f\n", n, bare, run
    printf "harness_ms_per_launch %.2f\nratio %.2f\n", run - bare, run / bare
}'
