# The view/export test on a real MPI run carries the mpi label; in the
# sanitizer build the instrumented kernel's Open MPI allocations are live at exit.
if(TEST test_view_mpi)
  set_property(TEST test_view_mpi APPEND PROPERTY LABELS mpi)
  if(QQ_SANITIZE)
    set_property(TEST test_view_mpi APPEND PROPERTY ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
  endif()
endif()
