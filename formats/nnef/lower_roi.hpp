// The region-of-interest operations of §4.6 (lower_roi.cpp): the IR roi op, and the roi_align
// compounds as roi_resample followed by an IR pool.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "formats/nnef/composer.hpp"

namespace nnref::nnef {

// avg_roi_pool, max_roi_pool, roi_resample, avg_roi_align, max_roi_align; nullopt for any other name.
std::optional<std::vector<Value>> lower_roi(Composer& c, const std::string& name, Composer::Args& args, const SourceLoc& loc);

}  // namespace nnref::nnef
