#include "cli/audit_stdlib.hpp"

#include <z3++.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checker/check_model.hpp"
#include "checker/sym_dim.hpp"
#include "formats/nnef2/ast_print.hpp"
#include "formats/nnef2/bind.hpp"
#include "formats/nnef2/library.hpp"
#include "spec/size_program.hpp"

namespace nnref {

namespace {

using nnef2::located;

using nnef2::Val;

// Composition runs at one sample: every input extent 8 (equal extents satisfy the equalities
// definitions state between inputs), each packed extent item 2 axes long (else 1, 3 or 0). The
// terms it keeps say what the values are at every other size.
constexpr int64_t kSampleExtent = 8;
constexpr int64_t kPackLengths[] = {2, 1, 3, 0};
constexpr int64_t kPackedInputs = 2;  // tensors given to an input declared as a pack of them
// Z3's resource units per goal: a deterministic limit (a time limit would make the report differ
// from one machine to another); ten times a check's default.
constexpr unsigned kSolverBudget = 10 * kDefaultSolverBudget;

// A goal: `holds` under the facts of the operator and its own (a statement's loop ranges).
struct Goal {
  SymPred holds;
  std::string what;
  std::vector<z3::expr> facts;
};

struct Unauditable {
  std::string why;
};

// The sizes of one instance: per handle (a tensor, or a statement's loop indices) its extents as
// Z3 terms. Size programs run over them, and what they require (divisors of at least 1) are goals.
class Sizes final : public ObligationSink<SymDim> {
 public:
  explicit Sizes(z3::context& c) : c_(&c) {}

  // A handle of `rank` free sizes named name.0, name.1, ..., each at least `low`.
  int64_t add_free(size_t rank, const std::string& name, int64_t low, std::vector<z3::expr>& facts) {
    Dims<SymDim> dims;
    for (size_t k = 0; k < rank; ++k) {
      const z3::expr x = c_->int_const((name + "." + std::to_string(k)).c_str());
      facts.push_back(x >= c_->int_val(low));
      dims.push_back(SymDim(x));
    }
    table_.push_back(std::move(dims));
    return static_cast<int64_t>(table_.size() - 1);
  }
  int64_t add(Dims<SymDim> dims) {
    table_.push_back(std::move(dims));
    return static_cast<int64_t>(table_.size() - 1);
  }
  const Dims<SymDim>& extents(int64_t handle) const { return table_.at(static_cast<size_t>(handle)); }

  // The one value `code` leaves (kExtent h k: extent k of handle h).
  SymDim value(const std::vector<int64_t>& code) {
    const auto r = run_size_program<SymDim>(code, table_, *this, "a term");
    if (!r || r->size() != 1) throw Unauditable{"a term of the composition does not compute one value"};
    return (*r)[0].value;
  }
  SymDim value(const Val& v) { return value(nnef2::code_of(v)); }

  void require(const SymPred& holds, const ObligationSpec&, std::string message) override {
    goals.push_back({holds, message, facts_now});
  }

  std::vector<Goal> goals;
  std::vector<z3::expr> facts_now;  // the facts of the statement audited now

