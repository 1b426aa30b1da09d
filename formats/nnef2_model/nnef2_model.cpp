// The NNEF 2.0 entry points: folder → main.sknd → Document → (with the standard
// library and the variables' .dat files) Model. The first graph of the document
// is composed at the shapes it declares: its attributes from their defaults,
// its inputs, variables and constants, then each component of @compose bound to
// its operator's definition and built natively.
#include "formats/nnef2_model/nnef2_model.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "formats/nnef/dat.hpp"
#include "formats/nnef2/library.hpp"
#include "formats/nnef2/parser.hpp"
#include "formats/nnef2_model/builder.hpp"
#include "formats/nnef2_model/quantize.hpp"
#include "spec/size_program.hpp"

namespace nnref {

namespace fs = std::filesystem;

namespace {

using nnef2::located;
using nnef2::Val;

constexpr const char* kMainFile = "main.sknd";

// Stops the composition after its diagnostic is recorded.
struct Stop {};

const nnef2::Block* find_block(const nnef2::OpDef& op, nnef2::BlockKind kind) {
  for (const nnef2::Block& b : op.blocks)
    if (b.kind == kind) return &b;
  return nullptr;
}

class GraphComposer {
 public:
  GraphComposer(Model& model, const nnef2::Document& doc, std::string_view text, const std::string& folder,
                const LoadOptions& options, std::vector<Diagnostic>& out)
      : model_(model), doc_(doc), text_(text), folder_(folder), options_(options), out_(out), builder_(model) {
    env_.conditions = &conditions_;
  }

  void compose(const std::string& file) {
    resolve_imports();
    const nnef2::OpDef* graph = nullptr;
    for (const nnef2::OpDef& op : doc_.ops)
      if (op.is_graph && !graph) graph = &op;
    if (!graph) error("nnef2.graph.missing", "the document defines no graph", SourceLoc{file, 1, 1});
    graph_ = graph;
    for (const nnef2::Block& b : graph->blocks) refuse_block(b);
    attributes();
    inputs();
    quantizations();
    const std::string scope = "main." + graph_->name + ".";
    tensors(*graph_, nnef2::BlockKind::Constant, scope);
    tensors(*graph_, nnef2::BlockKind::Variable, scope);
    helpers();
    guard_sizes();
    if (const nnef2::Block* b = find_block(*graph, nnef2::BlockKind::Compose))
      for (const nnef2::Component& c : b->components) {
        component(c);
        guard_sizes();
      }
    outputs();
    guard_sizes();
  }
  bool weights_missing() const { return weights_missing_; }

 private:
  [[noreturn]] void error(const std::string& code, const std::string& message, const SourceLoc& loc,
                          std::vector<std::string> notes = {}) {
    Diagnostic d = make_error(code, message, loc);
    d.notes = std::move(notes);
    out_.push_back(std::move(d));
    throw Stop{};
  }
  Val eval(const nnef2::Expr& e) {
    try {
      return env_.eval(e);
    } catch (const nnef2::EvalError& x) {
      error(x.code, x.message, x.loc);
    }
  }

  void resolve_imports() {
    for (size_t i = 0; i < doc_.imports.size(); ++i)
      for (size_t k = 0; k < doc_.imports[i].size(); ++k) {
        const std::string& name = doc_.imports[i][k];
        if (!nnef2::find_module(name))
          error("nnef2.import.unknown",
                "import '" + name +
                    "': no standard module has that name (the standard modules "
                    "are layout, math, linalg, nn, image, quant and algo; "
                    "modules of the model "
                    "folder are not read yet)",
                doc_.import_locs[i][k]);
        imported_.push_back(name);
      }
  }

  void refuse_block(const nnef2::Block& b) {
    using K = nnef2::BlockKind;
    if (b.kind == K::Lower || b.kind == K::Update || b.kind == K::Dtype)
      error("nnef2.graph.block", "a graph's @lower, @update and @dtype blocks are not composed yet", b.loc);
  }

  void attributes() {
    const nnef2::Block* b = find_block(*graph_, nnef2::BlockKind::Attrib);
    if (!b) return;
    for (const nnef2::ParamDef& a : b->params) {
      if (!a.value)
        error("nnef2.graph.attribute",
              "graph attribute '" + a.name +
                  "' has no default: nnref gives a graph's "
                  "attributes no values of its own yet",
              a.loc);
      env_.symbols[a.name] = eval(*a.value);
      if (env_.symbols[a.name].kind == Val::Kind::Int) graph_attributes_.insert(a.name);
    }
  }

