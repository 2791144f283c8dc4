#!/usr/bin/env bash
# qq_mpi.sh SCENARIO NP - one MPI test: run qq_mpi_test under real mpirun with
# NP ranks, then check the outcome from outside (the reader, qqbench st, which
# files exist). Environment: MPIEXEC (mpirun), QQ_MPI_TEST (the program),
# QQBENCH (qqbench). Runs in the test's own working directory.
set -u
scenario=$1
np=$2
: "${MPIEXEC:?}" "${QQ_MPI_TEST:?}" "${QQBENCH:?}"

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# Start clean: files of an earlier run must not make this one pass.
rm -f ./*.qq ./*.qq.* ./*.out ./*.err

extra=() # more mpirun options
run() { # run MODE NAME ARGS...: mpirun, output kept and shown
    "$MPIEXEC" -np "$np" --oversubscribe "${extra[@]}" "$QQ_MPI_TEST" "$@" \
        >run.out 2>run.err
    local rc=$?
    cat run.out
    cat run.err >&2
    return $rc
}

# The merged file must name every node in qqbench st.
st_shows_nodes() { # FILE
    "$QQBENCH" st "$1" >st.out 2>st.err || { cat st.err >&2; fail "qqbench st $1 failed"; }
    cat st.out
    for ((i = 0; i < np; i++)); do
        grep -Eq "^Node +$i:" st.out || fail "qqbench st does not show node $i"
    done
    local nodes
    nodes=$(grep -Ec '^Node +[0-9]+:' st.out)
    [[ $nodes -eq $np ]] || fail "qqbench st shows $nodes nodes, want $np"
    if ((np > 1)); then # the last rank overflowed on purpose
        grep -q "DROPPED" st.out || fail "qqbench st does not report the dropped events"
    fi
}

no_file() { # NAME: neither the file nor a readable temporary of it
    [[ ! -e $1 ]] || fail "$1 exists"
    local t
    for t in "$1".tmp.*; do
        [[ -e $t ]] || continue
        echo "leftover temporary $t:"
        "$QQ_MPI_TEST" refuse "$t" >refuse.out || fail "the reader accepts the leftover $t"
        cat refuse.out
        # MPI-IO sizes the temporary in full at once: only the COMPLETE flag,
        # set last, tells it from a finished file.
        if [[ ${QQ_MPI_IO:-} == 1 ]]; then
            grep -q QQ_EINCOMPLETE refuse.out || fail "$t is not refused as incomplete"
        fi
    done
}

case $scenario in
record | gather | direct)
    # MPI-IO (forced: on one host the default is every rank writing its
    # part), the gather, or that direct writer; memory keys travel too.
    case $scenario in
    gather) export QQ_MPI_IO=0 ;;
    direct) export QQ_MPI_IO=2 ;;
    *) export QQ_MPI_IO=1 ;;
    esac
    run record merged.qq --mem || fail "mpirun record failed"
    [[ -f merged.qq ]] || fail "no merged.qq"
    "$QQ_MPI_TEST" check merged.qq "$np" --mem || fail "the checker rejects merged.qq"
    st_shows_nodes merged.qq
    grep -q "rank_buf" st.out || fail "qqbench st shows no memory table"
    ;;
same)
    # One run writes the same events with MPI-IO, the gather and the direct
    # writer: the files must be the same bytes (same run, so same ticks and
    # META). With one rank the serial writer (after MPI_Finalize) too.
    serial=()
    if ((np == 1)); then serial=(serial.qq); fi
    run writers mpiio.qq gather.qq direct.qq "${serial[@]}" || fail "mpirun writers failed"
    cmp mpiio.qq gather.qq || fail "MPI-IO and gather files differ"
    cmp mpiio.qq direct.qq || fail "MPI-IO and direct files differ"
    if ((np == 1)); then cmp mpiio.qq serial.qq || fail "MPI-IO and serial files differ"; fi
    st_shows_nodes gather.qq
    ;;
output_env)
    # QQ_OUTPUT names the file on every rank (-x exports it to all ranks).
    extra=(-x QQ_OUTPUT)
    QQ_OUTPUT=override.qq run record ignored.qq || fail "mpirun failed"
    [[ -f override.qq ]] || fail "no override.qq"
    [[ ! -e ignored.qq ]] || fail "ignored.qq written despite QQ_OUTPUT"
    st_shows_nodes override.qq
    ;;
badnode | badcount | badkeys | badname | badrange | badio)
    # The program checks every rank's status and message; here: no files.
    run "$scenario" bad.qq || fail "mpirun $scenario failed (a rank did not see the error)"
    no_file bad.qq
    no_file bad.qq.other
    [[ -z $(ls -- bad.qq* 2>/dev/null) ]] || fail "files left: $(ls bad.qq*)"
    grep -q "QQ_EINVAL" run.out || fail "no QQ_EINVAL reported"
    [[ $(grep -c "QQ_EINVAL" run.out) -eq $np ]] || fail "not every rank reported QQ_EINVAL"
    ;;
special | special_gather)
    # QQ_OUTPUT names a FIFO, then a device node of the test's own (root
    # only): every rank is refused and the node is still there, unreplaced.
    if [[ $scenario == special_gather ]]; then export QQ_MPI_IO=0; fi
    rm -f out.fifo null.dev
    mkfifo out.fifo || fail "cannot make a FIFO"
    extra=(-x QQ_OUTPUT)
    QQ_OUTPUT=out.fifo run special out.fifo || fail "mpirun special (FIFO) failed"
    [[ -p out.fifo ]] || fail "out.fifo is no longer a FIFO"
    [[ $(grep -c "a FIFO.*will not replace" run.out) -eq $np ]] ||
        fail "not every rank reported the FIFO"
    if mknod null.dev c 1 3 2>/dev/null; then
        QQ_OUTPUT=null.dev run special null.dev || fail "mpirun special (device) failed"
        [[ -c null.dev ]] || fail "null.dev is no longer a character device"
        [[ $(stat -c %t,%T null.dev) == 1,3 ]] || fail "null.dev changed its numbers"
        [[ $(grep -c "a character device.*will not replace" run.out) -eq $np ]] ||
            fail "not every rank reported the device"
    else
        echo "note: cannot make a device node here: FIFO only"
    fi
    [[ -z $(ls -- out.fifo.tmp.* null.dev.tmp.* 2>/dev/null) ]] || fail "temporaries left"
    rm -f out.fifo null.dev
    ;;
failwrite)
    # Rank 1 cannot write its part (the direct writer, the default on one
    # host): every rank reports QQ_EIO naming rank 1; no file, no temporary.
    export QQ_MPI_IO=2
    run failwrite full.qq || fail "mpirun failwrite failed (a rank did not see the error)"
    [[ $(grep -c "QQ_EIO" run.out) -eq $np ]] || fail "not every rank reported QQ_EIO"
    [[ -z $(ls -- full.qq* 2>/dev/null) ]] || fail "files left: $(ls full.qq*)"
    ;;
die | diewrite | diewrite_gather)
    # Rank 1 dies (before QQOut, or inside its writes): mpirun fails, and
    # nothing under the real name; a temporary, if any, is refused.
    if [[ $scenario == diewrite_gather ]]; then
        export QQ_MPI_IO=0
        scenario=diewrite
    elif [[ $scenario == diewrite ]]; then
        export QQ_MPI_IO=1
    fi
    if run "$scenario" dead.qq; then fail "mpirun succeeded although rank 1 died"; fi
    grep -q "rank 1: " run.err || fail "rank 1 did not die where it should"
    no_file dead.qq
    if [[ $scenario == diewrite ]]; then
        ls dead.qq.tmp.* >/dev/null 2>&1 || fail "no temporary: rank 1 died before the writes"
    fi
    ;;
*)
    fail "unknown scenario $scenario"
    ;;
esac
echo "PASS: $scenario with $np ranks"
