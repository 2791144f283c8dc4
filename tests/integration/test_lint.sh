#!/usr/bin/env bash
# qq/ and harness/ pass clang-tidy (the checked-in .clang-tidy, every exclusion justified there) and cppcheck with the project's options; 'make lint' runs the same script.
set -euo pipefail
src="${QQ_SOURCE_DIR:?QQ_SOURCE_DIR not set}"
bin="${QQ_BINARY_DIR:?QQ_BINARY_DIR not set}"
if [ -n "${QQ_SANITIZED:-}" ]; then
    # The sources are the same in both builds: the plain build's run is the check.
    echo "skipped: sanitizer build (the plain build runs the analysers)"; exit 77
fi
for tool in clang-tidy cppcheck; do
    command -v "$tool" >/dev/null || { echo "FAIL: $tool is not installed (make deps installs it)"; exit 1; }
done
[ -f "$bin/compile_commands.json" ] || { echo "FAIL: no $bin/compile_commands.json (CMake writes it at configure time)"; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
cd "$src"
fail=0
# One file per clang-tidy process, two at a time: the analyser takes about
# 5 CPU-minutes over the whole tree.
if ! printf '%s\0' qq/src/*.c harness/*.c |
        xargs -0 -n 1 -P 2 clang-tidy -p "$bin" --quiet > "$out" 2>&1; then
    fail=1
fi
grep -E '(warning|error):' "$out" || true
if ! cppcheck --error-exitcode=1 --enable=warning,performance,portability --std=c11 \
        --inline-suppr --quiet -D__x86_64__ -DQQ_ENABLE -D_POSIX_C_SOURCE=200809L \
        -Iqq/include -Iqq/src -Iharness qq harness; then
    fail=1
fi
echo "$((fail == 0 ? 1 : 0)) passed, $fail failed"
[ "$fail" = 0 ]
