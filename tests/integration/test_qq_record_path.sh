#!/usr/bin/env bash
# The threaded record path (a thread-local buffer per thread) against the single-thread one it replaced: instructions to the fast path's return, no lock, no atomic, no call.
set -euo pipefail
src="$QQ_TEST_DATA/record_path"
cc=${CC:-cc}
fail=0
case "$(uname -m)" in x86_64) ;; *) echo "x86-64 only (the counts are x86-64's)"; exit 77 ;; esac

mkdir -p old new vg
cp "$src/qq_before_threads.h" old/qq.h
cp "$QQ_SOURCE_DIR/qq/include/qq.h" "$QQ_SOURCE_DIR/qq/include/qq_record.h" new/
# The headers before the callgrind record path (issue 37): the path under
# valgrind is chosen at QQInit, and the native one must not change at all.
cp "$src/before_callgrind/qq.h" "$src/before_callgrind/qq_record.h" vg/

# The fast path: the instructions run when the buffer has room and the
# counter is the TSC (rdtscp and lfence paths), walked from the label:
# jb (room) taken; jae (full), jle (clock path), jne (not rdtscp) and je
# (lfence among the fallbacks) not; jmp followed; up to the ret.
fast() {
    objdump -d --no-show-raw-insn "$1" | python3 -c '
import re, sys
want = "<" + sys.argv[1] + ">:"
ins, order, on = {}, [], False
for line in sys.stdin:
    if line.rstrip().endswith(want):
        on = True
        continue
    if on and not line.strip():
        break
    m = re.match(r"\s*([0-9a-f]+):\s*(\S+)\s*(.*)", line)
    if on and m:
        a = int(m.group(1), 16)
        ins[a] = (m.group(2), m.group(3).strip())
        order.append(a)
i, seen = 0, 0
while i < len(order) and seen < 200:
    a = order[i]
    op, arg = ins[a]
    seen += 1
    print(op, arg)
    if op.startswith("ret"):
        break
    target = re.match(r"([0-9a-f]+) <", arg)
    if op == "jmp" or op == "jb":
        i = order.index(int(target.group(1), 16))
        continue
    i += 1
' "$2"
}
whole() { objdump -d --no-show-raw-insn "$1" | awk -v f="<$2>:" '$2==f{on=1;next} on&&/^$/{exit} on{print}'; }

for opt in -O2 -O3; do
    for v in old new vg; do
        $cc -std=c11 -w $opt -I$v -c "$src/record.c" -o $v$opt.o
    done
    for fn in on off mark count; do
        fast old$opt.o $fn > old-$fn$opt.txt
        fast new$opt.o $fn > new-$fn$opt.txt
        whole new$opt.o $fn > whole-$fn$opt.txt
        fast vg$opt.o $fn > vg-$fn$opt.txt
        if ! cmp -s vg-$fn$opt.txt new-$fn$opt.txt; then
            echo "FAIL: $opt $fn: the fast path changed since the callgrind record path"
            diff vg-$fn$opt.txt new-$fn$opt.txt || true; fail=1
        else
            echo "$opt $fn: the fast path is the one before the callgrind record path, instruction for instruction"
        fi
        o=$(wc -l < old-$fn$opt.txt)
        n=$(wc -l < new-$fn$opt.txt)
        echo "$opt $fn: $o instructions on the fast path before threads, $n now"
        # The bound: the thread-local base costs at most two instructions (the
        # TLS offset's load, one register move the allocator adds).
        if [ "$n" -gt $((o + 2)) ]; then
            echo "FAIL: $opt $fn: $n instructions, more than $o + 2"; cat new-$fn$opt.txt; fail=1
        fi
        if ! grep -q 'rdtsc' new-$fn$opt.txt; then
            echo "FAIL: $opt $fn: the walk missed the counter read"; cat new-$fn$opt.txt; fail=1
        fi
        if ! grep -q '%fs:' new-$fn$opt.txt; then
            echo "FAIL: $opt $fn: the fast path does not reach its buffer through %fs (TLS)"; fail=1
        fi
        if grep -q '%fs:' old-$fn$opt.txt; then
            echo "FAIL: $opt $fn: the reference header is not the single-thread one"; fail=1
        fi
        if grep -q 'call' new-$fn$opt.txt; then
            echo "FAIL: $opt $fn: a call on the fast path"; cat new-$fn$opt.txt; fail=1
        fi
        if grep -Eq 'lock|cmpxchg|xadd|mfence' whole-$fn$opt.txt; then
            echo "FAIL: $opt $fn: a lock or an atomic in the record path"; cat whole-$fn$opt.txt; fail=1
        fi
    done
done
[ $fail = 0 ] && echo "1 passed, 0 failed" || { echo "0 passed, 1 failed"; exit 1; }
