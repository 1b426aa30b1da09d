#include "formats/nnef2/bind.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "formats/nnef2/diags.hpp"
#include "spec/size_program.hpp"

namespace nnref::nnef2 {

namespace {

using Kind = Val::Kind;

const Block* find_block(const OpDef& op, BlockKind kind) {
  for (const Block& b : op.blocks)
    if (b.kind == kind) return &b;
  return nullptr;
}
const std::vector<ParamDef>& params(const OpDef& op, BlockKind kind) {
  static const std::vector<ParamDef> none;
  const Block* b = find_block(op, kind);
  return b ? b->params : none;
}

// An attribute value as its declared type holds it: an int where a real is
// declared becomes a real (the number it is at the declared sizes: pinned).
Val coerce(const Val& v, const std::string& type, SizeConditions* conditions, const SourceLoc& loc) {
  if (type == "real" && v.kind == Kind::Int) {
    pin(v, "an int given to a real attribute", loc, conditions);
    return Val::real(static_cast<double>(v.i));
  }
  if (v.is_pack()) {
    Val out = v;
    for (Val& x : out.items) x = coerce(x, type, conditions, loc);
    return out;
  }
  return v;
}

bool type_matches(const Val& v, const std::string& type) {
  if (v.is_null()) return true;
  if (v.is_pack())
    return std::all_of(v.items.begin(), v.items.end(), [&](const Val& x) { return type_matches(x, type); });
  if (type == "int") return v.kind == Kind::Int;
  if (type == "real") return v.kind == Kind::Real;
  if (type == "bool") return v.kind == Kind::Bool;
  if (type == "str") return v.kind == Kind::Str;
  return true;  // a generic or abstract type
}

// Whether a generic of this base type (§2.13: type, arith, num) admits element type t.
bool admits(const std::string& base, ElemType t) {
  if (base == "num") return t != ElemType::Bool;
  return base == "arith" || base == "type" || elem_type(base) == t;
}

class Binder {
 public:
  Binder(const OpDef& op, const std::string& name, const InvocationArgs& args, std::string_view source)
      : op_(op), name_(name), args_(args), source_(source) {
    out_.env.conditions = args.conditions;
  }

  BoundInvocation run() {
    bind_given_generics();
    bind_given_attributes();
    bind_inputs();
    bind_deferred_attributes();
    bind_pack_lengths();
    run_usings_and_asserts();
    return outputs();
  }

 private:
  [[noreturn]] void fail(const std::string& code, const std::string& message, const SourceLoc& where) const {
    throw BindError{code, name_ + ": " + message, where};
  }
  Val eval(const Expr& e) const {
    try {
      return out_.env.eval(e);
    } catch (const EvalError& x) {
      fail(x.code, x.message, x.loc);
    }
  }
  std::map<std::string, Val>& symbols() { return out_.env.symbols; }
  bool bound(const Expr& e) const { return out_.env.bound(e); }
  SizeConditions* conditions() const { return out_.env.conditions; }
  // The definition requires `value` (an extent, a length) to be `want`: a condition when either
  // has a term.
  void require_equal(const Val& value, const Val& want, const std::string& what, const SourceLoc& loc) {
    if (!conditions() || !(value.term || want.term)) return;
    std::vector<int64_t> code = code_of(value), rhs = code_of(want);
    code.insert(code.end(), rhs.begin(), rhs.end());
    code.push_back(size_code::kEqual);
    conditions()->push_back(
        {std::move(code), name_ + ": " + what + " as its definition requires (" + located(loc) + ")"});
  }

  // --- generics (§2.13)
  // ---------------------------------------------------------------------------

  const std::vector<DtypeDef>& dtypes() const {
    static const std::vector<DtypeDef> none;
    const Block* b = find_block(op_, BlockKind::Dtype);
    return b ? b->dtypes : none;
  }
  const DtypeDef* find_dtype(const std::string& name) const {
    for (const DtypeDef& d : dtypes())
      if (d.name == name) return &d;
    return nullptr;
  }

