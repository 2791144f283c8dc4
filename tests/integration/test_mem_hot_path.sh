#!/usr/bin/env bash
# The memory keys' malloc and free as linked into a program: no atomic read-modify-write, no fence and no call but libc's malloc in MemMalloc and MemFree, whose bodies are the one-thread path.
set -euo pipefail
case "$(uname -m)" in x86_64) ;; *) echo "x86-64 only (the mnemonics are x86-64's)"; exit 77 ;; esac
command -v objdump > /dev/null || { echo "no objdump"; exit 77; }
bin="${QQ_KERNEL_DIR:?}/mem_overhead"
[ -x "$bin" ] || { echo "$bin: not built" >&2; exit 1; }

objdump -d --no-show-raw-insn "$bin" > dis.txt
# A sanitizer's build instruments the bodies with calls of its own.
if grep -q '__asan_\|__tsan_' dis.txt; then
    echo "sanitized build: the bodies are instrumented"
    exit 77
fi

# The body of function $1: every instruction up to the next symbol. The
# common paths of both are laid out straight in them; every other case is
# a jump to a function of its own (qq_mem.c: COLD), so these are the
# instructions a biased thread's pair can run.
body() {
    awk -v f="<$1>:" '$0 ~ /^[0-9a-f]+ <.*>:$/ { on = ($2 == f) ; next } on && NF' dis.txt
}

fail=0
for f in MemMalloc MemFree; do
    was=$fail
    fail=0
    body "$f" > "$f.txt"
    n=$(wc -l < "$f.txt")
    if [ "$n" -lt 20 ]; then
        echo "FAIL: $f has $n instructions in $bin: not found, or not what this test reads"
        fail=1
        was=1
        continue
    fi
    # An atomic read-modify-write (lock prefix, xchg with memory, which
    # locks by itself, cmpxchg, xadd) or a fence: what a per-thread
    # counter on the common path does without.
    bad=$(grep -E '\block\b|xchg +[^,]*\(|xchg +%[a-z0-9]+,[^%]|cmpxchg|xadd|mfence|sfence' "$f.txt" || true)
    if [ -n "$bad" ]; then
        echo "FAIL: $f runs an atomic or a fence:"
        echo "$bad"
        fail=1
    fi
    # Calls: libc's malloc in MemMalloc (through the GOT, or its PLT
    # stub), none in MemFree (libc's free is a tail jump).
    calls=$(grep -E '\bcall' "$f.txt" | grep -vE '<malloc(@plt)?>|# [0-9a-f]+ <malloc@' || true)
    if [ -n "$calls" ]; then
        echo "FAIL: $f calls more than libc's malloc:"
        echo "$calls"
        fail=1
    fi
    [ "$fail" = 0 ] && echo "$f: $n instructions, no atomic, no fence, no other call"
    fail=$((fail | was))
done
exit $fail
