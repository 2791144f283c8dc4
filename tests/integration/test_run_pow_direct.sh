#!/usr/bin/env bash
# qqbench run on the real channel kernel: direct multiplication instead of pow() on the Km line is an improvement (the paper's one-line change), in the A/B comparison.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
K="${QQ_KERNEL_DIR:?QQ_KERNEL_DIR not set}/channel"
[ -x "$K" ] || { echo "FAIL: channel kernel not built at $K"; exit 1; }
rm -rf bl
cat > pow.yaml <<YAML
suite: pow_direct
defaults:
  repetitions: 10
  warmup: 1
benchmarks:
  - name: km
    kernel: $K
    keys: [Km]
    variants:
      pow: [--variant, pow]
      direct: [--variant, direct]
YAML
qq out.txt err.txt run pow.yaml --baselines bl --json pow.json -q
check "exit 0 (got $rc)" test "$rc" = 0
check "JSON is valid" valid_json pow.json
check "only the Km key is compared" test "$(jq_py pow.json '[.comparisons[]|select(.key!="Km")]|length' \
    'len([c for c in d["comparisons"] if c["key"]!="Km"])')" = 0
v=$(jq_py pow.json '.comparisons[]|select(.kind=="ab" and .key=="Km" and .case=="km[direct]@1")|"\(.verdict) \(.change_pct)"' \
    '" ".join(str(c["verdict"])+" "+str(c["change_pct"]) for c in d["comparisons"] if c["kind"]=="ab" and c["key"]=="Km" and c["case"]=="km[direct]@1")')
echo "A/B Km direct vs pow: $v"
check "A/B Km: direct is improved over pow (got '$v')" test "${v%% *}" = improved
# The size, not only the sign: the line without pow costs well under half
# the line with it, in net ticks per hit (a pow call alone is tens of
# cycles on any x86-64; the multiplications a few).
pct="${v#* }"
check "A/B Km: direct is more than 50% cheaper (got $pct%)" \
    python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) < -50 else 1)' "$pct"
check "the table shows the A/B row" has out.txt '^km\[direct\]@1 +Km '
# The mean interval shows it too (independent of the verdict metric).
mp=$(jq_py pow.json '.cases[]|select(.name=="km[pow]@1")|.metrics[]|select(.key=="Km" and .what=="ticks")|.median' \
    '[m["median"] for c in d["cases"] if c["name"]=="km[pow]@1" for m in c["metrics"] if m["key"]=="Km" and m["what"]=="ticks"][0]')
md=$(jq_py pow.json '.cases[]|select(.name=="km[direct]@1")|.metrics[]|select(.key=="Km" and .what=="ticks")|.median' \
    '[m["median"] for c in d["cases"] if c["name"]=="km[direct]@1" for m in c["metrics"] if m["key"]=="Km" and m["what"]=="ticks"][0]')
echo "ticks in Km per launch (median): pow $mp, direct $md"
finish