  // The types given between <>, bound in the order of @dtype; then those that attributes given deduce, and
  // the defaults of those no input has.
  void bind_given_generics() {
    if (args_.generics.size() > dtypes().size())
      fail("nnef2.compose.generic",
           "given " + std::to_string(args_.generics.size()) + " types between <>; it declares " +
               std::to_string(dtypes().size()),
           op_.loc);
    for (size_t k = 0; k < args_.generics.size(); ++k) {
      const DtypeDef& d = dtypes()[k];
      const std::optional<ElemType> t = elem_type(args_.generics[k]);
      if (!t || !admits(d.type, *t))
        fail("nnef2.compose.generic", d.name + " is " + d.type + ": it cannot be " + args_.generics[k], d.loc);
      symbols()[d.name] = Val::string(args_.generics[k]);
    }
    for (const ParamDef& a : params(op_, BlockKind::Attrib)) {
      const auto given = args_.attributes.find(a.name);
      if (given != args_.attributes.end() && find_dtype(a.type.type)) deduce_from_attribute(a, given->second);
    }
    for (const DtypeDef& d : dtypes())
      if (!input_of_type(d.name)) symbols().try_emplace(d.name, Val::string(default_type(d)));
  }
  static std::string default_type(const DtypeDef& d) { return d.default_type.empty() ? "real" : d.default_type; }
  bool input_of_type(const std::string& generic) const {
    const std::vector<ParamDef>& inputs = params(op_, BlockKind::Input);
    return std::any_of(inputs.begin(), inputs.end(), [&](const ParamDef& p) { return p.type.type == generic; });
  }
  // A generic an attribute of its type is given a value of (`first: T` given 1 is int), unless bound.
  void deduce_from_attribute(const ParamDef& a, const Val& given) {
    const std::optional<ElemType> t = elem_type_of(given.is_pack() && !given.items.empty() ? given.items[0] : given);
    const DtypeDef& d = *find_dtype(a.type.type);
    if (t && admits(d.type, *t)) symbols().try_emplace(d.name, Val::string(type_name(*t)));
  }

  // Each input's tensors against its declared element type: a concrete type must be theirs; a
  // generic not given is deduced from the first input of that type, and must then be theirs too.
  void check_input_types(const ParamDef& in, const Val& arg) {
    const std::string& declared = in.type.type;
    const DtypeDef* generic = find_dtype(declared);
    for (const Val& v : arg.is_pack() ? arg.items : std::vector<Val>{arg}) {
      if (v.kind != Kind::Tensor) continue;
      const auto bound_type = symbols().find(declared);
      if (generic && bound_type == symbols().end()) {
        if (!admits(generic->type, v.elem))
          fail("nnef2.compose.type",
               "input '" + in.name + "' is of type " + declared + ", which is " + generic->type + ": it cannot be " +
                   type_name(v.elem),
               in.loc);
        symbols()[declared] = Val::string(type_name(v.elem));
        continue;
      }
      const std::optional<ElemType> want = elem_type(generic ? bound_type->second.s : declared);
      if (want && *want != v.elem)
        fail("nnef2.compose.type",
             "input '" + in.name + "' is declared " + declared +
                 (generic ? " (" + bound_type->second.s + " here)" : "") + " but given " + show(v),
             in.loc);
    }
  }

  // A generic neither given nor deduced takes its default, or real (the draft requires it be given).
  void default_generics() {
    for (const DtypeDef& d : dtypes()) symbols().try_emplace(d.name, Val::string(default_type(d)));
  }

