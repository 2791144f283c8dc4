#!/usr/bin/env bash
# qqbench report RESULT.json: a real suite run twice (channel pow/direct, chain, brain's memory keys, msg_pack on 1 and 2 MPI ranks), every picture drawn, re-drawn by plain gnuplot without a warning, SVGs parse, index.html references only files that exist and loads in a headless browser; unknown fields; bad input (a comparison kind outside baseline, ab and build among it) exits 2 with one line.
set -euo pipefail
. "$QQ_TEST_DATA/reports/lib.sh"
K="${QQ_KERNEL_DIR:?QQ_KERNEL_DIR not set}"
for k in channel chain brain msg_pack; do
    [ -x "$K/$k" ] || { echo "FAIL: kernel $k not built in $K"; exit 1; }
done
command -v mpirun >/dev/null || { echo "skipped: no mpirun (Debian: openmpi-bin) for msg_pack on 2 ranks"; exit 77; }
CHECK="$QQ_TEST_DATA/report/check_report.py"
rm -rf bl rep rep1 syn np gf bad ./*.json
cat > small.yaml <<YAML
suite: small
defaults:
  repetitions: 4
  warmup: 0
  timeout: 120
  threshold: 3.0
benchmarks:
  - name: channel
    kernel: $K/channel
    args: ["--size", "2", "--steps", "300"]
    variants:
      pow: ["--variant", "pow"]
      direct: ["--variant", "direct"]
  - name: chain
    kernel: $K/chain
    args: ["--steps", "3000"]
    variants:
      n0: ["--ops", "0"]
      n10: ["--ops", "10"]
      n40: ["--ops", "40"]
  - name: brain
    kernel: $K/brain
    args: ["--steps", "50"]
  - name: msg_pack
    kernel: $K/msg_pack
    threshold: 10.0
    # Each launch starts mpirun (about 0.5 s, most of the run): the fewest
    # launches a comparison takes.
    repetitions: 2
    args: ["--steps", "30", "--size", "1000"]
    nodes: [1, 2]
    variants:
      ncs3: ["--variant", "ncs3"]
      ncs5: ["--variant", "ncs5"]
YAML
# Verdicts are not this test's business: 0 (all good) or 1 (a regression
# on a busy machine) both leave a complete JSON report.
# The first run records the baseline; two more make it 3 runs, the least
# a stored baseline gates timing with (docs/STATISTICS.md section 17), so
# the second run has rows against it. --budget 10s: the launches the plan
# against the baseline may add stay few (msg_pack's start mpirun each).
for run in first more1 more2 second; do
    qq "$run.out" "$run.err" run small.yaml --baselines bl -q --json "$run.json" \
        $(case $run in more*) echo --update-baseline ;; second) echo --budget 10s ;; esac)
    check "run $run: exit 0 or 1 (got $rc)" test "$rc" = 0 -o "$rc" = 1
    [ "$rc" = 0 ] || [ "$rc" = 1 ] || show "$run.out" "$run.err"
done
check "second run was compared with the baseline" test "$(py second.json "sum(c['kind'] == 'baseline' for c in d['comparisons']) > 0")" = True

# --- the report of the second run ---------------------------------------
qq out.txt err.txt report second.json --out rep
check "report: exit 0 (got $rc)" test "$rc" = 0
[ "$rc" = 0 ] || show err.txt
check "report: no stderr" test ! -s err.txt
check "report: says where index.html is" has out.txt '^qqbench report: wrote rep/index\.html$'
expected="change-baseline change-ab samples-channel samples-chain samples-brain samples-msg_pack memory scaling-msg_pack ab-channel ab-chain ab-msg_pack"
for s in $expected; do
    check "picture $s: script" test -s "rep/$s.gp"
    picture rep "$s"
done
# Every script in the folder, not only the expected ones.
for g in rep/*.gp; do
    g=$(basename "$g")
    for dat in $(grep -o "'[^']*\.dat'" "rep/$g" | tr -d "'" | sort -u); do
        check "$g: its data $dat exists" test -s "rep/$dat"
    done
    replot rep "$g"
done
check "no picture left unregistered: as many PNG as scripts" test "$(ls rep/*.png | wc -l)" = "$(ls rep/*.gp | wc -l)"
if python3 "$CHECK" rep > refs.txt; then ok "index.html references only files in the folder"; else bad "index.html references only files in the folder"; fi
cat refs.txt
ncmp=$(py second.json "len(d['comparisons']) + len(d['memory_changes'])")
check "index.html: a table row per comparison and memory change ($ncmp)" grep -q "rows=$ncmp " refs.txt
check "index.html: an image per picture" grep -q "images=$(ls rep/*.png | wc -l) " refs.txt
check "index.html: history section says why it is empty" has rep/index.html 'History across versions'
check "index.html: msg_pack's memory change in the table" has rep/index.html '<td>msg_pack\[ncs5\]@1</td><td>packets</td>'
check "key names print as they are (no enhanced text)" has rep/change-baseline.gp 'noenhanced'
check "change picture: cycles per hit in the axis label" has rep/change-baseline.gp "set xlabel 'change of cycles per hit, %"
check "samples picture: the time on the right axis" has rep/samples-channel.gp "set y2label 'time per hit"
check "memory picture: KB" has rep/memory.gp "set xlabel 'KB'"
check "memory picture: brain's Synapse objects" has rep/memory.dat 'brain@1  Synapse'
check "scaling picture: nodes 1 and 2" has rep/scaling-msg_pack.gp "set xtics \(\"1\" 1, \"2\" 2\)"
check "scaling data: imbalance on 2 nodes" has rep/scaling-msg_pack.dat $'^0\t[0-9]+\t2\t[0-9.e+]+\t[0-9.e+]+\t[0-9.e+]+\t[0-9.]+'
check "A/B deltas labelled" has rep/ab-channel-deltas.dat $'\t[-+][0-9.]+% (faster|slower|same|noisy|other)$'
check "samples: one point per launch of channel[pow]@1's Km" test "$(awk -F'\t' '$1 == 1 && $4 == 1 && $2 < 1.5' rep/samples-channel-points.dat | wc -l)" = "$(py second.json "len([m for c in d['cases'] if c['name'] == 'channel[pow]@1' for m in c['metrics'] if m['key'] == 'Km' and m['what'] == 'per_hit'][0]['samples'])")"

# --- a headless browser: no console error, every image loads --------------
browser=$(headless_browser)
if [ -z "$browser" ]; then
    echo "note: browser check skipped: no chromium-headless-shell or chromium (make deps-test installs chromium-headless-shell)"
else
    brc=0
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
        --virtual-time-budget=10000 --dump-dom "file://$PWD/rep/index.html" > dom.html 2> browser.err || brc=$?
    check "$browser --dump-dom: exit 0 (got $brc)" test "$brc" = 0
    check "browser: no console message" hasnt browser.err 'CONSOLE'
    grep 'CONSOLE' browser.err || true
    n=$(ls rep/*.png | wc -l)
    check "browser: all $n images loaded" has dom.html "<body data-images=\"$n\" data-images-broken=\"0\">"
    grep -o '<body[^>]*>' dom.html || true
    # A missing picture is caught by the same check.
    cp -r rep repx && rm repx/memory.png
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --virtual-time-budget=10000 \
        --dump-dom "file://$PWD/repx/index.html" > domx.html 2>/dev/null || true
    check "browser: a missing picture is reported on the page" has domx.html 'data-images-broken="1"'
    rm -rf repx
fi

# --- a first run: no baseline, A/B only ----------------------------------
qq out.txt err.txt report first.json --out rep1
check "report of the first run: exit 0 (got $rc)" test "$rc" = 0
[ "$rc" = 0 ] || show err.txt
check "first run: no baseline picture" test ! -e rep1/change-baseline.gp
check "first run: A/B picture" test -s rep1/change-ab.png
check "first run: index says there was no baseline" has rep1/index.html 'baseline: none'
if python3 "$CHECK" rep1 > refs1.txt; then ok "first run: index.html references only files in the folder"; else bad "first run: index references"; cat refs1.txt; fi

# --- fields the run code may add: kinds, notes, baseline samples ----------
python3 - second.json syn.json <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
d["new_top_level"] = {"runs": 3}
extra = []
for c in d["comparisons"]:
    c["runs"] = 2
    if c["kind"] == "baseline":
        c["baseline_samples"] = [c["baseline_cycles_per_hit"] * f for f in (0.98, 1.0, 1.01, 1.03)]
        b = copy.deepcopy(c)
        b["kind"] = "build"
        b["reference"] = "reference build"
        b["note"] = "a per-key note with <html> & 'quotes' and a % sign"
        extra.append(b)
d["comparisons"] += extra
d["comparisons"][0]["verdict"] = "regressed"
d["comparisons"][1]["verdict"] = "improved"
d["comparisons"][2].update(change_pct=None, interval_lo_pct=None, interval_hi_pct=None,
                           verdict="skipped", reason="too few launches")
d["comparisons"].append({"case": "nowhere@1", "key": "k%s", "kind": "build",
                         "verdict": "whatever", "change_pct": 5.0})
for c in d["cases"]:
    if c["name"] == "brain@1":
        m = [m for m in c["memory"] if m["key"] == "Synapse"][0]
        d["memory_changes"].append({"case": "brain@1", "key": "Synapse", "kind": "baseline",
                                    "before": dict(m, alloc_bytes=m["alloc_bytes"] + 4096,
                                                   created=m["created"] - 10),
                                    "after": m, "verdict": -1})
    if c["name"] == "chain[n40]@1":
        c["failed"] = True
        c["note"] = "killed by signal 9 (timeout)"
        c["metrics"] = []
json.dump(d, open(sys.argv[2], "w"))
PY
qq out.txt err.txt report syn.json --out syn
check "report with extra fields and kinds: exit 0 (got $rc)" test "$rc" = 0
[ "$rc" = 0 ] || show err.txt
picture syn change-build
for g in syn/*.gp; do replot syn "$(basename "$g")"; done
check "build kind: its own table" has syn/index.html '<h3>Against the reference build</h3>'
check "notes are escaped" has syn/index.html 'a per-key note with &lt;html&gt; &amp; &#39;quotes&#39;'
check "a comparison without a change: n/a with its reason" has syn/change-baseline.dat $'\tn/a \(too few launches\)$'
check "baseline samples drawn as a series of their own" test "$(awk -F'\t' '$4 == 0' syn/samples-channel-points.dat | wc -l)" -gt 0
check "memory: the shrunken Synapse in green, was-text" has syn/memory.dat $'brain@1  Synapse.*\t40563\t.*\\(was '
check "kernel failure listed" has syn/index.html 'chain\[n40\]@1: killed by signal 9 \(timeout\)'
if python3 "$CHECK" syn > refs2.txt; then ok "synthetic: index.html references only files in the folder"; else bad "synthetic: index references"; cat refs2.txt; fi

# Values of the wrong type or range are drawn as missing, never a crash.
python3 - second.json odd.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["cases"][0]["nodes"] = 1e300
d["cases"][1]["metrics"] = "not a list"
d["cases"][2]["metrics"][0]["samples"] = ["x", None, 1e308, -1e308]
d["cases"][3]["memory"] = [{"key": 5}, {"key": "k", "created": "many"}]
d["comparisons"][3]["interval_lo_pct"] = "wide"
d["exit_code"] = 1e300
d["fingerprint"] = None
# A/B comparisons whose cases hold no samples: bars from the comparison alone.
for c in d["cases"]:
    if c["bench"] == "msg_pack":
        c["metrics"] = []
json.dump(d, open(sys.argv[2], "w"))
PY
qq out.txt err.txt report odd.json --out odd
check "values of the wrong type: exit 0 (got $rc)" test "$rc" = 0
[ "$rc" = 0 ] || show err.txt

# --- --no-plot ------------------------------------------------------------
qq out.txt err.txt report second.json --out np --no-plot
check "--no-plot: exit 0 (got $rc)" test "$rc" = 0
check "--no-plot: scripts, data and index, no picture" test -s np/change-baseline.gp -a -s np/change-baseline.dat -a -s np/index.html -a ! -e np/change-baseline.svg

# --- bad input: exit 2, one line on stderr --------------------------------
head -c 300 second.json > cut.json
echo '[1, 2]' > array.json
echo '{"cases": [{"bench": "x"}]}' > noname.json
printf '{"suite": "a", "suite": "b", "cases": []}' > dup.json
python3 -c 'import json, sys
d = json.load(open("second.json"))
d["comparisons"][0]["kind"] = "odd kind/1"
json.dump(d, open("kind.json", "w"))'
badinput "missing file" report missing.json --out bad
check "missing: names the file" has err.txt 'missing\.json'
badinput "truncated JSON" report cut.json --out bad
check "truncated: file:line:column:" has err.txt 'cut\.json:[0-9]+:[0-9]+: error: '
badinput "not an object" report array.json --out bad
check "not an object: says what was expected" has err.txt 'not a qqbench run report'
badinput "case without a name" report noname.json --out bad
badinput "duplicate key" report dup.json --out bad
badinput "a kind outside its set" report kind.json --out bad
check "a kind outside its set: names the field" has err.txt "kind\.json: error: comparisons\[0\]\.kind: 'odd kind/1' is not one of its values"
badinput "no file" report
badinput "two files" report second.json first.json
badinput "unknown option" report second.json --frobnicate
badinput "--out without a folder" report second.json --out
check "no folder made for bad input" test ! -e bad
rc=0
QQB_GNUPLOT=false "$QQBENCH" report second.json --out gf > out.txt 2> err.txt || rc=$?
check "failing gnuplot: exit 2 (got $rc)" test "$rc" = 2
check "failing gnuplot: one line naming it" test "$(wc -l < err.txt)" = 1 -a -n "$(grep -F 'false change-' err.txt)"
finish
