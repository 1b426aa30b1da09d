#include "formats/nac/decode.hpp"

#include <algorithm>
#include <set>

#include "spec/shape.hpp"
#include "spec/escaped.hpp"

namespace nnref::nac {

namespace {

std::string at(uint64_t offset) { return " at byte " + std::to_string(offset); }

[[noreturn]] void fail(std::string code, std::string message, uint64_t offset) {
  throw FormatError{std::move(code), std::move(message) + at(offset), offset};
}

bool is_constant_code(char c) { return std::string_view("ASifbsc").find(c) != std::string_view::npos; }
bool is_signature_code(char c) {
  return is_constant_code(c) || std::string_view("QKVMBWTP").find(c) != std::string_view::npos;
}

class Decoder {
 public:
  explicit Decoder(std::string_view bytes) : bytes_(bytes) {}

  Program run() {
    header();
    if (has(Section::Cmap)) cmap();
    if (has(Section::Perm)) perm();
    if (has(Section::Cnst)) cnst();
    if (has(Section::Data)) data();
    if (has(Section::Proc)) proc();
    if (has(Section::Orch)) orch();
    if (has(Section::Rsrc)) rsrc();
    ops();
    if (has(Section::Mmap)) mmap();
    check_input_names();
    return std::move(p_);
  }

 private:
  bool has(Section s) const { return p_.header.offsets[static_cast<int>(s)] != 0; }

  // The section's data: after its tag, up to the next section's start or the end of the file.
  Cursor section(Section s) const {
    const uint64_t start = p_.header.offsets[static_cast<int>(s)];
    uint64_t end = bytes_.size();
    for (uint64_t o : p_.header.offsets)
      if (o > start) end = std::min(end, o);
    return Cursor(bytes_, start + 4, end, std::string("section ") + section_tag(s));
  }

  void header() {
    if (bytes_.size() < kHeaderSize)
      fail("nac.truncated", "a NAC file has an 88-byte header; this file has " + std::to_string(bytes_.size()) + " bytes",
           0);
    if (bytes_.substr(0, 3) != "NAC") fail("nac.magic", "the file does not begin with the magic bytes 'NAC'", 0);
    Cursor c(bytes_, 3, kHeaderSize, "the header");
    Header& h = p_.header;
    h.version = c.u8();
    if (h.version != kVersion)
      fail("nac.version",
           h.version == 2 ? "NAC version byte 2 (NAC v1.8) is later than v1.6 (version byte 1), the version nnref reads"
                          : "NAC version byte " + std::to_string(h.version) +
                                " is not v1.6 (version byte 1), the version nnref reads",
           3);
    const uint8_t storage = c.u8();
    h.internal_weights = (storage & 0x80) != 0;
    if ((storage & 0x7f) > 4)
      fail("nac.header.quant", "quantization method " + std::to_string(storage & 0x7f) + " is not one of 0-4", 4);
    h.quant = static_cast<Quant>(storage & 0x7f);
    h.num_inputs = c.u16();
    h.num_outputs = c.u16();
    c.u8();  // reserved
    h.d_model = c.u16();
    std::set<uint64_t> seen;
    for (int k = 0; k < kSectionCount; ++k) {
      const uint64_t field = 12 + 8 * static_cast<uint64_t>(k);
      const uint64_t o = h.offsets[k] = c.u64();
      if (o == 0) continue;
      const char* tag = section_tag(static_cast<Section>(k));
      if (o < kHeaderSize || o > bytes_.size() || bytes_.size() - o < 4)
        fail("nac.offset",
             std::string("the offset of section ") + tag + " (" + std::to_string(o) +
                 ") is not inside the file after the header (file size " + std::to_string(bytes_.size()) + ")",
             field);
      if (!seen.insert(o).second)
        fail("nac.offset", std::string("section ") + tag + " starts where another section starts (" +
                               std::to_string(o) + ")", field);
      if (bytes_.substr(o, 4) != tag)
        fail("nac.section.tag",
             std::string("the header puts section ") + tag + " here, but the tag is '" +
                 escaped(bytes_.substr(o, 4)) + "'",
             o);
    }
    if (!has(Section::Ops)) fail("nac.ops.missing", "the header gives no OPS section (its offset is 0)", 12 + 8);
  }

