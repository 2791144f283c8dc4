# The run report's test runs a real suite with an MPI case (msg_pack on 2
# ranks): label mpi; in the sanitizer build the instrumented kernel's Open
# MPI allocations are live at exit.
if(TEST test_report)
  set_property(TEST test_report APPEND PROPERTY LABELS mpi)
  if(QQ_SANITIZE)
    set_property(TEST test_report APPEND PROPERTY ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
  endif()
endif()
