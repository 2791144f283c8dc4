#!/usr/bin/env bash
# qqbench ci stopped by SIGTERM, SIGINT, SIGHUP and SIGPIPE at three points (during a build, during the first launches, while the run judges), by SIGINT to its whole process group (a terminal's ^C) and by a real closed pipe ('qqbench ci ... | reader that is gone'): the running build or kernel is stopped, no qqbench-ci-* folder nor run work folder is left in TMPDIR, the worktree is no longer registered, ci ends by the signal (exit 128+N) and says so in one line. Before: SIGTERM and SIGINT during the run left the worktree and the folder; SIGPIPE (kill -PIPE, or '| head') ended ci by its default action with both left.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
command -v git >/dev/null || { echo "FAIL: git is needed (make deps installs it)"; exit 1; }
rm -rf repo tmp ./*.err ./*.out
mkdir -p repo tmp
tmpd="$PWD/tmp"
# Each point's process carries a marker in its command line (a sleep of
# 61.PID or 62.PID seconds), so a leftover one is found, and only ours.
bpat="^sleep 61\.$$\$" # the build
kpat="^sleep 62\.$$\$" # the kernel
running() { pgrep -f "$1" >/dev/null 2>&1; }
cd repo
git init -q
git config user.email t@example.invalid
git config user.name test
# k.sh: the kernel. KMODE=sleep: it sleeps (the launches' point); else the
# planted kernel, each launch's end counted in ../launches.
cat > k.sh <<SH
#!/bin/sh
[ "\${KMODE:-}" = sleep ] && exec sleep 62.$$
"$PLANTED" --reps 20 --work 2000; rc=\$?
echo end >> "$PWD/../launches"
exit \$rc
SH
chmod +x k.sh
printf 'suite: s\ndefaults:\n  repetitions: 2\n  warmup: 0\nbenchmarks:\n  - name: a\n    kernel: k\n' > suite.yaml
git add -A && git commit -qm base
build='mkdir -p {out}/kernels && cp {src}/k.sh {out}/kernels/k'

# at POINT SIG: ci started, stopped by SIG at POINT (build, launches,
# judging), then checked.
at() {
    local point="$1" sig="$2" b="$build" what="$1, SIG$2" rc=0 want pat
    rm -f ../launches ../junit.fifo && mkfifo ../junit.fifo
    [ "$point" = build ] && b="sleep 61.$$ && $build"
    [ "$point" = launches ] && export KMODE=sleep || unset KMODE
    # --junit to a FIFO nobody reads: the run, past its launches, waits in
    # its report step, where the signal finds it.
    # GROUP=1: ci in a process group of its own, and the signal to the
    # whole group, as a terminal's ^C reaches ci and its run alike.
    ${GROUP:+setsid} env TMPDIR="$tmpd" "$QQBENCH" ci --base HEAD --allow-same --build "$b" suite.yaml \
        --kernels build/kernels --no-report --max-repetitions 2 --junit ../junit.fifo \
        > ../ci.out 2> ../ci.err &
    local pid=$!
    for _ in $(seq 1 300); do # up to 30 s on a loaded machine
        case $point in
            build) running "$bpat" && break ;;
            launches) running "$kpat" && break ;;
            judging) [ "$(cat ../launches 2>/dev/null | wc -l)" -ge 4 ] && break ;;
        esac
        sleep 0.1
    done
    [ "$point" = judging ] && sleep 0.3 # past the last launch's end, into the report
    case $point in
        build) check "$what: the build is running" running "$bpat" ;;
        launches) check "$what: the kernel is running" running "$kpat" ;;
        judging) check "$what: the 4 launches ended, the run is not over" \
            test "$(wc -l < ../launches)" = 4 -a -d "/proc/$pid" ;;
    esac
    if [ -n "${GROUP:-}" ]; then
        what="$what to the process group"
        for _ in $(seq 1 50); do # setsid runs ci in its place: the group is its pid
            [ "$(ps -o pgid= "$pid" | tr -d ' ')" = "$pid" ] && break
            sleep 0.1
        done
        kill -"$sig" -- -"$pid" || true
    else
        kill -"$sig" "$pid" || true
    fi
    wait "$pid" || rc=$?
    want=$((128 + $(kill -l "$sig")))
    check "$what: ci ends by the signal (exit $rc, want $want)" test "$rc" = "$want"
    check "$what: no build process left" test -z "$(gone "$bpat")"
    check "$what: no kernel left" test -z "$(gone "$kpat")"
    check "$what: no qqbench-ci-* nor run work folder left in TMPDIR" test -z "$(ls -A "$tmpd")"
    check "$what: the worktree is no longer registered" test "$(git worktree list | wc -l)" = 1
    [ "$point" = build ] && pat="the build stopped" || pat="the run stopped"
    check "$what: one line says so ('$pat')" test "$(grep -cE "^qqbench ci: stopped by signal $((want - 128)): $pat, $tmpd/qqbench-ci-[A-Za-z0-9]+ removed\$" ../ci.err)" = 1
    [ "$fail" = 0 ] || { show ../ci.err; ls -la "$tmpd"; git worktree list; }
    rm -rf "${tmpd:?}"/* && git worktree prune # one failure is not counted again
}
for point in build launches judging; do
    for sig in TERM INT HUP PIPE; do
        at "$point" "$sig"
    done
done
# ^C at a terminal: SIGINT to ci and its run alike (the build and the
# kernels run in process groups of their own, which ci stops).
for point in build launches; do
    GROUP=1 at "$point" INT
done

# A real closed pipe: the reader is gone before ci writes its first line to
# stdout (the run's, or its own last line): SIGPIPE there, not kill.
unset KMODE
rm -f ../launches
rc=0
{ prc=0; TMPDIR="$tmpd" "$QQBENCH" ci --base HEAD --allow-same --build "$build" suite.yaml \
    --kernels build/kernels --no-report --max-repetitions 2 2> ../pipe.err || prc=$?
  echo $prc > ../pipe.rc; } | true
rc=$(cat ../pipe.rc)
check "| a gone reader: ci ends by SIGPIPE (exit $rc, want 141)" test "$rc" = 141
check "| a gone reader: it ran the suite first" test "$(wc -l < ../launches)" = 4
check "| a gone reader: no qqbench-ci-* nor run work folder left in TMPDIR" test -z "$(ls -A "$tmpd")"
check "| a gone reader: the worktree is no longer registered" test "$(git worktree list | wc -l)" = 1
check "| a gone reader: one line says so" test "$(grep -c '^qqbench ci: stopped by signal 13: the run stopped' ../pipe.err)" = 1
[ "$fail" = 0 ] || show ../pipe.err
cd ..
left="$(pgrep -f "$bpat" || true) $(pgrep -f "$kpat" || true)"
[ -z "${left// /}" ] || kill -9 $left 2>/dev/null || true
finish
