#!/usr/bin/env bash
# qqbench run memory: per-key memory is compared exactly or within memory_tolerance; a change beyond it is a memory regression (exit 1) listed per key.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf bl
# mk BYTES [EXTRA-SETTING]: the suite, benchmark 'alloc' allocating BYTES
# under the memory key 'buffers'.
mk() {
    cat > mem.yaml <<YAML
suite: memory
defaults:
  repetitions: 3
  warmup: 0
${2:-}
benchmarks:
  - name: alloc
    kernel: $PLANTED
    args: [--mem, "$1"]
YAML
}
# timing_regressed JSON: did a timing comparison against the baseline say
# regressed? (The only other reason for exit 1; timing is not what this
# test judges.)
timing_regressed() {
    test "$(jq_py "$1" '[.comparisons[]|select(.kind=="baseline" and .verdict=="regressed")]|length' \
        'len([c for c in d["comparisons"] if c["kind"]=="baseline" and c["verdict"]=="regressed"])')" != 0
}
mem_changes() { # JSON KEY VERDICT: count of baseline memory changes of KEY with VERDICT
    jq_py "$1" "[.memory_changes[]|select(.kind==\"baseline\" and .key==\"$2\" and .verdict==$3)]|length" \
        "len([m for m in d['memory_changes'] if m['kind']=='baseline' and m['key']=='$2' and m['verdict']==$3])"
}

mk 1000
qq out.txt err.txt run mem.yaml --baselines bl -q
check "baseline with 1000 bytes recorded (exit $rc)" test "$rc" = 0
check "the baseline holds buffers: 1000 bytes" has bl/*/memory.yaml 'key: buffers,.*alloc_bytes: 1000, peak_bytes: 1000'

# Same memory: no change, but the key is listed as unchanged (terminal,
# JSON, JUnit), so a gated key never vanishes; a key that holds nothing on
# either side (the default key's zeros) is not listed.
qq out.txt err.txt run mem.yaml --baselines bl -q --json same.json --junit same.xml
check "same memory: no memory change" \
    test "$(jq_py same.json '[.memory_changes[]|select(.unchanged|not)]|length' \
        'len([m for m in d["memory_changes"] if not m["unchanged"]])')" = 0
check "same memory: buffers listed unchanged in the table" has out.txt '^alloc@1 +buffers +1000 -> 1000 +1000 -> 1000 .* unchanged$'
check "same memory: buffers unchanged in the JSON" \
    test "$(jq_py same.json '[.memory_changes[]|select(.key=="buffers" and .unchanged)]|length' \
        'len([m for m in d["memory_changes"] if m["key"]=="buffers" and m["unchanged"]])')" = 1
check "same memory: no key of zeros listed" \
    test "$(jq_py same.json '[.memory_changes[]|select(.before.alloc_bytes==0 and .after.alloc_bytes==0 and .before.obj_bytes==0 and .after.obj_bytes==0 and .before.peak_bytes==0 and .after.peak_bytes==0)]|length' \
        'len([m for m in d["memory_changes"] if all(m[s][f]==0 for s in ("before","after") for f in ("alloc_bytes","obj_bytes","peak_bytes"))])')" = 0
check "same memory: a passing JUnit test case for buffers" has same.xml 'name="memory:buffers"></testcase>'

# Twice the memory: a memory regression, exit 1, key 'buffers' listed.
mk 2000
qq out.txt err.txt run mem.yaml --baselines bl -q --json more.json
check "2000 bytes against 1000: exit 1 (got $rc)" test "$rc" = 1
check "the memory table lists buffers as regressed" has out.txt '^alloc@1 +buffers +1000 -> 2000 +1000 -> 2000 .* regressed \(\+1000 bytes live, \+100\.0%\)$'
check "the summary counts 1 memory regression" has out.txt 'memory: 1 regressed, 0 improved'
check "the summary says memory made exit 1" \
    has out.txt '^qqbench: .*; exit 1: memory regressed \(1 key against the baseline\)'
check "JSON: buffers regressed" test "$(mem_changes more.json buffers 1)" = 1
check "JSON: the memory change has before/after bytes" test "$(jq_py more.json \
    '.memory_changes[0].before.alloc_bytes, .memory_changes[0].after.alloc_bytes' \
    'str(d["memory_changes"][0]["before"]["alloc_bytes"])+"\n"+str(d["memory_changes"][0]["after"]["alloc_bytes"])' | tr '\n' ' ')" = "1000 2000 "
check "JSON: exit_code 1" test "$(jq_py more.json '.exit_code' 'd["exit_code"]')" = 1
check "a memory regression does not touch the baseline" has bl/*/memory.yaml 'key: buffers,.*alloc_bytes: 1000, peak_bytes: 1000'

# Within the tolerance: not a regression.
mk 2000 "  memory_tolerance: 5000"
qq out.txt err.txt run mem.yaml --baselines bl -q --json tol.json
check "within memory_tolerance: no memory regression in the table" hasnt out.txt 'buffers .* regressed'
check "within memory_tolerance: JSON lists no memory change" \
    test "$(jq_py tol.json '[.memory_changes[]|select(.unchanged|not)]|length' \
        'len([m for m in d["memory_changes"] if not m["unchanged"]])')" = 0
check "within memory_tolerance: summary has 0 memory regressions" has out.txt 'memory: 0 regressed'
if [ "$rc" = 1 ] && timing_regressed tol.json; then
    echo "note: exit 1 from a timing regression (machine noise), not memory"
    ok "within memory_tolerance: exit 1 only for timing"
else
    check "within memory_tolerance: exit 0 (got $rc)" test "$rc" = 0
fi

# Beyond a smaller tolerance: a regression again.
mk 2000 "  memory_tolerance: 999"
qq out.txt err.txt run mem.yaml --baselines bl -q --json tol2.json
check "beyond memory_tolerance (999 < 1000): exit 1 (got $rc)" test "$rc" = 1
check "beyond memory_tolerance: buffers regressed" test "$(mem_changes tol2.json buffers 1)" = 1

# Less memory: improved, not a failure.
mk 500
qq out.txt err.txt run mem.yaml --baselines bl -q --json less.json
check "less memory: listed as improved" has out.txt '^alloc@1 +buffers +1000 -> 500 .* improved \(-500 bytes live, -50\.0%\)$'
check "less memory: JSON verdict -1" test "$(mem_changes less.json buffers -1)" = 1
if [ "$rc" = 1 ] && timing_regressed less.json; then
    ok "less memory: exit 1 only for timing"
else
    check "less memory: exit 0 (got $rc)" test "$rc" = 0
fi

# Variants with different memory: listed (A/B), never a failure by itself.
cat > ab.yaml <<YAML
suite: memory_ab
defaults: {repetitions: 3, warmup: 0}
benchmarks:
  - name: alloc
    kernel: $PLANTED
    variants:
      small: [--mem, "1000"]
      big: [--mem, "3000"]
YAML
qq out.txt err.txt run ab.yaml --baselines bl -q --json ab.json
check "A/B memory: first run exits 0 (got $rc)" test "$rc" = 0
check "A/B memory: 'more vs' the reference variant" has out.txt '^alloc\[big\]@1 +buffers +1000 -> 3000 .* more \(\+2000 bytes live, \+200\.0%\) vs alloc\[small\]@1$'
check "A/B memory: JSON memory change of kind ab" test "$(jq_py ab.json \
    '[.memory_changes[]|select(.kind=="ab" and .key=="buffers" and .verdict==1)]|length' \
    'len([m for m in d["memory_changes"] if m["kind"]=="ab" and m["key"]=="buffers" and m["verdict"]==1])')" = 1
finish
