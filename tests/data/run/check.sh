# check.sh - the assertion helpers every integration script shares: `check`,
# `has`, `hasnt`, `finish`, with the pass/fail counts they keep. lib.sh
# sources it; a script that runs no qqbench sources it alone. Source it
# after set -euo pipefail.
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
# check DESCRIPTION COMMAND...: one assertion.
check() {
    local what="$1"; shift
    if "$@"; then ok "$what"; else bad "$what"; fi
}
# has FILE ERE / hasnt FILE ERE: does FILE hold a line matching ERE?
has() { grep -Eq -- "$2" "$1"; }
hasnt() { ! grep -Eq -- "$2" "$1"; }
# finish: the counts; the script's exit status is 0 only when nothing failed.
finish() {
    echo "$pass passed, $fail failed"
    [ "$fail" = 0 ]
}
