#!/usr/bin/env bash
# The simulated tables of docs/STATISTICS.md and docs/MODELS.md are what the simulations of the judge that runs print (tools/stat-tables --check, on the output test_judge_runs and test_model kept in their folders: a CTest fixture runs them first), and the tool finds a table edited by hand.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
root="$QQ_TEST_DATA/../.."
build="$(dirname "$(dirname "$QQBENCH")")"
qqcheck() { rc=0; "$1" --check "${@:3}" "$build" > "$2" 2>&1 || rc=$?; }
# What the two simulations printed in this ctest run (tests/CMakeLists.txt).
sims=sims.txt
: > "$sims"
for t in test_judge_runs test_model; do
    out="../$t/sim-out.txt"
    check "$t kept its output" test -s "$out"
    [ -s "$out" ] && cat "$out" >> "$sims"
done
check "the simulations' lines hold tables" grep -q '^TABLE sim17 |' "$sims"
qqcheck "$root/tools/stat-tables" st.txt --from "$sims"
check "the docs' tables are the simulations' (exit $rc)" test "$rc" = 0
# A copy of the tool and the docs with one number changed: found.
rm -rf copy && mkdir -p copy/tools copy/docs
cp "$root/tools/stat-tables" copy/tools/
cp "$root/docs/STATISTICS.md" "$root/docs/MODELS.md" copy/docs/
sed -i 's/^| run 0%, pass 0%, machine 0%, launch 2%, 5 passes, R = 5, none | [0-9]* of/| run 0%, pass 0%, machine 0%, launch 2%, 5 passes, R = 5, none | 299 of/' copy/docs/STATISTICS.md
check "the hand edit took" grep -q '| 299 of' copy/docs/STATISTICS.md
qqcheck copy/tools/stat-tables st2.txt --from "$sims"
check "an edited table is found (exit $rc)" test "$rc" = 1
check "it names the file" has st2.txt 'docs/STATISTICS.md: a table differs'
[ "$fail" = 0 ] || show st.txt st2.txt
finish
