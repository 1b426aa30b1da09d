# One precompiled header for every C++ target of the project (and a second, unoptimized, for the
# tests): the Boost.Multiprecision headers that spec/scalars.hpp pulls into nearly every unit (mp50's
# cpp_bin_float and Interval's MPFI backend). Parsed, they are about 200,000 lines: 2.5 s of the
# 3.1 s a unit that includes semantics/op.hpp and nothing else takes; with the precompiled header
# that unit takes 0.8 s (docs/building.md, "Compile time").
#
# Only third-party headers go in it, so that a unit still has to include what it uses of nnref's
# own headers. GCC accepts the header under other -D definitions (the tests' NNREF_SOURCE_DIR) and
# other optimization levels, but not without optimization (hence the tests' own) nor under
# -fopenmp: the targets that link OpenMP (bench/) parse the headers. clang refuses one built with
# other sanitizer flags, so fuzz/ (its harnesses and instrumented readers, which have their own) is
# not among the folders; nor is the project's root (the header's own targets).
option(NNREF_PCH "Precompile the Boost.Multiprecision headers once for every target" ON)

# nnref_precompile_targets(<pch> <folder>...): every library and executable defined in the folders
# (and their subfolders) reuses the precompiled header of <pch>, a target made by nnref_add_pch.
function(nnref_precompile_targets pch)
  if(NOT NNREF_PCH)
    return()
  endif()
  nnref_targets_in(targets ${ARGN})
  foreach(target ${targets})
    get_target_property(libraries ${target} LINK_LIBRARIES)
    if(NOT "OpenMP::OpenMP_CXX" IN_LIST libraries)
      target_precompile_headers(${target} REUSE_FROM ${pch})
    endif()
  endforeach()
endfunction()

# nnref_add_pch(<name> [<compile option>...]): the target that compiles the header, with the
# options given (the tests' -O0, under which GCC refuses a header compiled with optimization).
function(nnref_add_pch name)
  if(NOT NNREF_PCH)
    return()
  endif()
  add_library(${name} OBJECT ${PROJECT_SOURCE_DIR}/cmake/pch.cpp)
  target_link_libraries(${name} PRIVATE Boost::headers)
  target_compile_options(${name} PRIVATE ${ARGN})
  target_precompile_headers(${name} PRIVATE <boost/multiprecision/cpp_bin_float.hpp> <boost/multiprecision/mpfi.hpp>)
endfunction()
