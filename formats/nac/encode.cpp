#include "formats/nac/encode.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "formats/nac/ir_fields.hpp"
#include "formats/nac/quantize.hpp"
#include "formats/nac/weights.hpp"
#include "semantics/wellformed.hpp"

namespace nnref::nac {

namespace {

[[noreturn]] void fail(const std::string& code, const std::string& message) { throw FormatError{code, message, 0}; }

// One argument before the op's index is known: an earlier instruction, a parameter of the node
// (loaded just before the op), or a constant.
struct PendingArg {
  char code = 'T';
  int64_t source = -1;
  std::string role;
  std::optional<uint16_t> constant;
};

class Encoder;

// The writer's side of ir_fields.hpp.
class ArgWriter {
 public:
  ArgWriter(Encoder& e, const Node& n) : e_(e), n_(n) {}
  void inputs();
  void integer(const int64_t& v);
  void size(const size_t& v) { integer(static_cast<int64_t>(v)); }
  void ints(const std::vector<int64_t>& v);
  void pairs(const std::vector<std::pair<int64_t, int64_t>>& v) {
    std::vector<int64_t> flat;
    for (const auto& [a, b] : v) flat.insert(flat.end(), {a, b});
    ints(flat);
  }
  void real(const Real& v);
  void boolean(const bool& v);
  template <class E>
  void choice(const E& e) { integer(static_cast<int64_t>(e)); }
  void param(const std::string& role, char code) { args.push_back({code, -1, role, std::nullopt}); }
  void not_an_operation() { fail("nac.write.op", "node '" + n_.name + "' cannot be written as an operation"); }

  std::vector<PendingArg> args;

 private:
  Encoder& e_;
  const Node& n_;
};

class Encoder {
 public:
  Encoder(const Model& m, const WriteOptions& o) : m_(m), o_(o) {}

  Encoded run() {
    auto info = infer_shapes(m_.graph);
    if (!info) fail(info.error().code, "the model's shapes: " + info.error().message);
    info_ = std::move(*info);
    for (const Node& n : m_.graph.nodes) {
      if (!n.param_values.empty())
        fail("nac.write.weights", "node '" + n.name + "': its parameter '" + n.param_values.front().role +
                                      "' is computed in the graph, and NAC loads parameters from its weights only");
      node(n);
    }
    output();
    p_.header.num_outputs = static_cast<uint16_t>(m_.graph.outputs.size());
    p_.header.quant = o_.quant;
    p_.header.internal_weights = !o_.external_weights;
    manifest();
    ScheduleOptions s = o_.schedule;
    s.value_bytes = bytes_;
    p_.mmap = compute_schedule(p_, s);
    p_.has_mmap = true;
    Encoded out;
    if (o_.external_weights)
      out.safetensors = safetensors();
    else
      internal_tensors();
    out.nac = serialize(p_, tensor_data_);
    return out;
  }

  uint16_t constant(Constant c) {
    const std::string key = constant_key(c);
    auto it = constant_ids_.find(key);
    if (it != constant_ids_.end()) return it->second;
    const auto id = static_cast<uint16_t>(p_.constants.size());
    if (p_.constants.size() >= 65535) fail("nac.write.limit", "the model needs more than 65535 constants");
    p_.constants.emplace(id, std::move(c));
    constant_ids_.emplace(key, id);
    return id;
  }

  int64_t value_index(ValueRef r) const { return value_index_.at({r.node, r.output}); }

 private:
  static std::string constant_key(const Constant& c) {
    std::string k = std::to_string(static_cast<int>(c.type)) + ":" + std::to_string(c.b) + ":" + std::to_string(c.i) +
                    ":" + c.s + ":";
    ByteWriter w;
    w.f64(c.f);
    for (int64_t v : c.ints) w.u64(static_cast<uint64_t>(v));
    w.u8(0xff);
    for (double v : c.floats) w.f64(v);
    return k + w.bytes();
  }

  size_t add(Instruction ins, int64_t bytes) {
    if (p_.ops.size() >= 32767) fail("nac.write.limit", "the model needs more than 32767 instructions");
    p_.ops.push_back(std::move(ins));
    bytes_.push_back(bytes);
    return p_.ops.size() - 1;
  }

  static int64_t float32_bytes(const Shape& s) { return s.count() * 4; }

