#!/usr/bin/env bash
# qqbench run writes its report folder by default (reports/latest/SUITE: run.json, pictures, index.html), --report DIR chooses it, --no-report skips it, and a --report that cannot be written is an error (exit 2) while the default one only warns.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf bl reports mine
cat > s.yaml <<YAML
suite: folder
defaults:
  repetitions: 3
  warmup: 0
benchmarks:
  - name: p
    kernel: $PLANTED
    args: [--extra, "0"]
    variants:
      a: []
      b: [--extra, "100"]
YAML
qq out.txt err.txt run s.yaml --baselines bl -q
check "default: exit 0 (got $rc)" test "$rc" = 0
check "default: reports/latest/folder/index.html" test -s reports/latest/folder/index.html
check "default: the run's JSON beside it" valid_json reports/latest/folder/run.json
check "default: at least one picture (PNG and SVG)" test -n "$(ls reports/latest/folder/*.png reports/latest/folder/*.svg 2>/dev/null)"
check "default: the report can be drawn again from run.json" \
    "$QQBENCH" report reports/latest/folder/run.json --out again
check "again: index.html" test -s again/index.html
rm -rf reports
qq out.txt err.txt run s.yaml --baselines bl -q --no-report
check "--no-report: exit 0 (got $rc)" test "$rc" = 0
check "--no-report: no folder" test ! -e reports
qq out.txt err.txt run s.yaml --baselines bl -q --report mine/r1
check "--report DIR: exit 0 (got $rc)" test "$rc" = 0
check "--report DIR: index.html there" test -s mine/r1/index.html
check "--report DIR: no default folder" test ! -e reports
# A file where the folder should go.
: > blocked
qq out.txt err.txt run s.yaml --baselines bl -q --report blocked/r
check "--report into a file: exit 2 (got $rc)" test "$rc" = 2
check "--report into a file: one line says why" has err.txt 'error: the report was not written'
mkdir -p reports/latest && : > reports/latest/folder
qq out.txt err.txt run s.yaml --baselines bl -q
check "default folder blocked: still exit 0 (got $rc)" test "$rc" = 0
check "default folder blocked: a warning naming --no-report" has err.txt 'warning: the report was not written.*--no-report'
[ "$fail" = 0 ] || show out.txt err.txt
finish
