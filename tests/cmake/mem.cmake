# Memory keys beyond the unit tests: valgrind runs of the interception tests,
# and proof on the object code that the off build references nothing of QQ.

# Valgrind replaces malloc at link level: the tests must still be exact and
# clean under it (no error, no leak). Not with QQ_SANITIZE: ASan and valgrind
# do not mix. Not in a cross build: valgrind is the host's, and runs only
# the host's architecture (the emulator cannot run it either).
find_program(VALGRIND valgrind)
if(VALGRIND AND NOT QQ_SANITIZE AND NOT CMAKE_CROSSCOMPILING AND TARGET test_mem)
  qq_test(test_mem_valgrind
    COMMAND ${VALGRIND} --error-exitcode=1 --leak-check=full $<TARGET_FILE:test_mem>
    LABELS unit TIMEOUT 300)
  if(TARGET test_mem_table)
    qq_test(test_mem_table_valgrind
      COMMAND ${VALGRIND} --error-exitcode=1 --leak-check=full --trace-children=yes
              $<TARGET_FILE:test_mem_table>
      LABELS unit TIMEOUT 300)
  endif()
  if(TARGET test_mem_free_key)
    qq_test(test_mem_free_key_valgrind
      COMMAND ${VALGRIND} --error-exitcode=1 --leak-check=full $<TARGET_FILE:test_mem_free_key>
      LABELS unit TIMEOUT 300)
  endif()
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

# The lock-free path of the first recording thread and its hand-over to the
# lock are checked under ThreadSanitizer: qq_mem*.c and test_mem_table.c
# built with -fsanitize=thread (the rest of libqq as usual; the test uses
# none of it concurrently). TSan sees the handshake's acquire/release
# edges; without them it reports the records the two threads share. Not
# with QQ_SANITIZE: ASan and TSan do not mix. Not in a cross build: under
# qemu-user TSan's start fails (it re-executes the program to turn address
# randomisation off, and the kernel cannot execute an aarch64 file:
# "execve failed, errno 8"); started under setarch -R the three pass, but
# take 165 s under qemu, and what they check (the C11 happens-before
# edges) is the same source the host build checks. Labelled tsan too, so
# that a ThreadSanitizer stage (ctest -L tsan) runs them with its own.
include(CheckCSourceCompiles)
if(NOT QQ_SANITIZE AND NOT CMAKE_CROSSCOMPILING AND TARGET test_mem_table
   AND CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  set(CMAKE_REQUIRED_FLAGS -fsanitize=thread)
  set(CMAKE_REQUIRED_LINK_OPTIONS -fsanitize=thread)
  check_c_source_compiles("int main(void) { return 0; }" QQ_HAVE_TSAN)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  # The path of a kernel without private expedited membarrier, where no
  # table is biased and every call takes its table's lock: forced by
  # QQ_MEM_NO_BIAS=1, so every machine runs it.
  foreach(t test_mem_threads test_mem_xthread test_mem_bounds test_mem_fork test_mem_null
            test_mem_free_key)
    if(TARGET ${t})
      qq_test(${t}_nobias
        COMMAND $<TARGET_FILE:${t}>
        ENVIRONMENT "QQ_MEM_NO_BIAS=1"
        LABELS "unit" TIMEOUT 300)
    endif()
  endforeach()
  if(QQ_HAVE_TSAN)
    add_library(qq_mem_tsan OBJECT ${PROJECT_SOURCE_DIR}/qq/src/qq_mem.c
                ${PROJECT_SOURCE_DIR}/qq/src/qq_mem_fork.c ${PROJECT_SOURCE_DIR}/qq/src/qq_mem_print.c)
    target_include_directories(qq_mem_tsan PRIVATE ${PROJECT_SOURCE_DIR}/qq/include
                               ${PROJECT_SOURCE_DIR}/qq/src)
    target_compile_definitions(qq_mem_tsan PRIVATE QQ_BUILDING_LIBRARY QQ_ENABLE)
    target_compile_options(qq_mem_tsan PRIVATE -fsanitize=thread)
    add_executable(test_mem_table_tsan ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_mem_table.c
                   $<TARGET_OBJECTS:qq_mem_tsan>)
    target_include_directories(test_mem_table_tsan PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}
                               ${PROJECT_SOURCE_DIR}/qq/src)
    target_compile_options(test_mem_table_tsan PRIVATE -fsanitize=thread)
    target_link_options(test_mem_table_tsan PRIVATE -fsanitize=thread)
    target_link_libraries(test_mem_table_tsan PRIVATE qq)
    qq_test(test_mem_table_tsan
      COMMAND $<TARGET_FILE:test_mem_table_tsan>
      ENVIRONMENT "TSAN_OPTIONS=halt_on_error=1"
      LABELS "unit;tsan" TIMEOUT 300)
    # The per-thread tables and counters with several threads at once:
    # blocks freed across threads, thread churn, a shared key, the peak's
    # bounds on a forced interleaving (test_mem_bounds).
    foreach(t test_mem_threads test_mem_xthread test_mem_bounds)
      if(TARGET ${t})
        add_executable(${t}_tsan ${CMAKE_CURRENT_SOURCE_DIR}/unit/${t}.c
                       $<TARGET_OBJECTS:qq_mem_tsan>)
        target_include_directories(${t}_tsan PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}
                                   ${PROJECT_SOURCE_DIR}/qq/src)
        target_compile_options(${t}_tsan PRIVATE -fsanitize=thread)
        target_link_options(${t}_tsan PRIVATE -fsanitize=thread)
        target_link_libraries(${t}_tsan PRIVATE qq)
        qq_test(${t}_tsan
          COMMAND $<TARGET_FILE:${t}_tsan>
          ENVIRONMENT "TSAN_OPTIONS=halt_on_error=1"
          LABELS "unit;tsan" TIMEOUT 300)
      endif()
    endforeach()
  endif()
endif()