  std::string param_name(const std::string& node, const std::string& role) {
    auto it = m_.param_keys.find({node, role});
    std::string name = it != m_.param_keys.end() ? it->second : node + "." + role;
    for (int k = 2; used_names_.count(name); ++k) name = (it != m_.param_keys.end() ? it->second : node + "." + role) + "#" + std::to_string(k);
    used_names_.insert(name);
    return name;
  }

  // <INPUT B=1> for (node, role), with its tensor in DATA.
  // An integer or logical constant is stored as int64 or bool, so that the reader knows its kind.
  size_t param_load(const std::string& node, const std::string& role, ElemKind kind = ElemKind::Real) {
    const ParamEntry* e = m_.payload.find(node, role);
    if (!e) fail("nac.write.weights", "parameter '" + node + "/" + role + "' has no weights to write");
    const auto id = static_cast<uint16_t>(p_.param_names.size());
    const std::string name = param_name(node, role);
    p_.param_names.emplace(id, name);
    if (kind != ElemKind::Real) {
      ParamEntry& typed = typed_[id] = *e;
      typed.tensor.dtype = kind == ElemKind::Integer ? DType::I64 : DType::Bool;
      e = &typed;
    }
    tensors_.emplace(id, e);
    Instruction ins;
    ins.a = kOpInput;
    ins.b = kInputParam;
    ins.name = "<INPUT>";
    ins.c = {2, static_cast<int16_t>(id)};
    ins.ref_id = id;
    return add(std::move(ins), float32_bytes(e->tensor.shape));
  }

  void node(const Node& n) {
    const NodeInfo& ni = info_.nodes[static_cast<size_t>(n.id)];
    if (const auto* in = std::get_if<InputAttrs>(&n.op)) {
      Instruction ins;
      ins.a = kOpInput;
      ins.b = kInputUser;
      ins.name = "<INPUT>";
      const size_t i = add(std::move(ins), float32_bytes(ni.outputs[0]));
      p_.input_names.emplace(static_cast<uint16_t>(i), n.name);
      ++p_.header.num_inputs;
      inputs_[n.name] = {in->dims, in->kind};
      value_index_[{n.id, 0}] = static_cast<int64_t>(i);
      return;
    }
    if (const auto* c = std::get_if<ConstAttrs>(&n.op)) {
      value_index_[{n.id, 0}] = static_cast<int64_t>(param_load(n.name, "value", c->kind));
      return;
    }
    ArgWriter w(*this, n);
    std::string name = standard_name(n.op);
    if (name.empty()) {
      OpAttrs copy = n.op;
      std::visit([&](auto& a) { fields(w, a); }, copy);
      name = "nnref." + op_name(n.op);
    } else {
      w.inputs();
    }
    std::map<std::string, size_t> params;
    for (const PendingArg& a : w.args)
      if (!a.role.empty()) params[a.role] = param_load(n.name, a.role);
    const size_t index = p_.ops.size();
    Instruction ins = instruction(name, w.args, params, index);
    const size_t outputs = ni.outputs.size();
    add(std::move(ins), outputs == 1 ? float32_bytes(ni.outputs[0]) : 0);
    if (outputs == 1) {
      value_index_[{n.id, 0}] = static_cast<int64_t>(index);
      return;
    }
    for (size_t k = 0; k < outputs; ++k) {  // getitem picks each result of a multi-result op
      std::vector<PendingArg> args = {{'T', static_cast<int64_t>(index), "", std::nullopt}};
      Constant c;
      c.type = Constant::Type::Int64;
      c.i = static_cast<int64_t>(k);
      args.push_back({'i', -1, "", constant(c)});
      const size_t at = p_.ops.size();
      value_index_[{n.id, static_cast<int>(k)}] =
          static_cast<int64_t>(add(instruction("getitem", args, {}, at), float32_bytes(ni.outputs[k])));
    }
  }