  // A count of records, each at least `min_record` bytes: a count the section cannot hold is an error.
  static uint32_t count(Cursor& c, uint64_t min_record, const std::string& what) {
    const uint64_t at_count = c.pos();
    const uint32_t n = c.u32();
    if (static_cast<uint64_t>(n) * min_record > c.left())
      fail("nac.count", what + " count " + std::to_string(n) + " needs at least " +
                            std::to_string(static_cast<uint64_t>(n) * min_record) + " bytes, but " +
                            std::to_string(c.left()) + " remain",
           at_count);
    return n;
  }

  void cmap() {
    Cursor c = section(Section::Cmap);
    for (uint32_t n = count(c, 3, "CMAP record"), k = 0; k < n; ++k) {
      const uint64_t rec = c.pos();
      const uint16_t id = c.u16();
      std::string name(c.take(c.u8()));
      if (id < 10 || id > 255)
        fail("nac.cmap.id", "CMAP names operation id " + std::to_string(id) + " ('" + name +
                                "'); operation ids in A are 10-255",
             rec);
      if (!p_.cmap.emplace(id, name).second)
        fail("nac.cmap.duplicate", "CMAP names operation id " + std::to_string(id) + " twice", rec);
    }
  }

  void perm() {
    Cursor c = section(Section::Perm);
    for (uint32_t n = count(c, 3, "PERM record"), k = 0; k < n; ++k) {
      const uint64_t rec = c.pos();
      const uint16_t id = c.u16();
      std::string sig(c.take(c.u8()));
      for (char ch : sig)
        if (!is_signature_code(ch))
          fail("nac.perm.code", "signature " + std::to_string(id) + " '" + escaped(sig) + "' has the code '" +
                                    escaped(std::string_view(&ch, 1)) + "', which §5.2.3 does not define",
               rec);
      if (!p_.perm.emplace(id, sig).second)
        fail("nac.perm.duplicate", "PERM defines signature " + std::to_string(id) + " twice", rec);
    }
  }

  void cnst() {
    Cursor c = section(Section::Cnst);
    for (uint32_t n = count(c, 5, "CNST record"), k = 0; k < n; ++k) {
      const uint64_t rec = c.pos();
      const uint16_t id = c.u16();
      const uint8_t type = c.u8();
      const uint16_t length = c.u16();
      Constant v;
      if (type > 6) fail("nac.cnst.type", "constant " + std::to_string(id) + " has type code " +
                                             std::to_string(type) + "; the codes are 0-6", rec + 2);
      v.type = static_cast<Constant::Type>(type);
      auto fixed = [&](uint16_t want) {
        if (length != want)
          fail("nac.cnst.length", "constant " + std::to_string(id) + " of type " + constant_type_name(v.type) +
                                      " has Length " + std::to_string(length) + "; it must be " + std::to_string(want),
               rec + 3);
      };
      switch (v.type) {
        case Constant::Type::Null: break;
        case Constant::Type::Bool: {
          const uint64_t where = c.pos();
          const uint8_t b = c.u8();
          if (b > 1) fail("nac.cnst.value", "bool constant " + std::to_string(id) + " is " + std::to_string(b) +
                                               ", neither 0 nor 1", where);
          v.b = b == 1;
          break;
        }
        case Constant::Type::Int64: fixed(8); v.i = c.i64(); break;
        case Constant::Type::Float64: fixed(8); v.f = c.f64(); break;
        case Constant::Type::String: v.s = std::string(c.take(length)); break;
        case Constant::Type::IntList:
          for (uint16_t j = 0; j < length; ++j) v.ints.push_back(c.i32());
          break;
        case Constant::Type::FloatList:
          for (uint16_t j = 0; j < length; ++j) v.floats.push_back(static_cast<double>(c.f32()));
          break;
      }
      if (!p_.constants.emplace(id, std::move(v)).second)
        fail("nac.cnst.duplicate", "CNST defines constant " + std::to_string(id) + " twice", rec);
    }
  }

