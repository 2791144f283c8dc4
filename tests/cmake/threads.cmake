# QQ in threaded programs (docs/THREADS.md). In a ThreadSanitizer build
# (QQ_TSAN, make test-tsan) the label tsan picks what runs there: libqq's
# own unit tests (the per-thread buffers: test_qq_threads; the memory keys'
# threads) and the threaded brain kernel, with TSan halting at its first
# report. Not the MPI build of the kernel: Open MPI's own threads are not
# TSan-instrumented and report races in its progress engine, not ours.
# Left out: the tests that starve the allocator on purpose (an address-space
# limit: TSan's own allocator fails first; posix_memalign with a bad
# alignment, which TSan reports instead of returning EINVAL), the tick
# tests that fault on purpose (SIGSEGV/SIGILL handlers TSan takes over),
# and valgrind's runs.
set(QQ_TSAN_LEFT_OUT test_qq_events test_qq_names test_qq_ticks test_mem test_mem_nomem_table)
if(QQ_TSAN)
  get_property(QQ_THREAD_TESTS DIRECTORY PROPERTY TESTS)
  foreach(t ${QQ_THREAD_TESTS})
    if(t MATCHES "^test_(qq_|mem)" AND NOT t MATCHES "valgrind" AND NOT t IN_LIST QQ_TSAN_LEFT_OUT)
      set_property(TEST ${t} APPEND PROPERTY LABELS tsan)
      set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT "TSAN_OPTIONS=halt_on_error=1")
    endif()
  endforeach()
  if(TARGET brain_threads_serial)
    qq_test(tsan_kernel_brain_threads
      COMMAND $<TARGET_FILE:brain_threads_serial> --steps 50 --size 2048 --threads 4
      ENVIRONMENT "TSAN_OPTIONS=halt_on_error=1"
      LABELS "tsan" TIMEOUT 300)
  endif()
endif()

# The readers on threaded files runs the MPI build of the threaded brain on
# 2 ranks (with each MPI writer) when mpirun is there.
if(TEST test_threads_cli)
  set_property(TEST test_threads_cli APPEND PROPERTY LABELS mpi)
endif()
