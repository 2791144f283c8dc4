#!/usr/bin/env bash
# index.html's words (issue 36, items 5 and 6), from crafted run JSONs drawn by 'qqbench report
# --no-plot': the headline counts the rows that could not decide (never "Exit 0: all good." above
# noisy rows) and each row shows why it reads so; a run against a reference build does not say it
# had nothing to compare against; the header names the kernels' builds, and qqbench's own only as
# qqbench's; memory "unchanged" has timing "unchanged"'s colour; a change that rounds to zero is
# +0.00%, never -0.00%; one case is "1 case".
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
G="$QQ_TEST_DATA/run_json/golden.json"
rm -rf noisy ci ./*.json
# noisy.json: a stored-baseline run that exits 0 with one noisy and one blind row (each with
# its why), a change of -0.001%, one case, memory unchanged; no reference build.
# ci.json: the same against a reference build, with no stored baseline (as qqbench ci writes).
python3 - "$G" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
case = d["cases"][0]
cmp = [c for c in d["comparisons"] if c["kind"] == "baseline"][0]
noisy = dict(cmp, verdict="noisy", change_pct=-0.001, interval_lo_pct=-0.004,
             interval_hi_pct=9.5, why="interval -0.0%..+9.5% against a threshold of 5.0%; about 40 launches would decide")
blind = dict(cmp, key="step2", verdict="blind", change_pct=0.5, interval_lo_pct=-7.0,
             interval_hi_pct=8.0, why="the baseline's runs move by 9.1%, beyond the threshold; --against could see it")
mem = copy.deepcopy(d["memory_changes"][0])
mem["after"] = mem["before"]
mem.update(verdict=0, unchanged=True)
d.update(cases=[case], comparisons=[noisy, blind], memory_changes=[mem], exit_code=0,
         kernel_failures=0, against=None, baseline_other_build=None)
json.dump(d, open("noisy.json", "w"))
build = [dict(c, kind="build", reference=c["case"]) for c in (noisy, blind)]
d.update(comparisons=build, baseline=None, against="/tmp/qqbench-ci-x/ref/kernels")
json.dump(d, open("ci.json", "w"))
PY
for r in noisy ci; do
    qq "$r.out" "$r.err" report "$r.json" --out "$r" --no-plot
    check "report $r.json: exit 0 (got $rc)" test "$rc" = 0
    [ "$rc" = 0 ] || show "$r.err"
done
N=noisy/index.html C=ci/index.html

# The headline: not "all good" above rows that could not decide; they are counted.
check "no 'all good' above noisy rows" hasnt "$N" 'all good'
check "the headline counts the noisy and blind rows" \
    has "$N" '<b>Exit 0: nothing regressed\. 2 comparisons could not decide \(1 noisy, 1 blind\): they pass'
# Each row's why.
check "the noisy row shows its why" has "$N" 'about 40 launches would decide'
check "the blind row shows its why" has "$N" '--against could see it'
# -0.001% is +0.00%, and its interval's low end too.
check "no -0.00 on the page" hasnt "$N" '-0\.00'
check "the change reads +0.00%" has "$N" '<td class="n">\+0\.00%</td><td class="n">\[\+0\.00, \+9\.50\]</td>'
# One case.
check "'1 case', never '1 cases'" has "$N" '</b> 1 case;'
# Memory unchanged: timing unchanged's class (its colour), not 'other'.
check "memory unchanged coloured as timing unchanged" \
    has "$N" '<tr class="v-unchanged"><td>chain\[direct\]@1</td><td>Node</td><td>baseline</td>'
# The header: the kernels' builds from their compile units; qqbench's own build said as its own.
check "the header names the kernels' build" \
    has "$N" 'kernels built by GNU C11 12\.2\.0, -march=x86-64 -g -O2 -O0'
check "qqbench's own build is said as qqbench's" \
    has "$N" 'qqbench 9\.9\.9 \(itself built by GNU 12\.2\.0 RelWithDebInfo\)'
check "RelWithDebInfo never stands as the kernels' build" hasnt "$N" '&middot; GNU 12\.2\.0 RelWithDebInfo'

# A run against a reference build with no stored baseline: it compared against something.
check "ci page: not 'nothing to compare against'" hasnt "$C" 'nothing to compare against'
check "ci page: the baseline line says it compares against the reference build" \
    has "$C" 'baseline: none: this run compares against the reference build'
check "ci page: the reference build is named" has "$C" 'reference build: /tmp/qqbench-ci-x/ref/kernels'
check "ci page: the build rows' undecided counted too" has "$C" '2 comparisons could not decide'
finish