  // A declared tensor's shape, every extent a non-negative int that the graph's
  // symbols fix.
  std::vector<int64_t> static_shape(const nnef2::ParamDef& p) { return nnef2::as_ints(declared_extents(p)); }
  // A declared tensor's element type: real, int or bool.
  ElemKind declared_kind(const nnef2::ParamDef& p) { return declared_kind(p.name, p.type, p.loc); }
  ElemKind declared_kind(const std::string& name, const nnef2::TypeSpec& type, const SourceLoc& loc) {
    const std::optional<nnef2::ElemType> t = nnef2::elem_type(type.type);
    if (!t)
      error("nnef2.graph.declaration",
            "'" + name + "' is of type " + type.type + ": a graph's tensors are real, int or bool", loc);
    return nnef2::kind_of(*t);
  }
  // The same, each extent with its term (a graph attribute that is an input's extent has one).
  Val declared_extents(const nnef2::ParamDef& p) { return declared_extents(p.name, p.type, p.loc); }
  Val declared_extents(const std::string& name, const nnef2::TypeSpec& type, const SourceLoc& loc) {
    if (type.optional || type.pack)
      error("nnef2.graph.declaration", "'" + name + "': optional and packed graph tensors are not composed yet", loc);
    declared_kind(name, type, loc);
    std::vector<Val> shape;
    for (const nnef2::ShapeItem& item : type.shape) {
      if (item.extent->kind == nnef2::ExprKind::Wildcard || item.bound)
        error("nnef2.dynamic.shape", "'" + name + "' has a dynamic extent (§3.1), which is not composed yet", item.loc);
      const Val v = eval(*item.extent);
      if (v.is_null()) continue;
      for (const Val& x : v.is_pack() ? v.items : std::vector<Val>{v}) {
        if (x.kind != Val::Kind::Int || x.i < 1)
          error("nnef2.graph.extent",
                "'" + name + "' gets the extent " + nnef2::show(x) + ": extents are ints of at least 1", item.loc);
        shape.push_back(x);
      }
    }
    return Val::pack(std::move(shape));
  }

  void declare(const std::string& name, Val v, const SourceLoc& loc) {
    if (env_.symbols.count(name)) error("nnef2.graph.redefined", "'" + name + "' is defined twice", loc);
    env_.symbols[name] = std::move(v);
  }

  // Each input, and its size names: an extent written as an int graph attribute is named after it
  // (--dim varies the attribute; the attribute's term is then that extent), the others as in NNEF
  // 1.0: `batch` for axis 0, `<input>.<k>` for axis k.
  void inputs() {
    const nnef2::Block* b = find_block(*graph_, nnef2::BlockKind::Input);
    if (!b) return;
    for (const nnef2::ParamDef& p : b->params) {
      nnef2::Builder::Tensor t;
      t.shape = static_shape(p);
      t.kind = declared_kind(p);
      t.loc = p.loc;
      builder_.fresh_name(p.name);
      const int64_t id = model_.graph.add(p.name, InputAttrs{t.shape, t.kind}, {}, p.loc);
      t.ref = ValueRef{id, 0};
      const Val tensor = builder_.add_tensor(std::move(t));
      for (size_t k = 0; k < tensor.shape.size(); ++k) {
        std::string name = k == 0 ? "batch" : p.name + "." + std::to_string(k);
        const nnef2::Expr* e = k < p.type.shape.size() ? p.type.shape[k].extent.get() : nullptr;
        if (e && e->kind == nnef2::ExprKind::Identifier && graph_attributes_.count(e->text)) {
          name = e->text;
          Val& attribute = env_.symbols[e->text];
          if (!attribute.term) attribute = nnef2::extent_of(tensor, k, &conditions_);
        }
        model_.size_names.push_back(SizeName{name, id, k});
      }
      declare(p.name, tensor, p.loc);
    }
  }

  // @variable: data from <folder>/main.<graph>.<name>.dat; @constant: values
  // given in the text.
  // The @constant or @variable tensors of the graph, or of an operator whose @compose is expanded
  // (avg_pool's `ones`); `scope` names them: "main.G." for the graph's (their .dat files).
  void tensors(const nnef2::OpDef& def, nnef2::BlockKind kind, const std::string& scope) {
    const nnef2::Block* b = find_block(def, kind);
    if (!b) return;
    for (const nnef2::ParamDef& p : b->params) {
      nnef2::Builder::Tensor t;
      const Val extents = declared_extents(p);
      nnef2::pin(extents, "an extent of '" + p.name + "'", p.loc, &conditions_);  // its data has that shape
      t.shape = nnef2::as_ints(extents);
      t.kind = declared_kind(p);
      t.loc = p.loc;
      t.label = scope + p.name;
      if (kind == nnef2::BlockKind::Variable) {
        t.data = variable_data(t.label, t.shape, t.kind, p.loc);
      } else {
        t.data = constant_data(p, t.shape, t.kind);
      }
      declare(p.name, builder_.add_tensor(std::move(t)), p.loc);
    }
  }

  std::optional<ParamEntry> variable_data(const std::string& label, const std::vector<int64_t>& shape, ElemKind kind,
                                          const SourceLoc& loc) {
    if (options_.weights == WeightsPolicy::Skip) return std::nullopt;
    const fs::path path = fs::path(folder_) / (label + ".dat");
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) {
      weights_missing_ = true;
      if (options_.weights == WeightsPolicy::IfPresent) return std::nullopt;
      error("nnef2.dat.missing", "variable '" + label + "' has no data: '" + path.string() + "' does not exist", loc);
    }
    const fs::path base = fs::canonical(folder_, ec), full = fs::canonical(path, ec);
    const auto [b, f] = std::mismatch(base.begin(), base.end(), full.begin(), full.end());
    if (ec || b != base.end())
      error("nnef2.dat.escapes",
            "the data of variable '" + label + "', '" + path.string() +
                "', leads outside the model "
                "folder (to '" +
                full.string() + "'): refused, nothing was read",
            loc);
    nnl::Diags diags;
    std::optional<nnef::DatTensor> dat = nnef::read_dat(path.string(), label, shape, kind, loc, diags);
    if (!dat) {
      const std::vector<Diagnostic> found = diags.take();
      out_.insert(out_.end(), found.begin(), found.end());
      throw Stop{};
    }
    if (dat->quantized) return ParamEntry{dequantized(*dat, label, loc), path.string()};
    // Parameters are held as doubles: int and bool items too, which the const op reads back as its kind.
    if (kind != ElemKind::Real) dat->tensor.dtype = DType::F64;
    return ParamEntry{std::move(dat->tensor), path.string()};
  }

