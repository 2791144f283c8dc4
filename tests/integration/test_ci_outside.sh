#!/usr/bin/env bash
# qqbench ci for someone else's project: qqbench installed under a prefix (cmake --install), two outside projects (a plain Makefile with pkg-config, CMake with find_package(QQ)), each a git repository whose second commit makes one line 10% slower: regressed (exit 1), the revert improved (exit 0); a bad suite and a reference that is HEAD refused before any build; a failed build shows its last lines, keeps its log and leaves no worktree or folder.
#
# What is asked is decided by a margin, not by chance: the kernel's one state is a dependent
# chain of multiplies (its time is the chain's latency, which the machine's load does not
# change; the judged figure is the 10th percentile of 200 intervals per launch, so a
# preempted interval is not what is measured), +10% against a threshold of 3%. Regressed
# needs the pair ratios beyond +3% at one of the looks' O'Brien-Fleming levels (all 20 at the
# second look, 25 of 30 at the third, ...), with each pair ratio's spread well under 1%; the
# reverse needs them below -3%.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
for t in git cmake make pkg-config cc; do
    command -v $t >/dev/null || { echo "FAIL: $t is not installed (make deps-test installs it)"; exit 1; }
done
: "${QQ_BINARY_DIR:?}"
rm -rf prefix mk cm tb tmp out bl-mk bl-run bl-none ./*.txt ./*.err
mkdir -p tmp out
export TMPDIR=$PWD/tmp
prefix=$PWD/prefix
# The install a user makes (make install PREFIX=... runs this).
cmake --install "$QQ_BINARY_DIR" --prefix "$prefix" > install.txt 2>&1 || { cat install.txt; exit 1; }
QQB=$prefix/bin/qqbench
check "qqbench installed" test -x "$QQB"
# Nothing of the environment points at the prefix: ci must find it itself.
unset CMAKE_PREFIX_PATH PKG_CONFIG_PATH QQBENCH_KERNELS

# lookup.c with R rounds of the hash in the state 'lookup': each round is a
# chain of 64 dependent multiply-xor steps.
kernel() {
    cat > lookup.c <<C
/* lookup.c - a string-hash table's lookup, timed by QQ. */
#include <stdint.h>
#include "qq.h"
static const char key[64] = "the quick brown fox jumps over the lazy dog, twice or more: ok";
static uint64_t hash(const char *s, uint64_t h, int rounds)
{
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < 64; i++)
            h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
    return h;
}
int main(void)
{
    QQInit(1000);
    int lookup = QQAddState("lookup");
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < 200; i++) {
        QQStateOn(lookup);
        h = hash(key, h, $1);
        QQKeep(h);
        QQStateOff(lookup);
    }
    QQOut("lookup.qq", 0, 1);
    return h == 42;
}
C
}
suite() { # suite FILE [BUILD]: the suite, with 'build: BUILD' when given
    {
        echo "suite: hash"
        [ -z "${2:-}" ] || echo "build: $2"
        printf 'defaults:\n  threshold: 3\nbenchmarks:\n  - name: lookup\n    kernel: lookup\n'
    } > "$1"
}
project() { # project DIR: a git repository on master, no origin
    mkdir "$1" && cd "$1"
    git init -q && git symbolic-ref HEAD refs/heads/master
    git config user.email t@example.invalid && git config user.name test
    printf 'build/\nreports/\n' > .gitignore
}
commit() { git add -A && git commit -qm "$1"; }
ci() { # ci OUT [args]: the installed qqbench ci, exit status in $rc
    local out="$1"; shift
    rc=0
    "$QQB" ci "$@" > "../$out.txt" 2> "../$out.err" || rc=$?
}
clean_after() { # clean_after NAME: no worktree registered, no temporary folder left
    check "$1: only the main checkout is registered" test "$(git worktree list | wc -l)" = 1
    check "$1: no temporary folder left" test -z "$(ls "$TMPDIR")"
}
row() { grep -E '^lookup@1 +lookup ' "$1" | grep 'vs reference build' || true; }

