# Cross build for 64-bit Arm Linux with Debian's gcc-aarch64-linux-gnu; ctest runs the
# programs under qemu-user (Debian's qemu-user). With -DQQ_LIBRARY_ONLY=ON it needs no
# arm64 library beyond the C library the cross compiler brings (docs/TIMING.md).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)

# Libraries and headers from the target's root only; programs (nm, qemu) from the host.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# add_test() of a built program runs it through this; -L: the target's dynamic loader
# and libraries.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)
