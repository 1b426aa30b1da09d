// The @lower body of a bound standard operator as a contraction program
// (spec/contract_program.hpp), the IR's contract op. Each lowering's loops are
// enumerated at the bound sizes; at every point the composition's evaluator
// computes the index expressions (floor `/` and `%` of §2.4, packs, guarded
// indices) and the index conditions, so the program holds the offsets each
// point writes and reads. The value is compiled once into an expression tree
// over those reads, evaluated in the oracle's scalar. docs/nnef2.md, "The
// @lower interpreter".
#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "formats/nnef2/ast_print.hpp"
#include "formats/nnef2/diags.hpp"
#include "formats/nnef2_model/builder.hpp"
#include "spec/attrs/compare.hpp"
#include "spec/attrs/unary.hpp"
#include "spec/contract_program.hpp"

namespace nnref::nnef2 {

namespace {

using contract::Assign;
using contract::NodeKind;

// The points one lowering may enumerate: its program holds a few int64 per
// point and read.
constexpr int64_t kMaxPoints = int64_t{1} << 22;
// A data index's tensor at a point that does not resolve its read, until
// compress() fills it.
constexpr int64_t kUnresolved = std::numeric_limits<int64_t>::min();

template <class V>
std::optional<V> lookup(const std::map<std::string, V>& table, const std::string& key) {
  const auto it = table.find(key);
  return it == table.end() ? std::nullopt : std::optional<V>(it->second);
}

std::optional<Assign> assignment(const std::string& op) {
  static const std::map<std::string, Assign> ops = {
      {"=", Assign::Set},   {"+=", Assign::Add}, {"*=", Assign::Mul},    {"<?=", Assign::Min}, {"<=", Assign::Min},
      {">?=", Assign::Max}, {">=", Assign::Max}, {":=", Assign::Update}, {"&=", Assign::All},  {"|=", Assign::Any}};
  return lookup(ops, op);
}

std::optional<NodeKind> arithmetic(const std::string& op) {
  static const std::map<std::string, NodeKind> ops = {
      {"+", NodeKind::Add},  {"-", NodeKind::Sub},  {"*", NodeKind::Mul},  {"/", NodeKind::Div},
      {"**", NodeKind::Pow}, {"<?", NodeKind::Min}, {">?", NodeKind::Max}, {"%", NodeKind::Mod},
      {"&&", NodeKind::And}, {"||", NodeKind::Or},  {"^", NodeKind::Xor}};
  return lookup(ops, op);
}

std::optional<contract::IntegerNode> integer_arithmetic(const std::string& op) {
  using contract::IntegerNode;
  static const std::map<std::string, IntegerNode> ops = {
      {"+", IntegerNode::Add}, {"-", IntegerNode::Sub},  {"*", IntegerNode::Mul},  {"/", IntegerNode::FloorDiv},
      {"%", IntegerNode::Mod}, {"<?", IntegerNode::Min}, {">?", IntegerNode::Max}, {"**", IntegerNode::Pow}};
  return lookup(ops, op);
}

std::optional<CompareOp> comparison(const std::string& op) {
  static const std::map<std::string, CompareOp> ops = {{"<", CompareOp::Lt},  {">", CompareOp::Gt},
                                                       {"<=", CompareOp::Le}, {">=", CompareOp::Ge},
                                                       {"==", CompareOp::Eq}, {"!=", CompareOp::Ne}};
  return lookup(ops, op);
}

std::optional<UnaryOp> function(const std::string& name) {
  static const std::map<std::string, UnaryOp> fs = {
      {"exp", UnaryOp::Exp},     {"log", UnaryOp::Log},     {"sin", UnaryOp::Sin},     {"cos", UnaryOp::Cos},
      {"tan", UnaryOp::Tan},     {"sinh", UnaryOp::Sinh},   {"cosh", UnaryOp::Cosh},   {"tanh", UnaryOp::Tanh},
      {"asin", UnaryOp::Asin},   {"acos", UnaryOp::Acos},   {"atan", UnaryOp::Atan},   {"asinh", UnaryOp::Asinh},
      {"acosh", UnaryOp::Acosh}, {"atanh", UnaryOp::Atanh}, {"abs", UnaryOp::Abs},     {"sign", UnaryOp::Sign},
      {"floor", UnaryOp::Floor}, {"ceil", UnaryOp::Ceil},   {"round", UnaryOp::Round}, {"sqrt", UnaryOp::Sqrt},
      {"erf", UnaryOp::Erf}};
  return lookup(fs, name);
}

bool holds_real(const Val& v) {
  if (v.kind == Val::Kind::Real || v.kind == Val::Kind::Tensor) return true;
  return std::any_of(v.items.begin(), v.items.end(), holds_real);
}

// The tensors a lowering reads and writes: the operator's inputs (IR operands,
// in order of first use) and its outputs, all of one kind.
struct Tensors {
  std::vector<std::string> output_names;
  std::vector<std::vector<int64_t>> output_shapes;
  ElemKind output_kind = ElemKind::Real;
  std::vector<Val> inputs;
  std::vector<ElemKind> kinds;  // the operands'

  int64_t operand(const Val& t) {
    for (size_t k = 0; k < inputs.size(); ++k)
      if (inputs[k].tensor == t.tensor) return static_cast<int64_t>(k);
    inputs.push_back(t);
    kinds.push_back(kind_of(t.elem));
    return static_cast<int64_t>(inputs.size()) - 1;
  }
  std::optional<int64_t> output(const std::string& name) const {
    const auto it = std::find(output_names.begin(), output_names.end(), name);
    if (it == output_names.end()) return std::nullopt;
    return static_cast<int64_t>(it - output_names.begin());
  }
  // Item k of a packed output (BoundInvocation names its tensors `name[k]`).
  std::optional<int64_t> output_item(const std::string& name, int64_t k) const {
    return output(name + "[" + std::to_string(k) + "]");
  }
};

// An index of an access read from an integer tensor's element at one point
// (spec/contract_program.hpp DataIndex).
struct DataIndexAt {
  int64_t tensor = 0, offset = 0, stride = 1, extent = 0;
  std::vector<int64_t> items = {};  // choosing a pack item (stride 0): the pack's tensors
};

// What one point of a statement resolves: its tables' numbers and its reads'
// tensors, offsets and data indices.
struct PointValues {
  std::vector<double> numbers;
  std::vector<int64_t> tensors, offsets;
  std::vector<std::vector<DataIndexAt>> data;
};

// The type of a node of a value: a number (real, or an int read), a truth
// value, or a per-point number that serves as any of them.
enum class Type { Any, Real, Integer, Truth };

// One lowering as a statement of the program.
class StatementBuilder {
 public:
  StatementBuilder(const std::string& op, const Lowering& l, Evaluator env, Tensors& tensors)
      : op_(op), l_(l), env_(std::move(env)), tensors_(tensors) {
    env_.lowering = true;
    env_.conditions = nullptr;  // the contract op holds its operands' extents itself (spec/ops/contract.hpp)
  }

