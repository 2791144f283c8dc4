#!/usr/bin/env bash
# qqbench run stopped by SIGINT, SIGTERM or SIGHUP: the kernel (and an mpirun with its ranks) dies with it, the work folder goes, the baseline stays, and the exit is 128+N.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
here=$(pwd)
rm -rf bl work pids ./*.txt sleeper.sh
mkdir work pids
# A kernel that says who it is (its pid, and its parent: mpirun for a rank),
# then sleeps far longer than the test runs.
marker="sleeper_$$_$RANDOM"
cat > sleeper.sh <<SH
#!/usr/bin/env bash
echo "\$PPID" > "$here/pids/parent.\$\$"
exec -a "$marker" sleep 3600
SH
chmod +x sleeper.sh
cat > sig.yaml <<YAML
suite: signals
defaults:
  repetitions: 2
  warmup: 0
  timeout: 3000
benchmarks:
  - name: good
    kernel: $PLANTED
  - name: sleeper
    kernel: $here/sleeper.sh
YAML
sed -e 's/^suite: signals/suite: signals_mpi/' -e '$a\    nodes: [2]' sig.yaml > sig_mpi.yaml

# Baselines of the good benchmark alone, to see that a stopped update leaves them.
for s in sig sig_mpi; do
    qq out0.txt err0.txt run $s.yaml --only good --baselines bl -q
    check "$s: baseline of the good benchmark recorded (exit $rc)" test "$rc" = 0
done

mpi_ok=1
command -v mpirun >/dev/null || { mpi_ok=0; echo "note: no mpirun: serial cases only"; }

# alive PID: a process that is not a zombie (a container's PID 1 may never
# reap the orphans it inherits).
alive() {
    local st
    st=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
    [[ $st != Z* ]]
}

# stop SUITE SIGNAL RANKS: start an update, wait for RANKS sleepers, signal.
stop() {
    local suite=$1 sig=$2 ranks=$3 what="$1 $2"
    rm -f pids/*
    local bfile
    bfile=$(ls bl/*/"$(sed -n 's/^suite: //p' "$suite.yaml")".yaml)
    cp "$bfile" baseline.before
    "$QQBENCH" run "$suite.yaml" --baselines bl --work work --update-baseline \
        >"out.$suite.$sig.txt" 2>"err.$suite.$sig.txt" &
    local qpid=$! n=0
    for ((i = 0; i < 600; i++)); do
        n=$(ls pids | wc -l)
        [ "$n" -ge "$ranks" ] && break
        sleep 0.1
    done
    check "$what: $ranks sleeper(s) started (got $n)" test "$n" -ge "$ranks"
    sleep 0.3 # let mpirun finish starting the last rank
    kill -s "$sig" "$qpid"
    # qqbench must end by itself; one that ignores the signal is stopped here.
    for ((i = 0; i < 300; i++)); do
        kill -0 "$qpid" 2>/dev/null || break
        sleep 0.1
    done
    kill -0 "$qpid" 2>/dev/null && { echo "qqbench did not end: killing it"; kill -9 "$qpid"; }
    local rc=0
    wait "$qpid" || rc=$?
    local want=$((128 + $(kill -l "$sig")))
    check "$what: exit $want (got $rc)" test "$rc" = "$want"
    [ "$rc" = "$want" ] || show "out.$suite.$sig.txt" "err.$suite.$sig.txt"
    # What was killed may take a moment to die on a busy machine: up to 10 s.
    local f pid parent alive="" i
    for ((i = 0; i < 100; i++)); do
        alive=""
        for f in pids/parent.*; do
            pid=${f##*.}
            parent=$(cat "$f")
            alive "$pid" && alive="$alive $pid"
            # A rank's parent is mpirun (or its daemon); a serial kernel's is qqbench.
            if [ "$ranks" -gt 1 ] && alive "$parent"; then alive="$alive $parent"; fi
        done
        [ -z "$alive" ] && [ -z "$(pgrep -f -- "$marker" || true)" ] && break
        sleep 0.1
    done
    check "$what: no kernel, rank or mpirun left (alive:${alive:- none})" test -z "$alive"
    [ -z "$alive" ] || ps -o pid,ppid,pgid,stat,etime,cmd -p "${alive# }" || true
    local left
    left=$(pgrep -f -- "$marker" || true)
    check "$what: no process of the run left (pids: ${left:-none})" test -z "$left"
    [ -z "$left" ] && [ -z "$alive" ] || kill -9 $left $alive 2>/dev/null || true
    check "$what: the work folder is gone" test -z "$(ls -A work)"
    check "$what: the baseline is untouched" cmp -s baseline.before "$bfile"
    check "$what: no temporary left next to the baseline" \
        test -z "$(find bl -name '*.tmp*')"
}

for sig in INT TERM HUP; do
    stop sig "$sig" 1
done
if [ "$mpi_ok" = 1 ]; then
    stop sig_mpi INT 2
    stop sig_mpi TERM 2
fi
finish
