#!/usr/bin/env bash
# qqbench's Km delta (pow -> direct) agrees with Google Benchmark's dependent-call delta within their combined uncertainty; the independent-call delta is smaller; callgrind counts more instructions for pow.
#
# Runs tools/km_compare.sh in ROUNDS rounds (each: qqbench A/B on channel,
# then gbench_km), so the uncertainty is the round-to-round spread of the
# difference of the two deltas: it holds both tools' noise and the machine's
# drift, not only the scatter within one run. The rule: |mean difference|
# <= t(0.995, ROUNDS-1) * sd / sqrt(ROUNDS) (a 99% two-sided interval), or,
# failing that, within 10% of the GB delta (issue 9's tolerance for the
# state against the bulk timing). The second clause is there because the two
# do not measure quite the same thing: the state's closing rdtscp waits for
# every instruction of pow, also those off the line's critical path, that a
# dependent loop retires in the shadow of the next repetition; on an Intel
# Xeon guest this left the state 2-4 ticks (3-5%) above the loop, more than
# the rounds' spread, while on an AMD EPYC guest the two agreed (-0.35 +-
# 0.33 ticks quiet; docs/PERFORMANCE.md has both). The test prints which
# clause held. No speed of any machine is assumed.
#
# Skips (77): without libbenchmark-dev (gbench_km not built) or python3, and
# in the sanitizer build: ASan instruments the state's loads from the
# channel struct (a shadow check before each) but not the registers of the
# dependent loops, so there the two would measure different code; the
# comparison is meaningful only in the plain build.
set -euo pipefail
B="${QQ_BINARY_DIR:?QQ_BINARY_DIR not set (run through ctest)}"
S="${QQ_SOURCE_DIR:?QQ_SOURCE_DIR not set}"
if grep -q '^QQ_SANITIZE:BOOL=ON' "$B/CMakeCache.txt" 2>/dev/null; then
    echo "SKIP: sanitizer build (ASan checks the state's loads, not the loops' registers): plain build only"
    exit 77
fi
[ -x "$B/tools/gbench_km" ] || { echo "SKIP: gbench_km not built (install libbenchmark-dev and a C++ compiler)"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3"; exit 77; }

rounds=${KM_ROUNDS:-6}
pass=0 fail=0
check() { local what="$1"; shift; if "$@"; then pass=$((pass + 1)); echo "ok   $what"
          else fail=$((fail + 1)); echo "FAIL $what"; fi; }

for r in $(seq 1 "$rounds"); do
    cg=0; [ "$r" = 1 ] && cg=1   # instruction counts are exact: once is enough
    KM_REPS=6 KM_GB_REPS=3 KM_GB_MIN_TIME=0.05 KM_CALLGRIND=$cg KM_STEPS=1000 \
        KM_WORK="$PWD/round$r" bash "$S/tools/km_compare.sh" "$B" --json "round$r.json" \
        > "round$r.txt" 2>&1 || { cat "round$r.txt"; echo "FAIL km_compare.sh round $r"; exit 1; }
    cat "round$r.txt"
done

python3 - "$rounds" <<'PY' > verdict.txt
import json, math, statistics, sys
n = int(sys.argv[1])
# t quantiles, 0.995 two-sided 99%, for n-1 degrees of freedom
T995 = {1: 63.66, 2: 9.925, 3: 5.841, 4: 4.604, 5: 4.032, 6: 3.707, 7: 3.499,
        8: 3.355, 9: 3.250, 10: 3.169, 11: 3.106, 12: 3.055, 13: 3.012, 14: 2.977}
rows = []
for r in range(1, n + 1):
    d = {x["measure"]: x for x in json.load(open("round%d.json" % r))["rows"]}
    rows.append(d)
def deltas(name):
    return [d[name]["delta"] for d in rows]
qq = deltas("qqbench Km state, net per hit")
dep = deltas("Google Benchmark, dependent calls")
ind = deltas("Google Benchmark, independent calls")
diff = [a - b for a, b in zip(qq, dep)]
mean, sd = statistics.mean(diff), statistics.stdev(diff)
u = sd / math.sqrt(n)
t = T995.get(n - 1, 2.977)
print("qqbench deltas  %s" % " ".join("%.2f" % x for x in qq))
print("GB dep deltas   %s" % " ".join("%.2f" % x for x in dep))
print("GB indep deltas %s" % " ".join("%.2f" % x for x in ind))
stat = abs(mean) <= t * u
rel = abs(mean) <= 0.10 * abs(statistics.mean(dep))
print("agree %d %.3f %.3f %.3f %s" % (stat or rel, mean, u, t,
      "statistically" if stat else "within-10%-only" if rel else "no"))
print("indep_smaller %d %.3f %.3f" % (abs(statistics.median(ind)) < abs(statistics.median(dep)),
                                      statistics.median(ind), statistics.median(dep)))
cg = {k: v for k, v in rows[0].items() if k.startswith("callgrind")}
print("callgrind %d %s" % (len(cg) == 2 and all(v["delta"] < 0 for v in cg.values()),
                           " ".join("%.2f" % v["delta"] for v in cg.values())))
PY
cat verdict.txt
read -r _ ok mean u t how < <(grep '^agree' verdict.txt)
check "qqbench delta - GB dependent delta = $mean +- $u ticks (99% bound: $t standard uncertainties): agree $how" test "$ok" = 1
read -r _ ok di dd < <(grep '^indep_smaller' verdict.txt)
check "GB independent delta ($di) smaller in magnitude than dependent ($dd)" test "$ok" = 1
if command -v valgrind >/dev/null; then
    read -r _ ok rest < <(grep '^callgrind' verdict.txt)
    check "callgrind: direct executes fewer instructions than pow ($rest)" test "$ok" = 1
else
    echo "note: valgrind not found: callgrind not checked"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
