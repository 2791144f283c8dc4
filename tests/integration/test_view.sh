#!/usr/bin/env bash
# qqbench view and export on a hand-made two-node file with known ticks and offsets (exact times), on a real kernel's file, and on bad input (exit 2, one line).
set -euo pipefail
. "$QQ_TEST_DATA/reports/lib.sh"
rm -rf ./*-view out bad
python3 "$MAKE_QQ" syn.qq

# --- view: data, script, pictures -------------------------------------
qq out.txt err.txt view syn.qq
check "view syn.qq: exit 0 (got $rc)" test "$rc" = 0
[ "$rc" = 0 ] || show err.txt
check "view: no stderr" test ! -s err.txt
d=syn-view
for f in view.gp view-nodes.dat view-states.dat view-events.dat; do
    check "view wrote $f" test -s "$d/$f"
done
picture "$d" view
replot "$d" view.gp
# Times are microseconds since the run's start (tick 1000 on node 0's line);
# node 1's ticks are moved back by its offset (500 ticks = 0.5 us).
check "axis in microseconds" has "$d/view.gp" "set xlabel 'time since the run''s start \(µs\)'"
check "node 0: step 1..7 us" has "$d/view-states.dat" '^1 7 [-0-9.]+ [-0-9.]+ 0$'
check "node 1: step 1.1..7.1 us (offset applied)" has "$d/view-states.dat" '^1\.1 7\.1 [-0-9.]+ [-0-9.]+ 1$'
check "node 1: unbalanced step runs to its last entry (7.5..8 us)" has "$d/view-states.dat" '^7\.5 8 [-0-9.]+ [-0-9.]+ 1$'
check "node 1: MessageBus::Sync 2..6 us" has "$d/view-states.dat" '^2 6 [-0-9.]+ [-0-9.]+ 1$'
check "nested Sync drawn after step" test "$(grep -n "^# key 'MessageBus::Sync'" "$d/view-states.dat" | cut -d: -f1)" -gt "$(grep -n "^# key 'step'" "$d/view-states.dat" | cut -d: -f1)"
check "mark 'tick' at 4.5 us on node 0" has "$d/view-events.dat" '^4\.5 0 [-0-9.]+ 0$'
check "value V on node 1 at 6.2 us" has "$d/view-events.dat" '^6\.2 -2\.5 [-0-9.]+ 1$'
check "both nodes have a strip" test "$(grep -cv '^#' "$d/view-nodes.dat")" = 2
check "waiting key is vermillion" has "$d/view.gp" "fc rgb '#D55E00' title 'MessageBus::Sync'"
check "node 1's offset error bound (20 ticks = 0.02 us) under its name" has "$d/view.gp" '"node 1\\n±0\.02 µs"'
check "waiting share per node on stdout" has out.txt '^  node 1:  50\.0% of the window waiting$'
check "the key name with a quote and a comma is quoted for gnuplot" has "$d/view.gp" "title 'odd,\"name\"'"

# A window, a node and a key selection.
qq out.txt err.txt view syn.qq --nodes 1 --keys step,V --from 0.000002 --to 0.000007 --out sel
check "view with a selection: exit 0 (got $rc)" test "$rc" = 0
[ "$rc" = 0 ] || show err.txt
check "selection: one strip" test "$(grep -cv '^#' sel/view-nodes.dat)" = 1
check "selection: only step in states" test "$(grep -c '^# key' sel/view-states.dat)" = 1
check "selection: step clipped to the window (2..7 us)" has sel/view-states.dat '^2 7 [-0-9.]+ [-0-9.]+ 1$'
check "selection: no Sync" hasnt sel/view-states.dat 'Sync'
picture sel view
replot sel view.gp
qq out.txt err.txt view syn.qq --no-plot --out np
check "--no-plot: script and data, no picture" test -s np/view.gp -a ! -e np/view.svg

# --- export chrome ------------------------------------------------------
qq syn.json err.txt export syn.qq --format chrome
check "export chrome: exit 0 (got $rc)" test "$rc" = 0
check "chrome: parses as JSON" valid_json syn.json
# 5 slices (one unbalanced), 2 marks, 5 counter samples; metadata aside.
check "chrome: 5 X, 2 i, 5 C events" test "$(py syn.json "sorted((p, sum(1 for e in d['traceEvents'] if e['ph'] == p)) for p in 'XiC')")" = "[('C', 5), ('X', 5), ('i', 2)]"
check "chrome: both nodes are processes" test "$(py syn.json "sorted(e['args']['name'] for e in d['traceEvents'] if e['name'] == 'process_name')")" = "['node 0', 'node 1']"
check "chrome: node 1's step at 1.1 us for 6 us" test "$(py syn.json "[(e['ts'], e['dur']) for e in d['traceEvents'] if e['ph'] == 'X' and e['pid'] == 1 and e['name'] == 'step']")" = "[(1.1, 6.0), (7.5, 0.5)]"
check "chrome: the unbalanced slice says so" test "$(py syn.json "[e['args'] for e in d['traceEvents'] if e.get('args', {}).get('unbalanced')]")" = "[{'unbalanced': True}]"
check "chrome: counter values" test "$(py syn.json "[(e['pid'], e['name'], e['args']['value']) for e in d['traceEvents'] if e['ph'] == 'C']")" = "[(0, 'queue', 7), (0, 'V', 1.5), (1, 'queue', 3), (1, 'V', -2.5), (1, 'V', 0.5)]"
check "chrome: trace_events counts every event" test "$(py syn.json "d['otherData']['trace_events'] == len(d['traceEvents'])")" = True
check "chrome: offset error in the process label" test "$(py syn.json "[e['args']['labels'] for e in d['traceEvents'] if e['name'] == 'process_labels' and e['pid'] == 1][0]")" = "1000.000 MHz, clock offset +0.500 us +/- 0.020 us"
qq out.txt err.txt export syn.qq --format chrome --nodes 0 --keys step --out one.json
check "chrome --nodes 0 --keys step: one slice" test "$(py one.json "[(e['pid'], e['name']) for e in d['traceEvents'] if e['ph'] != 'M']")" = "[(0, 'step')]"

# --- export csv ----------------------------------------------------------
qq syn.csv err.txt export syn.qq --format csv
check "export csv: exit 0 (got $rc)" test "$rc" = 0
check "csv: header and 16 rows" test "$(wc -l < syn.csv)" = 17
check "csv: header" has syn.csv '^node,key,type,info,tick,seconds,run_seconds,thread,tid$'
check "csv: node 1's first event, 1.1 us after its base" has syn.csv '^1,step,state,1,2600,0\.000001100,0\.000001100,0,$'
check "csv: a value" has syn.csv '^1,V,value,-2\.5,7700,0\.000006200,0\.000006200,0,$'
check "csv: a name with a comma and quotes is quoted" has syn.csv '^0,"odd,""name""",mark,0,8500,'
check "csv parses: 16 rows of 9 fields" test "$(python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1]))); print(len(r)-1, set(map(len,r)))' syn.csv)" = "16 {9}"

# --- a real kernel's file -----------------------------------------------
QQ_OUTPUT="$PWD/planted.qq" "$PLANTED" --reps 50 --work 2000
qq out.txt err.txt view planted.qq
check "view planted.qq: exit 0 (got $rc)" test "$rc" = 0
[ "$rc" = 0 ] || show err.txt
picture planted-view view
replot planted-view view.gp
check "planted: 50 'work' intervals or fewer (merged), at least one" test "$(grep -cv '^#' planted-view/view-states.dat | tr -d ' ')" -ge 1
qq planted.json err.txt export planted.qq --format chrome
check "planted chrome: 50 slices named work" test "$(py planted.json "sum(1 for e in d['traceEvents'] if e['ph'] == 'X' and e['name'] == 'work')")" = 50

# --- bad input: exit 2, one line on stderr -------------------------------
python3 "$MAKE_QQ" damaged.qq --damage key
head -c 200 syn.qq > short.qq
badinput "view missing file" view missing.qq
badinput "view damaged key" view damaged.qq --out bad
check "damaged: the message says where" has err.txt 'node 1: entry 2 has key 9'
badinput "view truncated file" view short.qq --out bad
badinput "view --nodes past the end" view syn.qq --nodes 0-5 --out bad
check "--nodes past the end: names the node count" has err.txt 'has 2 nodes'
badinput "view --nodes backwards" view syn.qq --nodes 1-0 --out bad
badinput "view --nodes garbage" view syn.qq --nodes 1,x --out bad
badinput "view unknown key" view syn.qq --keys step,Nope --out bad
check "unknown key: lists the keys" has err.txt "no key 'Nope' \(keys: step, MessageBus::Sync"
badinput "view --to before --from" view syn.qq --from 2 --to 1 --out bad
badinput "view --from not a number" view syn.qq --from abc --out bad
badinput "view unknown option" view syn.qq --frobnicate 1
badinput "view no file" view --out bad
badinput "export missing file" export missing.qq --format csv
badinput "export damaged" export damaged.qq --format chrome
badinput "export bad format" export syn.qq --format xml
badinput "export no format" export syn.qq
badinput "export unknown key" export syn.qq --format csv --keys Nope
badinput "export bad nodes" export syn.qq --format chrome --nodes 7
badinput "export unwritable output" export syn.qq --format csv --out no/such/dir/x.csv
check "no folder made for bad input" test ! -e bad
# gnuplot failing is reported, not hidden.
rc=0
QQB_GNUPLOT=false "$QQBENCH" view syn.qq --out gf > out.txt 2> err.txt || rc=$?
check "view with a failing gnuplot: exit 2 (got $rc)" test "$rc" = 2
check "failing gnuplot: one line naming it" test "$(wc -l < err.txt)" = 1 -a -n "$(grep -F 'false view.gp failed' err.txt)"
# Many keys: past 24 with something to draw, the heaviest 23 (and every
# waiting key) keep their own colour, the other states are one grey key
# 'other', and the rest is not drawn, which view says (100,000 keys kept
# gnuplot busy past 300 s). 300 states and 40 marks, written by hand.
python3 - many.qq <<'PY'
import struct, sys
def pad8(b): return b + b"\0" * (-len(b) % 8)
def section(tag, node, payload):
    payload = pad8(payload)
    return struct.pack("<4sIQ", tag, node, len(payload)) + payload
keys = [("s%d" % i, 1) for i in range(300)] + [("m%d" % i, 2) for i in range(40)] + [("Sync", 1)]
meta = b""
for name, value in (("host", "h"), ("tick_source", "clock_gettime")):
    meta += struct.pack("<I", len(name)) + name.encode() + struct.pack("<I", len(value)) + value.encode()
kt = b""
for i, (name, typ) in enumerate(keys):
    kt = pad8(kt + struct.pack("<III", i, typ, len(name)) + name.encode())
ev, t = b"", 1000
for i in range(300):          # state i lasts i + 10 ticks
    ev += struct.pack("<IIqQ", i, 0, 1, t) + struct.pack("<IIqQ", i, 0, 0, t + i + 10); t += 400
for i in range(40):
    ev += struct.pack("<IIqQ", 300 + i, 0, 0, t); t += 10
ev += struct.pack("<IIqQ", 340, 0, 1, t) + struct.pack("<IIqQ", 340, 0, 0, t + 5); t += 10
n = len(ev) // 24
head = 64
sections = section(b"META", 0xFFFFFFFF, meta) + section(b"KEYS", 0xFFFFFFFF, kt)
node_at = head + len(sections) + 16 + 64
evts_at = node_at + 16
node = struct.pack("<IIQQQdQqd", 0, 1, evts_at, n, 1000, 1000.0, 0, 0, 0.0)
body = sections + section(b"NODE", 0xFFFFFFFF, node) + section(b"EVTS", 0, ev)
size = head + len(body)
hdr = struct.pack("<8sHHIIIIIQ24s", b"QQPROF\r\n", 1, 0, head, 1, len(keys), 1, 0, size, b"\0" * 24)
open(sys.argv[1], "wb").write(hdr + body)
PY
qq out.txt err.txt view many.qq --out many_view
check "view of 341 keys: exit 0 (got $rc)" test "$rc" = 0
check "says what was folded" has out.txt "^  318 keys past the 23 drawn: 278 states drawn together as 'other', 40 marks, counts and values not drawn \\(--keys chooses\\)$"
check "the legend has the heaviest states and 'other'" has many_view/view.gp "title 's299'"
check "'other' is one key" test "$(grep -c "title 'other (278 states)'" many_view/view.gp)" = 1
check "the waiting key keeps its own colour" has many_view/view.gp "title 'Sync'"
check "no folded key has its own clause" hasnt many_view/view.gp "title 's0'"
finish
