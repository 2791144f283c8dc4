#!/usr/bin/env bash
# A report draws whatever names and figures a run has, without gnuplot having to give way: three 30-character parameter values (gnuplot warned "difficulty making room for xtic labels"), and every launch reading the same figure ("empty y range"), each made the run exit 2 with its verdict hidden. A report that cannot be drawn when asked for by name is a result not stored (exit 3), never exit 2.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
command -v gnuplot >/dev/null || { echo "FAIL: gnuplot is not installed (make deps installs it)"; exit 1; }
command -v python3 >/dev/null || { echo "FAIL: python3 is needed to edit the JSON (make deps-test installs it)"; exit 1; }
rm -rf bl rep rs rf
planted_suite long.yaml long '--work, "{p}", --reps, "20"' '    params:
      p: ["000000000000000000000000001000", "000000000000000000000000002000", "000000000000000000000000003000"]'
qq out.txt err.txt run long.yaml --baselines bl --report rep --json long.json -q
check "30-character parameter values: the run exits 0 (got $rc)" test "$rc" = 0
check "no report error" hasnt err.txt 'report was not written'
check "the samples picture is drawn" test -s rep/samples-p.png -a -s rep/samples-p.svg
# A panel per case: each name heads its own panel, whole (30 characters
# are under qqb_plot_short's 40), with nothing for gnuplot to squeeze.
check "each case names its own panel, whole" test "$(grep -Ec "^set title 'p=0{26}[123]000 @1'" rep/samples-p.gp)" = 3
check "no x tic labels to make room for" hasnt rep/samples-p.gp '^set xtics \('

# Every launch the same figure.
python3 - long.json same.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["cases"]:
    for m in c["metrics"]:
        m["samples"] = [100.0 for _ in m["samples"]]  # crafted: drawn, judged against nothing
json.dump(d, open(sys.argv[2], "w"))
PY
qq s.out s.err report same.json --out rs
check "identical samples: report exits 0 (got $rc)" test "$rc" = 0
check "the samples picture is drawn" test -s rs/samples-p.png
check "its y range is set around the value" has rs/samples-p.gp '^set yrange \[95:105\]$'

# A gnuplot that fails: the run's own verdict stands, the report's failure
# is a result not stored (3), not bad input (2).
printf '#!/bin/sh\necho "warning: a test gnuplot that always complains" >&2\nexit 0\n' > badgnuplot
chmod +x badgnuplot
rm -rf bl
QQB_GNUPLOT="$PWD/badgnuplot" qq f.out f.err run long.yaml --baselines bl --report rf -q
check "a report asked for by name that fails: exit 3 (got $rc)" test "$rc" = 3
check "says the report was not written" has f.err 'the report was not written: .*a test gnuplot that always complains'
[ "$fail" = 0 ] || show err.txt s.err f.err
finish
