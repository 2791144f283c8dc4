#!/bin/bash
# host_reads.sh - a program of the cross build writes a .qq file under the emulator, and the
# host's qqbench st reads it: the format is the same on both architectures.
# usage: host_reads.sh PROGRAM QQBENCH (the emulator's command in QQ_EMULATOR)
set -u
prog=$1
qqbench=$2
fail() {
    echo "FAIL: $*"
    exit 1
}
rm -f events.qq
# shellcheck disable=SC2086 # QQ_EMULATOR is a command with its arguments
${QQ_EMULATOR:-} "$prog" 1000 200 >run.out 2>&1 || fail "$prog exited $?: $(cat run.out)"
[ -s events.qq ] || fail "$prog wrote no events.qq"
# The file's META says which counter wrote it: the target's, not the host's.
grep -aq cntvct_el0 events.qq || fail "events.qq does not name cntvct_el0 as its tick source"
"$qqbench" st events.qq >st.out 2>st.err || fail "qqbench st exited $?: $(cat st.err)"
cat st.out
mhz=$(sed -n 's/^Node *0: *\([0-9.]*\) MHz.*/\1/p' st.out)
[ -n "$mhz" ] || fail "no 'Node 0: ... MHz' line"
awk -v m="$mhz" 'BEGIN { exit !(m > 0) }' || fail "tick frequency $mhz MHz"
# 200 intervals (400 on and off events), in the state table and in the per-hit one.
grep -Eq "^1: +200 +[0-9.]+ +[0-9.]+% +'loop'$" st.out || fail "the state table does not have 200 intervals of 'loop'"
grep -Eq "^1: +200 +[0-9.]+ +[0-9.]+ +[a-z0-9]+ +'loop'" st.out || fail "the per-hit table does not have 200 intervals of 'loop'"
grep -q 'empty state' st.out || fail "no empty-state line (the calibration did not read)"
grep -q '^ *tick path: cntvct_el0 (the generic timer)$' st.out ||
    fail "st does not say the node read cntvct_el0"
echo "ok: the host's qqbench st read the aarch64 file ($mhz MHz)"