  void bind_given_attributes() {
    const std::vector<ParamDef>& attrs = params(op_, BlockKind::Attrib);
    for (const auto& given : args_.attributes)  // (no structured binding: a lambda reads it)
      if (std::none_of(attrs.begin(), attrs.end(), [&](const ParamDef& p) { return p.name == given.first; }))
        fail("nnef2.compose.attribute", "the operator has no attribute '" + given.first + "'", op_.loc);
    for (const ParamDef& a : attrs) {
      const auto given = args_.attributes.find(a.name);
      if (given != args_.attributes.end()) {
        const Val v = coerce(given->second, a.type.type, conditions(), a.loc);
        if (!type_matches(v, a.type.type))
          fail("nnef2.compose.attribute",
               "attribute '" + a.name + "' is declared " + a.type.type + " but given " + show(v), a.loc);
        if (v.is_pack() && !a.type.pack)
          fail("nnef2.compose.attribute", "attribute '" + a.name + "' is not a pack but given " + show(v), a.loc);
        symbols()[a.name] = v;
      } else if (a.type.optional) {
        symbols()[a.name] = Val{};
      } else if (a.value && bound(*a.value)) {
        symbols()[a.name] = coerce(eval(*a.value), a.type.type, conditions(), a.loc);
      } else {
        deferred_.push_back(&a);
      }
    }
  }

  // --- inputs
  // -------------------------------------------------------------------------------

  // Binds `value` to an extent or length expression: deduces its one unbound
  // symbol when it is affine in it (a·x + b, probed at x = 0, 1, 2), checks it
  // otherwise.
  void bind_affine(const Expr& e, const Val& given, const std::string& what) {
    if (e.kind == ExprKind::Wildcard) return;
    const int64_t value = given.i;
    if (bound(e)) {
      const Val v = eval(e);
      if (v.is_null()) return;
      if (v.kind != Kind::Int || v.i != value)
        fail("nnef2.compose.shape", what + " is " + std::to_string(value) + ", but the definition requires " + show(v),
             e.loc);
      require_equal(given, v, what + " equals " + (e.kind == ExprKind::Identifier ? "'" + e.text + "', " : "") +
                                  show(v) + " at the declared sizes,",
                    e.loc);
      return;
    }
    std::vector<std::string> names;
    referenced_names(e, names);
    std::set<std::string> unbound;
    for (const std::string& n : names)
      if (!symbols().count(n)) unbound.insert(n);
    if (unbound.size() != 1)
      fail("nnef2.compose.binding",
           what + ": its expression has " + std::to_string(unbound.size()) + " unbound symbols; it binds one, affinely",
           e.loc);
    const std::string x = *unbound.begin();
    SizeConditions* const kept = conditions();
    out_.env.conditions = nullptr;  // probing: what it computes is not the model's
    const auto at = [&](int64_t k) {
      symbols()[x] = Val::integer(k);
      const Val v = eval(e);
      symbols().erase(x);
      if (v.kind != Kind::Int) fail("nnef2.compose.binding", what + " is not an int expression of '" + x + "'", e.loc);
      return v.i;
    };
    const int64_t f0 = at(0), f1 = at(1), f2 = at(2), a = f1 - f0;
    if (a == 0 || f2 - f1 != a)
      fail("nnef2.compose.binding", what + " is not an affine expression of '" + x + "'", e.loc);
    if ((value - f0) % a != 0 || (value - f0) / a < 0)
      fail("nnef2.compose.shape", what + " is " + std::to_string(value) + ", which gives no non-negative '" + x + "'",
           e.loc);
    const int64_t solved = (value - f0) / a;
    if (at(solved) != value)
      fail("nnef2.compose.shape", what + " is " + std::to_string(value) + ", which no value of '" + x + "' gives",
           e.loc);
    out_.env.conditions = kept;
    symbols()[x] = solved_symbol(given, solved, f0, a, x, e, what);
  }

  // x = (value - f0) / a with its term, and the conditions that it is a non-negative solution:
  // e(x) == value, x >= 0.
  Val solved_symbol(const Val& given, int64_t solved, int64_t f0, int64_t a, const std::string& x, const Expr& e,
                    const std::string& what) {
    Val v = Val::integer(solved);
    if (!conditions() || !given.term) return v;
    using namespace size_code;
    std::vector<int64_t> code = code_of(given);
    code.insert(code.end(), {kConstant, f0, kSub});
    if (a < 0) code.insert(code.end(), {kConstant, -1, kMul});
    code.insert(code.end(), {kConstant, a < 0 ? -a : a, kFloorDiv});
    v.term = std::make_shared<const std::vector<int64_t>>(code);
    symbols()[x] = v;
    require_equal(given, eval(e), what + " is given by a whole '" + x + "'", e.loc);
    code.insert(code.end(), {kConstant, 0, kLess, kNot});
    conditions()->push_back(
        {std::move(code), name_ + ": " + what + " gives a non-negative '" + x + "' (" + located(e.loc) + ")"});
    return v;
  }

