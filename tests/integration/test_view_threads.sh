#!/usr/bin/env bash
# qqbench view on a file of 150,000 threads (one node): at most 64 strips drawn, the busiest, the rest counted on stdout, and the pass linear in the threads (it was quadratic: past 300 s on this file).
set -euo pipefail
. "$QQ_TEST_DATA/reports/lib.sh"
rm -rf many.qq many-view few.qq few-view
python3 "$QQ_TEST_DATA/reports/make_threads_qq.py" many.qq 150000

# A generous bound, not a timing: the quadratic pass took over 300 s on
# this file (72 s on 5,000 threads); the linear one well under a second.
rc=0
timeout 60 "$QQBENCH" view many.qq --no-plot --out many-view >out.txt 2>err.txt || rc=$?
check "view of 150,000 threads: exit 0 within 60 s (got $rc; 124 is the timeout)" test "$rc" = 0
[ "$rc" = 0 ] || show err.txt
check "64 strips drawn" test "$(grep -cv '^#' many-view/view-nodes.dat)" = 64
check "the strips are the first 64 threads (all as busy; in thread order)" \
    has out.txt '^  node 0 t63: thread .w63., tid 1063$'
check "no strip past them" hasnt out.txt '^  node 0 t64:'
check "the strips left out are counted on stdout" \
    has out.txt '^  149936 strips past the 64 drawn \(those with the most entries\) left out'
check "each drawn thread's interval is in the data" \
    test "$(grep -cv '^#' many-view/view-states.dat)" = 64

# Few threads: every strip, nothing said.
python3 "$QQ_TEST_DATA/reports/make_threads_qq.py" few.qq 3
qq out.txt err.txt view few.qq --no-plot --out few-view
check "view of 3 threads: exit 0 (got $rc)" test "$rc" = 0
check "3 strips" test "$(grep -cv '^#' few-view/view-nodes.dat)" = 3
check "nothing left out" hasnt out.txt 'left out'
finish
