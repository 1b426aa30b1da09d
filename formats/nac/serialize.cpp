// The bytes of a Program (§2-§9), for the writer.
#include "formats/nac/encode.hpp"

namespace nnref::nac {

namespace {

void section_mmap(ByteWriter& w, const Program& p) {
  uint32_t records = 0;
  for (const auto& tick : p.mmap) records += tick.empty() ? 0 : 1;
  w.u32(records);
  for (size_t t = 0; t < p.mmap.size(); ++t) {
    if (p.mmap[t].empty()) continue;
    if (p.mmap[t].size() > 255) throw FormatError{"nac.write.limit", "tick " + std::to_string(t) + " has more than 255 MMAP commands", 0};
    w.u16(static_cast<uint16_t>(t));
    w.u8(static_cast<uint8_t>(p.mmap[t].size()));
    for (const MemCommand& c : p.mmap[t]) {
      w.u8(static_cast<uint8_t>(c.action));
      w.u16(c.target);
    }
  }
}

void section_ops(ByteWriter& w, const Program& p) {
  for (const Instruction& ins : p.ops) {
    w.u8(ins.a);
    w.u8(ins.b);
    for (int16_t v : ins.c) w.i16(v);
    for (int16_t v : ins.d) w.i16(v);
  }
}

void section_cnst(ByteWriter& w, const Program& p) {
  w.u32(static_cast<uint32_t>(p.constants.size()));
  for (const auto& [id, c] : p.constants) {
    w.u16(id);
    w.u8(static_cast<uint8_t>(c.type));
    switch (c.type) {
      case Constant::Type::Null: w.u16(0); break;
      case Constant::Type::Bool: w.u16(1); w.u8(c.b ? 1 : 0); break;
      case Constant::Type::Int64: w.u16(8); w.u64(static_cast<uint64_t>(c.i)); break;
      case Constant::Type::Float64: w.u16(8); w.f64(c.f); break;
      case Constant::Type::String: w.u16(static_cast<uint16_t>(c.s.size())); w.raw(c.s); break;
      case Constant::Type::IntList:
        w.u16(static_cast<uint16_t>(c.ints.size()));
        for (int64_t v : c.ints) w.i32(static_cast<int32_t>(v));
        break;
      case Constant::Type::FloatList:
        w.u16(static_cast<uint16_t>(c.floats.size()));
        for (double v : c.floats) w.f32(static_cast<float>(v));
        break;
    }
  }
}

// CMAP and PERM name their records with a one-byte length, DATA blocks 1 and 2 with two bytes.
template <int LengthBytes, class Names>
void names(ByteWriter& w, const Names& entries) {
  w.u32(static_cast<uint32_t>(entries.size()));
  for (const auto& [id, s] : entries) {
    w.u16(id);
    if constexpr (LengthBytes == 1)
      w.u8(static_cast<uint8_t>(s.size()));
    else
      w.u16(static_cast<uint16_t>(s.size()));
    w.raw(s);
  }
}

void section_data(ByteWriter& w, const Program& p, const std::map<uint16_t, std::string>& tensor_data) {
  names<2>(w, p.param_names);
  names<2>(w, p.input_names);
  if (!p.header.internal_weights) return;
  w.u32(static_cast<uint32_t>(p.tensors.size()));
  for (const auto& [id, t] : p.tensors) {
    w.u16(id);
    w.u32(static_cast<uint32_t>(3 + 4 * t.shape.size()));
    w.u64(t.data_length);
    w.u8(static_cast<uint8_t>(t.dtype));
    w.u8(static_cast<uint8_t>(t.shape.size()));
    for (int64_t e : t.shape) w.u32(static_cast<uint32_t>(e));
    w.u8(static_cast<uint8_t>(t.quant));
    w.raw(tensor_data.at(id));
  }
}

}  // namespace

std::string serialize(const Program& p, const std::map<uint16_t, std::string>& tensor_data) {
  ByteWriter w;
  w.raw("NAC");
  w.u8(kVersion);
  w.u8(static_cast<uint8_t>((p.header.internal_weights ? 0x80 : 0) | static_cast<uint8_t>(p.header.quant)));
  w.u16(p.header.num_inputs);
  w.u16(p.header.num_outputs);
  w.u8(0);
  w.u16(p.header.d_model);
  for (int k = 0; k < kSectionCount; ++k) w.u64(0);
  w.u32(0);
  auto begin = [&](Section s) {
    w.patch_u64(12 + 8 * static_cast<uint64_t>(s), w.size());
    w.raw(section_tag(s));
  };
  if (p.has_mmap) { begin(Section::Mmap); section_mmap(w, p); }
  begin(Section::Ops);
  section_ops(w, p);
  if (!p.cmap.empty()) { begin(Section::Cmap); names<1>(w, p.cmap); }
  if (!p.constants.empty()) { begin(Section::Cnst); section_cnst(w, p); }
  if (!p.perm.empty()) { begin(Section::Perm); names<1>(w, p.perm); }
  if (!p.param_names.empty() || !p.input_names.empty() || !p.tensors.empty()) {
    begin(Section::Data);
    section_data(w, p, tensor_data);
  }
  if (!p.proc.empty()) { begin(Section::Proc); w.u32(static_cast<uint32_t>(p.proc.size())); w.raw(p.proc); }
  if (!p.orch_bytecode.empty()) {
    begin(Section::Orch);
    w.u32(static_cast<uint32_t>(p.orch_bytecode.size()));
    w.u32(p.orch_const_count);
    w.raw(p.orch_bytecode);
    w.raw(p.orch_const_pool);
  }
  if (!p.resources.empty()) {
    begin(Section::Rsrc);
    w.u32(static_cast<uint32_t>(p.resources.size()));
    for (const Resource& r : p.resources) {
      w.u16(static_cast<uint16_t>(r.name.size()));
      w.raw(r.name);
      w.u32(static_cast<uint32_t>(r.data.size()));
      w.raw(r.data);
    }
  }
  return std::move(w.bytes());
}

}  // namespace nnref::nac
