#!/usr/bin/env bash
# qqbench view and export on a real 4-rank MPI run (the sync kernel under mpirun): every node appears in the view's data and in the Chrome trace, with as many events as the file holds.
set -euo pipefail
. "$QQ_TEST_DATA/reports/lib.sh"
K="${QQ_KERNEL_DIR:?QQ_KERNEL_DIR not set}"
[ -x "$K/sync" ] || { echo "skipped: MPI kernels not built (no MPI)"; exit 77; }
command -v mpirun >/dev/null || { echo "skipped: no mpirun"; exit 77; }
rm -rf sync.qq sync-view
krc=0
QQ_OUTPUT="$PWD/sync.qq" timeout 120 mpirun --oversubscribe -np 4 "$K/sync" --steps 40 \
    --variant barrier > kernel.out 2>&1 || krc=$?
check "sync on 4 ranks: exit 0 (got $krc)" test "$krc" = 0
[ "$krc" = 0 ] || { show kernel.out; finish; exit 1; }

qq out.txt err.txt view sync.qq
check "view sync.qq: exit 0 (got $rc)" test "$rc" = 0
[ "$rc" = 0 ] || show err.txt
picture sync-view view
replot sync-view view.gp
check "view: 4 strips, nodes 0-3" test "$(grep -v '^#' sync-view/view-nodes.dat | awk '{print $5}' | tr '\n' ' ')" = "0 1 2 3 "
for n in 0 1 2 3; do
    check "view: node $n has MessageBus::Sync intervals" test "$(awk -v n=$n '/^# key/{k=$0} !/^#/ && NF==5 && $5==n && k ~ /MessageBus::Sync/' sync-view/view-states.dat | wc -l)" -ge 1
    check "view: node $n's waiting share on stdout" has out.txt "^  node $n: +[0-9.]+% of the window waiting$"
done
check "view: offset error bounds of nodes 1-3 under their names" test "$(grep -o '"node [123]\\n±[0-9.e+-]* [µm]s"' sync-view/view.gp | wc -l)" = 3

qq sync.json err.txt export sync.qq --format chrome
check "export chrome: exit 0 (got $rc)" test "$rc" = 0
check "chrome: parses as JSON" valid_json sync.json
qq sync.csv err.txt export sync.qq --format csv
check "export csv: exit 0 (got $rc)" test "$rc" = 0
check "chrome: processes 0-3" test "$(py sync.json "sorted(set(e['pid'] for e in d['traceEvents']))")" = "[0, 1, 2, 3]"
for n in 0 1 2 3; do
    check "chrome: node $n has MessageBus::Sync slices" test "$(py sync.json "sum(1 for e in d['traceEvents'] if e['pid'] == $n and e['ph'] == 'X' and e['name'] == 'MessageBus::Sync')")" -ge 1
done
# Every on..off pair a slice, every count a counter sample: the CSV says how many.
want=$(python3 -c 'import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))
print(sum(1 for x in r if x["type"] == "state" and x["info"] == "1") + sum(1 for x in r if x["type"] in ("mark", "count", "value")))' sync.csv)
got=$(py sync.json "sum(1 for e in d['traceEvents'] if e['ph'] != 'M')")
check "chrome: $want events from the CSV's rows (got $got)" test "$got" = "$want"
check "chrome: 40 steps x 4 nodes of 'step'" test "$(py sync.json "sum(1 for e in d['traceEvents'] if e['ph'] == 'X' and e['name'] == 'step')")" = 160
check "chrome: the offsets are in otherData" test "$(py sync.json "len(d['otherData']['nodes'])")" = 4
finish
