# test_layers.sh - harness/ is built in layers (harness/CMakeLists.txt,
# qqb_layer): every #include "X.h" of harness/LAYER/ names a header of LAYER
# itself, of a layer LAYER depends on (directly or through another), or of
# libqq. Then the same two ways round with a planted include of a higher
# layer's header: this checker refuses it, and the compiler, given the
# include directories CMake gives that layer (compile_commands.json), cannot
# find the header at all - the build fails, not only this test.
set -euo pipefail
src="${QQ_SOURCE_DIR:?QQ_SOURCE_DIR not set}"
bin="${QQ_BINARY_DIR:?QQ_BINARY_DIR not set}"
command -v python3 >/dev/null || { echo "FAIL: python3 is not installed (make deps-test installs it)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

# check.py HARNESS_DIR: one line per include that breaks the layers; exit 1
# when there is one, 2 when the layer table cannot be read.
cat >"$tmp/check.py" <<'PY'
import glob, os, re, sys
root = sys.argv[1]
libqq = {os.path.basename(p) for p in glob.glob(os.path.join(sys.argv[2], "qq", "*", "*.h"))}
table = open(os.path.join(root, "CMakeLists.txt")).read()
deps = {}
for m in re.finditer(r"^qqb_layer\((\w+)(?:\s+DEPENDS([^)]*))?\)", table, re.M):
    deps[m.group(1)] = (m.group(2) or "").split()
if len(deps) < 2:
    print("no qqb_layer() table in", os.path.join(root, "CMakeLists.txt"))
    sys.exit(2)
def below(layer, seen=None):
    seen = set() if seen is None else seen
    for d in deps.get(layer, []):
        if d not in seen:
            seen.add(d)
            below(d, seen)
    return seen
where = {}
for layer in deps:
    for h in glob.glob(os.path.join(root, layer, "*.h")):
        where[os.path.basename(h)] = layer
bad = 0
for layer in deps:
    allowed = below(layer) | {layer}
    for f in sorted(glob.glob(os.path.join(root, layer, "*.[ch]"))):
        for n, line in enumerate(open(f), 1):
            m = re.match(r'\s*#\s*include\s*"([^"]+)"', line)
            if not m:
                continue
            h = m.group(1)
            rel = os.path.relpath(f, root)
            if "/" in h:
                print(f"{rel}:{n}: includes \"{h}\" by a path; name the header, the layers give the folders")
                bad = 1
            elif h in where and where[h] not in allowed:
                print(f"{rel}:{n}: layer {layer} includes {h} of layer {where[h]}, which is not below it")
                bad = 1
            elif h not in where and h not in libqq:
                print(f"{rel}:{n}: includes {h}, which no layer and not libqq has")
                bad = 1
for layer in deps:
    if not os.path.isdir(os.path.join(root, layer)):
        print(f"layer {layer} has no folder harness/{layer}")
        bad = 1
sys.exit(bad)
PY

if python3 "$tmp/check.py" "$src/harness" "$src" >"$tmp/out" 2>&1; then
    ok "every include of harness/ is of its own layer, a layer below, or libqq"
else
    cat "$tmp/out"
    bad "harness/ includes across its layers"
fi

# A planted include of a higher layer (util -> report) in a copy.
cp -r "$src/harness" "$tmp/h"
printf '#include "report.h"\n' >>"$tmp/h/util/grow.c"
if python3 "$tmp/check.py" "$tmp/h" "$src" >"$tmp/out" 2>&1; then
    bad "the checker let util/grow.c include report.h"
elif grep -q "util/grow.c:.*layer util includes report.h of layer report" "$tmp/out"; then
    ok "the checker names util/grow.c including report.h of layer report"
else
    cat "$tmp/out"
    bad "the checker refused, but not with the line expected"
fi
# A sibling (judge -> measure: judge does not depend on measure).
cp "$src/harness/judge/judge.c" "$tmp/h/judge/judge.c"
printf '#include "runner.h"\n' >>"$tmp/h/judge/judge.c"
if python3 "$tmp/check.py" "$tmp/h" "$src" >"$tmp/out" 2>&1 ||
    ! grep -q "layer judge includes runner.h of layer measure" "$tmp/out"; then
    cat "$tmp/out"
    bad "the checker let judge/judge.c include runner.h of a sibling layer"
else
    ok "the checker refuses a sibling layer's header (judge -> measure)"
fi

# The compiler: util's own flags, from the compile database, on a file of
# util that includes report.h, cannot find it; the same flags compile the
# file as it is.
db="$bin/compile_commands.json"
[ -f "$db" ] || { echo "FAIL: no $db (CMake writes it at configure time)"; exit 1; }
python3 - "$db" "$src/harness/util/grow.c" >"$tmp/cmd" <<'PY'
import json, shlex, sys
for e in json.load(open(sys.argv[1])):
    if e["file"] == sys.argv[2]:
        argv = e["arguments"] if "arguments" in e else shlex.split(e["command"])
        out, skip = [], False
        for a in argv:
            if skip:
                skip = False
            elif a == "-o":
                skip = True
            elif a == "-c" or a == sys.argv[2]:
                continue
            else:
                out.append(a)
        print(" ".join(shlex.quote(a) for a in out))
        break
PY
[ -s "$tmp/cmd" ] || { echo "FAIL: util/grow.c is not in $db"; exit 1; }
cp "$src/harness/util/grow.c" "$tmp/grow.c"
cd "$src/harness/util"
if eval "$(cat "$tmp/cmd")" -fsyntax-only "$tmp/grow.c" 2>"$tmp/cc"; then
    ok "util/grow.c compiles with util's include directories"
else
    cat "$tmp/cc"
    bad "util/grow.c does not compile with its own flags"
fi
printf '#include "report.h"\n' >>"$tmp/grow.c"
if eval "$(cat "$tmp/cmd")" -fsyntax-only "$tmp/grow.c" 2>"$tmp/cc"; then
    bad "util/grow.c compiled with an include of report.h: the layers' include directories leak"
elif grep -q "report.h.*No such file" "$tmp/cc"; then
    ok "util's include directories do not hold report.h: the build fails"
else
    cat "$tmp/cc"
    bad "the compiler failed, but not for want of report.h"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
