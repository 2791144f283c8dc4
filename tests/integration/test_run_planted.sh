#!/usr/bin/env bash
# A planted 5% of extra work is regressed in every one of 3 tries; a planted 0.3% never, at a 2% threshold (A/B, interleaved).
set -euo pipefail
# A fresh baseline: one left by an earlier run of the tests (another build
# of the kernel, another day) would be judged against too.
rm -rf bl
cat > planted.yaml <<YAML
suite: planted_ab
defaults:
  # 20 pairs: the paired sign-test interval then tolerates five launches
  # on each side that a slowdown of the machine hit alone (k = 6 at 95%,
  # docs/STATISTICS.md section 12).
  repetitions: 20
  threshold: 2.0
benchmarks:
  - name: planted
    kernel: $QQ_TEST_KERNELS/planted
    variants:
      base: []
      plus5: ["--extra", "50"]
      plus03: ["--extra", "3"]
YAML
# Real launches show that the kernel's planted work reaches the verdict
# through the whole pipeline; the rates (power at +5%, false alarms at
# +0.3%) are checked in seeded simulation on the same C functions
# (test_stats, (b), (c), (p2), (p3)), so three tries are enough here.
pass=0 fail=0
for try in $(seq 1 3); do
    "$QQBENCH" run planted.yaml --quiet --baselines bl --max-repetitions 80 > out.txt 2> err.txt || { cat out.txt err.txt; exit 1; }
    v03=$(grep -E 'planted\[plus03\]@1 +work .*(regressed|improved|unchanged|noisy)' out.txt | tail -1)
    line5=$(grep -E 'planted\[plus5\]@1 +work .*(regressed|improved|unchanged|noisy)' out.txt | tail -1)
    echo "try $try: plus5: ${line5}"
    echo "try $try: plus03: ${v03}"
    if [[ "$line5" == *" regressed"* ]]; then pass=$((pass+1)); else echo "FAIL: try $try: +5% not regressed"; fail=$((fail+1)); fi
    if [[ "$v03" == *" regressed"* ]]; then echo "FAIL: try $try: +0.3% called regressed"; fail=$((fail+1)); else pass=$((pass+1)); fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