# table.c: state 'lookup' L rounds x size, state 'insert' I rounds x size.
# The rounds are data (volatile), so the two builds' machine code is the
# same byte for byte: a constant in the code moved the loops' alignment,
# which moved both keys by 7% one way or the other.
table() {
    cat > table.c <<C
/* table.c - a table's lookup and insert, timed by QQ. */
#include <stdint.h>
#include <stdlib.h>
#include "qq.h"
static const char key[64] = "the quick brown fox jumps over the lazy dog, twice or more: ok";
static uint64_t hash(const char *s, uint64_t h, int rounds)
{
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < 64; i++)
            h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
    return h;
}
static volatile int lookup_rounds = $1, insert_rounds = $2;
int main(int argc, char **argv)
{
    int size = argc > 1 ? atoi(argv[1]) : 1;
    QQInit(1000);
    int lookup = QQAddState("lookup"), insert = QQAddState("insert");
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < 200; i++) {
        QQStateOn(lookup);
        h = hash(key, h, lookup_rounds * size);
        QQKeep(h);
        QQStateOff(lookup);
        QQStateOn(insert);
        h = hash(key, h, insert_rounds * size);
        QQKeep(h);
        QQStateOff(insert);
    }
    QQOut("table.qq", 0, 1);
    return h == 42;
}
C
}
trow() { grep -E "^table\[size=$2\]@1 +$3 " "$1" | grep 'vs reference build' || true; }

# 1. A plain Makefile project, QQ through pkg-config.
project mk
cat > Makefile <<'MK'
CFLAGS += -O2 $(shell pkg-config --cflags qq)
LDLIBS += $(shell pkg-config --libs qq)
build/kernels/lookup: lookup.c
	mkdir -p build/kernels
	$(CC) $(CFLAGS) -o $@ lookup.c $(LDLIBS)
MK
suite bench.yaml
kernel 100 && commit base
# A bad suite and a reference that is HEAD: refused (exit 2) before any build.
printf 'suite: hash\nbenchmarks: [\n' > bad.yaml
ci bad --base HEAD bad.yaml --build 'touch built' --kernels build/kernels
check "bad suite: exit 2 (got $rc)" test "$rc" = 2
check "bad suite: one line naming file:line:col" test "$(wc -l < ../bad.err)" = 1 -a -n "$(grep -E '^bad\.yaml:[0-9]+:[0-9]+: error: ' ../bad.err)"
check "bad suite: nothing built" test ! -e built
rm bad.yaml
# No suite, and a run option before the suite: one line each, saying how.
ci nosuite --base HEAD~0 --build 'touch built'
check "no suite: exit 2 (got $rc)" test "$rc" = 2
check "no suite: one line saying how to name one" test "$(wc -l < ../nosuite.err)" = 1 -a -n "$(grep "no suite given: name it after ci's options" ../nosuite.err)"
ci runfirst --json ../out/x.json bench.yaml --build 'touch built'
check "a run option before the suite: exit 2 (got $rc)" test "$rc" = 2
check "a run option before the suite: run's options go after it" has ../runfirst.err "'--json' is an option of run: run's options go after the suite"
check "no suite, run option first: nothing built" test ! -e built
# A Makefile project and no build command: said, before anything is built
# (CMake's error on the reference, before).
ci nobuild --base HEAD --allow-same bench.yaml --kernels build/kernels --no-report
check "no --build in a Makefile project: exit 2 (got $rc)" test "$rc" = 2
check "no --build in a Makefile project: one line, give --build CMD" test "$(wc -l < ../nobuild.err)" = 1 -a -n "$(grep 'no CMakeLists.txt .*give --build CMD' ../nobuild.err)"
ci same bench.yaml --build 'touch built' --kernels build/kernels
check "reference = HEAD (master, no origin): exit 2 (got $rc)" test "$rc" = 2
check "reference = HEAD: one line saying so" test "$(wc -l < ../same.err)" = 1 -a -n "$(grep "HEAD's own commit" ../same.err)"
check "reference = HEAD: nothing built" test ! -e built
clean_after "refused"
# A kernel that fails: its output is kept, in the run's work folder, and
# named in the failure (the folder was removed with it, the output's last
# line alone shown).
printf '#!/bin/sh\necho "first words"\necho "last words" >&2\nexit 4\n' > ../fails.sh
chmod +x ../fails.sh
printf 'suite: f\ndefaults:\n  repetitions: 2\n  warmup: 0\nbenchmarks:\n  - name: f\n    kernel: fails\n' > ../fails.yaml
ci kfail --base HEAD --allow-same ../fails.yaml --build "mkdir -p build/kernels && cp '$(cd .. && pwd)/fails.sh' build/kernels/fails" \
    --kernels build/kernels --no-report --quiet
