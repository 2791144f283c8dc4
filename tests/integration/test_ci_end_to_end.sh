#!/usr/bin/env bash
# qqbench ci end to end: a tiny git project of its own (one QQ kernel, CMake, build/kernels/NAME); 4x the work in a commit is regressed vs the reference build (exit 1), the reverse improved (exit 0), an identical commit regresses nothing, an unbuildable base exits 2.
#
# Every verdict asked for is decided by orders of magnitude: 4x against the suite's threshold of
# 25%, and an identical commit, which would need nearly every pair ratio above +25% at one of
# the looks (O'Brien-Fleming's levels, docs/STATISTICS.md section 17). Whether +5% at 2% is found is a rate, simulated on the same judge
# (test_sim_against in tests/unit/test_judge.c); this test used to plant +5% and ask for an
# identical commit clean in 10 of 10 runs.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
for t in git cmake; do
    command -v $t >/dev/null || { echo "SKIP: $t is not installed"; exit 77; }
done
: "${QQ_SOURCE_DIR:?}" "${QQ_BINARY_DIR:?}"
QQ_TEST_SOURCE=$QQ_SOURCE_DIR
LIBQQ="$QQ_BINARY_DIR/qq/libqq.a"
[ -f "$LIBQQ" ] || { echo "FAIL: libqq not built at $LIBQQ"; exit 1; }
IDENTICAL_RUNS=${QQ_CI_IDENTICAL_RUNS:-1}
rm -rf tiny bl tmp ./*.txt ./*.json ./*.xml ./*.err
# qqbench ci's temporary folders (kept when a base does not build) stay here.
mkdir tiny tmp
export TMPDIR=$PWD/tmp
cd tiny
git init -q
git config user.email t@t
git config user.name t
# The project: one kernel linking this build's libqq; the build puts it in
# build/kernels/step, the layout qqbench ci expects.
cat > CMakeLists.txt <<CMAKE
cmake_minimum_required(VERSION 3.13)
project(tiny C)
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE RelWithDebInfo CACHE STRING "" FORCE)
endif()
add_executable(step step.c)
target_compile_definitions(step PRIVATE QQ_ENABLE _POSIX_C_SOURCE=200809L)
target_include_directories(step PRIVATE "$QQ_TEST_SOURCE/qq/include")
target_link_libraries(step PRIVATE "$LIBQQ" m pthread)
set_target_properties(step PROPERTIES RUNTIME_OUTPUT_DIRECTORY \${CMAKE_BINARY_DIR}/kernels)
CMAKE
kernel() { # kernel EXTRA_PERMILLE [COMMENT]: step.c with that much more work in 'advance'
    cat > step.c <<C
/* step.c - a tiny QQ kernel: state 'advance' (${2:-plain}) and 'other'. */
#include <stdio.h>
#include "qq.h"
static volatile unsigned long long sink;
static unsigned long long chain(long n, unsigned long long x)
{
    for (long i = 0; i < n; i++)
        x = x * 6364136223846793005ull + 1442695040888963407ull;
    return x;
}
int main(void)
{
    QQInit(1000);
    int adv = QQAddState("advance"), oth = QQAddState("other");
    unsigned long long x = 1;
    for (int r = 0; r < 200; r++) {
        QQStateOn(adv);
        x = chain(20000 + 20000L * $1 / 1000, x);
        QQStateOff(adv);
        QQStateOn(oth);
        x = chain(10000, x);
        QQStateOff(oth);
    }
    sink = x;
    return qq_out("step.qq", 0, 1) != 0;
}
C
}
cat > suite.yaml <<YAML
suite: tiny
defaults:
  threshold: 25
benchmarks:
  - name: step
    kernel: step
YAML
commit() { git add -A && git commit -qm "$1" && git rev-parse HEAD; }
C1=$(kernel 0;           commit base)        # the reference
C2=$(kernel 3000;        commit "4x")        # 4x the work in 'advance'
C3=$(kernel 0;           commit "back")      # C2's extra work removed
C4=$(kernel 0 "renamed"; commit "identical") # the same work as C3
C5=$(echo 'this is not C' >> step.c; commit "broken")

build_change() {
    rm -rf build
    cmake -S . -B build >../cmake.txt 2>&1 && cmake --build build >>../cmake.txt 2>&1 ||
        { show ../cmake.txt; exit 1; }
}
ci() { # ci OUT BASE [run options]: qqbench ci in the project, exit status in $rc
    local out="$1" base="$2"; shift 2
    rc=0
    "$QQBENCH" ci --base "$base" suite.yaml --kernels build/kernels \
        --quiet "$@" >"../$out" 2>"../$out.err" || rc=$?
}

# 1. 4x: C2 against C1.
git checkout -q "$C2" && build_change
ci plus.txt "$C1" --json ../plus.json --junit ../plus.xml
check "4x: exit 1 (got $rc)" test "$rc" = 1
check "4x: 'advance' regressed vs reference build" has ../plus.txt '^step@1 +advance .*regressed vs reference build'
check "4x: 'other' not regressed" hasnt ../plus.txt '^step@1 +other .*regressed'
check "4x: JSON kind build" test "$(jq_py ../plus.json \
    '[.comparisons[]|select(.kind=="build" and .key=="advance")|.verdict][0]' \
    '[c["verdict"] for c in d["comparisons"] if c["kind"]=="build" and c["key"]=="advance"][0]')" = regressed
check "4x: JUnit failure" has ../plus.xml 'name="advance vs reference build"><failure'
check "4x: the build log went to a file" has ../plus.txt.err 'built in .* \(log: .*build.log\)'
check "4x: no compiler output in the job's log" hasnt ../plus.txt.err 'Building C object'
[ "$rc" = 1 ] || show ../plus.txt ../plus.txt.err

# 2. Swapped: C3 against C2 (the extra work removed): improved, exit 0.
git checkout -q "$C3" && build_change
ci minus.txt "$C2"
check "1/4: exit 0 (got $rc)" test "$rc" = 0
check "1/4: 'advance' improved vs reference build" has ../minus.txt '^step@1 +advance .*improved vs reference build'
[ "$rc" = 0 ] || show ../minus.txt ../minus.txt.err

# 3. Identical: C4 against C3 (QQ_CI_IDENTICAL_RUNS times, default 1): nothing regressed.
git checkout -q "$C4" && build_change
regs=0
for i in $(seq 1 "$IDENTICAL_RUNS"); do
    ci same.txt "$C3"
    grep -E '^step@1 ' ../same.txt | sed "s/^/run $i: /" || true
    if [ "$rc" != 0 ] || grep -q 'regressed vs reference build' ../same.txt; then
        regs=$((regs + 1)); show ../same.txt ../same.txt.err
    fi
done
check "identical: nothing regressed in $IDENTICAL_RUNS runs ($regs did)" test "$regs" = 0

# 4. A base that does not build: exit 2, the log named.
ci broken.txt "$C5"
check "unbuildable base: exit 2 (got $rc)" test "$rc" = 2
check "unbuildable base: says so" has ../broken.txt.err 'does not build \(see .*build.log\)'
cd ..
finish
