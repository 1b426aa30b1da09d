// The size program (spec/size_program.hpp) of each op that takes computed sizes, in one list: the
// ONNX reader's shapes read it with every element computed from data as 1 (the rank), and the plan
// writes those elements in from the run's inputs (semantics/plan.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <variant>
#include <vector>

#include "semantics/op.hpp"

namespace nnref {

// A program, and the position among the node's inputs of the program's operand 0.
template <class Code>
struct SizeCode {
  Code* code;
  size_t first;
};

// The program of `op` (an OpAttrs, const or not); nullopt for an op that takes no computed sizes.
template <class Ops>
auto size_code_of(Ops& op) {
  using Code = std::conditional_t<std::is_const_v<Ops>, const std::vector<int64_t>, std::vector<int64_t>>;
  using Out = SizeCode<Code>;
  return std::visit(
      [](auto& a) -> std::optional<Out> {
        using A = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<A, ReshapeAttrs> || std::is_same_v<A, SliceAttrs> ||
                      std::is_same_v<A, BroadcastToAttrs>)
          return Out{&a.computed, 1};
        else if constexpr (std::is_same_v<A, PadAttrs>)
          return Out{&a.computed.code, 1};
        else if constexpr (std::is_same_v<A, RangeAttrs>)
          return Out{&a.computed, 0};
        else if constexpr (std::is_same_v<A, SizesAttrs>)
          return Out{&a.program, 0};
        else
          return std::nullopt;
      },
      op);
}

}  // namespace nnref
