# test_km_callgrind counts instructions under valgrind: with the valgrind
# tests (not in the sanitizer pass).
if(TEST test_km_callgrind)
  set_property(TEST test_km_callgrind APPEND PROPERTY LABELS valgrind)
endif()
# test_reader_callgrind counts the reader's instructions per event: valgrind too.
if(TEST test_reader_callgrind)
  set_property(TEST test_reader_callgrind APPEND PROPERTY LABELS valgrind)
endif()
