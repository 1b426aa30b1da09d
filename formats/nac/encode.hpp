// The writer: nnref's IR (a loaded Model with its weights) as a NAC v1.6 file (docs/nac.md,
// "Writing"): OPS with the standard ids where an IR op is exactly one, nnref.<op> names in CMAP
// otherwise, CNST, PERM, DATA (or a sibling .safetensors file), RSRC's nnref.io.json and the MMAP
// schedule.
#pragma once

#include <string>
#include <variant>

#include "formats/model.hpp"
#include "formats/nac/bytes.hpp"
#include "formats/nac/schedule.hpp"

namespace nnref::nac {

struct WriteOptions {
  Quant quant = Quant::None;
  bool external_weights = false;
  ScheduleOptions schedule;  // value_bytes are filled from the model's shapes
};

struct Encoded {
  std::string nac;
  std::string safetensors;  // with external_weights; empty otherwise
};

std::variant<Encoded, FormatError> encode(const Model& m, const WriteOptions& o);

// The bytes of a Program: header, then MMAP, OPS, CMAP, CNST, PERM, DATA, PROC, ORCH and RSRC for the
// sections it has; `tensor_data` holds each DATA block 3 tensor's bytes by parameter id.
std::string serialize(const Program& p, const std::map<uint16_t, std::string>& tensor_data);

}  // namespace nnref::nac
