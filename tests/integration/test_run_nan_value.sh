#!/usr/bin/env bash
# A NaN QQValue is refused once, by the reader, with the key named: the launch fails (exit 3), the other benchmark is still measured, and no baseline changes.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf bl work nan.qq ./*.txt
mkdir work
cat > nan.yaml <<YAML
suite: nan
defaults:
  repetitions: 2
  warmup: 0
benchmarks:
  - name: good
    kernel: $PLANTED
  - name: nan
    kernel: $PLANTED
    args: [--nan]
YAML
rc=0
record3 nan.yaml --only good --baselines bl || rc=$?
check "baseline of the good benchmark recorded, 3 runs (exit $rc)" test "$rc" = 0
bfile=$(ls bl/*/nan.yaml)
cp "$bfile" baseline.before

qq out.txt err.txt run nan.yaml --baselines bl --work work --update-baseline
check "exit 3: the NaN kernel failed (got $rc)" test "$rc" = 3
[ "$rc" = 3 ] || show out.txt err.txt
check "the failure names the key and the value" \
    has out.txt "^  nan@1: damaged QQ file: .*value key 'ratio' the value nan"
check "the good benchmark is still compared with its baseline" \
    test "$(sed -n '/^Against the baseline/,/^change:/p' out.txt | grep -cE '^good@1 +work ')" = 1
check "no 'not a finite number' from the baseline writer" hasnt err.txt 'not a finite number'
check "the baseline is untouched" cmp -s baseline.before "$bfile"

# The same refusal in the other tools.
QQ_OUTPUT=nan.qq "$PLANTED" --nan
qq st.txt st.err st nan.qq
check "st: exit 2 (got $rc)" test "$rc" = 2
check "st: names the key" has st.err "value key 'ratio' the value nan"
qq cmp.txt cmp.err compare nan.qq nan.qq
check "compare: exit 2 (got $rc)" test "$rc" = 2
check "compare: names the key" has cmp.err "value key 'ratio' the value nan"
finish
