# The goal lines of issue 34 that take minutes, run once rather than in make
# test: tests/sim/sim_*.c, 2000 suites a line on the real judge, label sim.
# make test leaves them out (ctest -LE 'lint|^sim$'); make conformance runs
# them (ctest -L '^sim$'). Each unit test keeps a reduced line of its own.
if(NOT QQ_LIBRARY_ONLY)
  file(GLOB QQ_SIM_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/sim/sim_*.c)
  foreach(src ${QQ_SIM_SOURCES})
    get_filename_component(name ${src} NAME_WE)
    add_executable(${name} ${src})
    target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}
                               ${PROJECT_SOURCE_DIR}/qq/src)
    target_link_libraries(${name} PRIVATE qqb qq Threads::Threads m)
    qq_test(${name} COMMAND ${name} LABELS sim TIMEOUT 1200)
    # make test's reduced check of the same lines (a few seconds; the file says its bound)
    qq_test(${name}_reduced COMMAND ${name} --reduced LABELS reduced)
  endforeach()
endif()