  static std::string utf8_name(Cursor& c, uint16_t length) { return std::string(c.take(length)); }

  void data() {
    Cursor c = section(Section::Data);
    for (uint32_t n = count(c, 4, "DATA parameter"), k = 0; k < n; ++k) {
      const uint64_t rec = c.pos();
      const uint16_t id = c.u16();
      std::string name = utf8_name(c, c.u16());
      if (!p_.param_names.emplace(id, std::move(name)).second)
        fail("nac.data.duplicate", "DATA block 1 names parameter " + std::to_string(id) + " twice", rec);
    }
    for (uint32_t n = count(c, 4, "DATA input"), k = 0; k < n; ++k) {
      const uint64_t rec = c.pos();
      const uint16_t index = c.u16();
      std::string name = utf8_name(c, c.u16());
      input_name_offsets_[index] = rec;
      if (!p_.input_names.emplace(index, std::move(name)).second)
        fail("nac.data.duplicate", "DATA block 2 names the input of instruction " + std::to_string(index) + " twice",
             rec);
    }
    if (!p_.header.internal_weights) return;
    for (uint32_t n = count(c, 14, "DATA tensor"), k = 0; k < n; ++k) tensor(c);
  }

  void tensor(Cursor& c) {
    const uint64_t rec = c.pos();
    const uint16_t id = c.u16();
    const uint32_t meta_length = c.u32();
    const uint64_t data_length = c.u64();
    const std::string what = "tensor of parameter " + std::to_string(id);
    if (!p_.param_names.count(id))
      fail("nac.data.param-id", "DATA block 3 holds a " + what + ", which block 1 does not name", rec);
    Cursor m(bytes_, c.pos(), c.pos() + std::min<uint64_t>(meta_length, c.left()), "the metadata of the " + what);
    c.take(meta_length);
    TensorRecord t;
    const uint8_t dtype = m.u8();
    if (dtype > 9) fail("nac.data.dtype", "the " + what + " has DType " + std::to_string(dtype) + "; the codes are 0-9",
                        m.pos() - 1);
    t.dtype = static_cast<DataType>(dtype);
    const uint8_t rank = m.u8();
    uint64_t elements = 1;
    for (uint8_t j = 0; j < rank; ++j) {
      const uint32_t e = m.u32();
      t.shape.push_back(e);
      elements = (e != 0 && elements > (uint64_t{1} << 40) / e) ? (uint64_t{1} << 41) : elements * e;
    }
    if (checked_element_count(t.shape) < 0)
      fail("nac.data.metadata", "the " + what + " has a shape whose element count does not fit 64 bits", rec + 14);
    const uint8_t quant = m.u8();
    if (quant > 4) fail("nac.data.quant", "the " + what + " has Quant Code " + std::to_string(quant) + "; the codes are 0-4",
                        m.pos() - 1);
    t.quant = static_cast<Quant>(quant);
    if (!m.done() || meta_length != 3u + 4u * rank)
      fail("nac.data.metadata", "the metadata of the " + what + " has Metadata Length " + std::to_string(meta_length) +
                                    ", but a rank-" + std::to_string(rank) + " descriptor takes " +
                                    std::to_string(3 + 4 * rank) + " bytes",
           rec + 2);
    const std::optional<uint64_t> want = stored_bytes(t, elements);
    if (want && data_length != *want)
      fail("nac.data.length", "the " + what + " (" + data_type_name(t.dtype) + ", " + std::to_string(elements) +
                                  " elements, quantization " + quant_name(t.quant) + ") has Data Length " +
                                  std::to_string(data_length) + "; it must be " + std::to_string(*want),
           rec + 6);
    t.data_offset = c.pos();
    t.data_length = data_length;
    c.take(data_length);
    if (!p_.tensors.emplace(id, std::move(t)).second)
      fail("nac.data.duplicate", "DATA block 3 holds two tensors of parameter " + std::to_string(id), rec);
  }

