#include "formats/nac/program.hpp"

#include <array>

namespace nnref::nac {

namespace {

// Standard ids 10-31 (research/nac-notes.md): fixed, never recorded in CMAP.
constexpr std::array<const char*, 22> kStandard = {
    "nac.pass",  "nac.add",    "nac.sub",        "nac.gt",    "nac.neg",       "nac.where",
    "nac.clone", "nac.view",   "nac.le",         "nac.arange", "nac.mul",      "nac.div",
    "nac.matmul", "nac.transpose", "nac.zeros",  "nac.zeros_like", "nac.new_zeros", "nac.ones",
    "nac.ones_like", "nac.new_ones", "nac.full", "nac.full_like"};

}  // namespace

std::string standard_op_name(uint8_t a) {
  if (a < 10 || a >= 10 + kStandard.size()) return "";
  return kStandard[a - 10];
}

std::optional<uint8_t> standard_op_id(const std::string& name) {
  for (size_t k = 0; k < kStandard.size(); ++k)
    if (name == kStandard[k]) return static_cast<uint8_t>(10 + k);
  return std::nullopt;
}

const char* quant_name(Quant q) {
  switch (q) {
    case Quant::None: return "none (float32)";
    case Quant::Fp16: return "FP16";
    case Quant::Int8Tensor: return "INT8_TENSOR";
    case Quant::Int8Channel: return "INT8_CHANNEL";
    case Quant::BlockFp8: return "BLOCK_FP8";
  }
  return "?";
}

const char* section_tag(Section s) {
  static const char* const tags[kSectionCount] = {"MMAP", "OPS ", "CMAP", "CNST", "PERM", "DATA", "PROC", "ORCH", "RSRC"};
  return tags[static_cast<int>(s)];
}

const char* constant_type_name(Constant::Type t) {
  switch (t) {
    case Constant::Type::Null: return "null";
    case Constant::Type::Bool: return "bool";
    case Constant::Type::Int64: return "int64";
    case Constant::Type::Float64: return "float64";
    case Constant::Type::String: return "string";
    case Constant::Type::IntList: return "list[int32]";
    case Constant::Type::FloatList: return "list[float32]";
  }
  return "?";
}

const char* mem_action_name(MemAction a) {
  switch (a) {
    case MemAction::SaveResult: return "SAVE_RESULT";
    case MemAction::Free: return "FREE";
    case MemAction::Forward: return "FORWARD";
    case MemAction::Preload: return "PRELOAD";
  }
  return "?";
}

const char* data_type_name(DataType t) {
  static const char* const names[] = {"float32", "float64", "float16", "bfloat16", "int32",
                                      "int64",   "int16",   "int8",    "uint8",    "bool"};
  return names[static_cast<int>(t)];
}

int data_type_size(DataType t) {
  static const int sizes[] = {4, 8, 2, 2, 4, 8, 2, 1, 1, 1};
  return sizes[static_cast<int>(t)];
}

}  // namespace nnref::nac