 private:
  z3::context* c_;
  std::vector<Dims<SymDim>> table_;
};

const std::vector<nnef2::ParamDef>& params(const nnef2::OpDef& def, nnef2::BlockKind kind) {
  static const std::vector<nnef2::ParamDef> none;
  for (const nnef2::Block& b : def.blocks)
    if (b.kind == kind) return b.params;
  return none;
}

// The operator's required inputs as tensors of free extents (of their declared type; a generic's: real), each
// packed extent item `length` axes; with `attributes`, each attribute without a default is given 1 (an int, a real;
// a pack of them is uniform) or false.
nnef2::InvocationArgs sample_inputs(const nnef2::OpDef& def, int64_t length, bool attributes, Sizes& sizes,
                                    std::vector<z3::expr>& facts, nnef2::SizeConditions& conditions) {
  nnef2::InvocationArgs args;
  args.conditions = &conditions;
  for (const nnef2::ParamDef& a : params(def, nnef2::BlockKind::Attrib)) {
    if (!attributes || a.value || a.type.optional) continue;
    if (a.type.type == "int") args.attributes[a.name] = Val::integer(1);
    if (a.type.type == "real") args.attributes[a.name] = Val::real(1.0);
    if (a.type.type == "bool") args.attributes[a.name] = Val::boolean(false);
  }
  for (const nnef2::ParamDef& p : params(def, nnef2::BlockKind::Input)) {
    if (p.type.optional) {
      args.inputs.emplace_back();
      continue;
    }
    size_t rank = 0;
    for (const nnef2::ShapeItem& item : p.type.shape) rank += item.pack ? static_cast<size_t>(length) : 1;
    const nnef2::ElemType type = nnef2::elem_type(p.type.type).value_or(nnef2::ElemType::Real);  // a generic: real
    const auto tensor = [&](const std::string& name) {
      return Val::of_tensor(sizes.add_free(rank, name, 1, facts), std::vector<int64_t>(rank, kSampleExtent), type);
    };
    if (!p.type.pack) {
      args.inputs.push_back(tensor(p.name));
      continue;
    }
    std::vector<Val> items;
    for (int64_t k = 0; k < kPackedInputs; ++k) items.push_back(tensor(p.name + "[" + std::to_string(k) + "]"));
    args.inputs.push_back(Val::pack(std::move(items)));
  }
  return args;
}

// A tensor access, made where its conditions (size programs, each not 0) hold.
struct Access {
  const nnef2::Expr* expr;
  std::vector<std::vector<int64_t>> conditions;
};

// The tensor accesses `e` makes: of a select whose condition is the same at every size (an
// attribute's), those of the branch it takes; of one whose condition depends on the sizes or the
// indices, those of each branch where the condition takes it.
void collect_accesses(const nnef2::Expr& e, const nnef2::Evaluator& env, std::vector<std::vector<int64_t>> conditions,
                      std::vector<Access>& out) {
  using namespace size_code;
  if (e.kind == nnef2::ExprKind::TensorAccess) out.push_back({&e, conditions});
  if (e.kind == nnef2::ExprKind::Select) {
    const Val c = env.eval(*e.args[0]);
    if (c.kind == Val::Kind::Bool && !c.term) {
      const size_t taken = c.b ? 1 : 2;
      if (taken < e.args.size() && e.args[taken]) collect_accesses(*e.args[taken], env, conditions, out);
      return;
    }
    if (c.kind == Val::Kind::Bool) {
      for (size_t branch : {1, 2}) {
        if (branch >= e.args.size() || !e.args[branch]) continue;
        std::vector<std::vector<int64_t>> where = conditions;
        where.push_back(*c.term);
        if (branch == 2) where.back().push_back(kNot);
        collect_accesses(*e.args[branch], env, where, out);
      }
      return;
    }
  }
  for (const nnef2::ExprPtr& a : e.args)
    if (a) collect_accesses(*a, env, conditions, out);
}

class Auditor {
 public:
  Auditor(z3::context& c, const nnef2::Module& m, const nnef2::OpDef& def) : c_(c), module_(m), def_(def), sizes_(c) {
    outcome_.op = m.name + "." + def.name;
  }

  OperatorAudit run() {
    std::optional<nnef2::BoundInvocation> bound;
    std::string why;
    for (bool attributes : {false, true})
      for (int64_t length : kPackLengths) {
        if (bound) break;
        facts_.clear();
        conditions_.clear();
        sizes_ = Sizes(c_);
        try {
          const nnef2::InvocationArgs args = sample_inputs(def_, length, attributes, sizes_, facts_, conditions_);
          bound = nnef2::bind_invocation(def_, outcome_.op, args, module_.text);
        } catch (const nnef2::BindError& e) {
          if (!attributes || why.empty()) why = e.message;
        }
      }
    if (!bound) {
      outcome_.not_audited = "no sample binds: " + why;
      return outcome_;
    }
    try {
      state_conditions();
      outputs(*bound);
      constants(*bound);
      for (const nnef2::Block& b : def_.blocks) {
        if (b.kind == nnef2::BlockKind::Lower)
          for (const nnef2::Lowering& l : b.lowerings) lowering(l, *bound);
        if (b.kind == nnef2::BlockKind::Compose) composition(b, *bound);
      }
      prove();
    } catch (const Unauditable& u) {
      outcome_.not_audited = u.why;
    }
    return outcome_;
  }

 private:
  // That the condition `code` computes holds (is not 0), as a Z3 boolean.
  z3::expr holds(const std::vector<int64_t>& code) {
    return SymPred(sizes_.value(code) != SymDim(int64_t{0})).term(c_);
  }

