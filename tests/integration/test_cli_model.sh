#!/usr/bin/env bash
# test_model.sh - qqbench model: a real params sweep, a synthetic growth change
# (linear baseline, quadratic current, every point within 2%), BigSim lines.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
D="$QQ_TEST_DATA/model"
CHAIN="$QQ_KERNEL_DIR/chain"

# sweep_json FILE QUAD PHASE: a 'qqbench run --json'-shaped report of one benchmark
# "grow", key "k", point n=10..160, 5 launches each: per_hit = 100 + 5n +
# QUAD n^2, times a deterministic +-0.2% wobble (PHASE shifts it).
sweep_json() {
    awk -v quad="$2" -v phase="$3" 'BEGIN {
        printf "{\"suite\": \"synthetic\", \"cases\": ["
        for (i = 1; i <= 16; i++) {
            n = 10 * i; mu = 100 + 5 * n + quad * n * n
            printf "%s{\"name\": \"grow[n=%d]@1\", \"bench\": \"grow\", \"variant\": null, \"point\": \"n=%d\", \"nodes\": 1, \"metrics\": [", (i > 1 ? ", " : ""), n, n
            printf "{\"key\": \"@timer\", \"what\": \"empty\", \"samples\": [50, 50]}, "
            printf "{\"key\": \"k\", \"what\": \"per_hit\", \"samples\": ["
            for (j = 0; j < 5; j++)
                printf "%s%.6f", (j ? ", " : ""), mu * (1 + 0.002 * sin(i * 7.3 + j * 1.1 + phase))
            printf "]}]}"
        }
        printf "]}\n" }' >"$1"
}

# 1. a real sweep of the chain kernel: cost per hit grows with --ops.
cat >sweep.yaml <<YAML
suite: sweep
defaults:
  repetitions: 3
  warmup: 0
benchmarks:
  - name: chain
    kernel: $CHAIN
    args: ["--ops", "{n}", "--steps", "500"]
    params:
      n: [5, 10, 20, 40, 80]
YAML
rm -rf bl
qq run.out run.err run sweep.yaml --baselines bl --json sweep.json -q
check "run of the sweep succeeds (rc $rc)" test "$rc" = 0 || show run.out run.err
qq fit.out fit.err model --model "1 + n" --predict n=160 --predict n=1000 sweep.json
check "model fits the sweep (rc $rc)" test "$rc" = 0 || show fit.out fit.err
check "metric named" has fit.out '^metric: per_hit \(net ticks per hit\)'
check "series per bench and key" has fit.out '^chain@1 chain: 5 points, 15 observations'
check "term table" has fit.out '^  n +[0-9.e+-]+ +[0-9.e+-]+ '
check "slope positive" awk '$1 == "n" && $2 + 0 > 0 { ok = 1 } END { exit !ok }' fit.out
check "chi2 and R2" has fit.out 'chi2 [0-9.e+-]+ on 3 dof.*R2 0\.9'
check "two predictions" test "$(grep -c '^  predicted at n=' fit.out)" = 2
qq mt.out mt.err model --model "1 + n" --metric ticks sweep.json
check "--metric ticks" has mt.out '^metric: ticks'
qq nk.out nk.err model --model "1 + n" --key nosuch sweep.json
check "unknown key: exit 2 (rc $rc)" test "$rc" = 2
check "unknown key: says so" has nk.err "no case has metric 'per_hit' for the keys"

# 2. growth change: baseline linear, current with a small n^2 term.
sweep_json lin.json 0 0
sweep_json lin2.json 0 2.5
sweep_json quad.json 0.0006 5
# every point of quad within 2% of lin
check "points within 2%" awk 'BEGIN { for (i = 1; i <= 16; i++) { n = 10 * i; if (0.0006 * n * n / (100 + 5 * n) > 0.02) exit 1 } }'
qq g.out g.err model --model "1 + n + n^2" --baseline lin.json quad.json
check "growth regression: exit 1 (rc $rc)" test "$rc" = 1 || show g.out g.err
check "n^2 flagged" has g.out '^  n\^2 .* GREW$'
check "constant not flagged" hasnt g.out '^  1 .* GREW$'
check "summary" has g.out '^qqbench model: 1 growth regression$'
# --plot: the points with their spread, the fitted curves, the residuals.
if command -v gnuplot >/dev/null; then
    rm -rf mp
    qq p.out p.err model --model "1 + n + n^2" --baseline lin.json quad.json --plot mp
    check "--plot: the growth verdict stands (exit 1, got $rc)" test "$rc" = 1
    check "--plot: picture, script and data" test -s mp/model_1.svg -a -s mp/model_1.png -a -s mp/model_1.gp -a -s mp/model_1.dat
    check "--plot: error bars, the fit and the baseline's" has mp/model_1.gp "yerrorbars .*this run" 
    check "--plot: the residuals panel" has mp/model_1.gp "residual"
    check "--plot: 16 points of this run, 16 of the baseline" \
        test "$(awk '/^# the fitted/ { exit } /^[0-9]/ { n++ } END { print n }' mp/model_1.dat)" = 32
    check "--plot: residuals within the wobble (<1%)" \
        awk -F'\t' 'BEGIN { s = 0 } /^# the baseline/ { exit } /^[0-9]/ { if ($5 > 1 || $5 < -1) bad = 1 } END { exit bad }' mp/model_1.dat
