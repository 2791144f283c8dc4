#!/usr/bin/env bash
# Tick paths forced with QQ_TICKS: on lfence-rdtsc (what a processor that hides RDTSCP gets) and on the clock_gettime fallback, the known-cost chain still measures its bulk timing within 10%; st names each node's path; a file whose TSC is not invariant is refused by run, compare and whatif, naming the file.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
if [ -n "${QQ_SANITIZED:-}" ]; then
    # As test_run_chain: ASan's shadow check of the opening tick store sits
    # inside every interval; the agreement with the bulk time is the plain
    # build's property. (The refusal below is run under ASan by the unit
    # test test_qq_ticks, which reads the same damaged calibrations.)
    echo "skipped: sanitizer build (the plain build runs this test)"; exit 77
fi
K="${QQ_KERNEL_DIR:?QQ_KERNEL_DIR not set}"
command -v python3 >/dev/null || { echo "FAIL: python3 is needed to read the report (make deps-test installs it)"; exit 1; }

# 1. The chain on each forced path. The clock's reads cost tens of
# nanoseconds and resolve one: its chain is 40 multiply-adds (about 60 ns
# here), the TSC paths' 10 and 40.
chain_suite() {
    cat > "$1" <<YAML
suite: chain_$2
defaults:
  repetitions: 10
  warmup: 1
benchmarks:
  - name: chain
    kernel: $K/chain
    args: [--steps, "20000", --bulk, "1000000"]
    variants:
      n0: [--ops, "0"]
$3
YAML
}
chain_suite lfence.yaml lfence '      n10: [--ops, "10"]
      n40: [--ops, "40"]'
chain_suite clock.yaml clock '      n40: [--ops, "40"]'
for p in lfence clock; do
    rm -rf bl
    rc=0; QQ_TICKS=$p "$QQBENCH" run $p.yaml --baselines bl --json $p.json --keep -q > $p.out 2> $p.err || rc=$?
    check "QQ_TICKS=$p: the chain suite runs (exit $rc)" test "$rc" = 0
    if python3 "$QQ_TEST_DATA/timing/deltas.py" $p.json chain > $p.deltas; then ok "QQ_TICKS=$p: deltas agree with the bulk timing"
    else bad "QQ_TICKS=$p: deltas agree with the bulk timing"; fi
    sed 's/^/     /' $p.deltas
done

# 2. st names the path, and why.
QQ_TICKS=lfence QQ_OUTPUT="$PWD/l.qq" "$K/channel" --steps 50 > /dev/null
QQ_TICKS=clock QQ_OUTPUT="$PWD/c.qq" "$K/channel" --steps 50 > /dev/null
QQ_TICKS=sundial QQ_OUTPUT="$PWD/s.qq" "$K/channel" --steps 50 > /dev/null
QQ_OUTPUT="$PWD/a.qq" "$K/channel" --steps 50 > /dev/null
qq st.out st.err st l.qq
check "st: lfence-rdtsc, forced" has st.out '^ +tick path: lfence-rdtsc \(forced by QQ_TICKS; CPUID (offers|does not offer) RDTSCP; the TSC is invariant\)$'
qq st.out st.err st c.qq
check "st: clock_gettime, forced" has st.out '^ +tick path: clock_gettime \(forced by QQ_TICKS'
check "st: the clock's 1000 MHz" has st.out '^Node +0: +1000\.000 MHz'
qq st.out st.err st s.qq
check "st: an unknown QQ_TICKS is said to be refused" has st.out '^ +tick path: [a-z_-]+ \(QQ_TICKS was not honoured'
qq st.out st.err st a.qq
check "st: the default path, and why" has st.out '^ +tick path: (rdtscp|lfence-rdtsc|clock_gettime|cntvct_el0) \('

# 3. A TSC that CPUID does not call invariant: its ticks are not judged.
# The calibration's flags (CALB payload bytes 44-47, docs/FORMAT.md) of a
# file forced onto lfence-rdtsc lose the invariant bit.
python3 - l.qq v.qq <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
at = 64
while at + 16 <= len(b):
    tag, node, n = struct.unpack_from("<4sIQ", b, at)
    if tag == b"CALB":
        path, flags = struct.unpack_from("<II", b, at + 16 + 40)
        assert path == 2, path
        struct.pack_into("<I", b, at + 16 + 44, flags & ~0x4)
        break
    at += 16 + n
else:
    sys.exit("no CALB section")
open(sys.argv[2], "wb").write(b)
PY
qq st.out st.err st v.qq
check "st reads it (exit $rc)" test "$rc" = 0
check "st: the TSC is NOT invariant, not judged" has st.out 'the TSC is NOT invariant .*: these ticks are not a time, and are not judged\)$'
qq cmp.out cmp.err compare v.qq l.qq
check "compare refuses it: exit 2 (got $rc)" test "$rc" = 2
check "compare names the file and the node" has cmp.err '^qqbench compare: error: v\.qq: node 0 read the time-stamp counter \(lfence-rdtsc\), which CPUID does not call invariant'
qq wi.out wi.err whatif v.qq --scale Km=0.5
check "whatif refuses it: exit 2 (got $rc)" test "$rc" = 2
check "whatif names the file" has wi.err 'v\.qq: node 0 read the time-stamp counter'
# A kernel whose file says so: the launch fails (exit 3), the reason named.
printf '#!/bin/sh\ncp "%s" "$QQ_OUTPUT"\n' "$PWD/v.qq" > variant_kernel
chmod +x variant_kernel
cat > variant.yaml <<YAML
suite: variant
defaults:
  repetitions: 2
  warmup: 0
benchmarks:
  - name: v
    kernel: $PWD/variant_kernel
YAML
rm -rf bl
qq run.out run.err run variant.yaml --baselines bl --no-report -q
check "run: a kernel failure, exit 3 (got $rc)" test "$rc" = 3
check "run says why" has run.out 'node 0 read the time-stamp counter \(lfence-rdtsc\), which CPUID does not call invariant'
check "run stores no baseline from it" test ! -e bl/*/variant.yaml
[ "$fail" = 0 ] || show lfence.out lfence.err clock.out clock.err st.out cmp.err wi.err run.out run.err
finish
