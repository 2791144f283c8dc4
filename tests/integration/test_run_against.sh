#!/usr/bin/env bash
# qqbench run --against DIR: every case from both builds, paired by round; vs reference build in table, JSON, JUnit; exit 1/0/3/2; path mapping; baseline holds the change build only.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf chg ref same crashref emptyref bl bl2 bl3 sub other memchg memref memrep ./*.json ./*.xml ./*.txt
# The change build: planted with 4x the work (a later --extra wins); the
# reference build: planted as it is. Kernels found by the same name.
# Every verdict asked for is decided by orders of magnitude: 4x slower
# (or faster) against a threshold of 25%, and the same build on both sides
# (a false `regressed` needs 10 of the 12 pair ratios above +25%; against
# the stored baseline, this run a quarter slower than its three runs while
# the machine reference says it is not).
# Whether +5% reads `regressed` at 2% is a rate: test_sim_against in
# tests/unit/test_judge.c.
mkdir -p chg/sub ref/sub same crashref emptyref other
printf '#!/bin/sh\nexec "%s" "$@" --extra 3000\n' "$PLANTED" > chg/planted
cp chg/planted chg/sub/planted
cp chg/planted other/planted
ln -s "$PLANTED" ref/planted
ln -s "$PLANTED" ref/sub/planted
cp chg/planted same/planted
printf '#!/bin/sh\nexec "%s" "$@" --crash\n' "$PLANTED" > crashref/planted
chmod +x chg/planted chg/sub/planted other/planted same/planted crashref/planted
cat > s.yaml <<YAML
suite: against
defaults:
  repetitions: 12
  threshold: 25
benchmarks:
  - name: p
    kernel: planted
    variants:
      a: []
      b: ["--reps", "150"]
YAML

# 1. 4x in the change build: regressed vs reference build, exit 1.
qq out.txt err.txt run s.yaml --kernels chg --against ref --baselines bl --quiet \
   --json r.json --junit r.xml
check "4x: exit 1 (got $rc)" test "$rc" = 1
check "4x: the table says 'regressed vs reference build'" \
    has out.txt '^p\[a\]@1 +work .*regressed vs reference build'
check "4x: the table has its own section" has out.txt '^Against the reference build'
check "4x: variants still compared (A/B row)" has out.txt '^A/B: each variant'
check "JSON valid" valid_json r.json
check "JSON: kind build, reference = the reference case" test \
    "$(jq_py r.json '[.comparisons[]|select(.kind=="build")|.reference][0]' \
        '[c["reference"] for c in d["comparisons"] if c["kind"]=="build"][0]')" = "p[a]@1 (reference build)"
check "JSON: build rows regressed" test \
    "$(jq_py r.json '[.comparisons[]|select(.kind=="build" and .verdict=="regressed")]|length' \
        'len([c for c in d["comparisons"] if c["kind"]=="build" and c["verdict"]=="regressed"])')" = 2
check "JSON: against" test "$(jq_py r.json '.against' 'd["against"]')" = "$PWD/ref"
check "JUnit valid" valid_xml r.xml
check "JUnit: a failing test case vs reference build" \
    has r.xml 'name="work vs reference build"><failure message="regressed vs reference build'
check "a regressed run records no first baseline" test ! -e bl
[ "$fail" = 0 ] || show out.txt err.txt

# 1b. The same build on both sides, the first run: the baseline it records
#     holds the change build only.
qq out1b.txt err1b.txt run s.yaml --kernels chg --against same --baselines bl --quiet
check "first run, same build: exit 0 (got $rc)" test "$rc" = 0
check "the stored baseline holds the change build only" \
    hasnt bl/*/against.yaml 'reference build'
check "the stored baseline holds the change build's cases" has bl/*/against.yaml 'p\[a\]@1'

# 2. The same build on both sides: nothing regressed vs the reference build;
#    the stored baseline (two more runs: it gates timing from 3 on) is
#    compared alongside.
qq more.txt more2.txt run s.yaml --kernels chg --against same --baselines bl --quiet --update-baseline
qq more.txt more2.txt run s.yaml --kernels chg --against same --baselines bl --quiet --update-baseline
qq out2.txt err2.txt run s.yaml --kernels chg --against same --baselines bl --quiet
check "same build: exit 0 (got $rc)" test "$rc" = 0
check "same build: nothing regressed" hasnt out2.txt 'regressed vs reference build'
check "same build: rows vs reference build" has out2.txt 'vs reference build$'
check "the baseline is compared alongside" has out2.txt '^Against the baseline'
[ "$rc" = 0 ] || show out2.txt err2.txt

# 3. The change build 4x faster than the reference: improved, exit 0.
qq out3.txt err3.txt run s.yaml --kernels ref --against chg --baselines bl2 --quiet
check "1/4: exit 0 (got $rc)" test "$rc" = 0
check "1/4: improved vs reference build" has out3.txt 'improved vs reference build'

