# Test kernels for the harness's integration tests (tests/data/kernels).
if(QQ_LIBRARY_ONLY) # no harness, no integration tests
  return()
endif()
add_executable(planted ${QQ_TEST_DATA}/kernels/planted.c)
target_compile_definitions(planted PRIVATE QQ_ENABLE)
target_link_libraries(planted PRIVATE qq)
set_target_properties(planted PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests/kernels)

# The timing verdicts these tests ask for are decided by orders of magnitude
# (test_run_planted, test_run_aa, test_run_machine, test_run_baseline_keys,
# test_run_model): they run beside other tests. test_run_pow_direct holds the
# Km line's saving to more than half its cost: run it alone.
if(TEST test_run_pow_direct)
  set_tests_properties(test_run_pow_direct PROPERTIES RUN_SERIAL TRUE)
endif()

# In the sanitizer build the kernels are instrumented too: ASan would turn the
# planted crash (SIGSEGV) into its own report and exit 1, and Open MPI's
# allocations into a leak report and exit 1, so the tests that launch crashing
# or MPI kernels let signals through and leave leak detection off.
if(QQ_SANITIZE)
  foreach(t test_run_kernel_failures test_run_mpi test_run_reports test_run_orphans
            test_run_odd_paths test_run_against)
    if(TEST ${t})
      set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT
                   "ASAN_OPTIONS=detect_leaks=0:handle_segv=0")
    endif()
  endforeach()
endif()

# A program that uses only the paper's API, built with QQ on (the buffer
# rule of QQ_EVENTS) and off (a build that forgot -DQQ_ENABLE writes no file).
add_executable(events_on ${QQ_TEST_DATA}/kernels/events.c)
target_compile_definitions(events_on PRIVATE QQ_ENABLE)
target_link_libraries(events_on PRIVATE qq)
add_executable(events_off ${QQ_TEST_DATA}/kernels/events.c)
target_include_directories(events_off PRIVATE ${PROJECT_SOURCE_DIR}/qq/include)
set_target_properties(events_on events_off PROPERTIES
                      RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests/kernels)

# qqbench ci builds a small project of the test's own, and the reference
# revision, against this build's libqq: in the sanitizer build those need
# the sanitizers too (CMake takes CFLAGS and LDFLAGS from the environment at
# a project's first configure).
if(QQ_SANITIZE AND TEST test_ci_end_to_end)
  set_property(TEST test_ci_end_to_end APPEND PROPERTY ENVIRONMENT
               "CFLAGS=-fsanitize=address,undefined" "LDFLAGS=-fsanitize=address,undefined"
               "ASAN_OPTIONS=detect_leaks=0")
endif()

# The instruction-count kernel (tests/data/kernels/counted.c): as is, with one
# instruction planted per hit of key 'a' (-DEXTRA=1), and on MPI.
add_executable(counted ${QQ_TEST_DATA}/kernels/counted.c)
add_executable(counted_extra ${QQ_TEST_DATA}/kernels/counted.c)
target_compile_definitions(counted_extra PRIVATE EXTRA=1)
set(QQ_COUNTED_KERNELS counted counted_extra)
foreach(k counted counted_extra)
  target_link_libraries(${k} PRIVATE qq Threads::Threads)
endforeach()
if(TARGET qq_mpi)
  add_executable(counted_mpi ${QQ_TEST_DATA}/kernels/counted.c)
  target_link_libraries(counted_mpi PRIVATE qq_mpi Threads::Threads)
  list(APPEND QQ_COUNTED_KERNELS counted_mpi)
endif()
foreach(k ${QQ_COUNTED_KERNELS})
  target_compile_definitions(${k} PRIVATE QQ_ENABLE)
  set_target_properties(${k} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests/kernels)
endforeach()
# The instruction-count tests run the kernels under valgrind (label valgrind).
foreach(t test_run_instructions test_qq_callgrind)
  if(TEST ${t})
    set_property(TEST ${t} APPEND PROPERTY LABELS valgrind)
  endif()
endforeach()
