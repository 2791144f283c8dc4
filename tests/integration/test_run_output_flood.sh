#!/usr/bin/env bash
# qqbench run with a kernel that prints ~200 MB: only a bounded tail of its output is kept (in memory and in the log), and its last words still explain a failure.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
here=$(pwd)
rm -rf bl work flood.sh ./*.txt
mkdir work
bytes=200000000
# ~200 MB of lines, then last words, then a real (quick) kernel.
cat > flood.sh <<SH
#!/bin/sh
yes "flooding the log with one more line of output" | head -c $bytes
echo "flood done: these are the last words"
if [ "\$1" = fail ]; then echo "flood failing on purpose"; exit 7; fi
exec "$PLANTED" --reps 20
SH
chmod +x flood.sh
cat > flood.yaml <<YAML
suite: flood
defaults:
  repetitions: 2
  warmup: 0
  timeout: 600
benchmarks:
  - name: flood
    kernel: $here/flood.sh
  - name: fails
    kernel: $here/flood.sh
    args: [fail]
YAML

qq out.txt err.txt run flood.yaml --baselines bl --work work --keep
check "exit 3: one benchmark fails (got $rc)" test "$rc" = 3
[ "$rc" = 3 ] || show out.txt err.txt
check "the flooding kernel is measured (2 launches)" \
    has err.txt '^qqbench: flood@1: 2 launches'
check "the failure quotes the last words after 200 MB" \
    has out.txt '^  fails@1: exited with status 7: flood failing on purpose'

# Every kept log is a bounded tail that ends with the kernel's last words.
logs=$(find work -name 'run*.log' | sort)
check "the launch logs were kept (--keep)" test -n "$logs"
for log in $logs; do
    size=$(wc -c <"$log")
    check "$log: at most 64 KiB and a line ($size bytes)" test "$size" -le 66000
    check "$log: says how much output was not kept" \
        has "$log" '^\[qqbench: the first [0-9]+ of 2000000[0-9]{2} bytes of output were not kept\]$'
    check "$log: holds the last words" has "$log" 'flood done: these are the last words$'
    check "$log: starts on a whole line" \
        test "$(sed -n 2p "$log")" = "flooding the log with one more line of output"
done
rm -rf work
finish
