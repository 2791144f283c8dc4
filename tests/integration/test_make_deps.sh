#!/usr/bin/env bash
# make deps installs what building and running qqbench needs and no test tool, make deps-test adds the test tools, both with --no-install-recommends (apt-get, dpkg-query and id are stand-ins: nothing is installed); make test and the other test targets depend on deps-test; a changed CMAKE_FLAGS re-runs cmake (a stand-in cmake).
set -euo pipefail
src="${QQ_SOURCE_DIR:?QQ_SOURCE_DIR not set}"
command -v make >/dev/null || { echo "SKIP: make is not installed"; exit 77; }
pass=0 fail=0
check() { if "$@"; then pass=$((pass+1)); else echo "FAIL: $*"; fail=$((fail+1)); fi; }
# make as the user would call it, not with the flags, variables or environment of a make
# that runs this test (make test-plain).
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u BUILD -u CMAKE_FLAGS -u PREFIX make --no-print-directory -C "$src" "$@"; }
TEST_TOOLS="python3 jq valgrind chromium-headless-shell clang-format clang-tidy cppcheck procps util-linux"
RUN_NEEDS="gcc libc6-dev make cmake pkg-config git libyaml-dev libjansson-dev libgsl-dev libopenmpi-dev openmpi-bin gnuplot-nox fonts-dejavu-core libdw-dev"

rm -rf bin b log
mkdir bin
# Stand-ins: every package missing, the user root or not as $FAKE_UID says,
# apt-get recording what it was asked.
printf '#!/bin/sh\nexit 1\n' > bin/dpkg-query
printf '#!/bin/sh\necho "${FAKE_UID:-1000}"\n' > bin/id
printf '#!/bin/sh\necho "apt-get $*" >> "%s/log"\n' "$PWD" > bin/apt-get
cat > bin/cmake <<EOF
#!/bin/sh
echo "cmake \$*" >> "$PWD/log"
prev=
for a; do [ "\$prev" = -B ] && mkdir -p "\$a" && : > "\$a/CMakeCache.txt"; prev=\$a; done
EOF
chmod +x bin/*
fake() { PATH="$PWD/bin:$PATH" "$@"; }

# Not root: names what is missing, suggests the command, exit 2.
rc=0; fake mk deps > out.txt 2> err.txt || rc=$?
check test "$rc" = 2
check grep -q "missing Debian packages: $RUN_NEEDS (run 'sudo make deps')" err.txt
rc=0; fake mk deps-test > out.txt 2> err.txt || rc=$?
check test "$rc" = 2
check grep -q "missing Debian packages: $RUN_NEEDS $TEST_TOOLS (run 'sudo make deps-test')" err.txt
check test ! -e log

# Root: apt-get installs them, only them, without recommended packages.
rm -f log
FAKE_UID=0 fake mk deps > out.txt 2> err.txt
check grep -qx "apt-get install -y -qq --no-install-recommends $RUN_NEEDS" log
for t in $TEST_TOOLS; do check bash -c "! grep -qw -- '$t' log"; done
rm -f log
FAKE_UID=0 fake mk deps-test > out.txt 2> err.txt
check grep -qx "apt-get install -y -qq --no-install-recommends $RUN_NEEDS $TEST_TOOLS" log
check grep -qx "apt-get install -y -qq --no-install-recommends qemu-user" log
check bash -c "! grep 'apt-get install' log | grep -qv -- --no-install-recommends"
# Every apt-get install the Makefile writes (make fuzz's clang too) is so.
check bash -c "! grep 'apt-get install' '$src/Makefile' | grep -qv -- --no-install-recommends"

# What depends on what, from make's database.
mk -pq help > db.txt 2>/dev/null || true
prereqs() { sed -n "s|^$1: *||p" db.txt | head -1; }
for t in test test-plain test-asan test-tsan test-fuzz test-aarch64 test-more test-foreign lint bench; do
    check bash -c "grep -qw deps-test <<< '$(prereqs "$t")'"
done
for t in build build-asan; do
    check bash -c "grep -qw deps <<< '$(prereqs "$t")' && ! grep -qw deps-test <<< '$(prereqs "$t")'"
done

# With a test goal the configure steps wait for deps-test (make -j), without
# one they do not.
mk -pq lint > db.txt 2>/dev/null || true
check bash -c "grep -qw deps-test <<< '$(prereqs build/CMakeCache.txt)'"
check bash -c "grep -qw deps-test <<< '$(prereqs build-asan)'"
mk -pq help > db.txt 2>/dev/null || true
check bash -c "! grep -qw deps-test <<< '$(prereqs build/CMakeCache.txt)'"

# CMAKE_FLAGS: the first make configures, the same flags again do not, other
# flags do (and their quotes reach cmake), the first ones again do.
rm -f log
for flags in -DQQ_A=1 -DQQ_A=1 "-DQQ_A=2 -DQQ_B='x y'" "-DQQ_A=2 -DQQ_B='x y'" -DQQ_A=1; do
    fake mk BUILD="$PWD/b" CMAKE_FLAGS="$flags" DEPS_LIST= "$PWD/b/CMakeCache.txt" > /dev/null
    echo "after $flags: $(grep -c . log)" >> runs.txt
done
check test "$(cut -d: -f2 runs.txt | tr -d ' \n')" = 11223
check grep -qx "cmake -S . -B $PWD/b -DQQ_A=2 -DQQ_B=x y" log
rm -f runs.txt
# make -n says the same without running anything.
check bash -c "! PATH='$PWD/bin':\$PATH env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n -C '$src' BUILD='$PWD/b' CMAKE_FLAGS=-DQQ_A=1 DEPS_LIST= '$PWD/b/CMakeCache.txt' | grep -q 'cmake -S'"
check bash -c "PATH='$PWD/bin':\$PATH env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n -C '$src' BUILD='$PWD/b' CMAKE_FLAGS=-DQQ_A=3 DEPS_LIST= '$PWD/b/CMakeCache.txt' | grep -q 'cmake -S .* -DQQ_A=3'"
check grep -qx -- "-DQQ_A=1" b/make-cmake-flags

# make install PREFIX=DIR installs there.
mk -n install PREFIX=/tmp/p > install.txt
check grep -q -- "--install build --prefix '/tmp/p'" install.txt
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
