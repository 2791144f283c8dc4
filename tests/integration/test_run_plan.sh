#!/usr/bin/env bash
# --budget: a time the whole run's launches may take, which the plan against a stored baseline stays within; a bad value is a usage error naming the option.
#
# Whether the plan wants more launches depends on the machine's run-to-run noise (a floor no
# launch count lowers): the plan's decisions are tested on simulated runs in
# tests/unit/test_judge_runs.c (test_planned, test_plan_rounds), not here.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf bl
planted_suite p.yaml plan '"--work", "2000"' '    repetitions: 3'
rc=0
record3 p.yaml --baselines bl --no-report || rc=$?
check "three runs recorded (exit $rc)" test "$rc" = 0
for bad in 1ms -5s 10x ""; do
    qq out.txt err.txt run p.yaml --baselines bl --no-report --budget "$bad"
    check "--budget '$bad': exit 2 (got $rc)" test "$rc" = 2
    check "--budget '$bad': the message names it" sh -c "grep -q \"budget '$bad'\" out.txt err.txt"
done
for good in 0 90s 10m 1h 0.5; do
    qq out.txt err.txt run p.yaml --baselines bl --no-report --budget "$good" --json p.json
    check "--budget $good: exit 0 (got $rc)" test "$rc" = 0
done
check "the help names --budget" sh -c "'$QQBENCH' help run | grep -q -- '--budget TIME'"
[ "$fail" = 0 ] || show out.txt err.txt
finish
