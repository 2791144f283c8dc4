#!/usr/bin/env bash
# The kernels' builds (docs/BASELINES.md, "The kernels' builds"): one tiny kernel built with -O0 -g and with -O2 -g; run --against warns once per kernel naming both flag sets; the build ID, compiler and producers reach the baseline and the run JSON; a baseline of the other build is refused (exit 2, one line, nothing launched or stored) unless --allow-other-flags, which marks the table, JSON and index.html; a baseline written before builds were stored still reads; a kernel built without -g is said to have its switches not recorded (header, warning, JSON), never given libqq.a's.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
command -v cc >/dev/null || { echo "FAIL: no C compiler (cc)"; exit 1; }
rm -rf o0 o2 o2b rel bl bl2 bl3 blold rep rep9 ./*.json ./*.txt
inc="$QQ_SOURCE_DIR/qq/include"
lib="$QQ_BINARY_DIR/qq/libqq.a"
cat > k.c <<'EOF'
#include "qq.h"
int main(void)
{
    QQInit(100000);
    int k = QQAddState("work");
    volatile double x = 1.0;
    for (int i = 0; i < 300; i++) {
        QQStateOn(k);
        for (int j = 0; j < 100; j++)
            x = x * 1.0000001 + 1e-9;
        QQStateOff(k);
    }
    QQOut("k.qq", 0, 1);
    return 0;
}
EOF
mkdir -p o0 o2 o2b
build() { cc -std=c11 "$1" -g -DQQ_ENABLE -I"$inc" k.c "$lib" -lm -lpthread -o "$2/kern"; }
build -O0 o0
build -O2 o2
build -O2 o2b
cat > s.yaml <<'EOF'
suite: flags
defaults:
  repetitions: 3
  warmup: 0
benchmarks:
  - name: k
    kernel: kern
    variants:
      a: []
      b: []
EOF
bid() { readelf -n "$1" | sed -n 's/.*Build ID: *//p'; }

# 1. --against a reference built with other flags: one warning line for the
#    kernel (two variants, one kernel), naming both flag sets.
qq out1.txt err1.txt run s.yaml --kernels o2 --against o0 --baselines bl --no-report --quiet \
   --json a.json
check "against: runs (exit 0 or 1, got $rc)" test "$rc" -le 1
check "against: the legend's change is against the reference build" \
    has out1.txt "^change: against the reference build, the median ratio of the change build's launches"
check "against: the legend speaks of no baseline" hasnt out1.txt 'against the baseline'
check "against: one warning line" test "$(grep -c 'built with other flags' err1.txt)" = 1
check "against: names both flag sets" \
    has err1.txt "^qqbench: WARNING: kernel 'kern' was built with other flags than the reference build's: -O2 here, -O0 in the reference$"
check "JSON: the case's build ID is the kernel's" \
    test "$(jq_py a.json '.cases[0].build_id' 'd["cases"][0]["build_id"]')" = "$(bid o2/kern)"
check "JSON: the reference case's build ID is the reference kernel's" \
    test "$(jq_py a.json '[.cases[]|select(.name|test("reference"))][0].build_id' \
        '[c for c in d["cases"] if "reference" in c["name"]][0]["build_id"]')" = "$(bid o0/kern)"
check "JSON: the producers name -O2 -g" \
    test "$(jq_py a.json '[.cases[0].producer[]|select(test(" -g -O2 -std=c11 -fasync"))]|length' \
        'len([p for p in d["cases"][0]["producer"] if " -g -O2 -std=c11 -fasync" in p])')" = 1
check "JSON: the compiler (.comment)" \
    test "$(jq_py a.json '.cases[0].compiler[0]|startswith("GCC: ")' \
        'str(d["cases"][0]["compiler"][0].startswith("GCC: ")).lower()')" = true
[ "$fail" = 0 ] || show err1.txt

# 2. The same flags on both sides (another file, same build): no warning.
qq out2.txt err2.txt run s.yaml --kernels o2 --against o2b --baselines bl --no-report --quiet
check "same flags: no warning" hasnt err2.txt 'other flags'

# 3. A baseline recorded from the -O0 build holds its build.
qq out3.txt err3.txt run s.yaml --kernels o0 --baselines bl2 --update-baseline --no-report --quiet
check "record -O0: exit 0 (got $rc)" test "$rc" = 0
# Two more runs: a stored baseline gates timing from 3 runs on.
for i in 1 2; do
    qq out3b.txt err3b.txt run s.yaml --kernels o0 --baselines bl2 --update-baseline --no-report --quiet
