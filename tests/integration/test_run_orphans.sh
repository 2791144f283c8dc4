#!/usr/bin/env bash
# qqbench run: a kernel's setsid daemon, an MPI rank that dies or exits early, a rank that ignores SIGTERM: each launch fails with exit 3 and a reason, no process of the run outlives it, and the other results and the baseline stay.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
here=$(pwd)
rm -rf bl work pids ./*.txt ./*.sh ./*.yaml baseline.before
mkdir work pids
marker="orphan_$$_$RANDOM"

# alive PID: a process that is not a zombie (a container's PID 1 may never
# reap the orphans it inherits).
alive() {
    local st
    st=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
    [[ $st != Z* ]]
}
# leftovers: processes of this test still running (named with the marker,
# or whose pid a kernel wrote into pids/).
leftovers() {
    local f pid left=""
    for f in pids/*; do
        [ -e "$f" ] || continue
        pid=$(cat "$f")
        alive "$pid" && left="$left $pid"
    done
    for pid in $(pgrep -f -- "$marker" || true); do
        alive "$pid" && left="$left $pid"
    done
    echo "$left" | tr ' ' '\n' | sort -u | tr '\n' ' ' | sed 's/^ *//; s/ *$//'
}
# settle: let a process that was just killed finish dying.
settle() {
    for ((i = 0; i < 50; i++)); do
        [ -z "$(leftovers)" ] && return 0
        sleep 0.1
    done
}
# no_orphans WHAT: nothing of the run is left; kill what is, so the test ends.
no_orphans() {
    settle
    local left
    left=$(leftovers)
    check "$1: no process of the run left (alive: ${left:-none})" test -z "$left"
    if [ -n "$left" ]; then
        ps -o pid,ppid,pgid,sid,stat,etime,args -p "${left// /,}" || true
        kill -9 $left 2>/dev/null || true
    fi
    rm -f pids/*
}

# 1. A serial kernel that starts a daemon: it leaves the process group
# (setsid) and its parent (a subshell that exits), then the kernel does its
# work and exits 0 with a good file.
cat > daemon.sh <<SH
#!/usr/bin/env bash
( setsid bash -c 'echo \$\$ > "$here/pids/daemon.\$\$"; exec -a "$marker" sleep 3600' & )
exec "$PLANTED" --reps 20
SH
chmod +x daemon.sh
cat > daemon.yaml <<YAML
suite: orphans
defaults:
  repetitions: 2
  warmup: 0
  timeout: 60
benchmarks:
  - name: good
    kernel: $PLANTED
    args: [--reps, "20"]
  - name: daemon
    kernel: $here/daemon.sh
YAML
qq out0.txt err0.txt run daemon.yaml --only good --baselines bl -q
check "baseline of the good benchmark recorded (exit $rc)" test "$rc" = 0
bfile=$(ls bl/*/orphans.yaml)
cp "$bfile" baseline.before

qq out.txt err.txt run daemon.yaml --baselines bl --work work --update-baseline
check "daemon: exit 3 (got $rc)" test "$rc" = 3
[ "$rc" = 3 ] || show out.txt err.txt
check "daemon: the reason names the process left running" \
    has out.txt "^  daemon@1: .*left [0-9]+ process(es)? running after it ended \(pid [0-9]+ "
check "daemon: the good benchmark is still compared with its baseline" has out.txt '^good@1 +work '
check "daemon: the baseline is untouched" cmp -s baseline.before "$bfile"
check "daemon: the work folder holds the failed launch's output alone, named" failed_logs_only work out.txt
rm -rf work/*
no_orphans "daemon"

# 2. MPI: through the suite's launcher (mpirun), ranks in process groups of
# their own.
mpi_test="$QQ_BINARY_DIR/tests/qq_mpi_test"
if ! command -v mpirun >/dev/null || [ ! -x "$mpi_test" ]; then
    echo "note: no mpirun or no qq_mpi_test: MPI cases skipped"
    finish
    exit $?
fi

# A rank script (not an MPI program: mpirun starts it all the same). Rank 1
# ends at once, as a rank that exits early; rank 0 ignores SIGTERM and hangs,
# so only a SIGKILL to it ends it, and mpirun itself is killed by the
# timeout before it does.
cat > ranks.sh <<SH
#!/usr/bin/env bash
echo \$\$ > "$here/pids/rank\${OMPI_COMM_WORLD_RANK:-x}.\$\$"
if [ "\${OMPI_COMM_WORLD_RANK:-0}" = 1 ]; then
    echo "rank 1: exiting early"
    exit \${RANK1_EXIT:-0}
fi
trap '' TERM
exec -a "$marker" sleep 3600
SH
chmod +x ranks.sh
# A rank script whose ranks all work and exit 0, but rank 0 starts a setsid
# daemon first, its output closed as daemons do (one that kept mpirun's
# output pipe open would hang mpirun until the timeout).
cat > rankdaemon.sh <<SH
#!/usr/bin/env bash
if [ "\${OMPI_COMM_WORLD_RANK:-0}" = 0 ]; then
    ( setsid bash -c 'echo \$\$ > "$here/pids/daemon.\$\$"; exec -a "$marker" sleep 3600' \
        </dev/null >/dev/null 2>&1 & )
fi
exec "$PLANTED" --reps 20
SH
chmod +x rankdaemon.sh
cat > mpi.yaml <<YAML
suite: orphans_mpi
defaults:
  repetitions: 2
  warmup: 0
  timeout: 60
benchmarks:
  - name: good
    kernel: $PLANTED
    args: [--reps, "20"]
  - name: early
    kernel: $here/ranks.sh
    nodes: [2]
    timeout: 3
  - name: die
    kernel: $mpi_test
    args: [die, dead.qq]
    nodes: [2]
  - name: rankdaemon
    kernel: $here/rankdaemon.sh
    nodes: [2]
    timeout: 30
YAML
qq out0.txt err0.txt run mpi.yaml --only good --baselines bl -q
check "MPI: baseline of the good benchmark recorded (exit $rc)" test "$rc" = 0
bfile=$(ls bl/*/orphans_mpi.yaml)
cp "$bfile" baseline.before

for b in early die rankdaemon; do
    qq out.txt err.txt run mpi.yaml --only good --only "$b" --baselines bl --work work --update-baseline
    check "MPI $b: exit 3 (got $rc)" test "$rc" = 3
    [ "$rc" = 3 ] || show out.txt err.txt
    check "MPI $b: the good benchmark is still compared with its baseline" has out.txt '^good@1 +work '
    check "MPI $b: the baseline is untouched" cmp -s baseline.before "$bfile"
    check "MPI $b: the work folder holds the failed launch's output alone, named" failed_logs_only work out.txt
    rm -rf work/*
    case $b in
    early) check "MPI early: timed out" has out.txt '^  early@2: timed out after 3\.0 s' ;;
    die) check "MPI die: the rank's death reported" has out.txt '^  die@2: exited with status 3' ;;
    rankdaemon) check "MPI rankdaemon: the process left running named" \
        has out.txt "^  rankdaemon@2: .*left [0-9]+ process(es)? running after it ended \(pid [0-9]+ " ;;
    esac
    no_orphans "MPI $b"
done

# The same early exit, but rank 1 exits non-zero: mpirun ends the job.
RANK1_EXIT=5 qq out.txt err.txt run mpi.yaml --only early --baselines bl --work work
check "MPI early, rank 1 exits 5 (RANK1_EXIT): exit 3 (got $rc)" test "$rc" = 3
no_orphans "MPI early exit 5"
finish