  // The definition's conditions (assertions, required extents) are facts; so are the numbers the
  // composition used at the sample (counted: the audit holds where they keep their value).
  void state_conditions() {
    for (const nnef2::SizeCondition& cond : conditions_) {
      facts_.push_back(holds(cond.code));
      outcome_.pinned += cond.assumed;
    }
    conditions_.clear();
  }

  void outputs(const nnef2::BoundInvocation& b) {
    for (size_t k = 0; k < b.output_names.size(); ++k) {
      Dims<SymDim> dims;
      for (size_t i = 0; i < b.output_shapes[k].size(); ++i) {
        const nnef2::SizeTerm& term = b.output_terms[k][i];
        const SymDim d = term ? sizes_.value(*term) : SymDim(b.output_shapes[k][i]);
        sizes_.goals.push_back({d >= SymDim(int64_t{0}),
                                "extent " + std::to_string(i) + " of output '" + b.output_names[k] + "' >= 0",
                                {}});
        dims.push_back(d);
      }
      outputs_[b.output_names[k]] = {sizes_.add(std::move(dims)), b.output_shapes[k]};
    }
  }

  // The operator's @constant tensors, at the extents their declarations compute.
  void constants(const nnef2::BoundInvocation& b) {
    nnef2::Evaluator env = b.env;
    nnef2::SizeConditions pinned;
    env.conditions = &pinned;
    for (const nnef2::ParamDef& p : params(def_, nnef2::BlockKind::Constant)) {
      Dims<SymDim> dims;
      try {
        for (const nnef2::ShapeItem& item : p.type.shape) {
          const Val v = env.eval(*item.extent);
          for (const Val& x : v.is_pack() ? v.items : std::vector<Val>{v}) dims.push_back(sizes_.value(x));
        }
      } catch (const nnef2::EvalError& e) {
        outcome_.skipped.push_back("constant '" + p.name + "' (" + e.message + ")");
        continue;
      }
      outputs_[p.name] = {sizes_.add(std::move(dims)), {}};
    }
    for (const nnef2::SizeCondition& cond : pinned)
      facts_.push_back(holds(cond.code));
    outcome_.pinned += static_cast<int>(pinned.size());
  }

  // Each unguarded index of each tensor access of the statement, for every point of its loops
  // where its condition holds, is within its tensor's extent.
  void lowering(const nnef2::Lowering& l, const nnef2::BoundInvocation& b) {
    if (l.unroll ||
        std::any_of(l.locals.begin(), l.locals.end(), [](const nnef2::Binding& x) { return x.type.has_value(); })) {
      outcome_.skipped.push_back("the statement at " + located(l.loc) + " (unroll or a loop-carried variable)");
      return;
    }
    nnef2::Evaluator env = b.env;
    env.lowering = true;
    nnef2::SizeConditions pinned;
    env.conditions = &pinned;
    sizes_.facts_now.clear();
    const size_t first_goal = sizes_.goals.size();
    try {
      for (const nnef2::LoopBound& bound : l.bounds) env.symbols[bound.index] = loop_index(bound, env);
      for (const nnef2::Binding& local : l.locals) env.symbols[local.name] = env.eval(*local.value);
      if (l.condition) {
        const Val cond = env.eval(*l.condition);
        if (cond.kind == Val::Kind::Bool && !cond.term && !cond.b) return;  // never holds
        if (cond.term) sizes_.facts_now.push_back(holds(nnef2::code_of(cond)));
      }
      std::vector<Access> accesses;
      collect_accesses(*l.target, env, {}, accesses);
      collect_accesses(*l.value, env, {}, accesses);
      for (const Access& a : accesses) access(a, env);
    } catch (const nnef2::EvalError& e) {
      const bool data = e.code == "nnef2.eval.lowering";
      outcome_.skipped.push_back("the statement at " + located(l.loc) + " (" +
                                 (data ? "an index read from a tensor's values" : e.message) + ")");
    }
    // The numbers the index arithmetic used at the sample point are facts of the statement's goals.
    const size_t kept = sizes_.facts_now.size();
    for (const nnef2::SizeCondition& p : pinned)
      sizes_.facts_now.push_back(holds(p.code));
    for (size_t k = first_goal; k < sizes_.goals.size(); ++k)
      sizes_.goals[k].facts.insert(sizes_.goals[k].facts.end(), sizes_.facts_now.begin() + static_cast<long>(kept),
                                   sizes_.facts_now.end());
    outcome_.pinned += static_cast<int>(pinned.size());
    sizes_.facts_now.clear();
  }

