# Unity builds: CMake compiles a target's sources in batches of 8, each batch one translation unit
# that includes the eight .cpp files. Nearly every unit of nnref includes the IR (semantics/op.hpp:
# the op list, the scalars, the 37-way op variant) and instantiates the same templates from it, so
# a unit's own code is often the smaller part of its cost; a batch pays that once for eight. In
# these folders the compile jobs fell from 578 s to 272 s (docs/building.md, "Compile time").
#
# Not in fastpath/: its kernels are compiled once per SIMD target by re-including the file
# (Highway's foreach_target.h), which a batch breaks. Not in tests/: one file per executable.
# Each unit still compiles alone (NNREF_UNITY_BUILD=OFF, and the fuzz build, which compiles
# spec/, semantics/ and formats/ file by file): a batch must not hide a missing include, and two
# files of a folder must not define the same name in their anonymous namespaces.
option(NNREF_UNITY_BUILD "Compile the libraries' sources in batches of 8 (CMake's unity build)" ON)

# nnref_unity_targets(<folder>...): every library and executable of the folders builds in batches.
function(nnref_unity_targets)
  if(NOT NNREF_UNITY_BUILD)
    return()
  endif()
  nnref_targets_in(targets ${ARGN})
  set_target_properties(${targets} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
endfunction()
