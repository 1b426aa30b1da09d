// The binding obligations of one parameter, read over any dimension type: the entry exists (when
// the op requires it), holds floating-point data, and has exactly the shape the op implies. The
// concrete check (check_bindings) and the checker's symbolic one both run this.
#pragma once

#include <string>

#include "semantics/payload.hpp"
#include "spec/op_rule.hpp"

namespace nnref {

template <class Dim, class S>
void require_binding(const ParamShape<Dim>& p, const ParamEntry* e, const std::string& pname, S& sink) {
  if (e == nullptr) {
    sink.require(!p.required, "bind.missing",
                 "parameter " + pname + " of shape " + dims_str(p.dims) + " is missing from the weights");
    return;
  }
  sink.require(dtype_is_float(e->tensor.dtype), "bind.dtype",
               "parameter " + pname + " (" + e->source + ") has dtype " + dtype_name(e->tensor.dtype) +
                   "; parameters must be float16, float32 or float64");
  const auto& actual = e->tensor.shape.dims();
  const std::string what = "parameter " + pname + " (" + e->source + ") has shape " + e->tensor.shape.str() +
                           ", but the layer needs " + dims_str(p.dims);
  if (actual.size() != p.dims.size()) {
    sink.require(false, "bind.shape-mismatch", what);
    return;
  }
  PredOf<Dim> same = true;
  for (size_t i = 0; i < actual.size(); ++i) same = same && (p.dims[i] == Dim(actual[i]));
  sink.require(same, "bind.shape-mismatch", what);
}

}  // namespace nnref