  // The standard operation that is exactly this IR op, or "".
  static std::string standard_name(const OpAttrs& op) {
    if (const auto* b = std::get_if<BinaryAttrs>(&op); b && b->broadcast == Broadcast::NumpyRight) {
      switch (b->op) {
        case BinaryOp::Add: return "nac.add";
        case BinaryOp::Sub: return "nac.sub";
        case BinaryOp::Mul: return "nac.mul";
        case BinaryOp::Div: return "nac.div";
        default: return "";
      }
    }
    if (const auto* u = std::get_if<UnaryAttrs>(&op); u && u->alpha.value == 0.0 && u->alpha.decimal.empty()) {
      if (u->op == UnaryOp::Neg) return "nac.neg";
      if (u->op == UnaryOp::Copy) return "nac.clone";
    }
    if (const auto* mm = std::get_if<MatMulAttrs>(&op); mm && !mm->transpose_a && !mm->transpose_b) return "nac.matmul";
    if (const auto* s = std::get_if<SelectAttrs>(&op); s && s->broadcast == Broadcast::NumpyRight && s->kind == ElemKind::Real)
      return "nac.where";  // which the reader reads as a select of reals
    return "";
  }

  uint8_t op_id(const std::string& name) {
    if (auto id = standard_op_id(name)) return *id;
    for (const auto& [id, n] : p_.cmap)
      if (n == name) return static_cast<uint8_t>(id);
    const auto id = static_cast<uint16_t>(201 + p_.cmap.size());  // §5.1.3: custom ids from 201
    if (id > 255) fail("nac.write.limit", "the model needs more than 55 custom operations");
    p_.cmap.emplace(id, name);
    return static_cast<uint8_t>(id);
  }

  uint8_t signature_id(const std::string& sig) {
    if (sig.empty()) return 0;
    for (const auto& [id, s] : p_.perm)
      if (s == sig) return static_cast<uint8_t>(id);
    const auto id = static_cast<uint16_t>(1 + p_.perm.size());
    if (id > 255 || sig.size() > 255) fail("nac.write.limit", "the model needs more than 255 signatures, or a longer one");
    p_.perm.emplace(id, sig);
    return static_cast<uint8_t>(id);
  }

  Instruction instruction(const std::string& name, const std::vector<PendingArg>& args,
                          const std::map<std::string, size_t>& params, size_t index) {
    Instruction ins;
    ins.name = name;
    ins.a = op_id(name);
    std::string sig;
    std::vector<int16_t> ids;
    for (PendingArg a : args) {
      sig += a.code;
      if (!a.role.empty()) a.source = static_cast<int64_t>(params.at(a.role));
      Argument arg;
      arg.code = a.code;
      if (a.constant) {
        arg.constant = a.constant;
        ids.push_back(static_cast<int16_t>(*a.constant));
      } else {
        const int64_t d = a.source - static_cast<int64_t>(index);
        if (d < -32768) fail("nac.write.limit", "instruction " + std::to_string(index) + " reads a result more than 32768 instructions back");
        arg.d = static_cast<int16_t>(d);
        arg.source = a.source;
      }
      ins.d.push_back(arg.d);
      ins.args.push_back(arg);
    }
    ins.signature = sig;
    ins.b = signature_id(sig);
    if (std::any_of(sig.begin(), sig.end(), [](char c) { return std::string_view("ASifbsc").find(c) != std::string_view::npos; })) {
      ins.c.push_back(static_cast<int16_t>(ids.size()));
      ins.c.insert(ins.c.end(), ids.begin(), ids.end());
    }
    return ins;
  }

  void output() {
    Instruction ins;
    ins.a = kOpOutput;
    ins.b = 0;
    ins.name = "<OUTPUT>";
    const size_t index = p_.ops.size();
    ins.c.assign(m_.graph.outputs.size() + 1, 0);
    ins.c[0] = static_cast<int16_t>(m_.graph.outputs.size() + 1);
    for (const GraphOutput& o : m_.graph.outputs) {
      const int64_t s = value_index(o.value);
      ins.sources.push_back(s);
      ins.d.push_back(static_cast<int16_t>(s - static_cast<int64_t>(index)));
    }
    add(std::move(ins), 0);
  }

  void manifest() {
    nlohmann::json j;
    j["inputs"] = nlohmann::json::object();
    for (const auto& [name, v] : inputs_)
      j["inputs"][name] = {{"shape", v.first},
                           {"kind", v.second == ElemKind::Real ? "real" : v.second == ElemKind::Integer ? "integer" : "logical"}};
    j["outputs"] = nlohmann::json::array();
    for (const GraphOutput& o : m_.graph.outputs) j["outputs"].push_back(o.name);
    p_.resources.push_back({kIoManifest, j.dump()});
  }

  Quantized stored(uint16_t id) const {
    auto q = quantize(tensors_.at(id)->tensor, o_.quant, p_.param_names.at(id));
    if (auto* e = std::get_if<FormatError>(&q)) throw *e;
    return std::get<Quantized>(std::move(q));
  }

