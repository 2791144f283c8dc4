#!/usr/bin/env bash
# Instructions judged exactly, beside cycles: metric: both on planted, a variant with 5% more work per interval reads "instructions +N% exact; cycles ..." (reported between variants, exit 0); the same suite again against the stored baseline is unchanged in every instructions row (+0.00% exact: the counts are identical run to run); the reference case given the same extra work fails against the baseline (exit 1, a JUnit failure). Needs valgrind.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
command -v valgrind >/dev/null || { echo "SKIP: valgrind is not installed"; exit 77; }
suite() {
    cat > "$1" <<YAML
suite: instrs
defaults:
  repetitions: 3
  warmup: 0
  metric: both
benchmarks:
  - name: p
    kernel: $PLANTED
    args: [--work, "2000", --reps, "50"$2]
    variants:
      base: []
      more: [--extra, "50"]
YAML
}
rm -rf bl
suite s.yaml ""
qq out1.txt err1.txt run s.yaml --baselines bl --no-report
check "A/B: exit 0, instructions between variants are reported (got $rc)" test "$rc" = 0
check "the instructions row: exact, beside the cycles" \
    has out1.txt '^p\[more\]@1 +work +instr +[0-9,]+ +[0-9,]+ +\+[0-9.]+% exact +1\.0%  regressed, not gated: instructions \+[0-9.]+% exact; cycles [a-z]+ \([0-9,]+ -> [0-9,]+ instructions per hit \(\+[0-9,]+ exact\)\) \[instructions per launch [0-9,]+ -> [0-9,]+: calls 0, cost [0-9,]+\] vs p\[base\]@1'
qq out2.txt err2.txt run s.yaml --baselines bl --no-report
check "the same suite against its baseline: exit 0 (got $rc)" test "$rc" = 0
check "every instructions row against the baseline is +0.00% exact" \
    test "$(grep -cE '^p\[(base|more)\]@1 +work +instr .* \+0\.00% exact +1\.0%  unchanged: .* vs baseline$' out2.txt)" = 2
check "no count against the baseline moved" hasnt out2.txt 'vs baseline .*regressed|regressed.* vs baseline$'
suite s3.yaml ', --extra, "50"'
qq out3.txt err3.txt run s3.yaml --baselines bl --no-report --junit j.xml
check "the reference case's 5% more instructions fail against the baseline (exit $rc)" test "$rc" = 1
check "its row: regressed, gated" \
    has out3.txt '^p\[base\]@1 +work +instr .* \+[0-9.]+% exact +1\.0%  regressed: instructions .* vs baseline$'
check "JUnit fails it" has j.xml 'name="instructions:work"><failure message="regressed: '
[ "$fail" = 0 ] || show out1.txt err1.txt out2.txt out3.txt err3.txt
finish
