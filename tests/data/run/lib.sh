# lib.sh - shared helpers of the qqbench run/cli integration tests
# (tests/integration/test_run_*.sh, test_cli_*.sh). Source it after set -euo pipefail.
: "${QQBENCH:?QQBENCH not set (run through ctest)}"
: "${QQ_TEST_KERNELS:?QQ_TEST_KERNELS not set (run through ctest)}"
PLANTED="$QQ_TEST_KERNELS/planted"
[ -x "$PLANTED" ] || { echo "FAIL: test kernel not built at $PLANTED"; exit 1; }
. "$QQ_TEST_DATA/run/check.sh"
# qq OUT ERR ARGS...: run qqbench, exit status in $rc, never stops the script.
qq() {
    local out="$1" err="$2"; shift 2
    rc=0
    "$QQBENCH" "$@" >"$out" 2>"$err" || rc=$?
}
# gone PATTERN: wait up to 10 s for every process whose command line
# matches PATTERN to end (a process just killed takes a moment to die, longer
# on a busy machine); prints the pids still there, nothing when none are.
gone() {
    local i left
    for ((i = 0; i < 100; i++)); do
        left=$(pgrep -f -- "$1" || true)
        [ -z "$left" ] && return 0
        sleep 0.1
    done
    echo $left
}
# planted_suite FILE SUITE ARGS [MORE]: a suite of one benchmark 'p' of the
# planted kernel, 2 launches a side and no warmup, its args the YAML flow
# list ARGS ('"--work", "1000"'), then the YAML lines MORE under it
# (variants:, params:).
planted_suite() {
    {
        printf 'suite: %s\ndefaults:\n  repetitions: 2\n  warmup: 0\nbenchmarks:\n' "$2"
        printf '  - name: p\n    kernel: %s\n    args: [%s]\n' "$PLANTED" "$3"
        [ -z "${4:-}" ] || printf '%s\n' "$4"
    } > "$1"
}
# record3 ARGS...: 'qqbench run ARGS --update-baseline' three times: a stored baseline gates
# timing only from 3 runs on (docs/STATISTICS.md section 17). Its output goes to record3.log.
record3() {
    local i
    for i in 1 2 3; do
        "$QQBENCH" run "$@" --update-baseline --quiet >>record3.log 2>&1 || return 1
    done
}
# failed_logs_only DIR OUT: after kernel failures the run's work folder in DIR
# holds the failed launches' output alone (*.failed.log, at least one), each
# named in OUT (the failure's reason says where it is).
failed_logs_only() {
    local f n=0
    while IFS= read -r f; do
        case $f in *.failed.log) ;; *) return 1 ;; esac
        grep -qF -- "(its output: $f)" "$2" ||
            grep -qF -- "(its output: $(cd "$(dirname "$f")" && pwd)/${f##*/})" "$2" || return 1
        n=$((n + 1))
    done < <(find "$1" -type f)
    [ "$n" -gt 0 ]
}
# show FILE...: print files after a failure, for the log.
show() { for f in "$@"; do echo "--- $f"; cat "$f" 2>/dev/null || true; done; }
# jq_py FILE JQ_EXPR PY_EXPR: evaluate an expression on a JSON file (d is the
# document in Python); prints the result (jq -r style). Both tools answer and
# must agree (make deps-test installs both), so neither expression goes unchecked.
jq_py() {
    command -v python3 >/dev/null || { echo "no-python3"; return; }
    command -v jq >/dev/null || { echo "no-jq"; return; }
    local py jqr
    py=$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
r = eval(sys.argv[2])
# as jq -r prints: strings raw, whole numbers without ".0", the rest as JSON
if isinstance(r, float) and r.is_integer() and abs(r) < 1e17:
    r = int(r)
print(r if isinstance(r, str) else json.dumps(r, indent=2))' "$1" "$3")
    jqr=$(jq -r "$2" "$1")
    # Both are asked, and must agree: a query written twice is checked twice.
    if [ "$py" = "$jqr" ]; then
        echo "$py"
    else
        echo "jq_py: '$2' gives '$jqr', '$3' gives '$py'" >&2
        echo "jq-and-python-disagree"
    fi
}
# valid_json FILE: the file parses as JSON (python3, else jq; else say so).
valid_json() {
    if command -v python3 >/dev/null; then python3 -m json.tool "$1" >/dev/null
    elif command -v jq >/dev/null; then jq . "$1" >/dev/null
    else echo "note: neither python3 nor jq: JSON syntax not checked"; grep -q '"comparisons"' "$1"
    fi
}
# headless_browser: the name of the first headless-capable browser on PATH, nothing when none is.
headless_browser() {
    local b
    for b in chromium-headless-shell chromium chromium-browser google-chrome; do
        if command -v "$b" >/dev/null; then echo "$b"; return; fi
    done
}
# valid_xml FILE: well-formed XML (xmllint, else python3).
valid_xml() {
    if command -v xmllint >/dev/null; then xmllint --noout "$1"
    elif command -v python3 >/dev/null; then python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$1"
    else echo "note: neither xmllint nor python3: XML syntax not checked"; grep -q '<testsuites>' "$1"
    fi
}
