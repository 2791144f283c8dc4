#!/usr/bin/env bash
# qqbench run progress: plain lines when stderr is not a terminal, a rewritten line on a terminal, none with --quiet, a line per launch with --verbose.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf bl
cat > prog.yaml <<YAML
suite: progress
defaults:
  repetitions: 3
  warmup: 1
benchmarks:
  - name: p
    kernel: $PLANTED
    variants:
      a: []
      b: [--extra, "10"]
YAML
launches=8   # 2 variants x (1 warmup + 3 repetitions); a case reports its 3 measured ones
qq out.txt err.txt run prog.yaml --baselines bl
check "first run: exit 0 (got $rc)" test "$rc" = 0

# Not a terminal: plain lines, no carriage returns or escapes.
qq out.txt err.txt run prog.yaml --baselines bl
check "plain: exit 0 or 1 (got $rc)" test "$rc" = 0 -o "$rc" = 1
check "plain: the suite line" has err.txt "^qqbench: suite 'progress': $launches launches on "
check "plain: a line per case" test "$(grep -cE '^qqbench: p\[(a|b)\]@1: 3 launches \(' err.txt)" = 2
check "plain: no carriage return" bash -c "! grep -q \$'\\r' err.txt"
check "plain: no escape sequences" bash -c "! grep -q \$'\\033' err.txt"
check "plain: the table goes to stdout" has out.txt '^qqbench: 2 cases in '
check "plain: no table on stderr" hasnt err.txt '^Against the baseline'

# --quiet: no progress at all.
qq out.txt err.txt run prog.yaml --baselines bl --quiet
check "--quiet: exit 0 or 1 (got $rc)" test "$rc" = 0 -o "$rc" = 1
check "--quiet: no progress lines" hasnt err.txt 'launches|^\['
check "--quiet: the table is still printed" has out.txt '^qqbench: 2 cases in '
qq out.txt err.txt run prog.yaml --baselines bl -q
check "-q: no progress lines" hasnt err.txt 'launches|^\['

# --verbose: a line per launch (naming the case, warmup or rep, and the
# launch count out of the total).
qq out.txt err.txt run prog.yaml --baselines bl --verbose
check "--verbose: exit 0 or 1 (got $rc)" test "$rc" = 0 -o "$rc" = 1
n=$(grep -cE 'p\[(a|b)\]@1,? (warmup|rep) [0-9]+/[0-9]+.*[0-9]+/'"$launches"'' err.txt || true)
check "--verbose: a line per launch ($n of $launches)" test "$n" = "$launches"
check "--verbose: warmups are named" test "$(grep -cE 'p\[(a|b)\]@1,? warmup 1/1' err.txt)" = 2
check "--verbose: counts up to $launches/$launches" has err.txt "[^0-9]$launches/$launches[^0-9]"
check "--verbose: plain lines" bash -c "! grep -q \$'\\r' err.txt"
qq out.txt err.txt run prog.yaml --baselines bl -v
check "-v: a line per launch" test "$(grep -cE 'p\[(a|b)\]@1,? (warmup|rep) [0-9]+/[0-9]+' err.txt)" = "$launches"

# A terminal: the progress line is rewritten in place (\r and erase-line).
if command -v script >/dev/null && script -qec true /dev/null >/dev/null 2>&1; then
    rc=0
    script -qec "'$QQBENCH' run prog.yaml --baselines bl 2>tty.err >tty.out; echo \$? > tty.rc; '$QQBENCH' run prog.yaml --baselines bl > tty2.out" tty.log > /dev/null 2>&1 </dev/null || rc=$?
    # stderr to a file inside the terminal is not a terminal: plain lines.
    check "terminal, stderr to a file: plain lines" test "$(grep -cE '^qqbench: p\[(a|b)\]@1: 3 launches' tty.err)" = 2
    check "terminal: the progress line is rewritten (CR, erase line)" bash -c "grep -q \$'\\r\\033\\[K[^\\r]*p\\[a\\]@1' tty.log"
    check "terminal: counts up to $launches/$launches" bash -c "grep -qE '[^0-9]$launches/$launches[^0-9]' tty.log"
    check "terminal: no plain per-case lines" bash -c "! grep -qE '^qqbench: p\\[(a|b)\\]@1: 3 launches' tty.log"
    check "terminal: the table is printed" has tty2.out '^qqbench: 2 cases in '
else
    echo "note: no usable 'script' (util-linux): the terminal check is not run"
fi
# More rounds for a comparison still noisy: the line names the case as the
# verdict table does. Each build's kernel alternates between the planted
# work and +30% (a counter file of its own), out of step: round by round
# the change build is +30% slower, then the reference is, so the pair
# ratios alternate about +30% and -23%. Their mean, trimmed or not, is
# near 0 and their spread near 26% a pair: at 20 pairs the interval
# reaches about 20% to each side and straddles the 2% threshold, whatever
# the machine's noise (far below that). (Until the A/B test became the
# trimmed mean's t, the reference was the plain kernel and the pairs
# +0% or +30%: a median's interval straddled, a mean's does not: the
# change build was +15% on average, which the t test rightly decides.)
rm -rf nchg nref count count.ref
mkdir nchg nref
cat > nchg/n <<SH
#!/bin/sh
c=\$(cat "$PWD/count" 2>/dev/null || echo 0); echo \$((c + 1)) > "$PWD/count"
if [ \$((c % 2)) = 0 ]; then exec "$PLANTED" "\$@"; else exec "$PLANTED" "\$@" --extra 300; fi
SH
cat > nref/n <<SH
#!/bin/sh
c=\$(cat "$PWD/count.ref" 2>/dev/null || echo 0); echo \$((c + 1)) > "$PWD/count.ref"
if [ \$((c % 2)) = 1 ]; then exec "$PLANTED" "\$@"; else exec "$PLANTED" "\$@" --extra 300; fi
SH
chmod +x nchg/n nref/n
printf 'suite: noisy\ndefaults:\n  repetitions: 10\n  warmup: 0\nbenchmarks:\n  - name: n\n    kernel: n\n' > noisy.yaml
qq out.txt err.txt run noisy.yaml --kernels nchg --against nref --baselines bl --max-repetitions 20 --no-report
check "noisy: exit 0 (got $rc)" test "$rc" = 0
check "noisy: more rounds, the case named" has err.txt '^qqbench: n@1 vs reference build: still noisy after 10 rounds: 10 more$'
check "noisy: measured 20 rounds" has err.txt '^qqbench: n@1: 20 launches'
[ "$fail" = 0 ] || show out.txt err.txt
finish
