#!/bin/bash
# test_kernel_msg_pack.sh - the msg_pack kernel under MPI: ncs3 and ncs5 deliver exactly the same firings on 1, 2 and 4 ranks.
set -u
K="${QQ_KERNEL_DIR:?QQ_KERNEL_DIR not set}/msg_pack"
if [ ! -x "$K" ]; then
    echo "skipped: $K not built (no MPI, so no libqq-mpi)"
    exit 77
fi
command -v mpirun >/dev/null || { echo "skipped: no mpirun"; exit 77; }
fail=0
check() {
    local what="$1"; shift
    if "$@"; then echo "ok   $what"; else echo "FAIL $what"; fail=1; fi
}
field() { awk -v k="$1" '$1 == k { print $2 }'; }

for np in 1 2 4; do
    for seed in 1 6; do
        for v in ncs3 ncs5; do
            o=$(QQ_OUTPUT="$PWD/mp_${np}_$v.qq" mpirun -np $np --oversubscribe "$K" \
                --variant $v --seed $seed --steps 200 --print) || { echo "FAIL run $v np $np"; fail=1; }
            eval "d_$v=\$(field digest <<<\"\$o\")"
            eval "s_$v=\$(field sent <<<\"\$o\")"
            eval "r_$v=\$(field received <<<\"\$o\")"
            eval "b_$v=\$(field bytes_sent <<<\"\$o\")"
        done
        echo "np $np seed $seed: ncs3 $d_ncs3 ($b_ncs3 bytes), ncs5 $d_ncs5 ($b_ncs5 bytes)"
        check "np $np seed $seed: digests equal" test -n "$d_ncs3" -a "$d_ncs3" = "$d_ncs5"
        check "np $np seed $seed: digest nonzero" test -n "$d_ncs3" -a "$d_ncs3" != 0000000000000000
        check "np $np seed $seed: firings sent > 0" test "${s_ncs3:-0}" -gt 0
        check "np $np seed $seed: all firings received" test "$s_ncs3" = "$r_ncs3" -a "$s_ncs5" = "$r_ncs5" -a "$s_ncs3" = "$s_ncs5"
        check "np $np seed $seed: ncs5 sends fewer bytes" test "$b_ncs5" -lt "$b_ncs3"
    done
done
# Different seeds, different firings.
a=$(QQ_OUTPUT="$PWD/a.qq" mpirun -np 2 --oversubscribe "$K" --seed 1 --steps 50 --print | field digest)
b=$(QQ_OUTPUT="$PWD/b.qq" mpirun -np 2 --oversubscribe "$K" --seed 2 --steps 50 --print | field digest)
check "seeds differ" test "$a" != "$b"
check "merged .qq file written" test -s "$PWD/a.qq"
mpirun -np 2 --oversubscribe "$K" --variant bogus >/dev/null 2>err.txt; rc=$?
check "unknown variant fails (rc $rc)" test $rc -ne 0
check "unknown variant lists ncs3 ncs5" grep -q "ncs3 ncs5" err.txt
exit $fail
