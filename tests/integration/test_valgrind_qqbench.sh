#!/usr/bin/env bash
# qqbench itself under valgrind memcheck: st, compare, view/export and a small run (serial kernels) with no invalid access and no definite leak.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
if [ -n "${QQ_SANITIZED:-}" ]; then
    echo "skipped: sanitizer build (ASan and valgrind cannot run together; the plain build runs this)"; exit 77
fi
command -v valgrind >/dev/null || { echo "FAIL: valgrind is not installed (make deps-test installs it)"; exit 1; }
KD="${QQ_KERNEL_DIR:?}"
vg() { valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
          --trace-children=no "$QQBENCH" "$@"; }
QQ_OUTPUT="$PWD/a.qq" "$KD/channel" --steps 100
QQ_OUTPUT="$PWD/b.qq" "$KD/channel" --steps 100 --variant direct
QQ_OUTPUT="$PWD/m.qq" "$KD/brain" --steps 5
rc=0; vg st a.qq m.qq > st.out 2> st.err || rc=$?
check "st under valgrind: clean (got $rc)" test "$rc" = 0
rc=0; vg compare --all a.qq b.qq > cmp.out 2> cmp.err || rc=$?
check "compare under valgrind: clean (got $rc)" test "$rc" = 0
rc=0; vg export a.qq --format csv --out a.csv > exp.out 2> exp.err || rc=$?
check "export under valgrind: clean (got $rc)" test "$rc" = 0
rc=0; vg st /nonexistent.qq > bad.out 2> bad.err || rc=$?
check "st of a missing file under valgrind: exit 2, not 99 (got $rc)" test "$rc" = 2
rm -rf bl
cat > s.yaml <<YAML
suite: vg
defaults:
  repetitions: 2
  warmup: 0
benchmarks:
  - name: chain
    kernel: $KD/chain
    args: [--steps, "200"]
    variants:
      a: [--ops, "0"]
      b: [--ops, "10"]
  - name: brain
    kernel: $KD/brain
    args: [--steps, "3"]
YAML
for run in 1 2; do
    rc=0; vg run s.yaml --baselines bl --no-report -q --json r$run.json > run$run.out 2> run$run.err || rc=$?
    check "run $run under valgrind: clean (got $rc)" test "$rc" = 0
done
rc=0; vg report r2.json --out rep --no-plot > rep.out 2> rep.err || rc=$?
check "report under valgrind: clean (got $rc)" test "$rc" = 0
[ "$fail" = 0 ] || show st.err cmp.err exp.err run1.err run2.err rep.err
finish