kept=$(sed -n 's/^  f@1: exited with status 4: last words (its output: \(.*\))$/\1/p' ../kfail.txt)
check "a failing kernel: exit 3 (got $rc)" test "$rc" = 3
check "a failing kernel: its output kept, every line, and named ($kept)" grep -q 'first words' "${kept:-/nonexistent}"
check "a failing kernel: the kept outputs (both builds') are all that is left in TMPDIR, each named" \
    failed_logs_only "$TMPDIR" ../kfail.txt
check "a failing kernel: in the run's work folder" test "${kept#$TMPDIR/qqbench.}" != "$kept"
[ "$rc" = 3 ] || show ../kfail.txt ../kfail.err
rm -rf "${TMPDIR:?}"/* build
clean_after "a failing kernel"

kernel 110 && commit "lookup: 10% more rounds"
ci mk_slow --base HEAD~1 bench.yaml --build make --kernels build/kernels \
    --json ../out/mk.json --quiet
check "make, +10%: exit 1 (got $rc)" test "$rc" = 1
check "make, +10%: lookup regressed vs reference build" test -n "$(row ../mk_slow.txt | grep ' regressed vs')"
check "make, +10%: the last line, the exit's cause and the reference-build counts" test -n "$(tail -1 ../mk_slow.txt | grep -E '^qqbench ci: exit 1, 1 comparison regressed vs reference build; vs reference build: 1 regressed, 0 improved, 0 unchanged, 0 noisy, 0 blind; memory: 0 regressed$')"
check "make: the change was built by ci" test -x build/kernels/lookup
check "make: both build logs next to the JSON" test -s ../out/ci-reference-build.log -a -s ../out/ci-change-build.log
check "make, --json: no second report in reports/latest/" test ! -e reports
check "make: the compiler's lines in the log, not the job's" hasnt ../mk_slow.err '-o build/kernels/lookup'
[ "$rc" = 1 ] || show ../mk_slow.txt ../mk_slow.err
# What ci reads and writes, said (it said "this run becomes the baseline"
# and counted "vs baseline: 0 regressed, ..." with no baseline read or written).
check "make: the report says no stored baseline is read or written" has ../mk_slow.txt '^Against the reference build alone: no stored baseline read or written'
check "make: not 'becomes the baseline'" hasnt ../mk_slow.txt 'becomes the baseline'
check "make: no baseline counts ('vs baseline: none')" has ../mk_slow.txt '^qqbench: .* in .* s; vs baseline: none; A/B: '
# run --against with no stored baseline: it does record the change build's
# cases as the baseline, and says so.
rc=0; "$QQB" run bench.yaml --kernels build/kernels --against build/kernels --baselines ../bl-run \
    --quiet --no-report > ../run_against.txt 2> ../run_against.err || rc=$?
check "run --against, no baseline: exit 0 (got $rc)" test "$rc" = 0
check "run --against, no baseline: says the change build's cases become the baseline" has ../run_against.txt "^No baseline for this machine: compared against the reference build alone; the change build's cases become the baseline"
check "run --against, no baseline: and records it" test -n "$(ls ../bl-run/*/hash.yaml 2>/dev/null)"
[ "$rc" = 0 ] || show ../run_against.txt ../run_against.err
clean_after "make"
# The revert, built by the suite's build:, against the slow commit.
git revert --no-edit HEAD >/dev/null
suite bench-b.yaml make
ci mk_back --base HEAD~1 bench-b.yaml --kernels build/kernels --quiet \
    --no-report
