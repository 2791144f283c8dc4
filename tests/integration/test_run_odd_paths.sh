#!/usr/bin/env bash
# qqbench run with a suite, kernels, baselines and work folder on paths with spaces and non-ASCII characters (serial and through mpirun), and a kernel path that is a directory: the first run, the second compares, the directory gets a clear message.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
top="dir with spaces/ünïcødé ✓ ü"
rm -rf "dir with spaces"
mkdir -p "$top/wörk dir" "$top/sub dir"
cp "$PLANTED" "$top/plänted kernel"
cat > "$top/süite ✓.yaml" <<YAML
suite: odd_paths
defaults: {repetitions: 2, warmup: 0}
benchmarks:
  - name: good
    kernel: ./plänted kernel
    args: [--reps, "20"]
YAML
K="${QQ_KERNEL_DIR:-}"
mpi=0
if command -v mpirun >/dev/null && [ -x "$K/msg_pack" ]; then
    mpi=1
    cp "$K/msg_pack" "$top/msg päck"
    cat >> "$top/süite ✓.yaml" <<YAML
  - name: mpi
    kernel: ./msg päck
    args: [--steps, "20", --size, "300"]
    nodes: [2]
YAML
else
    echo "note: no mpirun or msg_pack: the MPI case is skipped"
fi
for round in first second; do
    qq "out.$round.txt" "err.$round.txt" run "$top/süite ✓.yaml" --baselines "$top/bl ü" \
        --work "$top/wörk dir" --junit "$top/jünit ✓.xml" --json "$top/ö.json"
    check "$round run: exit 0 or 1 (got $rc)" test "$rc" = 0 -o "$rc" = 1
    [ "$rc" = 0 ] || [ "$rc" = 1 ] || show "out.$round.txt" "err.$round.txt"
    check "$round run: the JSON report is valid" valid_json "$top/ö.json"
    check "$round run: the JUnit report is valid" valid_xml "$top/jünit ✓.xml"
    check "$round run: the work folder is left empty" test -z "$(ls -A "$top/wörk dir")"
done
check "a baseline was recorded in the odd folder" test -f "$(ls "$top/bl ü"/*/*.yaml | head -1)"
check "second run: good compared with the baseline" has out.second.txt '^good@1 +work '
[ "$mpi" = 0 ] || check "second run: the MPI case compared with the baseline" has out.second.txt '^mpi@2 '

# A kernel path that is a directory: absolute, relative to the suite, and
# the kernels folder itself.
for k in "$PWD/$top/sub dir" "./sub dir" "$QQ_TEST_KERNELS"; do
    cat > "$top/dir.yaml" <<YAML
suite: dirs
benchmarks:
  - name: d
    kernel: $k
YAML
    qq out.txt err.txt run "$top/dir.yaml" --baselines "$top/bl ü"
    check "kernel '$k' a directory: exit 2 (got $rc)" test "$rc" = 2
    check "kernel '$k' a directory: file:line:column and the reason" \
        has err.txt "dir\.yaml:4:13: error: kernel '.*'( \(.*\))? is not a regular file; expected an executable program"
done
# The suite path itself a directory, or missing.
qq out.txt err.txt run "$top/sub dir"
check "suite a directory: exit 2 (got $rc)" test "$rc" = 2
check "suite a directory: said so" has err.txt "sub dir: error: cannot read the suite file: Is a directory"
qq out.txt err.txt run "$top/nöne.yaml"
check "suite missing: exit 2 (got $rc)" test "$rc" = 2
check "suite missing: said so" has err.txt "nöne\.yaml: error: cannot open the suite file: No such file or directory"
finish
