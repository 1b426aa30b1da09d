// contract: an NNEF 2.0 (SkriptND) `@lower` body run from its definition (draft
// Revision 8, §2.11), as a contraction program whose loops the front end
// enumerated (spec/contract_program.hpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "spec/attrs/compare.hpp"
#include "spec/attrs/contract.hpp"
#include "spec/contract_program.hpp"
#include "spec/integer_arith.hpp"
#include "spec/op_rule.hpp"
#include "spec/ops/unary.hpp"
#include "spec/orderings.hpp"
#include "spec/truth.hpp"

namespace nnref {

namespace contract_detail {

using namespace contract;

inline bool node_ok(const Statement& s, size_t at) {
  const Node& n = s.nodes[at];
  const auto before = [&](int64_t k) { return k >= 0 && static_cast<size_t>(k) < at; };
  switch (n.kind) {
    case NodeKind::Read:
      return n.slot >= 0 && static_cast<size_t>(n.slot) < s.reads.size();
    case NodeKind::Number:
      return n.slot >= 0 && static_cast<size_t>(n.slot) < s.tables.size();
    case NodeKind::Pi:
      return true;
    case NodeKind::Unary:
      return in_range(n.slot, 0, static_cast<int64_t>(kLastUnaryOp)) && before(n.a);
    case NodeKind::Not:
      return before(n.a);
    case NodeKind::Compare:
    case NodeKind::IntegerCompare:
      return in_range(n.slot, 0, static_cast<int64_t>(CompareOp::Ne)) && before(n.a) && before(n.b);
    case NodeKind::Whole:
      return before(n.a);
    case NodeKind::Select:
      return before(n.a) && before(n.b) && before(n.c);
    case NodeKind::IndexSelect:
      return n.slot >= 0 && static_cast<size_t>(n.slot) < s.tables.size() && before(n.a) && before(n.b);
    case NodeKind::Integer:
      return in_range(n.slot, 0, static_cast<int64_t>(IntegerNode::Pow)) && before(n.a) &&
             (is_unary(static_cast<IntegerNode>(n.slot)) || before(n.b));
    case NodeKind::Cast:
      return in_range(n.slot, 0, static_cast<int64_t>(ElemKind::Logical)) && before(n.a);
    default:
      return before(n.a) && before(n.b);
  }
}

inline bool offsets_within(const std::vector<int64_t>& offsets, int64_t size) {
  for (int64_t o : offsets)
    if (o < 0 || o >= size) return false;
  return true;
}

// Why per-point tensors and offsets do not name elements of the program's
// tensors, or empty. A data index moves an offset by up to (extent − 1) ·
// stride: that end must lie within the tensor too, and its own element must be
// an integer tensor's.
inline std::string element_fault(const Program& p, const Element& e, size_t points, int64_t reach,
                                 const std::vector<ElemKind>& kinds, ElemKind result, bool integer) {
  if (e.offsets.size() != points || (e.tensors.size() != 1 && e.tensors.size() != points))
    return "has a read of the wrong length";
  for (size_t q = 0; q < e.offsets.size(); ++q) {
    const int64_t tensor = e.tensors[e.tensors.size() == 1 ? 0 : q];
    const bool output = tensor < 0;
    const size_t t = static_cast<size_t>(output ? -1 - tensor : tensor);
    const auto& shapes = output ? p.outputs : p.inputs;
    if (t >= shapes.size()) return "reads a tensor the program does not have";
    if (e.offsets[q] < 0 || e.offsets[q] + reach >= element_count(shapes[t])) return "reads outside a tensor";
    const ElemKind kind = output ? result : t < kinds.size() ? kinds[t] : ElemKind::Real;
    if (integer && kind != ElemKind::Integer) return "indexes with a tensor that is not an integer one";
  }
  return {};
}

// Why data indices are not well formed, or empty; `reach` takes how far they may move an offset.
inline std::string data_indices_fault(const Program& p, const std::vector<DataIndex>& indices, size_t points,
                                      const std::vector<ElemKind>& kinds, ElemKind result, int64_t& reach) {
  reach = 0;
  for (const DataIndex& d : indices) {
    if (d.stride < 0 || d.extent < 1 || d.extent > (int64_t{1} << 40) || d.stride > (int64_t{1} << 40))
      return "has a data index out of range";
    reach += (d.extent - 1) * d.stride;
    const std::string why = element_fault(p, d.index, points, 0, kinds, result, true);
    if (!why.empty()) return why;
  }
  return {};
}

inline std::string read_fault(const Program& p, const Read& r, size_t points, const std::vector<ElemKind>& kinds,
                              ElemKind result) {
  int64_t reach = 0;
  const std::string why = data_indices_fault(p, r.data_indices, points, kinds, result, reach);
  if (!why.empty()) return why;
  if (r.items.empty()) return element_fault(p, Element{r.tensors, r.offsets}, points, reach, kinds, result, false);
  if (r.data_indices.empty() || r.data_indices[0].stride != 0 ||
      r.data_indices[0].extent != static_cast<int64_t>(r.items.size()))
    return "chooses a pack item without an index of the pack's length";
  for (int64_t item : r.items) {
    const std::string fault = element_fault(p, Element{{item}, r.offsets}, points, reach, kinds, result, false);
    if (!fault.empty()) return fault;
  }
  return {};
}

// The assignments an output of each kind takes.
inline bool assign_fits(Assign op, ElemKind result) {
  switch (result) {
    case ElemKind::Logical:
      return op == Assign::Set || op == Assign::Update || op == Assign::All || op == Assign::Any;
    case ElemKind::Integer:
      return op != Assign::All && op != Assign::Any;
    case ElemKind::Real:
      break;
  }
  return op != Assign::All && op != Assign::Any;
}

// Why the statement is not well formed, or empty. `set`: the outputs an earlier
// `=` wrote.
inline std::string statement_fault(const Program& p, const Statement& s, const std::vector<ElemKind>& kinds,
                                   ElemKind result, const std::vector<bool>& set) {
  if (s.output < 0 || static_cast<size_t>(s.output) >= p.outputs.size()) return "names no output of the program";
  if (!s.target_indices.empty() && s.op != Assign::Update) return "moves a target by the data outside an update (:=)";
  int64_t reach = 0;
  const std::string moved = data_indices_fault(p, s.target_indices, s.targets.size(), kinds, result, reach);
  if (!moved.empty()) return "in its target " + moved;
  if (!offsets_within(s.targets, element_count(p.outputs[static_cast<size_t>(s.output)]) - reach))
    return "writes outside its output";
  if (!assign_fits(s.op, result)) return "accumulates in a way its output's kind does not take";
  if (s.op == Assign::Update && !set[static_cast<size_t>(s.output)]) return "updates an output no `=` wrote before";
  if (s.condition != -1 &&
      (s.op != Assign::Update || s.condition < 0 || static_cast<size_t>(s.condition) >= s.nodes.size()))
    return "has a condition it cannot have";
  if (s.root < 0 || static_cast<size_t>(s.root) >= s.nodes.size()) return "has no value";
  if (!s.lanes.empty() && !s.target_indices.empty()) return "moves a packed target by the data";
  for (const Lane& l : s.lanes) {
    if (l.targets.size() != s.targets.size()) return "has a lane of the wrong length";
    if (!offsets_within(l.targets, element_count(p.outputs[static_cast<size_t>(s.output)])))
      return "writes outside its output";
    if (l.root < 0 || static_cast<size_t>(l.root) >= s.nodes.size()) return "has a lane without a value";
  }
  for (size_t k = 0; k < s.nodes.size(); ++k)
    if (!node_ok(s, k)) return "has a malformed node " + std::to_string(k);
  for (const Read& r : s.reads) {
    const std::string why = read_fault(p, r, s.targets.size(), kinds, result);
    if (!why.empty()) return why;
  }
  for (const auto& t : s.tables)
    if (t.size() != 1 && t.size() != s.targets.size()) return "has a table of the wrong length";
  return {};
}

// An operand's or an output's elements: T, truth values (spec/truth.hpp) or
// integers, as its kind says.
template <Scalar T>
struct Buffer {
  ElemKind kind = ElemKind::Real;
  void* data = nullptr;  // an operand's are only read

