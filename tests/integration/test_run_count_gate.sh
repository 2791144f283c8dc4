#!/usr/bin/env bash
# Calls per launch judged exactly: a 2-case x 2-key suite whose variant calls key 'side' 150 times a launch where the reference calls it 100 reads "called 100 -> 150 times per launch", its 'work' (50 calls on both sides) shows no calls row, and the run exits 1 only where the suite says gate: counts.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
suite() {
    cat > "$1" <<YAML
suite: countgate
defaults:
  repetitions: 3
  warmup: 0
$2
benchmarks:
  - name: p
    kernel: $PLANTED
    args: [--work, "2000", --reps, "50"]
    variants:
      base: [--side, "2"]
      more: [--side, "3"]
YAML
}
suite c.yaml ""
qq out.txt err.txt run c.yaml --baselines bl --no-report --json c.json
check "without gate: counts, exit 0 (got $rc)" test "$rc" = 0
check "the calls row says the count, exactly" \
    has out.txt '^p\[more\]@1 +side +calls +100 +150 +\+50\.00% exact +1\.0%  regressed, not gated \(called 100 -> 150 times per launch\) vs p\[base\]@1 \[gate: counts would fail the run\]'
check "work's calls, the same on both sides, have no row" hasnt out.txt '^p\[more\]@1 +work +calls'
check "the summary counts it, failing nothing" has out.txt '^qqbench: counts: 1 regressed \(0 failing the run\)'
check "the JSON has the row, exact" \
    test "$(jq_py c.json '[.count_comparisons[]|select(.key=="side" and .figure=="calls")|"\(.before) \(.after) \(.exact) \(.gated) \(.verdict)"][0]' \
        '["%g %g %s %s %s" % (c["before"], c["after"], str(c["exact"]).lower(), str(c["gated"]).lower(), c["verdict"]) for c in d["count_comparisons"] if c["key"]=="side" and c["figure"]=="calls"][0]')" = "100 150 true false regressed"
qq rep.txt rep.err report c.json --out rep --no-plot
check "the page lists the calls row (exit $rc)" \
    has rep/index.html '<td>p\[more\]@1</td><td>side</td><td>p\[base\]@1</td><td>calls</td><td class="n">100</td><td class="n">150</td><td class="n">\+50\.00% exact</td><td><span class="chip"></span>regressed, not gated<br><span class="note">called 100 -&gt; 150 times per launch'
rm -rf bl
suite g.yaml "  gate: counts"
qq out2.txt err2.txt run g.yaml --baselines bl --no-report --junit g.xml
check "with gate: counts, exit 1 (got $rc)" test "$rc" = 1
check "the row fails the run" \
    has out2.txt '^p\[more\]@1 +side +calls +100 +150 +\+50\.00% exact +1\.0%  regressed \(called 100 -> 150 times per launch\)'
check "the summary says it fails" has out2.txt '^qqbench: counts: 1 regressed \(1 failing the run\)'
check "JUnit fails the calls of side" has g.xml '<testcase classname="countgate.p\[more\]@1" name="calls:side"><failure message="regressed: called 100 -&gt; 150 times per launch'
[ "$fail" = 0 ] || show out.txt err.txt out2.txt err2.txt
finish