check "make, revert: exit 0 (got $rc)" test "$rc" = 0
check "make, revert: lookup improved vs reference build" test -n "$(row ../mk_back.txt | grep ' improved vs')"
check "make, revert: the last line says exit 0" test -n "$(tail -1 ../mk_back.txt | grep -E '^qqbench ci: exit 0, nothing regressed; vs reference build: 0 regressed, 1 improved')"
check "make, revert: the suite's build: built both" has ../mk_back.err 'build: make$'
[ "$rc" = 0 ] || show ../mk_back.txt ../mk_back.err
clean_after "make, revert"
# ci compares two builds: without --with-baseline it neither writes nor reads
# baselines/ (it recorded one from whatever the change was, then refused the
# next ci whose kernels had other flags, exit 2).
check "ci without --with-baseline: no baselines/ written in the project" test ! -e baselines
ci mk_runopt --base HEAD~1 bench.yaml --build make --kernels build/kernels --update-baseline
check "a baseline option without --with-baseline: exit 2 (got $rc)" test "$rc" = 2
check "a baseline option without --with-baseline: names the way past" has ../mk_runopt.err 'update-baseline .*--with-baseline'
# With it and no baseline yet, no --update-baseline: said, and none written.
ci mk_bl0 --with-baseline --base HEAD~1 bench.yaml --build make --kernels build/kernels \
    --baselines ../bl-none --no-report
check "--with-baseline, no baseline: exits by its verdicts (got $rc)" test "$rc" = 0 -o "$rc" = 1
check "--with-baseline, no baseline: says none is written" has ../mk_bl0.txt '^No baseline for this machine: compared against the reference build alone; no baseline is written'
check "--with-baseline, no baseline: none written" test -z "$(ls ../bl-none/*/hash.yaml 2>/dev/null)"
check "--with-baseline, no baseline: stderr says none is written, not that it records one" \
    bash -c "grep -q 'none is written without --update-baseline' ../mk_bl0.err && ! grep -q 'this run records one' ../mk_bl0.err"
# With it: a baseline recorded at -O2 -g, then ci on kernels built -O1 -g
# compares across builds with a warning, and exits by its verdicts.
build_as() { echo "make -B CFLAGS='$1 \$(shell pkg-config --cflags qq)'"; }
ci mk_bl1 --with-baseline --base HEAD~1 bench.yaml --build "$(build_as '-O2 -g')" \
    --kernels build/kernels --baselines ../bl-mk --update-baseline --quiet --no-report
check "--with-baseline --update-baseline, no baseline: says this one becomes it" has ../mk_bl1.txt "the change build's cases become the baseline"
check "--with-baseline --update-baseline: recorded (exit 0, got $rc)" test "$rc" = 0 -a -n "$(ls ../bl-mk/*/hash.yaml 2>/dev/null)"
[ "$rc" = 0 ] || show ../mk_bl1.txt ../mk_bl1.err
recorded=$(cat ../bl-mk/*/hash.yaml ../bl-mk/hash.memory.yaml | cksum)
ci mk_bl2 --with-baseline --base HEAD~1 bench.yaml --build "$(build_as '-O1 -g')" \
    --kernels build/kernels --baselines ../bl-mk --quiet --no-report
check "--with-baseline, other flags: exits by its verdicts, not 2 (got $rc)" test "$rc" = 0 -o "$rc" = 1
check "--with-baseline, other flags: a warning that names them" has ../mk_bl2.err 'WARNING: timing compared across builds: kernel .lookup. \(-O1 here, -O2 in the baseline\)'
[ "$rc" = 0 -o "$rc" = 1 ] || show ../mk_bl2.txt ../mk_bl2.err
check "--with-baseline, no --update-baseline: the baselines not rewritten" test "$(cat ../bl-mk/*/hash.yaml ../bl-mk/hash.memory.yaml | cksum)" = "$recorded"
check "--with-baseline: no lock file left beside the baselines" test -z "$(find ../bl-mk -name '*.lock')"
clean_after "with-baseline"
# A reference that does not build: exit 2, its last lines shown, its log kept, nothing left.
git checkout -q -b broken && echo 'this is not C' >> lookup.c && commit broken
git checkout -q master
ci mk_broken --base broken bench.yaml --build make --kernels build/kernels --report ../out/rep \
    --quiet
check "broken reference: exit 2 (got $rc)" test "$rc" = 2
check "broken reference: says so, naming the log" has ../mk_broken.err 'the reference broken does not build \(see \.\./out/rep/ci-reference-build\.log\)'
check "broken reference: the compiler's error in the job's log" has ../mk_broken.err '^  \| .*this is not C'
check "broken reference: the log kept in the report folder" has ../out/rep/ci-reference-build.log 'this is not C'
clean_after "broken reference"
# A change that does not build: built first, so the reference is not built.
git checkout -q broken
ci mk_broken_change --base master bench.yaml --build make --kernels build/kernels --quiet \
    --json ../out/bc/r.json
