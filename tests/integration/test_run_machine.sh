#!/usr/bin/env bash
# Against a stored baseline, a change that the machine reference explains (the machine got slower) is noisy, not regressed; a real one still regresses.
set -euo pipefail
# A fresh baseline: one left by an earlier run of the tests (another build
# of the kernel, another day) would be judged against too.
rm -rf bl
suite() { cat > "$1" <<YAML
suite: machine
defaults:
  repetitions: 10
benchmarks:
  - name: p
    kernel: $QQ_TEST_KERNELS/planted
    args: ["--extra", "$2"]
YAML
}
suite base.yaml 0
# +20%: far beyond the 2% threshold and the launch-to-launch noise of a
# stored-baseline comparison on a busy machine (seen: intervals 4.5% wide).
suite slow.yaml 200
pass=0 fail=0
check() { if "$@"; then pass=$((pass+1)); else echo "FAIL: $*"; fail=$((fail+1)); fi; }
"$QQBENCH" run base.yaml --quiet --baselines bl > first.txt 2>&1

# The kernel 20% slower while the reference says the machine is 20% slower
# too: the machine moved, not the code.
rc=0
QQBENCH_REFERENCE_SCALE=1.20 "$QQBENCH" run slow.yaml --quiet --baselines bl --json moved.json > moved.txt 2>&1 || rc=$?
cat moved.txt
check test "$rc" = 0
check grep -Eq 'the machine moved \+[0-9.]+%' moved.txt
check grep -q '"machine_moved": true' moved.json

# The same kernel change on an unchanged machine: regressed, exit 1.
rc=0
"$QQBENCH" run slow.yaml --quiet --baselines bl > real.txt 2>&1 || rc=$?
cat real.txt
check test "$rc" = 1
check grep -Eq '^p@1 +work .* regressed \(confirmed' real.txt

# A bad value of the test hook is a usage error.
rc=0
QQBENCH_REFERENCE_SCALE=zero "$QQBENCH" run base.yaml --quiet --baselines bl > bad.txt 2>&1 || rc=$?
check test "$rc" = 2
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
