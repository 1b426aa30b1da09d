#include "formats/nnl/layers.hpp"

#include <cmath>
#include <cstdint>
#include <map>

#include "semantics/spelling.hpp"

namespace nnref::nnl {

namespace {

using PT = ParamType;

// NNL axes count the per-sample shape: the batch axis every tensor leads with is not addressable.
constexpr size_t kBatchAxes = 1;

const std::vector<LayerSpec>& specs() {
  static const std::vector<LayerSpec> s = {
      {"Input", {{"shape", PT::Shape, true}}, {}, 0, 0},
      {"Dense", {{"units", PT::Integer, true}, {"activation", PT::String, false}},
       {{"weight", "weight"}, {"bias", "bias"}}, 1, 1},
      {"Conv2D",
       {{"filters", PT::Integer, true}, {"kernel", PT::IntegerOrShape, true}, {"stride", PT::IntegerOrShape, false},
        {"padding", PT::String, false}},
       {{"weight", "weight"}, {"bias", "bias"}}, 1, 1},
      {"MaxPool2D", {{"kernel", PT::IntegerOrShape, true}, {"stride", PT::IntegerOrShape, false}}, {}, 1, 1},
      {"AvgPool2D", {{"kernel", PT::IntegerOrShape, true}, {"stride", PT::IntegerOrShape, false}}, {}, 1, 1},
      {"Flatten", {}, {}, 1, 1},
      {"BatchNorm", {{"epsilon", PT::Number, false}},
       {{"gamma", "scale"}, {"beta", "offset"}, {"running_mean", "mean"}, {"running_var", "variance"}}, 1, 1},
      {"Dropout", {{"rate", PT::Number, false}}, {}, 1, 1},
      {"Add", {}, {}, 2, -1},
      {"Concat", {{"axis", PT::Integer, false}}, {}, 2, -1},
      {"ReLU", {}, {}, 1, 1},
      {"Sigmoid", {}, {}, 1, 1},
      {"Softmax", {{"axis", PT::Integer, false}}, {}, 1, 1},
  };
  return s;
}

const char* type_name(ParamType t) {
  switch (t) {
    case PT::Integer: return "an integer";
    case PT::Number: return "a number";
    case PT::String: return "a string";
    case PT::Shape: return "a shape ([n, ...])";
    case PT::IntegerOrShape: return "an integer or a shape ([h, w])";
  }
  return "a value";
}

bool type_ok(ParamType t, Value::Kind k) {
  using K = Value::Kind;
  switch (t) {
    case PT::Integer: return k == K::Integer;
    case PT::Number: return k == K::Integer || k == K::Number;
    case PT::String: return k == K::String;
    case PT::Shape: return k == K::Shape;
    case PT::IntegerOrShape: return k == K::Integer || k == K::Shape;
  }
  return false;
}

// Checks one declaration against its spec; the params that passed, by name.
class Checker {
 public:
  Checker(const LayerDecl& L, const LayerSpec& spec, Diags& d) : L_(L), spec_(spec), d_(d) {}

  bool check_params() {
    for (const Entry& e : L_.params) {
      const ParamSpec* ps = nullptr;
      for (const auto& p : spec_.params)
        if (e.key == p.name) ps = &p;
      if (!ps) {
        std::string known;
        std::vector<std::string> names;
        for (const auto& p : spec_.params) {
          known += (known.empty() ? "" : ", ") + std::string(p.name);
          names.emplace_back(p.name);
        }
        const auto meant = closest_spelling(e.key, names);
        std::vector<std::string> notes;
        if (meant) notes.push_back("did you mean '" + *meant + "'?");
        const size_t id = error("nnl.param.unknown",
                                std::string(spec_.type) + " has no parameter '" + e.key + "'" +
                                    (known.empty() ? " (it takes none)" : " (it takes: " + known + ")"),
                                e.loc, std::move(notes));
        if (meant) misspelt_[*meant] = id;
        continue;
      }
      if (given_.count(e.key)) {
        error("nnl.param.duplicate", "parameter '" + e.key + "' is given twice", e.loc);
        continue;
      }
      if (e.value.kind == Value::Kind::Invalid) {  // already reported
        ok_ = false;
        continue;
      }
      if (!type_ok(ps->type, e.value.kind)) {
        std::vector<std::string> notes;
        if (e.value.kind == Value::Kind::Ident) notes.push_back("strings are quoted: \"" + e.value.text + "\"");
        if (e.value.kind == Value::Kind::Number && ps->type != PT::String)
          notes.push_back("write an integer literal without '.' or exponent");
        error("nnl.param.type",
              "parameter '" + e.key + "' of " + spec_.type + " must be " + type_name(ps->type) + ", not " +
                  kind_name(e.value.kind),
              e.value.loc, std::move(notes));
        continue;
      }
      given_[e.key] = &e;
    }
    for (const auto& p : spec_.params) {
      if (p.required && !given_.count(p.name) && !mentioned(p.name)) {
        const size_t id = error("nnl.param.missing",
                                std::string(spec_.type) + " layer '" + L_.id + "' needs parameter '" + p.name + "'",
                                L_.type_loc);
        // Listed after the misspelling that caused it, though the layer type comes first in the text.
        if (auto cause = misspelt_.find(p.name); cause != misspelt_.end()) d_.follows(id, cause->second);
      }
    }
    return ok_;
  }

