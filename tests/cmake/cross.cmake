# The cross build (cmake/aarch64-linux-gnu.cmake, make test-aarch64): what its emulator
# cannot give, and the check that the host's reader reads the file the target wrote.
if(NOT CMAKE_CROSSCOMPILING)
  return()
endif()

# qemu-user accepts setrlimit(RLIMIT_AS) and ignores it (the limit would bind the
# emulator's own memory), so nothing fails to map: the cases that test running out of
# address space skip (tests/test.h, test_rlimit_as_ignored): test_qq_events'
# events_env_too_large, test_qq_names' index_without_memory, all of test_mem_nomem_table.
if(CMAKE_CROSSCOMPILING_EMULATOR MATCHES "qemu")
  foreach(t test_qq_events test_qq_names test_mem_nomem_table)
    if(TEST ${t})
      set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT "QQ_TEST_RLIMIT_AS_IGNORED=1")
    endif()
  endforeach()
endif()

# QQ_HOST_QQBENCH: the host build's qqbench (make test-aarch64 passes it). A program of
# the paper's API alone (tests/data/kernels/events.c) writes a .qq file under the
# emulator, and the host's st must read it.
set(QQ_HOST_QQBENCH "" CACHE FILEPATH "The host build's qqbench, to read the target's files")
if(QQ_HOST_QQBENCH)
  add_executable(cross_events ${QQ_TEST_DATA}/kernels/events.c)
  target_compile_definitions(cross_events PRIVATE QQ_ENABLE)
  target_link_libraries(cross_events PRIVATE qq)
  string(REPLACE ";" " " QQ_EMULATOR "${CMAKE_CROSSCOMPILING_EMULATOR}")
  qq_test(cross_host_reads
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cross/host_reads.sh $<TARGET_FILE:cross_events>
            ${QQ_HOST_QQBENCH}
    ENVIRONMENT "QQ_EMULATOR=${QQ_EMULATOR}"
    LABELS integration TIMEOUT 120)
endif()
