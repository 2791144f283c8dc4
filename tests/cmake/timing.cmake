# Tests whose assertions hold measured times against each other (a delta
# against a bulk timing, a verdict on identical code): run them alone, so
# the other test that ctest -j would run beside them cannot share their core.
foreach(t test_run_chain test_run_attribution test_run_pow_direct)
  if(TEST ${t})
    set_tests_properties(${t} PROPERTIES RUN_SERIAL TRUE)
  endif()
endforeach()
