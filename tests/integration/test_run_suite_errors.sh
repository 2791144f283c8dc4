#!/usr/bin/env bash
# qqbench run: every bad suite and bad command line exits 2 with one 'file:line:column: error:' line, before anything runs.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf bl work ran.marker
mkdir work

# A kernel that leaves a mark when it runs: a suite that fails to load must
# not launch even its good benchmarks.
cat > marker.sh <<SH
#!/bin/sh
touch "$PWD/ran.marker"
exec "$PLANTED" "\$@"
SH
chmod +x marker.sh
: > noexec
chmod -x noexec

# suite NAME BODY: a suite whose first benchmark is good and whose
# remaining lines are BODY (the error's position is then known).
suite() {
    printf 'suite: s\nbenchmarks:\n  - name: good\n    kernel: ./marker.sh\n%s\n' "$2" > "$1.yaml"
}
suite syntax   $'  - name: b\n    kernel: ./marker.sh\n   bad: ['
suite unknown  $'  - name: b\n    kernel: ./marker.sh\n    repetitons: 3'
suite type     $'  - name: b\n    kernel: ./marker.sh\n    nodes: {a: 1}'
suite zero     $'  - name: b\n    kernel: ./marker.sh\n    repetitions: 0'
suite negative $'  - name: b\n    kernel: ./marker.sh\n    timeout: -1'
suite nodes0   $'  - name: b\n    kernel: ./marker.sh\n    nodes: [0]'
suite emptyn   $'  - name: b\n    kernel: ./marker.sh\n    nodes: []'
suite emptyv   $'  - name: b\n    kernel: ./marker.sh\n    variants: {}'
suite missing  $'  - name: b\n    kernel: ./no-such-kernel'
suite noexec   $'  - name: b\n    kernel: ./noexec'
suite quoted   $'  - name: b\n    kernel: ./marker.sh\n    repetitions: "5"'
printf 'suite: s\ndefaults:\n  repetitons: 3\nbenchmarks:\n  - name: good\n    kernel: ./marker.sh\n' > typo_defaults.yaml

# expect NAME POSITION MESSAGE-ERE
expect() {
    local name="$1" pos="$2" msg="$3"
    qq out.txt err.txt run "$name.yaml" --baselines bl --work work
    check "$name: exit 2 (got $rc)" test "$rc" = 2
    check "$name: one line on stderr" test "$(wc -l < err.txt)" = 1
    check "$name: '$name.yaml:$pos: error: $msg'" has err.txt "^$name\\.yaml:$pos: error: $msg"
    check "$name: nothing on stdout" test ! -s out.txt
    [ "$rc" = 2 ] || show out.txt err.txt
}
expect syntax        7:4  "invalid YAML: did not find expected '-' indicator"
expect unknown       7:5  "unknown field 'repetitons'.*did you mean 'repetitions'\\?"
expect typo_defaults 3:3  "unknown field 'repetitons' in defaults; did you mean 'repetitions'\\?"
expect type          7:12 "expected a list of integers for 'nodes', got a mapping"
expect zero          7:18 "expected an integer >= 2 for 'repetitions', got '0'"
expect negative      7:14 "expected a number of seconds > 0 for 'timeout', got '-1'"
expect nodes0        7:13 "expected an integer >= 1 in 'nodes', got '0'"
expect emptyn        7:12 "expected a non-empty list of integers for 'nodes', got an empty list"
expect emptyv        7:15 "expected a non-empty mapping .*'variants', got an empty mapping"
expect missing       6:13 "kernel './no-such-kernel' does not exist"
expect noexec        6:13 "kernel './noexec' is not executable"
expect quoted        7:18 "expected an integer >= 2 for 'repetitions', got the quoted string '5'"

check "no kernel ran" test ! -e ran.marker
check "no baselines folder was made" test ! -e bl
check "no work files were made" test -z "$(ls -A work)"

# The command line.
printf 'suite: ok\ndefaults: {repetitions: 2, warmup: 0}\nbenchmarks:\n  - name: good\n    kernel: ./marker.sh\n' > ok.yaml
qq out.txt err.txt run
check "no suite: exit 2 (got $rc)" test "$rc" = 2
check "no suite: one line naming what is missing, with the usage" test "$(wc -l < err.txt)" = 1 -a -n "$(grep -E "^qqbench run: error: no SUITE.yaml given \(usage: qqbench run \[options\] SUITE.yaml\)" err.txt)"
qq out.txt err.txt run --bogus ok.yaml --baselines bl
check "unknown option: exit 2 (got $rc)" test "$rc" = 2
check "unknown option is named" has err.txt "unknown option '--bogus'"
qq out.txt err.txt run --repetiton 3 ok.yaml --baselines bl
check "misspelt option: exit 2 (got $rc)" test "$rc" = 2
check "misspelt option: did you mean" has err.txt "did you mean '--repetitions'"
qq out.txt err.txt run --repetitions 1 ok.yaml --baselines bl
check "--repetitions 1: exit 2 (got $rc)" test "$rc" = 2
qq out.txt err.txt run ok.yaml --baselines bl --json
check "--json without a file: exit 2 (got $rc)" test "$rc" = 2
qq out.txt err.txt run ok.yaml ok.yaml --baselines bl
check "two suites: exit 2 (got $rc)" test "$rc" = 2
qq out.txt err.txt run no-such-suite.yaml --baselines bl
check "missing suite file: exit 2 (got $rc)" test "$rc" = 2
check "missing suite file: 'path: error: cannot open'" has err.txt '^no-such-suite\.yaml: error: cannot open the suite file'
qq out.txt err.txt run ok.yaml --only nosuch --baselines bl --work work
check "--only unknown benchmark: exit 2 (got $rc)" test "$rc" = 2
check "--only unknown benchmark: named" has err.txt "--only nosuch: no such benchmark"
check "still no kernel ran" test ! -e ran.marker
check "still no baselines folder" test ! -e bl
check "still no work files" test -z "$(ls -A work)"
# A UTF-16 suite (a byte-order mark) is refused: suites are UTF-8.
if command -v iconv >/dev/null; then
    printf 'suite: u\nbenchmarks:\n  - name: a\n    kernel: %s\n' "$PLANTED" | iconv -f UTF-8 -t UTF-16 > u16.yaml
    qq out.txt err.txt run u16.yaml --baselines bl
    check "UTF-16 suite: exit 2 (got $rc)" test "$rc" = 2
    check "UTF-16 suite: says so at 1:1" has err.txt '^u16\.yaml:1:1: error: the suite file is UTF-16'
fi
# ci: a --base too long for a revision is refused, never cut (a 199-byte one
# lost its ^{commit} to a 200-byte buffer).
if command -v git >/dev/null; then
    rm -rf repo && mkdir repo && (cd repo && git init -q && git -c user.email=t@t -c user.name=t commit -q --allow-empty -m x)
    long=$(printf 'a%.0s' $(seq 1 1100))
    rc=0; (cd repo && "$QQBENCH" ci --base "$long" ../ok.yaml > ../ci.out 2> ../ci.err) || rc=$?
    check "ci --base of 1100 characters: exit 2 (got $rc)" test "$rc" = 2
    check "ci says it is too long" has ci.err '^qqbench ci: error: --base is 1100 characters, at most 1024$'
    mid=$(printf 'a%.0s' $(seq 1 199))
    rc=0; (cd repo && "$QQBENCH" ci --base "$mid" ../ok.yaml > ../ci.out 2> ../ci.err) || rc=$?
    check "ci --base of 199 characters: not a commit, named whole (got $rc)" has ci.err "--base '$mid' is not a commit"
fi
finish
