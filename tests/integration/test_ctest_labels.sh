#!/usr/bin/env bash
# test_ctest_labels.sh - the CTest labels by command and by layer
# (tests/CMakeLists.txt, QQ_AREA_LABELS): every command (harness/cli/cmd_*.c)
# and every layer (harness/CMakeLists.txt, qqb_layer) selects at least one
# test, every test has a label besides its kind, and `ctest -L` selects the
# tests named for a command (test_report under report, test_cli_export
# under export, test_cli_st under '^st$').
set -euo pipefail
src="${QQ_SOURCE_DIR:?QQ_SOURCE_DIR not set}"
bin="${QQ_BINARY_DIR:?QQ_BINARY_DIR not set}"
command -v python3 >/dev/null || { echo "FAIL: python3 is not installed (make deps-test installs it)"; exit 1; }
command -v ctest >/dev/null || { echo "FAIL: no ctest on PATH"; exit 1; }
. "${QQ_TEST_DATA:?QQ_TEST_DATA not set}/run/check.sh"

ctest --test-dir "$bin" --show-only=json-v1 >tests.json 2>ctest.err ||
    { cat ctest.err; echo "FAIL: ctest --show-only=json-v1"; exit 1; }
# The commands: one cmd_*.c each (cmd_profile.c is profile-machine: label profile).
commands=$(cd "$src/harness/cli" && ls cmd_*.c | sed 's/^cmd_//; s/\.c$//')
layers=$(sed -n 's/^qqb_layer(\([a-z]*\).*/\1/p' "$src/harness/CMakeLists.txt")
check "the commands found (at least 10)" test "$(echo "$commands" | wc -w)" -ge 10
check "the layers found (at least 8)" test "$(echo "$layers" | wc -w)" -ge 8

python3 - tests.json $commands $layers >labels.out <<'PY' && rc=0 || rc=$?
import json, sys
kinds = {"unit", "integration", "mpi", "valgrind", "lint", "asan", "tsan"}
tests = {}
for t in json.load(open(sys.argv[1]))["tests"]:
    labels = set()
    for p in t.get("properties", []):
        if p["name"] == "LABELS":
            labels = set(p["value"])
    tests[t["name"]] = labels
bad = 0
for area in sys.argv[2:]:
    n = sum(area in l for l in tests.values())
    print(f"label {area}: {n} tests")
    if n == 0:
        print(f"no test has the label {area}")
        bad = 1
for name, labels in sorted(tests.items()):
    if not labels - kinds:
        print(f"{name} has only kind labels {sorted(labels)}: add a row to QQ_AREA_LABELS")
        bad = 1
sys.exit(bad)
PY
cat labels.out
check "every command and layer labels a test, every test has an area label" test "$rc" = 0

# selects LABEL_REGEX TEST...: ctest -L selects every TEST named.
selects() {
    local re="$1" t; shift
    ctest --test-dir "$bin" -N -L "$re" | awk '/Test +#/ { print $3 }' >sel.txt
    for t in "$@"; do
        grep -qx -- "$t" sel.txt || { echo "ctest -L '$re' does not select $t"; return 1; }
    done
}
check "ctest -L report selects test_report, test_run_json and test_plot" selects report test_report test_run_json test_plot
check "ctest -L report selects no test of view" bash -c '! grep -q "^test_view" sel.txt'
check "ctest -L export selects test_cli_export" selects export test_cli_export
check "ctest -L '^st\$' selects test_cli_st" selects '^st$' test_cli_st
check "ctest -L '^st\$' selects neither stats' nor store's tests" bash -c '! grep -qxE "test_stats|test_baseline" sel.txt'
check "ctest -L judge selects test_judge and test_history" selects judge test_judge test_history
check "ctest -L ci selects test_ci_end_to_end" selects '^ci$' test_ci_end_to_end
finish
