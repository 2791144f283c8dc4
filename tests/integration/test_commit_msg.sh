# test_commit_msg.sh - tools/git-hooks/commit-msg (CONTRIBUTING.md) warns on
# a message that breaks the commit habits and is silent on one that keeps
# them; it never refuses a commit (exit 0 either way). Then the same in a
# real repository with core.hooksPath set, as CONTRIBUTING.md installs it.
set -euo pipefail
src="${QQ_SOURCE_DIR:?QQ_SOURCE_DIR not set}"
hook="$src/tools/git-hooks/commit-msg"
. "${QQ_TEST_DATA:?QQ_TEST_DATA not set}/run/check.sh"
[ -x "$hook" ] || { echo "FAIL: $hook is not an executable file"; exit 1; }

# hook NAME: run the hook on the message in NAME; stderr in NAME.err, exit status in $rc.
hook() {
    rc=0
    "$hook" "$1" 2>"$1.err" || rc=$?
}

# The habits kept: a 44-character subject, a blank line, a wrapped body,
# a trailer, and git's comment lines.
cat >good.msg <<'MSG'
qq: QQ_VERSION_* macros and qq_version()

A program linked with libqq could not say which libqq it has: the
header had no version and the library no function to ask.
Signed-off-by: A Person <a@example.org>
# Please enter the commit message for your changes.
MSG
hook good.msg
check "a good message: exit 0" [ "$rc" = 0 ]
check "a good message: no warning" [ ! -s good.msg.err ]

# The habits broken, as 59 of the last 60 commits broke them (issue 35):
# a 164-character subject, two changes joined by ';', no area, no body.
printf '%s\n' "The test holds each big input's CPU time to 3x its size ratio times a 10x smaller input's; the absolute bound was 20x this machine's plain time, and ASan crossed it" >long.msg
hook long.msg
check "a long subject: exit 0 (the hook warns, never refuses)" [ "$rc" = 0 ]
check "a long subject: its length said" grep -q "warning: the subject is 164 characters; at most 72" long.msg.err
check "a long subject: ';' said" grep -q "joins changes with ';'" long.msg.err
check "a long subject: no 'area: what'" grep -q "is not 'area: what'" long.msg.err
check "a long subject: no body said" grep -q "no body" long.msg.err

# A short subject, but line 2 not blank and a body line of 90 characters.
{
    echo "run: the exit code from one function"
    echo "finish decides it."
    echo
    printf 'Before, three writers set it: step_report, step_store and fail(); %s\n' "now finish alone"
} >body.msg
hook body.msg
check "an unwrapped body: exit 0" [ "$rc" = 0 ]
check "line 2 not blank: said" grep -q "line 2 is not blank" body.msg.err
check "a body line of 82 characters: said with its number" grep -q "line 4 is 82 characters" body.msg.err
check "a short subject: its length not said" bash -c '! grep -q "subject is" body.msg.err'

# A merge's subject is git's: nothing said.
printf "Merge branch 'topic' of somewhere far away into main, with a subject over 72 characters\n" >merge.msg
hook merge.msg
check "a merge: no warning" [ ! -s merge.msg.err ]

# Installed as CONTRIBUTING.md says, in a scratch repository: git runs it,
# the commit is made, the warning is shown.
if command -v git >/dev/null; then
    rm -rf repo
    git init -q repo
    mkdir -p repo/tools/git-hooks
    cp "$hook" repo/tools/git-hooks/
    (
        cd repo
        git config user.name t
        git config user.email t@example.org
        git config core.hooksPath tools/git-hooks
        echo x >f
        git add f
        git commit -q -F ../long.msg
    ) 2>git.err && rc=0 || rc=$?
    check "git commit with the hook: made" [ "$rc" = 0 ]
    check "git commit with the hook: one commit in the log" [ "$(git -C repo rev-list --count HEAD 2>/dev/null)" = 1 ]
    check "git commit with the hook: the warning shown" grep -q "subject is 164 characters" git.err
fi
finish
