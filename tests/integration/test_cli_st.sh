#!/usr/bin/env bash
# test_cli_st.sh - qqbench st on a real kernel's file: brain (3 state keys,
# 2 count keys, the memory table) for STEPS steps, and brain_threads (two
# threads, --threads). Every figure asserted is a count the command line
# fixes (steps, synapses), or one table of st's output against another, or
# against qqbench export's rows of the same file: no tick or time figure.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
BRAIN="$QQ_KERNEL_DIR/brain"
[ -x "$BRAIN" ] || { echo "FAIL: kernel not built at $BRAIN"; exit 1; }
STEPS=200 SYN=5000
rm -f b.qq b2.qq t.qq
QQ_OUTPUT="$PWD/b.qq" "$BRAIN" --steps $STEPS --synapses $SYN >brain.out

qq st.txt err.txt st b.qq
check "st b.qq: exit 0 (got $rc)" test "$rc" = 0
check "st b.qq: nothing on stderr" test ! -s err.txt
check "the file and its one node" has st.txt '^File b\.qq: +1 node$'
# 3 states on and off per step: 6 x STEPS state entries, 5 keys.
check "node 0: 5 keys, $((6 * STEPS)) states" has st.txt "^Node +0: +[0-9.]+ MHz, 5 keys, $((6 * STEPS)) states, ticks from [0-9]+ to [0-9]+$"

# row TABLE_HEADING KEY: the row of KEY in the table under the line
# matching TABLE_HEADING, its fields separated by one space.
row() {
    awk -v head="$1" -v key="'$2'" '
        $0 ~ head { on = 1; next }
        on && /^$/ && seen { exit }
        on && index($0, key) { $1 = $1; print; exit }
        on { seen = 1 }' st.txt
}
for k in update fire deliver; do
    r=$(row '^ Intervals +Time +Percent' $k)
    check "state $k: $STEPS intervals" test "$(echo "$r" | cut -d' ' -f2)" = "$STEPS"
    # Net is Per hit less the empty state's ticks, both printed to 0.1.
    r=$(row '^ +Intervals +Per hit +Net' $k)
    check "state $k: net = per hit - the empty state (to 0.1 tick)" awk -v ph="$(echo "$r" | cut -d' ' -f3)" \
        -v net="$(echo "$r" | cut -d' ' -f4)" \
        -v e="$(sed -n 's/^ *empty state = \([0-9.]*\) ticks.*/\1/p' st.txt)" \
        'BEGIN { d = ph - net - e; exit !(e > 0 && d <= 0.11 && d >= -0.11) }'
done
check "the states' percents of the elapsed time add up to at most 100" awk '
    /^ Intervals +Time +Percent/ { on = 1; next }
    on && /^$/ { exit }
    on { sub(/%/, "", $4); s += $4 }
    END { exit !(s > 0 && s <= 100.01) }' st.txt

# Counts: a hit per step; the sum is export's (the same events, another
# command), and lies between hits x min and hits x max.
qq b.csv err.txt export b.qq --format csv --keys spikes,firings
check "export csv of the count keys: exit 0 (got $rc)" test "$rc" = 0
for k in spikes firings; do
    r=$(row '^ +Hits +Sum +Min +Max' $k)
    set -- $r
    check "count $k: $STEPS hits" test "$2" = "$STEPS"
    check "count $k: hits x min <= sum <= hits x max" test "$(($2 * $4))" -le "$3" -a "$3" -le "$(($2 * $5))"
    check "count $k: the sum is the sum of export's rows" test "$3" = "$(awk -F, -v k="$k" '$2 == k { s += $4 } END { print s + 0 }' b.csv)"
done
# The memory table: one Synapse object per --synapses.
check "memory: $SYN Synapse objects created, none deleted" has st.txt "^Synapse +[0-9]+ +$SYN +0 "

# --node 0 is the same as the whole one-node file; the node past the end is refused.
qq st0.txt err.txt st --node 0 b.qq
check "st --node 0: exit 0 and the same text" test "$rc" = 0 -a "$(cat st0.txt)" = "$(cat st.txt)"
qq out.txt err.txt st b.qq --node 1
check "st --node 1 of a one-node file: exit 2 (got $rc)" test "$rc" = 2
check "st --node 1: one line, naming the node count" test "$(wc -l <err.txt)" = 1 -a "$(grep -c 'b.qq has 1 node, no node 1' err.txt)" = 1

# Two files: each summarised, in the order given.
QQ_OUTPUT="$PWD/b2.qq" "$BRAIN" --steps $((STEPS / 2)) >brain2.out
qq two.txt err.txt st b.qq b2.qq
check "st of two files: exit 0 (got $rc)" test "$rc" = 0
check "st of two files: b.qq then b2.qq" test "$(grep '^File ' two.txt | cut -d: -f1 | tr '\n' ' ')" = "File b.qq File b2.qq "
check "st of two files: the second has $((STEPS / 2)) update intervals" \
    test "$(awk '/^File b2.qq/ { on = 1 } on && $NF == "'"'update'"'" && /%/ { print $2; exit }' two.txt)" = "$((STEPS / 2))"

# Threads: brain_threads with 2 threads; --threads adds a state table per
# thread, and each thread's update intervals are the steps.
QQ_OUTPUT="$PWD/t.qq" "$QQ_KERNEL_DIR/brain_threads" --threads 2 --steps $STEPS >threads.out
qq t.txt err.txt st --threads t.qq
check "st --threads: exit 0 (got $rc)" test "$rc" = 0
check "st --threads: two threads listed" has t.txt '^Threads: 2$'
check "st --threads: a table per thread" test "$(grep -c "^Thread [01] ('brain-w[01]'): states$" t.txt)" = 2
check "st --threads: each thread's update $STEPS intervals" \
    test "$(awk '/^Thread [01] /{ on = 1 } on && $NF == "'"'update'"'" { print $3; on = 0 }' t.txt | tr '\n' ' ')" = "$STEPS $STEPS "
qq t0.txt err.txt st t.qq
check "st without --threads: no per-thread table" test "$(grep -c '^Thread [01] (' t0.txt)" = 0

# A missing file: exit 2, one line.
qq out.txt err.txt st missing.qq
check "st missing.qq: exit 2 (got $rc)" test "$rc" = 2
check "st missing.qq: one line naming the file" test "$(wc -l <err.txt)" = 1 -a "$(grep -c 'missing.qq: cannot open' err.txt)" = 1
[ "$fail" = 0 ] || show st.txt t.txt err.txt
finish