  // The reals of a variable stored as quantized codes, by the graph's @quantize entry for it.
  HostTensor dequantized(const nnef::DatTensor& codes, const std::string& label, const SourceLoc& loc) {
    const std::string name = label.substr(label.rfind('.') + 1);
    const auto entry = quantizations_.find(name);
    if (entry == quantizations_.end())
      error("nnef2.dat.quantized",
            "variable '" + label + "' is stored as quantized items, and the graph's @quantize names no quantization "
                                   "for it",
            loc);
    const nnef2::Quantization& q = *entry->second;
    const auto [module, def] = resolve(q.op, q.loc);
    nnef2::InvocationArgs args;
    for (const nnef2::Attribute& a : q.attributes) args.attributes[a.name] = eval(*a.value);
    args.inputs.push_back(Val::of_tensor(-1, codes.tensor.shape.dims()));
    try {
      return nnef2::dequantize(codes, q.op, nnef2::bind_invocation(*def, q.op, args, module ? module->text : text_));
    } catch (const nnef2::BindError& e) {
      error(e.code, e.message, q.loc, {"in the definition of " + q.op + " at " + located(e.where)});
    } catch (const nnef2::BuildError& e) {
      error(e.code, e.message, q.loc);
    }
  }

  // @quantize: each entry names a variable of the graph (quantizing a computed tensor's values is
  // not composed yet).
  void quantizations() {
    const nnef2::Block* b = find_block(*graph_, nnef2::BlockKind::Quantize);
    const nnef2::Block* variables = find_block(*graph_, nnef2::BlockKind::Variable);
    if (!b) return;
    for (const nnef2::Quantization& q : b->quantizations) {
      const bool variable = variables && std::any_of(variables->params.begin(), variables->params.end(),
                                                     [&](const nnef2::ParamDef& p) { return p.name == q.tensor; });
      if (!variable)
        error("nnef2.quantize.unsupported",
              "'" + q.tensor + "' is not a variable of the graph: quantizing the values of a computed tensor is not "
                               "composed yet",
              q.loc);
      quantizations_[q.tensor] = &q;
    }
  }

  // A constant's value: one item of its type for every element, or a list of them in row-major order.
  ParamEntry constant_data(const nnef2::ParamDef& p, const std::vector<int64_t>& shape, ElemKind kind) {
    if (!p.value || !p.bounds.empty())
      error("nnef2.graph.constant",
            "constant '" + p.name +
                "' is given no value, or one per index: only uniform and "
                "listed values are composed yet",
            p.loc);
    const Val v = eval(*p.value);
    const int64_t n = checked_element_count(shape);
    if (n > options_.max_memory / static_cast<int64_t>(sizeof(double)))
      error("size.out-of-memory",
            "constant '" + p.name + "' has " + std::to_string(n) + " elements, beyond the memory budget", p.loc);
    std::vector<double> values;
    for (const Val& x : v.is_pack() ? v.items : std::vector<Val>{v}) values.push_back(constant_item(p, x, kind));
    if (values.size() == 1) values.assign(static_cast<size_t>(n), values[0]);
    if (static_cast<int64_t>(values.size()) != n)
      error("nnef2.graph.constant",
            "constant '" + p.name + "' has " + std::to_string(n) + " elements but is given " +
                std::to_string(values.size()) + " values",
            p.loc);
    return ParamEntry{HostTensor{DType::F64, Shape::make(shape).value(), values}, located(p.loc)};
  }
  // One item of a constant of this kind, as a parameter holds it: a double (an int within ±2^53, a bool as 1
  // or 0), which the const op reads back as its kind.
  double constant_item(const nnef2::ParamDef& p, const Val& x, ElemKind kind) {
    constexpr int64_t kExact = int64_t{1} << 53;
    if (kind == ElemKind::Real && x.kind == Val::Kind::Real) return x.r;
    if (kind == ElemKind::Integer && x.kind == Val::Kind::Int && x.i >= -kExact && x.i <= kExact)
      return static_cast<double>(x.i);
    if (kind == ElemKind::Logical && x.kind == Val::Kind::Bool) return x.b ? 1.0 : 0.0;
    error("nnef2.graph.constant",
          "constant '" + p.name + "' holds " + nnef2::show(x) + ", not " +
              (kind == ElemKind::Integer ? "an int within ±2^53" : std::string("a ") + p.type.type),
          p.loc);
  }

