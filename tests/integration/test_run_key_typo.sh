#!/usr/bin/env bash
# A key of `keys:` that no launch of the change build names in the first pass over the benchmark's first group (a typo) stops the run there, exit 2, the error at the misspelt value's line and column with "did you mean", no baseline written, the work folder removed.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf bl tmp ./*.yaml
mkdir tmp
# mk FILE WARMUP KEYS: bench 'fine' (keys: work), then bench 'b' (keys: KEYS),
# 3 repetitions each, WARMUP warmups.
mk() {
    cat > "$1" <<YAML
suite: typo
defaults:
  repetitions: 3
  warmup: $2
benchmarks:
  - name: fine
    kernel: $PLANTED
    keys: [work]
    args: [--reps, "20"]
  - name: b
    kernel: $PLANTED
    keys: $3
    args: [--reps, "20"]
YAML
}
# launches ERR: how many launches the --verbose progress lines name.
launches() { grep -Ec '^qqbench: case .*\(pass [0-9]+, launch [0-9]+/[0-9]+' "$1" || true; }

# typo WHAT FILE AT KEY N: the run of FILE stops with exit 2, the error at
# AT (line:column) naming KEY with "did you mean 'work'", N launches in all,
# no baseline and no work folder left.
typo() {
    TMPDIR=$PWD/tmp qq out.txt err.txt run "$2" --baselines bl --verbose
    check "$1: exit 2 (got $rc)" test "$rc" = 2
    check "$1: the value's file:line:column and did you mean" has err.txt \
        "^${2//./\\.}:$3: error: key '$4' of benchmark 'b' is not in the kernel's file \(did you mean 'work'\?\)$"
    check "$1: one error line" test "$(grep -c 'error:' err.txt)" = 1
    n=$(launches err.txt)
    check "$1: $5 launches (got $n)" test "$n" = "$5"
    check "$1: no baseline written" test ! -e bl
    check "$1: work folder removed" test -z "$(ls -A tmp)"
    [ "$rc" = 2 ] && [ "$n" = "$5" ] || show err.txt
}

# In a list, the second value misspelt (line 12, column 18 is its 'w'):
# in the first of the 3 passes (one round each), 'fine' runs 1 launch and
# 'b' one, where the error stops the run.
mk s.yaml 0 '[work, wrok]'
typo typo s.yaml 12:18 wrok 2
# One quoted name (column 12, past the quote, is its 'W'), found at the
# warmup: 'fine' runs its warmup and first round, 'b' its warmup.
mk w.yaml 1 '"Wrok"'
typo warmup w.yaml 12:12 Wrok 3

# Spelt right: every launch runs and the baseline is written.
mk ok.yaml 0 '[work]'
TMPDIR=$PWD/tmp qq out.txt err.txt run ok.yaml --baselines bl --verbose
check "right key: exit 0 (got $rc)" test "$rc" = 0
n=$(launches err.txt)
check "right key: 6 launches (got $n)" test "$n" = 6
check "right key: baseline written" test -n "$(ls bl/*/typo.yaml 2>/dev/null)"
[ "$rc" = 0 ] || show out.txt err.txt

finish
