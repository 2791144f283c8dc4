#!/bin/bash
# test_kernel_blocked.sh - QQTune in the blocked kernel: the planted tile chosen and recorded, every tile the same result, 2 MPI ranks agree on one tile and the file says so, QQ off compiles and returns the default.
set -euo pipefail
. "$QQ_TEST_DATA/run/check.sh"
K="${QQ_KERNEL_DIR:?QQ_KERNEL_DIR not set}"
: "${QQBENCH:?QQBENCH not set (run through ctest)}"
field() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }

# Serial: the planted tile is every other tile's iteration done once
# instead of --slow (16) times; QQTune must find it wherever it is in the
# list. Margin: tiles differ by up to 5x on their own, so the planted one
# is at least 3.2x ahead, and QQTune keeps each tile's fastest run; it
# misses only if every run of the planted tile (0.04-0.22 ms) is preempted.
# Under load that is p ~ 0.22 ms / 3 ms slice ~ 0.07 a run: 3 rounds give
# 3.4e-4 a plant, 1.4e-3 for the 4 plants here; 7 rounds 8e-9 a plant.
for plant in 32 8 256; do
    QQ_OUTPUT=p$plant.qq "$K/blocked" --size 256 --steps 10 --reps 7 --plant "$plant" --print > p$plant.out
    check "plant $plant: chosen" test "$(field tile p$plant.out)" = "$plant"
    "$QQBENCH" st p$plant.qq > st$plant.txt
    check "plant $plant: the file records it" has st$plant.txt "^Tuned 'tile' = $plant: 7 candidates over 1 rank, 7 rounds each"
    check "plant $plant: marked chosen" has st$plant.txt "^  chosen +$plant "
    check "plant $plant: every tile ran 7 times" test "$(grep -cE '^ {2}(chosen| {6}) +[0-9]+ +[0-9.e-]+ +7 +0$' st$plant.txt)" = 7
    check "plant $plant: the trials are states" has st$plant.txt "'tile=$plant'"
done
# A damaged record: st refuses the file in one line naming the record
# (exit 2), as it does any damage.
python3 - p32.qq bad.qq <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
pos = 64
while pos + 16 <= len(d):
    tag, _, n = struct.unpack_from("<4sIQ", d, pos)
    if tag == b"TUNE":
        struct.pack_into("<I", d, pos + 16 + 8, 99)  # choice 99 of 7
        break
    pos += 16 + n
open(sys.argv[2], "wb").write(d)
PY
rc=0
"$QQBENCH" st bad.qq > bad.out 2> bad.err || rc=$?
check "damaged record: exit 2" test "$rc" = 2
check "damaged record: one line naming it" test "$(cat bad.err)" = \
    "qqbench st: error: bad.qq: tune record 0: choice 99 of 7 candidates"

# Every tile transposes to the same bits: the digest does not depend on it.
for t in 1 4 32 200 256; do
    QQ_OUTPUT=t$t.qq "$K/blocked" --size 200 --steps 4 --tile "$t" --print > t$t.out
done
check "every tile, one digest" test "$(cat t*.out | awk '$1=="digest"' | sort -u | wc -l)" = 1
check "a fixed tile: no tune record" hasnt <("$QQBENCH" st t4.qq) "^Tuned"
check "tuned and fixed agree" test "$(field digest p32.out)" = \
    "$(QQ_OUTPUT=x.qq "$K/blocked" --size 256 --steps 10 --tile 64 --print | awk '$1=="digest"{print $2}')"

# The sweep: QQTune's cost is counted in iterations, not seconds.
QQ_OUTPUT=s.qq "$K/blocked" --size 128 --steps 20 --sweep > sweep.out
check "sweep: 7 tiles timed" test "$(grep -c '^sweep tile=' sweep.out)" = 7
check "sweep: QQTune's cost under a fifth of the sweep's" \
    test $((5 * $(field tune_cost_iterations sweep.out))) -lt "$(field sweep_cost_iterations sweep.out)"

# QQ off: QQTune is the first candidate and never calls the work.
cat > off.c <<'C'
#include <stdio.h>
#include "qq.h"
static int calls;
static void work(int v, void *arg) { (void)arg; calls += v; }
int main(void)
{
    static const int tiles[] = {32, 4, 8};
    int t = QQTune("tile", tiles, 3, 2, work, NULL);
    printf("%d %d\n", t, calls);
    return 0;
}
C
cc -std=c11 -Wall -Wextra -Werror -pedantic -O2 -I"$QQ_SOURCE_DIR/qq/include" off.c -o off
check "QQ off: the first candidate, no call" test "$(./off)" = "32 0"
check "QQ off: no QQ symbol" test "$(nm off | grep -ci 'qq' || true)" = 0

# MPI: 2 ranks split the 7 tiles, agree on the planted one, and the one
# file records the choice with both ranks' timings.
if [ -x "$K/blocked_mpi" ] && command -v mpirun >/dev/null; then
    QQ_OUTPUT=$PWD/m.qq mpirun -np 2 --oversubscribe "$K/blocked_mpi" --size 256 --steps 10 \
        --reps 7 --plant 16 --print > m.out
    check "mpi: rank 0 chose the planted tile" has m.out '^rank 0 tile 16$'
    check "mpi: rank 1 chose the same" has m.out '^rank 1 tile 16$'
    "$QQBENCH" st m.qq > mst.txt
    check "mpi: the file records it" has mst.txt "^Tuned 'tile' = 16: 7 candidates over 2 ranks, 7 rounds each"
    check "mpi: rank 0 timed some tiles" has mst.txt '^ {2}(chosen| {6}) +[0-9]+ +[0-9.e-]+ +[0-9]+ +0$'
    check "mpi: rank 1 timed the others" has mst.txt '^ {2}(chosen| {6}) +[0-9]+ +[0-9.e-]+ +[0-9]+ +1$'
    check "mpi: the same bits as one rank" test "$(field digest m.out)" = \
        "$(QQ_OUTPUT=y.qq "$K/blocked" --size 256 --steps 10 --tile 16 --print | awk '$1=="digest"{print $2}')"
else
    echo "skipped: mpi part (no blocked_mpi or mpirun)"
fi
finish