  T& real(int64_t k) const { return static_cast<T*>(data)[k]; }
  uint8_t& logical(int64_t k) const { return static_cast<uint8_t*>(data)[k]; }
  int64_t& integer(int64_t k) const { return static_cast<int64_t*>(data)[k]; }
};

// §2.4's int arithmetic on int64: + − × and negation wrap (as the IR's integer ops), `/` floors,
// `%` takes the divisor's sign; an unknown operand or a zero divisor gives an unknown integer.
inline int64_t integer_node(IntegerNode op, int64_t a, int64_t b) {
  if (a == kUnknownInteger || b == kUnknownInteger) return kUnknownInteger;
  const auto wrap = [](uint64_t v) { return static_cast<int64_t>(v); };
  const auto value = [](std::optional<int64_t> v) { return v ? *v : kUnknownInteger; };
  switch (op) {
    case IntegerNode::Add: return value(integer_value(IntegerOp::Add, a, b));
    case IntegerNode::Sub: return value(integer_value(IntegerOp::Sub, a, b));
    case IntegerNode::Mul: return value(integer_value(IntegerOp::Mul, a, b));
    case IntegerNode::Min: return std::min(a, b);
    case IntegerNode::Max: return std::max(a, b);
    case IntegerNode::Mod: return value(integer_value(IntegerOp::Mod, a, b));
    case IntegerNode::FloorDiv: {
      const std::optional<int64_t> q = integer_value(IntegerOp::Div, a, b), r = integer_value(IntegerOp::Fmod, a, b);
      if (!q || !r) return kUnknownInteger;
      return *r != 0 && (*r < 0) != (b < 0) ? wrap(static_cast<uint64_t>(*q) - 1) : *q;
    }
    case IntegerNode::Neg: return wrap(0 - static_cast<uint64_t>(a));
    case IntegerNode::Abs: return a < 0 ? wrap(0 - static_cast<uint64_t>(a)) : a;
    case IntegerNode::Sign: return (a > 0) - (a < 0);
    case IntegerNode::Pow: {  // by squaring, wrapping
      if (b < 0) return kUnknownInteger;
      uint64_t r = 1, x = static_cast<uint64_t>(a);
      for (; b > 0; b >>= 1, x *= x)
        if (b & 1) r *= x;
      return wrap(r);
    }
  }
  return kUnknownInteger;
}

// CompareOp `op` of two integers, exactly; unknown where either is.
inline uint8_t integer_compare(CompareOp op, int64_t a, int64_t b) {
  if (a == kUnknownInteger || b == kUnknownInteger) return kUnknown;
  return truth_for(a < b ? kLess : a > b ? kGreater : kEqual, holding_orderings(op));
}

// The integer a real holds: unknown where its enclosure is not one integer, or lies beyond 2^53
// (where a double, and mp50's conversion to one, may have rounded it).
template <Scalar T>
int64_t whole(const T& x) {
  const Enclosure e = sc::enclosure(x);
  if (!(e.lo == e.hi) || std::floor(e.lo) != e.lo || std::fabs(e.lo) > 9007199254740992.0) return kUnknownInteger;
  return static_cast<int64_t>(e.lo);
}

// Where two values an undecided condition chose between meet: the hull of two
// reals; an integer or a truth value that differs is unknown.
template <Scalar T>
T join(const T& a, const T& b) {
  return sc::hull(a, b);
}
inline int64_t join(int64_t a, int64_t b) { return a == b ? a : kUnknownInteger; }
inline uint8_t join(uint8_t a, uint8_t b) { return a == b ? a : kUnknown; }

// An element nothing determines: NaN, an unknown truth value or integer.
template <Scalar T, class R>
R unknown() {
  if constexpr (std::is_same_v<R, uint8_t>)
    return kUnknown;
  else if constexpr (std::is_same_v<R, int64_t>)
    return kUnknownInteger;
  else
    return from_double<T>(std::numeric_limits<double>::quiet_NaN());
}

// The value of one statement at one of its points, in scalar T, as a real
// (value), a truth value (truth) or an integer (integer). Integers read as
// reals are exact (unknown: NaN), truth values as reals are 0 or 1 (unknown:
// both).
template <Scalar T>
class StatementValue {
 public:
  StatementValue(const Statement& s, const std::vector<Buffer<T>>& inputs, const std::vector<Buffer<T>>& outputs)
      : s_(s), inputs_(inputs), outputs_(outputs) {}

