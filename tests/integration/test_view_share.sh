#!/usr/bin/env bash
# qqbench view at a zoom where one picture column holds many intervals draws each key's share of every such column (view-share.dat, stacked): a key with a third of the time in 1 us intervals between a long key's 2 us ones gets a third of each column, where the merged bars alone showed only the long key; zoomed in to single intervals there are no shares.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
command -v python3 >/dev/null || { echo "FAIL: python3 is not installed"; exit 1; }
rm -rf share.qq sv zoom
python3 "$QQ_TEST_DATA/reports/make_share_qq.py" share.qq
qq out.txt err.txt view share.qq --out sv
check "view: exit 0 (got $rc)" test "$rc" = 0
check "view-share.dat written" test -s sv/view-share.dat
check "the data names the keys" has sv/view-share.dat "^# key 0 'tiny'$"
python3 - sv/view-share.dat > facts.txt <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
tiny = [float(r[6]) for r in rows if r[5] == "0"]
cols = {}
for r in rows:
    cols[r[0]] = cols.get(r[0], 0.0) + float(r[6])
print("many_columns", len(tiny) >= 1000)
print("tiny_a_third", bool(tiny) and all(0.30 <= s <= 0.37 for s in tiny))
print("tiny_mean", bool(tiny) and abs(sum(tiny) / len(tiny) - 1 / 3) < 0.01)
print("columns_full", all(abs(v - 1) < 1e-3 for v in cols.values()))
print("dense_only", all(float(r[0]) >= 19.9 for r in rows))
print("stacked", all(float(r[2]) < float(r[3]) for r in rows))
PY
for f in many_columns tiny_a_third tiny_mean columns_full dense_only stacked; do
    check "shares: $f" grep -qx "$f True" facts.txt
done
check "the merged bars alone cover the whole stretch (what hid the key)" \
    has sv/view-states.dat '^20 79.998 '
check "the script draws the shares" has sv/view.gp "'view-share.dat' using .* fc rgb variable"
check "the script re-runs with plain gnuplot, silent" \
    bash -c "cd sv && gnuplot view.gp 2> gp.err && test ! -s gp.err"
check "PNG" bash -c "head -c 8 sv/view.png | od -An -tx1 | grep -q '89 50 4e 47'"
# Zoomed in to 30 us: a column is 20 ns, no column holds many intervals.
qq out2.txt err2.txt view share.qq --from 0.02 --to 0.02003 --out zoom
check "zoomed: exit 0 (got $rc)" test "$rc" = 0
check "zoomed: no shares" test "$(grep -vc '^#' zoom/view-share.dat || true)" = 0
check "zoomed: no share clause" hasnt zoom/view.gp 'view-share.dat'
[ "$fail" = 0 ] || show facts.txt err.txt err2.txt
finish
