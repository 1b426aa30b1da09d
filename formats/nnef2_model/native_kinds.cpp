// The standard operators of int and bool tensors mapped onto nnref's integer and logical IR ops (compare,
// logical, select, arg_reduce, logical_reduce, gather, cast, integer_binary): docs/nnef2.md, "Int and bool
// tensors", says where nnref's op differs from the definition and what is refused for it.
#include <algorithm>
#include <map>

#include "formats/nnef2_model/native_common.hpp"

namespace nnref::nnef2::native {

namespace {

// neg, sqr and abs of ints: 0 − x, x · x, and x >? 0 − x (nnref's integer ops; int64, as integer_binary).
Build integer_unary(const std::string& name) {
  return [name](Builder& c, const BoundInvocation& b, const std::string& node) {
    const Val& x = sym(b, "x");
    const auto integer = [&](IntegerOp op, const Val& lhs, const Val& rhs, const std::string& as) {
      return c.add_node1(as, IntegerBinaryAttrs{op, Broadcast::NumpyRight}, {lhs, rhs});
    };
    if (name == "math.sqr") return one(integer(IntegerOp::Mul, x, x, node));
    const Val zero = c.scalar(node + "_zero", ElemKind::Integer, 0.0);
    if (name == "math.neg") return one(integer(IntegerOp::Sub, zero, x, node));
    return one(integer(IntegerOp::Max, x, integer(IntegerOp::Sub, zero, x, node + "_neg"), node));
  };
}
// An element-wise operator of int tensors (T = int): nnref's integer ops compute in int64 (the draft's int is
// unbounded: a result past ±2^63 wraps).
Build integer_binary(IntegerOp op) { return elementwise(IntegerBinaryAttrs{op, Broadcast::NumpyRight}); }
// Whether two bool tensors are equal (eq) or differ (ne, xor): x ? y : !y, and x ? !y : y.
Build truth_equality(bool equal) {
  return [equal](Builder& c, const BoundInvocation& b, const std::string& node) {
    const Val x = aligned(c, b, "x", "ex", node), y = aligned(c, b, "y", "ey", node);
    const Val not_y = c.add_node1(node + "_not", LogicalAttrs{LogicalOp::Not}, {y});
    const Val& when_true = equal ? y : not_y;
    const Val& when_false = equal ? not_y : y;
    return one(c.add_node1(node, SelectAttrs{Broadcast::NumpyRight, ElemKind::Logical}, {x, when_true, when_false}));
  };
}
// The comparisons of real tensors give a bool tensor; eq and ne of bools are truth_equality.
Build compare(CompareOp op, const std::string& name) {
  const Build reals = elementwise(CompareAttrs{op, Broadcast::NumpyRight});
  const bool equality = op == CompareOp::Eq || op == CompareOp::Ne;
  const Build truths = equality ? truth_equality(op == CompareOp::Eq) : nullptr;
  return [name, reals, truths](Builder& c, const BoundInvocation& b, const std::string& node) {
    const bool bools = sym(b, "x").elem == ElemType::Bool && sym(b, "y").elem == ElemType::Bool;
    if (bools && truths) return truths(c, b, node);
    require_types(b, name, {"x", "y"}, ElemType::Real, "nnref's comparisons take real operands (and eq, ne bools)");
    return reals(c, b, node);
  };
}
// and, or: Kleene's logic where an enclosure leaves an operand unknown.
Build logical(LogicalOp op) { return elementwise(LogicalAttrs{op, Broadcast::NumpyRight}); }
std::vector<Val> logical_not(Builder& c, const BoundInvocation& b, const std::string& node) {
  return one(c.add_node1(node, LogicalAttrs{LogicalOp::Not}, {sym(b, "x")}));
}

std::vector<Val> select(Builder& c, const BoundInvocation& b, const std::string& node) {
  const Val cond = aligned(c, b, "c", "ec", node), x = aligned(c, b, "x", "ex", node),
            y = aligned(c, b, "y", "ey", node);
  return one(c.add_node1(node, SelectAttrs{Broadcast::NumpyRight, kind_of(x.elem)}, {cond, x, y}));
}

// A kept reduced axis dropped (squeeze): a reshape to the shape the definition gives.
Val squeezed(Builder& c, const BoundInvocation& b, const Val& kept, const std::string& node) {
  return kept.shape == b.output_shapes[0] ? kept : as_output_shape(c, b, kept, node + "_squeezed");
}
std::vector<int64_t> axes_from_zero(const std::vector<int64_t>& axes, int64_t rank) {
  std::vector<int64_t> out;
  for (int64_t a : axes) out.push_back(a < 0 ? a + rank : a);
  return out;
}

// argmax, argmin over one axis: the first index of the extremum, as the definition's @lower takes a later
// index only where its value is strictly beyond (ties go to the first). Where a NaN is not the first
// value, nnref's op gives the first NaN's index and the @lower's strict comparison skips it
// (docs/nnef2.md).
Build arg_reduce(ArgReduceOp op) {
  return [op](Builder& c, const BoundInvocation& b, const std::string& node) {
    ArgReduceAttrs a{op, axes_from_zero({integer(b, "axis")}, integer(b, "rank")), false};
    const Val kept = c.add_node1(node, a, {sym(b, "input")});
    return one(squeezed(c, b, kept, node));
  };
}

// any_reduce, all_reduce over their axes (none: a copy), kept as extents 1 unless squeezed.
Build logical_reduce(LogicalReduceOp op) {
  return [op](Builder& c, const BoundInvocation& b, const std::string& node) {
    const Val& input = sym(b, "input");
    LogicalReduceAttrs r{op, axes_from_zero(ints(b, "axes"), integer(b, "d"))};
    if (r.axes.empty()) return one(reshaped(c, input, input.shape, node));
    return one(squeezed(c, b, c.add_node1(node, r, {input}), node));
  };
}

// gather along `axis` (counted from 0) by an int tensor of indices: nnref's gather picks real slices.
std::vector<Val> gather(Builder& c, const BoundInvocation& b, const std::string& node) {
  require_types(b, "layout.gather", {"data"}, ElemType::Real, "nnref's gather picks real elements");
  GatherAttrs g;
  g.axis = axes_from_zero({integer(b, "axis")}, integer(b, "rank"))[0];
  return one(c.add_node1(node, g, {sym(b, "data"), sym(b, "index")}));
}

// cast<R, T>: bool to and from int and real as 1 and 0 (nonzero is true); int to real. A real
// to an int is refused: the draft does not say how it rounds (nnref's int() truncates, its cast
// op floors).
std::vector<Val> cast(Builder& c, const BoundInvocation& b, const std::string& node) {
  const Val& x = sym(b, "x");
  const ElemType to = b.output_types.at(0);
  if (x.elem == to) return one(reshaped(c, x, x.shape, node));
  if (x.elem == ElemType::Real && to == ElemType::Int)
    refuse("nnef2.native.kind",
           "layout.cast of a real tensor to int has no native mapping: the draft does not say how a real rounds to "
           "an int (nnref's int() truncates, its cast op floors)");
  return one(c.add_node1(node, CastAttrs{kind_of(x.elem), kind_of(to)}, {x}));
}

}  // namespace

// The unary operators of T: num by their type: the real op, or the integer one for neg, sqr and abs.
Build unary_by_type(const std::string& name, Build real) {
  const bool has_integer = name == "math.neg" || name == "math.sqr" || name == "math.abs";
  const Build integer = has_integer ? integer_unary(name) : nullptr, of_reals = reals(name, std::move(real));
  return [integer, of_reals](Builder& c, const BoundInvocation& b, const std::string& node) {
    return sym(b, "x").elem == ElemType::Int && integer ? integer(c, b, node) : of_reals(c, b, node);
  };
}

// iden of an int or bool tensor is the tensor itself (nnref's copy op takes reals).
Build identity(Build real) {
  return [real](Builder& c, const BoundInvocation& b, const std::string& node) {
    return sym(b, "x").elem == ElemType::Real ? real(c, b, node) : one(sym(b, "x"));
  };
}

// An arithmetic operator (T: num) by its type: the real mapping, or nnref's integer op where there is one.
// math.div and math.pow of ints are refused: the draft's int division floors where nnref's truncates, and
// nnref has no int power.
Build by_type(const std::string& name, Build real) {
  static const std::map<std::string, IntegerOp> integers = {{"math.add", IntegerOp::Add},
                                                            {"math.sub", IntegerOp::Sub},
                                                            {"math.mul", IntegerOp::Mul},
                                                            {"math.min", IntegerOp::Min},
                                                            {"math.max", IntegerOp::Max}};
  const auto it = integers.find(name);
  Build integer = it == integers.end() ? nullptr : integer_binary(it->second);
  return [name, real, integer](Builder& c, const BoundInvocation& b, const std::string& node) -> std::vector<Val> {
    const ElemType type = b.output_types.at(0);
    if (type == ElemType::Real && real) return real(c, b, node);
    if (type == ElemType::Int && integer) return integer(c, b, node);
    const std::string why = name == "math.div" ? "the draft's int division floors, nnref's truncates"
                                               : "nnref has no " + std::string(type_name(type)) + " op for it";
    refuse("nnef2.native.kind", name + " of " + type_name(type) + " tensors has no native mapping: " + why);
  };
}

void add_kind_operators(std::map<std::string, Build>& t) {
  t["math.mod"] = integer_binary(IntegerOp::Mod);  // of ints only (mapped_for): a real mod is lowered
  const std::map<std::string, CompareOp> comparisons = {{"math.lt", CompareOp::Lt}, {"math.gt", CompareOp::Gt},
                                                        {"math.le", CompareOp::Le}, {"math.ge", CompareOp::Ge},
                                                        {"math.eq", CompareOp::Eq}, {"math.ne", CompareOp::Ne}};
  for (const auto& [name, op] : comparisons) t[name] = compare(op, name);
  t["math.and"] = logical(LogicalOp::And);
  t["math.or"] = logical(LogicalOp::Or);
  t["math.xor"] = truth_equality(false);
  t["math.not"] = logical_not;
  t["math.select"] = select;
  t["math.argmax"] = arg_reduce(ArgReduceOp::Max);
  t["math.argmin"] = arg_reduce(ArgReduceOp::Min);
  t["math.any_reduce"] = logical_reduce(LogicalReduceOp::Any);
  t["math.all_reduce"] = logical_reduce(LogicalReduceOp::All);
  t["layout.gather"] = gather;
  t["layout.cast"] = cast;
}

// math.mod of ints only: the draft's floor remainder is nnref's integer mod; of reals it has no native op.
bool mapped_for(const std::string& name, const BoundInvocation& b) {
  return name != "math.mod" || b.output_types.at(0) == ElemType::Int;
}

}  // namespace nnref::nnef2::native