  // Node `at` read as an R: a real, a truth value or an integer.
  template <class R>
  R as(int64_t at, size_t p) const {
    if constexpr (std::is_same_v<R, uint8_t>)
      return truth(at, p);
    else if constexpr (std::is_same_v<R, int64_t>)
      return integer(at, p);
    else
      return value(at, p);
  }
  T value(int64_t at, size_t p) const {
    const Node& n = s_.nodes[static_cast<size_t>(at)];
    switch (n.kind) {
      case NodeKind::Read:
        return read<T>(s_.reads[static_cast<size_t>(n.slot)], p);
      case NodeKind::Number:
        return from_double<T>(number(n.slot, p));
      case NodeKind::Pi:
        return from_double<T>(4.0) * sc::atan(from_double<T>(1.0));
      case NodeKind::Unary:
        return unary_value(UnaryAttrs{static_cast<UnaryOp>(n.slot), Real(0.0)}, value(n.a, p));
      case NodeKind::Add:
        return value(n.a, p) + value(n.b, p);
      case NodeKind::Sub:
        return value(n.a, p) - value(n.b, p);
      case NodeKind::Mul:
        return value(n.a, p) * value(n.b, p);
      case NodeKind::Div:
        return value(n.a, p) / value(n.b, p);
      case NodeKind::Pow:
        return sc::pow(value(n.a, p), value(n.b, p));
      case NodeKind::Min:
        return sc::min(value(n.a, p), value(n.b, p));
      case NodeKind::Max:
        return sc::max(value(n.a, p), value(n.b, p));
      case NodeKind::Mod: {
        const T a = value(n.a, p), b = value(n.b, p);
        return a - b * sc::floor(a / b);
      }
      case NodeKind::Select:
      case NodeKind::IndexSelect:
        return branch<T>(n, p);
      case NodeKind::Integer:
      case NodeKind::Whole: {
        const int64_t v = integer(at, p);
        return from_double<T>(v == kUnknownInteger ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(v));
      }
      case NodeKind::Cast:
        return real_of(static_cast<ElemKind>(n.slot) == ElemKind::Logical ? truth(at, p) : truth(n.a, p));
      default:
        return real_of(truth(at, p));
    }
  }

