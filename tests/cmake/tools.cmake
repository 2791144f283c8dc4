# test_km_gbench compares timings of two tools: run it alone, not beside
# other tests that would load the two cores unevenly between its rounds.
if(TEST test_km_gbench)
  set_tests_properties(test_km_gbench PROPERTIES RUN_SERIAL TRUE)
endif()