  // Binds a pack of extents to the name of a packed shape item (or checks it,
  // when bound).
  void bind_pack(const ShapeItem& item, const std::vector<Val>& values, const std::string& what) {
    const Val v = Val::pack(values);
    if (item.extent->kind == ExprKind::Identifier && !symbols().count(item.extent->text)) {
      symbols()[item.extent->text] = v;
      return;
    }
    const Val want = eval(*item.extent);
    if (want.is_null()) return;
    if (!(want == v))
      fail("nnef2.compose.shape", what + " is " + show(v) + ", but the definition requires " + show(want), item.loc);
    for (size_t k = 0; k < values.size(); ++k)
      require_equal(values[k], want.is_pack() ? want.items[k] : want, what + " equal " + show(want), item.loc);
  }

  // The number of axes each shape item takes, nullopt for the one whose length
  // the rank leaves; false when more than one is open (the input waits for
  // others to bind, §2.6.2).
  bool item_lengths(const TypeSpec& t, std::vector<std::optional<int64_t>>& out) {
    int open = 0;
    for (const ShapeItem& item : t.shape) {
      if (!item.pack) {
        out.push_back(!item.spread && bound(*item.extent) && eval(*item.extent).is_null() ? 0 : 1);
        continue;
      }
      std::optional<int64_t> n;
      if (item.pack->count && bound(*item.pack->count)) {
        const Val c = eval(*item.pack->count);
        pin(c, "the length of '" + ast_name(item) + "'", item.loc, conditions());
        n = c.kind == Kind::Bool ? c.b : c.i;
      } else if (!item.pack->count && item.extent->kind == ExprKind::Identifier && symbols().count(item.extent->text)) {
        n = static_cast<int64_t>(symbols()[item.extent->text].items.size());
      }
      open += !n;
      out.push_back(n);
    }
    return open <= 1;
  }

  // Binds one input's shape symbols from its tensors (one, or each item of a
  // packed input); false when it cannot bind yet.
  bool bind_shape(const ParamDef& in, const std::vector<std::vector<Val>>& shapes) {
    const TypeSpec& t = in.type;
    if (t.rank)
      bind_affine(*t.rank, Val::integer(static_cast<int64_t>(shapes[0].size())), "the rank of input '" + in.name + "'");
    std::vector<std::optional<int64_t>> lengths;
    if (!item_lengths(t, lengths)) return false;
    std::map<size_t, std::vector<Val>> distinct;  // item → its extent in each tensor of the pack
    for (size_t s = 0; s < shapes.size(); ++s) {
      const std::vector<Val>& shape = shapes[s];
      const std::string what = "input '" + in.name + "'" + (shapes.size() > 1 ? " item " + std::to_string(s) : "");
      int64_t fixed = 0;
      for (const auto& n : lengths) fixed += n.value_or(0);
      const int64_t rank = static_cast<int64_t>(shape.size());
      const bool open = std::any_of(lengths.begin(), lengths.end(), [](const auto& n) { return !n; });
      if (open ? rank < fixed : rank != fixed)
        fail("nnef2.compose.shape",
             what + " has rank " + std::to_string(rank) + ", but the definition requires " + (open ? "at least " : "") +
                 std::to_string(fixed),
             in.loc);
      size_t axis = 0;
      for (size_t k = 0; k < t.shape.size(); ++k) {
        const ShapeItem& item = t.shape[k];
        const size_t n = static_cast<size_t>(lengths[k].value_or(rank - fixed));
        if (repeated(item)) {
          // `1 ..(squeeze ? 1 : 0)`, `c..(ncx)`: one extent, n times (a bool count: once or not, §2.3)
          for (size_t j = 0; j < n; ++j)
            bind_affine(*item.extent, shape[axis + j], "extent " + std::to_string(axis + j) + " of " + what);
        } else if (item.pack) {
          const std::vector<Val> part(shape.begin() + static_cast<long>(axis),
                                      shape.begin() + static_cast<long>(axis + n));
          if (item.pack->count && !bound(*item.pack->count))
            bind_affine(*item.pack->count, Val::integer(static_cast<int64_t>(n)),
                        "the length of '" + ast_name(item) + "' in " + what);
          bind_pack(item, part, "the extents of '" + ast_name(item) + "' in " + what);
        } else if (item.spread) {
          distinct[k].push_back(shape[axis]);
        } else if (n == 1) {
          bind_affine(*item.extent, shape[axis], "extent " + std::to_string(axis) + " of " + what);
        }
        axis += n;
      }
    }
    for (const auto& [k, values] : distinct)
      bind_pack(t.shape[k], values, "the distinct extents of input '" + in.name + "'");
    return true;
  }
  // Whether a packed item repeats one extent rather than naming a pack: an expression that is not a
  // name (`1 ..(n)`), or a count that is a bool.
  bool repeated(const ShapeItem& item) const {
    if (!item.pack || !item.pack->count) return false;
    if (item.extent->kind != ExprKind::Identifier) return true;
    return bound(*item.pack->count) && eval(*item.pack->count).kind == Kind::Bool;
  }
  static std::string ast_name(const ShapeItem& item) {
    return item.extent->kind == ExprKind::Identifier ? item.extent->text : "a packed extent";
  }