  uint8_t truth(int64_t at, size_t p) const {
    const Node& n = s_.nodes[static_cast<size_t>(at)];
    switch (n.kind) {
      case NodeKind::Read:
        return read<uint8_t>(s_.reads[static_cast<size_t>(n.slot)], p);
      case NodeKind::Compare:
        return truth_for(sc::orderings(value(n.a, p), value(n.b, p)),
                         holding_orderings(static_cast<CompareOp>(n.slot)));
      case NodeKind::IntegerCompare:
        return integer_compare(static_cast<CompareOp>(n.slot), integer(n.a, p), integer(n.b, p));
      case NodeKind::And:
        return truth_and(truth(n.a, p), truth(n.b, p));
      case NodeKind::Or:
        return truth_or(truth(n.a, p), truth(n.b, p));
      case NodeKind::Xor: {
        const uint8_t a = truth(n.a, p), b = truth(n.b, p);
        return a == kUnknown || b == kUnknown ? kUnknown : truth_of(a != b);
      }
      case NodeKind::Not:
        return truth_not(truth(n.a, p));
      case NodeKind::Number:
        return truth_of(number(n.slot, p) != 0.0);
      case NodeKind::Select:
      case NodeKind::IndexSelect:
        return branch<uint8_t>(n, p);
      case NodeKind::Cast:  // a number as a truth value: whether it is not 0
        return static_cast<ElemKind>(n.slot) == ElemKind::Logical
                   ? truth_for(sc::orderings(value(n.a, p), from_double<T>(0.0)), holding_orderings(CompareOp::Ne))
                   : kUnknown;
      default:
        return kUnknown;  // a real where a truth value is needed: never built
    }
  }

  int64_t integer(int64_t at, size_t p) const {
    const Node& n = s_.nodes[static_cast<size_t>(at)];
    switch (n.kind) {
      case NodeKind::Read:
        return read<int64_t>(s_.reads[static_cast<size_t>(n.slot)], p);
      case NodeKind::Number: {
        const double v = number(n.slot, p);
        return std::fabs(v) < 9.2e18 ? static_cast<int64_t>(v) : kUnknownInteger;
      }
      case NodeKind::Select:
      case NodeKind::IndexSelect:
        return branch<int64_t>(n, p);
      case NodeKind::Integer: {
        const auto op = static_cast<IntegerNode>(n.slot);
        return integer_node(op, integer(n.a, p), is_unary(op) ? 0 : integer(n.b, p));
      }
      case NodeKind::Whole:
        return whole(value(n.a, p));
      case NodeKind::Cast: {  // a truth value as 0 or 1
        const uint8_t t = static_cast<ElemKind>(n.slot) == ElemKind::Integer ? truth(n.a, p) : kUnknown;
        return t == kUnknown ? kUnknownInteger : int64_t{t == kTrue};
      }
      default:
        return kUnknownInteger;  // a real where an integer is needed: never built
    }
  }

