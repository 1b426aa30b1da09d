// Every op's rule over the checker's SymDim, declared extern: checker/CMakeLists.txt generates
// one translation unit per op that instantiates it.
#pragma once

#include "checker/sym_dim.hpp"
#include "semantics/op.hpp"

#define NNREF_EXTERN_SYM_RULE(A, stem)                                                                   \
  extern template std::optional<ShapeOut<SymDim>> op_obligations<A, SymDim>(                             \
      const A&, const std::vector<ElemKind>&, const std::vector<Dims<SymDim>>&, ObligationSink<SymDim>&);

namespace nnref {
NNREF_FOR_EACH_OP(NNREF_EXTERN_SYM_RULE)
}  // namespace nnref

#undef NNREF_EXTERN_SYM_RULE