  std::string safetensors() {
    nlohmann::json header = nlohmann::json::object();
    std::string data;
    auto put = [&](const std::string& name, const char* dtype, const std::vector<int64_t>& shape, const std::string& bytes) {
      header[name] = {{"dtype", dtype}, {"shape", shape}, {"data_offsets", {data.size(), data.size() + bytes.size()}}};
      data += bytes;
    };
    for (const auto& [id, e] : tensors_) {
      Quantized q = stored(id);
      const char* dtype = safetensors_name(q.dtype);
      put(p_.param_names.at(id), dtype, e->tensor.shape.dims(), q.values);
      if (q.scales.empty()) continue;
      ByteWriter s;
      for (float f : q.scales) s.f32(f);
      put(scale_name(p_.param_names.at(id)), "F32", {static_cast<int64_t>(q.scales.size())}, s.bytes());
    }
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');
    ByteWriter out;
    out.u64(text.size());
    out.raw(text);
    out.raw(data);
    return std::move(out.bytes());
  }

  static std::string scale_name(const std::string& n) { return scale_tensor_name(n); }

  // DATA block 3 records (internal weights only).
  void internal_tensors() {
    for (const auto& [id, e] : tensors_) {
      Quantized q = stored(id);
      TensorRecord t;
      t.dtype = q.dtype;
      t.quant = q.dtype == DataType::F16 ? Quant::Fp16 : q.scales.empty() ? Quant::None : o_.quant;
      t.shape = e->tensor.shape.dims();
      ByteWriter w;
      for (float f : q.scales) w.f32(f);
      w.raw(q.values);
      t.data_length = w.size();
      p_.tensors.emplace(id, std::move(t));
      tensor_data_.emplace(id, std::move(w.bytes()));
    }
  }

  const Model& m_;
  const WriteOptions& o_;
  GraphInfo info_;
  Program p_;
  std::vector<int64_t> bytes_;
  std::map<std::pair<int64_t, int>, int64_t> value_index_;
  std::map<std::string, uint16_t> constant_ids_;
  std::map<uint16_t, const ParamEntry*> tensors_;
  std::map<uint16_t, ParamEntry> typed_;  // integer and logical constants, with their stored dtype
  std::map<uint16_t, std::string> tensor_data_;
  std::set<std::string> used_names_;
  std::map<std::string, std::pair<std::vector<int64_t>, ElemKind>> inputs_;

};

void ArgWriter::inputs() {
  for (const ValueRef& r : n_.inputs) args.push_back({'T', e_.value_index(r), "", std::nullopt});
}

void ArgWriter::integer(const int64_t& v) {
  Constant c;
  c.type = Constant::Type::Int64;
  c.i = v;
  args.push_back({'i', -1, "", e_.constant(c)});
}

void ArgWriter::ints(const std::vector<int64_t>& v) {
  Constant c;
  c.type = Constant::Type::IntList;
  for (int64_t x : v) {
    if (x < INT32_MIN || x > INT32_MAX) fail("nac.write.limit", "node '" + n_.name + "' has an attribute beyond int32");
    c.ints.push_back(x);
  }
  if (v.size() > 65535) fail("nac.write.limit", "node '" + n_.name + "' has a list attribute of more than 65535 entries");
  args.push_back({'S', -1, "", e_.constant(c)});
}

// A real the source states as a decimal keeps it (a string constant); any other is its float64.
void ArgWriter::real(const Real& v) {
  Constant c;
  if (v.decimal.empty()) {
    c.type = Constant::Type::Float64;
    c.f = v.value;
    args.push_back({'f', -1, "", e_.constant(c)});
  } else {
    c.type = Constant::Type::String;
    c.s = v.decimal;
    args.push_back({'s', -1, "", e_.constant(c)});
  }
}

void ArgWriter::boolean(const bool& v) {
  Constant c;
  c.type = Constant::Type::Bool;
  c.b = v;
  args.push_back({'b', -1, "", e_.constant(c)});
}

}  // namespace

std::variant<Encoded, FormatError> encode(const Model& m, const WriteOptions& o) {
  try {
    Encoder e(m, o);
    return e.run();
  } catch (const FormatError& e) {
    return e;
  }
}

}  // namespace nnref::nac
