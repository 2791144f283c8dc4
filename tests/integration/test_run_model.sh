#!/usr/bin/env bash
# A suite's `model:` in qqbench run: a sweep whose cost went from linear to quadratic in its parameter is flagged as a growth regression (exit 1) while every point stays within its threshold; the same linear sweep again is not.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf bl
# planted --square D adds N*N/D multiply-adds: 40% more at the largest N,
# under the benchmark's 50% threshold at every point.
suite() {
    cat > "$1" <<YAML
suite: growth
defaults:
  repetitions: 5
  warmup: 1
  threshold: 50
benchmarks:
  - name: g
    kernel: $PLANTED
    args: [--work, "{n}", --reps, "100" $2]
    params:
      n: ["1000", "2000", "3000", "4000", "6000", "8000"]
    model: "1 + n + n^2"
YAML
}
suite linear.yaml ""
suite quadratic.yaml ', --square, "20000"'

qq out1.txt err1.txt run linear.yaml --baselines bl --no-report --json base.json -q
check "the linear sweep records the baseline (exit 0, got $rc)" test "$rc" = 0
check "its fit is shown with standard errors, chi2 and R2" has out1.txt 'chi2 .* dof, R2 '
check "the JSON holds the fit" test "$(jq_py base.json '.models[0].terms' 'd["models"][0]["terms"]')" = "['1', 'n', 'n^2']"

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
qq out3.txt err3.txt run linear.yaml --baselines bl --no-report -q
check "the same linear sweep again passes (exit 0, got $rc)" test "$rc" = 0
check "its growth is unchanged" has out3.txt 'growth unchanged'

[ "$fail" = 0 ] || show out1.txt err1.txt out2.txt err2.txt out3.txt err3.txt
finish
