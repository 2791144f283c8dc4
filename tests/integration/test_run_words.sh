#!/usr/bin/env bash
# Words of qqbench run (issue 36, item 5): a count says its noun once ("1 case", "1 launch",
# not "1 cases"); --update-baseline --memory-only over a timing baseline does not say there is
# none (its table and summary say timing is not compared because of --memory-only); the run figure's line says in plain words what the machine reference is and what it did;
# run --help says one true thing of re-measuring.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf baselines ./*.txt record3.log
planted_suite one.yaml one '"--work", "2000"'
check "three runs recorded" record3 one.yaml --no-report

# A 1-case run: the summary says "1 case", the kernel failures "0 kernel failures".
qq out.txt err.txt run one.yaml --no-report
check "run against 3 runs: exit 0 or 1 (got $rc)" test "$rc" = 0 -o "$rc" = 1
check "the summary says '1 case in'" has out.txt '^qqbench: 1 case in [0-9.]+ s; '
check "never '1 cases'" hasnt out.txt '\b1 cases\b'
check "'0 kernel failures'" has out.txt '; 0 kernel failures$'

# The run figure in plain words: what the reference is and what dividing by it does, not
# "spread 0.08x as much per machine reference as measured".
check "the run figure's line says how timing was judged" \
    has out.txt "^Timing judged (as measured|per machine reference): .*qqbench's own loop timed just before"
check "the run figure's line says what the baseline's runs did" \
    has out.txt "the baseline's runs vary [0-9.]+ times (less|more)"
check "not the opaque line" hasnt out.txt 'spread [0-9.]+x as much'
check "no '1 rows'" hasnt out.txt '\b1 rows\b'
[ "$fail" = 0 ] || show out.txt

# --memory-only over a 3-run timing baseline: one launch, said as such, and no claim that the
# timing baseline is missing.
qq mem.txt memerr.txt run one.yaml --update-baseline --memory-only --no-report
check "--memory-only: exit 0 (got $rc)" test "$rc" = 0
check "--memory-only says timing is not compared" has mem.txt '^--memory-only: timing is not compared'
check "--memory-only does not say 'no timing baseline' while one exists" \
    hasnt mem.txt 'no timing baseline'
check "--memory-only: the measured table says why timing is not compared" \
    has mem.txt '^Measured \(timing not compared: --memory-only\)'
check "--memory-only: the table does not say there is no baseline" hasnt mem.txt 'with a baseline: none'
check "--memory-only: the summary says why timing is not compared" \
    has mem.txt '; vs baseline: timing not compared \(--memory-only\);'
check "the baseline exists (3 runs)" test -s "baselines/$(ls baselines | grep -v '\.yaml$' | head -1)/one.yaml"
check "the launch count says '1 launch'" has memerr.txt "^qqbench: suite 'one': 1 launch on "
check "never '1 launches'" hasnt memerr.txt '\b1 launches\b'
[ "$fail" = 0 ] || show mem.txt memerr.txt

# --keep-runs 1: "keeps the last 1 run".
qq keep.txt keeperr.txt run one.yaml --update-baseline --keep-runs 1 --no-report
check "--keep-runs 1: exit 0 (got $rc)" test "$rc" = 0
check "'keeps the last 1 run'" has keeperr.txt 'keeps the last 1 run\)$'

# run --help: a regression is not measured again (--no-confirm is accepted and ignored), and
# the help says so once, not both ways.
qq help.txt helperr.txt run --help
check "run --help: exit 0" test "$rc" = 0
check "run --help never says a regression is measured again before it counts" \
    hasnt help.txt 'regression is measured$|^again before it counts'
check "run --help says a verdict is final" has help.txt 'a regression is not measured again'
check "--no-confirm is still accepted" has help.txt '--no-confirm +accepted and ignored'

# The README's --update-baseline line (and the one after it) says that a stored baseline gates
# timing only from 3 runs on (QQB_MIN_BASE_RUNS): a newcomer's first two runs gate no timing.
README="$QQ_TEST_DATA/../../README.md"
check "README: the --update-baseline line says timing is gated only from 3 runs on" \
    bash -c "grep -A1 -E '^ +qqbench run [^ ]+ --update-baseline +#' '$README' | grep -q 'timing only from 3 runs on'"
finish
