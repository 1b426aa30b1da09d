# One precompiled header for every C++ target of the project: the Boost.Multiprecision headers that
# spec/scalars.hpp pulls into nearly every unit (mp50's cpp_bin_float and Interval's MPFI backend).
# Parsed, they are about 200,000 lines: 2.5 s of the 3.1 s a unit that includes semantics/op.hpp
# and nothing else takes; with the precompiled header that unit takes 0.8 s (docs/building.md,
# "Compile time").
#
# Only third-party headers go in it, so that a unit still has to include what it uses of nnref's
# own headers. GCC accepts the header under other -O levels and -D definitions (the tests' -O1 and
# NNREF_SOURCE_DIR), but not under -fopenmp: the targets that link OpenMP (bench/) parse the headers.
# clang refuses one built with other sanitizer flags, so fuzz/ (its harnesses and instrumented
# readers, which have their own) is not among the folders; nor is the project's root (nnref_pch).
option(NNREF_PCH "Precompile the Boost.Multiprecision headers once for every target" ON)

# nnref_precompile_targets(<folder>...): every library and executable defined in the folders (and
# their subfolders) reuses the one precompiled header.
function(nnref_precompile_targets)
  if(NOT NNREF_PCH)
    return()
  endif()
  add_library(nnref_pch OBJECT ${PROJECT_SOURCE_DIR}/cmake/pch.cpp)
  target_link_libraries(nnref_pch PRIVATE Boost::headers)
  target_precompile_headers(nnref_pch PRIVATE <boost/multiprecision/cpp_bin_float.hpp> <boost/multiprecision/mpfi.hpp>)
  list(TRANSFORM ARGN PREPEND ${PROJECT_SOURCE_DIR}/ OUTPUT_VARIABLE dirs)
  while(dirs)
    list(POP_FRONT dirs dir)
    get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
    list(APPEND dirs ${subdirs})
    get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
    foreach(target ${targets})
      get_target_property(type ${target} TYPE)
      get_target_property(libraries ${target} LINK_LIBRARIES)
      if(type MATCHES "^(STATIC_LIBRARY|OBJECT_LIBRARY|EXECUTABLE)$" AND NOT "OpenMP::OpenMP_CXX" IN_LIST libraries)
        target_precompile_headers(${target} REUSE_FROM nnref_pch)
      endif()
    endforeach()
  endwhile()
endfunction()
