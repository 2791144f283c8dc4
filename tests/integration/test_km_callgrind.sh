#!/usr/bin/env bash
# The Km line's one-line change (pow -> direct) in instructions: callgrind counts fewer for direct, for the line alone (km_count) and in channel's step.
#
# Instruction counts are what no machine's speed, load or counter changes, so this is what `make
# test` keeps of tools/km_compare.sh. The timed comparison with Google Benchmark (on one AMD guest
# its dependent loop was bimodal from round to round, 14-51 standard uncertainties apart) is a
# benchmark: `make bench` runs it and prints the figures (docs/PERFORMANCE.md). qqbench's Km delta
# against the kernel's own bulk timing in the same launches is test_run_attribution; its sign and
# size (direct more than 50% cheaper) test_run_pow_direct.
#
# Only the sign is asserted: how many instructions glibc's pow takes depends on the implementation
# glibc picks for the CPU valgrind simulates (132 more a line on the machines measured), but a
# call to pow for a general exponent is never fewer instructions than one multiplication.
# Labelled valgrind: not in the sanitizer pass (valgrind cannot run ASan's shadow memory).
set -euo pipefail
B="${QQ_BINARY_DIR:?QQ_BINARY_DIR not set (run through ctest)}"
S="${QQ_SOURCE_DIR:?QQ_SOURCE_DIR not set}"
command -v valgrind >/dev/null || { echo "SKIP: valgrind not installed (make deps-test installs it)"; exit 77; }
command -v python3 >/dev/null || { echo "FAIL: python3 is needed to read the counts (make deps-test installs it)"; exit 1; }
pass=0 fail=0
check() { local what="$1"; shift; if "$@"; then pass=$((pass + 1)); echo "ok   $what"
          else fail=$((fail + 1)); echo "FAIL $what"; fi; }

KM_CG_REPS=10000 KM_STEPS=200 KM_WORK="$PWD/work" \
    bash "$S/tools/km_compare.sh" "$B" --callgrind-only --json cg.json > cg.txt 2>&1 ||
    { cat cg.txt; echo "FAIL km_compare.sh --callgrind-only"; exit 1; }
cat cg.txt
for row in "callgrind, km_count (per repetition)" "callgrind, channel step (per Km line)"; do
    read -r p d < <(python3 - "$row" <<'PY'
import json, sys
r = [x for x in json.load(open("cg.json"))["rows"] if x["measure"] == sys.argv[1]]
print("%s %s" % ((r[0]["pow"]["median"], r[0]["direct"]["median"]) if r else ("none", "none")))
PY
)
    check "$row: pow $p instructions, direct $d: direct fewer" \
        python3 -c 'import sys; p, d = sys.argv[1:]; sys.exit(0 if p != "none" and 0 < float(d) < float(p) else 1)' "$p" "$d"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