  // Each component of @compose bound to its operator at the extents the components before it give,
  // the assertions of that operator goals, and the extents of the outputs composed equal to the
  // ones the definition declares.
  void composition(const nnef2::Block& compose, const nnef2::BoundInvocation& b) {
    nnef2::Evaluator env = b.env;
    nnef2::SizeConditions conditions;
    env.conditions = &conditions;
    for (const nnef2::Component& c : compose.components) {
      const std::string where = "the component at " + located(c.loc);
      if (c.form != nnef2::Component::Form::Computation || c.computation.block) {
        outcome_.skipped.push_back(where + " (if, loops and blocks)");
        return;
      }
      std::vector<std::string> names;
      for (const nnef2::Lvalue& l : c.lhs)
        for (const nnef2::LvalueItem& item : l.items)
          names.push_back(item.form == nnef2::LvalueItem::Form::Name && !item.pack ? item.names[0] : "");
      try {
        std::vector<Val> results;
        if (c.computation.call)
          results = component(*c.computation.call, env, conditions);
        else
          results = {env.eval(*c.computation.expr)};
        if (results.size() != names.size() || std::count(names.begin(), names.end(), "")) {
          outcome_.skipped.push_back(where + " (its results are not plain names, one a result)");
          return;
        }
        for (size_t k = 0; k < names.size(); ++k) env.symbols[names[k]] = results[k];
      } catch (const nnef2::EvalError& e) {
        outcome_.skipped.push_back(where + " (" + e.message + ")");
        return;
      } catch (const nnef2::BindError& e) {
        outcome_.skipped.push_back(where + " (" + e.message + ")");
        return;
      }
      for (const nnef2::SizeCondition& cond : conditions)
        facts_.push_back(holds(cond.code));
      outcome_.pinned += static_cast<int>(conditions.size());
      conditions.clear();
    }
    for (size_t k = 0; k < b.output_names.size(); ++k) {
      const auto it = env.symbols.find(b.output_names[k]);
      if (it == env.symbols.end() || it->second.kind != Val::Kind::Tensor) {
        outcome_.skipped.push_back("output '" + b.output_names[k] + "' (@compose does not give it a tensor)");
        continue;
      }
      const Dims<SymDim>& composed = sizes_.extents(it->second.tensor);
      const Dims<SymDim>& declared = sizes_.extents(outputs_.at(b.output_names[k]).first);
      PredOf<SymDim> same = composed.size() == declared.size();
      for (size_t i = 0; i < composed.size() && i < declared.size(); ++i) same = same && composed[i] == declared[i];
      sizes_.goals.push_back({same, "output '" + b.output_names[k] + "' as @compose computes it has the declared shape",
                              {}});
    }
  }

  // The tensors a component's invocation gives: its operator bound at the operands' extents, each
  // condition the operator states a goal, each result a handle of the extents it declares.
  std::vector<Val> component(const nnef2::Invocation& call, const nnef2::Evaluator& env,
                             nnef2::SizeConditions& pinned) {
    const size_t dot = call.op.rfind('.');
    const nnef2::Module* m = dot == std::string::npos ? &module_ : nnef2::find_module(call.op.substr(0, dot));
    const nnef2::OpDef* def = m ? nnef2::find_operator(*m, call.op.substr(dot == std::string::npos ? 0 : dot + 1))
                                : nullptr;
    if (!def) throw nnef2::EvalError{"nnef2.op.unknown", "no operator " + call.op, call.loc};
    nnef2::SizeConditions stated;
    nnef2::InvocationArgs args;
    args.conditions = &stated;
    for (const nnef2::Attribute& a : call.attributes) args.attributes[a.name] = env.eval(*a.value);
    for (const nnef2::ExprPtr& e : call.args) {
      Val v = e->kind == nnef2::ExprKind::Wildcard ? Val{} : env.eval(*e);
      if (const std::optional<nnef2::ElemType> literal = nnef2::elem_type_of(v))
        v = Val::of_tensor(sizes_.add({}), {}, *literal);  // a literal in a tensor's place: a tensor of rank 0
      args.inputs.push_back(std::move(v));
    }
    const nnef2::BoundInvocation bound = nnef2::bind_invocation(*def, call.op, args, m->text);
    for (const nnef2::SizeCondition& cond : stated) {
      if (cond.assumed) {
        pinned.push_back(cond);
        continue;
      }
      sizes_.goals.push_back({sizes_.value(cond.code) != SymDim(int64_t{0}),
                              call.op + " at " + located(call.loc) + ": " + cond.message,
                              {}});
    }
    std::vector<Val> results;
    for (size_t k = 0; k < bound.output_names.size(); ++k) {
      Dims<SymDim> dims;
      for (size_t i = 0; i < bound.output_shapes[k].size(); ++i) {
        const nnef2::SizeTerm& term = bound.output_terms[k][i];
        dims.push_back(term ? sizes_.value(*term) : SymDim(bound.output_shapes[k][i]));
      }
      results.push_back(Val::of_tensor(sizes_.add(std::move(dims)), bound.output_shapes[k], bound.output_types[k]));
    }
    return results;
  }

