#!/usr/bin/env bash
# docs/ci/*.yml, for someone else's project: valid YAML of the shape GitHub Actions and GitLab CI expect; qqbench installed from its own checkout (make -C there, every target real), never the user's project taken for qqbench; every qqbench subcommand and option real; and the steps after the install run as written on an outside Makefile project laid out as the files' variables say (suite, build, kernels), giving the JSON, the JUnit file and the report folder.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
: "${QQ_SOURCE_DIR:?}" "${QQ_BINARY_DIR:?}"
python3 -c 'import yaml' 2>/dev/null || { echo "FAIL: python3 with PyYAML is needed (make deps-test installs it)"; exit 1; }
for t in git make pkg-config cc; do
    command -v $t >/dev/null || { echo "FAIL: $t is not installed (make deps-test installs it)"; exit 1; }
done
GH="$QQ_SOURCE_DIR/docs/ci/github-actions.yml"
GL="$QQ_SOURCE_DIR/docs/ci/gitlab-ci.yml"
rm -rf ./*.txt ./*.sh ./*.err prefix proj tmp
mkdir tmp
export TMPDIR=$PWD/tmp
# Each file's shell, in four parts: its variables (name=value lines), the
# install (the lines before the first qqbench call, or the GitHub step
# naming the install), the rest of the job, and what runs even after a
# failure. GitHub's two expressions are given a pull request into master.
python3 - "$GH" "$GL" <<'PY' > shape.txt 2> yaml.err || { cat yaml.err; exit 1; }
import sys, yaml
gh = yaml.safe_load(open(sys.argv[1]))
gl = yaml.safe_load(open(sys.argv[2]))
def out(name, text):
    open(name, "w").write(text + "\n")
def gh_expr(s):
    return s.replace("${{ github.event_name }}", "pull_request").replace(
        "${{ github.base_ref }}", "master")
# GitHub: 'on' (parsed as True by YAML 1.1), env, jobs with steps.
assert ('on' in gh or True in gh) and gh['jobs'], "github: no trigger or jobs"
out("gh-env.txt", "\n".join(f"{k}={v}" for k, v in gh.get('env', {}).items()))
install, main, always = [], [], []
for job in gh['jobs'].values():
    assert job.get('runs-on') and job.get('steps'), "github: a job without runs-on/steps"
    for st in job['steps']:
        assert 'run' in st or 'uses' in st, "github: a step neither runs nor uses"
        if 'run' not in st:
            continue
        if 'install' in st.get('name', '').lower():
            install.append(st['run'])
        elif st.get('if') == 'always()':
            always.append(gh_expr(st['run']))
        else:
            main.append(gh_expr(st['run']))
out("gh-install.sh", "\n".join(install))
out("gh-main.sh", "\n".join(main))
out("gh-always.sh", "\n".join(always))
# GitLab: the job with variables, before_script (the install), script,
# after_script and artifacts.
job = gl['qqbench']
assert job['script'] and job['artifacts']['paths'], "gitlab: no script or artifacts"
out("gl-env.txt", "\n".join(f"{k}={v}" for k, v in job.get('variables', {}).items()))
out("gl-install.sh", "\n".join(job.get('before_script', [])))
out("gl-main.sh", "\n".join(job['script']))
out("gl-always.sh", "\n".join(job.get('after_script', [])))
print("ok")
PY
check "both files are valid YAML of the expected shape" has shape.txt '^ok$'
cat gh-*.sh gl-*.sh > lines.txt

# The shell parses; qqbench's subcommands and options exist.
for f in gh-install.sh gh-main.sh gh-always.sh gl-install.sh gl-main.sh gl-always.sh; do
    check "$f: the shell parses it" bash -n "$f"
done
n=0
while IFS= read -r line; do
    for cmd in $(echo "$line" | grep -oE 'qqbench[" ]+[a-z]+' | awk '{print $NF}'); do
        n=$((n + 1))
        "$QQBENCH" "$cmd" --help > help.txt 2>&1 && hrc=0 || hrc=$?
        check "qqbench $cmd exists (help exit $hrc)" test "$hrc" = 0
        [ "$cmd" = ci ] && "$QQBENCH" run --help >> help.txt 2>&1
        rest=${line#*qqbench* $cmd}
        for opt in $(echo "$rest" | grep -oE '(^| )--[a-z-]+' | tr -d ' '); do
            check "qqbench $cmd takes $opt" grep -q -- "$opt" help.txt
        done
    done
done < lines.txt
check "the files call qqbench ($n calls)" test "$n" -ge 4

# qqbench is installed from its own checkout: every make runs there (-C),
# on a target of qqbench's Makefile; nothing treats the user's project as
# qqbench (its make deps/build, build/harness/qqbench, configs/ci.yaml).
for f in gh-install.sh gl-install.sh; do
    check "$f: installs qqbench with make install PREFIX=" grep -qE 'make -C [^ ]+ install PREFIX=' "$f"
    check "$f: from a checkout of a tag or branch" grep -qE 'git clone --depth 1 --branch "\$QQBENCH_REF"' "$f"
    for t in $(grep -oE 'make -C [^ ]+ [a-z-]+' "$f" | awk '{print $NF}'); do
        check "$f: make target '$t' exists in qqbench's Makefile" grep -qE "^$t:" "$QQ_SOURCE_DIR/Makefile"
    done
done
# The clone step as written, against this repository's own refs: the ref
# the files name must exist here (v0.1.0, a tag that never existed, failed
# at step 1: "Remote branch v0.1.0 not found").
if git -C "$QQ_SOURCE_DIR" rev-parse --git-dir > /dev/null 2>&1; then
    for sys in gh gl; do
        ref=$(grep -E '^QQBENCH_REF=' $sys-env.txt | cut -d= -f2- | sed 's/ *#.*//')
        clone=$(grep -E '^ *(- )?git clone ' $sys-install.sh | sed -E 's/^ *(- )?//; s#/tmp/qqbench-src#$RUNNER_TEMP/qqbench-src#')
        mkdir -p "tmp/clone-$sys"
        crc=0
        QQBENCH_REF=$ref QQBENCH_GIT="file://$QQ_SOURCE_DIR" RUNNER_TEMP="$PWD/tmp/clone-$sys" \
            bash -e -c "$clone" > $sys-clone.txt 2>&1 || crc=$?
        check "$sys: the clone step runs against this repository (--branch $ref, exit $crc)" test "$crc" = 0
        check "$sys: the clone holds qqbench's Makefile with install:" grep -q '^install:' "tmp/clone-$sys/qqbench-src/Makefile"
        [ "$crc" = 0 ] || show $sys-clone.txt
        rm -rf "tmp/clone-$sys"
    done