  // The statements of the lowering: one, or for a target that is an item of a packed output chosen
  // per point (unstack's `outputs[ni][…]`), one per item written, each with its points in loop order.
  std::vector<contract::Statement> build() {
    const std::optional<Assign> a = assignment(l_.op);
    if (!a) unsupported("the assignment '" + l_.op + "'", nullptr);
    // `unroll..(ki -> k)` (§2.11): k assignments, as if ki were the outermost loop.
    if (l_.unroll && l_.unroll->index.empty()) unsupported("an unrolled lowering without an index", nullptr);
    if (l_.unroll) loops_.push_back({l_.unroll->index, l_.unroll->count.get(), l_.unroll->loc});
    for (const LoopBound& b : l_.bounds) loops_.push_back({b.index, b.limit.get(), b.loc});
    s_.op = *a;
    for (const Binding& b : l_.locals) locals_[b.name] = Local{b.value.get(), !index_valued(*b.value)};
    for (const Loop& b : loops_) loop_indices_.push_back(b.index);
    const bool data_condition = l_.condition && !index_valued(*l_.condition);
    if (data_condition && s_.op != Assign::Update)
      unsupported("a condition on tensor values outside an update (:=)", l_.condition.get());
    const Expr& target = *l_.target;
    const std::optional<int64_t> out =
        pack_index_of(target) ? tensors_.output_item(tensor_name(target), 0) : tensors_.output(tensor_name(target));
    if (!is_access(target) || !out) unsupported("a target other than an output tensor", &target);
    s_.output = *out;
    packed_ = target.kind == ExprKind::TensorAccess &&
              std::any_of(target.args.begin(), target.args.end(),
                          [](const ExprPtr& a) { return a->kind == ExprKind::SliceAll; });
    deferred_ = packed_ || has_fold(*l_.value);
    if (!deferred_) s_.root = value_of(-1);
    if (data_condition) {
      const std::optional<int64_t> c = compile(*l_.condition);
      if (!c) unsupported("a null condition", l_.condition.get());
      s_.condition = *c;
    }
    want(s_.condition, Type::Truth);
    s_.reads.resize(reads_.size());
    s_.tables.resize(tables_);
    refuse_if_too_large();
    enumerate(0);
    if (deferred_ && !value_compiled_) {  // no point: a value never evaluated
      value_compiled_ = true;
      s_.root = number(*l_.value);
      s_.tables.resize(tables_);
    }
    for (contract::Node& n : nodes_) s_.nodes.push_back(n);
    std::vector<contract::Statement> statements;
    for (int64_t o : written_outputs()) {
      statements.push_back(points_writing(o));
      compress(statements.back());
    }
    return statements;
  }

 private:
  // A loop of the lowering: its bounds, after the unrolled index if there is one.
  struct Loop {
    std::string index;
    const Expr* limit = nullptr;
    SourceLoc loc;
  };
  struct Local {
    const Expr* value = nullptr;
    bool is_value = false;  // reads tensors or computes reals: compiled where it is used
  };

  [[noreturn]] void unsupported(const std::string& what, const Expr* e) const {
    refuse("nnef2.lower.unsupported", op_ + ": the @lower interpreter does not take " + what +
                                          (e ? " (" + to_sexpr(*e) + " at " + located(e->loc) + ")" : "") +
                                          " (docs/nnef2.md, The @lower interpreter)");
  }

  // The node of the value, in `lane` of a packed assignment (−1: none), of its output's kind.
  int64_t value_of(int64_t lane) {
    lane_ = lane;
    const std::optional<int64_t> root = compile(*l_.value);
    lane_ = -1;
    if (!root) refuse("nnef2.lower.null", op_ + ": the value of the lowering at " + located(l_.loc) + " is null");
    // int(x) of a real stays a real (an enclosure keeps both sides of an integer); an int output
    // takes the integer it holds, unknown where that is not one.
    const bool truncated = std::find(truncated_.begin(), truncated_.end(), *root) != truncated_.end();
    if (truncated && tensors_.output_kind == ElemKind::Integer)
      return add(NodeKind::Whole, *root, -1, -1, 0, l_.value.get());
    want(*root, type_of(tensors_.output_kind));
    return *root;
  }

  // A packed assignment (§2.11, `ys[ni, mi, :] = xs[ni, mi, :] + z[ni, mi]`): one lane per element
  // along the target's `:` axis, whose extent the first point tells. In lane q every `:` of the
  // value is q, and an index-valued pack (argmax_nd's `i[axes]`) gives its item q.
  void compile_lanes(int64_t count) {
    s_.root = value_of(0);
    for (int64_t q = 1; q < count; ++q) s_.lanes.push_back({value_of(q), {}});
  }
  // A value compiled at the first point, where the loop indices are bound: a packed assignment's
  // lanes (their count), or a value with a fold (its pack's length).
  void compile_deferred_value() {
    value_compiled_ = true;
    if (packed_)
      compile_lanes(lane_count());
    else
      s_.root = value_of(-1);
    s_.reads.resize(reads_.size());
    s_.tables.resize(tables_);
  }
  static bool has_fold(const Expr& e) {
    return e.kind == ExprKind::Fold ||
           std::any_of(e.args.begin(), e.args.end(), [](const ExprPtr& a) { return a && has_fold(*a); });
  }
  // The extent of the packed target's `:` axis at the current point.
  int64_t lane_count() const {
    const Slicing at(*this, 0);
    std::vector<DataSource> ignored;
    indices_of(*l_.target, ignored);
    const std::vector<int64_t>& shape = tensors_.output_shapes[static_cast<size_t>(point_output_)];
    if (sliced_axis_ < 0 || static_cast<size_t>(sliced_axis_) >= shape.size())
      refuse("nnef2.lower.rank", op_ + ": the target " + to_sexpr(*l_.target) + " at " + located(l_.loc) +
                                     " slices an axis its output does not have" + where());
    return shape[static_cast<size_t>(sliced_axis_)];
  }

