#!/usr/bin/env bash
# test_cli_whatif.sh - qqbench whatif: identity at scale 1, the direction and
# size of a scaled key, collective waits over MPI, bad input.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
K="$QQ_KERNEL_DIR"

QQ_OUTPUT=pow.qq "$K/channel" --variant pow --steps 500 >/dev/null
QQ_OUTPUT=direct.qq "$K/channel" --variant direct --steps 500 >/dev/null
# col N of the "all" row
all() { awk -v c="$2" '$1 == "all" { print $c }' "$1"; }

qq id.out id.err whatif pow.qq --scale Km=1
check "scale 1: exit 0 (rc $rc)" test "$rc" = 0 || show id.out id.err
check "scale 1: predicted == measured" test "$(all id.out 2)" = "$(all id.out 3)"
check "scale 1: 0.00%" test "$(all id.out 4)" = "0.00%"
qq z.out z.err whatif pow.qq --scale Km=0
qq h.out h.err whatif pow.qq --scale Km=0.5
check "Km at 0 saves more than at 0.5" test "$(all z.out 3)" -lt "$(all h.out 3)"
check "Km at 0.5 saves something" test "$(all h.out 3)" -lt "$(all h.out 2)"
# At 0: the saving is the hits x the net per hit (short key: a constant per interval).
net=$(awk '$1 == "0" { print $2 }' z.out)
check "Km at 0: saving = 4000 intervals x net" awk -v m="$(all z.out 2)" -v p="$(all z.out 3)" -v net="$net" \
    'BEGIN { d = m - p; want = 4000 * net; exit !(d > want - 4000 * 0.06 && d < want + 4000 * 0.06) }'
qq g.out g.err whatif pow.qq --per-hit Km=0 --measured direct.qq
check "--measured: the other run and the error" has g.out 'other run .* \(prediction error [+-][0-9.]+%\)'
check "--per-hit Km=0 equals --scale Km=0" test "$(all g.out 3)" = "$(all z.out 3)"
qq s.out s.err whatif pow.qq --scale step=0.5
check "long key: net part halved" awk -v m="$(all s.out 2)" -v p="$(all s.out 3)" 'BEGIN { exit !(p < 0.6 * m && p > 0.4 * m) }'

# MPI: waits on a barrier are collective.
if command -v mpirun >/dev/null; then
    # Open MPI's allocations outlive MPI_Finalize: not leaks of ours (ASan build)
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" QQ_OUTPUT=sync.qq mpirun --oversubscribe -np 2 "$K/sync" --steps 200 >sync.log 2>&1 || { show sync.log; bad "sync ran"; }
    qq m1.out m1.err whatif sync.qq --scale compute=1 --waiting MessageBus::Sync
    check "mpi: collective waits" has m1.out '^waiting: 1 key, collective'
    check "mpi scale 1: identity" test "$(all m1.out 2)" = "$(all m1.out 3)"
    check "mpi scale 1: node rows identical" awk '$1 ~ /^[01]$/ && $4 != $5 { bad = 1 } END { exit bad }' m1.out
    qq m2.out m2.err whatif sync.qq --scale compute=0.5 --waiting MessageBus::Sync
    check "mpi scale 0.5: faster" test "$(all m2.out 3)" -lt "$(all m2.out 2)"
    # with a collective every node ends within its own release latency of the others
    check "mpi: both nodes predicted" test "$(grep -cE '^[01] ' m2.out)" = 2
else
    echo "note: no mpirun: the MPI half is skipped"
fi

qq e1.out e1.err whatif pow.qq --scale Nope=0.5
check "unknown key: exit 2 (rc $rc)" test "$rc" = 2
check "unknown key: message" has e1.err "no key named 'Nope'"
qq e2.out e2.err whatif pow.qq --scale V1=0.5
check "not a state: message" has e2.err "not a state key: 'V1'"
qq e3.out e3.err whatif pow.qq --scale Km=fast
check "bad number: exit 2 (rc $rc)" test "$rc" = 2
qq e4.out e4.err whatif nosuch.qq --scale Km=0.5
check "missing file: exit 2 (rc $rc)" test "$rc" = 2
# Decimal numbers only, and none past a billion: strtod took 0x10 as 16,
# and 1e308 predicted "inf ms".
qq e5.out e5.err whatif pow.qq --scale Km=0x10
check "a hexadecimal factor: exit 2 (got $rc)" test "$rc" = 2
check "it is not a decimal number" has e5.err "'0x10' is not a decimal number"
qq e6.out e6.err whatif pow.qq --scale Km=1e308
check "a factor of 1e308: exit 2 (got $rc)" test "$rc" = 2
check "it is past the range" has e6.err "'1e308' is not a number from 0 to 1e\\+09"
qq e7.out e7.err whatif pow.qq --per-hit Km=inf
check "an infinite per-hit figure: exit 2 (got $rc)" test "$rc" = 2
finish
