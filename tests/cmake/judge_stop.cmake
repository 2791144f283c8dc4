# test_judge_stop simulates thousands of suites on the real judge (about
# 60 s of one core): more than the unit tests' 120 s when the machine is
# shared. In a sanitizer build it runs an eighth of them (fixture_trials,
# tests/judge_fixture.h, from TEST_ASAN and TEST_TSAN).
if(TEST test_judge_stop)
  set_tests_properties(test_judge_stop PROPERTIES TIMEOUT 600)
endif()
