# Library tests that need more than a unit-test executable.
if(QQ_SANITIZE)
  set_tests_properties(test_qq_install PROPERTIES ENVIRONMENT
    "${QQ_TEST_ENV};QQ_SANITIZE_FLAGS=-fsanitize=address,undefined;ASAN_OPTIONS=detect_leaks=0")
endif()