  void helpers() {
    if (const nnef2::Block* b = find_block(*graph_, nnef2::BlockKind::Using))
      for (const nnef2::Using& u : b->usings) {
        if (u.lhs.items.size() != 1 || u.lhs.items[0].form != nnef2::LvalueItem::Form::Name || u.lhs.bracketed)
          error("nnef2.graph.using", "a @using that unpacks into several names is not composed yet", u.loc);
        declare(u.lhs.items[0].names[0], eval(*u.value), u.loc);
      }
    if (const nnef2::Block* b = find_block(*graph_, nnef2::BlockKind::Assert))
      for (const nnef2::Assertion& a : b->assertions) {
        const Val c = eval(*a.condition);
        if (c.kind == Val::Kind::Bool && !c.b)
          error("nnef2.assert.failed", graph_->name + ": @assert fails" + (a.message ? ": " + eval(*a.message).s : ""),
                a.loc);
        nnef2::require_term(c, graph_->name + ": @assert at " + located(a.loc), &conditions_);
      }
  }

  // --- @compose
  // ---------------------------------------------------------------------------------

  // A component's result names: `a`, `[a, b]`, `parts..` (a pack, `parts..(n)` of n tensors), or ""
  // for `~` (a result dropped).
  std::vector<std::string> result_names(const nnef2::Component& c) {
    std::vector<std::string> names;
    for (const nnef2::Lvalue& l : c.lhs)
      for (const nnef2::LvalueItem& item : l.items) {
        if (item.form == nnef2::LvalueItem::Form::Tuple)
          error("nnef2.compose.unsupported", "a component's results are names or '~' here; tuples are not composed yet",
                item.loc);
        names.push_back(item.form == nnef2::LvalueItem::Form::Drop ? "" : item.names[0]);
      }
    return names;
  }
  // The results as the names take them: a pack of n tensors unpacked into n names (`[a, b] =
  // layout.split(…)`), a pack name's length checked against its count.
  std::vector<Val> named_results(const nnef2::Component& c, const std::vector<std::string>& names,
                                 std::vector<Val> results) {
    if (names.size() > 1 && results.size() == 1 && results[0].is_pack() && results[0].items.size() == names.size())
      results = results[0].items;
    size_t k = 0;
    for (const nnef2::Lvalue& l : c.lhs)
      for (const nnef2::LvalueItem& item : l.items) {
        if (k < results.size() && item.pack) {
          if (!results[k].is_pack())
            error("nnef2.compose.results",
                  "'" + item.names[0] + "..' names a pack, and the result is " + nnef2::show(results[k]), item.loc);
          if (item.pack->count) {
            const Val n = eval(*item.pack->count);
            if (n.kind != Val::Kind::Int || n.i != static_cast<int64_t>(results[k].items.size()))
              error("nnef2.compose.results",
                    "'" + item.names[0] + "..' names a pack of " + nnef2::show(n) + " tensors, and the result holds " +
                        std::to_string(results[k].items.size()),
                    item.loc);
          }
        }
        ++k;
      }
    return results;
  }

  // A component of @compose, or of a block (`outer` false: its names are local, and not named for
  // conform --intermediates, where a loop's body repeats them).
  void component(const nnef2::Component& c, bool outer = true) {
    const std::vector<std::string> names = result_names(c);
    // The nodes are named after the first result kept.
    const auto kept = std::find_if(names.begin(), names.end(), [](const std::string& n) { return !n.empty(); });
    const std::string node = kept == names.end() ? "dropped" : *kept;
    std::vector<Val> results;
    switch (c.form) {
      case nnef2::Component::Form::Computation:
        results = computation(c.computation, node, c.loc);
        break;
      case nnef2::Component::Form::Branch:
        results = branch(*c.branch, node);
        break;
      case nnef2::Component::Form::Loop:
        results = loop(*c.loop, node, c.loc);
        break;
    }
    results = named_results(c, names, std::move(results));
    if (results.size() != names.size())
      error("nnef2.compose.results",
            std::to_string(names.size()) + " names for " + std::to_string(results.size()) + " results", c.loc);
    for (size_t k = 0; k < names.size(); ++k) {
      if (names[k].empty()) continue;
      declare(names[k], results[k], c.loc);
      if (outer) note_source_value(names[k], results[k]);
    }
  }

  // An invocation's outputs, an expression's tensor (or pack of tensors), or a block's yields (§2.10:
  // its components in a scope of their own).
  std::vector<Val> computation(const nnef2::Computation& c, const std::string& result, const SourceLoc& loc) {
    if (c.call) return invoke(*c.call, result);
    if (c.block) {
      const std::map<std::string, Val> outside = env_.symbols;
      for (const nnef2::Component& inner : c.block->components) component(inner, false);
      std::vector<Val> yields;
      for (const nnef2::ExprPtr& y : c.block->yields) yields.push_back(eval(*y));
      env_.symbols = outside;
      return yields;
    }
    const Val v = constant_tensor(eval(*c.expr), result, c.expr->loc);
    const auto tensor = [](const Val& x) { return x.kind == Val::Kind::Tensor; };
    if (!tensor(v) && !(v.is_pack() && std::all_of(v.items.begin(), v.items.end(), tensor)))
      error("nnef2.compose.unsupported",
            "a component that computes " + nnef2::show(v) + " rather than a tensor is not composed yet", loc);
    return {v};
  }

  // A condition or a count of control flow, known at composition (§2.10: static), as the number it
  // is at the declared sizes; one computed from tensors (a run-time `if` or loop) is refused.
  Val static_value(const nnef2::Expr* e, const SourceLoc& loc, Val::Kind kind, const std::string& what) {
    if (!e)
      error("nnef2.compose.control-flow", what + " computed by an operator (run-time control flow) is not composed yet",
            loc);
    const Val v = eval(*e);
    if (v.kind == Val::Kind::Tensor)
      error("nnef2.compose.control-flow", what + " read from a tensor (run-time control flow) is not composed yet",
            loc);
    if (v.kind != kind) error("nnef2.eval.type", what + " is " + nnef2::show(v), loc);
    nnef2::pin(v, what, loc, &conditions_);
    return v;
  }

