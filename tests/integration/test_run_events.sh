#!/usr/bin/env bash
# QQ_EVENTS (a suite's events:) sizes QQInit's buffer in any program, the larger of the two; a program built without -DQQ_ENABLE fails with a message naming both causes of a missing file.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
on="$QQ_TEST_KERNELS/events_on"
off="$QQ_TEST_KERNELS/events_off"
[ -x "$on" ] && [ -x "$off" ] || { echo "FAIL: events_on/events_off not built"; exit 1; }
rm -rf bl ./*.json ./*.txt ./*.yaml
# events INIT HITS: QQInit(INIT), HITS intervals of 2 events each, QQOut
# with the paper's API only (no kqq_events).
cat > ev.yaml <<YAML
suite: events
defaults: {repetitions: 2, warmup: 0}
benchmarks:
  - name: small
    kernel: $on
    args: ["10", "20"]
  - name: raised
    kernel: $on
    args: ["10", "20"]
    events: 100
  - name: lowered
    kernel: $on
    args: ["10", "20"]
    events: 4
YAML
qq out.txt err.txt run ev.yaml --baselines bl --json ev.json
# small and lowered lose 30 events per launch: such a run gates nothing and
# becomes no baseline (exit 2, the case and the fix named).
check "dropped events: exit 2 (got $rc)" test "$rc" = 2
check "dropped events: one line names the case and the fix" \
    has err.txt "error: small@1: 60 events dropped .*raise 'events:'.*allow_dropped: true"
check "dropped events: the timing baseline was not written" test -z "$(ls bl/*/events.yaml 2>/dev/null)"
check "dropped events: it says so" has err.txt 'events were dropped: the baseline was not written'
[ "$rc" = 2 ] || show out.txt err.txt
# hits CASE: the median hits of key 'loop' per launch.
hits() {
    local v
    v=$(jq_py ev.json "[.cases[] | select(.name == \"$1\") | .metrics[] | select(.key == \"loop\" and .what == \"hits\") | .median][0]" \
        "[m['median'] for c in d['cases'] if c['name'] == '$1' for m in c['metrics'] if m['key'] == 'loop' and m['what'] == 'hits'][0]")
    echo "${v%.0}"
}
note() {
    jq_py ev.json "[.cases[] | select(.name == \"$1\") | .note // \"\"][0]" \
        "[c.get('note') or '' for c in d['cases'] if c['name'] == '$1'][0]"
}
check "QQInit(10) alone: 10 events kept, 5 intervals (got $(hits small@1))" test "$(hits small@1)" = 10
check "QQInit(10) alone: the drop is noted" bash -c "[[ '$(note small@1)' == *'dropped 30 events'* ]]"
check "events: 100 raises QQInit(10): all 40 events kept (got $(hits raised@1))" test "$(hits raised@1)" = 40
check "events: 100: nothing dropped" test -z "$(note raised@1)"
check "events: 4 does not shrink QQInit(10) (got $(hits lowered@1))" test "$(hits lowered@1)" = 10

# Built without -DQQ_ENABLE: no file, and the message names both causes.
cat > off.yaml <<YAML
suite: events_off
defaults: {repetitions: 2, warmup: 0}
benchmarks:
  - name: off
    kernel: $off
YAML
qq out.txt err.txt run off.yaml --baselines bl
check "compiled out: exit 3 (got $rc)" test "$rc" = 3
check "compiled out: the message names a missing QQOut" \
    has out.txt '^  off@1: exited 0 but wrote no QQ file: either it never calls QQOut'
check "compiled out: the message names -DQQ_ENABLE" has out.txt 'compiled out \(built without -DQQ_ENABLE'
[ "$rc" = 3 ] || show out.txt err.txt
# allow_dropped: true accepts such a run (and a later one compares it).
sed 's/^defaults: {repetitions: 2, warmup: 0}$/defaults: {repetitions: 2, warmup: 0, allow_dropped: true}/' ev.yaml > ev2.yaml
qq out.txt err.txt run ev2.yaml --baselines bl2 --no-report
check "allow_dropped: exit 0 (got $rc)" test "$rc" = 0
check "allow_dropped: the baseline was written" test -n "$(ls bl2/*/events.yaml 2>/dev/null)"
# Two more runs: a stored baseline gates timing from 3 runs on.
qq out.txt err.txt run ev2.yaml --baselines bl2 --no-report --update-baseline
qq out.txt err.txt run ev2.yaml --baselines bl2 --no-report --update-baseline
qq out.txt err.txt run ev2.yaml --baselines bl2 --no-report --json ev2.json
check "allow_dropped: the fourth run is compared" \
    test "$(jq_py ev2.json '[.comparisons[]|select(.kind=="baseline")]|length' \
        'len([c for c in d["comparisons"] if c["kind"]=="baseline"])')" -gt 0
check "allow_dropped: nothing incomplete" \
    test "$(jq_py ev2.json '[.comparisons[]|select(.verdict=="incomplete")]|length' \
        'len([c for c in d["comparisons"] if c["verdict"]=="incomplete"])')" = 0
# Without it, a run against that baseline: the rows of the dropping cases
# are incomplete, never a verdict.
qq out.txt err.txt run ev.yaml --baselines bl2 --no-report --json ev3.json
check "incomplete rows: exit 2 (got $rc)" test "$rc" = 2
v=$(jq_py ev3.json '[.comparisons[]|select(.case=="small@1")|.verdict]|unique|join(",")' \
    '",".join(sorted(set(c["verdict"] for c in d["comparisons"] if c["case"]=="small@1")))')
check "incomplete rows: small@1 is incomplete (got '$v')" test "$v" = incomplete
check "incomplete rows: the summary says so" has out.txt 'comparisons? (is|are) incomplete: a launch dropped events'
[ "$fail" = 0 ] || show out.txt err.txt
finish
