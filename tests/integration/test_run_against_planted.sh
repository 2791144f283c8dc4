#!/usr/bin/env bash
# --against with the default settings: a planted +3% in the change build is regressed vs the reference build in 10 of 10 runs, a planted +0.3% in none.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf chg ref bl ./*.txt
# The change build's kernels: planted with 3% (p3) and 0.3% (p03) more work;
# the reference build's: planted as it is, at the same relative paths.
mkdir -p chg/p3 chg/p03 ref/p3 ref/p03
printf '#!/bin/sh\nexec "%s" "$@" --extra 30\n' "$PLANTED" > chg/p3/planted
printf '#!/bin/sh\nexec "%s" "$@" --extra 3\n' "$PLANTED" > chg/p03/planted
chmod +x chg/p3/planted chg/p03/planted
ln -s "$PLANTED" ref/p3/planted
ln -s "$PLANTED" ref/p03/planted
# No defaults: repetitions 10, threshold 2%, as shipped (docs/SUITE.md).
cat > planted.yaml <<YAML
suite: planted_against
benchmarks:
  - name: plus3
    kernel: chg/p3/planted
  - name: plus03
    kernel: chg/p03/planted
YAML
for try in $(seq 1 10); do
    qq out.txt err.txt run planted.yaml --kernels chg --against ref --baselines bl --quiet
    l3=$(grep -E '^plus3@1 +work .*vs reference build' out.txt | tail -1 || true)
    l03=$(grep -E '^plus03@1 +work .*vs reference build' out.txt | tail -1 || true)
    echo "try $try (exit $rc): +3%:   $l3"
    echo "try $try (exit $rc): +0.3%: $l03"
    check "try $try: +3% regressed vs reference build" test -n "$(echo "$l3" | grep ' regressed vs reference build')"
    check "try $try: +0.3% not regressed" test -z "$(echo "$l03" | grep ' regressed vs reference build')"
    check "try $try: exit 1 (got $rc)" test "$rc" = 1
    rm -rf bl # each try as a CI job: no stored baseline
done
finish
