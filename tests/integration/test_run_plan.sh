#!/usr/bin/env bash
# --budget: a time the whole run's launches may take, which the plan against a stored baseline stays within; a bad value is a usage error naming the option.
#
# Whether the plan wants more launches of a recorded baseline depends on the machine's
# run-to-run noise (a floor no launch count lowers): its decisions are tested on simulated runs
# in tests/unit/test_judge_runs.c (test_planned, test_plan_rounds); here, on a baseline
# rewritten to known figures, and --budget's cuts.
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

# The plan from a baseline alone, before the first launch: the recorded baseline's figures of
# 'work' rewritten to runs that agree exactly, with launches 3% apart (M, 1.03 M, 0.97 M in each
# run, M the median this machine recorded: a literal figure held only where the kernel took
# about that many ticks, and read +12% on a slower machine, +146% under QQ_TICKS=clock@5000).
# Its arithmetic (docs/STATISTICS.md sections 17, 18): the runs move 0, so more launches
# decide; the launch noise, from successive launches (each of the 3 passes of 3 launches has
# one, so across the run), is 1.0484 x the median of |log ratio| {0.0296, 0.0600} x 3 = 0.04697;
# the target se is log 1.02 / (t(0.975, 2 df) + 1.2816) = 0.003546; n = (pi/3) sd^2 / se^2 =
# 183.7, so 184 launches, capped at 8 x 3 = 24 rounds: 21 more. No timing enters it.
f=$(ls bl/*/plan.yaml)
python3 - "$f" <<'PY'
import re, sys
path = sys.argv[1]
s = open(path).read()
pat = re.compile(r"(  - key: work\n    what: per_hit\n(?:    (?!samples).*\n)*    samples: )\[[^\]]*\]")
m = pat.search(s)
assert m, "no samples of work per_hit"
rest = s[m.end(1):]
recorded = sorted(float(x) for x in rest[1:rest.index("]")].replace("\n", " ").split(","))
med = recorded[len(recorded) // 2]
assert med > 0, recorded
runs = ", ".join(repr(med * f) for f in (1.0, 1.03, 0.97) * 3)
s, n = pat.subn(lambda m: m.group(1) + "[" + runs + "]", s)
assert n == 1, n
open(path, "w").write(s)
PY
qq out.txt err.txt run p.yaml --baselines bl --no-report --budget 0 --verbose --json all.json
check "the plan: exit 0 (got $rc)" test "$rc" = 0
check "the plan wants 184 launches a case, 21 more, before the first launch" \
    sh -c "head -2 err.txt | grep -q 'p@1: the plan wants 184 launches a case to decide at the threshold: 21 more'"
check "the plan's 24 rounds taken" test "$(jq_py all.json '.cases[0].launches' "d['cases'][0]['launches']")" = 24
# The first pass takes the repetitions' share (3 / 3 passes: 1 round), the other two the rest.
want=(1 11 12)
for pass in 1 2 3; do
    check "pass $pass of 3 takes ${want[pass - 1]} of them" test "$(grep -c "(pass $pass, launch" err.txt)" = "${want[pass - 1]}"
done
# A budget spent at once: after the first pass, the plan's rounds are cut to the repetitions (3);
# with one pass, after the repetitions, to them too.
qq out.txt err.txt run p.yaml --baselines bl --no-report --budget 0.001 --json cut.json
check "budget spent: exit 0 (got $rc)" test "$rc" = 0
check "budget spent: cut after the first pass, and said" has err.txt "p@1: the plan's rounds cut to the budget's share: 3, not 24"
check "budget spent: 3 launches" test "$(jq_py cut.json '.cases[0].launches' "d['cases'][0]['launches']")" = 3
qq out.txt err.txt run p.yaml --baselines bl --no-report --budget 0.001 --passes 1 --json cut1.json
check "one pass, budget spent: cut after the repetitions, and said" has err.txt "p@1: the plan's rounds cut to the budget's share: 3, not 24"
check "one pass, budget spent: 3 launches" test "$(jq_py cut1.json '.cases[0].launches' "d['cases'][0]['launches']")" = 3
[ "$fail" = 0 ] || show out.txt err.txt
finish
