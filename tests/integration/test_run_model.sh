#!/usr/bin/env bash
# A suite's `model:` in qqbench run: a sweep whose cost went from linear to quadratic in its parameter is flagged as a growth regression (exit 1) while every point stays within its threshold.
#
# The growth gate flags the n^2 term when it rose by more than 5 combined standard errors
# (QQB_GROWTH_SIGMAS). The points of a sweep are measured one after another, so the machine's
# speed between them (weather) is error the spread within a point does not see, and the fits'
# standard errors grow with it: the gate's power is below 1. An earlier version planted +40% at
# the largest of 6 points (--square 20000); under ASan its n^2 term read z = 4.57 and the run
# passed. Simulated on the real point and fitting functions (test_model_growth_gate in
# tests/unit/test_model.c), that design is flagged in 428 of 2000 pairs (21%) when each point
# is off by 2% (lognormal), while this one (12 points, n to 12000, --square 1350: 9.9x at the
# largest point, 1.7x at the smallest) is flagged in all 2000 simulated pairs even at 5% a point
# (its z's 0.1% quantile was 9.5 over 4000, 92 at 0.5% a point); here it read z = 138. A
# threshold of 2000% keeps every point within it (a point would have to read more than 2x slow
# on top of the planted 9.9x).
#
# Whether the same linear sweep again is left alone is the gate's level, a rate (simulated at 2%
# a point: 0 of 2000 pairs at 12 points, 6 of 2000 at 6), checked in test_model_growth_gate
# against the bound P(t_9 > 5) = 3.7e-4, not here.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf bl
suite() {
    cat > "$1" <<YAML
suite: growth
defaults:
  repetitions: 5
  warmup: 1
  threshold: 2000
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
check "its fit is shown with standard errors, chi2 and R2" has out1.txt 'chi2 .* dof, R2 '
check "the JSON holds the fit" test "$(jq_py base.json '.models[0].terms|join(",")' '",".join(d["models"][0]["terms"])')" = "1,n,n^2"

rm -rf rep
qq out2.txt err2.txt run quadratic.yaml --baselines bl --report rep --json cur.json -q
check "the quadratic sweep fails (exit 1, got $rc)" test "$rc" = 1
check "its n^2 term grew" has out2.txt '^ +n\^2 .* GREW$'
check "the series is called regressed" has out2.txt 'REGRESSED: the growth changed'
check "no point regressed on its own" has out2.txt 'vs baseline: 0 regressed'
check "the summary counts the growth change" has out2.txt '^qqbench: models: 1 series fitted, 1 changed growth \(a regression\)$'
check "the JSON says so" test "$(jq_py cur.json '.models[0].regressed' 'd["models"][0]["regressed"]')" = true

if command -v gnuplot >/dev/null; then
    check "the report draws the fit: points, curve, residuals" test -s rep/model_1.png -a -s rep/model_1.svg
    check "the baseline's sweep is drawn too" has rep/model_1.gp "baseline fit"
    check "index.html shows it" has rep/index.html 'src="model_1.png"'
fi

[ "$fail" = 0 ] || show out1.txt err1.txt out2.txt err2.txt
finish
