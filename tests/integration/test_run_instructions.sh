#!/usr/bin/env bash
# qqbench run --metric instructions: counts per key under callgrind, exact to the planted instruction, identical launch after launch, per rank; no valgrind: a note, or exit 2.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
if [ -n "${QQ_SANITIZED:-}" ]; then
    echo "skipped: sanitizer build (ASan and valgrind cannot run together)"; exit 77
fi
command -v valgrind >/dev/null || { echo "FAIL: valgrind is not installed (make deps-test installs it)"; exit 1; }
command -v python3 >/dev/null || { echo "FAIL: python3 is needed"; exit 1; }
K="$QQ_TEST_KERNELS" KD="${QQ_KERNEL_DIR:?}"
rm -rf bl bl[0-9] nobin kb ./*.json
# fig JSON CASE KEY WHAT: the samples of a case's metric, space-separated.
fig() {
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for c in d["cases"]:
    if c["name"] == sys.argv[2]:
        for m in c["metrics"]:
            if m["key"] == sys.argv[3] and m["what"] == sys.argv[4]:
                print(" ".join("%d" % s if s == int(s) else repr(s) for s in m["samples"]))' "$@"
}
# suite FILE KERNEL: 2 benchmarks x 2 variants of KERNEL, 2 launches each.
suite() {
    cat > "$1" <<YAML
suite: instr
defaults:
  repetitions: 2
  warmup: 0
  metric: instructions
benchmarks:
  - name: c20
    kernel: $2
    args: ["--reps", "20", "--work", "400"]
    keys: [a, b]
    variants:
      v0: ["--variant", "0"]
      v1: ["--variant", "1"]
  - name: c30
    kernel: $2
    args: ["--reps", "30", "--work", "400"]
    keys: [a, b]
    variants:
      v0: ["--variant", "0"]
      v1: ["--variant", "1"]
YAML
}
suite base.yaml "$K/counted"
suite extra.yaml "$K/counted_extra"
qq base.out base.err run base.yaml --no-report --baselines bl --json base.json -q
# Variant v1 costs 5 instructions a hit more: exit 1 (slower) or 0, no error.
check "instructions run of the 2x2 suite: exit 0 or 1 (got $rc)" test "$rc" -le 1
qq extra.out extra.err run extra.yaml --no-report --baselines bl2 --json extra.json -q
check "the -DEXTRA=1 build's run: exit 0 or 1 (got $rc)" test "$rc" -le 1
check "the case says it was measured for instructions" \
    test "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cases"][0].get("metric"))' base.json)" = instructions
for c in 'c20[v0]@1' 'c20[v1]@1' 'c30[v0]@1' 'c30[v1]@1'; do
    hits=${c:1:2}
    a0=($(fig base.json "$c" a instr)) a1=($(fig extra.json "$c" a instr))
    check "$c: key a counted in 2 launches each (${a0[*]:-} / ${a1[*]:-})" test "${#a0[@]}:${#a1[@]}" = 2:2
    check "$c: key a, 1 instruction planted per hit: exactly $hits more a launch (${a0[*]:-} -> ${a1[*]:-})" \
        test "$(( ${a1[0]:-0} - ${a0[0]:-0} )):$(( ${a1[1]:-0} - ${a0[1]:-0} ))" = "$hits:$hits"
    p0=$(fig base.json "$c" a instr_per_hit) p1=$(fig extra.json "$c" a instr_per_hit)
    check "$c: key a per hit exactly 1 more ($p0 -> $p1)" \
        python3 -c 'import sys; a = sys.argv[1].split(); b = sys.argv[2].split(); sys.exit(not (len(a) == 2 and all(float(y) - float(x) == 1 for x, y in zip(a, b))))' "$p0" "$p1"
    for k in b; do
        check "$c: key $k unchanged by the plant ($(fig base.json "$c" $k instr) / $(fig extra.json "$c" $k instr))" \
            test "$(fig base.json "$c" $k instr)" = "$(fig extra.json "$c" $k instr)"
    done
done
# Variant v1 does one more loop iteration per hit of a: 5 instructions.
check "variant v1's key a: 5 instructions a hit more than v0's (c20)" \
    test "$(( $(fig base.json 'c20[v1]@1' a instr | cut -d' ' -f1) - $(fig base.json 'c20[v0]@1' a instr | cut -d' ' -f1) ))" = 100
check "no callgrind file is left in the work folder" test -z "$(find "$TMPDIR" -name 'cg*' 2>/dev/null)"

# A shipped kernel, 10 launches: every key's count the same in all 10.
cat > ch.yaml <<YAML
suite: ch
defaults:
  warmup: 0
  metric: instructions
benchmarks:
  - name: channel
    kernel: $KD/channel
    args: ["--size", "2", "--steps", "100"]
YAML
qq ch.out ch.err run ch.yaml --no-report --baselines bl3 --json ch.json -q --repetitions 10
check "channel under callgrind, 10 launches: exit 0 (got $rc)" test "$rc" = 0
for k in step Km Ka Kahp; do
    s=($(fig ch.json 'channel@1' $k instr))
    u=$(printf '%s\n' "${s[@]}" | sort -u | wc -l)
    check "channel key $k: 10 launches, one count (${s[0]:-none} x ${#s[@]}, $u distinct)" test "${#s[@]}:$u" = 10:1
done

# MPI: each rank under valgrind, their counts summed. Rank r's key b does
# 3 x (r + 1) iterations (5 instructions each): 2 ranks count twice the
# 1-rank case's (rank 0's) and 3 x 5 x 20 = 300 more.
if [ -x "$K/counted_mpi" ] && command -v mpirun >/dev/null; then
    cat > mpi.yaml <<YAML
suite: mpi
defaults:
  repetitions: 2
  warmup: 0
  metric: instructions
benchmarks:
  - name: m
    kernel: $K/counted_mpi
    args: ["--reps", "20", "--work", "400"]
    keys: [b]
    nodes: [1, 2]
YAML
    qq mpi.out mpi.err run mpi.yaml --no-report --baselines bl4 --json mpi.json -q
    check "2 ranks under valgrind: exit 0 (got $rc)" test "$rc" = 0
    a=($(fig mpi.json 'm@1' b instr)) b=($(fig mpi.json 'm@2' b instr))
    check "2 ranks = 2 x 1 rank + 300, exactly (${b[*]:-} vs ${a[*]:-})" \
        test "$(( ${b[0]:-0} - 2 * ${a[0]:-0} )):$(( ${b[1]:-0} - 2 * ${a[1]:-0} ))" = 300:300
    check "2 ranks: per hit over both ranks' 40 intervals" \
        test "$(fig mpi.json 'm@2' b instr_per_hit | cut -d' ' -f1)" = "$(python3 -c "x = ${b[0]:-0} / 40; print('%d' % x if x == int(x) else repr(x))")"
fi

# A stored baseline keeps the counts; a kernel built with other flags is
# refused with the reason (exit 2), and --allow-other-flags compares anyway.
command -v cc >/dev/null && {
    mkdir -p kb
    cp "$K/counted" kb/counted
    cat > kb.yaml <<YAML
suite: kb
defaults:
  repetitions: 2
  warmup: 0
  metric: instructions
benchmarks:
  - name: c
    kernel: $PWD/kb/counted
    args: ["--reps", "10", "--work", "400"]
    keys: [a]
YAML
    qq kb1.out kb1.err run kb.yaml --no-report --baselines bl7 -q
    check "counts recorded as a baseline: exit 0 (got $rc)" test "$rc" = 0
    check "the stored baseline holds key a's instructions" has bl7/*/kb.yaml 'what: instr$'
    check "the stored case says it was measured for instructions" has bl7/*/kb.yaml '^  metric: instructions$'
    cc -std=c11 -O1 -g -DQQ_ENABLE -I"$QQ_SOURCE_DIR/qq/include" "$QQ_TEST_DATA/kernels/counted.c" \
        "$QQ_BINARY_DIR/qq/libqq.a" -lpthread -lm -o kb/counted
    qq kb2.out kb2.err run kb.yaml --no-report --baselines bl7 -q
    check "counts of a kernel built with -O1 against a -O2 baseline: exit 2 (got $rc)" test "$rc" = 2
    check "the refusal names the flags and the counts" has kb2.err '\(-O1 here, -O2 in the baseline\); its timings and instruction counts are of another program'
    qq kb3.out kb3.err run kb.yaml --no-report --baselines bl7 -q --allow-other-flags
    check "--allow-other-flags compares the counts (got $rc)" test "$rc" -le 1
}

# No valgrind on PATH: one line, the instructions cases skipped, exit 0;
# with --require-metric exit 2.
mkdir -p nobin
ln -sf "$(command -v git)" nobin/git 2>/dev/null || true
rc=0; PATH="$PWD/nobin" "$QQBENCH" run base.yaml --no-report --baselines bl5 -q > nov.out 2> nov.err || rc=$?
check "no valgrind: exit 0 (got $rc)" test "$rc" = 0
check "no valgrind: one line says so" test "$(grep -c 'valgrind is not on PATH' nov.err)" = 1
rc=0; PATH="$PWD/nobin" "$QQBENCH" run base.yaml --no-report --baselines bl6 -q --require-metric > nov2.out 2> nov2.err || rc=$?
check "no valgrind, --require-metric: exit 2 (got $rc)" test "$rc" = 2
check "no valgrind, --require-metric: the error names valgrind" has nov2.err 'error: valgrind is not on PATH'
finish