else
    echo "note: no gnuplot: --plot not tested"
fi
qq s.out s.err model --model "1 + n + n^2" --baseline lin.json lin2.json
check "same growth: exit 0 (rc $rc)" test "$rc" = 0 || show s.out s.err
check "same growth: unchanged" has s.out '^  growth unchanged$'
qq r.out r.err model --model "1 + n + n^2" --baseline quad.json lin.json
check "quadratic to linear is no regression (rc $rc)" test "$rc" = 0

# 3. BigSim lines: 2e-6 + 1e-7 p1 + 3e-10 p1^2 + 5e-8 p2, +-0.5% noise.
qq b.out b.err model --bigsim "$D/bigsim.txt" --model "1 + p1 + p1^2 + p2" --key doWork --predict p1=2000,p2=10
check "bigsim fit (rc $rc)" test "$rc" = 0 || show b.out b.err
check "bigsim series per event" has b.out '^doWork: 30 points, 60 observations'
within() { awk -v t="$1" -v want="$2" -v tol="$3" '$1 == t { v = $2 + 0; if (v > want * (1 - tol) && v < want * (1 + tol)) ok = 1 } END { exit !ok }' b.out; }
check "bigsim c(1) ~ 2e-6" within 1 2e-6 0.1
check "bigsim c(p1) ~ 1e-7" within p1 1e-7 0.05
check "bigsim c(p1^2) ~ 3e-10" within 'p1^2' 3e-10 0.05
check "bigsim c(p2) ~ 5e-8" within p2 5e-8 0.1
check "bigsim prediction" has b.out '^  predicted at p1=2000,p2=10: 0\.001[34]'
qq bd.out bd.err model --bigsim "$D/bigsim.txt" --model "1 + p1 + p1^2 + p2" --key doWork --dilation 2
check "dilation doubles" awk '$1 == "p1" && $2 > 1.9e-7 && $2 < 2.2e-7 { ok = 1 } END { exit !ok }' bd.out
qq bx.out bx.err model --bigsim "$D/bad_bigsim.txt" --model "1 + p1"
check "bad bigsim: exit 2 (rc $rc)" test "$rc" = 2
check "bad number located" has bx.err 'bad_bigsim.txt:3:38: error: expected a number in .time:.'
check "missing time located" has bx.err 'bad_bigsim.txt:4:[0-9]+: error: record without time'
check "unknown field located" has bx.err "bad_bigsim.txt:5:65: error: unknown field 'colour:'"
check "unclosed brace located" has bx.err "bad_bigsim.txt:6:53: error: '\{' of 'params:' is never closed"
# Found by fuzz_bigsim: a seqno beyond a long's range was converted (UB).
qq bz.out bz.err model --bigsim "$QQ_TEST_DATA/fuzz/bigsim-seqno-overflow.txt" --model "1 + p1"
check "huge seqno: exit 2 (got $rc)" test "$rc" = 2
check "huge seqno: located and said" has bz.err 'bigsim-seqno-overflow.txt:1:[0-9]+: error: seqno must be a whole number from 0 to 2\^62'

qq bn.out bn.err model --bigsim "$D/bigsim.txt" --model "1 + n"
check "bigsim names are p1..p20" has bn.err "with --bigsim the parameters are p1..p20"

# 4. bad formulas and options
qq f.out f.err model --model "1 + n^" sweep.json
check "bad formula: exit 2 (rc $rc)" test "$rc" = 2
check "bad formula located" has f.err '^--model:1:7: error: expected an exponent'
qq p.out p.err model --model "1 + n" --predict m=3 sweep.json
check "predict with an unknown name" has p.err "the model has no parameter 'm'"
qq u.out u.err model --model "1 + m" sweep.json
check "model parameter missing from the cases" has u.err "case chain\[n=5\]@1 has no parameter 'm'"
finish
