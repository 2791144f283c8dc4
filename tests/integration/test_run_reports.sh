#!/usr/bin/env bash
# qqbench run --json FILE and --junit FILE: valid JSON with cases, samples and comparisons; well-formed JUnit with a testcase per compared key, <failure> for a regression, <error> for a kernel failure.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf bl ./*.json ./*.xml
mk() { # mk BYTES: a benchmark with memory (deterministic regression) and a crashing one
    cat > rep.yaml <<YAML
suite: reports
defaults:
  repetitions: 3
  warmup: 0
benchmarks:
  - name: alloc
    kernel: $PLANTED
    args: [--mem, "$1"]
    variants:
      a: []
      b: [--extra, "100"]
  - name: crash
    kernel: $PLANTED
    args: [--crash]
YAML
}
jcount() { jq_py "$1" "$2" "$3"; }

# A first run (no baseline): the JSON still holds the cases and the A/B.
mk 1000
qq out.txt err.txt run rep.yaml --only alloc --baselines bl -q --json first.json --junit first.xml
check "first run exits 0 (got $rc)" test "$rc" = 0
check "first JSON is valid" valid_json first.json
check "first JSON has \"comparisons\"" grep -q '"comparisons"' first.json
check "first JSON: baseline null" test "$(jq_py first.json '.baseline' 'd["baseline"]')" = null
check "first JSON: 2 cases" test "$(jcount first.json '.cases|length' 'len(d["cases"])')" = 2
check "first JSON: each case has 3 per_hit samples" test "$(jcount first.json \
    '[.cases[].metrics[]|select(.key=="work" and .what=="per_hit")|.samples|length]|join(",")' \
    '",".join(str(len(m["samples"])) for c in d["cases"] for m in c["metrics"] if m["key"]=="work" and m["what"]=="per_hit")')" = "3,3"
check "first JSON: one A/B comparison of work" test "$(jcount first.json \
    '[.comparisons[]|select(.kind=="ab" and .key=="work" and .case=="alloc[b]@1" and .reference=="alloc[a]@1")]|length' \
    'len([c for c in d["comparisons"] if c["kind"]=="ab" and c["key"]=="work" and c["case"]=="alloc[b]@1" and c["reference"]=="alloc[a]@1"])')" = 1
check "first JSON: verdicts are words" test "$(jcount first.json \
    '[.comparisons[]|select(.verdict|IN("improved","unchanged","regressed","noisy")|not)]|length' \
    'len([c for c in d["comparisons"] if c["verdict"] not in ("improved","unchanged","regressed","noisy")])')" = 0
check "first JUnit is well-formed" valid_xml first.xml
check "first JUnit: no failures" has first.xml '<testsuite name="reports" tests="0" failures="0" errors="0"'

# Two more runs of the baseline: from 3 runs on it gates timing
# (docs/STATISTICS.md section 17), so the run below has timing rows too.
for i in 1 2; do
    qq more.txt more_err.txt run rep.yaml --only alloc --baselines bl -q --update-baseline
    check "baseline run $((i + 1)) added (exit $rc)" test "$rc" = 0
done

# Memory regression (deterministic) and a crash in one run.
mk 2000
qq out.txt err.txt run rep.yaml --baselines bl -q --json out.json --junit out.xml
check "memory regression + crash: exit 3 (got $rc)" test "$rc" = 3
check "JSON is valid" valid_json out.json
check "JSON: exit_code 3, 1 kernel failure" test "$(jq_py out.json '"\(.exit_code) \(.kernel_failures)"' 'str(d["exit_code"])+" "+str(d["kernel_failures"])')" = "3 1"
check "JSON: 3 cases, crash@1 failed with a note" test "$(jcount out.json \
    '[.cases[]|select(.name=="crash@1" and .failed and (.note|test("signal 11")))]|length' \
    'len([c for c in d["cases"] if c["name"]=="crash@1" and c["failed"] and "signal 11" in c["note"]])')" = 1
check "JSON: baseline comparisons of both alloc cases" test "$(jcount out.json \
    '[.comparisons[]|select(.kind=="baseline" and .key=="work")]|length' \
    'len([c for c in d["comparisons"] if c["kind"]=="baseline" and c["key"]=="work"])')" = 2
check "JSON: comparisons carry an interval and a threshold" test "$(jcount out.json \
    '[.comparisons[]|select(has("interval_lo_pct") and has("interval_hi_pct") and has("threshold_pct") and has("change_pct"))]|length' \
    'len([c for c in d["comparisons"] if all(k in c for k in ("interval_lo_pct","interval_hi_pct","threshold_pct","change_pct"))])')" = 3
check "JSON: memory regressions of buffers in both alloc cases" test "$(jcount out.json \
    '[.memory_changes[]|select(.kind=="baseline" and .key=="buffers" and .verdict==1)]|length' \
    'len([m for m in d["memory_changes"] if m["kind"]=="baseline" and m["key"]=="buffers" and m["verdict"]==1])')" = 2
check "JUnit is well-formed" valid_xml out.xml
# A testcase per compared key against the baseline (work x 2, memory:buffers
# x 2) and one per failed launch.
ntc=$(grep -c '<testcase ' out.xml || true)
check "JUnit: 5 testcases (got $ntc)" test "$ntc" = 5
check "JUnit: a testcase per compared timing key" test "$(grep -cE '<testcase classname="reports\.alloc\[(a|b)\]@1" name="work">' out.xml)" = 2
check "JUnit: <failure> for the memory regression" \
    test "$(grep -cE '<testcase classname="reports\.alloc\[(a|b)\]@1" name="memory:buffers"><failure message="memory regressed: live 1000 -> 2000' out.xml)" = 2
check "JUnit: <error> for the crash" has out.xml '<testcase classname="reports\.crash@1" name="launch"><error message="crashed: killed by signal 11'
check "JUnit: the counts in <testsuite>" has out.xml '<testsuite name="reports" tests="5" failures="[2-4]" errors="1"'

# Unwritable report paths are bad input.
mk 1000
qq out.txt err.txt run rep.yaml --only alloc --baselines bl -q --json /nonexistent-dir/x.json
check "unwritable --json: exit 2 (got $rc)" test "$rc" = 2
check "unwritable --json: says so" has err.txt 'x.json: error: cannot write the JSON report'
qq out.txt err.txt run rep.yaml --only alloc --baselines bl -q --junit /nonexistent-dir/x.xml
check "unwritable --junit: exit 2 (got $rc)" test "$rc" = 2
finish