  // A tensor access: x[i, j], and x[i] (which the parser reads as an Index, a
  // pack's item or a tensor's element) where x is a tensor; and xs[k][i], the
  // parser's Index of an Index, where xs is a pack of tensors or a packed output.
  bool is_access(const Expr& e) const {
    if (e.kind == ExprKind::TensorAccess) return true;
    if (e.kind != ExprKind::Index) return false;
    const Expr& base = *e.args[0];
    const bool item = base.kind == ExprKind::Index && base.args[0]->kind == ExprKind::Identifier;
    if (base.kind != ExprKind::Identifier && !item) return false;
    const std::string& name = tensor_name(e);
    if (item ? tensors_.output_item(name, 0).has_value() : tensors_.output(name).has_value()) return true;
    const auto s = env_.symbols.find(name);
    if (s == env_.symbols.end()) return false;
    if (item) return s->second.is_pack() && !s->second.items.empty() && s->second.items[0].kind == Val::Kind::Tensor;
    return s->second.kind == Val::Kind::Tensor || (s->second.is_null() && !locals_.count(name));
  }
  static const std::string& tensor_name(const Expr& e) {
    if (e.kind == ExprKind::TensorAccess) return e.text;
    const Expr& base = *e.args[0];
    return base.kind == ExprKind::Index ? base.args[0]->text : base.text;
  }
  // The pack index of an access of a pack's item (xs[k][i, j], xs[k][i]), or null.
  static const Expr* pack_index_of(const Expr& e) {
    if (e.kind == ExprKind::TensorAccess) return e.pack_index.get();
    return e.kind == ExprKind::Index && e.args[0]->kind == ExprKind::Index ? e.args[0]->args[1].get() : nullptr;
  }
  // An index read from the data: an int tensor's access, and for a spread of a
  // slice (`k[bi.., zi.., :]..`, gather_nd's) the position along its sliced axis.
  struct DataSource {
    const Expr* access = nullptr;
    int64_t sliced = -1;  // the `:`'s value, or −1
  };
  // Whether x is `k[…, :]..`: a spread of an access with one `:`, which stands
  // for the elements along that axis, one index each.
  bool is_sliced_spread(const Expr& x) const { return is_spread(x) && is_sliced_access(*x.args[0]); }
  static bool is_spread(const Expr& x) { return x.kind == ExprKind::Expand && (x.args.size() < 2 || !x.args[1]); }
  bool is_sliced_access(const Expr& a) const {
    const auto slice_all = [](const ExprPtr& i) { return i->kind == ExprKind::SliceAll; };
    return is_access(a) && a.kind == ExprKind::TensorAccess &&
           std::count_if(a.args.begin(), a.args.end(), slice_all) == 1;
  }
  // Whether x is `(p[at] <- k[…, :])..`: a pack whose items at `at` are read from the data, one
  // per element along the sliced axis (argmax_nd's `input[i[axes] <- output[…, :]..]`).
  bool is_substituted_row(const Expr& x) const {
    if (!is_spread(x) || x.args[0]->kind != ExprKind::Substitute) return false;
    const Expr& sub = *x.args[0];
    return sub.args[0]->kind == ExprKind::Index && is_sliced_access(*sub.args[1]);
  }
  // The items of such a pack: those of p, the data's at `at` (0, with their sources).
  void substituted_row(const Expr& x, std::vector<Val>& items, std::vector<DataSource>& from_data) const {
    const Expr& sub = *x.args[0];
    const Expr& row = *sub.args[1];
    const Val pack = eval(*sub.args[0]->args[0]), at = eval(*sub.args[0]->args[1]);
    if (!pack.is_pack()) unsupported("a substitution into an index that is not a pack", &sub);
    const std::vector<size_t> positions =
        evaluating(sub, [&] { return index_positions(at, pack.items.size(), sub.loc); });
    if (static_cast<int64_t>(positions.size()) != sliced_extent(row))
      refuse("nnef2.eval.length", op_ + ": " + to_sexpr(sub) + " at " + located(sub.loc) + " substitutes " +
                                      std::to_string(sliced_extent(row)) + " items at " +
                                      std::to_string(positions.size()) + " positions" + where());
    const size_t first = items.size();
    items.insert(items.end(), pack.items.begin(), pack.items.end());
    from_data.resize(items.size());
    for (size_t q = 0; q < positions.size(); ++q) {
      items[first + positions[q]] = Val::integer(0);
      from_data[first + positions[q]] = {&row, static_cast<int64_t>(q)};
    }
  }
  // The extent of the sliced axis of such an access.
  int64_t sliced_extent(const Expr& access) const {
    const std::optional<int64_t> output = tensors_.output(tensor_name(access));
    const std::vector<int64_t>& shape =
        output ? tensors_.output_shapes[static_cast<size_t>(*output)] : env_.symbols.at(tensor_name(access)).shape;
    const Slicing at(*this, 0);
    std::vector<DataSource> ignored;
    indices_of(access, ignored);
    if (sliced_axis_ < 0 || static_cast<size_t>(sliced_axis_) >= shape.size())
      refuse("nnef2.lower.rank", op_ + ": " + to_sexpr(access) + " at " + located(access.loc) +
                                     " slices an axis its tensor does not have" + where());
    return shape[static_cast<size_t>(sliced_axis_)];
  }
  // While alive, a `:` index stands for `value` (and records its axis); then the one before.
  struct Slicing {
    const StatementBuilder& b;
    int64_t value_before, axis_before;
    Slicing(const StatementBuilder& builder, int64_t value)
        : b(builder), value_before(builder.sliced_value_), axis_before(builder.sliced_axis_) {
      b.sliced_value_ = value;
      b.sliced_axis_ = -1;
    }
    ~Slicing() {
      b.sliced_value_ = value_before;
      b.sliced_axis_ = axis_before;
    }
    Slicing(const Slicing&) = delete;
    Slicing& operator=(const Slicing&) = delete;
  };

  // The indices of an access, each `x..` spread; an index that reads a tensor
  // (`x[i, output[i]]`, and each of `x[i, k[i, :]..]`) is 0 there, and
  // `from_data` says where it is read from (no access for the others).
  Val indices_of(const Expr& e, std::vector<DataSource>& from_data) const {
    std::vector<Val> items;
    const auto item = [&](const Expr& x) {
      if (is_access(x)) {
        items.push_back(Val::integer(0));
        from_data.resize(items.size());
        from_data.back() = {&x, -1};
      } else if (is_substituted_row(x)) {
        substituted_row(x, items, from_data);
      } else if (is_sliced_spread(x)) {
        const int64_t n = sliced_extent(*x.args[0]);
        for (int64_t q = 0; q < n; ++q) {
          items.push_back(Val::integer(0));
          from_data.resize(items.size());
          from_data.back() = {x.args[0].get(), q};
        }
      } else if (x.kind == ExprKind::SliceAll && sliced_value_ >= 0) {
        sliced_axis_ = static_cast<int64_t>(items.size());
        items.push_back(Val::integer(sliced_value_));
      } else {
        evaluating(x, [&] { env_.append_item(x, items); });
      }
    };
    if (e.kind == ExprKind::TensorAccess) {
      for (const ExprPtr& a : e.args) item(*a);
    } else {
      item(*e.args[1]);
    }
    from_data.resize(items.size());
    if (std::any_of(items.begin(), items.end(), [](const Val& x) { return x.is_null(); })) return Val{};
    return Val::pack(std::move(items));
  }

  // Whether e is index arithmetic: ints, bools, packs of them, from loop
  // indices, locals of that kind and the definition's symbols; such an
  // expression is evaluated at every point.
  bool index_valued(const Expr& e) const {
    if (is_access(e)) return false;
    switch (e.kind) {
      case ExprKind::TensorAccess:
      case ExprKind::Real:
      case ExprKind::Pi:
      case ExprKind::Inf:
      case ExprKind::Builtin:
        return false;
      case ExprKind::Cast:  // T(1), real(i): of index arithmetic, the composition's cast
        return !e.args.empty() && index_valued(*e.args[0]);
      case ExprKind::Identifier: {
        if (const auto l = locals_.find(e.text); l != locals_.end()) return !l->second.is_value;
        if (std::find(loop_indices_.begin(), loop_indices_.end(), e.text) != loop_indices_.end()) return true;
        const auto s = env_.symbols.find(e.text);
        return s == env_.symbols.end() || !holds_real(s->second);
      }
      default:
        for (const ExprPtr& a : e.args)
          if (a && !index_valued(*a)) return false;
        return !e.pack_index || index_valued(*e.pack_index);
    }
  }

  // Whether e reads a tensor, itself or through the `with` locals it names (`depth` bounds a chain of
  // locals, so that one naming itself ends).
  bool reads_tensor(const Expr& e, size_t depth = 0) const {
    if (is_access(e)) return true;
    if (e.kind == ExprKind::Identifier)
      if (const auto l = locals_.find(e.text); l != locals_.end() && depth < locals_.size())
        return reads_tensor(*l->second.value, depth + 1);
    const auto reads = [&](const ExprPtr& a) { return a && reads_tensor(*a, depth); };
    return std::any_of(e.args.begin(), e.args.end(), reads) || reads(e.pack_index);
  }

