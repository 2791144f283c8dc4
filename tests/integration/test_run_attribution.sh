#!/usr/bin/env bash
# Attribution: with only the Km line changed (pow -> direct), Ka and Kahp are neither regressed nor improved in A/B, and Km's delta agrees with the line timed in bulk within 25% (the layout of two different pieces of code moves them 4-12% apart between builds; make bench measures the close agreement).
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
K="${QQ_KERNEL_DIR:?QQ_KERNEL_DIR not set}/channel"
[ -x "$K" ] || { echo "FAIL: channel kernel not built at $K"; exit 1; }
command -v python3 >/dev/null || { echo "FAIL: python3 is needed to read the report (make deps-test installs it)"; exit 1; }
rm -rf bl
cat > km.yaml <<YAML
suite: attribution
defaults:
  repetitions: 20
  warmup: 1
  # Ka and Kahp are lines of ~50-80 net ticks: 2% (the default) is about
  # one counter read's jitter; "unchanged" here means within 5%.
  threshold: 5.0
benchmarks:
  - name: km
    kernel: $K
    args: [--bulk, "1000000"]
    keys: [Km, Ka, Kahp, Km_bulk]
    variants:
      pow: [--variant, pow]
      direct: [--variant, direct]
YAML
qq out.txt err.txt run km.yaml --baselines bl --json km.json --max-repetitions 60 -q
check "exit 0 (got $rc)" test "$rc" = 0
check "JSON is valid" valid_json km.json
if python3 "$QQ_TEST_DATA/timing/deltas.py" km.json km > deltas.txt; then ok "Km attributed to Km alone"; else bad "Km attributed to Km alone"; fi
cat deltas.txt
[ "$fail" = 0 ] || show out.txt err.txt
finish
