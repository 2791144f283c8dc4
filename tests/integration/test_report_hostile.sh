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

# --- index.html runs no script from the JSON -------------------------------
# A comparison's kind is a closed set (baseline, ab, build): any other value
# is refused naming the field. It reached the page's summary line unescaped,
# and a headless browser ran the JSON's script (<body data-pwned="yes">).
pwn='<img src=x onerror=document.body.setAttribute("data-pwned","yes")>'
evil k1 comparisons.kind "$pwn"
qq k1.out k1.err report k1.json --out out_k1
check "a kind outside its set: refused, exit 2 (got $rc)" test "$rc" = 2
check "a kind outside its set: one line" test "$(wc -l < k1.err)" = 1
check "a kind outside its set: names the field and the set" has k1.err "^qqbench report: k1\.json: error: comparisons\[0\]\.kind: '<img src=x .*' is not one of its values; expected one of 'baseline', 'ab', 'build'$"
# Every free text and text name the page shows, holding the same script:
# the page shows it as text.
python3 - "$pwn" <<'PY'
import json, sys
pwn = sys.argv[1]
d = json.load(open("r1.json"))
for f in ("date", "git_commit", "qqbench_version", "baseline", "baseline_other_build"):
    d[f] = pwn
d["fingerprint"] = {"id": pwn, "cpu": pwn, "compiler": pwn, "flags": pwn, "tick_mhz": 1000}
for c in d["cases"]:
    c["point"] = pwn
    c["metrics"][0]["key"] = pwn
d["cases"][0]["failed"] = True
d["cases"][0]["note"] = pwn
key0 = json.load(open("r1.json"))["cases"][0]["metrics"][0]["key"]
for c in d["comparisons"]:
    if c["key"] == key0:
        c["key"] = pwn
    c["note"] = pwn
    c["reason"] = pwn
json.dump(d, open("k2.json", "w"))
PY
qq k2.out k2.err report k2.json --out out_k2
check "every text field holding markup: drawn, exit 0 (got $rc)" test "$rc" = 0
check "the page shows the markup as text" has out_k2/index.html '&lt;img src=x onerror=document\.body\.setAttribute\(&quot;data-pwned&quot;'
browser=$(headless_browser)
if [ -z "$browser" ]; then
    echo "note: browser check skipped: no chromium-headless-shell or chromium (make deps-test installs chromium-headless-shell)"
else
    for k in k1 k2; do
        [ -e out_$k/index.html ] || continue
        brc=0
        timeout 120 "$browser" --headless --no-sandbox --disable-gpu --virtual-time-budget=5000 \
            --dump-dom "file://$PWD/out_$k/index.html" > $k.dom 2>/dev/null || brc=$?
        check "$k: $browser loads the page (exit $brc)" test "$brc" = 0 -a -s $k.dom
        check "$k: no script of the JSON ran (no data-pwned)" hasnt $k.dom 'data-pwned="yes"'
        check "$k: the page's own script ran" has $k.dom '<body data-images='
    done
fi
rm -rf out_k1 out_k2 k1.* k2.*

# --- a machine profile's figures in their ranges ----------------------------
# A working set of 1e308 bytes reached gnuplot ("x axis range undefined or
# overflow": no field named, exit 2); a negative bandwidth was drawn.
python3 - <<'PY'
import copy, json
d = json.load(open("r1.json"))
good = {"path": "bl/m/profile.yaml", "tick_mhz": 2000.0, "gflops": 10.0,
        "memory": {"bytes": [16384, 1048576, 67108864], "bandwidth_gbps": [50.0, 30.0, 10.0],
                   "latency_ns": [1.0, 5.0, 80.0]},
        "mpi": {"bytes": [], "one_way_us": [], "bandwidth_mbps": []}}
d["profile"] = good
json.dump(d, open("p0.json", "w"))
for name, field, i, v in (("p1", "bytes", 1, 1e308), ("p2", "bandwidth_gbps", 1, -30.0)):
    e = copy.deepcopy(good)
    e["memory"][field][i] = v
    d["profile"] = e
    json.dump(d, open(name + ".json", "w"))
PY
qq p0.out p0.err report p0.json --out out_p0
check "a profile in range: drawn (exit $rc)" test "$rc" = 0
if command -v gnuplot >/dev/null; then
    check "a profile in range: its picture" test -s out_p0/profile_memory.svg
fi
for p in p1:'memory\.bytes\[1\]: 1e\+308 is out of range' p2:'memory\.bandwidth_gbps\[1\]: -30 is out of range'; do
    f=${p%%:*} want=${p#*:}
    qq $f.out $f.err report $f.json --out out_$f
    check "$f: a profile figure out of range refused, exit 2 (got $rc)" test "$rc" = 2
    check "$f: one line" test "$(wc -l < $f.err)" = 1
    check "$f: naming the field" has $f.err "^qqbench report: $f\.json: error: profile\.$want"
    check "$f: not gnuplot's message" hasnt $f.err gnuplot
    [ "$rc" = 2 ] || show $f.err
done
rm -rf out_p0 out_p1 out_p2 p[012].*
[ "$fail" = 0 ] || show e1.err e2.err e3.err e4.err e5.err e6.err e7.err clean.err
finish