  // A loop index (a pack of them for a pack bound) free in [0, bound).
  Val loop_index(const nnef2::LoopBound& bound, const nnef2::Evaluator& env) {
    const Val limit = env.eval(*bound.limit);
    const std::vector<Val> limits = limit.is_pack() ? limit.items : std::vector<Val>{limit};
    std::vector<z3::expr> free;
    const int64_t h = sizes_.add_free(limits.size(), bound.index, 0, free);
    std::vector<Val> items;
    for (size_t k = 0; k < limits.size(); ++k) {
      if (limits[k].kind != Val::Kind::Int) throw nnef2::EvalError{"nnef2.eval.type", "a loop bound " + show(limit), bound.loc};
      sizes_.facts_now.push_back(free[k]);
      sizes_.facts_now.push_back(SymPred(sizes_.extents(h)[k] < sizes_.value(limits[k])).term(c_));
      Val i = Val::integer(0);
      i.term = std::make_shared<const std::vector<int64_t>>(
          std::vector<int64_t>{size_code::kExtent, h, static_cast<int64_t>(k)});
      items.push_back(std::move(i));
    }
    return limit.is_pack() ? Val::pack(std::move(items)) : items[0];
  }

  void access(const Access& made, const nnef2::Evaluator& env) {
    const nnef2::Expr& a = *made.expr;
    std::vector<z3::expr> facts = sizes_.facts_now;
    for (const std::vector<int64_t>& c : made.conditions)
      facts.push_back(holds(c));
    int64_t handle = -1;
    const auto out = outputs_.find(a.text);
    if (out != outputs_.end()) {
      handle = out->second.first;
    } else {
      const auto found = env.symbols.find(a.text);
      if (found == env.symbols.end()) throw nnef2::EvalError{"nnef2.eval.name", "no tensor " + a.text, a.loc};
      Val t = found->second;
      if (t.is_null()) return;  // an optional input not given: `x[i] ?? v` makes no access
      if (a.pack_index) {
        const Val k = env.eval(*a.pack_index);
        if (!t.is_pack() || k.kind != Val::Kind::Int || k.i < 0 || static_cast<size_t>(k.i) >= t.items.size())
          throw nnef2::EvalError{"nnef2.eval.index", "no item " + show(k) + " of " + a.text, a.loc};
        if (k.term) throw nnef2::EvalError{"nnef2.eval.index", "an item of a pack chosen by an index", a.loc};
        Val item = t.items[static_cast<size_t>(k.i)];
        t = std::move(item);
      }
      if (t.kind != Val::Kind::Tensor) throw nnef2::EvalError{"nnef2.eval.type", a.text + " is not a tensor", a.loc};
      handle = t.tensor;
    }
    const Val indices = env.items(a.args);
    if (indices.is_null()) return;  // a null index: the access is not made
    const Dims<SymDim>& extents = sizes_.extents(handle);
    const std::string name = nnef2::to_sexpr(a) + " at " + located(a.loc);
    if (indices.items.size() != extents.size()) {
      sizes_.goals.push_back({SymPred(false), name + ": as many indices as the tensor's rank", facts});
      return;
    }
    for (size_t k = 0; k < extents.size(); ++k) {
      const Val& x = indices.items[k];
      if (x.guard != Val::Guard::None) continue;
      if (x.kind != Val::Kind::Int) throw nnef2::EvalError{"nnef2.eval.type", "the index " + show(x), a.loc};
      const SymDim i = sizes_.value(x);
      sizes_.goals.push_back({i >= SymDim(int64_t{0}) && i < extents[k],
                              name + ": index " + std::to_string(k) + " in bounds", facts});
    }
  }

