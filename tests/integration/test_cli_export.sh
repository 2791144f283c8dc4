#!/usr/bin/env bash
# test_cli_export.sh - qqbench export on a real kernel's file: brain (3 state
# keys, 2 count keys) for STEPS steps and brain_threads (two threads), as
# CSV and as a Chrome trace, whole and with --keys, --nodes and --out. The
# figures asserted are counts the command line fixes, or one format against
# the other and against qqbench st of the same file: no tick or time figure.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
command -v python3 >/dev/null || { echo "FAIL: python3 is not installed (make deps-test installs it)"; exit 1; }
BRAIN="$QQ_KERNEL_DIR/brain"
[ -x "$BRAIN" ] || { echo "FAIL: kernel not built at $BRAIN"; exit 1; }
STEPS=200
rm -f b.qq t.qq out.json
QQ_OUTPUT="$PWD/b.qq" "$BRAIN" --steps $STEPS >brain.out
# py FILE EXPR: a Python expression on the JSON document d of FILE.
py() { python3 -c 'import collections, json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
print(eval(sys.argv[2]))' "$1" "$2"; }

# --- csv ------------------------------------------------------------------
qq b.csv err.txt export b.qq --format csv
check "export csv: exit 0 (got $rc)" test "$rc" = 0
check "export csv: nothing on stderr" test ! -s err.txt
check "csv: the header" test "$(head -1 b.csv)" = "node,key,type,info,tick,seconds,run_seconds,thread,tid"
# An on and an off per state key and step, one row per count and step.
check "csv: $((8 * STEPS)) rows of 9 fields" \
    test "$(python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1]))); print(len(r)-1, set(map(len,r)))' b.csv)" = "$((8 * STEPS)) {9}"
check "csv: rows per key" test "$(tail -n +2 b.csv | cut -d, -f2,3 | sort | uniq -c | awk '{ printf "%s %s;", $2, $1 }')" = \
    "deliver,state $((2 * STEPS));fire,state $((2 * STEPS));firings,count $STEPS;spikes,count $STEPS;update,state $((2 * STEPS));"
check "csv: each state key on, off, on, off ... in tick order" python3 - b.csv <<'PY'
import csv, sys
last = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r["type"] != "state":
        continue
    k, on, t = r["key"], r["info"], int(r["tick"])
    p = last.get(k)
    if p is None and on != "1" or p is not None and (on == p[0] or t < p[1]):
        sys.exit(f"{k}: {on} at tick {t} after {p}")
    last[k] = (on, t)
sys.exit(0 if all(v[0] == "0" for v in last.values()) else 1)
PY
check "csv: one node, one thread" test "$(tail -n +2 b.csv | cut -d, -f1,8 | sort -u)" = "0,0"

# --keys and --nodes select rows; --out writes the file and nothing on stdout.
qq out.txt err.txt export b.qq --format csv --keys update,spikes --nodes 0 --out sel.csv
check "csv --keys update,spikes --out: exit 0 (got $rc)" test "$rc" = 0
check "csv --out: nothing on stdout" test ! -s out.txt
check "csv --keys: only update and spikes, every row of them" \
    test "$(tail -n +2 sel.csv | cut -d, -f2 | sort | uniq -c | awk '{ printf "%s %s;", $2, $1 }')" = "spikes $STEPS;update $((2 * STEPS));"
check "csv --keys: the rows are the whole export's rows" \
    test "$(grep -E '^0,(update|spikes),' b.csv)" = "$(tail -n +2 sel.csv)"

# --- chrome -----------------------------------------------------------------
qq b.json err.txt export b.qq --format chrome
check "export chrome: exit 0 (got $rc)" test "$rc" = 0
check "chrome: parses as JSON" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' b.json
check "chrome: a slice per state key and step, a counter sample per count key and step" \
    test "$(py b.json "sorted((p, n, c) for (p, n), c in collections.Counter((e['ph'], e['name']) for e in ev if e['ph'] in 'XC').items())")" = \
    "[('C', 'firings', $STEPS), ('C', 'spikes', $STEPS), ('X', 'deliver', $STEPS), ('X', 'fire', $STEPS), ('X', 'update', $STEPS)]"
check "chrome: trace_events counts every event" test "$(py b.json "d['otherData']['trace_events'] == len(ev)")" = True
check "chrome: node 0 is a process, its thread a track" \
    test "$(py b.json "[(e['name'], e['args']['name']) for e in ev if e['ph'] == 'M' and e['name'].endswith('_name')]")" = \
    "[('process_name', 'node 0'), ('thread_name', 'brain (thread 0)')]"
# The counter samples are the CSV's count rows, in the same order.
check "chrome: the counter values are the csv's" \
    test "$(py b.json "[(e['name'], e['args']['value']) for e in ev if e['ph'] == 'C']")" = \
    "$(python3 -c 'import csv,sys; print([(r["key"], int(r["info"])) for r in csv.DictReader(open(sys.argv[1])) if r["type"] == "count"])' b.csv)"
# Each slice is an on and off row of the CSV: its start and length in
# microseconds are the rows' run_seconds (to the 1e-3 us both print).
check "chrome: every slice is the csv's on..off pair" python3 - b.json b.csv <<'PY'
import collections, csv, json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
rows = collections.defaultdict(list)
for r in csv.DictReader(open(sys.argv[2])):
    if r["type"] == "state":
        rows[r["key"]].append(float(r["run_seconds"]) * 1e6)
for k, v in rows.items():
    pairs = [(v[i], v[i + 1] - v[i]) for i in range(0, len(v), 2)]
    xs = sorted((e["ts"], e["dur"]) for e in ev if e["ph"] == "X" and e["name"] == k)
    if len(xs) != len(pairs) or any(abs(a - c) > 2e-3 or abs(b - d) > 2e-3 for (a, b), (c, d) in zip(xs, sorted(pairs))):
        sys.exit(f"{k}: {xs[:3]} against {pairs[:3]}")
PY
# The slices' total length per state key, in cycles at the file's MHz, is
# st's Time column, to the rounding of the printed figures.
qq st.txt err.txt st b.qq
for k in update fire deliver; do
    check "chrome: $k's slices add up to st's time in the state" python3 - b.json st.txt "$k" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
mhz = d["otherData"]["nodes"][0]["mhz"]
durs = [e["dur"] for e in d["traceEvents"] if e["ph"] == "X" and e["name"] == sys.argv[3]]
us = sum(durs)
m = re.search(r"^\d+: +\d+ +([0-9.]+) +[0-9.]+%% +'%s'$" % sys.argv[3], open(sys.argv[2]).read(), re.M)
mcycles = float(m.group(1))
# Each slice's length is printed to 1e-3 us, st's sum to 1e-6 Mcycles.
tol = (len(durs) * 0.5e-3 * mhz + 0.5) / 1e6
sys.exit(0 if mcycles > 0 and abs(us * mhz / 1e6 - mcycles) <= tol else f"{us} us at {mhz} MHz against {mcycles} Mcycles")
PY
done
qq out.txt err.txt export b.qq --format chrome --keys fire,firings --out sel.json
check "chrome --keys fire,firings --out: exit 0 (got $rc)" test "$rc" = 0
check "chrome --keys: only fire's slices and firings' samples" \
    test "$(py sel.json "sorted(set((e['ph'], e['name']) for e in ev if e['ph'] in 'XCi'))")" = "[('C', 'firings'), ('X', 'fire')]"

# Threads: a track per thread, named by the thread, each with its slices.
QQ_OUTPUT="$PWD/t.qq" "$QQ_KERNEL_DIR/brain_threads" --threads 2 --steps $STEPS >threads.out
qq t.json err.txt export t.qq --format chrome --keys update
check "chrome of two threads: exit 0 (got $rc)" test "$rc" = 0
check "chrome of two threads: two named tracks, $STEPS update slices on each" \
    test "$(py t.json "sorted((n, sum(1 for x in ev if x['ph'] == 'X' and x['tid'] == e['tid'])) for e in ev if e['name'] == 'thread_name' for n in [e['args']['name']])")" = \
    "[('brain-w0 (thread 0)', $STEPS), ('brain-w1 (thread 1)', $STEPS)]"
qq t.csv err.txt export t.qq --format csv --keys update
check "csv of two threads: $((2 * STEPS)) update rows on each thread" \
    test "$(tail -n +2 t.csv | cut -d, -f8 | sort | uniq -c | awk '{ printf "%s:%s ", $2, $1 }')" = "0:$((2 * STEPS)) 1:$((2 * STEPS)) "

# Bad requests: exit 2, one line on stderr.
bad_request() {
    local what="$1" says="$2"; shift 2
    qq out.txt err.txt export "$@"
    check "$what: exit 2 (got $rc)" test "$rc" = 2
    check "$what: one line saying '$says'" test "$(wc -l <err.txt)" = 1 -a "$(grep -c -- "$says" err.txt)" = 1
}
bad_request "a key the file does not have" "Nope" b.qq --format csv --keys update,Nope
bad_request "a node the file does not have" "node" b.qq --format chrome --nodes 1
bad_request "a format that does not exist" "xml" b.qq --format xml
[ "$fail" = 0 ] || show err.txt
finish
