#!/usr/bin/env bash
# With QQ_ENABLE undefined, an instrumented object references nothing of QQ and its code equals its uninstrumented twin's.
set -euo pipefail
src="$QQ_TEST_DATA/compile_away"
inc="$QQ_SOURCE_DIR/qq/include"
cc=${CC:-cc}
fail=0

disasm() { objdump -d --no-show-raw-insn -j .text "$1" | sed -n '/<work>:/,$p' | sed 's/^ *[0-9a-f]*://'; }

for opt in -O0 -O2; do
    $cc -std=c11 -w $opt -I"$inc" -c "$src/instrumented.c" -o off$opt.o
    $cc -std=c11 -w $opt -c "$src/twin.c" -o twin$opt.o
    $cc -std=c11 -w $opt -DQQ_ENABLE -I"$inc" -c "$src/instrumented.c" -o on$opt.o

    if nm off$opt.o | grep -Ei ' (qq|mem)' ; then
        echo "FAIL: $opt: the QQ-off object references QQ symbols (above)"; fail=1
    fi
    # The test could fail: the QQ-on object must reference QQ.
    if ! nm -u on$opt.o | grep -q qq_init; then
        echo "FAIL: $opt: the QQ-on object does not reference qq_init (QQInit)"; fail=1
    fi
    if ! diff <(disasm off$opt.o) <(disasm twin$opt.o) > diff$opt.txt; then
        echo "FAIL: $opt: QQ-off code differs from the twin:"; cat diff$opt.txt; fail=1
    fi
    # Strings of key names must not survive either.
    if strings off$opt.o | grep -qx 'state'; then
        echo "FAIL: $opt: key name strings remain in the QQ-off object"; fail=1
    fi
    echo "$opt: QQ-off text $(size -A off$opt.o | awk '$1==".text"{print $2}') bytes," \
         "twin $(size -A twin$opt.o | awk '$1==".text"{print $2}'), QQ-on $(size -A on$opt.o | awk '$1==".text"{print $2}')"
done
[ $fail = 0 ] && echo "1 passed, 0 failed" || { echo "0 passed, 1 failed"; exit 1; }
