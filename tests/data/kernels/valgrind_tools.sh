#!/usr/bin/env bash
# valgrind_tools.sh KERNEL QQBENCH - callgrind and cachegrind run a QQ-instrumented kernel to the end on each tick path this test can force (the default, and lfence-rdtsc: what a processor that hides RDTSCP gets), count its instructions, and its file says which path it read with.
set -euo pipefail
K="$1" QQBENCH="$2"
pass=0 fail=0
check() { local what="$1"; shift; if "$@"; then pass=$((pass + 1)); echo "ok   $what"
          else fail=$((fail + 1)); echo "FAIL $what"; fi; }
for path in auto lfence; do
    for tool in callgrind cachegrind; do
        rm -f "$tool.$path.out" "$path.$tool.qq"
        rc=0
        QQ_TICKS=$path QQ_OUTPUT="$PWD/$path.$tool.qq" valgrind -q --tool=$tool \
            --$tool-out-file="$PWD/$tool.$path.out" "$K" --steps 200 > "$path.$tool.log" 2>&1 || rc=$?
        check "$tool, QQ_TICKS=$path: the kernel ran to the end (exit $rc)" test "$rc" = 0
        # Both tools write 'summary: N ...', N the instructions executed.
        n=$(awk '/^summary:/ {print $2}' "$tool.$path.out" 2>/dev/null || true)
        check "$tool, QQ_TICKS=$path: counted instructions (${n:-none})" test "${n:-0}" -gt 0
        st=$("$QQBENCH" st "$path.$tool.qq" 2>&1 | grep 'tick path:' || true)
        echo "     $st"
        if [ "$path" = lfence ]; then
            check "$tool: the file says lfence-rdtsc, forced" grep -q 'tick path: lfence-rdtsc (forced by QQ_TICKS' <<<"$st"
        else
            check "$tool: the file names its path" grep -Eq 'tick path: (rdtscp|lfence-rdtsc|clock_gettime|cntvct_el0) \(' <<<"$st"
        fi
    done
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
