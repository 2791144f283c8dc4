#!/usr/bin/env bash
# qq/ and harness/ pass clang-tidy (the checked-in .clang-tidy, every exclusion justified there) and cppcheck with the project's options; 'make lint' runs it per file, through CTest's lint tests.
# test_lint.sh                      both analysers over qq/src/*.c harness/*/*.c (the lint tests run one file each)
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
    command -v "$tool" >/dev/null || { echo "FAIL: $tool is not installed (make deps-test installs it)"; exit 1; }
done
out=$(mktemp)
trap 'rm -f "$out"' EXIT
cd "$src"
fail=0
if [ "$tools" != cppcheck ]; then
    [ -f "$bin/compile_commands.json" ] || { echo "FAIL: no $bin/compile_commands.json (CMake writes it at configure time)"; exit 1; }
    if [ $# = 0 ]; then
        set -- qq/src/*.c $(ls harness/*/*.c | grep -v '^harness/mpi/')
    fi
    for f in "$@"; do
        [ -f "$f" ] || { echo "FAIL: clang-tidy: no file $f in $src"; exit 1; }
    done
    command -v python3 >/dev/null || { echo "FAIL: python3 is not installed (make deps-test installs it)"; exit 1; }
    # clang-tidy analyses a file once per entry of the compile database, and
    # libqq's sources are compiled two or three times (libqq, libqq-mpi,
    # the TSan object of qq_mem.c). An entry whose preprocessed text equals
    # another's is the same input to the analysers: keep one of each.
    db=$(mktemp -d)
    trap 'rm -f "$out"; rm -rf "$db"' EXIT
    python3 - "$bin/compile_commands.json" "$db/compile_commands.json" "$@" <<'PY'
import hashlib, json, os, shlex, subprocess, sys
entries = json.load(open(sys.argv[1]))
wanted = {os.path.realpath(f) for f in sys.argv[3:]}
keep, seen = [], set()
for e in entries:
    f = os.path.realpath(os.path.join(e["directory"], e["file"]))
    if f not in wanted:
        continue
    argv = e["arguments"] if "arguments" in e else shlex.split(e["command"])
    cpp, skip = [], False
    for a in argv:
        if skip:
            skip = False
        elif a == "-o":
            skip = True
        elif a != "-c":
            cpp.append(a)
    r = subprocess.run(cpp + ["-E", "-P"], cwd=e["directory"], capture_output=True)
    key = (f, hashlib.sha256(r.stdout).hexdigest() if r.returncode == 0 else e["command"])
    if key not in seen:
        seen.add(key)
        keep.append(e)
json.dump(keep, open(sys.argv[2], "w"), indent=1)
PY
    # One file per clang-tidy process, two at a time: the analyser takes about
    # 3 CPU-minutes over the whole tree, nearly all of it in the
    # path-sensitive clang-analyzer checks.
    if ! printf '%s\0' "$@" |
            xargs -0 -n 1 -P 2 clang-tidy -p "$db" --quiet > "$out" 2>&1; then
        fail=1
    fi
    grep -E '(warning|error):' "$out" || true
fi
if [ "$tools" != clang-tidy ]; then
    if ! cppcheck --error-exitcode=1 --enable=warning,performance,portability --std=c11 \
            --inline-suppr --quiet -D__x86_64__ -DQQ_ENABLE -D_POSIX_C_SOURCE=200809L \
            -Iqq/include -Iqq/src $(for d in harness/*/; do printf -- '-I%s ' "${d%/}"; done) qq harness; then
        fail=1
    fi
fi
echo "$((fail == 0 ? 1 : 0)) passed, $fail failed"
[ "$fail" = 0 ]
