# The kernels' MPI tests are the auto-discovered test_kernel_sync (unit) and
# test_kernel_msg_pack (integration): label them mpi too, give them time.
foreach(t test_kernel_sync test_kernel_msg_pack)
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