check "broken change: exit 2 (got $rc)" test "$rc" = 2
check "broken change: says so" has ../mk_broken_change.err 'the change does not build \(see \.\./out/bc/ci-change-build\.log\)'
check "broken change: the reference not built" hasnt ../out/bc/ci-reference-build.log 'lookup\.c' 
clean_after "broken change"
# With --no-report and no --json the logs are in the temporary folder; a
# failed build's is kept in TMPDIR, and named.
ci mk_broken_nr --base master bench.yaml --build make --kernels build/kernels --quiet --no-report
kept=$(sed -n 's/.*the change does not build (see \(.*\)); its last.*/\1/p' ../mk_broken_nr.err)
check "broken change, --no-report: exit 2 (got $rc)" test "$rc" = 2
check "broken change, --no-report: its log kept in TMPDIR, named ($kept)" test "${kept#$TMPDIR/qqbench-ci-change-build.log-}" != "$kept" -a -s "$kept"
check "broken change, --no-report: nothing written in the tree" test -z "$(git status --porcelain)"
rm -f "$kept"
clean_after "broken change, --no-report"
git checkout -q master
cd ..

# 2. CMake with find_package(QQ): --build with {src} and {out} (an
# out-of-tree build), then the default CMake line.
project cm
cat > CMakeLists.txt <<'CM'
cmake_minimum_required(VERSION 3.13)
project(hash C)
find_package(QQ REQUIRED)
add_executable(lookup lookup.c)
target_link_libraries(lookup PRIVATE QQ::qq)
set_target_properties(lookup PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/kernels)
add_executable(table table.c)
target_link_libraries(table PRIVATE QQ::qq)
set_target_properties(table PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/kernels)
add_executable(tool tool.c)
CM
echo 'int main(void) { return 0; }' > tool.c
suite bench.yaml
printf 'suite: table\ndefaults:\n  threshold: 3\nbenchmarks:\n  - name: table\n    kernel: table\n    args: ["{size}"]\n    params:\n      size: [1, 2]\n' > tbench.yaml
kernel 100 && table 100 100 && commit base
kernel 110 && table 110 100 && commit "lookup: 10% more rounds"
ci cm_slow --base HEAD~1 bench.yaml --kernels build/kernels --no-report \
    --quiet --build 'cmake -S {src} -B {out} -DCMAKE_BUILD_TYPE=RelWithDebInfo && cmake --build {out}'
check "cmake, +10%: exit 1 (got $rc)" test "$rc" = 1
check "cmake, +10%: lookup regressed vs reference build" test -n "$(row ../cm_slow.txt | grep ' regressed vs')"
check "cmake: the change built in build/" test -x build/kernels/lookup
check "cmake, --no-report: git status --porcelain empty (no build logs here)" test -z "$(git status --porcelain)"
[ "$rc" = 1 ] || show ../cm_slow.txt ../cm_slow.err
clean_after "cmake"
# A CMD naming {out} with kernels outside build/ ({out} for the change):
# refused before anything is built (both were built, then "--against
# .../src/_build/kernels: not a folder").
ci outkernels --base HEAD~1 bench.yaml --kernels _build/kernels --no-report --quiet \
    --build 'cmake -S {src} -B {out} -DCMAKE_BUILD_TYPE=Release && cmake --build {out}'
