#!/usr/bin/env bash
# A suite of 19 cases (one alone, then 9 parameter points x 2 variants, so groups straddle the 8th/9th and 16th/17th cases): every case keeps all its launches (launches == repetitions), gets a row against the baseline and an A/B row; none is lost when the results grow (issue 10, defect 1). Meant to run under ASan too.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf bl ./*.json
cat > many.yaml <<YAML
suite: many
defaults:
  repetitions: 3
  warmup: 0
benchmarks:
  - name: solo
    kernel: $PLANTED
    args: [--reps, "20", --work, "500"]
  - name: grid
    kernel: $PLANTED
    args: [--reps, "20", --work, "{work}"]
    params:
      work: ["1000", "1100", "1200", "1300", "1400", "1500", "1600", "1700", "1800"]
    variants:
      a: []
      b: [--extra, "10"]
YAML
count() { jq_py "$1" "$2" "$3"; }
# The first run records the baseline; two more make it 3 runs, the least a
# stored baseline gates timing with (docs/STATISTICS.md section 17); the
# second run is judged against those. --max-repetitions 3: the plan against
# a stored baseline takes no more launches than the repetitions.
for run in first more1 more2 second; do
    qq out.txt err.txt run many.yaml --baselines bl -q --max-repetitions 3 --json $run.json \
        $(case $run in more*) echo --update-baseline ;; esac)
    check "$run run exits 0 or 1 (got $rc)" test "$rc" -le 1
    [ "$rc" -le 1 ] || show out.txt err.txt
    check "$run: 19 cases in the JSON" test "$(count $run.json '.cases|length' 'len(d["cases"])')" = 19
    check "$run: every case has launches == 3" test "$(count $run.json \
        '[.cases[]|select(.launches!=3)]|length' 'len([c for c in d["cases"] if c["launches"] != 3])')" = 0
    check "$run: every case has 3 per_hit samples of work" test "$(count $run.json \
        '[.cases[]|select([.metrics[]|select(.key=="work" and .what=="per_hit")|.samples|length]!=[3])]|length' \
        'len([c for c in d["cases"] if [len(m["samples"]) for m in c["metrics"] if m["key"]=="work" and m["what"]=="per_hit"] != [3]])')" = 0
    check "$run: 9 A/B rows of work" test "$(count $run.json \
        '[.comparisons[]|select(.kind=="ab" and .key=="work")]|length' \
        'len([c for c in d["comparisons"] if c["kind"]=="ab" and c["key"]=="work"])')" = 9
done
check "second: 19 rows against the baseline" test "$(count second.json \
    '[.comparisons[]|select(.kind=="baseline" and .key=="work")]|length' \
    'len([c for c in d["comparisons"] if c["kind"]=="baseline" and c["key"]=="work"])')" = 19
base=$(ls bl/*/many.yaml)
check "the baseline holds no case with 0 launches" hasnt "$base" 'launches: 0'
for w in 1300 1800; do
    check "the table has grid[b,work=$w]@1" has out.txt "grid\[b,work=$w\]@1"
done
finish
