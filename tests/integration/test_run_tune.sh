#!/usr/bin/env bash
# run_tune: qqbench run reports QQTune's choice per machine (table note and JSON), and a choice the baseline did not make is a note, not a regression.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
K="${QQ_KERNEL_DIR:?QQ_KERNEL_DIR not set}/blocked"
# suite FILE PLANT: the blocked kernel at two sizes (two cases: each tunes
# on its own) with tile PLANT planted (chosen in every launch: the others
# do 16 times the work; the tiles differ up to 5x by themselves). The
# planted tile loses only if every one of its rounds is preempted: over 7
# rounds (--reps 7, as test_kernel_blocked) about 8e-9 a launch at a
# pessimistic 0.07 a round, against about 3e-4 at the default 3, which
# over this test's 15 launches breaks the 1e-4 rule.
suite() { cat > "$1" <<YAML
suite: tune
defaults:
  repetitions: 3
  warmup: 0
benchmarks:
  - name: b
    kernel: $K
    args: ["--size", "{size}", "--steps", "8", "--reps", "7", "--plant", "$2"]
    params:
      size: [128, 256]
YAML
}
rm -rf bl bl2
suite a.yaml 16
suite b.yaml 64
qq a.txt a.err run a.yaml --baselines bl --update-baseline --json a.json
check "baseline run: exit 0" test "$rc" = 0
id=$(jq_py a.json '.fingerprint.id' 'd["fingerprint"]["id"]')
check "the choice, per machine" has a.txt "^Tuned by QQTune on $id "
for n in 128 256; do
    check "the choice, every launch, size $n" has a.txt "^  b\\[size=$n\\]@1: tile = 16 \\(3 of 3 launches\\)\$"
done
check "JSON: a choice per case" test "$(jq_py a.json '.tunes | length' 'len(d["tunes"])')" = 2
check "JSON: the choice" test "$(jq_py a.json '.tunes[0].choice' 'd["tunes"][0]["choice"]')" = 16
check "JSON: its machine" test "$(jq_py a.json '.tunes[0].machine' 'd["tunes"][0]["machine"]')" = "$id"
check "the baseline holds it" grep -rq '@tune:tile' bl

qq b.txt b.err run b.yaml --baselines bl --json b.json
check "changed choice: exit 0" test "$rc" = 0
check "changed choice: a note naming the baseline's" \
    has b.txt "^  b\\[size=128\\]@1: tile = 64 \\(3 of 3 launches\\); note: the baseline \\($id\\) chose 16 \\(3 of 3 launches\\)\$"
check "changed choice: the other case too" \
    has b.txt "^  b\\[size=256\\]@1: tile = 64 \\(3 of 3 launches\\); note: the baseline \\($id\\) chose 16"
check "changed choice: said not a regression" has b.txt 'A changed choice is a note, not a regression'
check "JSON: changed" test "$(jq_py b.json '.tunes[0].changed' 'str(d["tunes"][0]["changed"]).lower()')" = true
check "JSON: the baseline's choice" test "$(jq_py b.json '.tunes[0].baseline_choice' 'd["tunes"][0]["baseline_choice"]')" = 16
check "JSON: the choice a metric of the case" \
    test "$(jq_py b.json '[.cases[0].metrics[] | select(.key == "@tune:tile")] | length' \
        'len([m for m in d["cases"][0]["metrics"] if m["key"] == "@tune:tile"])')" = 1
check "JSON: no comparison of it" \
    test "$(jq_py b.json '[.comparisons[] | select(.key == "@tune:tile")] | length' \
        'len([c for c in d["comparisons"] if c["key"] == "@tune:tile"])')" = 0

# The same choice: said so; a kernel that tunes nothing: no line, no key.
qq c.txt c.err run a.yaml --baselines bl --json c.json
for n in 128 256; do
    check "same choice: said, size $n" has c.txt "^  b\\[size=$n\\]@1: tile = 16 \\(3 of 3 launches\\); the baseline chose the same\$"
done
suite d.yaml 16
sed -i 's/"--plant", "16"/"--tile", "32"/' d.yaml
qq d.txt d.err run d.yaml --baselines bl2 --json d.json
check "nothing tuned: no line" hasnt d.txt '^Tuned by QQTune'
check "nothing tuned: no tunes in the JSON" hasnt d.json '"tunes"'
[ "$fail" = 0 ] || show a.txt b.txt c.txt d.txt a.err b.err
finish
