# The analysers over the whole tree take a few CPU-minutes (test_lint.sh).
if(TEST test_lint)
  set_tests_properties(test_lint PROPERTIES TIMEOUT 1800 LABELS "integration;lint")
endif()
