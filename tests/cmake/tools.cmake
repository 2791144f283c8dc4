# test_km_callgrind counts instructions under valgrind: with the valgrind
# tests (not in the sanitizer pass).
if(TEST test_km_callgrind)
  set_property(TEST test_km_callgrind APPEND PROPERTY LABELS valgrind)
endif()
