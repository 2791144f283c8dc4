#!/usr/bin/env bash
# Output that cannot be written is not a result: st, compare, whatif, history, model, export to stdout, --help and --version into a full device (/dev/full) exit 3 with one line on stderr, not 0 with the verdicts lost.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
[ -w /dev/full ] || { echo "FAIL: /dev/full is not writable here (a Linux device every test machine has)"; exit 1; }
QQ_OUTPUT="$PWD/a.qq" "$PLANTED" --work 1000 --reps 20 > /dev/null
QQ_OUTPUT="$PWD/b.qq" "$PLANTED" --work 1000 --reps 20 --extra 3 > /dev/null
full() {
    local what="$1"; shift
    rc=0
    "$QQBENCH" "$@" > /dev/full 2> full.err || rc=$?
    check "$what into /dev/full: exit 3 (got $rc)" test "$rc" = 3
    check "$what: says the output could not be written" has full.err '^qqbench: error: cannot write the output: No space left on device$'
}
full "st" st a.qq
full "compare" compare a.qq b.qq
rc=0; "$QQBENCH" export a.qq --format csv > /dev/full 2> full.err || rc=$?
check "export to a full standard output: exit 3 (got $rc)" test "$rc" = 3
check "export says so" has full.err '^qqbench export: error: cannot write standard output: No space left on device$'
full "--help" --help
full "--version" --version
full "st --help" st --help
# run: the verdict table lost is a run not reported.
planted_suite s.yaml full '--work, "1000", --reps, "20"'
rm -rf bl
rc=0; "$QQBENCH" run s.yaml --baselines bl --no-report > /dev/full 2> run.err || rc=$?
check "run into /dev/full: exit 3 (got $rc)" test "$rc" = 3
check "run: says the output could not be written" has run.err '^qqbench: error: cannot write the output: No space left on device$'
# --out onto a full device: the Chrome trace's writer says it could not
# write (it said "out of memory (or a name that is not UTF-8)"), exit 3.
for fmt in chrome csv; do
    qq x.out x.err export a.qq --format $fmt --out /dev/full
    check "export --format $fmt --out /dev/full: exit 3 (got $rc)" test "$rc" = 3
    check "export --format $fmt: cannot write /dev/full" has x.err '^qqbench export: error: cannot write /dev/full: No space left on device$'
done
# The same commands to a plain file: exit 0, as before.
qq ok.out ok.err st a.qq
check "st to a file: exit 0 (got $rc)" test "$rc" = 0
# A usage error keeps its 2 even when its output is lost.
rc=0; "$QQBENCH" st > /dev/full 2> usage.err || rc=$?
check "a usage error into /dev/full keeps exit 2 (got $rc)" test "$rc" = 2
finish