  // `if c then a elif … else b` on conditions known at composition: the branch taken.
  std::vector<Val> branch(const nnef2::Branch& b, const std::string& result) {
    for (const auto& [condition, value] : b.cases)
      if (static_value(condition.expr.get(), condition.loc, Val::Kind::Bool, "the condition of an if").b)
        return computation(value, result, value.loc);
    return computation(b.otherwise, result, b.otherwise.loc);
  }

  // A loop of a count known at composition (`do` or `unroll`: the same values), unrolled (§2.10):
  // each step binds the carried values (`with`), the scan inputs' items (`for`) and the index, and
  // the body's first results update the carried values, the others are packed into scan outputs.
  // The results: the carried values' last, then the scan outputs.
  std::vector<Val> loop(const nnef2::Loop& l, const std::string& result, const SourceLoc& loc) {
    if (l.while_before || l.while_after)
      error("nnef2.compose.control-flow", "a loop with a while condition (run-time control flow) is not composed yet",
            loc);
    std::vector<std::pair<std::string, Val>> scans;
    for (const nnef2::Binding& b : l.for_each) {
      Val pack = eval(*b.value);
      if (!pack.is_pack())
        error("nnef2.compose.argument", "the scan input '" + b.name + "' is " + nnef2::show(pack) + ", not a pack",
              b.loc);
      if (!scans.empty() && pack.items.size() != scans[0].second.items.size())
        error("nnef2.compose.argument", "the scan inputs have different lengths", b.loc);
      scans.emplace_back(b.name, std::move(pack));
    }
    int64_t count = scans.empty() ? -1 : static_cast<int64_t>(scans[0].second.items.size());
    if (l.count && l.count->count)
      count = static_value(l.count->count.get(), l.count->loc, Val::Kind::Int, "the loop count").i;
    if (count < 0 || (!scans.empty() && count > static_cast<int64_t>(scans[0].second.items.size())))
      error("nnef2.compose.control-flow", "the loop's count is not known or exceeds its scan inputs", loc);
    std::vector<Val> carried;
    for (const nnef2::Binding& b : l.with) {
      Val v = eval(*b.value);
      carried.push_back(v.kind == Val::Kind::Tensor ? std::move(v) : uniform_start(b, v));
    }
    std::vector<std::vector<Val>> scan_outputs;
    for (int64_t k = 0; k < count; ++k) {
      const std::map<std::string, Val> outside = env_.symbols;
      for (size_t j = 0; j < carried.size(); ++j) env_.symbols[l.with[j].name] = carried[j];
      for (const auto& [name, pack] : scans) env_.symbols[name] = pack.items[static_cast<size_t>(k)];
      if (l.count && !l.count->index.empty()) env_.symbols[l.count->index] = Val::integer(k);
      const std::vector<Val> out = computation(l.body, result, l.body.loc);
      env_.symbols = outside;
      if (out.size() < carried.size())
        error("nnef2.compose.results",
              "the loop body gives " + std::to_string(out.size()) + " results for " + std::to_string(carried.size()) +
                  " loop variables",
              l.body.loc);
      std::copy(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(carried.size()), carried.begin());
      scan_outputs.resize(out.size() - carried.size());
      for (size_t j = carried.size(); j < out.size(); ++j) scan_outputs[j - carried.size()].push_back(out[j]);
    }
    for (std::vector<Val>& items : scan_outputs) carried.push_back(Val::pack(std::move(items)));
    return carried;
  }

  // A loop variable started from a number (`with sum: real[z..] = 0.0`): a constant of its declared
  // type, every element that number (§2.10). Its extents must be the same at every size: a constant
  // has numbers for extents.
  Val uniform_start(const nnef2::Binding& b, const Val& v) {
    const auto refused = [&](const std::string& why) {
      error("nnef2.compose.unsupported", "the loop variable '" + b.name + "' starts at " + nnef2::show(v) + ", " + why,
            b.loc);
    };
    if (v.kind != Val::Kind::Int && v.kind != Val::Kind::Real && v.kind != Val::Kind::Bool)
      refused("neither a tensor nor a number");
    if (!b.type || !b.type->is_tensor) refused("and declares no tensor type to fill with it");
    // Its data has the extents of the declared sizes: a condition, as a graph constant's (check --dim
    // proves the sizes those extents follow fixed).
    const Val extents = declared_extents(b.name, *b.type, b.loc);
    nnef2::pin(extents, "an extent of the loop variable '" + b.name + "'", b.loc, &conditions_);
    nnef2::Builder::Tensor t;
    t.shape = nnef2::as_ints(extents);
    t.kind = declared_kind(b.name, *b.type, b.loc);
    t.loc = b.loc;
    t.label = b.name;
    const double value = v.kind == Val::Kind::Int ? static_cast<double>(v.i) : v.kind == Val::Kind::Bool ? v.b : v.r;
    const Shape shape = Shape::make(t.shape).value();
    t.data = ParamEntry{HostTensor{DType::F64, shape, std::vector<double>(static_cast<size_t>(shape.count()), value)},
                        "nnef2"};
    return builder_.add_tensor(std::move(t));
  }

