#!/usr/bin/env bash
# A FIFO where a timing baseline, a memory baseline, a history snapshot or a machine profile should be is refused at once, naming the file (exit 2), where run and history hung forever on it; a suite may still come through a pipe.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf bl
planted_suite s.yaml fifo '--work, "1000", --reps, "20", --mem, "4096"'
qq out.txt err.txt run s.yaml --baselines bl --update-baseline --record v1 --no-report -q
check "the baselines are recorded (exit $rc)" test "$rc" = 0
timing=$(ls bl/*/fifo.yaml | head -1)
snap=$(ls bl/*/history/fifo@v1.yaml | head -1)
check "a timing baseline, a memory baseline and a snapshot exist" test -f "$timing" -a -f bl/fifo.memory.yaml -a -f "$snap"
# fifo_in PATH CMD...: PATH becomes a FIFO, CMD runs with a bound (a hang
# is a failure, not a stuck test), PATH is restored.
fifo_in() {
    local path="$1"; shift
    mv "$path" "$path.keep"
    mkfifo "$path"
    rc=0
    timeout 30 "$QQBENCH" "$@" > fifo.out 2> fifo.err || rc=$?
    rm -f "$path"
    mv "$path.keep" "$path"
}
fifo_in "$timing" run s.yaml --baselines bl --no-report -q
check "timing baseline a FIFO: exit 2, no hang (got $rc)" test "$rc" = 2
check "names the file and says FIFO" has fifo.err "$(basename "$timing").*is a FIFO, not a regular file"
fifo_in bl/fifo.memory.yaml run s.yaml --baselines bl --no-report -q
check "memory baseline a FIFO: exit 2, no hang (got $rc)" test "$rc" = 2
check "names the memory baseline" has fifo.err 'fifo\.memory\.yaml.*is a FIFO, not a regular file'
fifo_in "$snap" history s.yaml --baselines bl
check "history snapshot a FIFO: exit 2, no hang (got $rc)" test "$rc" = 2
check "names the snapshot" has fifo.err 'fifo@v1\.yaml.*is a FIFO, not a regular file'
# The machine profile beside the timing baseline.
prof="$(dirname "$timing")/profile.yaml"
touch "$prof"
fifo_in "$prof" run s.yaml --baselines bl --no-report -q
check "machine profile a FIFO: exit 2, no hang (got $rc)" test "$rc" = 2
check "names the profile" has fifo.err 'profile\.yaml.*is a FIFO, not a regular file'
rm -f "$prof"
# The suite through a pipe still works (it is the trusted input).
rc=0; timeout 60 "$QQBENCH" run <(cat s.yaml) --baselines bl --no-report -q > pipe.out 2> pipe.err || rc=$?
check "a suite through a pipe runs (exit $rc)" test "$rc" = 0
[ "$fail" = 0 ] || show fifo.err pipe.err
finish
