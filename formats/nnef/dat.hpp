// NNEF tensor files (.dat, §5.2): a 128-byte little-endian header, then the items as a bit
// stream. Every header field is checked: the magic 'N' 0xEF, version 1.0, rank at most 8 with
// zeros in the unused extents, the extents against the shape the graph declares (exactly: [64]
// is not [1, 64]), the item type (Khronos vendor 0; float 16/32/64, unsigned and signed integers
// and quantized integers of 1 to 64 bits, bools of 1 or 8 bits) against the variable's type, and
// the data length against ceil(volume × bits / 8) and against the file's size.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/nnef/lexer.hpp"
#include "spec/host_tensor.hpp"
#include "spec/value.hpp"

namespace nnref::nnef {

struct DatTensor {
  HostTensor tensor;      // quantized items hold their integer codes
  bool quantized = false; // item type 0b0010 (unsigned) or 0b0011 (signed)
  bool signed_items = false;
  int bits = 0;
};

// The item-type codes of §5.2 (the low 16 bits; vendor 0 is Khronos).
enum class ItemType : uint32_t { Float = 0, Unsigned = 1, QuantizedUnsigned = 2, QuantizedSigned = 3, Signed = 4, Bool = 5 };

// Reads `path` (named `label` in messages) for a variable of this declared shape and kind.
// Diagnostics (nnef.dat.*) are located at `loc`, the variable's invocation.
std::optional<DatTensor> read_dat(const std::string& path, const std::string& label, const std::vector<int64_t>& declared,
                                  ElemKind kind, const SourceLoc& loc, Diags& diags);

// The bytes of a tensor file holding `values` of this shape as item type `type` with `bits` bits
// per item (the writer's half; values must be representable).
std::string write_dat(const std::vector<int64_t>& shape, const std::vector<double>& values, ItemType type, int bits);
// A real tensor's file in its own width: float32 items for a float32 tensor, float16 for float16,
// float64 otherwise (every value a double holds, integers included), so that reading it back gives
// the same bits (the writers of NNEF 1.0 and 2.0).
std::string write_dat(const HostTensor& t);

}  // namespace nnref::nnef
