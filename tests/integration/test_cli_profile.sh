#!/usr/bin/env bash
# test_cli_profile.sh - qqbench profile-machine: the YAML it writes, and the
# bandwidth probe: a cache-sized working set reads faster than a DRAM-sized one.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"

mpi=--no-mpi
command -v mpirun >/dev/null && [ -x "$(dirname "$QQBENCH")/qqb_pingpong" ] && mpi=
# One profile (its largest working set is twice the last-level cache: most
# of the run): no --out, so it goes beside this machine's baselines, where
# 'qqbench run' finds it; --plot draws it. --out FILE is the same store
# (qqb_profile_store) with the path given; its own check is the unwritable
# folder at the end.
rm -rf bl pics
QQBENCH_FINGERPRINT=machine-x qq p.out p.err profile-machine --quick --baselines bl --plot pics $mpi
check "profile-machine: exit 0 (rc $rc)" test "$rc" = 0 || show p.out p.err
check "summary line" has p.err '^qqbench profile-machine: wrote bl/machine-x/profile.yaml'
check "stored as bl/machine-x/profile.yaml" has bl/machine-x/profile.yaml '^memory:$'
check "no temp file left" test "$(ls bl/machine-x)" = profile.yaml
cp bl/machine-x/profile.yaml profile.yaml
for k in '^profile: 1$' '^timer:$' '^  read_ns: [0-9.]+$' '^memory:$' '^flops:$' '^  gflops: [0-9.]+$'; do
    check "yaml has $k" has profile.yaml "$k"
done
# The counter's frequency is QQ's calibration, the figure every .qq file
# carries (a 10 ms loop between two plain reads read 0.03-0.14% low). Where the
# counter's rate is not constant two calibrations need not agree: not checked.
if grep -q constant_tsc /proc/cpuinfo 2>/dev/null || [ "$(uname -m)" = aarch64 ]; then
    QQ_OUTPUT=mhz.qq "$QQ_KERNEL_DIR/channel" --steps 10 >/dev/null
    qq st.out st.err st mhz.qq
    file_mhz=$(sed -n 's/^Node *0: *\([0-9.]*\) MHz.*/\1/p' st.out)
    prof_mhz=$(awk '/^  tick_mhz:/ { print $2 }' profile.yaml)
    check "tick_mhz is the calibrated frequency ($prof_mhz vs $file_mhz in a .qq file)" \
        awk -v a="$prof_mhz" -v b="$file_mhz" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 1e-4 * b) }'
fi
# Per level: the cost of a load that hits there, dependent and independent;
# the issue rates; how long it took (said on the summary line too).
for k in '^levels:$' '^  l1:$' '^  memory:$' '^    latency_ns: [0-9.]+$' '^    throughput_ns: [0-9.]+$' \
    '^issue:$' '^  int_ns: [0-9.]+$' '^  fp_dep_ns: [0-9.]+$' '^seconds: [0-9.]+'; do
    check "yaml has $k" has profile.yaml "$k"
done
check "the summary says how long it took" has p.err 'took [0-9.]+ s$'
l1=$(awk '/^  l1:/ { f = 1 } f && /latency_ns/ { print $2; exit }' profile.yaml)
mem=$(awk '/^  memory:/ { f = 1 } f && /latency_ns/ { print $2; exit }' profile.yaml)
check "a dependent load in memory costs more than in L1 ($mem vs $l1 ns)" \
    awk -v a="$l1" -v b="$mem" 'BEGIN { exit !(b > a && a > 0) }'
# --quick's budget, by its declared counts at machine.c's worst prices (not
# a wall-clock assert on a loaded machine): at most 15 s, MPI included.
qq plan.out plan.err profile-machine --quick --plan
bound=$(sed -n 's/^bound: \([0-9.]*\) s.*/\1/p' plan.out)
check "--quick --plan: exit 0, a bound ($bound s)" test "$rc" = 0 -a -n "$bound"
check "--quick's bound at most 15 s ($bound)" awk -v b="$bound" 'BEGIN { exit !(b > 0 && b <= 15) }'
check "--quick counts memory's dependent loads" has plan.out '^dependent loads: [0-9]+ in caches, [1-9][0-9]* in memory$'
qq fplan.out fplan.err profile-machine --plan
fbound=$(sed -n 's/^bound: \([0-9.]*\) s.*/\1/p' fplan.out)
check "the full profile's bound exceeds --quick's ($fbound vs $bound)" awk -v a="$fbound" -v b="$bound" 'BEGIN { exit !(a > b) }'
# bandwidth of the first (16 KiB) and the last (DRAM-sized) working set
first=$(awk '/bandwidth_gbps/ { print $2; exit }' profile.yaml)
last=$(awk '/bandwidth_gbps/ { v = $2 } END { print v }' profile.yaml)
check "cache-sized set reads faster than DRAM-sized ($first vs $last GB/s)" \
    awk -v a="$first" -v b="$last" 'BEGIN { exit !(a > b && b > 0) }'
if [ -z "$mpi" ]; then
    check "mpi ping-pong measured" has profile.yaml '^  pingpong:$'
    check "mpi sizes from 1 byte" has profile.yaml '^    - bytes: 1$'
    check "mpi latency positive" awk '/latency_us/ { if ($2 + 0 <= 0) bad = 1; n++ } END { exit bad || !n }' profile.yaml
else
    echo "note: no mpirun or helper: MPI part not tested"
fi
if command -v python3 >/dev/null && python3 -c 'import yaml' 2>/dev/null; then
    check "valid YAML, --quick's table rows are the levels" python3 -c 'import sys, yaml; d = yaml.safe_load(open("profile.yaml")); assert d["profile"] == 1 and len(d["memory"]) == len(d["levels"]) >= 2 and d["issue"]["int_ns"] > 0'
fi
if command -v gnuplot >/dev/null; then
    check "the memory picture and its script" test -s pics/profile_memory.svg -a -s pics/profile_memory.png -a -s pics/profile_memory.gp
    check "working sets on a log axis" has pics/profile_memory.gp '^set logscale x 2'
    check "its data: one line per working set" test "$(grep -vc '^#' pics/profile_memory.dat)" = "$(grep -c '^  - bytes:' profile.yaml)"
else
    echo "note: no gnuplot: pictures not tested"
fi
# A launcher that ends but leaves a child holding its output (a daemon an
# MPI launcher starts): the helper's line is read, the launcher's process
# group stopped, and profile-machine is done (it read to the pipe's end,
# 120 s, then said the helper ran past them). The launcher stands in for
# mpirun and the helper (its last word) is not run.
printf '#!/bin/sh\nsleep 3171 &\necho "1 2.5 400.0"\n' > leave.sh
chmod +x leave.sh
t0=$(date +%s)
rc=0
timeout 100 "$QQBENCH" profile-machine --quick --launcher "$PWD/leave.sh" --mpi-helper none \
    --out leave.yaml > l.out 2> l.err || rc=$?
check "launcher leaving a child: exit 0 (rc $rc)" test "$rc" = 0 || show l.out l.err
check "...before the 100 s watch, not after the helper's 120 ($(($(date +%s) - t0)) s)" \
    test $(($(date +%s) - t0)) -lt 100
check "...no 'ran past'" hasnt l.err 'ran past'
check "...the helper's line kept" has leave.yaml '^      latency_us: 2\.5000$'
check "...its child stopped with the launcher's group" test -z "$(gone 'sleep 3171')"
qq w.out w.err profile-machine --quick --no-mpi --out /nonexistent/dir/p.yaml
check "unwritable: exit 2 (rc $rc)" test "$rc" = 2
finish
