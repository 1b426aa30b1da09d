// A NAC v1.6 file decoded (seeds/nac-v1.6-spec.md): every section as data, each instruction with its
// A, B, C and D and its arguments resolved, and the MMAP commands of each tick. This is what the NAC
// front-end lowers to the IR and what a hardware model executes; docs/nac.md records the reading
// rules where the spec is silent.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace nnref::nac {

inline constexpr size_t kHeaderSize = 88;
inline constexpr uint8_t kVersion = 1;  // the header's version byte for v1.6

// Special operations (§7): A < 10.
inline constexpr uint8_t kOpInput = 2;
inline constexpr uint8_t kOpOutput = 3;
inline constexpr uint8_t kOpControlFlow = 6;
inline constexpr uint8_t kOpConvergence = 7;
// <INPUT> variants (§7.1).
inline constexpr uint8_t kInputUser = 0, kInputParam = 1, kInputState = 2, kInputLifted = 3;

// The weight storage and quantization byte (§2.2.2).
enum class Quant : uint8_t { None = 0, Fp16 = 1, Int8Tensor = 2, Int8Channel = 3, BlockFp8 = 4 };
const char* quant_name(Quant q);

// The sections in the order of the header's offset table (§2.2.5).
enum class Section { Mmap, Ops, Cmap, Cnst, Perm, Data, Proc, Orch, Rsrc };
inline constexpr int kSectionCount = 9;
const char* section_tag(Section s);  // "MMAP", "OPS ", ...

struct Header {
  uint8_t version = kVersion;
  bool internal_weights = true;  // bit 7 of byte 4
  Quant quant = Quant::None;
  uint16_t num_inputs = 0, num_outputs = 0;
  uint16_t d_model = 0;
  uint64_t offsets[kSectionCount] = {};  // 0: the section is absent
};

// A CNST record (§5.3): one of the seven types.
struct Constant {
  enum class Type : uint8_t { Null = 0, Bool = 1, Int64 = 2, Float64 = 3, String = 4, IntList = 5, FloatList = 6 };
  Type type = Type::Null;
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<int64_t> ints;    // list[int32]
  std::vector<double> floats;   // list[float32], each exactly as stored
};
const char* constant_type_name(Constant::Type t);

// One argument of a regular instruction, resolved by §8.3: an earlier result or a constant.
struct Argument {
  char code = 'T';          // the signature character
  int16_t d = 0;            // D[i]
  int64_t source = -1;      // i + D[i] when D[i] != 0
  std::optional<uint16_t> constant;  // the CNST id when D[i] == 0
};

struct Instruction {
  uint64_t offset = 0;  // of its A byte in the file
  uint8_t a = 0, b = 0;
  std::vector<int16_t> c;  // C as stored, length prefix first (empty when the op has no C)
  std::vector<int16_t> d;
  std::string name;        // the canonical name: "<INPUT>", "<OUTPUT>", "nac.add", "aten.relu.default"
  std::string signature;   // PERM[B] for regular ops
  std::vector<Argument> args;  // regular ops: one per signature character
  // <INPUT B=1|2|3>: the parameter, state or constant id; <OUTPUT>: the sources of its results.
  uint16_t ref_id = 0;
  std::vector<int64_t> sources;
  bool regular() const { return a >= 10; }
};

// MMAP (§4.5).
enum class MemAction : uint8_t { SaveResult = 10, Free = 20, Forward = 30, Preload = 40 };
const char* mem_action_name(MemAction a);
struct MemCommand {
  MemAction action = MemAction::Free;
  uint16_t target = 0;
};

// DATA block 3 (§6.1): one internal tensor, its bytes left in the file until the weights are read.
enum class DataType : uint8_t { F32 = 0, F64 = 1, F16 = 2, BF16 = 3, I32 = 4, I64 = 5, I16 = 6, I8 = 7, U8 = 8, Bool = 9 };
const char* data_type_name(DataType t);
int data_type_size(DataType t);
struct TensorRecord {
  DataType dtype = DataType::F32;
  std::vector<int64_t> shape;
  Quant quant = Quant::None;
  uint64_t data_offset = 0;  // in the .nac file
  uint64_t data_length = 0;
};

// The RSRC file in which nnref records what v1.6 has no field for: each user input's shape (and
// element kind) and each output's name (docs/nac.md).
inline constexpr const char* kIoManifest = "nnref.io.json";

struct Resource {
  std::string name;
  std::string data;
  uint64_t offset = 0;  // of its data in the file
};

struct Program {
  Header header;
  std::vector<Instruction> ops;  // ending with <OUTPUT B=0>
  std::map<uint16_t, std::string> cmap;
  std::map<uint16_t, std::string> perm;
  std::map<uint16_t, Constant> constants;
  std::map<uint16_t, std::string> param_names;   // DATA block 1
  std::map<uint16_t, std::string> input_names;   // DATA block 2: instruction index -> name
  std::map<uint16_t, TensorRecord> tensors;      // DATA block 3
  std::vector<std::vector<MemCommand>> mmap;     // one list per tick (instruction), empty when none
  bool has_mmap = false;
  std::string proc;                // the PROC manifest, raw
  std::string orch_bytecode;       // ORCH, raw
  uint32_t orch_const_count = 0;
  std::string orch_const_pool;
  std::vector<Resource> resources;  // RSRC
};

// Standard operation ids 10-31 (research/nac-notes.md); "" when `a` is not one.
std::string standard_op_name(uint8_t a);
std::optional<uint8_t> standard_op_id(const std::string& name);

}  // namespace nnref::nac
