#!/usr/bin/env bash
# --passes: the launches of a run go over the suite pass by pass, each pass taking every group's
# share of its rounds (docs/STATISTICS.md section 18), so a case's launches spread over the run's
# time instead of sitting in one stretch of it; the run JSON says how many passes it took.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
{
    printf 'suite: passes\ndefaults:\n  repetitions: 4\n  warmup: 1\nbenchmarks:\n'
    printf '  - name: a\n    kernel: %s\n    args: ["--work", "100"]\n' "$PLANTED"
    printf '  - name: b\n    kernel: %s\n    args: ["--work", "100"]\n' "$PLANTED"
} > s.yaml

# order ERR: the cases and what each launch was (rep N or warmup), in the order they ran, from
# the --verbose progress lines ("qqbench: case 1/2 a@1 rep 2/4 (pass 1, ...").
order() { sed -nE 's/^qqbench: case [0-9]+\/[0-9]+ ([a-z]+)@1 (rep|warmup) ([0-9]+)\/[0-9]+ \(pass ([0-9]+),.*/\1 \2 \3 \4/p' "$1" | tr '\n' ',' ; }

# Two passes of 4 rounds: a's warmup and first 2 rounds, b's, then the other 2 of each.
qq out.txt err.txt run s.yaml --baselines bl --no-report --verbose --passes 2 --json p2.json
check "two passes: exit 0 (got $rc)" test "$rc" = 0
got=$(order err.txt)
want="a warmup 1 1,a rep 1 1,a rep 2 1,b warmup 1 1,b rep 1 1,b rep 2 1,a rep 3 2,a rep 4 2,b rep 3 2,b rep 4 2,"
check "two passes: the launches alternate between the benchmarks by pass ($got)" test "$got" = "$want"
check "two passes: the JSON says 2" test "$(jq_py p2.json '.passes' "d['passes']")" = 2
check "two passes: 4 launches a case" test "$(jq_py p2.json '[.cases[].launches] | join(",")' "','.join(str(c['launches']) for c in d['cases'])")" = "4,4"

# One pass: each benchmark's launches in one go, as before passes.
qq out.txt err.txt run s.yaml --baselines bl1 --no-report --verbose --passes 1
check "one pass: exit 0 (got $rc)" test "$rc" = 0
got=$(order err.txt)
want="a warmup 1 1,a rep 1 1,a rep 2 1,a rep 3 1,a rep 4 1,b warmup 1 1,b rep 1 1,b rep 2 1,b rep 3 1,b rep 4 1,"
check "one pass: each benchmark in one stretch ($got)" test "$got" = "$want"

# More passes than rounds: a group takes one round a pass, as many passes as it has rounds.
qq out.txt err.txt run s.yaml --baselines bl9 --no-report --verbose --passes 9
check "nine passes of 4 rounds: exit 0 (got $rc)" test "$rc" = 0
got=$(order err.txt)
want="a warmup 1 1,a rep 1 1,b warmup 1 1,b rep 1 1,a rep 2 2,b rep 2 2,a rep 3 3,b rep 3 3,a rep 4 4,b rep 4 4,"
check "nine passes of 4 rounds: one round a pass ($got)" test "$got" = "$want"

# The default is 5 passes (here 4: the rounds), and a bad value is a usage error.
qq out.txt err.txt run s.yaml --baselines bld --no-report --json pd.json
check "default: exit 0 (got $rc)" test "$rc" = 0
check "default: 4 passes taken, in the JSON" test "$(jq_py pd.json '.passes' "d['passes']")" = 4
for bad in 0 -1 x ""; do
    qq out.txt err.txt run s.yaml --baselines bl --no-report --passes "$bad"
    check "--passes '$bad': exit 2 (got $rc)" test "$rc" = 2
    check "--passes '$bad': the message names it" grep -q -- "--passes" err.txt
done
check "the help names --passes" sh -c "'$QQBENCH' help run | grep -q -- '--passes N'"
[ "$fail" = 0 ] || show out.txt err.txt
finish
