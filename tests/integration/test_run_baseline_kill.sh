#!/usr/bin/env bash
# qqbench run --update-baseline killed with SIGKILL 16 times at random moments (and right in the middle of writing): the baseline is always the old or a new whole file that parses, holds every case, and no temp file is taken for a baseline.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf bl
# Many cases make a large baseline (a long write); 'tiny' is what the
# checking runs measure (--only), the whole file is still read.
{
    echo "suite: killme"
    echo "defaults: {repetitions: 2, warmup: 0}"
    echo "benchmarks:"
    echo "  - name: tiny"
    echo "    kernel: $PLANTED"
    echo '    args: [--reps, "5"]'
    echo "  - name: many"
    echo "    kernel: $PLANTED"
    echo '    args: [--work, "{n}", --reps, "4"]'
    echo "    params:"
    echo "      n: [$(seq -s, 1000 1059)]"
} > big.yaml
ncases=61
qq out.txt err.txt run big.yaml --baselines bl -q
check "first baseline recorded (exit $rc)" test "$rc" = 0
bfile=$(echo bl/*/killme.yaml)
dir=$(dirname "$bfile")
check "first baseline holds $ncases cases" test "$(grep -c '^- name: ' "$bfile")" = "$ncases"
# Two more runs of tiny: a stored baseline gates timing from 3 runs on, so
# the checking runs below compare with it.
for i in 1 2; do
    qq out.txt err.txt run big.yaml --baselines bl -q --update-baseline --only tiny
done
check "tiny's baseline holds 3 runs (exit $rc)" test "$rc" = 0

# 16 kills, three kinds in turn: half of them at the moment the temp file
# appears (mid-write) of an update measuring only 'tiny' (the whole file is
# still rewritten: a short run, a full write), the window where a
# non-atomic store would leave a cut file; a quarter at a random moment of
# such an update (nearly always still measuring); every fourth at a random
# moment of an update of everything. After each, the baseline must be the
# file of before or a new whole one.
mid=0 tries=16 same=0 changed=0
for try in $(seq 1 $tries); do
    cp "$bfile" before.yaml
    only=(--only tiny)
    case $((try % 4)) in
    0) only=(); kind=full ;;
    2) kind=1 ;;
    *) kind=0 ;;
    esac
    "$QQBENCH" run big.yaml --baselines bl -q --update-baseline "${only[@]}" >/dev/null 2>&1 &
    pid=$!
    how=""
    case $kind in
    0)
        # Kill at the moment its temp file appears: mid-write.
        while kill -0 "$pid" 2>/dev/null; do
            if [ -e "$bfile.tmp.$pid" ]; then
                kill -9 "$pid" 2>/dev/null && how="mid-write"
                break
            fi
        done ;;
    full)
        sleep "$((RANDOM % 3)).$((RANDOM % 10))$((RANDOM % 10))"
        kill -9 "$pid" 2>/dev/null && how="random (full update)" ;;
    *)
        sleep "$(printf "0.%03d" $((RANDOM % 150)))"
        kill -9 "$pid" 2>/dev/null && how="random" ;;
    esac
    wait "$pid" 2>/dev/null || true
    [ "$how" = mid-write ] && mid=$((mid + 1))
    if cmp -s before.yaml "$bfile"; then same=$((same + 1)); else changed=$((changed + 1)); fi
    echo "try $try: killed ${how:-after it finished}; files: $(ls "$dir" | tr '\n' ' ')"
    check "try $try: the baseline exists" test -f "$bfile"
    check "try $try: the baseline holds $ncases cases (a whole file)" \
        test "$(grep -c '^- name: ' "$bfile")" = "$ncases"
    qq out.txt err.txt run big.yaml --baselines bl --only tiny --repetitions 2
    check "try $try: the baseline parses (next run exits $rc)" test "$rc" = 0 -o "$rc" = 1
    [ "$rc" = 0 ] || [ "$rc" = 1 ] || show err.txt
    check "try $try: the next run compares with it" has out.txt '^Against the baseline'
    check "try $try: no temp file is taken for a baseline" \
        hasnt err.txt '\.tmp\.[0-9]|baselines exist for other machines|no baseline'
    [ "$fail" = 0 ] || show err.txt
done
echo "killed mid-write in $mid of $tries tries; the baseline was the old file after $same, a new whole file after $changed"
check "at least one kill hit the write itself" test "$mid" -ge 1

# The next successful update removes stale temp files.
qq out.txt err.txt run big.yaml --baselines bl -q --update-baseline --only tiny
check "a final update succeeds (exit $rc)" test "$rc" = 0 -o "$rc" = 1
check "no temp files remain after a successful update" test -z "$(find bl -name '*.tmp*')"
check "the final baseline still holds $ncases cases" test "$(grep -c '^- name: ' "$bfile")" = "$ncases"
check "only the baseline is in the folder (a killed writer's lock file removed by the next)" \
    test "$(ls "$dir" | tr '\n' ' ')" = "killme.yaml "
finish
