#!/usr/bin/env bash
# qqbench run: crash, hang, non-zero exit, no output, damaged output each give exit 3, a reason, and leave the good benchmark's results intact.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf bl work out.json
mkdir work
# A copy of planted with a name only this run's hanging kernel carries.
marker="9$$${RANDOM}7"
rm -f planted_*
cp "$PLANTED" "planted_$marker"
cat > fail.yaml <<YAML
suite: failures
defaults:
  repetitions: 3
  warmup: 0
benchmarks:
  - name: good
    kernel: $PLANTED
  - name: crash
    kernel: $PLANTED
    args: [--crash]
  - name: hang
    kernel: ./planted_$marker
    args: [--hang]
    timeout: 2
  - name: exit7
    kernel: $PLANTED
    args: [--exit, "7"]
  - name: noout
    kernel: $PLANTED
    args: [--no-output]
  - name: badout
    kernel: $PLANTED
    args: [--bad-output]
YAML

# A baseline of the good benchmark alone, so the failing run has something
# to compare the good one with: 3 runs, the least a stored baseline gates
# timing with (docs/STATISTICS.md section 17).
rm -f record3.log
rc=0
record3 fail.yaml --only good --baselines bl --max-repetitions 3 || rc=$?
check "baseline of the good benchmark recorded (exit $rc)" test "$rc" = 0
[ "$rc" = 0 ] || show record3.log
bfile=$(ls bl/*/failures.yaml)
cp "$bfile" baseline.before

# The whole suite, under an outer timeout: a hang not honoured shows as 124.
# --max-repetitions 3: the plan against the stored baseline takes no more
# launches than the repetitions.
rc=0
timeout 120 "$QQBENCH" run fail.yaml --baselines bl --work work --json out.json --max-repetitions 3 \
    > out.txt 2> err.txt || rc=$?
check "exit 3 when kernels fail (got $rc)" test "$rc" = 3
[ "$rc" = 3 ] || show out.txt err.txt
check "the hang was cut at its timeout, not by the outer one" test "$rc" != 124
check "crash: signal reported" has out.txt '^  crash@1: crashed: killed by signal 11'
check "hang: timeout reported" has out.txt '^  hang@1: timed out after 2\.0 s'
check "hang: the kernel's last words quoted" has out.txt '^  hang@1: .*hanging on purpose'
check "exit 7: status reported" has out.txt '^  exit7@1: exited with status 7'
check "exit 7: the kernel's last words quoted" has out.txt 'exiting with 7 on purpose'
check "no output: reported" has out.txt '^  noout@1: exited 0 but wrote no QQ file'
check "bad output: reported" has out.txt '^  badout@1: damaged QQ file'
check "summary counts 5 kernel failures" has out.txt '; 5 kernel failures$'
check "progress names each failure" test "$(grep -c ': FAILED: ' err.txt)" = 5
check "the good benchmark is still compared with its baseline" has out.txt '^good@1 +work '
check "the table has 'Against the baseline'" has out.txt '^Against the baseline'
check "JSON: good@1 has its 3 launches" test "$(jq_py out.json \
    '.cases[]|select(.name=="good@1")|.launches' \
    '[c["launches"] for c in d["cases"] if c["name"]=="good@1"][0]')" = 3
check "JSON: good@1 not failed" test "$(jq_py out.json \
    '.cases[]|select(.name=="good@1")|.failed' \
    '[c["failed"] for c in d["cases"] if c["name"]=="good@1"][0]')" = false
check "JSON: 5 failed cases" test "$(jq_py out.json \
    '[.cases[]|select(.failed)]|length' 'len([c for c in d["cases"] if c["failed"]])')" = 5
check "JSON: exit_code 3" test "$(jq_py out.json '.exit_code' 'd["exit_code"]')" = 3
check "JSON: a baseline comparison of good@1" test "$(jq_py out.json \
    '[.comparisons[]|select(.case=="good@1" and .kind=="baseline")]|length' \
    'len([c for c in d["comparisons"] if c["case"]=="good@1" and c["kind"]=="baseline"])')" -ge 1
check "the baseline was not touched" cmp -s baseline.before "$bfile"
# A failed launch's output is kept and named (its last line alone was
# shown, the log removed): the work folder holds those logs and nothing else.
check "the work folder holds the failed launches' output alone, each named in its reason" \
    failed_logs_only work out.txt
check "4 failures keep their output (crash, hang, exit 7, no output; a damaged file is read by qqbench)" \
    test "$(find work -name '*.failed.log' | wc -l)" = 4
exit7_log=$(sed -n 's/^  exit7@1: .*(its output: \(.*\))$/\1/p' out.txt)
check "exit 7: its kept output holds its message" grep -q 'exiting with 7 on purpose' "${exit7_log:-/nonexistent}"
left=$(gone "planted_$marker")
check "no 'planted --hang' process left (pids: ${left:-none})" test -z "$left"
[ -z "$left" ] || kill -9 $left 2>/dev/null || true

# --keep: each failed case's launch log is kept, its own (not overwritten
# by another benchmark's).
rm -rf work2
mkdir work2
qq out.txt err.txt run fail.yaml --baselines bl --work work2 --keep --only crash --only exit7
check "--keep: exit 3 (got $rc)" test "$rc" = 3
clog=$(sed -n 's/^qqbench: crash@1: launch log kept in //p' err.txt | head -1)
elog=$(sed -n 's/^qqbench: exit7@1: launch log kept in //p' err.txt | head -1)
check "--keep: a log path for each failed case ('$clog', '$elog')" test -n "$clog" -a -n "$elog"
check "--keep: the two logs are different files" test "$clog" != "$elog"
check "--keep: crash@1's log holds its message" grep -q 'crashing on purpose' "${clog:-/nonexistent}"
check "--keep: exit7@1's log holds its message" grep -q 'exiting with 7 on purpose' "${elog:-/nonexistent}"
check "--keep: the launch files stay in the work folder" test -n "$(find work2 -name '*.log')"
finish
