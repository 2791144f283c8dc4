#!/usr/bin/env bash
# A known cost: dependent chains of 0, 10, 40 and 160 multiply-adds; qqbench's A/B delta in net ticks per hit agrees with the chain timed in bulk within 10% and a tenth of the empty state it subtracts (tests/data/timing/deltas.py says why), and an empty chain reads 0 within a counter step or that tenth.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
if [ -n "${QQ_SANITIZED:-}" ]; then
    # tests/cmake/timing.cmake says why: ASan's shadow check of the opening
    # tick store sits inside every interval, so the agreement with the bulk
    # time is a property of the plain build, where this test runs.
    echo "skipped: sanitizer build (the plain build runs this test)"; exit 77
fi
K="${QQ_KERNEL_DIR:?QQ_KERNEL_DIR not set}/chain"
[ -x "$K" ] || { echo "FAIL: chain kernel not built at $K"; exit 1; }
command -v python3 >/dev/null || { echo "FAIL: python3 is needed to read the report (make deps-test installs it)"; exit 1; }
rm -rf bl
cat > chain.yaml <<YAML
suite: chain
defaults:
  repetitions: 10
  warmup: 1
benchmarks:
  - name: chain
    kernel: $K
    args: [--steps, "20000", --bulk, "1000000"]
    variants:
      n0: [--ops, "0"]
      n10: [--ops, "10"]
      n40: [--ops, "40"]
      n160: [--ops, "160"]
YAML
qq out.txt err.txt run chain.yaml --baselines bl --json chain.json -q
check "exit 0 (got $rc)" test "$rc" = 0
check "JSON is valid" valid_json chain.json
if python3 "$QQ_TEST_DATA/timing/deltas.py" chain.json chain > deltas.txt; then ok "deltas agree"; else bad "deltas agree"; fi
cat deltas.txt
[ "$fail" = 0 ] || show out.txt err.txt
finish
