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
check "events: exit 0 (got $rc)" test "$rc" = 0
[ "$rc" = 0 ] || show out.txt err.txt
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
finish
