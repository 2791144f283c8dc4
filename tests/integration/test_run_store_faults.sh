#!/usr/bin/env bash
# Faults while results are stored: a file-size limit (a full disk) while the baseline is written, two qqbench updating one baseline at once, a baselines folder that cannot be made: the old baseline stays byte-identical, no temporary file is left, the message says why, and nothing is lost silently.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf bl bl2 afile ./*.qq
{
    echo "suite: tiny"
    echo "defaults: {repetitions: 2, warmup: 0}"
    echo "benchmarks:"
    echo "  - name: t"
    echo "    kernel: $PLANTED"
    echo '    args: [--reps, "5"]'
} > tiny.yaml
qq out.txt err.txt run tiny.yaml --baselines bl -q
check "baseline recorded (exit $rc)" test "$rc" = 0
bfile=$(echo bl/*/tiny.yaml)
cp "$bfile" before.yaml

# --- A file-size limit between the kernel's .qq file and the baseline: the
# kernel runs, the baseline write fails with EFBIG (what a full disk gives
# as ENOSPC). prlimit sets RLIMIT_FSIZE on qqbench alone.
QQ_OUTPUT="$PWD/probe.qq" "$PLANTED" --reps 5 >/dev/null
qqsize=$(wc -c < probe.qq)
memsize=$(wc -c < bl/tiny.memory.yaml)
bsize=$(wc -c < "$bfile")
limit=$(( (qqsize > memsize ? qqsize : memsize) + 64 ))
if ! command -v prlimit >/dev/null; then
    echo "note: no prlimit (util-linux): the file-size limit is not tried"
elif [ "$limit" -ge "$bsize" ]; then
    echo "note: the .qq file ($qqsize B) is not smaller than the baseline ($bsize B): limit not tried"
else
    rc=0
    prlimit --fsize="$limit" "$QQBENCH" run tiny.yaml --baselines bl -q --update-baseline \
        >out.txt 2>err.txt || rc=$?
    check "file-size limit: exit 3 (got $rc)" test "$rc" = 3
    check "file-size limit: says why (File too large)" has err.txt 'tiny\.yaml: error: write failed: File too large'
    # The memory did not change since the baseline run: only the timing
    # baseline is written (69f132b), and it is as it was.
    check "file-size limit: says the baseline is as it was" has err.txt 'could not be stored; the baseline is as it was$'
    check "file-size limit: the baseline is byte-identical" cmp -s before.yaml "$bfile"
    check "file-size limit: no temporary file left" test -z "$(find bl -name '*.tmp.*')"
    [ "$fail" = 0 ] || show err.txt
fi

# --- The same limit while the JSON and JUnit reports are written: each is
# written whole or not at all, so the reports of the last run stay as they
# were, no temporary file is left, and the message says why.
qq out.txt err.txt run tiny.yaml --baselines bl -q --no-report --json r.json --junit r.xml
check "reports written (exit $rc)" test "$rc" = 0
cp r.json r_before.json
cp r.xml r_before.xml
jsize=$(wc -c < r.json)
if ! command -v prlimit >/dev/null; then
    echo "note: no prlimit (util-linux): the file-size limit is not tried on reports"
elif [ "$limit" -ge "$jsize" ]; then
    echo "note: the .qq file is not smaller than the JSON report ($jsize B): limit not tried"
else
    rc=0
    prlimit --fsize="$limit" "$QQBENCH" run tiny.yaml --baselines bl -q --no-report \
        --json r.json --junit r.xml >out.txt 2>err.txt || rc=$?
    check "report under a file-size limit: exit 2 (got $rc)" test "$rc" = 2
    check "report under a file-size limit: says why" has err.txt 'r\.json: error: cannot write the JSON report: write failed: File too large'
    check "report under a file-size limit: the JSON report is byte-identical" cmp -s r_before.json r.json
    check "report under a file-size limit: no temporary file left" test -z "$(ls | grep '\.tmp\.')"
    [ "$fail" = 0 ] || show err.txt
fi

# --- Two updates at once: the lock makes the second wait; both runs end up
# in the baseline (it keeps the last 5 runs of each case).
runs_of() { grep -Eo '^  runs: [0-9]+' "$1" | grep -Eo '[0-9]+$' | head -1; }
before_runs=$(runs_of "$bfile")
"$QQBENCH" run tiny.yaml --baselines bl -q --update-baseline >o1.txt 2>e1.txt & p1=$!
"$QQBENCH" run tiny.yaml --baselines bl -q --update-baseline >o2.txt 2>e2.txt & p2=$!
r1=0 r2=0
wait "$p1" || r1=$?
wait "$p2" || r2=$?
check "two updates at once: both exit 0 (got $r1 and $r2)" test "$r1" = 0 -a "$r2" = 0
after_runs=$(runs_of "$bfile")
check "two updates at once: both runs kept ($before_runs -> $after_runs runs)" \
    test "$after_runs" = "$((before_runs + 2))"
check "two updates at once: no temporary file left" test -z "$(find bl -name '*.tmp.*')"

# --- A baselines folder that cannot be made (its parent is a file: as root,
# chmod would not stop us, a path under a file does): exit 3, the reason.
echo x > afile
qq out.txt err.txt run tiny.yaml --baselines afile/bl -q
check "baselines under a file: exit 3 (got $rc)" test "$rc" = 3
check "baselines under a file: says why" has err.txt 'afile/bl: error: cannot create directory: Not a directory'
# An existing baseline that cannot be read (a directory in its place).
mkdir -p bl2/x
fp=$(basename "$(dirname "$bfile")")
mkdir -p "bl2/$fp/tiny.yaml"
qq out.txt err.txt run tiny.yaml --baselines bl2 -q
check "baseline a directory: exit 2 (got $rc)" test "$rc" = 2
check "baseline a directory: says why" has err.txt "tiny\.yaml: error: cannot open the baseline: is a folder, not a regular file"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