  // The tensors of an input's argument, checked against its declaration.
  // Each tensor's extents, with their terms.
  std::vector<Val> extents(const Val& tensor) const {
    std::vector<Val> out;
    for (size_t k = 0; k < tensor.shape.size(); ++k) out.push_back(extent_of(tensor, k, conditions()));
    return out;
  }
  std::vector<std::vector<Val>> tensor_shapes(const ParamDef& in, const Val& arg) {
    std::vector<std::vector<Val>> shapes;
    if (in.type.pack) {
      if (!arg.is_pack())
        fail("nnef2.compose.argument", "input '" + in.name + "' is a pack of tensors, given " + show(arg), in.loc);
      for (const Val& v : arg.items) {
        if (v.kind != Kind::Tensor) fail("nnef2.compose.argument", "input '" + in.name + "' given " + show(v), in.loc);
        shapes.push_back(extents(v));
      }
      if (in.type.pack->count)
        bind_affine(*in.type.pack->count, Val::integer(static_cast<int64_t>(shapes.size())),
                    "the length of input '" + in.name + "'");
      if (shapes.empty()) fail("nnef2.compose.argument", "input '" + in.name + "' is given no tensor", in.loc);
    } else {
      if (arg.kind != Kind::Tensor)
        fail("nnef2.compose.argument", "input '" + in.name + "' given " + show(arg), in.loc);
      shapes.push_back(extents(arg));
    }
    return shapes;
  }

  // A missing optional input: its shape symbols that nothing bound are null.
  void bind_null_shape(const ParamDef& in) {
    if (in.type.rank && in.type.rank->kind == ExprKind::Identifier) symbols().try_emplace(in.type.rank->text);
    for (const ShapeItem& item : in.type.shape) {
      if (item.extent->kind == ExprKind::Identifier) symbols().try_emplace(item.extent->text);
      if (item.pack && item.pack->count && item.pack->count->kind == ExprKind::Identifier)
        symbols().try_emplace(item.pack->count->text);
    }
  }

