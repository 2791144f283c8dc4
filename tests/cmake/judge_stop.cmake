# test_judge_stop simulates thousands of suites on the real judge (about
# 50 s of one core): more than the unit tests' 120 s when the machine is
# shared; in the sanitizer build it runs an eighth of them (QQ_SIM_SCALE),
# its bounds computed for the count it runs.
if(TEST test_judge_stop)
  set_tests_properties(test_judge_stop PROPERTIES TIMEOUT 600)
  if(QQ_SANITIZE)
    set_property(TEST test_judge_stop APPEND PROPERTY ENVIRONMENT "QQ_SIM_SCALE=8")
  endif()
endif()
