#!/usr/bin/env bash
# qqbench report never runs what a run JSON holds: a bench name with backquotes, a newline and system(), a key, a case name and a suite name with bytes outside their documented set are refused naming the field (exit 2), nothing is executed, nothing is written outside the output folder; the same JSON made clean draws its report.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
command -v python3 >/dev/null || { echo "FAIL: python3 is needed to edit the JSON (make deps-test installs it)"; exit 1; }
rm -rf bl out* ./*.json PWN*
planted_suite s.yaml hostile '--work, "2000", --reps, "20"' '    variants:
      a: []
      b: [--extra, "3"]'
qq out.txt err.txt run s.yaml --baselines bl --json r1.json --no-report -q
check "the run writes its JSON (exit $rc)" test "$rc" = 0
# evil NAME FIELD VALUE: r1.json with FIELD of every case (or of the first
# metric or comparison) set to VALUE, as NAME.json.
evil() {
    python3 - "$1" "$2" "$3" <<'PY'
import json, sys
name, field, value = sys.argv[1:]
d = json.load(open("r1.json"))
if field == "suite":
    d["suite"] = value
elif field.startswith("metrics."):
    for c in d["cases"]:
        c["metrics"][0][field.split(".")[1]] = value
elif field.startswith("comparisons."):
    d["comparisons"][0][field.split(".")[1]] = value
else:
    for c in d["cases"]:
        c[field] = value
json.dump(d, open(name + ".json", "w"))
PY
}
here=$PWD
evil e1 bench "x\`touch $here/PWN1\`"
evil e2 bench $'y\nsystem(\'touch '"$here"$'/PWN2\')\n#'
evil e3 metrics.key "k\`touch $here/PWN3\`"
evil e4 name $'p[a]@1\nsystem(\'touch '"$here"$'/PWN4\')'
evil e5 suite "../../PWN5"
evil e6 comparisons.case $'c\x1b[31m'
evil e7 variant "$(printf 'v%.0s' $(seq 1 200))"
for e in e1:'cases\[0\]\.bench' e2:'cases\[0\]\.bench' e3:'cases\[0\]\.metrics\[\]\.key' \
         e4:'cases\[0\]\.name' e5:'suite' e6:'comparisons\[0\]\.case' e7:'cases\[0\]\.variant'; do
    f=${e%%:*} field=${e#*:}
    qq $f.out $f.err report $f.json --out out_$f
    check "$f: refused, exit 2 (got $rc)" test "$rc" = 2
    check "$f: the message names the field" has $f.err "^qqbench report: $f\.json: error: $field: the name '"
    check "$f: and says what a name may hold" has $f.err 'expected 1 to (128|255) '
    check "$f: no control character reaches the terminal" hasnt $f.err $'\x1b'
done
check "nothing was executed" test -z "$(ls PWN* out_*/PWN* 2>/dev/null)"
# Nothing outside the output folders: the only new entries here are theirs
# and the test's own files.
check "no file outside the output folders" test -z "$(ls -A | grep -Ev '^(bl|out_e[0-9]|out_clean|s\.yaml|r1\.json|e[0-9]\.(json|out|err)|clean\.(out|err)|out\.txt|err\.txt)$' || true)"
# The same run, clean, still draws (the names rule lets real names through).
qq clean.out clean.err report r1.json --out out_clean
check "the clean JSON draws its report (exit $rc)" test "$rc" = 0
if command -v gnuplot >/dev/null; then
    check "with pictures" test -n "$(ls out_clean/*.svg 2>/dev/null)"
fi
# Symbolic links in the output folder are not written through (the report
# overwrote the file index.html pointed at).
for name in index.html samples-p.png; do
    rm -rf out_link; mkdir out_link
    echo precious > victim.txt
    ln -s ../victim.txt "out_link/$name"
    qq l.out l.err report r1.json --out out_link
    check "$name a symbolic link: exit 2 (got $rc)" test "$rc" = 2
    check "$name: the file it points at is untouched" test "$(cat victim.txt)" = precious
    check "$name: says so" has l.err "out_link/$name is a symbolic link|out_link/$name: it is a symbolic link"
done
rm -rf out_link victim.txt l.out l.err
[ "$fail" = 0 ] || show e1.err e2.err e3.err e4.err e5.err e6.err e7.err clean.err
finish
