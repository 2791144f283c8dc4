#!/usr/bin/env bash
# tools/qq_readbench makes its own file (--make N), times plain read, the reader API, its stats, the whole-file reader and st, and leaves each as a QQ state in $QQ_OUTPUT for the harness.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
RB="$QQ_BINARY_DIR/tools/qq_readbench"
[ -x "$RB" ] || { echo "skip: $RB not built"; exit 77; }
rm -f gen.qq results.qq out.txt
QQ_OUTPUT="$PWD/results.qq" "$RB" --make 20000 gen.qq 3 "$QQBENCH" >out.txt
check "qq_readbench: a table of the five kinds" has out.txt '^st '
check "qq_readbench: the file it made has 20000 events" has out.txt '^gen\.qq: 20000 events'
qq st.txt err.txt st results.qq
check "its results are a QQ file st reads (exit $rc)" test "$rc" = 0
for k in plain chunks stats whole st; do
    check "state read_$k timed 3 times" has st.txt "^[0-9]+: +3 +.*'read_$k'"
done
qq st2.txt err2.txt st gen.qq
check "the made file has the four states" has st2.txt "'state_d'"
"$RB" --make 3 x.qq >out.txt 2>err.txt && rc=0 || rc=$?
check "--make 3: exit 2 (got $rc)" test "$rc" = 2
rm -f gen.qq
finish