  // Model::source_values (conform --intermediates): the IR value that holds a component's result,
  // or nullopt for a variable (`w = kernel;`), whose data no node computes.
  void note_source_value(const std::string& name, const Val& v) {
    if (v.kind != Val::Kind::Tensor) return;
    model_.source_values[name] = builder_.is_variable(v) ? std::nullopt : builder_.tensor(v).ref;
  }

  // The operator an invocation names: module.op, its module imported, or an operator of the
  // document (no module).
  std::pair<const nnef2::Module*, const nnef2::OpDef*> resolve(const std::string& name, const SourceLoc& loc) {
    const size_t dot = name.rfind('.');
    if (dot == std::string::npos && within_) {  // an operator of the module whose @compose this is
      if (const nnef2::OpDef* def = nnef2::find_operator(*within_, name)) return {within_, def};
      error("nnef2.op.unknown", "'" + name + "': module " + within_->name + " has no operator of that name", loc);
    }
    if (dot == std::string::npos) {
      for (const nnef2::OpDef& op : doc_.ops)
        if (!op.is_graph && op.name == name) return {nullptr, &op};
      error("nnef2.op.unknown", "'" + name + "': the document defines no operator of that name", loc);
    }
    const std::string module = name.substr(0, dot), op = name.substr(dot + 1);
    const nnef2::Module* m = nnef2::find_module(module);
    if (!m) error("nnef2.op.unknown", "'" + name + "': no standard module '" + module + "'", loc);
    if (!within_ && std::find(imported_.begin(), imported_.end(), module) == imported_.end())
      error("nnef2.import.missing", "'" + name + "': the document does not import '" + module + "'", loc);
    const nnef2::OpDef* def = nnef2::find_operator(*m, op);
    if (!def) error("nnef2.op.unknown", "'" + name + "': module " + module + " has no operator '" + op + "'", loc);
    return {m, def};
  }

  std::vector<Val> invoke(const nnef2::Invocation& call, const std::string& result) {
    const auto [module, def] = resolve(call.op, call.loc);
    nnef2::InvocationArgs args;
    args.conditions = &conditions_;
    args.generics = call.generics;
    for (const nnef2::Attribute& a : call.attributes) args.attributes[a.name] = eval(*a.value);
    for (const nnef2::ExprPtr& e : call.args) {
      if (e->kind == nnef2::ExprKind::Wildcard) {
        args.inputs.emplace_back();
        continue;
      }
      Val v = constant_tensor(eval(*e), result, e->loc);
      const bool tensors = v.kind == Val::Kind::Tensor ||
                           (v.is_pack() && std::all_of(v.items.begin(), v.items.end(),
                                                       [](const Val& x) { return x.kind == Val::Kind::Tensor; }));
      if (!tensors)
        error("nnef2.compose.argument",
              call.op + ": the argument " + nnef2::show(v) +
                  " is not a tensor (a literal in a "
                  "tensor's place is not composed yet)",
              e->loc);
      args.inputs.push_back(std::move(v));
    }
    nnef2::BoundInvocation bound;
    try {
      bound = nnef2::bind_invocation(*def, call.op, args, module ? module->text : text_);
    } catch (const nnef2::BindError& e) {
      error(e.code, e.message, call.loc, {"in the definition of " + call.op + " at " + located(e.where)});
    }
    builder_.set_location(call.loc);
    try {
      const std::string node = call.label.empty() ? result : call.label;
      const bool lowered = nnef2::has_lowering(*def);
      if (lowered && (options_.sknd_lowered || !module))
        return declared_outputs(call, bound, nnef2::build_lowered(builder_, call.op, *def, bound, node));
      const bool composed = find_block(*def, nnef2::BlockKind::Compose) != nullptr;
      if (composed && options_.sknd_lowered) return expand(module, *def, bound, call);  // from its definition
      if (module) {
        std::optional<std::vector<Val>> out;
        try {
          out = nnef2::build_native(builder_, call.op, bound, node);
        } catch (const nnef2::BuildError& e) {
          // Tensor kinds nnref's op does not take (an int division, a real cast to int): refused before
          // any node is added, and computed by the definition's own @lower body where it has one.
          if (e.code != "nnef2.native.kind" || !lowered) throw;
        }
        if (out) return declared_outputs(call, bound, *out);
      }
      if (lowered) return declared_outputs(call, bound, nnef2::build_lowered(builder_, call.op, *def, bound, node));
      if (composed) return expand(module, *def, bound, call);
      error("nnef2.op.no-native",
            call.op + (module ? " has no native mapping in nnref, no @lower body and no @compose body"
                              : " has no @lower body and no @compose body"),
            call.loc);
    } catch (const nnef2::BuildError& e) {
      error(e.code, e.message, call.loc);
    }
  }

