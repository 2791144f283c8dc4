#!/bin/bash
# test_kernel_channel.sh - the channel kernel: pow and direct variants give identical results, cells fire, options are checked.
set -u
K="${QQ_KERNEL_DIR:?QQ_KERNEL_DIR not set}/channel"
if [ ! -x "$K" ]; then
    echo "channel kernel not built at $K"
    exit 1
fi
fail=0
check() { # check DESCRIPTION COND...
    local what="$1"; shift
    if "$@"; then echo "ok   $what"; else echo "FAIL $what"; fail=1; fi
}
field() { awk -v k="$1" '$1 == k { print $2 }'; }

# Write .qq output here (the test's own working directory).
export QQ_OUTPUT="$PWD/channel.qq"

declare -A dig
for seed in 1 2 3 17; do
    p=$("$K" --seed "$seed" --variant pow --print) || { echo "FAIL run pow seed $seed"; fail=1; continue; }
    d=$("$K" --seed "$seed" --variant direct --print) || { echo "FAIL run direct seed $seed"; fail=1; continue; }
    dp=$(field digest <<<"$p"); dd=$(field digest <<<"$d")
    check "seed $seed: pow and direct digests equal ($dp)" test -n "$dp" -a "$dp" = "$dd"
    check "seed $seed: pow and direct spike counts equal" test "$(field spikes <<<"$p")" = "$(field spikes <<<"$d")"
    check "seed $seed: cells fire (spikes $(field spikes <<<"$p"))" test "$(field spikes <<<"$p")" -gt 0
    check "seed $seed: cell 2 fires through the synapse" test "$(field spikes_cell2 <<<"$p")" -gt 0
    dig[$seed]=$dp
done
check "different seeds give different results" test "${dig[1]}" != "${dig[2]}"
again=$("$K" --seed 2 --print | field digest)
check "same seed, same digest" test "$again" = "${dig[2]}"
big=$("$K" --size 9 --steps 500 --print --variant direct | field digest)
bigp=$("$K" --size 9 --steps 500 --print --variant pow | field digest)
check "--size 9 --steps 500: variants equal" test -n "$big" -a "$big" = "$bigp"
check "the .qq file was written" test -s "$QQ_OUTPUT"

# Command line errors: exit 2 with a one-line message.
"$K" --variant nosuch >/dev/null 2>err.txt; rc=$?
check "unknown variant exits 2" test $rc -eq 2
check "unknown variant lists the valid ones" grep -q "pow direct" err.txt
"$K" --size 0 >/dev/null 2>&1; check "--size 0 exits 2" test $? -eq 2
"$K" --bogus >/dev/null 2>&1; check "unknown option exits 2" test $? -eq 2
"$K" --steps >/dev/null 2>&1; check "missing value exits 2" test $? -eq 2
"$K" --help >help.txt; rc=$?
check "--help exits 0" test $rc -eq 0
check "--help names the keys" grep -q "Kahp" help.txt
out=$("$K" --steps 50)
check "quiet without --print" test -z "$out"

# The output file fails to open: the kernel must say so and fail.
QQ_OUTPUT=/nonexistent-dir/x.qq "$K" --steps 10 >/dev/null 2>err.txt; rc=$?
check "unwritable output fails (rc $rc)" test $rc -ne 0
check "unwritable output is reported" test -s err.txt
exit $fail
