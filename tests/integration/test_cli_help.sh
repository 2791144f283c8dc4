#!/usr/bin/env bash
# qqbench --help and every command's --help exit 0 and describe the options; an unknown command exits 2.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
qq out.txt err.txt --help
check "qqbench --help: exit 0 (got $rc)" test "$rc" = 0
for cmd in run compare st; do
    check "qqbench --help lists '$cmd'" has out.txt "^  $cmd "
done
check "qqbench --help gives the exit codes" has out.txt '0 all good, 1 a regression, 2 bad input or usage'
qq out.txt err.txt
check "qqbench alone: exit 2 (got $rc)" test "$rc" = 2
check "qqbench alone: usage on stderr" has err.txt '^usage: qqbench'
qq out.txt err.txt --version
check "qqbench --version: exit 0 (got $rc)" test "$rc" = 0
check "qqbench --version prints a version" has out.txt '^qqbench [0-9]+\.[0-9]+'

qq out.txt err.txt run --help
check "run --help: exit 0 (got $rc)" test "$rc" = 0
check "run --help on stdout, nothing on stderr" test -s out.txt -a ! -s err.txt
for opt in --update-baseline --record --baselines --baseline-from --kernels --only \
           --repetitions --no-confirm --json --junit --work --keep --quiet --verbose --help; do
    check "run --help describes $opt" has out.txt "^ +(-[a-z], )?$opt( |$)"
done
check "run --help gives the exit codes" has out.txt '3 a kernel failed'
qq out.txt err.txt run -h
check "run -h: exit 0 (got $rc)" test "$rc" = 0

qq out.txt err.txt compare --help
check "compare --help: exit 0 (got $rc)" test "$rc" = 0
check "compare --help: usage" has out.txt '^usage: qqbench compare .*A\.qq B\.qq'
check "compare --help describes --all" has out.txt '^ +--all '
qq out.txt err.txt st --help
check "st --help: exit 0 (got $rc)" test "$rc" = 0
check "st --help: usage" has out.txt '^usage: qqbench st '
check "st --help describes --node" has out.txt '^ +--node N '

qq out.txt err.txt nosuch
check "unknown command: exit 2 (got $rc)" test "$rc" = 2
check "unknown command: one line naming it" test "$(wc -l < err.txt)" = 1
check "unknown command: named" has err.txt "'nosuch' is not a command"
qq out.txt err.txt comapre a.qq b.qq
check "comapre: exit 2 (got $rc)" test "$rc" = 2
check "comapre: did you mean compare" has err.txt "'comapre' is not a command \(did you mean 'compare'\?\)"
qq out.txt err.txt compare --bogus a b
check "compare --bogus: exit 2 (got $rc)" test "$rc" = 2

# qqbench help CMD is qqbench CMD --help; every command says an unknown
# option the same way (the option table's parser, harness/cli/opts.c).
for cmd in run ci compare st view export whatif profile-machine model history report; do
    qq out.txt err.txt "$cmd" --help
    cp out.txt want.txt
    qq out.txt err.txt help "$cmd"
    check "help $cmd: exit 0 (got $rc)" test "$rc" = 0
    check "help $cmd: the same as '$cmd --help'" cmp -s out.txt want.txt
    qq out.txt err.txt "$cmd" --bogus
    check "$cmd --bogus: exit 2, one line, the one wording (got $rc)" \
        test "$rc" = 2 -a "$(wc -l < err.txt)" = 1 -a \
        -n "$(grep "^qqbench $cmd: error: unknown option '--bogus'; see 'qqbench $cmd --help'\$" err.txt)"
done
qq out.txt err.txt help
check "help alone: exit 0 (got $rc)" test "$rc" = 0
check "help alone: the command list" has out.txt '^  profile-machine '
qq out.txt err.txt help comapre
check "help comapre: exit 2 (got $rc)" test "$rc" = 2
check "help comapre: did you mean compare" has err.txt "'comapre' is not a command \(did you mean 'compare'\?\)"
qq out.txt err.txt run --repetiton 3 x.yaml
check "run --repetiton: did you mean, then where to look" has err.txt \
    "^qqbench run: error: unknown option '--repetiton' \(did you mean '--repetitions'\?\); see 'qqbench run --help'\$"
qq out.txt err.txt view x.qq --from
check "view --from without a value: missing value" has err.txt "^qqbench view: error: missing value for '--from'"
qq out.txt err.txt run --repetitions abc x.yaml
check "run --repetitions abc: the range" has err.txt "^qqbench run: error: --repetitions 'abc': expected a whole number from 2 to 100000"
qq out.txt err.txt compare only-one.qq
check "compare with one file: exit 2 (got $rc)" test "$rc" = 2
finish
