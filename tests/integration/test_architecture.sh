#!/usr/bin/env bash
# docs/ARCHITECTURE.md tells the truth (tools/check-architecture): every file,
# folder and name it gives exists in the tree, and its step lists of `qqbench
# run` and `qqbench ci` are the ones qqb_run (harness/run/pipeline.c) and
# qqb_ci (harness/run/ci.c) call, in order. Then the
# checker, on a copy, finds a renamed function, a file that is gone, a step
# left out (of either list) and a step the code calls by another name.
set -euo pipefail
command -v python3 >/dev/null || { echo "FAIL: python3 is not installed (make deps-test installs it)"; exit 1; }
pass=0 fail=0
check() { if "${@:2}"; then pass=$((pass + 1)); echo "ok   $1"; else fail=$((fail + 1)); echo "FAIL $1"; fi; }
has() { grep -Eq -- "$2" "$1"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
src="${QQ_SOURCE_DIR:?QQ_SOURCE_DIR not set}"
tool="$src/tools/check-architecture"
rc=0
"$tool" "$src" > today.txt 2>&1 || rc=$?
check "today's ARCHITECTURE.md holds (exit $rc: $(head -1 today.txt))" test "$rc" = 0

# A copy of the checked files, changed one way at a time.
plant() { # NAME SED-ON-ARCHITECTURE.md [SED-ON-pipeline.c]
    # The tree as symbolic links (cp -s), but for the two files changed.
    rm -rf copy && mkdir -p copy/docs
    cp -rs "$src/harness" "$src/qq" "$src/cmake" "$src/kernels" "$src/tests" "$src/tools" copy/
    rm copy/harness/run/pipeline.c
    cp "$src/harness/run/pipeline.c" copy/harness/run/
    cp "$src/docs/ARCHITECTURE.md" copy/docs/
    sed -i "$2" copy/docs/ARCHITECTURE.md
    [ -z "${3:-}" ] || sed -i "$3" copy/harness/run/pipeline.c
    rc=0
    "$tool" copy > "$1.txt" 2>&1 || rc=$?
}
plant renamed 's/qqb_run_exit_code/qqb_run_exit_cod/'
check "a renamed function is found (exit $rc)" test "$rc" = 1
check "  and named with its line" has renamed.txt '^ARCHITECTURE.md:[0-9]+: names `qqb_run_exit_cod`'
plant gone 's/`gate.c`/`gates.c`/'
check "a file that is gone is found (exit $rc)" test "$rc" = 1
check "  and named" has gone.txt 'names `gates.c`, which is no file'
plant left_out '/^  step_builds /d'
check "a step left out of the list is found (exit $rc)" test "$rc" = 1
check "  the list and the code's order both said" has left_out.txt 'qqb_run calls step_inputs step_plan step_baselines step_builds'
plant ci_left_out '/^  step_checkout /d'
check "a step left out of ci's list is found (exit $rc)" test "$rc" = 1
check "  against qqb_ci's calls" has ci_left_out.txt 'qqb_ci calls step_inputs step_folder step_kernels step_checkout step_build'
plant renamed_step '' 's/step_judge(&r) == 0 \&\&/step_judge_x(\&r) == 0 \&\&/'
check "a step the code calls differently is found (exit $rc)" test "$rc" = 1
plant nothing ''
check "an unchanged copy holds (exit $rc)" test "$rc" = 0
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
