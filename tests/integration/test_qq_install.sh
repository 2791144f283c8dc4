#!/usr/bin/env bash
# cmake --install gives headers, libraries, pkg-config files and a CMake package that outside projects build against.
set -euo pipefail
src="$QQ_TEST_DATA/outside"
prefix="$PWD/prefix"
rm -rf prefix cmake-app cmake-off pc-app* pc-paper* outside*.qq
cmake --install "$QQ_BINARY_DIR" --prefix "$prefix" --component qq > install.log
flags=${QQ_SANITIZE_FLAGS:-}
pass=0 fail=0
check() { if "$@"; then pass=$((pass+1)); else echo "FAIL: $*"; fail=$((fail+1)); fi; }

check test -f "$prefix/include/qq/qq.h"
check test -f "$prefix/include/qq/qq_file.h"
check test -f "$prefix/include/qq/qq_mem.h"
# The headers installed are qq/include's, no fewer and none that is not there.
check test "$(cd "$prefix/include/qq" && ls)" = "$(cd "$QQ_SOURCE_DIR/qq/include" && ls)"
check bash -c "! grep -q 'qq_mpi.h' install.log"
check test -f "$prefix/lib/pkgconfig/qq.pc"

# 1. CMake: find_package(QQ)
cmake -S "$src" -B cmake-app -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_FLAGS="$flags" \
      -DCMAKE_EXE_LINKER_FLAGS="$flags" > cmake-app.log 2>&1 || { cat cmake-app.log; exit 1; }
cmake --build cmake-app > cmake-build.log 2>&1 || { cat cmake-build.log; exit 1; }
check bash -c "./cmake-app/app | grep -qx 'entries 20'"
check "$QQBENCH" st outside.qq > /dev/null
# Linking QQ::qq alone turns QQ on: the paper-API program writes its file.
rm -f outside_paper.qq
check bash -c "./cmake-app/paper | grep -qx 'QQ on'"
check test -f outside_paper.qq
# -DQQ_ENABLE=OFF in the using project: compiled out, no file.
rm -rf cmake-off outside_paper.qq
cmake -S "$src" -B cmake-off -DCMAKE_PREFIX_PATH="$prefix" -DQQ_ENABLE=OFF -DCMAKE_C_FLAGS="$flags" \
      -DCMAKE_EXE_LINKER_FLAGS="$flags" > cmake-off.log 2>&1 || { cat cmake-off.log; exit 1; }
cmake --build cmake-off --target paper > cmake-off-build.log 2>&1 || { cat cmake-off-build.log; exit 1; }
check bash -c "./cmake-off/paper | grep -qx 'QQ off'"
check test ! -e outside_paper.qq

# 2. pkg-config
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
rm -f outside.qq
cc -std=c11 $flags -DQQ_ENABLE "$src/app.c" $(pkg-config --cflags --libs qq) -o pc-app
check bash -c "./pc-app | grep -qx 'entries 20'"
# pkg-config's flags turn QQ on without -DQQ_ENABLE; -UQQ_ENABLE after them
# compiles it out.
rm -f outside_paper.qq
cc -std=c11 $flags "$src/paper.c" $(pkg-config --cflags --libs qq) -o pc-paper
check bash -c "./pc-paper | grep -qx 'QQ on'"
check test -f outside_paper.qq
rm -f outside_paper.qq
cc -std=c11 $flags "$src/paper.c" $(pkg-config --cflags --libs qq) -UQQ_ENABLE -o pc-paper-off
check bash -c "./pc-paper-off | grep -qx 'QQ off'"
check test ! -e outside_paper.qq

# 3. pkg-config qq-mpi with mpicc, real mpirun with 2 ranks
if [ -f "$prefix/lib/pkgconfig/qq-mpi.pc" ]; then
    mpicc -std=c11 $flags -DQQ_ENABLE "$src/app_mpi.c" $(pkg-config --cflags --libs qq-mpi) -o pc-app-mpi
    check mpirun -np 2 --oversubscribe ./pc-app-mpi
    check bash -c "'$QQBENCH' st outside_mpi.qq | grep -q '2 nodes'"
else
    echo "FAIL: qq-mpi.pc was not installed"; fail=$((fail+1))
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
