// What an op's maker (properties/op_makers.cpp) sees while the generator builds a model: the pool
// of values built so far, and the choices. A maker proposes a Candidate (attributes, operands,
// what their values must lie in); the generator (generate.cpp) accepts it only when the op's own
// obligations hold (Checked<A>::check), its exact value (f64, and the rigorous Interval) is finite
// and small, and every operand's exact value lies in its domain with a margin (docs/testing.md,
// "Generators and properties"). A composite (make_sequence) is a small fixed sequence of such
// candidates, accepted together or not at all.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "properties/choices.hpp"
#include "properties/generate.hpp"
#include "semantics/graph.hpp"
#include "spec/scalar_envelope.hpp"
#include "spec/scalar_interval.hpp"
#include "spec/shape.hpp"
#include "spec/value.hpp"

namespace nnref::properties {

// Where a value must lie. A leaf (new input or constant) of a range is drawn inside it; a value
// already in the pool is accepted as an operand only when the Interval of its exact value lies
// inside the range's checked bounds, which keep a margin from the edge of the op's domain, and so
// does its float32 envelope wherever that envelope is bounded (an envelope that lost its bound is
// no reason to reject: docs/testing.md).
enum class Range {
  Any,       // drawn in [-4, 4]; checked: nothing
  Positive,  // drawn in [1/8, 15/8]; checked: lo >= 1/8 (log, sqrt, rsqrt, pow's base, variance)
  NonZero,   // drawn in ±[1/4, 7/4]; checked: lo >= 1/8 or hi <= -1/8 (rcp, rsqr, div's divisor, the
             // base of pow with a negative whole exponent)
  Unit,      // drawn in [-3/4, 3/4]; checked: |x| <= 7/8 (asin, acos, atanh)
  AboveOne,  // drawn in [5/4, 4]; checked: lo >= 9/8 (acosh)
  Exponent,  // drawn in [-4, 4]; checked: |x| <= 8 (exp, sinh, cosh, softplus, pow's exponent)
  Angle,     // drawn in [-3/4, 3/4]; checked: |x| <= 5/4 (tan: away from ±π/2)
  Variance,  // drawn in [1/8, 15/8]; checked: lo > 0, no margin. Only for a value positive by
             // construction: the LayerNorm decomposition's variance + epsilon (>= epsilon exactly,
             // and in every float32 evaluation: a mean of squares is never negative), its sqrt.
};

// A new leaf: an Input (run-time input) or a Const (payload "value") of this shape and kind.
// Integers are drawn in [0, int_bound), logical values as 0 or 1.
struct Leaf {
  Shape shape;
  ElemKind kind = ElemKind::Real;
  Range range = Range::Any;
  bool constant = false;
  int64_t int_bound = 1;
  std::optional<double> fill = std::nullopt;  // every element this value (no choice read): pow's whole exponent, epsilon
};

// An operand: a value of the pool (pool >= 0), the first output of an earlier step of the same
// composite (step >= 0: make_sequence), or a new leaf.
struct Operand {
  int pool = -1;
  Leaf leaf;
  int step = -1;
  int step_operand = -1;  // with step: that step's operand, not its output
};

struct Candidate {
  OpAttrs op;
  std::vector<Operand> operands;
  std::vector<Range> domains;                  // per operand (missing: Any)
  std::map<std::string, Range> param_ranges;   // per parameter role (missing: Any)
};

// A value the model computes, with its f64 value, the Interval of its exact value and its float32
// envelope on the model's input.
struct PoolValue {
  ValueRef ref;
  Shape shape;
  ElemKind kind = ElemKind::Real;
  Value<double> f64;
  Value<Interval> exact;
  Value<Envelope> envelope;
  int readers = 0;
};

class GenContext {
 public:
  GenContext(Choices& choices, const GenOptions& options, const std::vector<PoolValue>& pool)
      : c(choices), o(options), pool_(pool) {}

  Choices& c;
  const GenOptions& o;

  const std::vector<PoolValue>& pool() const { return pool_; }
  size_t max_rank() const { return static_cast<size_t>(o.max_rank); }  // the options' rank limit
  const Shape& shape(const Operand& x) const;
  ElemKind kind(const Operand& x) const;

  // A random shape with rank in [min_rank, max_rank] inside the size limits (0: the smallest).
  Shape random_shape(size_t min_rank, size_t max_rank);
  // An operand of this kind with rank in [min_rank, max_rank]: usually a pool value (the most
  // recent first, so that chains form), else a new leaf of a random shape.
  Operand operand(ElemKind kind, size_t min_rank, size_t max_rank, Range range = Range::Any);
  // An operand of exactly this shape and kind: a pool value of that shape, or a new leaf.
  Operand of_shape(const Shape& shape, ElemKind kind, Range range = Range::Any);
  Operand leaf(const Shape& shape, ElemKind kind, Range range = Range::Any, int64_t int_bound = 1);
  // A new constant of this shape whose every element is `value` (reads no choice).
  static Operand filled(const Shape& shape, double value);
  // A shape that broadcasts against `x` under `b` (some axes 1, fewer axes where b allows).
  Shape broadcast_partner(const Shape& x, Broadcast b);
  Broadcast broadcast_mode();
  // A nonempty set of distinct axes of a rank-`rank` tensor, some counted from the end.
  std::vector<int64_t> axes(size_t rank);
  int64_t axis(size_t rank);  // one axis, sometimes counted from the end

 private:
  const std::vector<PoolValue>& pool_;
};

// The ops a maker exists for, by name, and the maker of the op `name` (properties/op_makers.cpp).
std::vector<std::string> maker_op_names();
std::optional<Candidate> make_candidate(const std::string& name, GenContext& ctx);

// The composites: small fixed sequences of ops the generator adds in one step, all or none (an
// operand with step = j reads the first output of the sequence's j-th candidate). Each with the ops
// it uses (allowed only when --ops allows every one of them, or names the composite) and its
// shortest length: the generator tries it only where the model has room for its nodes.
struct CompositeInfo {
  std::string name;
  std::vector<std::string> ops;
  int min_nodes = 0;
};
const std::vector<CompositeInfo>& composites();
std::optional<std::vector<Candidate>> make_sequence(const std::string& name, GenContext& ctx);

}  // namespace nnref::properties
