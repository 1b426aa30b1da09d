// HostTensor: a tensor as it comes from or goes to a file, before it is read in an
// interpretation's scalar type. Values are held as double: every float16/32/64 and every
// integer of magnitude ≤ 2^53 converts to double exactly (readers refuse larger integers).
#pragma once

#include <string>
#include <vector>

#include "spec/shape.hpp"

namespace nnref {

enum class DType { F16, BF16, F32, F64, I8, I16, I32, I64, U8, U16, U32, U64, Bool };

const char* dtype_name(DType t);  // "float32", "int64", "bool", ...
int dtype_size(DType t);          // bytes per element
bool dtype_is_float(DType t);

struct HostTensor {
  DType dtype = DType::F64;
  Shape shape;
  std::vector<double> values;  // row-major, values.size() == shape.count()
};

}  // namespace nnref
