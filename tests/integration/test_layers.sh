# test_layers.sh - harness/ is built in layers (harness/CMakeLists.txt,
# qqb_layer), and the build enforces them with cmake/check_layers.cmake:
# every #include of harness/LAYER/ names, by its bare name, a header of
# LAYER, of a layer below it or of libqq; every qqb* symbol a layer's
# library uses is defined in it or below; no C file is over 1,000 lines
# but those cmake/long_files.txt holds. Here: the build ran the three
# checks, today's tree passes them, and each refuses a violation planted in
# a copy (an include of a higher layer's header, of a sibling's, by a
# path; a call up the layers with a bare declaration and no include; a
# file grown past the limit). Last, the include directories: the compiler,
# given the ones CMake gives a layer (compile_commands.json), cannot find a
# higher layer's header at all.
set -euo pipefail
src="${QQ_SOURCE_DIR:?QQ_SOURCE_DIR not set}"
bin="${QQ_BINARY_DIR:?QQ_BINARY_DIR not set}"
command -v python3 >/dev/null || { echo "FAIL: python3 is not installed (make deps-test installs it)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "${QQ_TEST_DATA:?QQ_TEST_DATA not set}/run/check.sh"
check_script="$src/cmake/check_layers.cmake"
cache() { sed -n "s/^$1:[A-Z]*=//p" "$bin/CMakeCache.txt"; }
cmake_bin=$(cache CMAKE_COMMAND)
nm_bin=$(cache CMAKE_NM)
ar_bin=$(cache CMAKE_AR)
cc_bin=$(cache CMAKE_C_COMPILER)
[ -x "$cmake_bin" ] || cmake_bin=cmake

# The build ran each check: its stamp is there, made after the script.
for c in layers-includes layers-symbols file-sizes; do
    if [ -f "$bin/harness/$c.stamp" ] && [ ! "$bin/harness/$c.stamp" -ot "$check_script" ]; then
        ok "the build ran the $c check"
    else
        bad "no $bin/harness/$c.stamp newer than $check_script: the build did not run the $c check"
    fi
done

# includes DIR: cmake/check_layers.cmake's include check on the harness
# folder DIR; its output in $tmp/out, its exit status in $rc.
includes() {
    rc=0
    "$cmake_bin" -DMODE=includes -DHARNESS="$1" -DQQ="$src/qq" -P "$check_script" >"$tmp/out" 2>&1 || rc=$?
}
# refused WHAT LINE_ERE: the last check failed with a line matching LINE_ERE.
refused() {
    if [ "$rc" = 0 ]; then
        cat "$tmp/out"
        bad "the check let through $1"
    elif grep -Eq -- "$2" "$tmp/out"; then
        ok "the check refuses $1: $(grep -E -- "$2" "$tmp/out" | head -1)"
    else
        cat "$tmp/out"
        bad "the check refused $1, but not with the line expected"
    fi
}

includes "$src/harness"
if [ "$rc" = 0 ]; then
    ok "every include of harness/ is of its own layer, a layer below, or libqq"
else
    cat "$tmp/out"
    bad "harness/ includes across its layers"
fi

# Planted includes, each in a fresh copy: a higher layer's header (util ->
# report), a sibling's (judge -> measure: judge does not depend on
# measure), and a higher layer's by a path (stats -> run), which the
# compiler finds whatever the include directories.
plant() {
    rm -rf "$tmp/h"
    cp -r "$src/harness" "$tmp/h"
    printf '%s\n' "$2" >>"$tmp/h/$1"
    includes "$tmp/h"
}
plant util/grow.c '#include "report.h"'
refused "util/grow.c including report.h" '^h/util/grow\.c:[0-9]+:1: error: layer util includes report\.h of layer report, which is not below it$'
plant judge/judge_plan.c '#include "runner.h"'
refused "judge/judge_plan.c including a sibling's runner.h" 'h/judge/judge_plan\.c:[0-9]+:1: error: layer judge includes runner\.h of layer measure'
plant stats/model.c '#include "../run/pipeline.h"'
refused "stats/model.c including ../run/pipeline.h" 'h/stats/model\.c:[0-9]+:1: error: includes "\.\./run/pipeline\.h" by a path \(a header of layer run, which is not below stats\)'
plant stats/model.c '#  include "../stats/stats.h"'
refused "an include of its own layer by a path" 'h/stats/model\.c:[0-9]+:1: error: includes "\.\./stats/stats\.h" by a path'
plant stats/model.c '#include "nosuch.h"'
refused "a header nobody has" 'includes nosuch\.h, which no layer and not libqq has'

# The symbols: the build's libraries pass; a copy of stats' library with
# one more member, which declares qqb_run (layer run) itself and calls it,
# is refused: no include, so no include check sees it, and the static
# libraries would meet only at qqbench's final link, where run is present.
libs="" for_plant=""
layers=$(sed -n 's/^qqb_layer(\([a-z]*\).*/\1/p' "$src/harness/CMakeLists.txt")
for l in $layers; do
    libs="$libs,$l=$bin/harness/libqqb_$l.a"
    cp "$bin/harness/libqqb_$l.a" "$tmp/libqqb_$l.a"
    for_plant="$for_plant,$l=$tmp/libqqb_$l.a"
done
symbols() {
    rc=0
    "$cmake_bin" -DMODE=symbols -DHARNESS="$src/harness" -DNM="$nm_bin" -DLIBS="${1#,}" -P "$check_script" >"$tmp/out" 2>&1 || rc=$?
}
symbols "$libs"
if [ "$rc" = 0 ]; then
    ok "every qqb* symbol each layer's library uses is defined in it or below"
else
    cat "$tmp/out"
    bad "harness/'s libraries use symbols across their layers"
fi
mkdir -p "$tmp/o"
printf 'struct qqb_run_args;\nint qqb_run(const struct qqb_run_args *a);\nint qqb_stats_planted(void);\nint qqb_stats_planted(void) { return qqb_run(0); }\n' >"$tmp/o/planted.c"
if ! "$cc_bin" -c -o "$tmp/o/planted.c.o" "$tmp/o/planted.c" 2>"$tmp/cc"; then
    cat "$tmp/cc"
    bad "the planted call does not compile"
else
    ok "a call from stats to run's qqb_run with a bare declaration compiles"
    "$ar_bin" rc "$tmp/libqqb_stats.a" "$tmp/o/planted.c.o"
    symbols "$for_plant"
    refused "stats' library calling qqb_run of layer run" '^harness/stats/planted\.c: error: layer stats uses qqb_run of layer run, which is not below it'
fi

# Sizes: today's tree passes; a copy with a file one line past the limit,
# and one grown past the figure cmake/long_files.txt holds it to, fails.
sizes() {
    rc=0
    "$cmake_bin" -DMODE=sizes -DROOT="$1" -DALLOW="$1/cmake/long_files.txt" -P "$check_script" >"$tmp/out" 2>&1 || rc=$?
}
sizes "$src"
if [ "$rc" = 0 ]; then
    ok "no C file over 1,000 lines but those cmake/long_files.txt holds, none past its figure"
else
    cat "$tmp/out"
    bad "a C file is over its limit"
fi
mkdir -p "$tmp/r/cmake" "$tmp/r/harness/util" "$tmp/r/qq/src"
cp "$src/cmake/long_files.txt" "$tmp/r/cmake/"
seq 1001 >"$tmp/r/harness/util/big.c"
grep -v '^#' "$src/cmake/long_files.txt" | while read -r f n _; do
    mkdir -p "$(dirname "$tmp/r/$f")"
    seq "$n" >"$tmp/r/$f"
done
sizes "$tmp/r"
refused "a file of 1,001 lines" '^harness/util/big\.c: error: 1001 lines, over the 1000-line limit'
rm "$tmp/r/harness/util/big.c"
f=$(grep -v '^#' "$src/cmake/long_files.txt" | head -1 | cut -d' ' -f1)
echo "one more line" >>"$tmp/r/$f"
sizes "$tmp/r"
refused "$f one line past its figure" "^$f: error: [0-9]+ lines, over the [0-9]+ it is held to"

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
finish