  // The bytes a tensor record must hold (docs/nac.md: where the scales live); nullopt for BLOCK_FP8,
  // which is refused when its values are read.
  static std::optional<uint64_t> stored_bytes(const TensorRecord& t, uint64_t elements) {
    switch (t.quant) {
      case Quant::None: return elements * static_cast<uint64_t>(data_type_size(t.dtype));
      case Quant::Fp16: return elements * 2;
      case Quant::Int8Tensor: return 4 + elements;
      case Quant::Int8Channel: return 4 * (t.shape.empty() ? 1 : static_cast<uint64_t>(t.shape[0])) + elements;
      case Quant::BlockFp8: return std::nullopt;
    }
    return std::nullopt;
  }

  void proc() {
    Cursor c = section(Section::Proc);
    p_.proc = std::string(c.take(c.u32()));
  }

  void orch() {
    Cursor c = section(Section::Orch);
    const uint32_t length = c.u32();
    p_.orch_const_count = c.u32();
    p_.orch_bytecode = std::string(c.take(length));
    p_.orch_const_pool = std::string(c.take(c.left()));  // v1.6 gives the pool no length: to the section's end
  }

  void rsrc() {
    Cursor c = section(Section::Rsrc);
    for (uint32_t n = count(c, 6, "RSRC file"), k = 0; k < n; ++k) {
      Resource r;
      r.name = utf8_name(c, c.u16());
      const uint32_t length = c.u32();
      r.offset = c.pos();
      r.data = std::string(c.take(length));
      p_.resources.push_back(std::move(r));
    }
  }

  // D entries, resolved against instruction `index` (§3.5.2): non-zero ones point backwards.
  int64_t source_of(int16_t d, size_t index, uint64_t where) const {
    if (d > 0)
      fail("nac.ops.d-forward", "instruction " + std::to_string(index) + " has D offset +" + std::to_string(d) +
                                    ", which points forwards; results come from earlier instructions",
           where);
    const int64_t source = static_cast<int64_t>(index) + d;
    if (source < 0)
      fail("nac.ops.d-range", "instruction " + std::to_string(index) + " has D offset " + std::to_string(d) +
                                  ", which points before the first instruction",
           where);
    return source;
  }

  void ops() {
    Cursor c = section(Section::Ops);
    bool ended = false;
    while (!c.done()) {
      if (ended) {
        const uint64_t where = c.pos();
        if (c.u8() != 0)
          fail("nac.ops.trailing", "a non-zero byte follows the final <OUTPUT B=0> in OPS", where);
        continue;
      }
      const size_t index = p_.ops.size();
      Instruction ins;
      ins.offset = c.pos();
      ins.a = c.u8();
      ins.b = c.u8();
      if (ins.regular())
        regular(c, ins, index);
      else
        special(c, ins, index);
      ended = ins.a == kOpOutput && ins.b == 0;
      p_.ops.push_back(std::move(ins));
      if (p_.ops.size() > 32767 && !ended)
        fail("nac.ops.too-many", "OPS holds more than 32768 instructions; D offsets and MMAP ticks cannot reach them",
             c.pos());
    }
    if (!ended) fail("nac.ops.no-output", "OPS does not end with an <OUTPUT B=0> instruction", c.end());
  }

