# The kernels' MPI tests are the auto-discovered test_kernel_sync (unit) and
# test_kernel_msg_pack, test_kernel_qq_io and test_kernel_blocked (integration): label them mpi
# too, give them time.
foreach(t test_kernel_sync test_kernel_msg_pack test_kernel_qq_io test_kernel_blocked)
  if(TEST ${t})
    get_test_property(${t} LABELS labels)
    set_tests_properties(${t} PROPERTIES LABELS "${labels};mpi" TIMEOUT 300)
    # Open MPI leaks in MPI_Init/MPI_Finalize (not ours): LeakSanitizer would
    # fail every MPI run, so only these tests run without leak detection.
    if(QQ_SANITIZE)
      set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
    endif()
  endif()
endforeach()

# The serial kernels are valgrind-clean: no invalid access, no leak. (The MPI
# kernels are checked by hand on one rank: Open MPI's own MPI_Init/Finalize
# allocations show as leaks, which no suppression file we ship could track.)
find_program(QQ_VALGRIND valgrind)
if(QQ_VALGRIND AND NOT QQ_SANITIZE AND NOT QQ_TSAN)
  foreach(spec "channel|--steps;200" "brain|--steps;50" "qq_overhead|--size;1000;--steps;3"
          "mem_overhead|--size;2000;--steps;2" "brain_threads_serial|--steps;20;--size;512"
          "blocked|--size;64;--steps;4")
    string(REPLACE "|" ";" parts "${spec}")
    list(GET parts 0 k)
    list(REMOVE_AT parts 0)
    if(TARGET ${k})
      qq_test(valgrind_kernel_${k}
        COMMAND ${QQ_VALGRIND} --error-exitcode=1 --leak-check=full
                --errors-for-leak-kinds=definite,indirect $<TARGET_FILE:${k}> ${parts}
        LABELS "unit;valgrind" TIMEOUT 300)
      # Again on the path a processor that hides RDTSCP from CPUID gets
      # (valgrind refuses the instruction where CPUID does not offer it).
      qq_test(valgrind_kernel_${k}_lfence
        COMMAND ${QQ_VALGRIND} --error-exitcode=1 --leak-check=full
                --errors-for-leak-kinds=definite,indirect $<TARGET_FILE:${k}> ${parts}
        LABELS "unit;valgrind" TIMEOUT 300 ENVIRONMENT QQ_TICKS=lfence)
    endif()
  endforeach()
  # The MPI build of the threaded brain on one rank: no invalid access
  # (Open MPI's own MPI_Init allocations leave the leak check to the
  # serial build above).
  if(TARGET brain_threads)
    qq_test(valgrind_kernel_brain_threads_mpi
      COMMAND ${QQ_VALGRIND} --error-exitcode=1 --leak-check=no
              $<TARGET_FILE:brain_threads> --steps 20 --size 512
      LABELS "unit;valgrind;mpi" TIMEOUT 300)
  endif()
  if(TARGET channel)
    qq_test(valgrind_tools_channel
      COMMAND bash ${QQ_TEST_DATA}/kernels/valgrind_tools.sh $<TARGET_FILE:channel>
              $<TARGET_FILE:qqbench>
      LABELS "integration;valgrind" TIMEOUT 300)
  endif()
endif()
