#!/usr/bin/env bash
# A/A: the same kernel compared with itself 5 times, against its baseline and as two identical variants, with default settings: never regressed.
set -euo pipefail
rm -rf bl
cat > aa.yaml <<YAML
suite: planted_aa
benchmarks:
  - name: same
    kernel: $QQ_TEST_KERNELS/planted
    variants:
      a: []
      b: []
YAML
"$QQBENCH" run aa.yaml --quiet --baselines bl > first.txt 2>&1 || { cat first.txt; exit 1; }
grep -q 'this run becomes the baseline' first.txt
# The rate of false alarms is checked in seeded simulation on the same C
# functions (test_stats (a), (p1), (p4); test_judge's false
# confirmations); the real launches show that nothing in the pipeline
# (launch order, the baseline's store) makes identical code differ.
tries=5
pass=0 fail=0 confirmations=0
for try in $(seq 1 $tries); do
    rc=0
    "$QQBENCH" run aa.yaml --quiet --baselines bl > out.txt 2>&1 || rc=$?
    grep -q 'confirmation run' out.txt && confirmations=$((confirmations+1))
    if [ "$rc" != 0 ] || grep -E '^same\[[ab]\]@1 +work .* regressed' out.txt | grep -vq 'not confirmed'; then
        echo "FAIL: try $try (exit $rc):"; cat out.txt; fail=$((fail+1))
    else
        pass=$((pass+1))
    fi
    grep -E '^same\[[ab]\]@1 +work' out.txt | sed "s/^/try $try: /"
done
echo "confirmation runs needed: $confirmations of $tries"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