else
    echo "note: $QQ_SOURCE_DIR is not a git checkout (a release archive): the clone step is not run"
fi
check "no make without -C (the user's project is not qqbench)" bash -c "! grep -E '(^|&& |; |sudo )make +[a-z]' lines.txt | grep -v 'make -C'"
check "no qqbench build tree or suite of qqbench's own" bash -c "! grep -E 'build/harness/qqbench|configs/ci\\.yaml' lines.txt"
check "ci builds the project (--build)" grep -q 'qqbench ci .*--build "\$QQBENCH_BUILD"' lines.txt
check "artifacts: JSON and JUnit" grep -q -- '--json .*--junit' lines.txt
check "the report folder is made" grep -q 'qqbench" report .*--out\|qqbench report .*--out' lines.txt

# The outside project, laid out as the variables say: a Makefile building
# its kernel into the kernels folder, the suite; master and a pull request
# (feature) on top. origin/master is the merge base's branch.
cmake --install "$QQ_BINARY_DIR" --prefix "$PWD/prefix" > install.txt 2>&1 || { cat install.txt; exit 1; }
layout() { # layout ENVFILE NAME: the value of NAME
    grep -E "^$2=" "$1" | head -1 | cut -d= -f2-
}
for sys in gh gl; do
    suite=$(layout $sys-env.txt QQBENCH_SUITE)
    bld=$(layout $sys-env.txt QQBENCH_BUILD)
    kern=$(layout $sys-env.txt QQBENCH_KERNELS)
    check "$sys: the variables name the suite, the build and the kernels" test -n "$suite" -a -n "$bld" -a -n "$kern"
    rm -rf proj && mkdir proj && cd proj
    git init -q && git symbolic-ref HEAD refs/heads/master
    git config user.email t@example.invalid && git config user.name test
    printf 'build/\nqqbench-out/\nreports/\n' > .gitignore
    cat > Makefile <<MK
