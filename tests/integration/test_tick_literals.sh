#!/usr/bin/env bash
# No test knows this machine's speed (tests/README.md): tools/check-tick-literals passes the tree, and finds a literal tick figure planted next to a real kernel launch, naming its line; a crafted file's exact figure said so on its line passes.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
chk="$QQ_SOURCE_DIR/tools/check-tick-literals"
rc=0; QQ_SOURCE_DIR="$QQ_SOURCE_DIR" python3 "$chk" > tree.out 2>&1 || rc=$?
check "the tree's tests hold no literal tick figure next to a kernel launch (exit $rc)" test "$rc" = 0
# The shape test_run_plan had: a recorded baseline rewritten to literal ticks, then run
# (the figures put together here, so that this file holds none itself).
a=5000 b=5150 c=4850 lim=6000
cat > planted.sh <<SH
planted_suite p.yaml plan '"--work", "2000"' '    repetitions: 3'
record3 p.yaml --baselines bl --no-report
python3 - "\$f" <<'PY'
s = s.replace("samples: [1]", "samples: [$a, $b, $c]")
PY
qq out.txt err.txt run p.yaml --baselines bl --no-report
check "median" sh -c 'test "\$(jq .cases[0].metrics[0].median all.json)" -lt $lim'
SH
rc=0; python3 "$chk" planted.sh > p.out 2>&1 || rc=$?
check "a planted literal: exit 1 (got $rc)" test "$rc" = 1
check "names the samples line" has p.out '^planted.sh:4: error: a literal figure'
check "and the compared median" has p.out '^planted.sh:7: error: a literal figure'
# The same figures in a file that launches nothing are a crafted file's: not flagged.
grep -v -e planted_suite -e record3 -e '^qq ' planted.sh > nolaunch.sh
rc=0; python3 "$chk" nolaunch.sh > n.out 2>&1 || rc=$?
check "no launch, no finding (exit $rc)" test "$rc" = 0
# A crafted figure said so on its line passes.
sed "s/samples: \[$a, $b, $c\]\")/&  # crafted: exact/" planted.sh | grep -v median > crafted.sh
rc=0; python3 "$chk" crafted.sh > c.out 2>&1 || rc=$?
check "said crafted on its line: exit 0 (got $rc)" test "$rc" = 0
[ "$fail" = 0 ] || show tree.out p.out n.out c.out
finish
