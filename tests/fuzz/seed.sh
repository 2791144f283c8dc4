#!/usr/bin/env bash
# seed.sh WORK BUILD - make the fuzz targets' seed corpora from real runs of the project's kernels.
set -euo pipefail
work="$1" build="$2"
k="$build/kernels"
mkdir -p "$work/fuzz_qq_reader.seed" "$work/fuzz_qq_reader.new"
cd "$work/fuzz_qq_reader.seed"
# Small runs: every section kind (META, KEYS, NODE, EVTS, THRD, CALB, MEMT),
# every key type, one node and several, one thread and several.
QQ_OUTPUT="$PWD/channel.qq" "$k/channel" --steps 20 --size 1
QQ_OUTPUT="$PWD/chain.qq" "$k/chain" --ops 3 --steps 10 --bulk 10
QQ_OUTPUT="$PWD/brain.qq" "$k/brain" --steps 3 --cells 4
QQ_OUTPUT="$PWD/overhead.qq" "$k/qq_overhead" --size 10 --steps 2
QQ_OUTPUT="$PWD/threads.qq" "$k/brain_threads_serial" --steps 3 --size 16 --threads 3
# A file of format 1.0 (before threads): the reader must keep reading them.
cp "$(cd "$(dirname "$0")/.." && pwd)/data/qq/v1_0.qq" .
if [ -x "$k/msg_pack" ] && command -v mpirun >/dev/null; then
    QQ_OUTPUT="$PWD/msg_pack2.qq" mpirun --oversubscribe -np 2 "$k/msg_pack" --steps 3 --size 20
fi
ls -l

# The text parsers: every suite and baseline the project has (good and
# bad), BigSim lines, and a run's JSON from a small real run.
src="$(cd "$(dirname "$0")/../.." && pwd)"
for t in fuzz_suite fuzz_baseline fuzz_report_json fuzz_bigsim; do
    mkdir -p "$work/$t.seed" "$work/$t.new"
done
cp "$src"/configs/*.yaml "$src"/tests/data/suites/*.yaml "$work/fuzz_suite.seed/" 2>/dev/null || true
find "$src/baselines" -name '*.yaml' -exec cp {} "$work/fuzz_baseline.seed/" \; 2>/dev/null || true
# Crashes found earlier stay in the corpus (tests/data/fuzz).
cp "$src"/tests/data/fuzz/bigsim-* "$work/fuzz_bigsim.seed/" 2>/dev/null || true
i=0
while IFS= read -r line; do
    i=$((i + 1))
    printf '%s\n' "$line" > "$work/fuzz_bigsim.seed/line$i"
done < <(cat "$src/tests/data/model/bigsim.txt" "$src/tests/data/model/bad_bigsim.txt" | head -40)
cd "$work"
cat > seed-suite.yaml <<YAML
suite: seed
defaults: {repetitions: 2, warmup: 0}
benchmarks:
  - name: chain
    kernel: $k/chain
    args: [--steps, "200"]
    variants:
      a: [--ops, "0"]
      b: [--ops, "10"]
  - name: brain
    kernel: $k/brain
    args: [--steps, "2", --cells, "4"]
YAML
"$build/harness/qqbench" run seed-suite.yaml --baselines seed-bl --no-report -q \
    --json "$work/fuzz_report_json.seed/first.json" >/dev/null
"$build/harness/qqbench" run seed-suite.yaml --baselines seed-bl --no-report -q \
    --json "$work/fuzz_report_json.seed/second.json" >/dev/null || true
find seed-bl -name '*.yaml' -exec cp {} "$work/fuzz_baseline.seed/" \;
ls "$work"/*.seed | head -50