  void regular(Cursor& c, Instruction& ins, size_t index) {
    auto custom = p_.cmap.find(ins.a);
    ins.name = custom != p_.cmap.end() ? custom->second : standard_op_name(ins.a);
    if (ins.name.empty())
      fail("nac.ops.unknown-op", "instruction " + std::to_string(index) + " has operation id " + std::to_string(ins.a) +
                                     ", which is neither a standard NAC operation (10-31) nor named in CMAP",
           ins.offset);
    if (ins.b != 0) {
      auto sig = p_.perm.find(ins.b);
      if (sig == p_.perm.end())
        fail("nac.ops.signature", "instruction " + std::to_string(index) + " (" + ins.name + ") has signature id " +
                                      std::to_string(ins.b) + ", which PERM does not define",
             ins.offset + 1);
      ins.signature = sig->second;
    }
    const bool has_c = std::any_of(ins.signature.begin(), ins.signature.end(), is_constant_code);
    std::vector<uint16_t> ids;
    std::vector<uint64_t> id_offsets;
    if (has_c) {
      const uint64_t where = c.pos();
      const int16_t n = c.i16();
      if (n < 0) fail("nac.ops.c-length", "instruction " + std::to_string(index) + " has a negative C length", where);
      ins.c.push_back(n);
      for (int16_t k = 0; k < n; ++k) {
        id_offsets.push_back(c.pos());
        ins.c.push_back(c.i16());
        ids.push_back(static_cast<uint16_t>(ins.c.back()));
      }
    }
    const uint64_t d_start = c.pos();
    for (size_t k = 0; k < ins.signature.size(); ++k) ins.d.push_back(c.i16());
    size_t next_c = 0;
    for (size_t k = 0; k < ins.signature.size(); ++k) {
      Argument arg;
      arg.code = ins.signature[k];
      arg.d = ins.d[k];
      const uint64_t where = d_start + 2 * k;
      if (arg.d != 0) {
        arg.source = source_of(arg.d, index, where);
      } else {
        if (next_c == ids.size())
          fail("nac.ops.c-count", "instruction " + std::to_string(index) + " (" + ins.name + ") has more zero D entries than the " +
                                      std::to_string(ids.size()) + " constant ids of its C",
               where);
        arg.constant = ids[next_c];
        if (!p_.constants.count(*arg.constant))
          fail("nac.ops.constant-id", "instruction " + std::to_string(index) + " (" + ins.name + ") refers to constant " +
                                          std::to_string(*arg.constant) + ", which CNST does not define",
               id_offsets[next_c]);
        ++next_c;
      }
      ins.args.push_back(arg);
    }
    if (next_c != ids.size())
      fail("nac.ops.c-count", "instruction " + std::to_string(index) + " (" + ins.name + ") has " +
                                  std::to_string(ids.size()) + " constant ids in C but " + std::to_string(next_c) +
                                  " zero D entries",
           d_start);
  }

  void special(Cursor& c, Instruction& ins, size_t index) {
    const std::string where_name = "instruction " + std::to_string(index);
    if (ins.a == kOpInput) {
      ins.name = "<INPUT>";
      if (ins.b > 3)
        fail("nac.ops.variant", where_name + " is <INPUT> with B=" + std::to_string(ins.b) + "; the variants are 0-3",
             ins.offset + 1);
      if (ins.b == kInputUser) return;
      const uint64_t where = c.pos();
      const int16_t n = c.i16();
      if (n != 2) fail("nac.ops.c-length", where_name + " is <INPUT B=" + std::to_string(ins.b) + "> with C length " +
                                               std::to_string(n) + "; it must be 2",
                       where);
      ins.c = {n, c.i16()};
      ins.ref_id = static_cast<uint16_t>(ins.c[1]);
      if (ins.b == kInputParam && !p_.param_names.count(ins.ref_id))
        fail("nac.ops.param-id", where_name + " loads parameter " + std::to_string(ins.ref_id) +
                                     ", which DATA block 1 does not name",
             where + 2);
      if (ins.b == kInputLifted && !p_.constants.count(ins.ref_id))
        fail("nac.ops.constant-id", where_name + " lifts constant " + std::to_string(ins.ref_id) +
                                        ", which CNST does not define",
             where + 2);
      return;
    }
    if (ins.a == kOpOutput) {
      ins.name = "<OUTPUT>";
      if (ins.b > 1)
        fail("nac.ops.variant", where_name + " is <OUTPUT> with B=" + std::to_string(ins.b) + "; the variants are 0-1",
             ins.offset + 1);
      const uint64_t where = c.pos();
      const int16_t n = c.i16();
      if (n < 1) fail("nac.ops.c-length", where_name + " is <OUTPUT> with C length " + std::to_string(n) +
                                              "; it counts itself, so it is at least 1",
                      where);
      ins.c.push_back(n);
      for (int16_t k = 1; k < n; ++k) ins.c.push_back(c.i16());
      const auto outputs = static_cast<size_t>(n - 1);
      if (ins.b == 0 && outputs != p_.header.num_outputs)
        fail("nac.ops.output-count", "the final <OUTPUT> returns " + std::to_string(outputs) +
                                         " results, but the header declares " + std::to_string(p_.header.num_outputs),
             where);
      for (size_t k = 0; k < outputs; ++k) {
        const uint64_t d_at = c.pos();
        ins.d.push_back(c.i16());
        if (ins.d.back() == 0)
          fail("nac.ops.d-range", where_name + " (<OUTPUT>) has D offset 0: an output is an earlier result", d_at);
        ins.sources.push_back(source_of(ins.d.back(), index, d_at));
      }
      return;
    }
    fail("nac.ops.special",
         where_name + " is special operation " + std::to_string(ins.a) +
             (ins.a == kOpControlFlow   ? " (<CONTROL_FLOW>), which v1.6 reserves without a defined encoding"
              : ins.a == kOpConvergence ? " (<CONVERGENCE>), which v1.6 marks experimental and gives no length rule for C"
                                        : ", which v1.6 does not define"),
         ins.offset);
  }

