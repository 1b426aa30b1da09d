# Reads the op list (spec/ops/op_list.hpp) and the scalar list (spec/scalar.hpp), so that each op
# gets its own translation units: adding an op or a scalar adds units instead of growing one.
#
# nnref_op_list(<out-var>): "Attrs;stem;Attrs;stem;..." in list order.
# nnref_scalar_list(<out-var>): "float;double;mp50".
# nnref_generate_op_units(<out-var> <prefix> <body>): writes one .cpp per op into the build tree,
#   with @ATTRS@ and @STEM@ replaced in <body>, and returns their paths.

function(nnref_op_list out)
  # Read whole: each entry's line ends in a backslash, which file(STRINGS) would take as an escape.
  file(READ ${PROJECT_SOURCE_DIR}/spec/ops/op_list.hpp text)
  string(REGEX MATCHALL "\n  X\\([A-Za-z]+, [a-z_0-9]+\\)" lines "${text}")
  set(result "")
  foreach(line ${lines})
    string(REGEX MATCH "X\\(([A-Za-z]+), ([a-z_0-9]+)\\)" _ "${line}")
    list(APPEND result ${CMAKE_MATCH_1} ${CMAKE_MATCH_2})
  endforeach()
  set(${out} ${result} PARENT_SCOPE)
  set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
               ${PROJECT_SOURCE_DIR}/spec/ops/op_list.hpp ${PROJECT_SOURCE_DIR}/spec/scalar.hpp)
endfunction()

function(nnref_scalar_list out)
  file(STRINGS ${PROJECT_SOURCE_DIR}/spec/scalar.hpp line REGEX "^#define NNREF_FOR_EACH_SCALAR")
  string(REGEX MATCHALL "X\\(ARG, [a-z_0-9]+\\)" items "${line}")
  set(result "")
  foreach(item ${items})
    string(REGEX MATCH "X\\(ARG, ([a-z_0-9]+)\\)" _ "${item}")
    list(APPEND result ${CMAKE_MATCH_1})
  endforeach()
  set(${out} ${result} PARENT_SCOPE)
endfunction()

# Writes the file only when its text changes, so that a reconfigure rebuilds nothing.
function(nnref_write_unit path text)
  if(EXISTS ${path})
    file(READ ${path} old)
    if(old STREQUAL text)
      return()
    endif()
  endif()
  file(WRITE ${path} "${text}")
endfunction()

function(nnref_generate_op_units out prefix body)
  nnref_op_list(ops)
  set(paths "")
  list(LENGTH ops n)
  math(EXPR last "${n} - 1")
  foreach(i RANGE 0 ${last} 2)
    math(EXPR j "${i} + 1")
    list(GET ops ${i} ATTRS)
    list(GET ops ${j} STEM)
    string(REPLACE "@ATTRS@" "${ATTRS}" text "${body}")
    string(REPLACE "@STEM@" "${STEM}" text "${text}")
    set(path ${CMAKE_CURRENT_BINARY_DIR}/generated/${prefix}_${STEM}.cpp)
    nnref_write_unit(${path} "${text}")
    list(APPEND paths ${path})
  endforeach()
  set(${out} ${paths} PARENT_SCOPE)
endfunction()
