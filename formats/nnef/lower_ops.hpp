// The standard operations of NNEF 1.0 §4 that have an IR counterpart, lowered to it. A compound
// fragment of §4.9 lowered here is computed by an IR op with the same formula (docs/nnef.md lists
// which); the others are expanded from their NNEF bodies by the composer.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "formats/nnef/composer.hpp"

namespace nnref::nnef {

// The element-wise operations that are one IR op each, by NNEF name; the writer
// (formats/nnef/writer.cpp) reads them backwards.
const std::map<std::string, UnaryOp>& unary_ops();
const std::map<std::string, BinaryOp>& binary_ops();
const std::map<std::string, CompareOp>& compare_ops();
const std::map<std::string, LogicalOp>& logical_ops();

// The results of standard fragment `name` applied to bound arguments, or nullopt when no IR op
// computes it for these arguments (the composer then expands its body, or reports
// nnef.op-unsupported). Fails through the composer when an argument is out of range.
std::optional<std::vector<Value>> lower_standard(Composer& c, const std::string& name, Composer::Args& args,
                                                 const SourceLoc& loc);

}  // namespace nnref::nnef