  // An operator with a @compose body (§2.9) and neither a native mapping nor a @lower body: its
  // components composed in a scope of their own, the bound invocation's symbols (inputs, attributes,
  // shape symbols, @using helpers); its outputs are the tensors the body names after them. In a
  // standard operator's body an unqualified name is an operator of its module, and every standard
  // module is at hand. An error inside is reported at the invocation, the definition's place noted.
  std::vector<Val> expand(const nnef2::Module* module, const nnef2::OpDef& def, const nnef2::BoundInvocation& bound,
                          const nnef2::Invocation& call) {
    constexpr int kMaxDepth = 32;  // an operator expanding itself
    if (depth_ == kMaxDepth)
      error("nnef2.compose.unsupported",
            call.op + ": @compose bodies nested more than " + std::to_string(kMaxDepth) + " deep (a recursion)",
            call.loc);
    std::map<std::string, Val> outside = std::move(env_.symbols);
    const nnef2::Module* outer_module = within_;
    env_.symbols = bound.env.symbols;
    within_ = module;
    ++depth_;
    try {
      tensors(def, nnef2::BlockKind::Constant, "main." + graph_->name + "." + builder_.fresh_name(call.op) + ".");
      for (const nnef2::Component& c : find_block(def, nnef2::BlockKind::Compose)->components) component(c, false);
    } catch (const Stop&) {
      Diagnostic& d = out_.back();
      d.notes.insert(d.notes.begin(), "at " + located(d.loc) + ", in the @compose of " + call.op);
      d.loc = call.loc;
      throw;
    }
    std::vector<Val> results;
    for (size_t at = 0, k = 0; k < bound.output_packs.size(); ++k) {
      const int64_t n = bound.output_packs[k];
      const std::string& first = bound.output_names[at];
      const std::string name = n < 0 ? first : first.substr(0, first.find('['));
      const auto v = env_.symbols.find(name);
      const bool computed =
          v != env_.symbols.end() && (n < 0 ? v->second.kind == Val::Kind::Tensor
                                            : v->second.is_pack() && v->second.items.size() == static_cast<size_t>(n));
      if (!computed)
        error("nnef2.compose.results", call.op + ": its @compose does not compute the output '" + name + "'", call.loc);
      if (n < 0)
        results.push_back(v->second);
      else
        results.insert(results.end(), v->second.items.begin(), v->second.items.end());
      at += n < 0 ? 1 : static_cast<size_t>(n);
    }
    for (size_t k = 0; k < results.size() && k < bound.output_types.size(); ++k)
      if (results[k].elem != bound.output_types[k])
        error("nnef2.compose.type",
              call.op + ": its @compose computes a " + nnef2::type_name(results[k].elem) + " tensor for the output '" +
                  bound.output_names[k] + "', declared " + nnef2::type_name(bound.output_types[k]),
              call.loc);
    --depth_;
    within_ = outer_module;
    env_.symbols = std::move(outside);
    return declared_outputs(call, bound, std::move(results));
  }

  // A number in a tensor's place (math.max(x, epsilon), avg_pool's count `cnt = real(size * ..)`): a
  // rank-0 constant of its type; anything else as it is.
  Val constant_tensor(Val v, const std::string& result, const SourceLoc& loc) {
    if (v.kind != Val::Kind::Real && v.kind != Val::Kind::Int && v.kind != Val::Kind::Bool) return v;
    const ElemKind kind = v.kind == Val::Kind::Real  ? ElemKind::Real
                          : v.kind == Val::Kind::Int ? ElemKind::Integer
                                                     : ElemKind::Logical;
    nnef2::pin(v, "a number in a tensor's place", loc, &conditions_);
    const double number = v.kind == Val::Kind::Real ? v.r : v.kind == Val::Kind::Int ? static_cast<double>(v.i) : v.b;
    return builder_.scalar(builder_.fresh_name(result + "_constant"), kind, number);
  }

  // The results, with the condition that each extent is the one the definition declares (the IR op
  // computes it by its own rule; the definition's @output says what it must be at every size).
  std::vector<Val> declared_outputs(const nnef2::Invocation& call, const nnef2::BoundInvocation& bound,
                                    std::vector<Val> results) {
    for (size_t k = 0; k < results.size() && k < bound.output_terms.size(); ++k)
      for (size_t i = 0; i < bound.output_terms[k].size() && i < results[k].shape.size(); ++i)
        if (const nnef2::SizeTerm& term = bound.output_terms[k][i])
          require_extent(results[k], i, *term,
                         call.op + ": extent " + std::to_string(i) + " of output '" + bound.output_names[k] +
                             "' as its definition declares");
    // A packed output's tensors as one pack.
    if (results.size() != bound.output_names.size()) return results;
    std::vector<Val> grouped;
    auto next = results.begin();
    for (int64_t n : bound.output_packs) {
      if (n < 0) {
        grouped.push_back(*next++);
        continue;
      }
      grouped.push_back(Val::pack(std::vector<Val>(next, next + n)));
      next += n;
    }
    return grouped;
  }
  void require_extent(const Val& tensor, size_t axis, const std::vector<int64_t>& term, const std::string& message) {
    std::vector<int64_t> code = nnef2::code_of(nnef2::extent_of(tensor, axis, &conditions_));
    code.insert(code.end(), term.begin(), term.end());
    code.push_back(size_code::kEqual);
    conditions_.push_back({std::move(code), message, false});
  }

