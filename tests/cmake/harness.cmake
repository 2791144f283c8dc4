# Test kernels for the harness's integration tests (tests/data/kernels).
add_executable(planted ${QQ_TEST_DATA}/kernels/planted.c)
target_compile_definitions(planted PRIVATE QQ_ENABLE)
target_link_libraries(planted PRIVATE qq)
set_target_properties(planted PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests/kernels)

# Timing verdicts are the one kind of test that the machine's other load can
# disturb: run them alone.
foreach(t test_run_planted test_run_aa test_run_machine test_run_pow_direct)
  if(TEST ${t})
    set_tests_properties(${t} PROPERTIES RUN_SERIAL TRUE)
  endif()
endforeach()
