#!/usr/bin/env bash
# qqbench ci stopped by SIGTERM or SIGINT during the reference build, and again during the run after the builds: the build's processes are stopped, the qqbench-ci-* folder is removed, the worktree is no longer registered in the user's repository, and ci ends by the signal (128+N); it left cmake running under init, the folder and the worktree.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
command -v git >/dev/null && command -v cmake >/dev/null || { echo "FAIL: git and cmake are needed (make deps installs them)"; exit 1; }
rm -rf repo tmp && mkdir -p repo tmp
tmpd="$PWD/tmp"
marker="qqb_ci_interrupt_$$"
# The bracket keeps pgrep from finding its own command line (and the test's).
pat="[s]leep 60 # $marker"
running() { pgrep -f "$pat" >/dev/null 2>&1; }
build_gone() { ! running; }
cd repo
git init -q
git config user.email t@example.invalid
git config user.name test
# A project whose build runs long: a custom target that sleeps (its
# command line carries a marker, so a leftover process can be found).
cat > CMakeLists.txt <<CM
cmake_minimum_required(VERSION 3.13)
project(slow C)
add_custom_target(slow ALL COMMAND sh -c "sleep 60 # $marker")
CM
printf 'suite: s\nbenchmarks:\n  - name: a\n    kernel: /bin/true\n' > suite.yaml
git add -A && git commit -qm base
for sig in TERM INT; do
    rc=0
    TMPDIR="$tmpd" "$QQBENCH" ci --base HEAD --allow-same suite.yaml > ../ci.out 2> ../ci.err &
    pid=$!
    # Wait for the build to start: its sleep is running.
    for _ in $(seq 1 1200); do # up to 2 minutes: cmake's configure on a slow machine
        running && break
        sleep 0.1
    done
    check "SIG$sig: the reference build started" running
    kill -$sig $pid
    wait $pid || rc=$?
    [ "$sig" = TERM ] && want=143 || want=130
    check "SIG$sig: ci ends by the signal (exit $rc, want $want)" test "$rc" = "$want"
    sleep 0.5
    check "SIG$sig: no build process left" build_gone
    check "SIG$sig: no qqbench-ci-* folder left in TMPDIR" test -z "$(ls "$tmpd")"
    check "SIG$sig: the worktree is no longer registered" test "$(git worktree list | wc -l)" = 1
    check "SIG$sig: says what it did" grep -q "qqbench ci: stopped by signal" ../ci.err
done

# The same during the run, after the builds: a build command that only
# copies a kernel which sleeps (for 60.PID seconds: the duration is the
# marker a leftover is found by). The run's own trap stopped the launch
# and ended qqbench by the signal, before ci's clean-up: the worktree and
# the folder were left.
rpat="[s]leep 60\.$$\$"
run_running() { pgrep -f "$rpat" >/dev/null 2>&1; }
printf '#!/bin/sh\nexec sleep 60.%s\n' "$$" > k.sh
chmod +x k.sh
printf 'suite: s\ndefaults:\n  repetitions: 2\n  warmup: 0\nbenchmarks:\n  - name: a\n    kernel: k\n' > suite.yaml
git add -A && git commit -qm "a kernel that sleeps"
for sig in TERM INT; do
    rc=0
    TMPDIR="$tmpd" "$QQBENCH" ci --base HEAD --allow-same \
        --build 'mkdir -p {out}/kernels && cp {src}/k.sh {out}/kernels/k' suite.yaml \
        --kernels build/kernels --no-report > ../ci.out 2> ../ci.err &
    pid=$!
    for _ in $(seq 1 1200); do
        run_running && break
        sleep 0.1
    done
    check "run, SIG$sig: the run launched its kernel" run_running
    kill -$sig $pid || true
    wait $pid || rc=$?
    [ "$sig" = TERM ] && want=143 || want=130
    check "run, SIG$sig: ci ends by the signal (exit $rc, want $want)" test "$rc" = "$want"
    sleep 0.5
    check "run, SIG$sig: no kernel left" eval '! run_running'
    check "run, SIG$sig: no qqbench-ci-* folder left in TMPDIR" test -z "$(ls "$tmpd")"
    check "run, SIG$sig: the worktree is no longer registered" test "$(git worktree list | wc -l)" = 1
    check "run, SIG$sig: says the run stopped" grep -q "qqbench ci: stopped by signal [0-9]*: the run stopped" ../ci.err
    [ "$fail" = 0 ] || { show ../ci.err; ls -la "$tmpd"; git worktree list; }
    rm -rf "$tmpd"/* && git worktree prune
done
cd ..
[ "$fail" = 0 ] || show ci.err
pkill -f "$pat" 2>/dev/null || true
pkill -f "$rpat" 2>/dev/null || true
finish