  const Entry* get(const char* name) const {
    auto it = given_.find(name);
    return it == given_.end() ? nullptr : it->second;
  }

  size_t error(const std::string& code, const std::string& message, const SourceLoc& loc,
               std::vector<std::string> notes = {}) {
    ok_ = false;
    return d_.error(code, message, loc, L_.id, std::move(notes));
  }
  bool ok() const { return ok_; }

  // A positive integer, from an Integer value.
  std::optional<int64_t> positive(const Entry& e) {
    if (e.value.integer <= 0) {
      error("nnl.param.value", "parameter '" + e.key + "' must be a positive integer, not " + e.value.text,
            e.value.loc);
      return std::nullopt;
    }
    return e.value.integer;
  }

  // Integer k → [k, k]; Shape [h, w] of positive integers.
  std::optional<std::vector<int64_t>> window(const Entry& e) {
    if (e.value.kind == Value::Kind::Integer) {
      auto k = positive(e);
      if (!k) return std::nullopt;
      return std::vector<int64_t>{*k, *k};
    }
    if (e.value.items.size() != 2) {
      error("nnl.param.value",
            "parameter '" + e.key + "' must have 2 entries [h, w], not " + std::to_string(e.value.items.size()),
            e.value.loc);
      return std::nullopt;
    }
    return positive_dims(e);
  }

  std::optional<std::vector<int64_t>> positive_dims(const Entry& e) {
    std::vector<int64_t> dims;
    for (const Value& v : e.value.items) {
      if (v.kind != Value::Kind::Integer || v.integer <= 0) {
        error("nnl.param.value",
              "every entry of '" + e.key + "' must be a positive integer, not " + v.text, v.loc);
        return std::nullopt;
      }
      dims.push_back(v.integer);
    }
    return dims;
  }

 private:
  bool mentioned(const std::string& name) const {
    for (const Entry& e : L_.params)
      if (e.key == name) return true;
    return false;
  }

