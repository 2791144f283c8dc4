# The analysers (tests/integration/test_lint.sh; 'make lint' runs these tests, and make test leaves them out).
# clang-tidy takes about 3 CPU-minutes over the tree, nearly all of it in
# the path-sensitive clang-analyzer checks (qq_mem.c alone about 25 s):
# one test per source file, so ctest -j spreads them over the cores beside
# the other tests instead of one test holding two processes for minutes;
# cppcheck (a few CPU-seconds) over qq/ and harness/ is one more test.
# Label lint; the sanitizer pass does not run them, and in the sanitizer
# build they say so and skip (the sources are the same).
# Not in the library-only (cross) build: the analysers run on the host's
# build of the whole tree, which that build is not.
if(QQ_LIBRARY_ONLY OR CMAKE_CROSSCOMPILING)
  return()
endif()
set(QQ_LINT_SCRIPT ${CMAKE_CURRENT_SOURCE_DIR}/integration/test_lint.sh)
set(QQ_LINT_ENV "")
if(QQ_SANITIZE)
  set(QQ_LINT_ENV "QQ_SANITIZED=1")
endif()
file(GLOB QQ_LINT_SOURCES CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}
     ${PROJECT_SOURCE_DIR}/qq/src/*.c ${PROJECT_SOURCE_DIR}/harness/*/*.c)
list(FILTER QQ_LINT_SOURCES EXCLUDE REGEX "^harness/mpi/")
foreach(f ${QQ_LINT_SOURCES})
  string(REGEX REPLACE "\\.c$" "" stem ${f})
  string(MAKE_C_IDENTIFIER ${stem} stem)
  qq_test(test_lint_tidy_${stem} COMMAND bash ${QQ_LINT_SCRIPT} clang-tidy ${f}
          LABELS "integration;lint" TIMEOUT 600 ENVIRONMENT ${QQ_LINT_ENV})
endforeach()
qq_test(test_lint_cppcheck COMMAND bash ${QQ_LINT_SCRIPT} cppcheck
        LABELS "integration;lint" TIMEOUT 600 ENVIRONMENT ${QQ_LINT_ENV})
