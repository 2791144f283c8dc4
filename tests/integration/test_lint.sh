#!/usr/bin/env bash
# qq/ and harness/ pass clang-tidy (the checked-in .clang-tidy, every exclusion justified there) and cppcheck with the project's options; 'make lint' runs the same script.
# test_lint.sh                      both analysers over qq/src/*.c harness/*.c ('make lint')
# test_lint.sh clang-tidy FILE...   clang-tidy on those files (paths from the source folder)
# test_lint.sh cppcheck             cppcheck over qq/ and harness/
# CTest runs clang-tidy as one test per file and cppcheck as one more
# (tests/cmake/lint.cmake), so ctest -j spreads them over the cores.
set -euo pipefail
src="${QQ_SOURCE_DIR:?QQ_SOURCE_DIR not set}"
bin="${QQ_BINARY_DIR:?QQ_BINARY_DIR not set}"
if [ -n "${QQ_SANITIZED:-}" ]; then
    # The sources are the same in both builds: the plain build's run is the check.
    echo "skipped: sanitizer build (the plain build runs the analysers)"; exit 77
fi
what="${1:-all}"
[ $# = 0 ] || shift
case $what in
all) tools="clang-tidy cppcheck" ;;
clang-tidy) tools=clang-tidy; [ $# -gt 0 ] || { echo "FAIL: clang-tidy: no file given"; exit 1; } ;;
cppcheck) tools=cppcheck ;;
*) echo "FAIL: unknown analyser '$what' (clang-tidy or cppcheck)"; exit 1 ;;
esac
for tool in $tools; do
    command -v "$tool" >/dev/null || { echo "FAIL: $tool is not installed (make deps installs it)"; exit 1; }
done
out=$(mktemp)
trap 'rm -f "$out"' EXIT
cd "$src"
fail=0
if [ "$tools" != cppcheck ]; then
    [ -f "$bin/compile_commands.json" ] || { echo "FAIL: no $bin/compile_commands.json (CMake writes it at configure time)"; exit 1; }
    if [ $# = 0 ]; then
        set -- qq/src/*.c harness/*.c
    fi
    for f in "$@"; do
        [ -f "$f" ] || { echo "FAIL: clang-tidy: no file $f in $src"; exit 1; }
    done
    # One file per clang-tidy process, two at a time: the analyser takes about
    # 3 CPU-minutes over the whole tree, nearly all of it in the
    # path-sensitive clang-analyzer checks.
    if ! printf '%s\0' "$@" |
            xargs -0 -n 1 -P 2 clang-tidy -p "$bin" --quiet > "$out" 2>&1; then
        fail=1
    fi
    grep -E '(warning|error):' "$out" || true
fi
if [ "$tools" != clang-tidy ]; then
    if ! cppcheck --error-exitcode=1 --enable=warning,performance,portability --std=c11 \
            --inline-suppr --quiet -D__x86_64__ -DQQ_ENABLE -D_POSIX_C_SOURCE=200809L \
            -Iqq/include -Iqq/src -Iharness qq harness; then
        fail=1
    fi
fi
echo "$((fail == 0 ? 1 : 0)) passed, $fail failed"
[ "$fail" = 0 ]