  // The elements that a target at `offset`, moved by data indices d, d+1, …,
  // may be at point p, appended to `out`; false where an index lies outside
  // [0, extent). An index the data leaves unknown may be any in [0, extent),
  // and clears `decided`.
  bool targets(const std::vector<DataIndex>& indices, size_t p, size_t d, int64_t offset, std::vector<int64_t>& out,
               bool& decided) const {
    if (d == indices.size()) {
      out.push_back(offset);
      return true;
    }
    const DataIndex& x = indices[d];
    const int64_t j = index_value(x.index, p);
    if (j != kUnknownInteger)
      return j >= 0 && j < x.extent && targets(indices, p, d + 1, offset + j * x.stride, out, decided);
    decided = false;
    for (int64_t k = 0; k < x.extent; ++k)
      if (!targets(indices, p, d + 1, offset + k * x.stride, out, decided)) return false;
    return true;
  }

 private:
  // A select: on an index condition the branch it takes; on the data the branch the condition
  // decides, or (undecided under an enclosure) both joined.
  template <class R>
  R branch(const Node& n, size_t p) const {
    if (n.kind == NodeKind::IndexSelect) return as<R>(number(n.slot, p) != 0.0 ? n.a : n.b, p);
    const uint8_t c = truth(n.a, p);
    if (c == kTrue) return as<R>(n.b, p);
    if (c == kFalse) return as<R>(n.c, p);
    return join(as<R>(n.b, p), as<R>(n.c, p));
  }
  static T real_of(uint8_t t) {
    return t == kUnknown ? sc::hull(from_double<T>(0.0), from_double<T>(1.0)) : from_double<T>(t == kTrue ? 1.0 : 0.0);
  }
  double number(int64_t slot, size_t p) const {
    const std::vector<double>& t = s_.tables[static_cast<size_t>(slot)];
    return t.size() == 1 ? t[0] : t[p];
  }
  const Buffer<T>& tensor(int64_t code) const {
    return code >= 0 ? inputs_[static_cast<size_t>(code)] : outputs_[static_cast<size_t>(-1 - code)];
  }
  int64_t index_value(const Element& e, size_t p) const {
    const Buffer<T>& b = tensor(e.tensors[e.tensors.size() == 1 ? 0 : p]);
    return b.integer(e.offsets[p]);
  }

  // The element at `offset` of a tensor, as an R (T, uint8_t or int64_t).
  template <class R>
  static R element(const Buffer<T>& b, int64_t offset) {
    switch (b.kind) {
      case ElemKind::Real:
        if constexpr (std::is_same_v<R, T>) return b.real(offset);
        break;
      case ElemKind::Logical: {
        const uint8_t t = b.logical(offset);
        if constexpr (std::is_same_v<R, T>) return real_of(t);
        if constexpr (std::is_same_v<R, uint8_t>) return t;
        break;
      }
      case ElemKind::Integer: {
        const int64_t v = b.integer(offset);
        if constexpr (std::is_same_v<R, T>)
          return from_double<T>(v == kUnknownInteger ? std::numeric_limits<double>::quiet_NaN()
                                                     : static_cast<double>(v));
        if constexpr (std::is_same_v<R, int64_t>) return v;
        break;
      }
    }
    return unknown<T, R>();  // a kind the front end never reads so
  }

  // A read of tensor `code` whose data indices d, d+1, … are still to be applied
  // to `offset` (the first, of a read with items, names the item instead): an
  // index the data leaves unknown joins the elements at every value it may
  // have; one outside [0, extent) reads nothing, as gather's does (NaN,
  // unknown).
  template <class R>
  R read(const Read& r, size_t p, size_t d, int64_t offset, int64_t code) const {
    if (d == r.data_indices.size()) return element<R>(tensor(code), offset);
    const DataIndex& x = r.data_indices[d];
    const bool item = d == 0 && !r.items.empty();
    const auto at = [&](int64_t k) {
      return item ? read<R>(r, p, d + 1, offset, r.items[static_cast<size_t>(k)])
                  : read<R>(r, p, d + 1, offset + k * x.stride, code);
    };
    const int64_t j = index_value(x.index, p);
    if (j == kUnknownInteger) {
      R acc = at(0);
      for (int64_t k = 1; k < x.extent; ++k) acc = join(acc, at(k));
      return acc;
    }
    if (j < 0 || j >= x.extent) return unknown<T, R>();
    return at(j);
  }
  template <class R>
  R read(const Read& r, size_t p) const {
    return read<R>(r, p, 0, r.offsets[p], r.tensors[r.tensors.size() == 1 ? 0 : p]);
  }

