#!/usr/bin/env bash
# Application signatures x machine profiles in qqbench run: the chain kernel's flop count over a hand-written profile predicts its time (flop-bound), and against a baseline of another machine fingerprint the two profiles give the predicted ratio beside the measured one.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
K="${QQ_KERNEL_DIR:?QQ_KERNEL_DIR not set}/chain"
[ -x "$K" ] || { echo "FAIL: chain kernel not built at $K"; exit 1; }
command -v python3 >/dev/null || { echo "FAIL: python3 is needed to read the report (make deps-test installs it)"; exit 1; }
rm -rf bl
cat > sig.yaml <<YAML
suite: sig
defaults:
  repetitions: 3
  warmup: 0
  threshold: 50
benchmarks:
  - name: chain
    kernel: $K
    args: [--steps, "2000", --ops, "40"]
YAML
# Two machines' profiles, by hand: machine-b's flop rate is half machine-a's.
profile() {
    mkdir -p "bl/$1"
    cat > "bl/$1/profile.yaml" <<YAML
profile: 1
timer:
  tick_mhz: 1000
memory:
  - bytes: 16384
    bandwidth_gbps: 50
    latency_ns: 1
flops:
  gflops: $2
issue:
  fp_dep_ns: $3
mpi: null
YAML
}
# and a dependent chain's flop twice as dear there: 2 ns against 4
profile machine-a 2.0 2
profile machine-b 1.0 4

# No profile for this machine yet: the run says how to make one.
QQBENCH_FINGERPRINT=machine-c qq out0.txt err0.txt run sig.yaml --baselines bl --no-report -q
check "without a profile: exit 0 (got $rc)" test "$rc" = 0
check "it says that signatures need a profile" has out0.txt "no profile .*qqbench profile-machine"

rm -rf rep
QQBENCH_FINGERPRINT=machine-a qq out1.txt err1.txt run sig.yaml --baselines bl --report rep -q --json a.json
check "machine-a records its baseline (exit 0, got $rc)" test "$rc" = 0
check "predicted against measured, latency-bound" has out1.txt '^  chain@1 +chain .* latency '
# 2 flops x 40 ops x 2000 steps, every one dependent, at 2 ns a flop (at
# the flop rate, 2 GFLOP/s, they would take 80 us)
check "the prediction is the dependent flops at a chain's rate (320 us)" \
    python3 -c 'import json,sys; r=json.load(open("a.json"))["signatures"][0]; sys.exit(not (abs(r["predicted_s"]-3.2e-4) < 1e-12 and r["signature"]["flops"] == 160000 and r["signature"]["dep_flops"] == 160000 and abs(r["flops_s"]) < 1e-12 and r["bound"] == "latency" and r["measured_s"] > 0))'
if command -v gnuplot >/dev/null; then
    check "the report draws the profile" test -s rep/profile_memory.png
    check "index.html shows it" has rep/index.html 'src="profile_memory.png"'
fi
check "the JSON holds the profile" python3 -c 'import json,sys; d=json.load(open("a.json")); sys.exit(d["profile"]["gflops"] != 2.0)'

QQBENCH_FINGERPRINT=machine-b qq out2.txt err2.txt run sig.yaml --baselines bl --baseline-from machine-a --no-report -q --json b.json
check "against machine-a's baseline: the run completes (got $rc)" test "$rc" = 0 -o "$rc" = 1
check "the profiles' part of the change is shown" has out2.txt 'How much of the change from machine machine-a the profiles explain'
check "predicted ratio 2 (a chain's flop twice as dear)" has out2.txt '^  chain@1 +chain +[0-9.]+x +2\.000x'
check "the JSON says so" python3 -c 'import json,sys; r=json.load(open("b.json"))["signatures"][0]; sys.exit(not (abs(r["predicted_ratio"]-2) < 1e-12 and r["baseline_machine"] == "machine-a" and r["measured_ratio"] > 0))'

# qqbench predict: machine-a's run on machine-b's profile: 160000 dependent
# flops at 4 ns = 640 us, twice the 320 us of machine-a's own profile.
qq pr.out pr.err predict --profile bl/machine-b/profile.yaml a.json
check "predict: exit 0 (got $rc)" test "$rc" = 0
check "predict: here 320 us, there 640 us, 2x, latency-bound" \
    has pr.out '^  chain@1 +chain +[0-9.]+ [mu]?s +320 us +640 us +2\.000x  latency$'
# hostile bytes in the run JSON: one line naming the place, exit 2
printf '{"signatures": [{"case": "c", "key": "k", "signature": {"dep_flops": -1}}]}' > neg.json
qq pn.out pn.err predict --profile bl/machine-b/profile.yaml neg.json
check "a negative count: exit 2 (got $rc), one line, nothing printed" \
    test "$rc" = 2 -a "$(wc -l < pn.err)" = 1 -a ! -s pn.out
check "it names the field" has pn.err '^neg.json: error: signatures\[0\]\.signature\.dep_flops: expected a number'
printf '{"signatures": [' > cut.json
qq pc.out pc.err predict --profile bl/machine-b/profile.yaml cut.json
check "a cut file: exit 2 (got $rc), its position" has pc.err '^cut.json:1:[0-9]+: error: '

# qqbench st --signature: each state key's sig: counts from the .qq file
QQ_OUTPUT=c.qq "$K" --steps 100 --ops 10 >/dev/null
qq st.out st.err st --signature c.qq
check "st --signature: exit 0 (got $rc)" test "$rc" = 0
check "st --signature: the chain's counts, one line" has st.out "^  'chain': flops 2000, dep_flops 2000$"
qq st2.out st2.err st c.qq
check "st without it: no signature" test "$(grep -c Signatures st2.out)" = 0

# machine-a's profile gone: the difference is not explained, and the run says so.
rm bl/machine-a/profile.yaml
QQBENCH_FINGERPRINT=machine-b qq out3.txt err3.txt run sig.yaml --baselines bl --baseline-from machine-a --no-report -q
check "no profile for the baseline's machine: said (got $rc)" has out3.txt 'machine machine-a.s, which has no profile'
# a damaged profile is an error, not a silent skip
echo "memory: [" > bl/machine-b/profile.yaml
QQBENCH_FINGERPRINT=machine-b qq out4.txt err4.txt run sig.yaml --baselines bl --no-report -q
check "damaged profile: exit 2 (got $rc)" test "$rc" = 2
check "with its position" has err4.txt 'bl/machine-b/profile.yaml:[0-9]+:[0-9]+: error: '

[ "$fail" = 0 ] || show out0.txt out1.txt err1.txt out2.txt err2.txt out3.txt err3.txt err4.txt
finish
