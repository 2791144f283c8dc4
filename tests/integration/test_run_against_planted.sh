#!/usr/bin/env bash
# --against on real launches, only where the answer is decided by orders of magnitude or bounded
# by the sign test's level: a planted 10x in the change build is regressed vs the reference build,
# and an A/A (the same kernel on both sides) is not.
#
# Whether a true +3% or +0.3% reads `regressed` against a 2% threshold is a matter of chance (a
# +3% was once `+3.58% [+1.95, +4.25] noisy`, a correct answer): those rates are checked in
# simulation on the real judge functions, test_sim_against in tests/unit/test_judge.c.
#
# 10x: the first look (10 pairs) cannot decide at O'Brien-Fleming's first level (4.6e-9), so
# the rounds go on; at the second look `regressed` needs all 20 pair ratios above +2%, at the
# third 25 of 30, and so on to the eighth: it fails only if rounds' reference launches read about
# 10x slower (their 10th percentile of 200 intervals) than the change launch beside them, in
# several rounds at every look.
#
# A/A: 14 rounds at confidence 0.999 make the interval [d(1), d(14)], and `regressed` needs every
# pair ratio above +2%. The two builds run the same binary, leads shuffled in every block, so each
# pair's ratio is as likely below 1 as above it whatever the machine does: P(all 14 above) is at
# most 2^-14 = 6.1e-5 per run of this test.
# Not a certainty, a rate below 1 in 10,000; the default 10 rounds at 95% would give 11/1024.
# --max-repetitions 14 keeps it one look: a noisy row would otherwise measure 14 more rounds at a
# time up to 112, and each look at n pairs spends the level again (4.6e-4 at 28 pairs).
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf chg ref bl ./*.txt
mkdir -p chg/x10 chg/aa ref/x10 ref/aa
printf '#!/bin/sh\nexec "%s" "$@" --extra 9000\n' "$PLANTED" > chg/x10/planted
chmod +x chg/x10/planted
ln -s "$PLANTED" ref/x10/planted
ln -s "$PLANTED" chg/aa/planted
ln -s "$PLANTED" ref/aa/planted
# The 10x with the shipped settings (10 rounds, threshold 2%, 95%; docs/SUITE.md).
cat > x10.yaml <<YAML
suite: planted_x10
benchmarks:
  - name: x10
    kernel: chg/x10/planted
YAML
cat > aa.yaml <<YAML
suite: planted_aa
benchmarks:
  - name: aa
    kernel: chg/aa/planted
    repetitions: 14
    confidence: 0.999
YAML
qq out.txt err.txt run x10.yaml --kernels chg --against ref --baselines bl --quiet
l=$(grep -E '^x10@1 +work .*vs reference build' out.txt | tail -1 || true)
echo "10x (exit $rc): $l"
check "10x regressed vs reference build" test -n "$(echo "$l" | grep ' regressed vs reference build')"
check "10x: exit 1 (got $rc)" test "$rc" = 1
[ "$rc" = 1 ] || show out.txt err.txt
rm -rf bl
qq out.txt err.txt run aa.yaml --kernels chg --against ref --baselines bl --quiet \
    --max-repetitions 14
l=$(grep -E '^aa@1 +work .*vs reference build' out.txt | tail -1 || true)
echo "A/A (exit $rc): $l"
check "A/A compared with the reference build" test -n "$l"
check "A/A not regressed" test -z "$(echo "$l" | grep ' regressed vs reference build')"
check "A/A: exit 0 (got $rc)" test "$rc" = 0
[ "$rc" = 0 ] || show out.txt err.txt
finish
