#!/usr/bin/env bash
# qqbench run baselines: recorded when missing, compared against after, untouched by a failing run, rewritten by --update-baseline, snapshots with --record, other machines only with --baseline-from and a warning.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf bl
cat > good.yaml <<YAML
suite: bl_suite
defaults:
  repetitions: 3
  warmup: 0
benchmarks:
  - name: good
    kernel: $PLANTED
    variants:
      a: []
      b: [--extra, "100"]
YAML
# The same suite name with a failing benchmark added.
cat > bad.yaml <<YAML
suite: bl_suite
defaults:
  repetitions: 3
  warmup: 0
benchmarks:
  - name: good
    kernel: $PLANTED
    variants:
      a: []
      b: [--extra, "100"]
  - name: broken
    kernel: $PLANTED
    args: [--exit, "5"]
YAML

# 1. No baseline: say so, record one, still show the A/B comparison.
qq out.txt err.txt run good.yaml --baselines bl
check "first run exits 0 (got $rc)" test "$rc" = 0
check "first run says there is no baseline (stderr)" has err.txt "no baseline of suite 'bl_suite' for this machine"
check "first run says there is no baseline (table)" has out.txt '^No baseline for this machine'
check "first run still shows the A/B comparison" has out.txt '^good\[b\]@1 +work '
check "first run says it recorded the baseline" has err.txt 'baseline recorded: '
files=(bl/*/bl_suite.yaml)
bfile=${files[0]}
id=$(basename "$(dirname "$bfile")")
check "baseline file baselines/<id>/<suite>.yaml exists ($bfile)" test -f "$bfile"
check "only one baseline file" test "${#files[@]}" = 1

# 2. A second run against that one-run baseline: its timing is not gated
# (fewer than 3 runs, docs/STATISTICS.md section 17), and it says so.
qq out.txt err.txt run good.yaml --baselines bl
check "second run exits 0 (got $rc)" test "$rc" = 0
check "second run: timing not gated against one run, said" \
    has out.txt '^NOTE: timing is not gated against the stored baseline for 2 cases: it holds fewer than 3 runs'
check "second run: no timing row against the baseline" hasnt out.txt '^Against the baseline; '
check "second run does not rewrite the baseline" hasnt err.txt 'baseline (updated|recorded)'
# Two more runs: from 3 on, a run compares against it.
qq out.txt err.txt run good.yaml --baselines bl --update-baseline --quiet
qq out.txt err.txt run good.yaml --baselines bl --update-baseline --quiet
check "the baseline holds 3 runs" test "$(grep -c '^  runs: 3$' "$bfile")" = 2
qq out.txt err.txt run good.yaml --baselines bl
check "a run against 3 runs exits 0 or 1 (got $rc)" test "$rc" = 0 -o "$rc" = 1
check "against 3 runs: 'Against the baseline' table" has out.txt '^Against the baseline; '
check "against 3 runs: no NOTE" hasnt out.txt '^NOTE: timing is not gated'
check "against 3 runs: both variants compared with the baseline (and A/B)" \
    test "$(grep -cE '^good\[(a|b)\]@1 +work ' out.txt)" = 3
check "a run against it does not rewrite the baseline" hasnt err.txt 'baseline (updated|recorded)'
cp "$bfile" before.yaml

# 3. A run in which a kernel fails leaves the baseline byte-identical, even
# with --update-baseline and --record.
qq out.txt err.txt run bad.yaml --baselines bl --update-baseline --record failed
check "failing run exits 3 (got $rc)" test "$rc" = 3
check "failing run says the baseline was not written" has err.txt 'the baseline was not written'
check "baseline byte-identical after a failing run" cmp -s before.yaml "$bfile"
check "no snapshot from a failing run" test ! -e "bl/$id/history/bl_suite@failed.yaml"
check "no temp file left" test -z "$(find bl -name '*.tmp.*')"

# 4. --update-baseline rewrites it.
qq out.txt err.txt run good.yaml --baselines bl --update-baseline
check "--update-baseline exits 0 or 1 (got $rc)" test "$rc" = 0 -o "$rc" = 1
check "--update-baseline says so" has err.txt "baseline updated: $bfile"
check "--update-baseline changed the file" bash -c "! cmp -s before.yaml '$bfile'"
check "the new baseline holds both cases" test "$(grep -c '^- name: ' "$bfile")" = 2
qq out.txt err.txt run good.yaml --baselines bl --repetitions 2
check "the updated baseline is read back (exit $rc)" test "$rc" = 0 -o "$rc" = 1

# 5. --record LABEL keeps a labelled snapshot.
qq out.txt err.txt run good.yaml --baselines bl --record v1
check "--record exits 0 or 1 (got $rc)" test "$rc" = 0 -o "$rc" = 1
check "--record v1 made history/bl_suite@v1.yaml" test -f "bl/$id/history/bl_suite@v1.yaml"
check "the snapshot carries its label" has "bl/$id/history/bl_suite@v1.yaml" '^label: "?v1"?$'
check "--record says so" has err.txt "snapshot 'v1' recorded"

# 6. Another machine's baseline: only when asked, loudly.
qq out.txt err.txt run good.yaml --baselines bl --baseline-from no-such-machine
check "--baseline-from an unknown id: exit 2 (got $rc)" test "$rc" = 2
check "--baseline-from an unknown id: says which" has err.txt "no baseline of suite 'bl_suite' for machine 'no-such-machine'"
mkdir -p bl/other-machine
sed "s/^  id: $id\$/  id: other-machine/" "$bfile" > bl/other-machine/bl_suite.yaml
cp bl/other-machine/bl_suite.yaml other.before
cp "$bfile" before.yaml
qq out.txt err.txt run good.yaml --baselines bl
check "this machine's baseline is used by default (no warning)" hasnt err.txt 'WARNING'
qq out.txt err.txt run good.yaml --baselines bl --baseline-from other-machine
check "--baseline-from other-machine runs (exit $rc)" test "$rc" = 0 -o "$rc" = 1
check "--baseline-from: WARNING on stderr" has err.txt '^qqbench: WARNING: .*ANOTHER machine \(other-machine'
check "--baseline-from: the table says so" has out.txt '^Against the baseline OF ANOTHER MACHINE'
check "--baseline-from: compared with it" has out.txt '^good\[a\]@1 +work '
# --update-baseline writes THIS machine's baseline; the other machine's
# stays as it was.
qq out.txt err.txt run good.yaml --baselines bl --baseline-from other-machine --update-baseline
check "--baseline-from with --update-baseline: exit 0 or 1 (got $rc)" test "$rc" = 0 -o "$rc" = 1
[ "$rc" = 0 ] || [ "$rc" = 1 ] || show err.txt
check "--baseline-from with --update-baseline: the other machine's baseline is untouched" \
    cmp -s other.before bl/other-machine/bl_suite.yaml
check "--baseline-from with --update-baseline: this machine's baseline was updated" \
    bash -c "! cmp -s before.yaml '$bfile'"
finish
