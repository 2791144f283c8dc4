#!/usr/bin/env bash
# A/B (interleaved variants) on real launches: a planted 10x is regressed against its reference variant, an A/A pair of variants is not.
#
# Only what orders of magnitude or the sign test's level decide. Whether a planted +5% or +0.3%
# reads `regressed` at a 2% threshold is a matter of chance (power below 1): those rates are
# checked in simulation on the same judge functions (ab_row, the paired sign-test interval, more
# rounds while noisy, in test_sim_against of tests/unit/test_judge.c). This test used to ask for
# +5% `regressed` in 10 of 10 tries.
#
# 10x: `regressed` needs 9 of 10 pair ratios above +2%: it fails only if two rounds' reference
# launches read about 10x slower than the variant's launch beside them.
# A/A: 14 rounds at 0.999 make the interval [d(1), d(14)]; `regressed` needs all 14 pair ratios
# above +2%. Both variants run the same command, leads shuffled in every block, so each ratio is
# as likely below 1 as above it whatever the machine does: at most 2^-14 = 6.1e-5 a run.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
# A fresh baseline: one left by an earlier run of the tests (another build
# of the kernel, another day) would be judged against too.
rm -rf bl
cat > planted.yaml <<YAML
suite: planted_ab
benchmarks:
  - name: planted
    kernel: $QQ_TEST_KERNELS/planted
    variants:
      base: []
      x10: ["--extra", "9000"]
  - name: same
    kernel: $QQ_TEST_KERNELS/planted
    repetitions: 14
    confidence: 0.999
    variants:
      a: []
      b: []
YAML
qq out.txt err.txt run planted.yaml --quiet --baselines bl
# The A/B rows (the table of each case's figures names the case too).
verdict='(regressed|improved|unchanged|noisy)'
x10=$(grep -E "^planted\[x10\]@1 +work .* $verdict" out.txt | tail -1 || true)
aa=$(grep -E "^same\[b\]@1 +work .* $verdict" out.txt | tail -1 || true)
echo "x10: $x10"
echo "A/A: $aa"
check "exit 0: A/B rows never fail a run (got $rc)" test "$rc" = 0
check "10x regressed against the base variant" test -n "$(echo "$x10" | grep ' regressed')"
check "A/A compared (a verdict)" test -n "$aa"
check "A/A not regressed" test -z "$(echo "$aa" | grep ' regressed')"
[ "$fail" = 0 ] || show out.txt err.txt
finish