check "{out} CMD, --kernels _build/kernels: exit 2 (got $rc)" test "$rc" = 2
check "{out} CMD, --kernels _build/kernels: one line naming {out} and the ways past" test "$(wc -l < ../outkernels.err)" = 1 -a -n "$(grep 'not below this checkout.s build/, where {out} in --build CMD builds the change: give --kernels build/.*--kernels-subdir SUB' ../outkernels.err)"
check "{out} CMD, --kernels _build/kernels: nothing built" hasnt ../outkernels.err 'its build took'
clean_after "{out} CMD, kernels elsewhere"
# The default line with kernels in a build folder other than build/: said
# before anything is built, naming --kernels-subdir (after the reference's
# build, before: its kernels were looked for in the worktree).
ci otherdir --base HEAD~1 bench.yaml --kernels out/kernels --no-report --quiet
check "default line, --kernels out/kernels: exit 2 (got $rc)" test "$rc" = 2
check "default line, --kernels out/kernels: names --kernels-subdir" has ../otherdir.err 'not below this checkout.s build/.*--kernels-subdir SUB'
check "default line, --kernels out/kernels: nothing built" hasnt ../otherdir.err 'its build took'
clean_after "other build folder"
# Past it as the error says: --kernels-subdir kernels. The change is built
# again in out/, the folder holding kernels/ (it built build/, which the
# run never looked at, and judged whatever out/kernels held).
ci otherdir_ok --base HEAD~1 --kernels-subdir kernels bench.yaml --kernels out/kernels --no-report --quiet
check "default line, --kernels out/kernels --kernels-subdir kernels: exit 1 (got $rc)" test "$rc" = 1
check "default line, --kernels-subdir: lookup regressed vs reference build" test -n "$(row ../otherdir_ok.txt | grep ' regressed vs')"
check "default line, --kernels-subdir: the change built in out/" has ../otherdir_ok.err "the change, built again in .*/cm/out from HEAD's tree"
check "default line, --kernels-subdir: its kernel there" test -x out/kernels/lookup
check "default line, fresh out/: the build type said too" has ../otherdir_ok.err "^qqbench ci: both builds with CMAKE_BUILD_TYPE=RelWithDebInfo, ci.s default \\(.*/out has none configured to follow\\)$"
[ "$rc" = 1 ] || show ../otherdir_ok.txt ../otherdir_ok.err
rm -rf out
ci otherdir_bad --base HEAD~1 --kernels-subdir bin bench.yaml --kernels out/kernels --no-report --quiet
check "default line, --kernels not ending with --kernels-subdir: exit 2 (got $rc)" test "$rc" = 2
check "default line, --kernels not ending with --kernels-subdir: says so, in one line" test "$(wc -l < ../otherdir_bad.err)" = 1 -a -n "$(grep 'does not end with --kernels-subdir bin' ../otherdir_bad.err)"
clean_after "other build folder, --kernels-subdir"
# The default line for the reference (CMAKE_PREFIX_PATH from where qqbench
# is installed); the change built by hand as the README says, at Release:
# the reference is configured with build/'s build type (it was
# RelWithDebInfo whatever build/ had: -O2 -g against -O3, or against -O0).
git revert --no-edit HEAD >/dev/null
rm -rf build
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix" > ../cm_build.txt 2>&1 && cmake --build build >> ../cm_build.txt 2>&1 ||
    { cat ../cm_build.txt; exit 1; }
ci cm_back --keep --base HEAD~1 bench.yaml --kernels build/kernels --json ../out/cm/r.json --quiet
kept_cache=$(ls "$TMPDIR"/qqbench-ci-*/build/CMakeCache.txt 2>/dev/null | head -1)
check "cmake default line: the reference configured with build/'s build type (Release)" \
    grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "${kept_cache:-/nonexistent}"
check "cmake default line: says so" has ../cm_back.err "both builds with CMAKE_BUILD_TYPE=Release"
check "cmake default line: the sentence ends, naming build/'s configuration" \
    has ../cm_back.err "^qqbench ci: both builds with CMAKE_BUILD_TYPE=Release, as .*/build is configured \(the reference is built the same way\)$"
git worktree remove --force "$(dirname "$(dirname "${kept_cache:-/x/y}")")/src" 2>/dev/null || true
rm -rf "${TMPDIR:?}"/qqbench-ci-*
check "cmake default line, revert: exit 0 (got $rc)" test "$rc" = 0
check "cmake default line, revert: lookup improved vs reference build" test -n "$(row ../cm_back.txt | grep ' improved vs')"
check "cmake default line: find_package(QQ) found the install" hasnt ../out/cm/ci-reference-build.log 'Could not find'
check "cmake default line: the kernel's target built" has ../out/cm/ci-reference-build.log 'Built target lookup'
check "cmake default line: nothing else built" hasnt ../out/cm/ci-reference-build.log 'Built target tool' 
[ "$rc" = 0 ] || show ../cm_back.txt ../cm_back.err
check "cmake default line, --json: no reports/, git status --porcelain empty" test ! -e reports -a -z "$(git status --porcelain)"
clean_after "cmake default line"
# A stale change build: build/ holds the revert's (fast) kernels, then the
# slow commit is checked out with no rebuild. The default line builds the
# change again from HEAD's tree: regressed against the first commit (it
# judged the fast kernel left in build/: '+0.00% unchanged', exit 0). On the
# 2 cases x 2 keys suite: lookup regressed in both cases, insert in neither.
git checkout -q HEAD~1
ci cm_stale --base HEAD~1 tbench.yaml --kernels build/kernels --no-report --quiet
check "stale build/, default line: exit 1 (got $rc)" test "$rc" = 1
for sz in 1 2; do
    check "stale build/, default line: lookup of size $sz regressed vs reference build" test -n "$(trow ../cm_stale.txt $sz lookup | grep ' regressed vs')"
    check "stale build/, default line: insert of size $sz not regressed" test -z "$(trow ../cm_stale.txt $sz insert | grep ' regressed vs')"