  const LayerDecl& L_;
  const LayerSpec& spec_;
  Diags& d_;
  std::map<std::string, const Entry*> given_;
  std::map<std::string, size_t> misspelt_;  // a parameter's name → the error about a near miss of it
  bool ok_ = true;
};

std::optional<int64_t> axis_param(Checker& c, const char* name) {
  const Entry* e = c.get(name);
  if (!e) return -1;
  int64_t a = e->value.integer;
  if (a > 1'000'000 || a < -1'000'000) {
    c.error("nnl.param.value", std::string("axis ") + e->value.text + " is out of range", e->value.loc);
    return std::nullopt;
  }
  return a;
}

std::optional<LayerOps> lower_layer(const LayerDecl& L, Checker& c) {
  const std::string& t = L.type;
  LayerOps ops;
  if (t == "Input") {
    const Entry* e = c.get("shape");
    if (!e) return std::nullopt;
    if (e->value.items.empty()) {
      c.error("nnl.param.value", "Input shape must have at least one extent", e->value.loc);
      return std::nullopt;
    }
    auto dims = c.positive_dims(*e);
    if (!dims) return std::nullopt;
    ops.input_shape = *dims;
    ops.main = InputAttrs{{}, ElemKind::Real};
    return ops;
  }
  if (t == "Dense") {
    const Entry* u = c.get("units");
    if (!u) return std::nullopt;
    auto units = c.positive(*u);
    std::string act = "none";
    SourceLoc act_loc;
    if (const Entry* a = c.get("activation")) {
      act = a->value.text;
      act_loc = a->value.loc;
    }
    if (act == "relu") {
      ops.activation = {"relu", UnaryAttrs{UnaryOp::Relu, 0.0}};
    } else if (act == "sigmoid") {
      ops.activation = {"sigmoid", UnaryAttrs{UnaryOp::Sigmoid, 0.0}};
    } else if (act == "softmax") {
      ops.activation = {"softmax", SoftmaxAttrs{{-1}, kBatchAxes}};
    } else if (act != "none") {
      c.error("nnl.param.value",
              "activation must be \"none\", \"relu\", \"sigmoid\" or \"softmax\", not \"" + act + "\"", act_loc);
      return std::nullopt;
    }
    if (!units) return std::nullopt;
    ops.main = LinearAttrs{*units, WeightLayout::InOut, true};
    return ops;
  }
  if (t == "Conv2D") {
    const Entry* f = c.get("filters");
    const Entry* k = c.get("kernel");
    if (!f || !k) return std::nullopt;
    auto filters = c.positive(*f);
    auto kernel = c.window(*k);
    std::optional<std::vector<int64_t>> stride = std::vector<int64_t>{1, 1};
    if (const Entry* s = c.get("stride")) stride = c.window(*s);
    PadMode mode = PadMode::Valid;
    if (const Entry* p = c.get("padding")) {
      if (p->value.text == "same") {
        mode = PadMode::SameUpper;
      } else if (p->value.text != "valid") {
        c.error("nnl.param.value", "padding must be \"valid\" or \"same\", not \"" + p->value.text + "\"",
                p->value.loc);
        return std::nullopt;
      }
    }
    if (!filters || !kernel || !stride) return std::nullopt;
    ConvAttrs a;
    a.out_channels = *filters;
    a.kernel = *kernel;
    a.stride = *stride;
    a.pad_mode = mode;
    a.layout = Layout::ChannelsLast;
    a.has_bias = true;
    ops.main = a;
    return ops;
  }
  if (t == "MaxPool2D" || t == "AvgPool2D") {
    const Entry* k = c.get("kernel");
    if (!k) return std::nullopt;
    auto kernel = c.window(*k);
    std::optional<std::vector<int64_t>> stride = kernel;
    if (const Entry* s = c.get("stride")) stride = c.window(*s);
    if (!kernel || !stride) return std::nullopt;
    PoolAttrs a;
    a.op = t == "MaxPool2D" ? PoolOp::Max : PoolOp::Avg;
    a.kernel = *kernel;
    a.stride = *stride;
    a.pad_mode = PadMode::Valid;
    a.border = PoolBorder::Ignore;
    a.layout = Layout::ChannelsLast;
    ops.main = a;
    return ops;
  }
  if (t == "Flatten") {
    ops.main = FlattenAttrs{1};
    return ops;
  }
  if (t == "BatchNorm") {
    Real eps{1e-5, "1e-5"};  // NNL's default, as the reference states it
    if (const Entry* e = c.get("epsilon")) {
      eps = Real(e->value.number, e->value.text);  // the decimal as written
      if (!(eps.value > 0.0)) {
        c.error("nnl.param.value", "epsilon must be positive, not " + e->value.text, e->value.loc);
        return std::nullopt;
      }
    }
    ops.main = BatchNormAttrs{eps, -1};
    return ops;
  }
  if (t == "Dropout") {
    if (const Entry* e = c.get("rate")) {
      double r = e->value.number;
      if (!(r >= 0.0 && r < 1.0)) {
        c.error("nnl.param.value", "rate must be in [0, 1), not " + e->value.text, e->value.loc);
        return std::nullopt;
      }
    }
    ops.main = UnaryAttrs{UnaryOp::Copy, 0.0};
    return ops;
  }
  if (t == "Add") {
    ops.main = AddNAttrs{1};
    return ops;
  }
  if (t == "Concat" || t == "Softmax") {
    auto a = axis_param(c, "axis");
    if (!a) return std::nullopt;
    if (t == "Concat")
      ops.main = ConcatAttrs{*a, kBatchAxes};
    else
      ops.main = SoftmaxAttrs{{*a}, kBatchAxes};
    return ops;
  }
  if (t == "ReLU") {
    ops.main = UnaryAttrs{UnaryOp::Relu, 0.0};
    return ops;
  }
  if (t == "Sigmoid") {
    ops.main = UnaryAttrs{UnaryOp::Sigmoid, 0.0};
    return ops;
  }
  return std::nullopt;
}

}  // namespace

const LayerSpec* find_layer_spec(const std::string& type) {
  for (const auto& s : specs())
    if (type == s.type) return &s;
  return nullptr;
}

std::optional<LayerOps> check_layer(const LayerDecl& L, Diags& diags) {
  const LayerSpec* spec = find_layer_spec(L.type);
  if (!spec) {
    std::vector<std::string> notes, types;
    std::string known;
    for (const auto& s : specs()) {
      known += (known.empty() ? "" : ", ") + std::string(s.type);
      types.emplace_back(s.type);
    }
    if (auto meant = closest_spelling(L.type, types)) notes.push_back("did you mean '" + *meant + "'?");
    notes.push_back("the layer types are: " + known);
    diags.error("nnl.layer.unknown-type", "unknown layer type '" + L.type + "'", L.type_loc, L.id, std::move(notes));
    return std::nullopt;
  }
  Checker c(L, *spec, diags);
  c.check_params();
  auto ops = lower_layer(L, c);
  if (!c.ok()) return std::nullopt;
  return ops;
}

}  // namespace nnref::nnl