  int64_t add(NodeKind kind, int64_t a = -1, int64_t b = -1, int64_t c = -1, int64_t slot = 0,
              const Expr* expr = nullptr) {
    nodes_.push_back({kind, a, b, c, slot});
    exprs_.push_back(expr);
    node_lanes_.push_back(lane_);
    types_.push_back(type_for(nodes_.back()));
    return static_cast<int64_t>(nodes_.size()) - 1;
  }
  // The type of a new node, its operands' checked: arithmetic and comparisons take numbers (an int
  // read is a number), logic takes truth values, a select's branches agree, int arithmetic and
  // casts give their own; an int is not computed from reals.
  Type type_for(const contract::Node& n) const {
    const auto either = [&](int64_t a, int64_t b) {
      const Type x = types_[static_cast<size_t>(a)], y = types_[static_cast<size_t>(b)];
      if (x == Type::Any || x == y) return y;
      if (y == Type::Any) return x;
      want(b, x == Type::Truth ? Type::Truth : Type::Real);
      return Type::Real;
    };
    switch (n.kind) {
      case NodeKind::Read:
        return read_types_[static_cast<size_t>(n.slot)];
      case NodeKind::Number:
        return Type::Any;
      case NodeKind::And:
      case NodeKind::Or:
      case NodeKind::Xor:
      case NodeKind::Not:
        want(n.a, Type::Truth);
        want(n.b, Type::Truth);
        return Type::Truth;
      case NodeKind::Compare:
      case NodeKind::IntegerCompare:
        want(n.a, Type::Real);
        want(n.b, Type::Real);
        return Type::Truth;
      case NodeKind::Whole:
        want(n.a, Type::Real);
        return Type::Integer;
      case NodeKind::Select:
        want(n.a, Type::Truth);
        return either(n.b, n.c);
      case NodeKind::IndexSelect:
        return either(n.a, n.b);
      case NodeKind::Integer:
        return Type::Integer;
      case NodeKind::Cast: {
        const Type to = type_of(static_cast<ElemKind>(n.slot));
        want(n.a, to == Type::Truth ? Type::Real : Type::Truth);
        return to;
      }
      default:
        want(n.a, Type::Real);
        want(n.b, Type::Real);
        return Type::Real;
    }
  }
  // Node k where a `t` is needed (none: k < 0).
  void want(int64_t k, Type t) const {
    if (k < 0) return;
    const Type have = types_[static_cast<size_t>(k)];
    if (have == Type::Any || have == t || (t == Type::Real && have == Type::Integer)) return;
    const Expr* e = exprs_[static_cast<size_t>(k)] ? exprs_[static_cast<size_t>(k)] : l_.value.get();
    if (t == Type::Truth) unsupported("a number as a truth value", e);
    if (have == Type::Truth) unsupported("a truth value as a number", e);
    unsupported("a real value as an int result", e);
  }
  Type node_type(int64_t k) const { return types_[static_cast<size_t>(k)]; }
  // The kind of the tensor an access names: an output's, or the operand's (a pack's items').
  ElemKind kind_named(const std::string& name) const {
    if (tensors_.output(name)) return tensors_.output_kind;
    const auto it = env_.symbols.find(name);
    if (it == env_.symbols.end()) return ElemKind::Real;
    const Val& t = it->second.is_pack() && !it->second.items.empty() ? it->second.items[0] : it->second;
    return kind_of(t.elem);
  }
  // Whether a ∘ b is int arithmetic: an int and an int or a per-point number.
  bool integers(int64_t a, int64_t b) const {
    const Type x = node_type(a), y = node_type(b);
    const auto fits = [](Type t) { return t == Type::Integer || t == Type::Any; };
    return fits(x) && fits(y) && (x == Type::Integer || y == Type::Integer);
  }

  static Type type_of(ElemKind k) {
    return k == ElemKind::Logical ? Type::Truth : k == ElemKind::Integer ? Type::Integer : Type::Real;
  }

  int64_t number(const Expr& e) { return add(NodeKind::Number, -1, -1, -1, static_cast<int64_t>(tables_++), &e); }

  // The node computing e, or nullopt where e is null (an optional input or
  // attribute not given).
  std::optional<int64_t> compile(const Expr& e) {
    if (index_valued(e)) {
      const bool symbol = e.kind == ExprKind::Identifier && !locals_.count(e.text) &&
                          std::find(loop_indices_.begin(), loop_indices_.end(), e.text) == loop_indices_.end();
      if (symbol && env_.symbols.count(e.text) && env_.symbols.at(e.text).is_null()) return std::nullopt;
      return number(e);
    }
    if (is_access(e)) return access(e);
    if (e.kind == ExprKind::Index && !reads_tensor(e)) return number(e);  // scale[i[axis]] of a real pack
    switch (e.kind) {
      case ExprKind::Identifier:
        return identifier(e);
      case ExprKind::Real:
      case ExprKind::Inf:
        return number(e);
      case ExprKind::Pi:
        return add(NodeKind::Pi);
      case ExprKind::Unary:
        return unary(e);
      case ExprKind::Binary:
        return binary(e);
      case ExprKind::Select:
        return select(e);
      case ExprKind::Coalesce: {
        const std::optional<int64_t> a = compile(*e.args[0]);
        return a ? a : compile(*e.args[1]);
      }
      case ExprKind::Builtin:
        return builtin(e);
      case ExprKind::Fold:
        return fold(e);
      case ExprKind::Cast:
        if (e.args.empty()) return number(e);  // T(): 0
        return cast(e);
      default:
        unsupported("this expression", &e);
    }
  }

  std::optional<int64_t> identifier(const Expr& e) {
    if (const auto l = locals_.find(e.text); l != locals_.end()) return compile(*l->second.value);
    const Val& v = env_.symbols.at(e.text);
    if (v.is_null()) return std::nullopt;
    const bool item = lane_ >= 0 && v.is_pack() && !holds_tensor(v);  // item lane_ of a pack of reals (scale)
    if (v.kind != Val::Kind::Real && !item) unsupported("a tensor or pack as a value", &e);
    return number(e);
  }
  static bool holds_tensor(const Val& v) {
    return v.kind == Val::Kind::Tensor || std::any_of(v.items.begin(), v.items.end(), holds_tensor);
  }

  // `x * .. * y` (a fold, §2.4) in a value: the pack x's items, each compiled as a lane of a packed
  // assignment is (an index pack or a pack of reals gives its item q), combined by the operator onto
  // y's value, in the order composition folds (linear_resize's weights `abs(…) * .. * input[…]`). The
  // pack must not read tensors: its length is that of its value at the point.
  std::optional<int64_t> fold(const Expr& e) {
    const std::optional<NodeKind> op = arithmetic(e.text);
    if (!op || packed_ || lane_ >= 0) unsupported("this fold", &e);
    if (reads_tensor(*e.args[0])) unsupported("a fold of a pack that reads tensors", &e);
    const Val pack = eval(*e.args[0]);
    if (!pack.is_pack()) unsupported("a fold of " + show(pack), &e);
    std::optional<int64_t> acc;
    if (e.args.size() > 1 && e.args[1]) acc = compile(*e.args[1]);
    for (size_t q = 0; q < pack.items.size(); ++q) {
      lane_ = static_cast<int64_t>(q);
      const std::optional<int64_t> item = compile(*e.args[0]);
      lane_ = -1;
      if (!item) return std::nullopt;
      acc = acc ? add(*op, *acc, *item) : *item;
    }
    if (!acc) unsupported("a fold of an empty pack", &e);
    return acc;
  }

