#!/usr/bin/env bash
# A/A: the same kernel compared with itself, against its baseline and as two identical variants: not regressed, exit 0.
#
# One comparison, where the answer does not hang on chance. How often the default settings
# (10 launches, 2%, 95%) call an A/A `regressed` is a rate, simulated on the real judge:
# test_sim_against (tests/unit/test_judge.c) and test_sim_goals (tests/unit/test_judge_runs.c),
# docs/STATISTICS.md section 17. This test used to ask for 20 of 20 tries.
# Variants: 14 rounds at 0.999 make the interval [d(1), d(14)]: `regressed` needs all 14 pair
# ratios above the threshold, each as likely below 1 as above (same command, leads shuffled):
# at most 2^-14 a run, whatever the machine does.
# Baseline: no such bound (the runs are minutes apart): a threshold of 25% asks for this run's
# launches a quarter slower than the baseline's while the machine reference, timed in the same
# launches, says the machine did not slow; and the baseline holds 3 runs, whose spread enters
# the interval.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf bl
cat > aa.yaml <<YAML
suite: planted_aa
defaults:
  repetitions: 14
  confidence: 0.999
  threshold: 25
benchmarks:
  - name: same
    kernel: $QQ_TEST_KERNELS/planted
    variants:
      a: []
      b: []
YAML
qq first.txt err0.txt run aa.yaml --quiet --baselines bl
check "the first run records the baseline (exit $rc)" has first.txt 'this run becomes the baseline'
# Two more runs: a stored baseline gates timing from 3 runs on.
qq more.txt err1.txt run aa.yaml --quiet --baselines bl --update-baseline
qq more.txt err1.txt run aa.yaml --quiet --baselines bl --update-baseline
qq out.txt err.txt run aa.yaml --quiet --baselines bl
verdict='(regressed|improved|unchanged|noisy|blind)'
grep -E "^same\[[ab]\]@1 +work .* $verdict" out.txt || true
check "exit 0 (got $rc)" test "$rc" = 0
check "the A/B row and both baseline rows have verdicts" \
    test "$(grep -cE "^same\[[ab]\]@1 +work .* $verdict" out.txt)" = 3
check "nothing regressed" hasnt out.txt "^same\[[ab]\]@1 +work .* regressed"
[ "$fail" = 0 ] || show first.txt err0.txt out.txt err.txt
finish
