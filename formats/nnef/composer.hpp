// Composition (§3.3, §6): evaluates the graph body of a parsed document into an IR Graph. Every
// invocation is checked against its fragment's declaration (argument names and counts, types,
// generic deduction, defaults); a standard fragment that has an IR counterpart is lowered to it
// (lower_ops.cpp); any other fragment with a body is expanded from that body; the rest is
// nnef.op-unsupported. Stops at the first error, which it reports located in the document.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "formats/model.hpp"
#include "formats/nnef/ast.hpp"
#include "formats/nnef/lexer.hpp"
#include "formats/nnef/value.hpp"

namespace nnref::nnef {

// Thrown after the error is reported: composition stops.
struct ComposeError {};

// A quantization algorithm of graph.quant (§5.3) for one tensor identifier.
struct QuantEntry {
  std::string algorithm;
  std::map<std::string, Value> args;
  SourceLoc loc;
};

// What a variable reads from its .dat file: its data (none when weights are skipped or absent)
// and whether its items were quantized (and dequantized through graph.quant).
struct VariableData {
  std::optional<HostTensor> tensor;
  bool dequantized = false;
  std::string source;
};
// label, declared shape, item kind, the variable's identifier, the location of the invocation.
using VariableLoader = std::function<VariableData(const std::string&, const std::vector<int64_t>&, ElemKind,
                                                  const std::string&, const SourceLoc&)>;

class Composer {
 public:
  using Args = std::map<std::string, Value>;

  Composer(Model& model, Diags& diags, int64_t max_memory, VariableLoader loader,
           const std::map<std::string, QuantEntry>& quant);

  // Declares the fragments (the standard ones, then the document's) and composes the graph.
  void compose(const std::vector<Fragment>& standard, const Document& doc);
  // A compile-time expression outside any fragment (graph.quant's arguments).
  Value constant_expression(const ExprPtr& e) {
    Scope none;
    return eval(e, none);
  }
  // The identifiers of the graph's body, once composed.
  const std::set<std::string>& graph_identifiers() const { return graph_ids_; }
  // Whether the document read extents with shape_of, which fixes them (no size names then).
  bool used_shape_of() const { return used_shape_of_; }
  // The first operation whose lowering depends on the declared extents (no size names then either),
  // and where it is; empty when none.
  const std::string& extents_fixed_by() const { return extents_fixed_by_; }
  const SourceLoc& extents_fixed_at() const { return extents_fixed_at_; }
  void fix_extents(const std::string& operation, const SourceLoc& loc) {
    if (extents_fixed_by_.empty()) extents_fixed_by_ = operation, extents_fixed_at_ = at(loc);
  }

  // The interface lower_ops.cpp builds with.
  [[noreturn]] void fail(const std::string& code, const std::string& message, const SourceLoc& loc,
                         std::vector<std::string> notes = {});
  // Valid until the next add_node (which grows the table).
  const TensorInfo& info(const Value& tensor) const { return tensors_[tensor.tensor]; }
  // Adds an IR node reading these tensors; its output shapes come from the op's rule at the
  // declared sizes, and an obligation that fails there is an error at `loc`.
  std::vector<Value> add_node(const std::string& op, OpAttrs attrs, const std::vector<Value>& inputs,
                              const SourceLoc& loc);
  Value add_node1(const std::string& op, OpAttrs attrs, const std::vector<Value>& inputs, const SourceLoc& loc) {
    return add_node(op, std::move(attrs), inputs, loc)[0];
  }
  // The element kind `?` stands for in the standard fragment being lowered (cast<integer>: Integer);
  // none for a string or no generic.
  std::optional<ElemKind> generic_kind() const;
  // The name of the node add_node made last.
  const std::string& last_node_name() const { return graph().nodes.back().name; }
  // A tensor holding one scalar, its shape [1] (§4.1.2: a literal in a tensor's place).
  Value literal_tensor(const Real& v, ElemKind kind, const SourceLoc& loc);
  // A literal tensor of this shape and kind holding these values in row-major order (the constant
  // filters and index tables lower_resample.cpp builds; the shape's volume is the values' count).
  Value literal_tensor(const std::vector<double>& values, const std::vector<int64_t>& shape, const SourceLoc& loc,
                       ElemKind kind = ElemKind::Real);
  // A variable or literal tensor whose data becomes the parameter `role` of the node just added,
  // reshaped to `shape` (its values in row-major order; one value fills it); false for a
  // computed tensor, which has no data to give.
  bool bind_param(const Value& tensor, const std::string& role, const std::vector<int64_t>& shape);
  // Applies a fragment by name to bound arguments (a tensor in place of `first`), as an invocation would.
  std::vector<Value> apply(const std::string& fragment, Args args, const SourceLoc& loc);

