#!/usr/bin/env bash
# Outputs go where users expect (issue 24): the default report folder is reports/latest/SUITE at the root of the suite's checkout (never the current folder), with a reports/.gitignore of '*' that keeps it out of `git add -A`; a run with a regression writes no new baselines/<fingerprint>/ unless --update-baseline; --update-baseline --memory-only rewrites the memory baseline from one launch per case and leaves the timing baseline as it was.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
command -v git >/dev/null || { echo "FAIL: git is not installed"; exit 1; }
rm -rf repo elsewhere ./*.txt ./*.json
suite() { # suite FILE BYTES
    cat > "$1" <<YAML
suite: out
defaults:
  repetitions: 3
  warmup: 1
benchmarks:
  - name: p
    kernel: $PLANTED
    args: ["--mem", "$2"]
    variants:
      a: []
      b: ["--extra", "10"]
YAML
}
mkdir -p repo/configs elsewhere
git -C repo init -q
suite repo/configs/out.yaml 1000
(cd repo && git add configs && git -c user.name=t -c user.email=t@t commit -qm suite)
# run DIR ARGS...: qqbench from DIR, output in OUT.txt/ERR.txt here, status in $rc.
run_in() {
    local dir="$1"; shift
    rc=0
    (cd "$dir" && "$QQBENCH" "$@") > out.txt 2> err.txt || rc=$?
}

# 1. The default report folder: at the checkout's root, ignored by git.
run_in elsewhere run ../repo/configs/out.yaml
check "first run: exit 0 (got $rc)" test "$rc" = 0
check "report at the checkout's root" test -s repo/reports/latest/out/index.html
check "nothing in the current folder" test ! -e elsewhere/reports
check "reports/.gitignore holds '*'" grep -qx '\*' repo/reports/.gitignore
git -C repo add -A
check "git add -A leaves the reports out" \
    bash -c "! git -C repo status --porcelain | grep -q reports"
check "git add -A takes the baselines" \
    bash -c "git -C repo status --porcelain | grep -q 'baselines/'"
check "the run says where the report is" has err.txt 'report: .*/repo/reports/latest/out/index.html'
# A reports folder that is there already is left as it is.
rm -rf repo/reports && mkdir repo/reports
run_in repo run configs/out.yaml --quiet
check "an existing reports folder: no .gitignore written" test ! -e repo/reports/.gitignore
check "an existing reports folder: the report in it" test -s repo/reports/latest/out/index.html
check "--help says where the report goes" \
    bash -c "'$QQBENCH' run --help | grep -q 'reports/latest/SUITE at the root'"

# 2. A fresh machine with a memory regression: exit 1, no baseline folder.
suite repo/configs/out.yaml 2000
QQBENCH_FINGERPRINT=fresh-runner run_in elsewhere run ../repo/configs/out.yaml --quiet --no-report
check "fresh runner, memory regressed: exit 1 (got $rc)" test "$rc" = 1
check "fresh runner: no baselines/fresh-runner/" test ! -e repo/baselines/fresh-runner
check "fresh runner: said" has err.txt '^qqbench: a regression \(--update-baseline accepts it\): the baseline was not written$'
check "fresh runner: the memory baseline as it was" has repo/baselines/out.memory.yaml 'alloc_bytes: 1000'
QQBENCH_FINGERPRINT=fresh-runner run_in elsewhere run ../repo/configs/out.yaml --quiet --no-report \
    --update-baseline
check "fresh runner, asked: exit 0 (got $rc)" test "$rc" = 0
check "fresh runner, asked: its baseline written" test -f repo/baselines/fresh-runner/out.yaml
[ "$fail" = 0 ] || show out.txt err.txt

# 3. --memory-only: the memory baseline from one launch per case; the
#    timing baseline untouched.
suite repo/configs/out.yaml 3000
t=$(ls repo/baselines/*/out.yaml | grep -v fresh-runner)
cp "$t" timing-before.yaml
run_in repo run configs/out.yaml --memory-only --no-report
check "--memory-only alone: exit 2 (got $rc)" test "$rc" = 2
check "--memory-only alone: one line naming --update-baseline" \
    test "$(grep -c 'memory-only.*--update-baseline' err.txt)" = 1
run_in repo run configs/out.yaml --memory-only --update-baseline --against . --no-report
check "--memory-only --against: exit 2 (got $rc)" test "$rc" = 2
run_in repo run configs/out.yaml --memory-only --update-baseline --no-report --json ../m.json
check "--memory-only: exit 0 (got $rc)" test "$rc" = 0
check "--memory-only: memory baseline rewritten" has repo/baselines/out.memory.yaml 'alloc_bytes: 3000'
check "--memory-only: the timing baseline as it was" cmp -s timing-before.yaml "$t"
check "--memory-only: one launch per case" \
    test "$(jq_py m.json '[.cases[].launches]|unique|tostring' 'json.dumps(sorted(set(c["launches"] for c in d["cases"])),separators=(",",":"))')" = "[1]"
check "--memory-only: said in the table" has out.txt '^--memory-only: timing is not compared'
check "--memory-only: no new baseline folder" \
    test "$(ls -d repo/baselines/*/ | wc -l)" = 2
run_in repo run configs/out.yaml --quiet --no-report
check "the next run: memory the same, exit 0 (got $rc)" test "$rc" = 0
check "the next run: no memory row" hasnt out.txt 'buffers .*regressed'
[ "$fail" = 0 ] || show out.txt err.txt

finish
