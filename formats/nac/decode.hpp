// Decoding a NAC v1.6 file's bytes into a Program: the header, every section and every instruction,
// with every structural rule of the spec checked (docs/nac.md lists the codes).
#pragma once

#include <string_view>
#include <variant>

#include "formats/nac/bytes.hpp"
#include "formats/nac/program.hpp"

namespace nnref::nac {

// The Program, or the first rule the bytes break (its code, message and byte offset).
std::variant<Program, FormatError> decode(std::string_view bytes);

// The instruction index each MMAP-verifier and lowering message names: "instruction 12 (aten.relu.default)".
std::string instruction_label(const Program& p, size_t index);

}  // namespace nnref::nac