  // The conditions composition gathered since the last call become guards of the node added last:
  // every value they read is that node's or an earlier one's.
  void guard_sizes() {
    if (model_.graph.nodes.empty()) conditions_.clear();
    for (const nnef2::SizeCondition& c : conditions_) {
      std::vector<int64_t> handles;
      SizeGuard g{{}, builder_.extents_program(c.code, handles), c.message, c.assumed};
      for (int64_t h : handles) g.values.push_back(*builder_.tensor(h).ref);
      std::vector<SizeGuard>& guards = model_.graph.nodes.back().guards;
      const bool known = std::any_of(guards.begin(), guards.end(),
                                     [&](const SizeGuard& h) { return h.code == g.code && h.values == g.values; });
      if (!known) guards.push_back(std::move(g));
    }
    conditions_.clear();
  }

  void outputs() {
    const nnef2::Block* b = find_block(*graph_, nnef2::BlockKind::Output);
    if (!b || b->params.empty())
      error("nnef2.graph.outputs", "graph " + graph_->name + " declares no output", graph_->loc);
    for (const nnef2::ParamDef& p : b->params) {
      const auto it = env_.symbols.find(p.name);
      if (it == env_.symbols.end() || it->second.kind != Val::Kind::Tensor)
        error("nnef2.graph.output-unassigned", "output '" + p.name + "' is not computed by @compose", p.loc);
      const Val declared = declared_extents(p);
      if (nnef2::kind_of(it->second.elem) != declared_kind(p))
        error("nnef2.graph.output-type",
              "output '" + p.name + "' is declared " + p.type.type + " but computed as " + nnef2::show(it->second),
              p.loc);
      if (nnef2::as_ints(declared) != it->second.shape)
        error("nnef2.graph.output-shape",
              "output '" + p.name + "' is declared " + nnef2::show(declared) + " but computed " +
                  nnef2::show(Val::ints(it->second.shape)),
              p.loc);
      model_.graph.outputs.push_back(GraphOutput{p.name, builder_.materialise(as_real(p.name, it->second))});
      for (size_t k = 0; k < declared.items.size(); ++k)
        require_extent(it->second, k, nnef2::code_of(declared.items[k]),
                       graph_->name + " declares extent " + std::to_string(k) + " of output '" + p.name + "' as " +
                           nnef2::show(declared.items[k]) + " at the declared sizes (" + located(p.loc) + ")");
    }
  }

  // nnref's outputs are reals: an int or bool output is read through a cast, which gives the same numbers (indices,
  // 0 and 1; conform judges them as docs/conformance.md says), and `run` writes it with its own dtype.
  Val as_real(const std::string& name, const Val& output) {
    if (output.elem == nnef2::ElemType::Real) return output;
    model_.output_dtypes[name] = output.elem == nnef2::ElemType::Int ? DType::I64 : DType::Bool;
    return builder_.add_node1(name + "_real", CastAttrs{nnef2::kind_of(output.elem), ElemKind::Real}, {output});
  }

  Model& model_;
  const nnef2::Document& doc_;
  std::string_view text_;
  std::string folder_;
  const LoadOptions& options_;
  std::vector<Diagnostic>& out_;
  nnef2::Builder builder_;
  nnef2::Evaluator env_;
  nnef2::SizeConditions conditions_;
  std::set<std::string> graph_attributes_;  // the graph's int attributes: sizes --dim may vary
  std::map<std::string, const nnef2::Quantization*> quantizations_;  // @quantize: variable → entry
  std::vector<std::string> imported_;
  const nnef2::Module* within_ = nullptr;  // the standard module whose operator's @compose is being expanded
  int depth_ = 0;                          // @compose bodies being expanded
  const nnef2::OpDef* graph_ = nullptr;
  bool weights_missing_ = false;
};

}  // namespace

LoadResult load_nnef2_text(const std::string& text, const std::string& filename, const std::string& folder,
                           const LoadOptions& options) {
  LoadResult result;
  nnef2::Diags diags;
  const nnef2::Document doc = nnef2::parse_text(text, filename, diags);
  result.diagnostics = diags.list();
  for (const Diagnostic& d : nnef2::standard_module_errors())
    result.diagnostics.push_back(
        make_error("nnef2.internal", "the standard library does not parse: " + d.message, d.loc));
  if (result.has_errors()) return result;
  Model m;
  GraphComposer composer(m, doc, text, folder, options, result.diagnostics);
  try {
    composer.compose(filename);
  } catch (const Stop&) {
    return result;
  } catch (const std::bad_alloc&) {
    result.diagnostics.push_back(
        make_error("size.out-of-memory", "ran out of memory while reading the model", SourceLoc{filename, 0, 0}));
    return result;
  }
  m.path = filename;
  m.format = "nnef2";
  m.weights_path = folder;
  m.weights_loaded = options.weights != WeightsPolicy::Skip && !composer.weights_missing();
  result.model = std::move(m);
  return result;
}

LoadResult load_nnef2(const std::string& path, const LoadOptions& options) {
  std::error_code ec;
  const bool folder = fs::is_directory(path, ec);
  const fs::path main = folder ? fs::path(path) / kMainFile : fs::path(path);
  std::string dir = folder ? path : main.parent_path().string();
  if (dir.empty()) dir = ".";
  LoadResult r;
  std::ifstream in(main, std::ios::binary);
  if (!in) {
    r.diagnostics.push_back(
        make_error("io.open-failed", "cannot open model file '" + main.string() + "'", SourceLoc{main.string(), 0, 0}));
    return r;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return load_nnef2_text(text.str(), main.string(), dir, options);
}

}  // namespace nnref
