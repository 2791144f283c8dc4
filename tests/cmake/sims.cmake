# The unit tests that simulate thousands of suites on the real judge
# (test_judge_stop, test_judge_runs, test_judge: 20-60 s of one core
# each on an idle guest) get a hang guard of 600 s, not the unit tests'
# 120 s: on a machine that is slower or shared (load 24 here once, with a
# full build beside it) test_judge_runs took past 120 s and was killed
# while still correct. The guard catches a hang, not a speed; their cost
# is measured in CI's times, never asserted. In a sanitizer build they
# run an eighth of their trials (fixture_trials, tests/judge_fixture.h,
# from TEST_ASAN and TEST_TSAN).
foreach(t test_judge_stop test_judge_runs test_judge)
  if(TEST ${t})
    set_tests_properties(${t} PROPERTIES TIMEOUT 600)
  endif()
endforeach()
