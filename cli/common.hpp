// What the subcommands share: loading a model with its diagnostics printed, and exit codes.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "formats/model.hpp"
#include "semantics/wellformed.hpp"

namespace nnref {

constexpr int64_t kDefaultMaxMemory = int64_t{4} << 30;

// The bytes an element takes in the scalar of a --precision (f32, f64, mp): what run's budget and
// inspect's memory column count.
int64_t bytes_per_element(const std::string& precision);

void print_diagnostics(std::ostream& err, const std::vector<Diagnostic>& diags);

// 2 when an error is about the files given rather than the model (I/O, usage, a tensor file that
// cannot be read, inputs that do not match the model), 1 for any other error.
int exit_code_for(const std::vector<Diagnostic>& diags);
int exit_code_for(const Diagnostic& d);

// Loads a model, printing every diagnostic; nullopt (and `exit` set) when it has errors.
std::optional<Model> load_reporting(const std::string& path, const LoadOptions& options, std::ostream& err,
                                    int& exit);
// The model of a load, its diagnostics printed; nullopt (exit set) when it has errors.
std::optional<Model> model_reporting(LoadResult r, std::ostream& err, int& exit);

// Structure and shapes of a loaded model and, unless scalar_size is 0, its memory budget at that many
// bytes per element, printing the first problem; nullopt (and `exit` set) on failure.
std::optional<GraphInfo> shapes_reporting(const Model& model, int64_t scalar_size, std::ostream& err, int& exit);

}  // namespace nnref
