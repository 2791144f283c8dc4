# MPI tests (label mpi): tests/mpi/*.c built against libqq-mpi, run through
# real mpirun by tests/mpi/qq_mpi.sh with 1, 2 and 4 ranks.
if(NOT TARGET qq_mpi)
  message(STATUS "MPI not found: no MPI tests")
  return()
endif()
if(NOT MPIEXEC_EXECUTABLE)
  message(WARNING "MPI found but no mpiexec: no MPI tests")
  return()
endif()

file(GLOB QQ_MPI_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/mpi/*.c)
foreach(src ${QQ_MPI_TEST_SOURCES})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src})
  target_link_libraries(${name} PRIVATE qq_mpi m)
endforeach()

set(QQ_MPI_ENV "MPIEXEC=${MPIEXEC_EXECUTABLE}" "QQ_MPI_TEST=$<TARGET_FILE:qq_mpi_test>")
if(QQ_SANITIZE)
  # Open MPI's own allocations are still live at exit.
  list(APPEND QQ_MPI_ENV "ASAN_OPTIONS=detect_leaks=0")
endif()

# qq_mpi_case(SCENARIO NP...): one test per rank count.
function(qq_mpi_case scenario)
  foreach(np ${ARGN})
    qq_test(mpi_${scenario}_np${np}
            COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/mpi/qq_mpi.sh ${scenario} ${np}
            LABELS mpi TIMEOUT 120 ENVIRONMENT ${QQ_MPI_ENV})
  endforeach()
endfunction()

qq_mpi_case(record 1 2 4)          # merged file checked entry by entry, MPI-IO (QQ_MPI_IO=1)
qq_mpi_case(gather 1 2 4)          # the same with QQ_MPI_IO=0
qq_mpi_case(direct 1 2 4)          # the same with QQ_MPI_IO=2 (each rank writes its part)
qq_mpi_case(same 1 2 4)            # MPI-IO, gather, direct (and serial on 1): identical bytes
qq_mpi_case(failwrite 2 4)         # rank 1's write fails: QQ_EIO everywhere, nothing left
qq_mpi_case(output_env 2)          # QQ_OUTPUT overrides the name on all ranks
qq_mpi_case(badnode 2 4)           # QQOut(node != rank) on one rank
qq_mpi_case(badcount 1 2)          # QQOut(nodes != size) on rank 0
qq_mpi_case(badkeys 2 4)           # keys registered in another order
qq_mpi_case(badname 2)             # one rank names another file
qq_mpi_case(badrange 2 4)          # one rank passes node >= nodes
qq_mpi_case(badio 2)               # one rank asks for another writer (QQ_MPI_IO)
qq_mpi_case(die 2 4)               # rank 1 exits before QQOut
qq_mpi_case(diewrite 2 4)          # rank 1 exits inside the MPI-IO writes
qq_mpi_case(diewrite_gather 2)     # rank 1 exits in the middle of sending its chunk
qq_mpi_case(special 1 2)           # QQ_OUTPUT names a FIFO or a device: refused, kept
qq_mpi_case(special_gather 2)      # the same with QQ_MPI_IO=0
