#!/bin/bash
# test_kernel_qq_io.sh - the output benchmarks qq_io and qq_merge, and qq_keys: they run, write their results, and leave no scratch file behind.
set -u
KD="${QQ_KERNEL_DIR:?QQ_KERNEL_DIR not set}"
: "${QQBENCH:?QQBENCH not set}"
fail=0
check() {
    local what="$1"; shift
    if "$@"; then echo "ok   $what"; else echo "FAIL $what"; fail=1; fi
}
field() { awk -v k="$1" '$1 == k { print $2 }'; }
# Hits of a value key in qqbench st's table, node 0 ("N:  hits  mean  min  max  'name'").
hits() { "$QQBENCH" st "$1" | awk -v k="'$2'" '$NF == k { print $2; exit }'; }
no_scratch() { ! ls "$1" | grep -q scratch; }

rm -rf out && mkdir out
# qq_io: the results go to $QQ_OUTPUT, the scratch files beside it.
o=$(QQ_OUTPUT="$PWD/out/io.qq" "$KD/qq_io" --size 10000 --steps 3 --print)
check "qq_io runs" test $? -eq 0
echo "$o"
check "qq_io prints the QQOut time" test -n "$(field write_ms <<<"$o")"
check "qq_io prints the plain time" test -n "$(field plain_ms <<<"$o")"
check "qq_io prints the fsync time" test -n "$(field fsync_ms <<<"$o")"
# 10^4 entries of 24 bytes and the prefix, sections, calibration.
check "qq_io's file holds the entries" test "$(field file_bytes <<<"$o")" -gt 240000
check "qq_io records one write_ms per round" test "$(hits out/io.qq write_ms)" = 3
check "qq_io records one plain_ms per round" test "$(hits out/io.qq plain_ms)" = 3
check "qq_io records one fsync_ms per round" test "$(hits out/io.qq fsync_ms)" = 3
check "qq_io leaves no scratch file" no_scratch out
check "qq_io writes nothing in the working directory" no_scratch .

o=$(QQ_OUTPUT="$PWD/out/nofsync.qq" "$KD/qq_io" --size 1000 --steps 2 --fsync 0 --print)
check "qq_io --fsync 0 runs" test $? -eq 0
check "qq_io --fsync 0 times no fsync" test -z "$(field fsync_ms <<<"$o")"
check "qq_io --fsync 0 records no fsync_ms" test "$(hits out/nofsync.qq fsync_ms)" = 0

QQ_OUTPUT="$PWD/out/median.qq" "$KD/qq_io" --size 1000 --steps 3 --median >/dev/null
check "qq_io --median runs" test $? -eq 0
check "qq_io --median records one write_ms" test "$(hits out/median.qq write_ms)" = 1
check "qq_io --median records one plain_ms" test "$(hits out/median.qq plain_ms)" = 1
"$KD/qq_io" --size 0 >/dev/null 2>err.txt
check "qq_io --size 0 is bad usage (exit 2)" test $? -eq 2
check "qq_io --size 0 says why" grep -q -- "--size" err.txt
"$KD/qq_io" --size 80000001 >/dev/null 2>err.txt
check "qq_io --size past its bound is bad usage (exit 2)" test $? -eq 2
check "qq_io --size past its bound names the bound" grep -q -- "--size at most 80000000" err.txt
"$KD/qq_keys" --help >help.txt
check "qq_keys --help names its --size bound" grep -q "at most 10000000" help.txt

# The shipped suite loads, and its recording benchmark runs as written
# (against no baseline: one left by an earlier run of the tests would be
# judged against, its memory per key exactly).
rm -rf baselines
"$QQBENCH" run "${QQ_SOURCE_DIR:?}/configs/qq-overhead.yaml" --only recording --repetitions 2 \
    --no-report --baselines "$PWD/baselines" --work "$PWD" -q >suite.out 2>&1
rc=$?
check "configs/qq-overhead.yaml runs its recording benchmark (exit $rc)" test $rc -eq 0
[ $rc -eq 0 ] || cat suite.out

# qq_keys: every round registers the names in order (it fails otherwise).
o=$(QQ_OUTPUT="$PWD/out/keys.qq" "$KD/qq_keys" --size 20000 --steps 3 --print)
check "qq_keys runs" test $? -eq 0
check "qq_keys prints the registration time" test -n "$(field add_ms <<<"$o")"
for k in add_ms again_ms mem_add_ms; do
    check "qq_keys records 3 $k" test "$(hits out/keys.qq $k)" = 3
done
check "qq_keys's file holds only its results" \
    test "$("$QQBENCH" st out/keys.qq | grep -c "'key[0-9]")" = 0

if [ -x "$KD/qq_merge" ] && command -v mpirun >/dev/null; then
    for np in 1 2 4; do
        for v in auto mpiio gather direct; do
            f="$PWD/out/merge_${np}_$v.qq"
            o=$(QQ_OUTPUT="$f" mpirun -np $np --oversubscribe "$KD/qq_merge" --variant $v \
                --size 20000 --steps 3 --print)
            check "qq_merge np $np $v runs" test $? -eq 0
            check "qq_merge np $np $v prints the merge time" test -n "$(field merge_ms <<<"$o")"
            check "qq_merge np $np $v records 3 merge_ms" test "$(hits "$f" merge_ms)" = 3
            check "qq_merge np $np $v records 3 gatherv_ms" test "$(hits "$f" gatherv_ms)" = 3
            check "qq_merge np $np $v records 3 gatherv_write_ms" \
                test "$(hits "$f" gatherv_write_ms)" = 3
            check "qq_merge np $np $v records 3 write_ms" test "$(hits "$f" write_ms)" = 3
        done
    done
    f="$PWD/out/merge_replace.qq"
    QQ_OUTPUT="$f" mpirun -np 2 --oversubscribe "$KD/qq_merge" --replace --size 20000 \
        --steps 3 >/dev/null
    check "qq_merge --replace runs" test $? -eq 0
    check "qq_merge --replace records 3 merge_ms" test "$(hits "$f" merge_ms)" = 3
    check "qq_merge leaves no scratch file" no_scratch out
else
    echo "skipped: qq_merge (no MPI)"
fi
exit $fail