CFLAGS += -O2 \$(shell pkg-config --cflags qq)
LDLIBS += \$(shell pkg-config --libs qq)
$kern/lookup: lookup.c
	mkdir -p $kern
	\$(CC) \$(CFLAGS) -o \$@ lookup.c \$(LDLIBS)
MK
    # A suite of the usual shape: 2 cases (a parameter) x 2 keys.
    cat > lookup.c <<'C'
/* lookup.c - a kernel of the outside project: lookup and insert, SIZE x the work. */
#include <stdlib.h>
#include "qq.h"
static volatile unsigned long long sink;
int main(int argc, char **argv)
{
    int size = argc > 1 ? atoi(argv[1]) : 1;
    QQInit(1000);
    int k = QQAddState("lookup"), ins = QQAddState("insert");
    unsigned long long h = 1;
    for (int i = 0; i < 100; i++) {
        QQStateOn(k);
        for (int j = 0; j < 2000 * size; j++)
            h = h * 6364136223846793005ull + 1;
        QQStateOff(k);
        QQStateOn(ins);
        for (int j = 0; j < 1000 * size; j++)
            h = h * 6364136223846793005ull + 3;
        QQStateOff(ins);
    }
    sink = h;
    QQOut("lookup.qq", 0, 1);
    return 0;
}
C
    printf 'suite: hash\ndefaults:\n  threshold: 25\nbenchmarks:\n  - name: lookup\n    kernel: lookup\n    args: ["{size}"]\n    params:\n      size: [1, 2]\n' > "$suite"
    git add -A && git commit -qm base
    git update-ref refs/remotes/origin/master HEAD
    git checkout -q -b feature
    sed -i 's/a kernel of the outside project/the kernel of the outside project/' lookup.c
    git commit -qam "a comment"
    export CI_MERGE_REQUEST_DIFF_BASE_SHA
    CI_MERGE_REQUEST_DIFF_BASE_SHA=$(git rev-parse master)
    # The job's shell after the install: its variables, qqbench on PATH
    # (where the install step puts it), each part as the system runs it.
    {
        sed -E 's/^([A-Z_]+)=(.*)$/export \1="\2"/' "../$sys-env.txt"
        echo "export QQBENCH_PREFIX='$PWD/../prefix' PATH='$PWD/../prefix/bin':\"\$PATH\""
    } > ../$sys-vars.sh
    rc=0
    bash -e -c ". ../$sys-vars.sh && . ../$sys-main.sh" > ../$sys-run.txt 2>&1 || rc=$?
    check "$sys: the job's ci ran to a verdict (exit $rc: 0 or 1)" test "$rc" = 0 -o "$rc" = 1
    arc=0
    bash -e -c ". ../$sys-vars.sh && . ../$sys-always.sh" >> ../$sys-run.txt 2>&1 || arc=$?
    check "$sys: the after-steps ran (exit $arc)" test "$arc" = 0
    check "$sys: the suite is where the variables say" test -f "$suite"
    check "$sys: the build put the kernel where they say" test -x "$kern/lookup"
    check "$sys: the JSON" valid_json qqbench-out/result.json
    check "$sys: 2 cases x 2 keys, 4 comparisons with the reference build" has qqbench-out/result.json '"family_size": *4\b'
    check "$sys: the JUnit file" has qqbench-out/junit.xml '<testsuite'
    check "$sys: the report folder" test -f qqbench-out/report/index.html
    check "$sys: both build logs next to the JSON" test -s qqbench-out/ci-reference-build.log -a -s qqbench-out/ci-change-build.log
    check "$sys: the reference was the merge base" has ../$sys-run.txt "reference (origin/master|$CI_MERGE_REQUEST_DIFF_BASE_SHA) \\($(git rev-parse --short=12 master)\\)"
    [ "$fail" = 0 ] || show ../$sys-run.txt
    cd ..
done
finish
