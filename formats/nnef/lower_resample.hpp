// debox (§4.3.2) and multilinear_upsample (§4.3.4), lowered to IR deconvs with constant filters,
// or gathers for 'aligned' (lower_resample.cpp; docs/nnef.md gives the derivations).
#pragma once

#include <optional>
#include <vector>

#include "formats/nnef/composer.hpp"

namespace nnref::nnef {

std::optional<std::vector<Value>> lower_debox(Composer& c, Composer::Args& args, const SourceLoc& loc);
std::optional<std::vector<Value>> lower_multilinear_upsample(Composer& c, Composer::Args& args, const SourceLoc& loc);

}  // namespace nnref::nnef
