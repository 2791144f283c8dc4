#!/usr/bin/env bash
# qqbench st, view and export on threaded files (the threaded brain kernel, 1 and 2 ranks), a version 1.0 file, and a damaged thread table (exit 2, one line).
set -euo pipefail
. "$QQ_TEST_DATA/reports/lib.sh"
rm -rf ./*-view v1 bt.json
k="$QQ_KERNEL_DIR/brain_threads_serial"

# --- one rank, 3 threads, 40 steps ---------------------------------------
QQ_OUTPUT="$PWD/bt.qq" "$k" --steps 40 --size 300 --threads 3 > kernel.out
qq st.txt err.txt st bt.qq
check "st: exit 0 (got $rc)" test "$rc" = 0
check "st: the node lists 3 threads" has st.txt '^Threads: 3$'
# A thread's index is the order in which threads first recorded, which the
# scheduler decides: each worker's index is read from st's thread table.
for w in 0 1 2; do
    check "st: thread brain-w$w listed" has st.txt "^ +[0-2] +[0-9]+ +[0-9]+ +0 +'brain-w$w'$"
done
idx() { awk -v n="'brain-w$1'" '$NF == n && $1 ~ /^[0-9]+$/ { print $1; exit }' st.txt; }
check "st: the three workers have the indices 0, 1 and 2" \
    test "$(for w in 0 1 2; do idx $w; done | sort | tr -d '\n')" = 012
check "st: 'update' over all threads: 120 intervals" has st.txt "^1: +120 +[0-9.]+ +[0-9.]+% +'update'$"
check "st: no thread table without --threads" hasnt st.txt '^Thread 0'
qq stt.txt err.txt st --threads bt.qq
for w in 0 1 2; do
    i=$(idx $w)
    check "st --threads: brain-w$w's update, 40 intervals" \
        test "$(sed -n "/^Thread $i ('brain-w$w')/,/^$/p;/^Thread $i ('brain-w$w')/,/^1:/p" stt.txt | grep -cE "^1: +80 +40 .*'update'$")" -ge 1
done
check "st --threads: exchange only on thread 0" test "$(grep -c "'exchange'" stt.txt)" = 3

# export chrome: each thread a track whose tid is its OS id (st's Tid column).
qq out.txt err.txt export bt.qq --format chrome --out bt.json
check "export: exit 0 (got $rc)" test "$rc" = 0
tids=$(awk '/^ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +.brain-w/ {print $2}' st.txt | sort -n | tr '\n' ' ')
check "export: the slices' tids are the threads' OS ids ($tids)" \
    test "$(py bt.json "' '.join(str(t) for t in sorted(set(e['tid'] for e in d['traceEvents'] if e['ph'] == 'X'))) + ' '")" = "$tids"
check "export: 3 x 40 update slices, 40 exchange slices" \
    test "$(py bt.json "sorted((n, sum(1 for e in d['traceEvents'] if e['ph'] == 'X' and e['name'] == n)) for n in ('update', 'exchange'))")" = "[('exchange', 40), ('update', 120)]"
check "export: tracks named after the threads" \
    test "$(py bt.json "sorted(e['args']['name'] for e in d['traceEvents'] if e['name'] == 'thread_name')")" = "['brain-w0 (thread $(idx 0))', 'brain-w1 (thread $(idx 1))', 'brain-w2 (thread $(idx 2))']"

# export csv: each event's thread (its index) and OS id, as st's table says.
qq out.txt err.txt export bt.qq --format csv --out bt.csv
check "export csv: exit 0 (got $rc)" test "$rc" = 0
check "export csv: the header ends in thread,tid" has bt.csv '^node,key,type,info,tick,seconds,run_seconds,thread,tid$'
for w in 0 1 2; do
    i=$(idx $w)
    tid=$(awk -v n="'brain-w$w'" '$NF == n && $1 ~ /^[0-9]+$/ { print $2; exit }' st.txt)
    check "st: brain-w$w has an OS id ($tid)" test -n "$tid" -a "$tid" != 0
    check "export csv: brain-w$w (thread $i, tid $tid) has update's 80 events" \
        test "$(grep -c "^0,update,state,[01],[0-9]*,[0-9.]*,[0-9.]*,$i,$tid$" bt.csv)" = 80
done

# view: a strip per thread.
qq view.txt err.txt view bt.qq --no-plot
check "view: exit 0 (got $rc)" test "$rc" = 0
check "view: one node" has view.txt '1 node,'
for w in 0 1 2; do
    check "view: strip 'node 0 t$(idx $w)' is brain-w$w" has view.txt "^  node 0 t$(idx $w): thread 'brain-w$w', tid [0-9]+$"
done
check "view: 3 strips in the script" test "$(grep -o '"node 0 t[0-9]' bt-view/view.gp | sort -u | wc -l)" = 3

# compare takes a key over all threads: intervals sum (3 x 40 against 2 x 40).
QQ_OUTPUT="$PWD/bt_2.qq" "$k" --steps 40 --size 300 --threads 2 > kernel2.out
qq cmp.txt err.txt compare bt.qq bt_2.qq
check "compare: exit 0 (got $rc)" test "$rc" = 0
check "compare: update's intervals over all threads, 120 and 80" has cmp.txt "^update +state +120 +80 "
check "compare: exchange on thread 0 alike, 40 and 40" has cmp.txt "^exchange +state +40 +40 "

# whatif re-lays one time line per node: a threaded node is refused, one line.
qq out.txt err.txt whatif bt.qq --scale update=2
check "whatif on threads: exit 2 (got $rc)" test "$rc" = 2
check "whatif on threads: one line saying so" test "$(grep -c 'node 0 recorded in 3 threads' err.txt)" = 1 -a "$(wc -l < err.txt)" = 1

# --- two ranks: every thread of every rank in the merged file -----------
# With each of the MPI writers (docs/MPI.md): gather to rank 0, MPI-IO, and
# every rank writing its own chunk.
if [ -x "$QQ_KERNEL_DIR/brain_threads" ] && command -v mpirun >/dev/null; then
    for io in 0 1 2; do
        QQ_MPI_IO=$io QQ_OUTPUT="$PWD/bt2.qq" mpirun --oversubscribe -np 2 -x QQ_MPI_IO -x QQ_OUTPUT \
            "$QQ_KERNEL_DIR/brain_threads" --steps 20 --size 200 --threads 2 > mpi.out 2>&1 || show mpi.out
        qq st2.txt err.txt st bt2.qq
        check "2 ranks, QQ_MPI_IO=$io: st exit 0 (got $rc)" test "$rc" = 0
        check "2 ranks, QQ_MPI_IO=$io: two nodes of 2 threads" test "$(grep -c '^Threads: 2$' st2.txt)" = 2
        check "2 ranks, QQ_MPI_IO=$io: exchange on both nodes' thread 0, 20 each" \
            test "$(grep -cE "^2: +20 +[0-9.]+ +[0-9.]+% +'exchange'$" st2.txt)" = 2
        check "2 ranks, QQ_MPI_IO=$io: update on every thread, 40 intervals a node" \
            test "$(grep -cE "^1: +40 +[0-9.]+ +[0-9.]+% +'update'$" st2.txt)" = 2
        rm -f bt2.qq
    done
fi

# --- a version 1.0 file: one thread, a track per key ---------------------
qq v1.txt err.txt st --threads "$QQ_TEST_DATA/qq/v1_0.qq"
check "1.0 file: st exit 0 (got $rc)" test "$rc" = 0
check "1.0 file: one unnamed thread with every entry" has v1.txt "^ +0 +0 +16 +0 +''$"
check "1.0 file: the unbalanced state" has v1.txt "'line'  \(1 unbalanced\)$"
qq out.txt err.txt export "$QQ_TEST_DATA/qq/v1_0.qq" --format chrome --out v1.json
check "1.0 file: export tid is the key's track (1)" test "$(py v1.json "sorted(set(e['tid'] for e in d['traceEvents'] if e['ph'] == 'X'))")" = "[1]"

# --- a damaged thread table: exit 2, one line ------------------------------
python3 - bt.qq bad.qq <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
pos = 64
while pos + 16 <= len(b):
    tag, node, ln = struct.unpack_from("<4sIQ", b, pos)
    if tag == b"THRD":
        struct.pack_into("<I", b, pos + 16 + 8, 7)  # row 0's index
        break
    pos += 16 + ln
open(sys.argv[2], "wb").write(b)
PY
for cmd in st view export; do
    args=(); [ $cmd = export ] && args=(--format csv); [ $cmd = view ] && args=(--no-plot)
    qq out.txt err.txt $cmd bad.qq "${args[@]}"
    check "damaged THRD: $cmd exits 2 (got $rc)" test "$rc" = 2
    check "damaged THRD: $cmd says which thread, one line" test "$(grep -c 'thread 0 of node 0 has index 7' err.txt)" = 1 -a "$(wc -l < err.txt)" = 1
done
finish