  std::optional<int64_t> access(const Expr& e) {
    if (tensors_.output(tensor_name(e))) {
      if (s_.op != Assign::Update) unsupported("a read of an output outside an update (:=)", &e);
    } else {
      const auto s = env_.symbols.find(tensor_name(e));
      if (s == env_.symbols.end()) unsupported("a read of an unknown tensor", &e);
      if (s->second.is_null()) return std::nullopt;
    }
    reads_.push_back(&e);
    read_types_.push_back(type_of(kind_named(tensor_name(e))));
    return add(NodeKind::Read, -1, -1, -1, static_cast<int64_t>(reads_.size()) - 1, &e);
  }

  std::optional<int64_t> unary(const Expr& e) {
    const std::optional<int64_t> x = compile(*e.args[0]);
    if (!x || e.text == "+") return x;
    if (e.text == "!") return add(NodeKind::Not, *x);
    if (integers(*x, *x)) return add(NodeKind::Integer, *x, -1, -1, static_cast<int64_t>(contract::IntegerNode::Neg), &e);
    return add(NodeKind::Unary, *x, -1, -1, static_cast<int64_t>(UnaryOp::Neg));
  }

  std::optional<int64_t> binary(const Expr& e) {
    const std::optional<int64_t> a = compile(*e.args[0]), b = compile(*e.args[1]);
    if (!a || !b) return std::nullopt;
    if (const auto k = integer_arithmetic(e.text); k && integers(*a, *b))
      return add(NodeKind::Integer, *a, *b, -1, static_cast<int64_t>(*k), &e);
    if (const auto k = arithmetic(e.text)) return add(*k, *a, *b);
    const std::optional<CompareOp> c = comparison(e.text);
    if (c && (*c == CompareOp::Eq || *c == CompareOp::Ne) && node_type(*a) == Type::Truth &&
        node_type(*b) == Type::Truth) {  // truth values are equal where their exclusive or fails
      const int64_t differ = add(NodeKind::Xor, *a, *b, -1, 0, &e);
      return *c == CompareOp::Ne ? differ : add(NodeKind::Not, differ, -1, -1, 0, &e);
    }
    if (c && integers(*a, *b)) return add(NodeKind::IntegerCompare, *a, *b, -1, static_cast<int64_t>(*c), &e);
    if (c) return add(NodeKind::Compare, *a, *b, -1, static_cast<int64_t>(*c));
    unsupported("the operator '" + e.text + "'", &e);
  }

  std::optional<int64_t> select(const Expr& e) {
    if (e.args.size() < 3) unsupported("a select without an else value", &e);
    const std::optional<int64_t> a = compile(*e.args[1]), b = compile(*e.args[2]);
    if (!a && !b) return std::nullopt;
    if (!a || !b) unsupported("a select with one null value", &e);
    if (index_valued(*e.args[0]))
      return add(NodeKind::IndexSelect, *a, *b, -1, static_cast<int64_t>(tables_++), e.args[0].get());
    const std::optional<int64_t> c = compile(*e.args[0]);
    if (!c) unsupported("a null condition", &e);
    return add(NodeKind::Select, *c, *a, *b);
  }

  // real(x), int(x), bool(x), or a generic's type as bound: a number to a number keeps its value
  // (int() of a real truncates toward 0, docs/nnef2.md: sign(x) · ⌊|x|⌋, still a real number, so
  // that an enclosure keeps both sides); a truth value to a number is 0 or 1; a number to bool
  // whether it is not 0.
  std::optional<int64_t> cast(const Expr& e) {
    std::string type = e.text;
    const auto generic = env_.symbols.find(type);
    if (generic != env_.symbols.end() && generic->second.kind == Val::Kind::Str) type = generic->second.s;
    if (type == "T") type = "real";  // a generic the invocation left unbound is real (docs/nnef2.md)
    if (type != "real" && type != "int" && type != "bool") unsupported("a cast to " + type, &e);
    const std::optional<int64_t> x = compile(*e.args[0]);
    if (!x) return std::nullopt;
    const Type from = node_type(*x);
    const auto to = [&](ElemKind k) { return add(NodeKind::Cast, *x, -1, -1, static_cast<int64_t>(k), &e); };
    if (type == "bool") return from == Type::Truth ? *x : to(ElemKind::Logical);
    if (from == Type::Truth) return to(type == "int" ? ElemKind::Integer : ElemKind::Real);
    if (type == "real" || from == Type::Integer) return x;
    const auto unary = [&](UnaryOp f, int64_t a) { return add(NodeKind::Unary, a, -1, -1, static_cast<int64_t>(f), &e); };
    const int64_t truncated =
        add(NodeKind::Mul, unary(UnaryOp::Sign, *x), unary(UnaryOp::Floor, unary(UnaryOp::Abs, *x)), -1, 0, &e);
    truncated_.push_back(truncated);
    return truncated;
  }

  std::optional<int64_t> builtin(const Expr& e) {
    const std::optional<int64_t> x = compile(*e.args[0]);
    if (!x) return std::nullopt;
    if ((e.text == "abs" || e.text == "sign") && integers(*x, *x))
      return add(NodeKind::Integer, *x, -1, -1,
                 static_cast<int64_t>(e.text == "abs" ? contract::IntegerNode::Abs : contract::IntegerNode::Sign), &e);
    if (e.text == "frac")  // x − ⌊x⌋
      return add(NodeKind::Sub, *x, add(NodeKind::Unary, *x, -1, -1, static_cast<int64_t>(UnaryOp::Floor)));
    const std::optional<UnaryOp> f = function(e.text);
    if (!f) unsupported("the function '" + e.text + "'", &e);
    return add(NodeKind::Unary, *x, -1, -1, static_cast<int64_t>(*f));
  }

  // The loops, outermost first; a bound may read the indices of the loops
  // before it.
  void enumerate(size_t level) {
    if (level == loops_.size()) return point();
    const Loop& b = loops_[level];
    const Val limit = eval(*b.limit);
    if (limit.kind != Val::Kind::Int && !limit.is_pack())
      refuse("nnef2.eval.type", op_ + ": the loop bound " + b.index + " < " + show(limit) + " at " + located(b.loc) +
                                    " is not an int or a pack of ints");
    if (!limit.is_pack()) {
      for (int64_t v = 0; v < limit.i; ++v) {
        env_.symbols[b.index] = Val::integer(v);
        enumerate(level + 1);
      }
      return;
    }
    const std::vector<int64_t> extents = as_ints(limit);
    if (std::any_of(extents.begin(), extents.end(), [](int64_t n) { return n <= 0; })) return;
    std::vector<int64_t> at(extents.size(), 0);
    for (;;) {
      env_.symbols[b.index] = Val::ints(at);
      enumerate(level + 1);
      size_t k = at.size();
      while (k > 0 && ++at[k - 1] == extents[k - 1]) at[--k] = 0;
      if (k == 0) return;
    }
  }

  Val eval(const Expr& e) const {
    return evaluating(e, [&] { return env_.eval(e); });
  }
  // f() evaluating e, its failure located.
  template <class F>
  auto evaluating(const Expr& e, F&& f) const -> decltype(f()) {
    try {
      return f();
    } catch (const EvalError& err) {
      if (err.code == "nnef2.eval.lowering") unsupported("an index computed from tensor values", &e);
      refuse(err.code, op_ + ": " + err.message + " at " + located(err.loc) + where());
    }
  }

