// A contraction program: the computation of an NNEF 2.0 (SkriptND) `@lower`
// body (draft Revision 8, §2.11) as the contract op holds it, free of the
// SkriptND syntax. Each statement is one lowering `target op= value, i < n, … |
// condition` with its iteration space enumerated: the front end
// (formats/nnef2_model/lower.cpp) evaluates every index expression at every
// point of the loops (floor `/` and `%` of §2.4, guarded indices, conditions on
// indices), so a statement holds, per kept point, the target element's offset
// and the offset of every tensor element its value reads. The value itself is
// an expression tree over those reads, per-point numbers (an index cast to a
// real, an attribute, a literal) and the scalar functions, evaluated in the
// oracle's scalar.
//
// Assignments (§2.11): `=` writes; `+=` `*=` `<?=` `>?=` `&=` `|=` accumulate
// every point of a target element onto its value written by an earlier `=`, or
// onto the operator's null element (0, 1, +inf, -inf, true, false); `:=`
// updates an element an earlier `=` wrote, point by point in loop order, where
// the statement's condition on the data holds at the point (its value and its
// condition may read the output being updated); its target may be moved by
// indices read from the data (scatter's `output[si.., indices[…], ti..] :=`).
// A packed assignment writes one element per lane at each point.
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <vector>

namespace nnref::contract {

enum class Assign : int64_t { Set, Add, Mul, Min, Max, Update, All, Any };

// The nodes of a value. Read: the tensor element of the statement's read `slot` at the point.
// Number: the point's number in table `slot`. Unary: UnaryOp `slot` (spec/attrs/unary.hpp) of a.
// Add to Mod: a ∘ b, Mod being a − b·⌊a/b⌋ (§2.4). Compare: CompareOp `slot` (spec/attrs/compare.hpp)
// of a and b, a truth value; And, Or, Xor, Not: of truth values. Select: a ? b : c, the condition a
// decided by the data. IndexSelect: a or b as table `slot` (an index condition) holds at the point.
// Integer: IntegerNode `slot` of the integers a (and b), §2.4's int arithmetic on int64 (wrapping).
// Cast: a truth value a as a real or an integer (0, 1), or a number a as a truth value (nonzero), to
// the kind `slot` (spec/value.hpp ElemKind). IntegerCompare: CompareOp `slot` of the integers a and b,
// exactly. Whole: the integer the real a holds (a truncated one: int(x)), unknown where its enclosure
// is not one integer of magnitude at most 2^53.
enum class NodeKind : int64_t {
  Read,
  Number,
  Pi,
  Unary,
  Add,
  Sub,
  Mul,
  Div,
  Pow,
  Min,
  Max,
  Mod,
  Compare,
  And,
  Or,
  Xor,
  Not,
  Select,
  IndexSelect,
  Integer,
  Cast,
  IntegerCompare,
  Whole
};

// The integer arithmetic of a value: + − × and ** wrap modulo 2^64, `/` floors and `%` takes the
// divisor's sign (§2.4); a zero divisor or a negative exponent gives an unknown integer.
enum class IntegerNode : int64_t { Add, Sub, Mul, FloorDiv, Mod, Min, Max, Neg, Abs, Sign, Pow };
inline bool is_unary(IntegerNode op) { return op == IntegerNode::Neg || op == IntegerNode::Abs || op == IntegerNode::Sign; }

struct Node {
  NodeKind kind = NodeKind::Number;
  int64_t a = -1, b = -1, c = -1;
  int64_t slot = 0;
};

// An element of an integer tensor, per point: the tensor (operand t ≥ 0, output
// −1 − t; one for every point when it is the same) and its row-major offset.
struct Element {
  std::vector<int64_t> tensors;
  std::vector<int64_t> offsets;
};

// An index of an access computed from the data (`x[output[i], j]` in argmax's
// definition): the integer element's value j, within [0, extent), moves the
// read by j · stride.
struct DataIndex {
  Element index;
  int64_t stride = 1, extent = 0;
};

// One tensor access of the value: per point, its element (0 where the point's
// index condition left the access unevaluated; one tensor for every point when
// the access names one tensor, not a pack item chosen by a loop index), moved
// by its data indices. A pack item chosen by the data (argmax_n's
// `xs[y[i..]][i..]`) lists the pack's tensors in `items`: the first data index
// (stride 0) then names the item, of the same shape, that the element is read from.
struct Read {
  std::vector<int64_t> tensors;
  std::vector<int64_t> offsets;
  std::vector<DataIndex> data_indices = {};
  std::vector<int64_t> items = {};
};

// A lane of a packed assignment (§2.11, `ys[ni, mi, :] = …`) after the first:
// its value's root and, per kept point, its target element.
struct Lane {
  int64_t root = 0;
  std::vector<int64_t> targets;
};

struct Statement {
  Assign op = Assign::Set;
  int64_t output = 0;
  std::vector<int64_t> targets;  // per kept point: the target element's offset in the output
  std::vector<Node> nodes;
  int64_t root = 0;
  std::vector<Read> reads;
  std::vector<std::vector<double>> tables;  // per point, or one number for every point
  int64_t condition = -1;                   // `:=` only: the node of a truth value on the data, or none
  std::vector<DataIndex> target_indices = {};  // `:=` only: indices of the target read from the data
  // A packed assignment's other lanes, one per element along the target's `:` axis after the
  // first: at a point every lane's value is computed before any is written, and an update's
  // condition holds or fails for all of them at once (argmax_nd's `output[…, :] := i[axes]`).
  std::vector<Lane> lanes = {};
};

struct Program {
  std::vector<std::vector<int64_t>> inputs,
      outputs;  // the operands' and the results' shapes
  std::vector<Statement> statements;
};

inline int64_t element_count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// The program as int64 tokens (numbers by their bits), for the IR's attributes
// and NAC.
class Encoder {
 public:
  std::vector<int64_t> code;
  void put(int64_t v) { code.push_back(v); }
  void ints(const std::vector<int64_t>& v) {
    put(static_cast<int64_t>(v.size()));
    code.insert(code.end(), v.begin(), v.end());
  }
  void reals(const std::vector<double>& v) {
    put(static_cast<int64_t>(v.size()));
    for (double x : v) put(std::bit_cast<int64_t>(x));
  }
  void shapes(const std::vector<std::vector<int64_t>>& v) {
    put(static_cast<int64_t>(v.size()));
    for (const auto& s : v) ints(s);
  }
  void data_index(const DataIndex& d) {
    ints(d.index.tensors);
    ints(d.index.offsets);
    put(d.stride);
    put(d.extent);
  }
};

inline std::vector<int64_t> encode(const Program& p) {
  Encoder e;
  e.shapes(p.inputs);
  e.shapes(p.outputs);
  e.put(static_cast<int64_t>(p.statements.size()));
  for (const Statement& s : p.statements) {
    e.put(static_cast<int64_t>(s.op));
    e.put(s.output);
    e.ints(s.targets);
    e.put(static_cast<int64_t>(s.nodes.size()));
    for (const Node& n : s.nodes) {
      for (int64_t v : {static_cast<int64_t>(n.kind), n.a, n.b, n.c, n.slot}) e.put(v);
    }
    e.put(s.root);
    e.put(static_cast<int64_t>(s.reads.size()));
    for (const Read& r : s.reads) {
      e.ints(r.tensors);
      e.ints(r.offsets);
      e.put(static_cast<int64_t>(r.data_indices.size()));
      for (const DataIndex& d : r.data_indices) e.data_index(d);
      e.ints(r.items);
    }
    e.put(static_cast<int64_t>(s.tables.size()));
    for (const auto& t : s.tables) e.reals(t);
    e.put(s.condition);
    e.put(static_cast<int64_t>(s.target_indices.size()));
    for (const DataIndex& d : s.target_indices) e.data_index(d);
    e.put(static_cast<int64_t>(s.lanes.size()));
    for (const Lane& l : s.lanes) {
      e.put(l.root);
      e.ints(l.targets);
    }
  }
  return e.code;
}

// Reads tokens back; any count or kind out of range makes the whole decode
// fail.
class Decoder {
 public:
  explicit Decoder(const std::vector<int64_t>& code) : code_(code) {}
  bool ok = true;
  int64_t get() {
    if (at_ >= code_.size()) {
      ok = false;
      return 0;
    }
    return code_[at_++];
  }
  size_t count() {
    const int64_t n = get();
    if (n < 0 || static_cast<size_t>(n) > code_.size() - at_) {
      ok = false;
      return 0;
    }
    return static_cast<size_t>(n);
  }
  std::vector<int64_t> ints() {
    std::vector<int64_t> v(count());
    for (int64_t& x : v) x = get();
    return v;
  }
  std::vector<double> reals() {
    std::vector<double> v(count());
    for (double& x : v) x = std::bit_cast<double>(get());
    return v;
  }
  std::vector<std::vector<int64_t>> shapes() {
    std::vector<std::vector<int64_t>> v(count());
    for (auto& s : v) s = ints();
    return v;
  }
  std::vector<DataIndex> data_indices() {
    std::vector<DataIndex> v(count());
    for (DataIndex& x : v) {
      x.index.tensors = ints();
      x.index.offsets = ints();
      x.stride = get();
      x.extent = get();
    }
    return v;
  }
  bool done() const { return at_ == code_.size(); }