  const Statement& s_;
  const std::vector<Buffer<T>>& inputs_;
  const std::vector<Buffer<T>>& outputs_;
};

// The points of a statement grouped by target element (a counting sort, in loop
// order).
struct TargetGroups {
  std::vector<int64_t> begin;  // per element: its first point in `points`; the end last
  std::vector<int64_t> points;
};

inline TargetGroups group_by_target(const std::vector<int64_t>& targets, int64_t size) {
  TargetGroups g;
  g.begin.assign(static_cast<size_t>(size) + 1, 0);
  for (int64_t t : targets) ++g.begin[static_cast<size_t>(t) + 1];
  for (size_t k = 1; k < g.begin.size(); ++k) g.begin[k] += g.begin[k - 1];
  std::vector<int64_t> next(g.begin.begin(), g.begin.end() - 1);
  g.points.resize(targets.size());
  for (size_t p = 0; p < targets.size(); ++p)
    g.points[static_cast<size_t>(next[static_cast<size_t>(targets[p])]++)] = static_cast<int64_t>(p);
  return g;
}

// The accumulation of one element's terms onto its start value: a whole sum or
// product at once through ScalarOps (so that an enclosure sees every term of
// it), min and max term by term (exact in every scalar).
template <Scalar T, class Term>
T accumulate(Assign op, int64_t n, Term&& term, const T& start) {
  switch (op) {
    case Assign::Add:
      return ScalarOps<T>::sum(n, term, start);
    case Assign::Mul:
      return ScalarOps<T>::prod(n + 1, [&](int64_t k) { return k == 0 ? start : term(k - 1); });
    case Assign::Min:
    case Assign::Max: {
      T acc = start;
      for (int64_t k = 0; k < n; ++k) acc = op == Assign::Min ? sc::min(acc, term(k)) : sc::max(acc, term(k));
      return acc;
    }
    default:
      break;
  }
  return start;
}

// `&=` and `|=` of truth values (§2.11).
template <class Term>
uint8_t accumulate_truth(Assign op, int64_t n, Term&& term, uint8_t start) {
  uint8_t acc = start;
  for (int64_t k = 0; k < n; ++k) acc = op == Assign::All ? truth_and(acc, term(k)) : truth_or(acc, term(k));
  return acc;
}
// `+=` `*=` of integers wrap as + and × do (integer_node).
template <class Term>
int64_t accumulate_integer(Assign op, int64_t n, Term&& term, int64_t start) {
  int64_t acc = start;
  for (int64_t k = 0; k < n && acc != kUnknownInteger; ++k) {
    const int64_t v = term(k);
    switch (op) {
      case Assign::Add:
        acc = integer_node(IntegerNode::Add, acc, v);
        break;
      case Assign::Mul:
        acc = integer_node(IntegerNode::Mul, acc, v);
        break;
      case Assign::Min:
        acc = v == kUnknownInteger ? v : std::min(acc, v);
        break;
      default:
        acc = v == kUnknownInteger ? v : std::max(acc, v);
        break;
    }
  }
  return acc;
}

// The null element of an accumulation (§2.11): its start where no `=` wrote the
// element. An integer's +inf and −inf are the extremes of int64.
template <Scalar T>
T null_element(Assign op) {
  const double inf = std::numeric_limits<double>::infinity();
  return from_double<T>(op == Assign::Mul ? 1.0 : op == Assign::Min ? inf : op == Assign::Max ? -inf : 0.0);
}
inline uint8_t null_truth(Assign op) { return op == Assign::All ? kTrue : kFalse; }
inline int64_t null_integer(Assign op) {
  switch (op) {
    case Assign::Add:
      return 0;
    case Assign::Mul:
      return 1;
    case Assign::Min:
      return std::numeric_limits<int64_t>::max();
    default:
      return std::numeric_limits<int64_t>::min() + 1;
  }
}

// `:=`: in loop order, the target takes the value where the condition holds,
// and joins it where an enclosure leaves the condition undecided, or which
// element the data indices name. An index outside its extent leaves the whole
// output unknown (as a read there is: no element is that one).
template <Scalar T, class R>
void run_update(const Statement& s, const StatementValue<T>& v, R* out, int64_t output_size) {
  std::vector<int64_t> elements;
  std::vector<R> lanes;
  for (size_t p = 0; p < s.targets.size(); ++p) {
    const uint8_t c = s.condition < 0 ? kTrue : v.truth(s.condition, p);
    if (c == kFalse) continue;
    elements.clear();
    bool decided = c == kTrue;
    if (!v.targets(s.target_indices, p, 0, s.targets[p], elements, decided)) {
      std::fill(out, out + output_size, unknown<T, R>());
      return;
    }
    const R value = v.template as<R>(s.root, p);
    lanes.clear();  // a packed assignment's values, all computed before any is written
    for (const Lane& l : s.lanes) lanes.push_back(v.template as<R>(l.root, p));
    for (int64_t e : elements) out[e] = decided ? value : join(out[e], value);
    for (size_t k = 0; k < lanes.size(); ++k) {
      R& o = out[s.lanes[k].targets[p]];
      o = decided ? lanes[k] : join(o, lanes[k]);
    }
  }
}

// `=` and the accumulations of one lane (the value at `root`, written at `targets`); the lanes of
// a packed assignment write different elements, and none reads the output.
template <Scalar T, class R>
void run_lane(const Statement& s, const StatementValue<T>& v, int64_t root, const std::vector<int64_t>& targets, R* out,
              int64_t output_size, std::vector<uint8_t>& written) {
  if (s.op == Assign::Set) {
    for (size_t p = 0; p < targets.size(); ++p) {
      out[targets[p]] = v.template as<R>(root, p);
      written[static_cast<size_t>(targets[p])] = 1;
    }
    return;
  }
  const TargetGroups g = group_by_target(targets, output_size);
  for (int64_t t = 0; t < output_size; ++t) {
    const int64_t first = g.begin[static_cast<size_t>(t)], n = g.begin[static_cast<size_t>(t) + 1] - first;
    if (n == 0 && written[static_cast<size_t>(t)]) continue;
    const auto term = [&](int64_t k) {
      return v.template as<R>(root, static_cast<size_t>(g.points[static_cast<size_t>(first + k)]));
    };
    const bool set = written[static_cast<size_t>(t)];
    if constexpr (std::is_same_v<R, uint8_t>)
      out[t] = accumulate_truth(s.op, n, term, set ? out[t] : null_truth(s.op));
    else if constexpr (std::is_same_v<R, int64_t>)
      out[t] = accumulate_integer(s.op, n, term, set ? out[t] : null_integer(s.op));
    else
      out[t] = accumulate<T>(s.op, n, term, set ? out[t] : null_element<T>(s.op));
    written[static_cast<size_t>(t)] = 1;
  }
}

template <Scalar T, class R>
void run_typed(const Statement& s, const StatementValue<T>& v, R* out, int64_t output_size,
               std::vector<uint8_t>& written) {
  if (s.op == Assign::Update) return run_update<T, R>(s, v, out, output_size);
  run_lane<T, R>(s, v, s.root, s.targets, out, output_size, written);
  for (const Lane& l : s.lanes) run_lane<T, R>(s, v, l.root, l.targets, out, output_size, written);
}

template <Scalar T>
void run_statement(const Statement& s, const std::vector<Buffer<T>>& inputs, const std::vector<Buffer<T>>& outputs,
                   int64_t output_size, std::vector<uint8_t>& written) {
  const StatementValue<T> v(s, inputs, outputs);
  const Buffer<T>& out = outputs[static_cast<size_t>(s.output)];
  switch (out.kind) {
    case ElemKind::Logical:
      return run_typed<T, uint8_t>(s, v, &out.logical(0), output_size, written);
    case ElemKind::Integer:
      return run_typed<T, int64_t>(s, v, &out.integer(0), output_size, written);
    case ElemKind::Real:
      return run_typed<T, T>(s, v, &out.real(0), output_size, written);
  }
}

}  // namespace contract_detail

// Whether the program is well formed for operands of these kinds and outputs of
// kind `result` (attr.contract.program), or why not.
inline std::string contract_fault(const contract::Program& p, const std::vector<ElemKind>& kinds, ElemKind result) {
  std::vector<bool> set(p.outputs.size(), false);
  for (size_t k = 0; k < p.statements.size(); ++k) {
    const contract::Statement& s = p.statements[k];
    const std::string why = contract_detail::statement_fault(p, s, kinds, result, set);
    if (!why.empty()) return "statement " + std::to_string(k) + " " + why;
    if (s.op == contract::Assign::Set) set[static_cast<size_t>(s.output)] = true;
  }
  return {};
}

// Inputs: the operands the program was built for, at its shapes; the outputs:
// its declared shapes.
template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const ContractAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const std::optional<contract::Program> p = contract::decode(a.program);
  if (!p || p->inputs.size() != static_cast<size_t>(a.inputs)) {
    sink.require(false, kContractProgram, "contract: the program does not decode");
    return std::nullopt;
  }
  const std::string fault = contract_fault(*p, a.kinds, a.result);
  sink.require(fault.empty(), kContractProgram, "contract: " + fault);
  for (size_t j = 0; j < inputs.size(); ++j) {
    const std::vector<int64_t>& want = p->inputs[j];
    if (inputs[j].size() != want.size()) {
      sink.require(false, kContractOperand,
                   "contract: operand " + std::to_string(j) + " has rank " + std::to_string(inputs[j].size()) +
                       ", the program's " + std::to_string(want.size()));
      return std::nullopt;
    }
    for (size_t k = 0; k < want.size(); ++k)
      sink.require(inputs[j][k] == Dim(want[k]), kContractOperand,
                   "contract: operand " + std::to_string(j) + " axis " + std::to_string(k) + " must have extent " +
                       std::to_string(want[k]));
  }
  ShapeOut<Dim> out;
  for (const std::vector<int64_t>& shape : p->outputs) {
    Dims<Dim> d;
    for (int64_t e : shape) d.push_back(Dim(e));
    out.outputs.push_back(std::move(d));
  }
  return out;
}