  // The loop indices of the current point, for messages.
  std::string where() const {
    std::string out = " (at ";
    for (size_t k = 0; k < loop_indices_.size(); ++k) {
      const auto s = env_.symbols.find(loop_indices_[k]);
      if (s != env_.symbols.end()) out += (k ? ", " : "") + loop_indices_[k] + " = " + show(s->second);
    }
    return out + ")";
  }

  [[noreturn]] void too_large() const {
    refuse("nnef2.lower.too-large", op_ + ": the lowering at " + located(l_.loc) + " has more than " +
                                        std::to_string(kMaxPoints) + " points, more than nnref enumerates");
  }

  // Where no loop bound reads an earlier loop index (most lowerings), the points are counted before
  // any is enumerated, so that a lowering too large is refused at once (a 64-channel conv on 32 x 32
  // took 24 s to reach its 2^22nd point). Bounds that read an index are counted while enumerating.
  void refuse_if_too_large() const {
    std::vector<int64_t> extents;
    for (const Loop& b : loops_) {
      std::vector<std::string> names;
      referenced_names(*b.limit, names);
      for (const std::string& n : names)
        if (std::find(loop_indices_.begin(), loop_indices_.end(), n) != loop_indices_.end()) return;
      const Val limit = eval(*b.limit);
      if (limit.kind != Val::Kind::Int && !limit.is_pack()) return;  // refused by enumerate, located
      for (int64_t n : limit.is_pack() ? as_ints(limit) : std::vector<int64_t>{limit.i}) extents.push_back(n);
    }
    if (std::any_of(extents.begin(), extents.end(), [](int64_t n) { return n <= 0; })) return;  // no point
    int64_t points = 1;
    for (int64_t n : extents) {
      if (points > kMaxPoints / n) too_large();
      points *= n;
    }
  }

  void point() {
    if (++points_ > kMaxPoints) too_large();
    // A local of index arithmetic, or of reals computed from indices and attributes (nearest_resize's
    // `x = real(i[axes]) * scale + offset`, which an index rounds), is evaluated at the point; one
    // that reads tensors is compiled where the value uses it.
    for (const Binding& b : l_.locals)
      if (!locals_.at(b.name).is_value || !reads_tensor(*b.value)) env_.symbols[b.name] = eval(*b.value);
    if (l_.condition && s_.condition < 0 && !truth(*l_.condition)) return;
    point_output_ = target_output();
    if (deferred_ && !value_compiled_) compile_deferred_value();
    // An update's target may be moved by indices read from the data (scatter's).
    std::vector<DataIndexAt> moved;
    std::vector<int64_t> targets;  // per lane
    for (int64_t q = 0; q < 1 + static_cast<int64_t>(s_.lanes.size()); ++q) {
      const Slicing lane(*this, packed_ ? q : -1);
      const std::optional<int64_t> target =
          offset(*l_.target, tensors_.output_shapes[static_cast<size_t>(point_output_)],
                 s_.op == Assign::Update ? &moved : nullptr);
      if (!target) return;  // a guarded index skips every lane
      targets.push_back(*target);
    }
    if (packed_ && !moved.empty()) unsupported("a packed target moved by the data", l_.target.get());
    PointValues v{std::vector<double>(tables_, 0.0), std::vector<int64_t>(reads_.size(), 0),
                  std::vector<int64_t>(reads_.size(), 0), std::vector<std::vector<DataIndexAt>>(reads_.size())};
    if (!resolve(s_.root, v) || (s_.condition >= 0 && !resolve(s_.condition, v))) return;
    for (const contract::Lane& l : s_.lanes)
      if (!resolve(l.root, v)) return;
    s_.targets.push_back(targets[0]);
    point_outputs_.push_back(point_output_);
    for (size_t q = 1; q < targets.size(); ++q) s_.lanes[q - 1].targets.push_back(targets[q]);
    add_target_indices(moved);
    for (size_t k = 0; k < tables_; ++k) s_.tables[k].push_back(v.numbers[k]);
    for (size_t k = 0; k < reads_.size(); ++k) {
      s_.reads[k].tensors.push_back(v.tensors[k]);
      s_.reads[k].offsets.push_back(v.offsets[k]);
      add_data_indices(k, v.data[k]);
    }
  }

  // The target's data indices at the point: every point has the same, as the
  // target is one access.
  void add_target_indices(const std::vector<DataIndexAt>& at) {
    std::vector<contract::DataIndex>& data = s_.target_indices;
    if (data.empty()) data.resize(at.size());
    for (size_t j = 0; j < at.size(); ++j) {
      data[j].stride = at[j].stride;
      data[j].extent = at[j].extent;
      data[j].index.tensors.push_back(at[j].tensor);
      data[j].index.offsets.push_back(at[j].offset);
    }
  }

  // The data indices of read k at the point: none where the point did not
  // resolve the read (a branch of an index condition not taken), marked to be
  // filled by compress().
  void add_data_indices(size_t k, const std::vector<DataIndexAt>& at) {
    std::vector<contract::DataIndex>& data = s_.reads[k].data_indices;
    data.resize(std::max(data.size(), at.size()));
    for (size_t j = 0; j < data.size(); ++j) {
      contract::DataIndex& d = data[j];
      d.index.tensors.resize(s_.targets.size() - 1,
                             kUnresolved);  // points before this index was met
      d.index.offsets.resize(s_.targets.size() - 1, 0);
      if (j >= at.size()) {
        d.index.tensors.push_back(kUnresolved);
        d.index.offsets.push_back(0);
        continue;
      }
      if (!at[j].items.empty()) s_.reads[k].items = at[j].items;
      if (d.extent == 0) {
        d.stride = at[j].stride;
        d.extent = at[j].extent;
      } else if (d.stride != at[j].stride || d.extent != at[j].extent) {
        unsupported("an index read from tensors of different shapes", reads_[k]);
      }
      d.index.tensors.push_back(at[j].tensor);
      d.index.offsets.push_back(at[j].offset);
    }
  }

  bool truth(const Expr& e) const {
    const Val c = eval(e);
    if (c.kind == Val::Kind::Bool) return c.b;
    if (c.is_pack() &&
        std::all_of(c.items.begin(), c.items.end(), [](const Val& x) { return x.kind == Val::Kind::Bool; }))
      return std::all_of(c.items.begin(), c.items.end(), [](const Val& x) { return x.b; });
    refuse("nnef2.eval.type", op_ + ": the condition " + to_sexpr(e) + " is " + show(c) + ", not a bool" + where());
  }

  // The numbers and reads of the point, down the branches its index conditions
  // take; false where a guarded index out of bounds skips the point (§2.11: the
  // whole assignment is skipped).
  bool resolve(int64_t at, PointValues& v) {
    const contract::Node& n = nodes_[static_cast<size_t>(at)];
    const Expr* e = exprs_[static_cast<size_t>(at)];
    const int64_t lane = node_lanes_[static_cast<size_t>(at)];
    switch (n.kind) {
      case NodeKind::Number:
        v.numbers[static_cast<size_t>(n.slot)] = number_at(*e, lane);
        return true;
      case NodeKind::IndexSelect: {
        const bool c = truth(*e);
        v.numbers[static_cast<size_t>(n.slot)] = c ? 1.0 : 0.0;
        return resolve(c ? n.a : n.b, v);
      }
      case NodeKind::Read: {
        const Slicing in_lane(*this, lane);
        return read_at(*e, static_cast<size_t>(n.slot), v);
      }
      default:
        for (int64_t k : {n.a, n.b, n.c})
          if (k >= 0 && !resolve(k, v)) return false;
        return true;
    }
  }

