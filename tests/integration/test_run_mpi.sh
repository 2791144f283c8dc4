#!/usr/bin/env bash
# qqbench run through real mpirun: msg_pack on 1, 2 and 4 nodes and sync on 2, each case measured; a hung or crashed MPI kernel is a kernel failure and leaves no rank behind.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
K="${QQ_KERNEL_DIR:?QQ_KERNEL_DIR not set}"
if [ ! -x "$K/msg_pack" ] || [ ! -x "$K/sync" ]; then
    echo "skipped: MPI kernels not built (no MPI)"; exit 77
fi
command -v mpirun >/dev/null || { echo "skipped: no mpirun"; exit 77; }
rm -rf bl
cat > mpi.yaml <<YAML
suite: mpi
defaults:
  repetitions: 2
  warmup: 0
  timeout: 120
benchmarks:
  - name: msg_pack
    kernel: $K/msg_pack
    args: [--steps, "30", --size, "500"]
    nodes: [1, 2, 4]
  - name: sync
    kernel: $K/sync
    args: [--steps, "50"]
    nodes: [2]
YAML
qq out.txt err.txt run mpi.yaml --baselines bl --json mpi.json
check "MPI suite: exit 0 (got $rc)" test "$rc" = 0
[ "$rc" = 0 ] || show out.txt err.txt
check "JSON is valid" valid_json mpi.json
for c in msg_pack@1:1 msg_pack@2:2 msg_pack@4:4 sync@2:2; do
    name=${c%:*} n=${c#*:}
    got=$(jq_py mpi.json ".cases[]|select(.name==\"$name\")|\"\(.nodes) \(.launches) \(.failed)\"" \
        "[str(c['nodes'])+' '+str(c['launches'])+' '+str(c['failed']).lower() for c in d['cases'] if c['name']=='$name'][0]" 2>/dev/null || true)
    check "case $name: $n nodes, 2 launches, not failed (got '$got')" test "$got" = "$n 2 false"
done
check "4 cases in the summary" has out.txt '^qqbench: 4 cases in '
check "progress names every case" test "$(grep -cE '^qqbench: (msg_pack@[124]|sync@2): 2 launches' err.txt)" = 4
# Per-rank data: on 4 nodes the imbalance metric exists (max/mean over nodes).
check "msg_pack@4 has an imbalance metric" test "$(jq_py mpi.json \
    '[.cases[]|select(.name=="msg_pack@4")|.metrics[]|select(.what=="imbalance")]|length' \
    'len([m for c in d["cases"] if c["name"]=="msg_pack@4" for m in c["metrics"] if m["what"]=="imbalance"])')" -ge 1

# Two more runs into the baseline (it gates timing from 3 runs on), then a
# run compares with it, case by case.
for i in 1 2; do
    qq out.txt err.txt run mpi.yaml --baselines bl --repetitions 2 --update-baseline -q
done
check "two more MPI runs recorded (exit $rc)" test "$rc" = 0
qq out.txt err.txt run mpi.yaml --baselines bl --repetitions 2 --max-repetitions 2
check "a later MPI run: exit 0 or 1 (got $rc)" test "$rc" = 0 -o "$rc" = 1
check "a later MPI run: a table against the baseline" has out.txt '^Against the baseline'
check "a later MPI run: msg_pack@4 compared with the baseline" \
    test "$(sed -n '/^Against the baseline/,/^change:/p' out.txt | grep -cE '^msg_pack@4 +(pack|send|recv|unpack) ')" -ge 1

# A rank that hangs or crashes under mpirun: exit 3, and no rank left.
# A copy of planted with a name only this run's kernels carry.
marker="8$$${RANDOM}3"
rm -f planted_*
cp "$PLANTED" "planted_$marker"
cat > mpifail.yaml <<YAML
suite: mpifail
defaults: {repetitions: 2, warmup: 0}
benchmarks:
  - name: crash
    kernel: ./planted_$marker
    args: [--crash]
    nodes: [2]
    timeout: 30
  - name: hang
    kernel: ./planted_$marker
    args: [--hang]
    timeout: 3
    nodes: [2]
YAML
rc=0
timeout 120 "$QQBENCH" run mpifail.yaml --baselines bl > out.txt 2> err.txt || rc=$?
check "MPI hang and crash: exit 3 (got $rc)" test "$rc" = 3
check "MPI hang: timed out" has out.txt '^  hang@2: timed out after 3\.0 s'
check "MPI crash: a failure reported" has out.txt '^  crash@2: '
# The reason says what happened to the rank (mpirun's own words or the
# signal), not a decoration line of mpirun's log.
check "MPI crash: the reason names the signal" has out.txt '^  crash@2: .*(signal 11|Segmentation fault)'
check "MPI crash: the reason is not a line of dashes" hasnt out.txt '^  crash@2: .*: -{10,}$'
left=$(gone "planted_$marker")
check "no rank left running (pids: ${left:-none})" test -z "$left"
[ -z "$left" ] || kill -9 $left 2>/dev/null || true
finish