// The statements in order, over flat row-major buffers (the oracle's tensors,
// the fast path's slots).
template <Scalar T>
void run_contract(const contract::Program& p, const std::vector<contract_detail::Buffer<T>>& inputs,
                  const std::vector<contract_detail::Buffer<T>>& outputs) {
  std::vector<std::vector<uint8_t>> written;
  for (const auto& shape : p.outputs) written.emplace_back(static_cast<size_t>(contract::element_count(shape)), 0);
  for (const contract::Statement& s : p.statements) {
    const size_t k = static_cast<size_t>(s.output);
    contract_detail::run_statement<T>(s, inputs, outputs, contract::element_count(p.outputs[k]), written[k]);
  }
}

// The elements of a value of the oracle, as a contract buffer of its kind (an
// operand's are only read).
template <Scalar T>
contract_detail::Buffer<T> buffer_of(const Value<T>& v) {
  return std::visit(
      [](const auto& t) {
        using E = std::remove_const_t<std::remove_pointer_t<decltype(t.data().data())>>;
        const ElemKind kind = std::is_same_v<E, uint8_t>   ? ElemKind::Logical
                              : std::is_same_v<E, int64_t> ? ElemKind::Integer
                                                           : ElemKind::Real;
        return contract_detail::Buffer<T>{kind, const_cast<E*>(t.data().data())};
      },
      v);
}

// For each statement `target op= value` in order: `=` writes value at every
// point; an accumulation gives each target element start ∘ value(p₁) ∘ … ∘
// value(pₙ) over the points writing it, start being the element's value from an
// earlier `=`, else the operator's null element; `:=` replaces it at each point
// in loop order whose condition holds, at the element its data indices name.
template <Scalar T>
void evaluate(const Checked<ContractAttrs>& op, const OpIO<T>& io) {
  const contract::Program p = *contract::decode(op.attrs().program);
  std::vector<contract_detail::Buffer<T>> inputs, outputs;
  for (const Value<T>* v : io.inputs) inputs.push_back(buffer_of(*v));
  for (Value<T>* v : io.outputs) outputs.push_back(buffer_of(*v));
  run_contract<T>(p, inputs, outputs);
}

}  // namespace nnref