 private:
  using Scope = std::map<std::string, Value>;
  struct Frame {
    std::string fragment;
    SourceLoc call;
    std::optional<Type::Kind> generic;
  };

  const Graph& graph() const { return model_.graph; }
  void declare(const Fragment& f);
  void check_declaration(const Fragment& f);
  void compose_graph(const GraphDecl& g);

  Value eval(const ExprPtr& e, Scope& scope);
  Value eval_rhs(const ExprPtr& e, Scope& scope);
  Value eval_binary(const Expr& e, Scope& scope);
  Value eval_unary(const Expr& e, Scope& scope);
  Value eval_for(const Expr& e, Scope& scope);
  Value eval_subscript(const Expr& e, Scope& scope);
  Value eval_builtin(const Expr& e, Scope& scope);
  Value eval_call(const Expr& e, Scope& scope, bool single);
  std::vector<Value> invoke(const Fragment& f, std::vector<Value> positional,
                            std::vector<std::pair<std::string, Value>> named, const std::string& generic,
                            const SourceLoc& loc);
  std::vector<Value> expand(const Fragment& f, Args args, const std::optional<Type::Kind>& generic,
                            const SourceLoc& loc);
  std::vector<Value> introduce(const Fragment& f, const Args& args, const std::optional<Type::Kind>& generic,
                               const SourceLoc& loc);
  Value cast(const Value& v, const Type& t, std::optional<Type::Kind>& generic, const std::string& what,
             const SourceLoc& loc);
  void assign(const Expr& lhs, const Value& v, Scope& scope, bool graph_level, const SourceLoc& loc);
  Value quantized(const std::string& id, const Value& v, const SourceLoc& loc);
  ValueRef materialise(const Value& tensor);
  Real real_of(const Value& primitive, const SourceLoc& loc);
  // A node name not yet used: `base` (the statement's identifier when empty), else base/op, base/op_2, ...
  std::string fresh_name(const std::string& op, std::string base = {});
  // After a graph statement `id = ...` or `a, b = ...`: the node that computes each identifier's
  // value is named after it, as the writer names the values it writes (the first node made took
  // the first identifier's name; it becomes id/op).
  void name_statement_results(const Expr& lhs, const Scope& scope);
  void rename_node(int64_t id, const std::string& name);
  SourceLoc at(const SourceLoc& loc) const;
  void check_volume(const std::vector<int64_t>& shape, const std::string& what, const SourceLoc& loc);

  Model& model_;
  Diags& diags_;
  int64_t max_memory_;
  int64_t variable_bytes_ = 0;
  VariableLoader loader_;
  const std::map<std::string, QuantEntry>& quant_;
  std::map<std::string, const Fragment*> fragments_;
  std::vector<TensorInfo> tensors_;
  std::vector<Frame> frames_;
  std::set<std::string> names_;
  std::map<std::string, std::pair<std::string, std::vector<int64_t>>> labels_;  // lower-case label → label, shape
  std::string statement_;  // the graph identifier the current statement assigns (node names start with it)
  std::vector<std::pair<int64_t, std::string>> statement_nodes_;  // the nodes it made so far, with their ops
  std::set<std::string> graph_params_, externals_, graph_ids_;
  bool in_graph_ = false;
  bool used_shape_of_ = false;
  std::string extents_fixed_by_;
  SourceLoc extents_fixed_at_;
};

}  // namespace nnref::nnef
