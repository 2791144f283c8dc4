#!/usr/bin/env bash
# qqbench history --plot draws history-cycles as each series' change in percent from its own first snapshot, with the band of each snapshot's launch-to-launch noise: a +10% step of a 200-cycle series stays a tenth of the picture's height while a million-cycle series swings from -30% to +60%; a long case and key name's title is shortened, so gnuplot draws it without a warning.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
command -v python3 >/dev/null || { echo "FAIL: python3 is not installed"; exit 1; }
rm -rf bl pics
python3 "$QQ_TEST_DATA/history/swing_snapshots.py" bl
qq out.txt err.txt history hs --baselines bl --machine machine-h --plot pics
check "history --plot: exit 0 (got $rc)" test "$rc" = 0
check "history-cycles drawn (PNG)" bash -c "head -c 8 pics/history-cycles.png | od -An -tx1 | grep -q '89 50 4e 47'"
check "the data names its columns" has pics/history-cycles.dat $'^# x\tlabel\tcycles\tchanged\tchange_pct\tnoise_lo_pct\tnoise_hi_pct$'
# The plotted column (change_pct) and the bands, per series, by python3.
python3 - pics/history-cycles.dat > facts.txt <<'PY'
import sys
series, cur = {}, None
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if line.startswith("# ") and "@" in line:
        cur = line[2:].split()[0]; series[cur] = []
    elif line and not line.startswith("#"):
        f = line.split("\t")
        series[cur].append((f[1].strip('"'), float(f[4]), float(f[5]), float(f[6])))
allp = [p for s in series.values() for (_, p, _, _) in s]
span = max(allp) - min(allp)
small = dict((l, (p, lo, hi)) for l, p, lo, hi in series["small@1"])
big = dict((l, p) for l, p, _, _ in series["big@1"])
print("first_zero", all(s[0][1] == 0 for s in series.values()))
print("small_before", all(abs(small[l][0]) < 1 for l in ("v1", "v2", "v3")))
print("small_after", all(9 < small[l][0] < 11 for l in ("v4", "v5", "v6")))
print("band_narrow", all(small[l][2] - small[l][1] < 2 and small[l][1] <= small[l][0] <= small[l][2] for l in small))
print("big_swings", 55 < big["v2"] < 65 and -35 < big["v3"] < -25)
print("step_share", 10 / span > 0.08)
PY
for f in first_zero small_before small_after band_narrow big_swings step_share; do
    check "data: $f" grep -qx "$f True" facts.txt
done
check "the script re-runs with plain gnuplot, silent" \
    bash -c "cd pics && gnuplot history-cycles.gp 2> gp.err && test ! -s gp.err"
check "the axis is the change in percent" has pics/history-cycles.gp 'change from the first snapshot'
check "the noise bands are drawn" has pics/history-cycles.gp 'using 1:6:7 with filledcurves'

# A long case and key name, as a C++ code names them: the key's title is
# shortened in the middle as the report's labels are (plot.h
# qqb_plot_short), so gnuplot never warns "Terminal canvas area too small to
# hold plot" (history exited 2 and said the pictures, which gnuplot had
# drawn, were not written). The data's comment keeps the name whole.
long_case='halo_exchange[ncs5_three_dimensional_decomposition]@16'
long_key='MessageBus::SynchronizeAllPendingNeighbourMessages'
rm -rf bl pics
python3 "$QQ_TEST_DATA/history/swing_snapshots.py" bl
sed -i -e "s/name: big@1\$/name: $long_case/" -e "s/key: Big\$/key: $long_key/" bl/machine-h/history/*.yaml
qq out.txt err.txt history hs --baselines bl --machine machine-h --plot pics
check "a long key name: exit 0 (got $rc)" test "$rc" = 0
check "a long key name: the pictures announced" has err.txt '^qqbench: pictures in pics \(history-cycles\)$'
check "a long key name: nothing said about them not being written" hasnt err.txt 'not written|not complete'
check "a long key name: the PNG drawn" test -s pics/history-cycles.png
check "a long key name: its title shortened in the middle" \
    has pics/history-cycles.gp "title 'halo_exchange\[ncs5_three_dime…izeAllPendingNeighbourMessages'"
check "a long key name: the data names it whole" grep -qxF "# $long_case  $long_key" pics/history-cycles.dat
check "a long key name: the script re-runs with plain gnuplot, silent" \
    bash -c "cd pics && gnuplot history-cycles.gp 2> gp.err && test ! -s gp.err"
[ "$fail" = 0 ] || show facts.txt err.txt
finish
