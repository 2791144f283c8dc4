#!/usr/bin/env bash
# Outputs a user names are written, never replaced: `run --json`, `run --junit` and `profile-machine --out` to a device node (a private /dev/null made here with mknod) and to a FIFO are written in place (the node stays a character device, a reader of the FIFO gets the whole file); a symbolic link is refused before the work starts (exit 2, one line naming it), the link and the file it points at unchanged; a folder refused likewise. The real /dev/null and /dev/full are never touched.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
rm -rf bl scratch
mkdir scratch
S=$PWD/scratch
planted_suite s.yaml outs '--work, "2000", --reps, "5"' '    variants:
      a: []
      b: [--extra, "3"]'

# A private null device, in this folder: writes to it vanish as /dev/null's.
nodes=1
mknod "$S/null" c 1 3 2>/dev/null && mknod "$S/null2" c 1 3 2>/dev/null || nodes=0
if [ "$nodes" = 0 ]; then
    echo "note: mknod is not permitted here (a container without CAP_MKNOD): the device case is skipped"
fi

# The shape of each writer's file, to tell the reader got it whole.
json_whole() { python3 -m json.tool "$1" >/dev/null && grep -q '"comparisons"' "$1"; }
junit_whole() { valid_xml "$1" && grep -q '</testsuites>' "$1"; }
yaml_whole() { grep -q '^mpi: ' "$1"; }

# --- a device: written, still a device ------------------------------------
if [ "$nodes" = 1 ]; then
    qq o.txt e.txt run s.yaml --baselines bl -q --no-report --json "$S/null" --junit "$S/null2"
    check "run --json/--junit to a device node: exit 0 (got $rc)" test "$rc" = 0
    [ "$rc" = 0 ] || show e.txt
    check "--json's device node is still a character device" test -c "$S/null"
    check "--junit's device node is still a character device" test -c "$S/null2"
    check "nothing left beside them (no temporary)" test "$(ls "$S" | sort | tr '\n' ' ')" = "null null2 "
    qq o.txt e.txt profile-machine --quick --no-mpi --out "$S/null"
    check "profile-machine --out to a device node: exit 0 (got $rc)" test "$rc" = 0
    [ "$rc" = 0 ] || show e.txt
    check "profile-machine's device node is still a character device" test -c "$S/null"
    rm -f "$S/null" "$S/null2"
fi

# --- a FIFO: a reader gets the whole file ---------------------------------
# fifo_read NAME: a reader of scratch/NAME into NAME.got, in the background
# (pid in $reader); reaped by fifo_done, which kills one left waiting on a
# FIFO that was replaced (before the fix, nothing ever opened it to write).
fifo_read() {
    rm -f "$S/$1" "$1.got"
    mkfifo "$S/$1"
    timeout 120 cat "$S/$1" > "$1.got" &
    readers="${readers:-} $!"
}
fifo_done() {
    local p
    for p in $readers; do
        kill "$p" 2>/dev/null || true
        wait "$p" 2>/dev/null || true
    done
    readers=""
}
fifo_read fj
fifo_read fx
qq o.txt e.txt run s.yaml --baselines bl -q --no-report --json "$S/fj" --junit "$S/fx"
check "run --json/--junit to FIFOs: exit 0 (got $rc)" test "$rc" = 0
[ "$rc" = 0 ] || show e.txt
sleep 0.2
check "--json's FIFO is still a FIFO" test -p "$S/fj"
check "--junit's FIFO is still a FIFO" test -p "$S/fx"
fifo_done
check "the FIFO's reader got the whole JSON" json_whole fj.got
check "the FIFO's reader got the whole JUnit XML" junit_whole fx.got
fifo_read fp
qq o.txt e.txt profile-machine --quick --no-mpi --out "$S/fp"
check "profile-machine --out to a FIFO: exit 0 (got $rc)" test "$rc" = 0
[ "$rc" = 0 ] || show e.txt
sleep 0.2
check "profile-machine's FIFO is still a FIFO" test -p "$S/fp"
fifo_done
check "the FIFO's reader got the whole profile" yaml_whole fp.got
rm -f "$S/fj" "$S/fx" "$S/fp"

# --- a symbolic link: refused before the work, nothing changed ------------
# refused WHAT NAME ARGS...: qqbench ARGS exits 2 with one line naming
# scratch/NAME.
refused() {
    local what="$1" name="$2"; shift 2
    qq o.txt e.txt "$@"
    check "$what: refused, exit 2 (got $rc)" test "$rc" = 2
    check "$what: one line" test "$(wc -l < e.txt)" = 1
    check "$what: it names the path" has e.txt "scratch/$name"
    [ "$rc" = 2 ] || show e.txt
}
echo precious > "$S/victim"
ln -s victim "$S/link"
ln -s gone "$S/dangling"
for w in "run --json" "run --junit" "profile-machine --out"; do
    for l in link dangling; do
        case $w in
            run*) refused "$w to a symbolic link ($l)" $l run s.yaml --baselines bl -q --no-report ${w#run } "$S/$l" ;;
            *) refused "$w to a symbolic link ($l)" $l profile-machine --quick --no-mpi --out "$S/$l" ;;
        esac
        check "$w: $l is still a symbolic link" test -L "$S/$l"
    done
    check "$w: says it is a symbolic link" has e.txt 'symbolic link'
    check "$w: the link's target is unchanged" test "$(cat "$S/victim")" = precious
    check "$w: the link points where it did" test "$(readlink "$S/link")" = victim
    check "$w: no file made where the dangling link points" test ! -e "$S/gone"
done
mkdir "$S/folder"
refused "run --json to a folder" folder run s.yaml --baselines bl -q --no-report --json "$S/folder"
check "run --json to a folder: says so" has e.txt 'is a folder'
check "no temporary left in scratch" test -z "$(ls "$S" | grep -v -E '^(victim|link|dangling|folder)$' || true)"
finish