done
check "stale build/, default line: says it built the change again" has ../cm_stale.err "the change, built again in .*/build from HEAD's tree"
[ "$rc" = 1 ] || show ../cm_stale.txt ../cm_stale.err
clean_after "stale build"
git checkout -q master
cd ..

# 3. A suite of the usual shape: 2 cases (a parameter) x 2 keys, one key
# 10% slower in both cases, the other the same: 4 comparisons in the Holm
# family. The stop rule asks the final judgement's question, so the slow
# key reads regressed (exit 1), not "noisy ... not after Holm" (exit 0,
# issue 34); the revert improved (exit 0: an improvement passes).
project tb
printf 'build/\n' > .gitignore # build/ alone: what ci writes must hide itself
cat > Makefile <<'MK'
CFLAGS += -O2 $(shell pkg-config --cflags qq)
LDLIBS += $(shell pkg-config --libs qq)
build/kernels/table: table.c
	mkdir -p build/kernels
	$(CC) $(CFLAGS) -o $@ table.c $(LDLIBS)
MK
printf 'suite: table\ndefaults:\n  threshold: 3\nbenchmarks:\n  - name: table\n    kernel: table\n    args: ["{size}"]\n    params:\n      size: [1, 2]\n' > bench.yaml
table 100 100 && commit base
table 110 100 && commit "table: lookup 10% more rounds"
ci tb_slow --base HEAD~1 bench.yaml --build make --kernels build/kernels \
    --json ../out/tb.json --quiet --no-report
check "2x2, +10% in one key: exit 1 (got $rc)" test "$rc" = 1
for sz in 1 2; do
    check "2x2, +10%: lookup of size $sz regressed" test -n "$(trow ../tb_slow.txt $sz lookup | grep ' regressed vs')"
    check "2x2, +10%: insert of size $sz not regressed" test -z "$(trow ../tb_slow.txt $sz insert | grep ' regressed vs')"
done
check "2x2: four comparisons in the family" has ../out/tb.json '"family_size": *4\b'
[ "$rc" = 1 ] || show ../tb_slow.txt ../tb_slow.err
clean_after "2x2"
git revert --no-edit HEAD >/dev/null
ci tb_back --base HEAD~1 bench.yaml --build make --kernels build/kernels --quiet
check "2x2, revert: exit 0 (got $rc)" test "$rc" = 0
for sz in 1 2; do
    check "2x2, revert: lookup of size $sz improved" test -n "$(trow ../tb_back.txt $sz lookup | grep ' improved vs')"
done
[ "$rc" = 0 ] || show ../tb_back.txt ../tb_back.err
# What ci wrote in the tree is what docs/CI.md names: the change's build/
# and, with no --json nor --no-report, the report folder reports/latest/SUITE
# (the build logs in it), whose reports/.gitignore hides it; no baselines/,
# no lock file, no log at the top.
check "2x2, default report: git status --porcelain empty" test -z "$(git status --porcelain)"
check "2x2, default report: written and ignored, build/ and reports/ alone" \
    test "$(git status --porcelain --ignored | tr '\n' ' ')" = '!! build/ !! reports/ '
check "2x2, default report: the report and both build logs in reports/latest/table" \
    test -f reports/latest/table/index.html -a -s reports/latest/table/ci-reference-build.log -a -s reports/latest/table/ci-change-build.log
clean_after "2x2, revert"
cd ..
finish
