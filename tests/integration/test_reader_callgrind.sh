#!/usr/bin/env bash
# The reader's instructions per event under callgrind: the chunk reader (read and check) and the one pass st makes stay under their bounds.
#
# The read path's speed goal (docs/PERFORMANCE.md, "Reading .qq files": st within 2x a plain read
# of the same bytes, on Intel and AMD alike) is a benchmark (tools/qq_readbench, make bench). What
# a test can hold on any machine, loaded or not, is the work per event, which callgrind counts
# exactly: qq_readbench's states read_chunks and read_stats counted alone ($QQ_CALLGRIND_KEY), one
# round each on a file of qq_bigfile's mix. Before the checks were folded into one pass (issue 39)
# they were 45 and 65 instructions an event; after, 28 and 33. The bounds leave room for another
# compiler's code; an optimised build only (a -O0 build runs several times the instructions).
# Labelled valgrind: not in the sanitizer pass.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
if [ -n "${QQ_SANITIZED:-}" ]; then
    echo "skipped: sanitizer build (ASan and valgrind cannot run together)"; exit 77
fi
command -v valgrind >/dev/null || { echo "skipped: valgrind is not installed (make deps-test installs it)"; exit 77; }
RB="$QQ_BINARY_DIR/tools/qq_readbench"
[ -x "$RB" ] || { echo "skipped: $RB not built"; exit 77; }
type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$QQ_BINARY_DIR/CMakeCache.txt" 2>/dev/null || true)
case "$type" in
    Release | RelWithDebInfo | MinSizeRel) ;;
    *) echo "skipped: build type '$type', not an optimised one"; exit 77 ;;
esac
N=200000
rm -f mix.qq results.qq ./*.out
QQ_OUTPUT="$PWD/results.qq" "$RB" --make $N mix.qq 1 > make.txt
check "qq_readbench made $N events" has make.txt "^mix\.qq: $N events"
# per_event KEY: instructions per event of the state KEY in one round.
per_event() {
    QQ_OUTPUT="$PWD/results.qq" QQ_CALLGRIND_KEY=$1 valgrind -q --tool=callgrind \
        --collect-atstart=no --callgrind-out-file="$PWD/$1.out" "$RB" mix.qq 1 > /dev/null
    awk -v n=$N '$1 == "totals:" { printf "%.1f", $2 / n }' "$1.out"
}
plain=$(per_event read_plain)
chunks=$(per_event read_chunks)
stats=$(per_event read_stats)
echo "instructions per event: plain read $plain, chunk reader $chunks, node stats $stats"
below() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > 0 && a <= b) }'; }
check "the plain read, summing a word an entry: at most 8 an event ($plain)" below "$plain" 8
check "qq_chunks_next, every entry checked and its tick summed: at most 36 an event ($chunks)" \
    below "$chunks" 36
check "qq_file_node_stats, checks, summaries and ticks per hit: at most 40 an event ($stats)" \
    below "$stats" 40
finish
