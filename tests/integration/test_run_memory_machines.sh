#!/usr/bin/env bash
# Memory baselines hold on every machine (a memory regression is caught under another fingerprint); baselines resolve from the suite's repository, not the current folder; a missing baseline is loud, and an error with --require-baseline.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
command -v git >/dev/null || { echo "SKIP: git is not installed"; exit 77; }
rm -rf repo elsewhere plain ./*.txt
suite() { # suite FILE BYTES
    cat > "$1" <<YAML
suite: mm
defaults:
  repetitions: 3
  warmup: 0
benchmarks:
  - name: p
    kernel: $PLANTED
    args: ["--mem", "$2"]
YAML
}
# A repository of its own: the suite in configs/, baselines at its root.
mkdir -p repo/configs elsewhere plain
git -C repo init -q
suite repo/configs/mm.yaml 1000
(cd repo && git add configs && git -c user.name=t -c user.email=t@t commit -qm suite)

# 1. From another folder: the baselines go to the repository's root.
(cd elsewhere && QQBENCH_FINGERPRINT=machine-a "$QQBENCH" run ../repo/configs/mm.yaml \
    --update-baseline --quiet > ../up.txt 2>&1) || { show up.txt; exit 1; }
check "timing baseline at the repository root, per machine" test -f repo/baselines/machine-a/mm.yaml
check "memory baseline at the repository root, for every machine" test -f repo/baselines/mm.memory.yaml
check "nothing written in the current folder" test ! -e elsewhere/baselines
check "the memory baseline holds memory, no timing samples" has repo/baselines/mm.memory.yaml '^  metrics: \[\]'
check "the memory baseline holds no fingerprint of a machine" has repo/baselines/mm.memory.yaml '^  id: any-machine'

# 1b. --update-baseline again with the same memory: the memory baseline is
# left as it is (it was rewritten, date, commit and tick_mhz alone new: a
# diff in the user's tree on every accept); the timing baseline takes the run.
sleep 1 # a new date, were it rewritten
before=$(cksum < repo/baselines/mm.memory.yaml)
(cd elsewhere && QQBENCH_FINGERPRINT=machine-a "$QQBENCH" run ../repo/configs/mm.yaml \
    --update-baseline > ../up2.txt 2>&1) || { show up2.txt; exit 1; }
check "same memory, --update-baseline: the memory baseline untouched" test "$(cksum < repo/baselines/mm.memory.yaml)" = "$before"
check "same memory, --update-baseline: said" has up2.txt 'memory baseline unchanged: .*mm\.memory\.yaml'
check "same memory, --update-baseline: the timing baseline takes the run" has repo/baselines/machine-a/mm.yaml 'runs: 2'

# 2. Another machine (fingerprint), more memory: caught, exit 1.
suite repo/configs/mm.yaml 2000
(cd elsewhere && rc=0; QQBENCH_FINGERPRINT=machine-b "$QQBENCH" run ../repo/configs/mm.yaml \
    --quiet > ../b.txt 2> ../b.err || rc=$?; echo "$rc" > ../b.rc)
rc=$(cat b.rc)
check "memory regression on another machine: exit 1 (got $rc)" test "$rc" = 1
check "memory regression on another machine: the row" has b.txt '^p@1 +buffers +1000 -> 2000 .*regressed'
check "no timing baseline there: said, timing not gated" has b.txt 'no timing baseline for this machine \(machine-b.*timing not gated; memory gated'
check "a regressed run does not rewrite the memory baseline" has repo/baselines/mm.memory.yaml 'alloc_bytes: 1000'
[ "$rc" = 1 ] || show b.txt b.err

# 3. The same memory on yet another machine: exit 0, no memory rows.
suite repo/configs/mm.yaml 1000
(cd elsewhere && QQBENCH_FINGERPRINT=machine-c "$QQBENCH" run ../repo/configs/mm.yaml \
    --quiet > ../c.txt 2>&1) && rc=0 || rc=$?
check "same memory on another machine: exit 0 (got $rc)" test "$rc" = 0
check "same memory: no memory regression" hasnt c.txt 'buffers .*regressed'

# 4. --update-baseline writes both: the new memory is accepted.
suite repo/configs/mm.yaml 3000
QQBENCH_FINGERPRINT=machine-a "$QQBENCH" run repo/configs/mm.yaml --update-baseline --quiet > u.txt 2>&1 && rc=0 || rc=$?
check "--update-baseline: exit 0" test "$rc" = 0
check "--update-baseline: memory baseline rewritten" has repo/baselines/mm.memory.yaml 'alloc_bytes: 3000'

# 5. A missing baseline in CI is loud; --require-baseline makes it an error.
suite plain/mm.yaml 1000
CI=true "$QQBENCH" run plain/mm.yaml --quiet > ci.txt 2> ci.err && rc=0 || rc=$?
check "no baseline in CI: exit 0 (got $rc)" test "$rc" = 0
check "no baseline in CI: the summary says nothing gated" has ci.txt '^qqbench: no baseline: nothing gated'
check "no baseline in CI: a warning on stderr" has ci.err 'WARNING: no baseline: nothing gated'
check "outside a repository: baselines next to the suite" test -f plain/baselines/mm.memory.yaml
rm -rf plain/baselines
CI=true "$QQBENCH" run plain/mm.yaml --quiet --require-baseline > rq.txt 2> rq.err && rc=0 || rc=$?
check "--require-baseline without one: exit 2 (got $rc)" test "$rc" = 2
check "--require-baseline: says nothing gated" has rq.txt 'no baseline: nothing gated'
check "--require-baseline: records nothing" test ! -e plain/baselines
finish
