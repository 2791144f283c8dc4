#!/usr/bin/env bash
# Count and cost apart: a variant that times 240 intervals a launch where the reference times 200 (a deterministic count) says so exactly, and splits the change of the total into its count part (+20%) and its cost-per-interval part.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf bl
cat > c.yaml <<YAML
suite: counts
defaults:
  repetitions: 4
  warmup: 0
benchmarks:
  - name: p
    kernel: $PLANTED
    args: [--work, "2000"]
    variants:
      base: [--reps, "200"]
      more: [--reps, "240"]
YAML
qq out.txt err.txt run c.yaml --baselines bl --no-report --json c.json
check "exit 0 (got $rc)" test "$rc" = 0
check "the row says the count, exactly" \
    has out.txt '^p\[more\]@1 +work .*\[intervals per launch 200 -> 240, exact: of the total, count \+20\.0%, cost per interval [-+][0-9.]+%\]'
check "the JSON: 200 and 240 intervals per launch" \
    test "$(jq_py c.json '[.comparisons[]|select(.case=="p[more]@1" and .key=="work")|"\(.intervals_per_launch_before) \(.intervals_per_launch_after) \((.count_change_pct * 1000 | round) / 1000)"][0]' \
        '["%g %g %g" % (c["intervals_per_launch_before"], c["intervals_per_launch_after"], round(c["count_change_pct"], 3)) for c in d["comparisons"] if c["case"]=="p[more]@1" and c["key"]=="work"][0]')" = "200 240 20"
check "the cost part is the change per interval times 240/200" \
    test "$(jq_py c.json '[.comparisons[]|select(.case=="p[more]@1" and .key=="work")|((.cost_part_pct - 1.2 * .change_pct)|fabs < 1e-9)][0]' \
        '[abs(c["cost_part_pct"] - 1.2 * c["change_pct"]) < 1e-9 for c in d["comparisons"] if c["case"]=="p[more]@1" and c["key"]=="work"][0]')" = true
[ "$fail" = 0 ] || show out.txt err.txt
finish
