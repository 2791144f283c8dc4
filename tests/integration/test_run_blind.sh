#!/usr/bin/env bash
# A baseline whose runs move by more than the 30% bound is blind, not judged: a planted 3x slowdown
# reads blind (exit 0) instead of regressed; --fail-on-blind and the suite's fail_on_blind: true make
# it fail (exit 1); the row names the gate that could see it; the summary counts it; the JSON says
# "blind" with seen_by; JUnit fails it under --fail-on-blind (docs/STATISTICS.md section 17).
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf bl ./*.json ./*.xml
# The kernel through a wrapper, so that every run has the same command
# line (its runs accumulate in the baseline) while the work it plants is
# read from the file `extra`.
cat > wrap.sh <<SH
#!/bin/sh
exec "$PLANTED" --reps 50 --extra "\$(cat "$PWD/extra")"
SH
chmod +x wrap.sh
mk() { # mk EXTRA_SETTING
    cat > bl.yaml <<YAML
suite: blind
defaults:
  repetitions: 6
  warmup: 0
  threshold: 3
$1
benchmarks:
  - name: mine
    kernel: $PWD/wrap.sh
    keys: [work]
YAML
}
mk ""
# Three runs 30% apart in turn (0, +30%, +60% of the work): the run shift
# is about 25% on the log scale, and the interval's floor (t on 2 degrees
# of freedom, 4.3, times the shift) is far beyond the 30% bound, on any
# machine: the row is not judged, whatever the change.
echo 0 > extra
qq out.txt err.txt run bl.yaml --baselines bl -q
check "first run records the baseline (exit $rc)" test "$rc" = 0
for e in 300 600; do
    echo $e > extra
    qq out.txt err.txt run bl.yaml --baselines bl -q --update-baseline
    check "run at --extra $e added (exit $rc)" test "$rc" = 0
done
check "the baseline holds 3 runs" has "$(ls bl/*/blind.yaml)" '^  runs: 3$'

# Three times the work: blind, not judged; passes.
echo 2000 > extra
qq out.txt err.txt run bl.yaml --baselines bl -q --no-confirm --json o.json --junit o.xml
check "3x against runs 30% apart: exit 0 (got $rc)" test "$rc" = 0
check "the row is blind, not judged" has out.txt '^mine@1 +work .* blind \(runs move \+/-[0-9.]+%: not judged; '
check "the row names the gate" has out.txt 'blind \(.*(--against \(qqbench ci\) or a pinned machine|baseline runs would see 3\.0%)'
check "no timing NOTE: 3 runs gate" hasnt out.txt '^NOTE: timing is not gated'
check "nothing regressed" hasnt out.txt '^mine@1 +work .* regressed'
check "the summary counts it" has out.txt '^1 baseline comparison is blind: .*they pass; --fail-on-blind makes them fail\.$'
check "the last line counts it" has out.txt '^qqbench: .* 0 regressed, 0 improved, 0 unchanged, 0 noisy, 1 blind; '
check "JSON: verdict blind" test "$(jq_py o.json '.comparisons[0].verdict' 'd["comparisons"][0]["verdict"]')" = blind
check "JSON: seen_by names a gate" has <(jq_py o.json '.comparisons[0].seen_by' 'd["comparisons"][0]["seen_by"]') \
    '^(--against|more baseline runs)$'
check "JUnit: blind passes" has o.xml 'failures="0"'
[ "$rc" = 0 ] || show out.txt err.txt

qq out.txt err.txt run bl.yaml --baselines bl -q --no-confirm --fail-on-blind --junit o.xml
check "--fail-on-blind: exit 1 (got $rc)" test "$rc" = 1
check "--fail-on-blind: said" has out.txt 'they fail the run \(--fail-on-blind\)'
check "--fail-on-blind: a JUnit failure" has o.xml '<failure message="blind \(--fail-on-blind\): runs move \+/-'
qq out.txt err.txt run bl.yaml --baselines bl -q --no-confirm --fail-on-noisy
check "--fail-on-noisy: blind passes (got $rc)" test "$rc" = 0

mk "  fail_on_blind: true"
qq out.txt err.txt run bl.yaml --baselines bl -q --no-confirm
check "fail_on_blind: true: exit 1 (got $rc)" test "$rc" = 1
check "fail_on_blind: true: said" has out.txt 'those of benchmarks with fail_on_blind: true fail the run'
finish