  void prove() {
    z3::solver s(c_);
    z3::params p(c_);
    p.set("rlimit", kSolverBudget);
    s.set(p);
    // The sample satisfies every fact (composition ran there), so they are never vacuous.
    for (const z3::expr& f : facts_) s.add(f);
    for (const Goal& g : sizes_.goals) {
      if (g.holds.is_known()) {  // a goal of numbers alone: only a false one is reported
        if (!g.holds.known()) outcome_.refuted.push_back(g.what);
        continue;
      }
      s.push();
      for (const z3::expr& f : g.facts) s.add(f);
      s.add(!g.holds.term());
      const z3::check_result r = s.check();
      if (r == z3::unsat) {
        ++outcome_.proved;
      } else if (r == z3::sat) {
        outcome_.refuted.push_back(g.what + " (counterexample: " + counterexample(s.get_model()) + ")");
      } else {
        outcome_.unknown.push_back(g.what);
      }
      s.pop();
    }
  }

  static std::string counterexample(const z3::model& m) {
    std::string out;
    for (unsigned k = 0; k < m.num_consts(); ++k) {
      const z3::func_decl d = m.get_const_decl(k);
      out += (out.empty() ? "" : ", ") + d.name().str() + " = " + m.get_const_interp(d).to_string();
    }
    return out;
  }

  z3::context& c_;
  const nnef2::Module& module_;
  const nnef2::OpDef& def_;
  Sizes sizes_;
  std::vector<z3::expr> facts_;
  nnef2::SizeConditions conditions_;
  // The outputs and @constant tensors: name → handle, sample shape (the outputs').
  std::map<std::string, std::pair<int64_t, std::vector<int64_t>>> outputs_;
  OperatorAudit outcome_;
};

}  // namespace

OperatorAudit audit_operator(const nnef2::Module& m, const nnef2::OpDef& def) {
  z3::context c;
  return Auditor(c, m, def).run();
}

int audit_stdlib_command(std::ostream& out, std::ostream& err) {
  if (!nnef2::standard_module_errors().empty()) {
    err << "error[nnef2.internal]: the standard library does not parse\n";
    return 1;
  }
  std::vector<OperatorAudit> outcomes;
  for (const nnef2::Module& m : nnef2::standard_modules())
    for (const nnef2::OpDef& def : m.doc.ops)
      if (!def.is_graph) outcomes.push_back(audit_operator(m, def));
  int audited = 0, proved = 0, refuted = 0, unknown = 0, pinned = 0;
  for (const OperatorAudit& o : outcomes) {
    audited += o.not_audited.empty();
    proved += o.proved;
    refuted += static_cast<int>(o.refuted.size());
    unknown += static_cast<int>(o.unknown.size());
    pinned += o.not_audited.empty() && o.pinned > 0;
  }
  out << "nnref check --audit-stdlib: " << outcomes.size() << " operators, " << audited << " audited: " << proved
      << " goals proved, " << refuted << " refuted, " << unknown << " unknown\n";
  for (const OperatorAudit& o : outcomes) {
    if (!o.not_audited.empty()) continue;
    out << "  " << o.op << ": " << o.proved << " proved";
    if (o.pinned) out << " (where " << o.pinned << " numbers keep their value at the sample)";
    out << "\n";
    for (const std::string& r : o.refuted) out << "    refuted: " << r << "\n";
    for (const std::string& u : o.unknown) out << "    unknown: " << u << "\n";
    for (const std::string& s : o.skipped) out << "    not audited: " << s << "\n";
  }
  out << "not audited (" << outcomes.size() - static_cast<size_t>(audited) << "):\n";
  for (const OperatorAudit& o : outcomes)
    if (!o.not_audited.empty()) out << "  " << o.op << ": " << o.not_audited << "\n";
  return refuted > 0 ? 1 : 0;
}

}  // namespace nnref
