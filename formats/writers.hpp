// The writer registry: how `nnref convert --to FORMAT` finds the writer of a format, as
// front_ends() finds readers. A writer turns a loaded Model into its format's files, each IR op
// as the format's op(s) with the same formula; what the format cannot express is a located
// convert.unexpressible diagnostic naming the node and the op, never an approximation.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "formats/model.hpp"

namespace nnref {

struct WriteOptions {
  // NAME=SIZE: input extents to write instead of the declared ones (the size names of --dim).
  std::vector<std::pair<std::string, int64_t>> dims;
};

struct Writer {
  std::string_view name;    // what --to names: "nnef"
  std::string_view target;  // what OUT is: "a folder (graph.nnef and .dat files)"
  // Writes `model` to `out`; the diagnostics (errors stop the write; no partial output is left
  // for convert.* and usage.* errors, which are found before anything is written).
  std::vector<Diagnostic> (*write)(const Model& model, const std::string& out, const WriteOptions& options);
};

// Every writer, in the order --help lists them.
const std::vector<Writer>& writers();
const Writer* writer_for(std::string_view name);

}  // namespace nnref
