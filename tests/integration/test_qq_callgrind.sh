#!/usr/bin/env bash
# QQ under callgrind ($QQ_CALLGRIND_KEY): a key's count is the instructions of its regions, exact, per thread, per rank.
set -euo pipefail
. "$QQ_TEST_DATA/run/check.sh"
if [ -n "${QQ_SANITIZED:-}" ]; then
    echo "skipped: sanitizer build (ASan and valgrind cannot run together)"; exit 77
fi
command -v valgrind >/dev/null || { echo "FAIL: valgrind is not installed (make deps-test installs it)"; exit 1; }
K="${QQ_TEST_KERNELS:?}"
# count KEY OUT PROGRAM ARGS...: the key's instructions in one launch (the
# out file's totals line), on stdout.
count() {
    local key=$1 out=$2; shift 2
    QQ_OUTPUT="$PWD/c.qq" QQ_CALLGRIND_KEY=$key valgrind -q --tool=callgrind --collect-atstart=no \
        --callgrind-out-file="$out" "$@" > /dev/null
    awk '$1 == "totals:" { print $2 }' "$out"
}
W=20000
one=$(count one one.out "$K/counted" --work $W --reps 20)
check "key 'one' counted ($one)" test "${one:-0}" -gt 0
# callgrind's own inclusive count of the function the key wraps.
callgrind_annotate --inclusive=yes one.out > one.txt 2>&1 || true
incl=$(awk '/counted.c:one / { gsub(",", "", $1); print $1; exit }' one.txt)
check "callgrind's inclusive count of one() ($incl)" test "${incl:-0}" -gt 0
check "key 'one' = one()'s inclusive count within 0.1% ($one vs $incl)" \
    awk -v a="$one" -v b="$incl" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.001 * b) }'
same=1
for i in 1 2 3; do
    [ "$(count one again.out "$K/counted" --work $W --reps 20)" = "$one" ] || same=0
done
check "the same launch gives the same count 3 more times" test $same = 1
# Nested and repeated: 'outer' opens again inside itself and holds 'inner';
# counted from its outermost opening it is 3 times 'inner' (2 x one(W/4) +
# 2 x one(W/8) against 2 x one(W/8)), within the record path's few per hit.
outer=$(count outer outer.out "$K/counted" --work $W --reps 20)
inner=$(count inner inner.out "$K/counted" --work $W --reps 20)
check "outer ($outer) = 3 x inner ($inner) within 1%" \
    awk -v a="$outer" -v b="$inner" 'BEGIN { d = a - 3 * b; if (d < 0) d = -d; exit !(d <= 0.01 * a) }'
# Threads: each thread's collection is its own; two threads count twice one.
t1=$(count thread t1.out "$K/counted" --work 2000 --reps 20 --threads 1)
t2=$(count thread t2.out "$K/counted" --work 2000 --reps 20 --threads 2)
check "2 threads count exactly twice 1 thread ($t2 = 2 x $t1)" test "$t2" = $((2 * t1))
# Not under valgrind the variable changes nothing: the file is written.
rm -f c.qq
QQ_OUTPUT="$PWD/c.qq" QQ_CALLGRIND_KEY=one "$K/counted" --reps 2 > /dev/null
check "natively the kernel writes its file" test -s c.qq
# No key named: nothing is collected.
none=$(count nosuchkey none.out "$K/counted" --reps 2)
check "an unknown key collects nothing ($none)" test "$none" = 0
# MPI: each rank under valgrind, one file per rank; rank r's key 'b' does
# 3 more iterations per hit than rank r-1 (15 instructions x 20 hits).
if [ -x "$K/counted_mpi" ] && command -v mpirun >/dev/null; then
    rm -f mpi.out.*
    QQ_OUTPUT="$PWD/m.qq" QQ_CALLGRIND_KEY=b mpirun -n 2 valgrind -q --tool=callgrind \
        --collect-atstart=no --callgrind-out-file="$PWD/mpi.out.%p" "$K/counted_mpi" --reps 20 > mpi.log 2>&1 || true
    mapfile -t per < <(for f in mpi.out.*; do awk '$1 == "totals:" { print $2 }' "$f"; done | sort -n)
    check "2 ranks, 2 callgrind files (${#per[@]})" test "${#per[@]}" = 2
    serial=$(count b b.out "$K/counted" --reps 20)
    check "rank 0 counts as the serial build within 1% (${per[0]:-} vs $serial)" \
        awk -v a="${per[0]:-0}" -v b="$serial" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.01 * b) }'
    check "rank 1 counts 3 x 5 x 20 more, exactly (${per[1]:-} - ${per[0]:-})" \
        test "$(( ${per[1]:-0} - ${per[0]:-0} ))" = 300
fi
finish
