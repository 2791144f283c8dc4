#!/usr/bin/env bash
# tools/cli-logic-lines counts a command file's lines by kind (universal-ctags
# ranges): on a planted file whose every kind is known, each count is right; a
# file over --max-logic fails; cmd_run.c and the commands moved as it was
# hold no logic.
set -euo pipefail
command -v python3 >/dev/null || { echo "FAIL: python3 is not installed (make deps-test installs it)"; exit 1; }
ctags --version 2>/dev/null | grep -q Universal || { echo "skipped: universal-ctags is not installed"; exit 77; }
pass=0 fail=0
check() { if "${@:2}"; then pass=$((pass + 1)); echo "ok   $1"; else fail=$((fail + 1)); echo "FAIL $1"; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
src="${QQ_SOURCE_DIR:?QQ_SOURCE_DIR not set}"
tool="$src/tools/cli-logic-lines"

# 18 lines: 1 other (the include), 4 usage table, 4 callback, 3 logic, and
# the entry's 6, of which 3 are the option table initialised in it (table 7,
# entry 3).
cat > cmd_demo.c <<'C'
#include "opts.h"
static const struct qqb_opts_cmd demo_cmd = {
    "demo",
    "usage\n",
    ""};
static int cb(const char *v, void *ctx, char *err, size_t errlen)
{
    return 0;
}
static int work(int x)
{
    return x + 1; }
int cmd_demo(int argc, char **argv)
{
    const struct qqb_opt table[] = {
        QQB_OPT_END,
    };
    return work(qqb_opts_parse(&demo_cmd, table, argc, argv, NULL)); }
C
rc=0
"$tool" cmd_demo.c > demo.txt 2>&1 || rc=$?
row=$(awk '$1 == "cmd_demo.c" {print $2, $3, $4, $5, $6, $7}' demo.txt)
check "the planted file counts lines 18, table 7, callback 4, entry 3, logic 3, other 1 (exit $rc: $row)" \
    test "$rc $row" = "0 18 7 4 3 3 1"
rc=0
"$tool" --max-logic 2 cmd_demo.c > over.txt 2>&1 || rc=$?
check "3 logic lines over --max-logic 2 fail (exit $rc)" test "$rc" = 1
check "  and the file is named" grep -q 'cmd_demo.c: 3 logic lines, more than 2' over.txt
rc=0
"$tool" --max-logic 3 cmd_demo.c > under.txt 2>&1 || rc=$?
check "3 logic lines within --max-logic 3 pass (exit $rc)" test "$rc" = 0

rc=0
"$tool" > tree.txt 2>&1 || rc=$?
check "the tree's command files are counted (exit $rc)" test "$rc" = 0
# The command files that are an option table plus one call, and stay so.
for f in cmd_run.c cmd_model.c cmd_history.c cmd_compare.c cmd_st.c; do
    logic=$(awk -v f="$f" '$1 == f {print $6}' tree.txt)
    check "$f holds no logic ($logic)" test "$logic" = 0
done
check "  and a total is given" grep -q '^total ' tree.txt
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
