# The order ctest -j starts tests in on a fresh clone (after a first run
# ctest orders by the times it kept in Testing/Temporary/CTestCostData.txt):
# the longest first, so the last minutes do not leave a core idle beside
# one long test. Seconds measured in the plain build on a 2-core machine;
# only the order matters. (Tests marked RUN_SERIAL run alone wherever
# they fall.)
set(QQ_TEST_COSTS
    test_report 25 test_run_against 20 test_cli_profile 16 test_run_baseline_kill 16
    test_run_orphans 14 test_run_mpi 14 test_kernel_qq_io 12 test_lint_tidy_qq_src_qq_mem 22
    test_mem_table_valgrind 9 test_kernel_msg_pack 9 test_lint_tidy_harness_baseline 12
    test_lint_tidy_qq_src_qq_file 12 test_kernel_sync 6 test_run_signals 6
    test_run_many_cases 5 test_run_baselines 5 test_valgrind_qqbench 5 test_lint_tidy_harness_suite 8)
while(QQ_TEST_COSTS)
  list(POP_FRONT QQ_TEST_COSTS t cost)
  if(TEST ${t})
    set_tests_properties(${t} PROPERTIES COST ${cost})
  endif()
endwhile()
