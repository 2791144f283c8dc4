# test_stat_tables checks docs' simulated tables against what test_judge_runs
# and test_model printed (their sim-out.txt, tests/CMakeLists.txt): those run
# first, and a run of test_stat_tables alone runs them too.
if(TEST test_stat_tables)
  set_tests_properties(test_stat_tables PROPERTIES FIXTURES_REQUIRED sim_tables)
endif()