  // The number e is at the point; in lane q of a packed assignment, item q of a pack.
  double number_at(const Expr& e, int64_t lane) const {
    Val x;
    {
      const Slicing in_lane(*this, lane);
      x = eval(e);
    }
    if (lane >= 0 && x.is_pack()) {
      if (static_cast<size_t>(lane) >= x.items.size())
        refuse("nnef2.eval.length", op_ + ": " + to_sexpr(e) + " at " + located(e.loc) + " is " + show(x) +
                                        ", not an item for each element of the packed target" + where());
      Val item = x.items[static_cast<size_t>(lane)];
      x = std::move(item);
    }
    if (x.kind == Val::Kind::Int) return static_cast<double>(x.i);
    if (x.kind == Val::Kind::Real) return x.r;
    if (x.kind == Val::Kind::Bool) return x.b ? 1.0 : 0.0;
    refuse(x.is_null() ? "nnef2.lower.null" : "nnef2.eval.type",
           op_ + ": " + to_sexpr(e) + " at " + located(e.loc) + " is " + show(x) + ", not a number" + where());
  }

  bool read_at(const Expr& e, size_t slot, PointValues& v) const {
    v.data[slot].clear();
    const std::optional<std::pair<int64_t, int64_t>> element = element_at(e, &v.data[slot]);
    if (!element) return false;
    v.tensors[slot] = element->first;
    v.offsets[slot] = element->second;
    return true;
  }

  // The tensor an access reads (an output as −1 − k, else an operand) and the
  // element's offset; nullopt where a guarded index skips the point. `data`
  // takes the indices read from tensors (none where it is null: a target, or an
  // index of such an index).
  std::optional<std::pair<int64_t, int64_t>> element_at(const Expr& e, std::vector<DataIndexAt>* data) const {
    if (const std::optional<int64_t> k = tensors_.output(tensor_name(e))) {
      const std::optional<int64_t> o = offset(e, tensors_.output_shapes[static_cast<size_t>(*k)], data);
      if (!o) return std::nullopt;
      return std::pair{-1 - *k, *o};
    }
    Val t = env_.symbols.at(tensor_name(e));
    const Expr* pack_index = pack_index_of(e);
    if (pack_index && is_access(*pack_index)) return chosen_item(e, t, data);
    if (pack_index) {
      const std::vector<int64_t> k = as_ints(eval(*pack_index));
      if (!t.is_pack() || k.size() != 1 || k[0] < 0 || static_cast<size_t>(k[0]) >= t.items.size())
        refuse("nnef2.eval.index", op_ + ": no item " + to_sexpr(*pack_index) + " of " + tensor_name(e) + where());
      Val item = t.items[static_cast<size_t>(k[0])];  // not assigned from within t itself
      t = std::move(item);
    }
    if (t.kind != Val::Kind::Tensor) unsupported("a read of a pack without an item", &e);
    const std::optional<int64_t> o = offset(e, t.shape, data);
    if (!o) return std::nullopt;
    return std::pair{tensors_.operand(t), *o};
  }

  // A pack item the data choose (argmax_n's `xs[y[i..]][i..]`): the items, of
  // one shape, are the read's candidates, and the int element y[i..] its first
  // data index, of stride 0 (it names the item, not a position).
  std::optional<std::pair<int64_t, int64_t>> chosen_item(const Expr& e, const Val& pack,
                                                         std::vector<DataIndexAt>* data) const {
    if (!data) unsupported("a pack item chosen by tensor values in a target or in an index", &e);
    const Expr& index = *pack_index_of(e);
    if (kind_named(tensor_name(index)) != ElemKind::Integer)
      unsupported("a pack item chosen by a tensor that is not an int one", &index);
    const auto tensor_like = [&](const Val& x) {
      return x.kind == Val::Kind::Tensor && x.shape == pack.items[0].shape;
    };
    if (!pack.is_pack() || pack.items.empty() || !std::all_of(pack.items.begin(), pack.items.end(), tensor_like))
      unsupported("a pack item chosen by tensor values from a pack of tensors of different shapes", &e);
    const std::optional<std::pair<int64_t, int64_t>> element = element_at(index, nullptr);
    if (!element) return std::nullopt;
    DataIndexAt chooser{element->first, element->second, 0, static_cast<int64_t>(pack.items.size())};
    for (const Val& item : pack.items) chooser.items.push_back(tensors_.operand(item));
    data->push_back(chooser);
    const std::optional<int64_t> o = offset(e, pack.items[0].shape, data);
    if (!o) return std::nullopt;
    return std::pair{chooser.items[0], *o};
  }

  // The row-major offset of the element an access names in a tensor of `shape`;
  // nullopt where a guarded index |i| is out of bounds. An unguarded index out
  // of bounds is an error. An index read from an int tensor adds its
  // DataIndexAt to `data`.
  std::optional<int64_t> offset(const Expr& access, const std::vector<int64_t>& shape,
                                std::vector<DataIndexAt>* data = nullptr) const {
    std::vector<DataSource> from_data;
    const Val indices = indices_of(access, from_data);
    if (indices.is_null()) refuse("nnef2.lower.null", op_ + ": " + to_sexpr(access) + " has a null index" + where());
    if (indices.items.size() != shape.size())
      refuse("nnef2.lower.rank", op_ + ": " + to_sexpr(access) + " at " + located(access.loc) + " has " +
                                     std::to_string(indices.items.size()) + " indices for a tensor of rank " +
                                     std::to_string(shape.size()));
    int64_t flat = 0;
    for (size_t k = 0; k < shape.size(); ++k) {
      if (from_data[k].access) {
        if (!data)
          unsupported(
              "an index computed from tensor values in the target of an assignment other than := "
              "or in such an index",
              from_data[k].access);
        const std::optional<DataIndexAt> d = data_index(from_data[k], shape, k);
        if (!d) return std::nullopt;
        data->push_back(*d);
      }
      const Val& x = indices.items[k];
      if (x.kind != Val::Kind::Int)
        refuse("nnef2.eval.type", op_ + ": the index " + show(x) + " is not an int" + where());
      int64_t i = x.i;
      if (i < 0 || i >= shape[k]) {
        if (x.guard == Val::Guard::Skip) return std::nullopt;
        if (x.guard == Val::Guard::Remap) i = i < 0 ? x.low : x.high;
      }
      if (i < 0 || i >= shape[k])
        refuse("nnef2.lower.out-of-bounds", op_ + ": " + to_sexpr(access) + " at " + located(access.loc) + " indexes " +
                                                show(indices) + " in a tensor of shape " + show(Val::ints(shape)) +
                                                where());
      flat = flat * shape[k] + i;
    }
    return flat;
  }