done
check "record -O0, three runs: exit 0 (got $rc)" test "$rc" = 0
f=$(ls bl2/*/flags.yaml)
check "baseline: build_id" has "$f" "^  build_id: \"?$(bid o0/kern)\"?$"
check "baseline: compiler" has "$f" "^  compiler: \[.?GCC: "
check "baseline: producer -O0" has "$f" '^  - GNU C11 .* -g -O0 -std=c11 -fasync'
cp "$f" before.yaml

# 4. The -O2 build against it: refused before anything runs, one line.
qq out4.txt err4.txt run s.yaml --kernels o2 --baselines bl2 --no-report --json r4.json
check "other flags: exit 2 (got $rc)" test "$rc" = 2
check "other flags: one line" test "$(wc -l < err4.txt)" = 1
check "other flags: says which kernel and both flag sets" \
    has err4.txt "^qqbench run: error: the baseline's kernels were built with other flags: kernel 'kern' \(-O2 here, -O0 in the baseline\); .*--allow-other-flags"
check "other flags: nothing launched (no JSON)" test ! -e r4.json
check "other flags: the baseline is as it was" cmp -s before.yaml "$f"
[ "$fail" = 0 ] || show err4.txt

# 5. --allow-other-flags: compared, and said to cross builds.
qq out5.txt err5.txt run s.yaml --kernels o2 --baselines bl2 --allow-other-flags --report rep \
   --json r5.json --quiet
check "override: runs (exit 0 or 1, got $rc)" test "$rc" -le 1
check "override: the table says it crosses builds" \
    has out5.txt "^Against the baseline, ACROSS BUILDS \(kernel 'kern' \(-O2 here, -O0 in the baseline\)\)"
check "override: a warning on stderr" has err5.txt '^qqbench: WARNING: timing compared across builds'
check "override: the JSON says so" \
    test "$(jq_py r5.json '.baseline_other_build' 'd["baseline_other_build"]')" = \
    "kernel 'kern' (-O2 here, -O0 in the baseline)"
check "override: index.html says so" has rep/index.html 'Timing compared across builds'
check "override: memory still gated (memory baseline named)" \
    test "$(jq_py r5.json '.memory_baseline|endswith("flags.memory.yaml")' \
        'str(d["memory_baseline"].endswith("flags.memory.yaml")).lower()')" = true
check "override: nothing stored" cmp -s before.yaml "$f"

# 6. --update-baseline records the new build: the old build's runs go.
qq out6.txt err6.txt run s.yaml --kernels o2 --baselines bl2 --update-baseline --no-report --quiet
check "update: exit 0 (got $rc)" test "$rc" = 0
check "update: the -O2 build is stored" has "$f" '^  - GNU C11 .* -g -O2 -std=c11 -fasync'
check "update: no -O0 left" hasnt "$f" ' -O0 '
check "update: one run (started afresh)" has "$f" '^  runs: 1$'
qq out7.txt err7.txt run s.yaml --kernels o2 --baselines bl2 --no-report --quiet
check "same build again: not refused (got $rc)" test "$rc" -le 1
for i in 1 2; do # three runs of the -O2 build, for the comparison below
    qq out7b.txt err7b.txt run s.yaml --kernels o2 --baselines bl2 --update-baseline --no-report --quiet
done

# 7. A baseline written before builds were stored reads, and is compared.
mkdir -p blold && cp -r bl2/. blold/
g=$(ls blold/*/flags.yaml)
sed -i -e '/^  build_id:/d' -e '/^  compiler: \[/d' -e '/^  producer:/,/^  [a-z_]*:/{/^  producer:/d;/^  - /d}' "$g"
check "old baseline: no builds left in it" hasnt "$g" 'build_id|producer|GNU C11'
qq out8.txt err8.txt run s.yaml --kernels o0 --baselines blold --no-report --quiet
check "old baseline: read and compared (got $rc)" test "$rc" -le 1
check "old baseline: compared" has out8.txt '^Against the baseline; cycles'
[ "$rc" -le 1 ] || show err8.txt

# 8. A kernel built without -g (Release: -O3 -DNDEBUG): its flags are its own compile units',
#    of which there are none, never libqq.a's (built with -g -O2 and linked into it). The
#    header, the warning and the JSON say its switches are not recorded.
mkdir -p rel
cc -std=gnu17 -O3 -DNDEBUG -DQQ_ENABLE -I"$inc" k.c "$lib" -lm -lpthread -o rel/kern
qq out9.txt err9.txt run s.yaml --kernels rel --against o0 --baselines bl3 --report rep9 \
   --json r9.json --quiet
check "no -g: runs (exit 0 or 1, got $rc)" test "$rc" -le 1
check "no -g: the warning says so, and names the reference's switches" \
    has err9.txt "^qqbench: WARNING: kernel 'kern' was built with other flags than the reference build's: switches not recorded \(built without -g\) here, GNU C11 .*-O0.* in the reference$"
check "no -g: no empty side in the warning" hasnt err9.txt ':  here|,  in the reference'
check "no -g: the header says so" \
    has rep9/index.html 'kernels built by GCC: [^<]*, switches not recorded \(built without -g\)'
check "no -g: libqq's -O2 is named nowhere" hasnt rep9/index.html 'kernels built by [^<]* -O2'
check "no -g: the JSON names no producer" \
    test "$(jq_py r9.json '(.cases[0].producer // [])|length' 'len(d["cases"][0].get("producer") or [])')" = 0
qq out10.txt err10.txt run s.yaml --kernels rel --baselines bl3 --update-baseline --no-report --quiet
check "no -g: recorded (got $rc)" test "$rc" = 0
qq out11.txt err11.txt run s.yaml --kernels o0 --baselines bl3 --allow-other-flags --no-report \
   --json r11.json --quiet
check "no -g baseline: compared (got $rc)" test "$rc" -le 1
check "no -g baseline: the JSON says its switches are not recorded" \
    test "$(jq_py r11.json '.baseline_other_build|endswith(" here, switches not recorded (built without -g) in the baseline)")' \
        'str((d["baseline_other_build"] or "").endswith(" here, switches not recorded (built without -g) in the baseline)")).lower()')" = true
[ "$fail" = 0 ] || show err9.txt err11.txt

finish
