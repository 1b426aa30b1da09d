// §4.3's extended input ĩ for the borders that read the input itself ('replicate', 'reflect',
// 'reflect-even'): an IR pad with that border, after which the window op (pool, conv, deconv)
// reads no padding of its own. Shared by every NNEF window op so that each extends alike.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "formats/nnef/composer.hpp"

namespace nnref::nnef {

using Padding = std::vector<std::pair<int64_t, int64_t>>;

// The IR pad border of 'replicate', 'reflect' and 'reflect-even'; none for any other border.
std::optional<PadBorder> extending_border(const std::string& border);

// §4.3's automatic padding of each axis (p = ⌊t/2⌋, q = ⌈t/2⌉), the IR's SameUpper, for a pad that
// must be explicit; nullopt when an attribute is not positive (the op's rule then names it).
// stride and dilation are empty (all 1) or have one entry per axis of `in`.
std::optional<Padding> automatic_padding(const std::vector<int64_t>& in, const std::vector<int64_t>& size,
                                         const std::vector<int64_t>& stride, const std::vector<int64_t>& dilation);

// ĩ: x padded by `padding` (one pair per axis of x) with `border`; x itself when every pair is 0.
Value extended_input(Composer& c, const Value& x, const Padding& padding, PadBorder border, const SourceLoc& loc);

// §4.3: "the items in padding can be negative". A window reading x with a negative item reads x
// cropped by it: the negative items of `padding` (one pair per axis of x from `first_axis` on) become
// an IR pad that only crops, and are then 0 in `padding`; x itself when none is negative.
Value cropped_input(Composer& c, const Value& x, Padding& padding, size_t first_axis, const SourceLoc& loc);

}  // namespace nnref::nnef