  void bind_inputs() {
    const std::vector<ParamDef>& inputs = params(op_, BlockKind::Input);
    if (args_.inputs.size() > inputs.size())
      fail("nnef2.compose.argument",
           "given " + std::to_string(args_.inputs.size()) + " inputs; it has " + std::to_string(inputs.size()),
           op_.loc);
    std::vector<const ParamDef*> required, optional;
    for (size_t k = 0; k < inputs.size(); ++k) {
      const Val arg = k < args_.inputs.size() ? args_.inputs[k] : Val{};
      if (arg.is_null() && !inputs[k].type.optional)
        fail("nnef2.compose.argument", "input '" + inputs[k].name + "' is not optional and not given", inputs[k].loc);
      symbols()[inputs[k].name] = arg;
      (inputs[k].type.optional ? optional : required).push_back(&inputs[k]);
    }
    for (size_t k = 0; k < args_.inputs.size(); ++k) check_input_types(inputs[k], args_.inputs[k]);
    default_generics();
    bind_in_order(required);
    bind_in_order(optional);
  }

  // §2.6.2: the inputs in declaration order, again and again, each as soon as
  // it binds unambiguously.
  void bind_in_order(std::vector<const ParamDef*> waiting) {
    while (!waiting.empty()) {
      const size_t before = waiting.size();
      for (auto it = waiting.begin(); it != waiting.end();) {
        const ParamDef& in = **it;
        const Val arg = symbols()[in.name];
        if (arg.is_null()) {
          bind_null_shape(in);
          it = waiting.erase(it);
        } else if (bind_shape(in, tensor_shapes(in, arg))) {
          it = waiting.erase(it);
        } else {
          ++it;
        }
      }
      if (waiting.size() == before && !bind_ready_helpers())
        fail("nnef2.compose.binding",
             "input '" + waiting[0]->name + "' has more than one packed extent of unknown length", waiting[0]->loc);
    }
  }

  // --- attributes after the inputs
  // -------------------------------------------------------------

  void bind_deferred_attributes() {
    bool progress = true;
    while (progress && !deferred_.empty()) {
      progress = false;
      for (auto it = deferred_.begin(); it != deferred_.end();) {
        const ParamDef& a = **it;
        if (a.value && bound(*a.value)) {
          const Val v = coerce(eval(*a.value), a.type.type, conditions(), a.loc);
          if (v.is_null())
            fail("nnef2.compose.attribute", "attribute '" + a.name + "' must be given here (its default is null)",
                 a.loc);
          symbols()[a.name] = v;
          it = deferred_.erase(it);
          progress = true;
        } else {
          ++it;
        }
      }
    }
    if (!deferred_.empty())
      fail("nnef2.compose.attribute", "attribute '" + deferred_[0]->name + "' is not given and has no default",
           deferred_[0]->loc);
  }

  void bind_pack_lengths() {
    const std::vector<ParamDef>& attrs = params(op_, BlockKind::Attrib);
    for (int pass = 0; pass < 2; ++pass)  // packs given as lists first: they may bind the lengths
      for (const ParamDef& a : attrs) {
        if (!a.type.pack) continue;
        Val& v = symbols()[a.name];
        if (v.is_null() || v.is_pack() != (pass == 0)) continue;
        const ExprPtr& count = a.type.pack->count;
        if (v.is_pack()) {
          if (count)
            bind_affine(*count, Val::integer(static_cast<int64_t>(v.items.size())),
                        "the length of attribute '" + a.name + "'");
          continue;
        }
        if (!count || !bound(*count))
          fail("nnef2.compose.attribute",
               "attribute '" + a.name + "' is given one value, but its pack length is not known", a.loc);
        const Val n = eval(*count);
        pin(n, "the length of '" + a.name + "'", a.loc, conditions());
        if (n.kind != Kind::Int || n.i < 0 || n.i > (int64_t{1} << 16))
          fail("nnef2.compose.attribute", "the length of '" + a.name + "' is " + show(n), a.loc);
        v = Val::pack(std::vector<Val>(static_cast<size_t>(n.i), v));
      }
  }

  // --- helpers, assertions, outputs
  // -------------------------------------------------------------