# 4. A reference kernel that crashes, or is missing: exit 3 with the reason.
qq out4.txt err4.txt run s.yaml --kernels chg --against crashref --baselines bl2 --quiet
check "crashing reference: exit 3 (got $rc)" test "$rc" = 3
check "crashing reference: the reason" has out4.txt '\(reference build\): crashed'
qq out5.txt err5.txt run s.yaml --kernels chg --against emptyref --baselines bl2 --quiet
check "missing reference kernel: exit 3 (got $rc)" test "$rc" = 3
check "missing reference kernel: the reason" \
    has out5.txt "the reference build \(--against .*emptyref\) has no kernel 'planted'"
qq out6.txt err6.txt run s.yaml --kernels chg --against nowhere --baselines bl2 --quiet
check "--against not a folder: exit 2 (got $rc)" test "$rc" = 2
check "--against not a folder: says so" has err6.txt 'against nowhere: not a folder'

# 5. Kernels given by path: under --kernels -> the same relative path under
#    DIR; elsewhere -> the basename in DIR. Shown by which reference ran.
rm -f ref/planted
cat > paths.yaml <<YAML
suite: paths
defaults:
  repetitions: 4
benchmarks:
  - name: undersub
    kernel: chg/sub/planted
  - name: elsewhere
    kernel: other/planted
YAML
qq out7.txt err7.txt run paths.yaml --kernels chg --against ref --baselines bl2 --quiet --no-confirm
check "path under --kernels maps to DIR/sub/planted (ran)" has out7.txt '^undersub@1 +work .*vs reference build'
check "path elsewhere maps to DIR/planted (missing: exit 3, $rc)" test "$rc" = 3
check "path elsewhere: the reason names DIR/planted" has out7.txt "elsewhere@1 \(reference build\): .*$PWD/ref/planted"
# 6. Memory that grew against the reference build (issue 24), with the
#    report folder: the summary says memory made exit 1; index.html and the
#    terminal give the verdict one word ('regressed'); the table is headed
#    by the reference build; thresholds read as in the table (25.0%); the
#    A/B picture is titled by what it shows, its labels upright.
mkdir -p memchg memref
printf '#!/bin/sh\nexec "%s" "$@" --mem 2000\n' "$PLANTED" > memchg/planted
printf '#!/bin/sh\nexec "%s" "$@" --mem 1000\n' "$PLANTED" > memref/planted
chmod +x memchg/planted memref/planted
cat > mem.yaml <<YAML
suite: memagainst
defaults:
  repetitions: 2
  warmup: 0
  threshold: 25
benchmarks:
  - name: p
    kernel: planted
    args: [--work, "{n}"]
    params:
      n: [1000, 20000]
YAML
qq out8.txt err8.txt run mem.yaml --kernels memchg --against memref --baselines bl3 --quiet \
   --no-confirm --report memrep
check "memory vs reference build: exit 1 (got $rc)" test "$rc" = 1
check "memory vs reference build: the terminal says regressed" \
    has out8.txt '^p\[n=1000\]@1 +buffers .* regressed \(\+1000 bytes live, \+100\.0%\) vs reference build$'
check "memory vs reference build: the summary says memory made exit 1" \
    has out8.txt '^qqbench: .*kernel failures; exit 1: memory regressed \(2 keys against the reference build\)'
check "index.html: the memory row against the reference build says regressed" \
    has memrep/index.html '<td>buffers</td><td>p\[n=1000\]@1 \(reference build\)</td>.*regressed</td></tr>$'
check "index.html: no memory row says 'more'" hasnt memrep/index.html '</span>more</td>'
check "index.html: the build table heads its columns by build" \
    has memrep/index.html '<th class="n">reference build</th><th class="n">change build</th>'
check "samples-p.gp: each case and its reference build in one panel (a key's 2 cases: 2 panels)" \
    test "$(grep -c "^set title '" memrep/samples-p.gp)" = 2
check "samples-p.gp: each shared panel names the reference build and the change build" \
    test "$(grep -Ec "^set label [12] '(reference|change) build' " memrep/samples-p.gp)" = 4
check "index.html: the build picture's caption names the reference build" \
    has memrep/index.html '\(this build against the reference build\)'
check "index.html: no build caption says 'against the baseline'" \
    hasnt memrep/index.html 'reference build: change of cycles.*this run against the baseline'
check "index.html: thresholds as the table prints them (25.0%)" \
    has memrep/index.html '<td class="n">25\.0%</td>'
check "index.html: no threshold with a plus-minus sign" hasnt memrep/index.html $'\xc2\xb1'
check "change-build.gp: the band's threshold as the table prints it" \
    has memrep/change-build.gp "title 'threshold 25\\.0%'"
check "ab-p.gp: titled by what it shows" \
    has memrep/ab-p.gp "title 'p: each case and its reference build side by side"
check "ab-p.gp: not 'variants side by side'" hasnt memrep/ab-p.gp 'variants side by side'
check "ab-p.gp: the long labels stand upright" has memrep/ab-p.gp '^set xtics .*reference build.* rotate by 90'
[ "$fail" = 0 ] || show out8.txt err8.txt
finish