 private:
  const std::vector<int64_t>& code_;
  size_t at_ = 0;
};

inline bool in_range(int64_t v, int64_t first, int64_t last) { return v >= first && v <= last; }

inline std::optional<Program> decode(const std::vector<int64_t>& code) {
  Decoder d(code);
  Program p;
  p.inputs = d.shapes();
  p.outputs = d.shapes();
  p.statements.resize(d.count());
  for (Statement& s : p.statements) {
    const int64_t op = d.get();
    if (!in_range(op, 0, static_cast<int64_t>(Assign::Any))) return std::nullopt;
    s.op = static_cast<Assign>(op);
    s.output = d.get();
    s.targets = d.ints();
    s.nodes.resize(d.count());
    for (Node& n : s.nodes) {
      const int64_t kind = d.get();
      if (!in_range(kind, 0, static_cast<int64_t>(NodeKind::Whole))) return std::nullopt;
      n.kind = static_cast<NodeKind>(kind);
      n.a = d.get();
      n.b = d.get();
      n.c = d.get();
      n.slot = d.get();
    }
    s.root = d.get();
    s.reads.resize(d.count());
    for (Read& r : s.reads) {
      r.tensors = d.ints();
      r.offsets = d.ints();
      r.data_indices = d.data_indices();
      r.items = d.ints();
    }
    s.tables.resize(d.count());
    for (auto& t : s.tables) t = d.reals();
    s.condition = d.get();
    s.target_indices = d.data_indices();
    s.lanes.resize(d.count());
    for (Lane& l : s.lanes) {
      l.root = d.get();
      l.targets = d.ints();
    }
    if (!d.ok) return std::nullopt;
  }
  if (!d.ok || !d.done()) return std::nullopt;
  return p;
}

}  // namespace nnref::contract
