#!/usr/bin/env bash
# docs/ci/*.yml: valid YAML, the shape GitHub Actions and GitLab CI expect, and every qqbench subcommand, option and make target they call exists.
set -euo pipefail
. "$QQ_TEST_DATA/run/lib.sh"
: "${QQ_SOURCE_DIR:?}"
python3 -c 'import yaml' 2>/dev/null || { echo "SKIP: python3 with PyYAML is not installed"; exit 77; }
GH="$QQ_SOURCE_DIR/docs/ci/github-actions.yml"
GL="$QQ_SOURCE_DIR/docs/ci/gitlab-ci.yml"
check "the GitHub workflow exists" test -f "$GH"
check "the GitLab job exists" test -f "$GL"
# Every shell line the files run, one per line (python3 + PyYAML).
python3 - "$GH" "$GL" > lines.txt 2> yaml.err <<'PY' || { cat yaml.err; exit 1; }
import sys, yaml
gh = yaml.safe_load(open(sys.argv[1]))
gl = yaml.safe_load(open(sys.argv[2]))
# GitHub: 'on' (parsed as True by YAML 1.1), jobs with steps.
assert ('on' in gh or True in gh) and gh['jobs'], "github: no trigger or jobs"
runs = []
for job in gh['jobs'].values():
    assert job.get('runs-on') and job.get('steps'), "github: a job without runs-on/steps"
    for st in job['steps']:
        assert 'run' in st or 'uses' in st, "github: a step neither runs nor uses"
        if 'run' in st:
            runs.append(st['run'])
# GitLab: a job with script and artifacts.
job = gl['qqbench']
assert job['script'] and job['artifacts']['paths'], "gitlab: no script or artifacts"
for k in ('before_script', 'script', 'after_script'):
    runs += job.get(k, [])
for r in runs:
    for line in r.splitlines():
        print(line)
PY
check "both files are valid YAML of the expected shape" true
# qqbench SUBCOMMAND [args]: the subcommand exists and takes its options.
n=0
while IFS= read -r line; do
    for cmd in $(echo "$line" | grep -oE 'qqbench [a-z]+' | awk '{print $2}'); do
        n=$((n + 1))
        "$QQBENCH" "$cmd" --help > help.txt 2>&1 && hrc=0 || hrc=$?
        check "qqbench $cmd exists (help exit $hrc)" test "$hrc" = 0
        [ "$cmd" = ci ] && "$QQBENCH" run --help >> help.txt 2>&1
        rest=${line#*qqbench $cmd}
        for opt in $(echo "$rest" | grep -oE '(^| )--[a-z-]+' | tr -d ' '); do
            check "qqbench $cmd takes $opt" grep -q -- "$opt" help.txt
        done
    done
    for t in $(echo "$line" | grep -oE '(^ *|&& |; |sudo )make [a-z-]+' | awk '{print $NF}'); do
        check "make target '$t' exists" grep -qE "^$t:" "$QQ_SOURCE_DIR/Makefile"
    done
done < lines.txt
check "the files call qqbench ($n calls)" test "$n" -ge 4
check "artifacts: JSON, JUnit and the report folder" \
    grep -q -- '--json .*--junit' lines.txt
check "the report folder is made" grep -q 'qqbench report .*--out' lines.txt
finish
