#!/usr/bin/env bash
# seed.sh WORK BUILD - make the fuzz targets' seed corpora from real runs of the project's kernels.
set -euo pipefail
work="$1" build="$2"
k="$build/kernels"
mkdir -p "$work/fuzz_qq_reader.seed" "$work/fuzz_qq_reader.new"
cd "$work/fuzz_qq_reader.seed"
# Small runs: every section kind (META, KEYS, NODE, EVTS, CALB, MEMT), every
# key type, one node and several.
QQ_OUTPUT="$PWD/channel.qq" "$k/channel" --steps 20 --size 1
QQ_OUTPUT="$PWD/chain.qq" "$k/chain" --ops 3 --steps 10 --bulk 10
QQ_OUTPUT="$PWD/brain.qq" "$k/brain" --steps 3 --cells 4
QQ_OUTPUT="$PWD/overhead.qq" "$k/qq_overhead" --size 10 --steps 2
if [ -x "$k/msg_pack" ] && command -v mpirun >/dev/null; then
    QQ_OUTPUT="$PWD/msg_pack2.qq" mpirun --oversubscribe -np 2 "$k/msg_pack" --steps 3 --size 20
fi
ls -l
