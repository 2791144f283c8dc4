# Memory keys beyond the unit tests: valgrind runs of the interception tests,
# and proof on the object code that the off build references nothing of QQ.

# Valgrind replaces malloc at link level: the tests must still be exact and
# clean under it (no error, no leak). Not with QQ_SANITIZE: ASan and valgrind
# do not mix.
find_program(VALGRIND valgrind)
if(VALGRIND AND NOT QQ_SANITIZE AND TARGET test_mem)
  qq_test(test_mem_valgrind
    COMMAND ${VALGRIND} --error-exitcode=1 --leak-check=full $<TARGET_FILE:test_mem>
    LABELS unit TIMEOUT 300)
  if(TARGET test_mem_threads)
    qq_test(test_mem_threads_valgrind
      COMMAND ${VALGRIND} --error-exitcode=1 --leak-check=full
              $<TARGET_FILE:test_mem_threads>
      LABELS unit TIMEOUT 300)
  endif()
endif()

# test_mem_off.c compiled on its own, profiling off: its object file must
# neither define nor call any Mem*, GetMemoryUsed or qq_ symbol.
set(QQ_MEM_OFF_SRC ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_mem_off.c)
if(EXISTS ${QQ_MEM_OFF_SRC} AND CMAKE_NM)
  add_library(test_mem_off_obj OBJECT ${QQ_MEM_OFF_SRC})
  target_include_directories(test_mem_off_obj PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}
                             ${PROJECT_SOURCE_DIR}/qq/include)
  qq_test(test_mem_off_symbols
    COMMAND sh -c "! ${CMAKE_NM} \"$0\" | grep -E '(Mem[A-Z]|GetMemoryUsed|qq_)'"
            $<TARGET_OBJECTS:test_mem_off_obj>
    LABELS unit TIMEOUT 60)
endif()