  void mmap() {
    Cursor c = section(Section::Mmap);
    p_.has_mmap = true;
    p_.mmap.assign(p_.ops.size(), {});
    std::set<uint16_t> ticks;
    for (uint32_t n = count(c, 3, "MMAP record"), k = 0; k < n; ++k) {
      const uint64_t rec = c.pos();
      const uint16_t tick = c.u16();
      const uint8_t commands = c.u8();
      if (tick >= p_.ops.size())
        fail("nac.mmap.tick", "an MMAP record is for tick " + std::to_string(tick) + ", but OPS has " +
                                  std::to_string(p_.ops.size()) + " instructions",
             rec);
      if (!ticks.insert(tick).second)
        fail("nac.mmap.tick", "MMAP has two records for tick " + std::to_string(tick), rec);
      for (uint8_t j = 0; j < commands; ++j) {
        const uint64_t cmd = c.pos();
        const uint8_t action = c.u8();
        const uint16_t target = c.u16();
        if (action != 10 && action != 20 && action != 30 && action != 40)
          fail("nac.mmap.action", "an MMAP command at tick " + std::to_string(tick) + " has action " +
                                      std::to_string(action) + "; the actions are 10, 20, 30 and 40",
               cmd);
        if (target >= p_.ops.size())
          fail("nac.mmap.target", "an MMAP command at tick " + std::to_string(tick) + " targets instruction " +
                                      std::to_string(target) + ", which OPS does not have",
               cmd + 1);
        p_.mmap[tick].push_back({static_cast<MemAction>(action), target});
      }
    }
  }

  // DATA block 2 names inputs: each index must be an <INPUT B=0> or <INPUT B=3>, and the header
  // counts them.
  void check_input_names() {
    size_t inputs = 0;
    for (const Instruction& ins : p_.ops)
      if (ins.a == kOpInput && (ins.b == kInputUser || ins.b == kInputLifted)) ++inputs;
    if (inputs != p_.header.num_inputs)
      fail("nac.ops.input-count", "OPS has " + std::to_string(inputs) + " user inputs (<INPUT B=0> and B=3), but the header declares " +
                                      std::to_string(p_.header.num_inputs),
           5);
    for (const auto& [index, name] : p_.input_names) {
      const bool ok = index < p_.ops.size() && p_.ops[index].a == kOpInput &&
                      (p_.ops[index].b == kInputUser || p_.ops[index].b == kInputLifted);
      if (!ok)
        fail("nac.data.input-index", "DATA block 2 names instruction " + std::to_string(index) + " input '" + name +
                                         "', but that instruction is not an <INPUT B=0> or <INPUT B=3>",
             input_name_offsets_[index]);
    }
  }

  std::string_view bytes_;
  Program p_;
  std::map<uint16_t, uint64_t> input_name_offsets_;
};

}  // namespace

std::variant<Program, FormatError> decode(std::string_view bytes) {
  try {
    return Decoder(bytes).run();
  } catch (const FormatError& e) {
    return e;
  }
}

std::string instruction_label(const Program& p, size_t index) {
  std::string s = "instruction " + std::to_string(index);
  if (index < p.ops.size()) s += " (" + p.ops[index].name + ")";
  return s;
}

}  // namespace nnref::nac
