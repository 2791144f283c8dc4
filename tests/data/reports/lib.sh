# lib.sh - helpers of the view/export integration tests (tests/integration/test_view*.sh,
# test_export.sh): the run tests' helpers plus picture checks. Source after set -euo pipefail.
. "$QQ_TEST_DATA/run/lib.sh"
MAKE_QQ="$QQ_TEST_DATA/reports/make_qq.py"
command -v python3 >/dev/null || { echo "skipped: python3 is needed to check the output"; exit 77; }
command -v gnuplot >/dev/null || { echo "skipped: no gnuplot (Debian: gnuplot-nox)"; exit 77; }

# picture DIR STEM: STEM.svg parses as XML and STEM.png is a non-empty PNG.
picture() {
    local d="$1" s="$2"
    check "$d/$s.svg exists and is not empty" test -s "$d/$s.svg"
    check "$d/$s.svg parses as XML" valid_xml "$d/$s.svg"
    check "$d/$s.png is a PNG" python3 -c 'import sys
b = open(sys.argv[1], "rb").read()
sys.exit(0 if len(b) > 1000 and b[:8] == b"\x89PNG\r\n\x1a\n" else 1)' "$d/$s.png"
}

# replot DIR SCRIPT: plain 'gnuplot SCRIPT' from DIR exits 0, writes nothing on
# stderr, and draws the pictures again.
replot() {
    local d="$1" g="$2" stem="${2%.gp}" prc=0
    rm -f "$d/$stem.svg" "$d/$stem.png"
    (cd "$d" && gnuplot "$g") > replot.out 2> replot.err || prc=$?
    check "gnuplot $g from $d: exit 0 (got $prc)" test "$prc" = 0
    check "gnuplot $g from $d: no warning on stderr" test ! -s replot.err
    [ -s replot.err ] && show replot.err
    check "gnuplot $g from $d: drew the SVG and PNG again" test -s "$d/$stem.svg" -a -s "$d/$stem.png"
}

# py FILE EXPR: evaluate a Python expression on the JSON document d of FILE.
py() { python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(eval(sys.argv[2]))' "$1" "$2"; }
# badinput WHAT ARGS...: qqbench ARGS refuses its input: exit 2 and one line on stderr.
badinput() {
    local what="$1"; shift
    qq out.txt err.txt "$@"
    check "$what: exit 2 (got $rc)" test "$rc" = 2
    check "$what: one line on stderr" test "$(wc -l < err.txt)" = 1
    [ "$(wc -l < err.txt)" = 1 ] || show err.txt
}