  void check(const Assertion& a) {
    const Val c = eval(*a.condition);
    if (c.is_null()) return;  // §2.4.1: a null assertion is not checked
    const std::vector<Val> items = c.is_pack() ? c.items : std::vector<Val>{c};
    bool holds = true;
    for (const Val& x : items) {
      if (x.kind != Kind::Bool) fail("nnef2.compose.assert-type", "an assertion evaluates to " + show(c), a.loc);
      holds = holds && x.b;
    }
    if (holds) {
      for (const Val& x : items)
        require_term(x, name_ + ": @assert `" + assertion_text(source_, a.loc) + "` (" + located(a.loc) + ")",
                     conditions());
      return;
    }
    std::string message = "@assert `" + assertion_text(source_, a.loc) + "` fails";
    if (a.message) message += ": " + eval(*a.message).s;
    std::string values;
    for (const AssertArg& arg : a.args) {
      const std::string label = !arg.label.empty()                        ? arg.label
                                : arg.value->kind == ExprKind::Identifier ? arg.value->text
                                : arg.value->kind == ExprKind::Member ? arg.value->args[0]->text + "." + arg.value->text
                                                                      : "value";
      values += (values.empty() ? "" : ", ") + label + " = " + show(eval(*arg.value));
    }
    fail("nnef2.assert.failed", message + (values.empty() ? "" : " (" + values + ")"), a.loc);
  }

  // §2.9: each assertion is checked as soon as every name it reads is bound.
  void check_ready(std::vector<const Assertion*>& pending, bool all) {
    for (auto it = pending.begin(); it != pending.end();) {
      if (all || bound(*(*it)->condition)) {
        check(**it);
        it = pending.erase(it);
      } else {
        ++it;
      }
    }
  }

  // The @using helpers an input's shape needs before it binds (space_to_depth's `c..(ncx)`, ncx
  // from the attribute data_format): those whose names are all bound, in order; whether any was.
  // run_usings_and_asserts computes them again, with the same value.
  bool bind_ready_helpers() {
    bool any = false;
    if (const Block* b = find_block(op_, BlockKind::Using))
      for (const Using& u : b->usings) {
        if (u.lhs.bracketed || u.lhs.items.size() != 1 || u.lhs.items[0].form != LvalueItem::Form::Name) continue;
        const std::string& name = u.lhs.items[0].names[0];
        if (symbols().count(name) || !bound(*u.value)) continue;
        symbols()[name] = eval(*u.value);
        any = true;
      }
    return any;
  }

  void run_usings_and_asserts() {
    std::vector<const Assertion*> pending;
    if (const Block* b = find_block(op_, BlockKind::Assert))
      for (const Assertion& a : b->assertions) pending.push_back(&a);
    check_ready(pending, false);
    if (const Block* b = find_block(op_, BlockKind::Using))
      for (const Using& u : b->usings) {
        if (u.lhs.bracketed || u.lhs.items.size() != 1 || u.lhs.items[0].form != LvalueItem::Form::Name)
          fail("nnef2.compose.unsupported", "a @using that unpacks into several names is not composed yet", u.loc);
        const LvalueItem& name = u.lhs.items[0];
        const Val v = eval(*u.value);
        if (name.pack && name.pack->count) {  // `comp_axes..(d) = ...`: a pack of that length
          if (!v.is_pack())
            fail("nnef2.compose.shape", "helper '" + name.names[0] + "' is " + show(v) + ", not a pack", u.loc);
          bind_affine(*name.pack->count, Val::integer(static_cast<int64_t>(v.items.size())),
                      "the length of helper '" + name.names[0] + "'");
        }
        symbols()[name.names[0]] = v;
        check_ready(pending, false);
      }
    check_ready(pending, true);
  }

  // An extent with a count, `1 ..(n)` or `1 ..(!squeeze)` (§2.3: a bool count includes it once or not):
  // that many times.
  Val repeated(const ShapeItem& item, const Val& extent) const {
    if (!item.pack || !item.pack->count || extent.is_pack() || extent.is_null()) return extent;
    const Val count = eval(*item.pack->count);
    if (count.is_null()) return Val{};
    const int64_t n = out_.env.number(count, "a repeat count", item.pack->loc);
    if (n < 0) fail("nnef2.compose.output-extent", "an extent repeated " + std::to_string(n) + " times", item.loc);
    return Val::pack(std::vector<Val>(static_cast<size_t>(n), extent));
  }

