#!/usr/bin/env bash
# history holds snapshots to their paths as run holds baselines: a snapshot whose suite or label disagrees with its file name is skipped with a warning naming it (history showed it, and read another file twice); --record refuses a label outside the names rule (a/b and a_b were one snapshot); two benchmarks whose file-safe names meet (p.x and p_x) keep their own pictures.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf bl rep
cat > s.yaml <<YAML
suite: hp
defaults:
  repetitions: 2
  warmup: 0
benchmarks:
  - name: p.x
    kernel: $PLANTED
    args: [--work, "1000", --reps, "20"]
  - name: p_x
    kernel: $PLANTED
    args: [--work, "2000", --reps, "20"]
YAML
qq out.txt err.txt run s.yaml --baselines bl --record v1 --report rep -q
check "records v1 (exit $rc)" test "$rc" = 0
snap=$(ls bl/*/history/hp@v1.yaml)
hdir=$(dirname "$snap")
sed 's/^suite: hp$/suite: other/' "$snap" > "$hdir/hp@v2.yaml"
sed 's/^label: v1$/label: zz/' "$snap" > "$hdir/hp@v3.yaml"
qq h.out h.err history s.yaml --baselines bl
check "history exits 0 (got $rc)" test "$rc" = 0
check "a snapshot whose suite disagrees: named, skipped" has h.err "hp@v2\.yaml:3:8: error: suite 'other' disagrees with the path"
check "a snapshot whose label disagrees: named, skipped" has h.err "hp@v3\.yaml: error: label 'zz' disagrees with the file name, which is for label 'v3'"
check "one snapshot counted" has h.out '^Suite hp: 1 snapshot under bl$'
check "no row twice" test "$(grep -c '^    v1 ' h.out)" = "$(grep -c '^p[._]x@1 ' h.out)"

qq r.out r.err run s.yaml --baselines bl --record a/b -q
check "--record a/b: exit 2 (got $rc)" test "$rc" = 2
check "--record a/b: says why" has r.err "^qqbench run: error: --record 'a/b' has the byte 0x2f at 2; expected 1 to 128 letters"
check "no snapshot a_b written" test -z "$(ls "$hdir" | grep 'a_b' || true)"

if command -v gnuplot >/dev/null; then
    check "p.x and p_x: two samples pictures" test -s rep/samples-p_x.png -a -s rep/samples-p_x-2.png
    check "index.html ids are distinct" test "$(grep -o 'id="[^"]*"' rep/index.html | sort | uniq -d | wc -l)" = 0
fi
[ "$fail" = 0 ] || show h.out h.err r.err
finish
