#!/usr/bin/env bash
# Every C and C++ file the repository tracks is formatted as .clang-format says (clang-format 14, the version it is pinned to; 'make format' rewrites them).
set -euo pipefail
src="${QQ_SOURCE_DIR:?QQ_SOURCE_DIR not set}"
command -v clang-format >/dev/null || { echo "FAIL: clang-format is not installed (make deps-test installs it)"; exit 1; }
major=$(clang-format --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
if [ "$major" != 14 ]; then
    # Another major version formats some constructs differently: the check
    # would report its taste, not a mistake.
    echo "skipped: clang-format $major; .clang-format is pinned to 14"; exit 77
fi
cd "$src"
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "skipped: $src is not a git checkout (the file list comes from git)"; exit 77
fi
bad=0
while IFS= read -r f; do
    if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
        echo "not formatted: $f (make format)"
        bad=$((bad + 1))
    fi
done < <(git ls-files '*.c' '*.h' '*.cc')
echo "$((bad == 0 ? 1 : 0)) passed, $((bad == 0 ? 0 : 1)) failed"
[ "$bad" = 0 ]