  // The int tensor element that gives index k of an access into a tensor of
  // `shape`.
  std::optional<DataIndexAt> data_index(const DataSource& source, const std::vector<int64_t>& shape, size_t k) const {
    const Expr& index = *source.access;
    if (kind_named(tensor_name(index)) != ElemKind::Integer)
      unsupported("an index read from a tensor that is not an int one", &index);
    const Slicing at(*this, source.sliced);
    const std::optional<std::pair<int64_t, int64_t>> element = element_at(index, nullptr);
    if (!element) return std::nullopt;
    int64_t stride = 1;
    for (size_t j = k + 1; j < shape.size(); ++j) stride *= shape[j];
    return DataIndexAt{element->first, element->second, stride, shape[k]};
  }

  // The output the target writes at the current point: its tensor, or the item of a packed output
  // its pack index names.
  int64_t target_output() const {
    const Expr& target = *l_.target;
    if (!pack_index_of(target)) return s_.output;
    const Val k = eval(*pack_index_of(target));
    const std::optional<int64_t> o =
        k.kind == Val::Kind::Int ? tensors_.output_item(tensor_name(target), k.i) : std::nullopt;
    if (!o)
      refuse("nnef2.eval.index", op_ + ": no item " + show(k) + " of the packed output " + tensor_name(target) +
                                     " at " + located(target.loc) + where());
    return *o;
  }

  // The outputs the kept points write, in order; an update writes one (the order of its points
  // across the items would otherwise change).
  std::vector<int64_t> written_outputs() const {
    std::vector<int64_t> outputs = point_outputs_;
    std::sort(outputs.begin(), outputs.end());
    outputs.erase(std::unique(outputs.begin(), outputs.end()), outputs.end());
    if (outputs.empty()) outputs.push_back(s_.output);
    if (outputs.size() > 1 && s_.op == Assign::Update)
      unsupported("an update (:=) of several items of a packed output", l_.target.get());
    return outputs;
  }
  // The statement restricted to the points that write output o.
  contract::Statement points_writing(int64_t o) const {
    contract::Statement s = s_;
    s.output = o;
    if (std::all_of(point_outputs_.begin(), point_outputs_.end(), [&](int64_t x) { return x == o; })) return s;
    const auto keep = [&](auto& v) {
      if (v.size() != point_outputs_.size()) return;  // one entry for every point
      size_t n = 0;
      for (size_t p = 0; p < v.size(); ++p)
        if (point_outputs_[p] == o) v[n++] = v[p];
      v.resize(n);
    };
    keep(s.targets);
    for (contract::Lane& l : s.lanes) keep(l.targets);
    for (auto& t : s.tables) keep(t);
    const auto keep_indices = [&](std::vector<contract::DataIndex>& indices) {
      for (contract::DataIndex& d : indices) {
        keep(d.index.tensors);
        keep(d.index.offsets);
      }
    };
    for (contract::Read& r : s.reads) {
      keep(r.tensors);
      keep(r.offsets);
      keep_indices(r.data_indices);
    }
    keep_indices(s.target_indices);
    return s;
  }

  // A table or a read that is the same at every point keeps one entry.
  static void compress(contract::Statement& s) {
    const auto uniform = [](auto& v) {
      if (v.size() > 1 && std::all_of(v.begin(), v.end(), [&](const auto& x) { return x == v[0]; })) v.resize(1);
    };
    for (auto& t : s.tables) {
      if (t.empty()) t.push_back(0.0);  // no point: the table is never read
      uniform(t);
    }
    for (contract::Read& r : s.reads) {
      if (r.tensors.empty()) r.tensors.push_back(0);
      uniform(r.tensors);
      fill_unresolved(r);
      for (contract::DataIndex& d : r.data_indices) uniform(d.index.tensors);
    }
    for (contract::DataIndex& d : s.target_indices) uniform(d.index.tensors);
  }

  // A data index at a point that never reads it names the element of the first
  // point that does, so that every element the program names exists; a read no
  // point resolves keeps none.
  static void fill_unresolved(contract::Read& r) {
    for (contract::DataIndex& d : r.data_indices) {
      std::vector<int64_t>& tensors = d.index.tensors;
      const auto first = std::find_if(tensors.begin(), tensors.end(), [](int64_t t) { return t != kUnresolved; });
      if (first == tensors.end()) {
        r.data_indices.clear();
        r.items.clear();
        return;
      }
      const size_t at = static_cast<size_t>(first - tensors.begin());
      for (size_t p = 0; p < tensors.size(); ++p)
        if (tensors[p] == kUnresolved) {
          tensors[p] = tensors[at];
          d.index.offsets[p] = d.index.offsets[at];
        }
    }
  }

  const std::string& op_;
  const Lowering& l_;
  Evaluator env_;
  Tensors& tensors_;
  contract::Statement s_;
  std::map<std::string, Local> locals_;
  std::vector<Loop> loops_;
  std::vector<std::string> loop_indices_;
  std::vector<contract::Node> nodes_;
  std::vector<const Expr*> exprs_;
  std::vector<int64_t> node_lanes_;  // per node: its lane of a packed assignment, or −1
  std::vector<int64_t> truncated_;   // the nodes of int(x) of reals
  std::vector<Type> types_;  // per node
  std::vector<const Expr*> reads_;
  std::vector<Type> read_types_;
  size_t tables_ = 0;
  int64_t points_ = 0;
  mutable int64_t sliced_value_ = -1, sliced_axis_ = -1;  // Slicing's
  int64_t point_output_ = 0;                              // the output the current point writes
  std::vector<int64_t> point_outputs_;                    // per kept point
  bool packed_ = false;                                   // a packed assignment
  bool deferred_ = false, value_compiled_ = false;        // a value compiled at the first point
  int64_t lane_ = -1;                                     // the lane being compiled
};

}  // namespace

bool has_lowering(const OpDef& def) {
  return std::any_of(def.blocks.begin(), def.blocks.end(),
                     [](const Block& b) { return b.kind == BlockKind::Lower && !b.lowerings.empty(); });
}

std::vector<Val> build_lowered(Builder& b, const std::string& name, const OpDef& def, const BoundInvocation& bound,
                               const std::string& node_name) {
  Tensors tensors{bound.output_names, bound.output_shapes};
  for (size_t k = 0; k < bound.output_types.size(); ++k) {
    const ElemKind kind = kind_of(bound.output_types[k]);
    if (k > 0 && kind != tensors.output_kind)
      refuse("nnef2.lower.unsupported", name + ": the @lower interpreter does not take outputs of different types (" +
                                            bound.output_names[k] + ")");
    tensors.output_kind = kind;
  }
  contract::Program p;
  std::vector<bool> initialized(bound.output_names.size(), false);
  for (const Block& block : def.blocks) {
    if (block.kind != BlockKind::Lower) continue;
    for (const Lowering& l : block.lowerings)
      for (contract::Statement& statement : StatementBuilder(name, l, bound.env, tensors).build()) {
        const auto output = static_cast<size_t>(statement.output);
        if (statement.op == Assign::Update && !initialized[output])
          refuse("nnef2.lower.no-initial-value", name + ": the update (:=) of " + bound.output_names[output] + " at " +
                                                     located(l.loc) + " has no `=` of it before (§2.11)");
        if (statement.op == Assign::Set) initialized[output] = true;
        p.statements.push_back(std::move(statement));
      }
  }
  for (const Val& t : tensors.inputs) p.inputs.push_back(t.shape);
  p.outputs = bound.output_shapes;
  return b.add_node(node_name,
                    ContractAttrs{static_cast<int64_t>(tensors.inputs.size()), contract::encode(p), tensors.kinds,
                                  tensors.output_kind},
                    tensors.inputs);
}

}  // namespace nnref::nnef2