  // The length of a packed output: its count, or the length of the packs its `..` extents take
  // per item (`T[s.., ..sizes, t..]..(n)`).
  int64_t pack_length(const ParamDef& o) const {
    if (o.type.pack->count) {
      const Val n = eval(*o.type.pack->count);
      if (n.kind == Kind::Int && n.i >= 0) return n.i;
      fail("nnef2.compose.output-extent", "packed output '" + o.name + "' gets the length " + show(n), o.loc);
    }
    for (const ShapeItem& item : o.type.shape)
      if (item.spread)
        if (const Val v = eval(*item.extent); v.is_pack()) return static_cast<int64_t>(v.items.size());
    fail("nnef2.compose.output-extent", "the length of packed output '" + o.name + "' is not known", o.loc);
  }

  BoundInvocation outputs() {
    for (const ParamDef& o : params(op_, BlockKind::Output)) {
      const int64_t packed = o.type.pack ? pack_length(o) : -1;
      out_.output_packs.push_back(packed);
      const int64_t tensors = packed < 0 ? 1 : packed;
      for (int64_t k = 0; k < tensors; ++k) {
        const std::string name = packed < 0 ? o.name : o.name + "[" + std::to_string(k) + "]";
        std::vector<int64_t> shape;
        std::vector<SizeTerm> terms;
        for (const ShapeItem& item : o.type.shape) {
          Val v = repeated(item, eval(*item.extent));
          if (v.is_null()) continue;
          if (packed >= 0 && item.spread) {  // `..sizes`: item k of the pack, one extent per tensor of the output
            if (!v.is_pack() || static_cast<int64_t>(v.items.size()) != packed)
              fail("nnef2.compose.output-extent",
                   "packed output '" + o.name + "' of " + std::to_string(packed) + " tensors takes its extent from " +
                       show(v) + ", not a pack of that length",
                   item.loc);
            v = v.items[static_cast<size_t>(k)];
          }
          for (const Val& x : v.is_pack() ? v.items : std::vector<Val>{v}) {
            if (x.kind != Kind::Int || x.i < 0)
              fail("nnef2.compose.output-extent", "output '" + name + "' gets the extent " + show(x), item.loc);
            shape.push_back(x.i);
            terms.push_back(x.term);
          }
        }
        const auto generic = symbols().find(o.type.type);
        const bool is_generic = find_dtype(o.type.type) && generic != symbols().end();
        out_.output_types.push_back(elem_type(is_generic ? generic->second.s : o.type.type).value_or(ElemType::Real));
        out_.output_names.push_back(name);
        out_.output_shapes.push_back(std::move(shape));
        out_.output_terms.push_back(std::move(terms));
      }
    }
    return std::move(out_);
  }

  const OpDef& op_;
  const std::string& name_;
  const InvocationArgs& args_;
  std::string_view source_;
  BoundInvocation out_;
  std::vector<const ParamDef*> deferred_;
};

}  // namespace

BoundInvocation bind_invocation(const OpDef& op, const std::string& name, const InvocationArgs& args,
                                std::string_view source) {
  return Binder(op, name, args, source).run();
}

std::string assertion_text(std::string_view source, const SourceLoc& loc) {
  size_t pos = 0;
  for (int line = 1; line < loc.line && pos != std::string_view::npos; ++line) {
    pos = source.find('\n', pos);
    if (pos != std::string_view::npos) ++pos;
  }
  if (pos == std::string_view::npos) return {};
  pos += static_cast<size_t>(std::max(loc.column - 1, 0));
  std::string out;
  int depth = 0;
  char quote = 0;
  for (; pos < source.size(); ++pos) {
    const char c = source[pos];
    if (quote) {
      quote = c == quote ? 0 : quote;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '(' || c == '[') {
      ++depth;
    } else if (c == ')' || c == ']') {
      --depth;
    } else if (depth == 0 && (c == ';' || c == ':')) {
      break;
    }
    if (c == '\n' || c == ' ') {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace nnref::nnef2
