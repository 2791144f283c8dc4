#!/usr/bin/env bash
# Messages that named the wrong thing (issue 33): st's options after its files, export of a file with an infinite clock-offset bound, view's --to past any time, and one decimal parser for view's and whatif's numbers.
set -euo pipefail
. "$QQ_TEST_DATA/reports/lib.sh"
rm -rf syn.qq inf.qq t3.qq m-view
python3 "$MAKE_QQ" syn.qq
python3 "$QQ_TEST_DATA/reports/make_threads_qq.py" t3.qq 3

# st takes options after its files, as report, view and export do.
qq before.txt err1.txt st --threads t3.qq
qq after.txt err2.txt st t3.qq --threads
check "st FILE --threads: exit 0 (got $rc)" test "$rc" = 0
check "st FILE --threads: no error (it was taken for a file name)" test ! -s err2.txt
[ -s err2.txt ] && show err2.txt
check "st FILE --threads prints what st --threads FILE does" cmp -s before.txt after.txt
qq plain.txt err.txt st t3.qq
check "--threads after the file adds the thread tables" test "$(wc -l < after.txt)" -gt "$(wc -l < plain.txt)"
qq out.txt err.txt st t3.qq --node 3
check "st FILE --node 3: exit 2 (got $rc)" test "$rc" = 2
check "st FILE --node 3: the node is named" has err.txt '^qqbench st: error: t3.qq has 1 node, no node 3$'

# An infinite offset error bound (node 1's 20 ticks made inf): the reader
# refuses it by name; export said "out of memory".
python3 - syn.qq inf.qq <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
twenty = struct.pack("<d", 20.0)
assert b.count(twenty) == 1
open(sys.argv[2], "wb").write(b.replace(twenty, struct.pack("<d", float("inf"))))
PY
qq out.txt err.txt export inf.qq --format chrome --out inf.json
check "export --format chrome of an infinite offset bound: exit 2 (got $rc)" test "$rc" = 2
check "export: the node and the field named" has err.txt 'inf\.qq: node 1: tick offset error inf ticks is out of range'
check "export: not 'out of memory'" hasnt err.txt 'out of memory'

# --to past any time: a range message, not gnuplot's warning.
qq out.txt err.txt view syn.qq --to 1e308 --out m-view
check "view --to 1e308: exit 2 (got $rc)" test "$rc" = 2
check "view --to 1e308: the range is said" has err.txt "^qqbench view: error: --to '1e308': expected seconds, a decimal number from -1e9 to 1e9"
check "view --to 1e308: not gnuplot's warning" hasnt err.txt 'gnuplot'
qq out.txt err.txt view syn.qq --to 1e-5 --no-plot --out m-view
check "view --to 1e-5: exit 0 (got $rc)" test "$rc" = 0

# One decimal parser: hex is refused by view as by whatif.
qq out.txt err.txt view syn.qq --to 0x10 --no-plot --out m-view
check "view --to 0x10: exit 2 (got $rc)" test "$rc" = 2
check "view --to 0x10: a decimal number expected" has err.txt "--to '0x10': expected seconds, a decimal number"
qq out.txt err.txt whatif syn.qq --scale step=0x10
check "whatif --scale step=0x10: exit 2 (got $rc)" test "$rc" = 2
check "whatif: not a decimal number" has err.txt "'0x10' is not a decimal number"
finish
