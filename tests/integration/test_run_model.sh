#!/usr/bin/env bash
# A suite's `model:` in qqbench run: a sweep whose cost went from linear to quadratic in its parameter is flagged as a growth regression (exit 1) against a baseline of 3 runs.
#
# The growth gate judges the current run's fit against the baseline's runs, each fitted on its
# own (qqb_model_growth_runs): a growth term must rise beyond the threshold at the largest point
# by more than the runs' own spread of that coefficient allows (Student's t on R - 1 degrees of
# freedom), so the baseline records 3 runs (the least it gates with). This sweep (12 points, n to
# 12000, --square 1350: 9.9x at the largest point) is decided by orders of magnitude against a
# threshold of 100%, which is also the growth's minimum effect at the largest point (so the
# points there regress too: the growth row is the verdict that names the cause). The gate's
# level and power are rates, simulated in test_model_growth_gate (tests/unit/test_model.c).
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf bl
suite() {
    cat > "$1" <<YAML
suite: growth
defaults:
  repetitions: 5
  warmup: 1
  threshold: 100
benchmarks:
  - name: g
    kernel: $PLANTED
    args: [--work, "{n}", --reps, "100" $2]
    params:
      n: ["1000", "2000", "3000", "4000", "5000", "6000", "7000", "8000", "9000", "10000",
          "11000", "12000"]
    model: "1 + n + n^2"
YAML
}
suite linear.yaml ""
suite quadratic.yaml ', --square, "1350"'

qq out1.txt err1.txt run linear.yaml --baselines bl --no-report --json base.json -q
check "the linear sweep records the baseline (exit 0, got $rc)" test "$rc" = 0
qq out0.txt err0.txt run linear.yaml --baselines bl --no-report -q --update-baseline
qq out0.txt err0.txt run linear.yaml --baselines bl --no-report -q --update-baseline
check "two more runs recorded (exit 0, got $rc)" test "$rc" = 0
check "its fit is shown with standard errors, chi2 and R2" has out1.txt 'chi2 .* dof, R2 '
check "the JSON holds the fit" test "$(jq_py base.json '.models[0].terms|join(",")' '",".join(d["models"][0]["terms"])')" = "1,n,n^2"

rm -rf rep
qq out2.txt err2.txt run quadratic.yaml --baselines bl --report rep --json cur.json -q
check "the quadratic sweep fails (exit 1, got $rc)" test "$rc" = 1
check "its n^2 term grew" has out2.txt '^ +n\^2 .* GREW$'
check "the series is called regressed" has out2.txt 'REGRESSED: the growth changed'
check "the summary counts the growth change" has out2.txt '^qqbench: models: 1 series fitted, 1 changed growth \(a regression\)$'
check "the JSON says so" test "$(jq_py cur.json '.models[0].regressed' 'd["models"][0]["regressed"]')" = true

if command -v gnuplot >/dev/null; then
    check "the report draws the fit: points, curve, residuals" test -s rep/model_1.png -a -s rep/model_1.svg
    check "the baseline's sweep is drawn too" has rep/model_1.gp "baseline fit"
    check "index.html shows it" has rep/index.html 'src="model_1.png"'
fi

[ "$fail" = 0 ] || show out1.txt err1.txt out2.txt err2.txt
finish
