// What the writers (formats/*/writer.cpp) share: the graph at the extents they write with every
// value's shape, the located refusal of what a format cannot express, and axis normalisation.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/writers.hpp"
#include "semantics/wellformed.hpp"
#include "spec/rules/window.hpp"

namespace nnref::convert {

// The graph a writer writes: the model's, with the --dim extents set, and its shapes there.
struct Prepared {
  Graph graph;
  GraphInfo info;
  // The symbolic sizes (SizeName::symbolic) that --dim did not fix: their extents in `graph` are
  // placeholders.
  std::vector<SizeName> open_sizes;
};

// `concrete`: the format needs every extent (NNEF), so an open size is usage.dim-required.
Result<Prepared> prepare(const Model& model, const WriteOptions& options, std::string_view format, bool concrete);

// Thrown by a writer's op translation; the writer's entry point catches it and returns its
// diagnostic (convert.unexpressible, at the node, naming it and its op).
struct Unexpressible {
  Diagnostic d;
};

// A folder writer's translation: Emitter(model, prepared).run() over the graph at the --dim extents
// (every extent needed), its refusal returned; then `write(emitter)` writes the files.
template <class Emitter, class Write>
std::vector<Diagnostic> emit(const Model& model, const WriteOptions& options, std::string_view format, Write&& write) {
  Result<Prepared> p = prepare(model, options, format, true);
  if (!p) return {std::move(p).error()};
  Emitter e(model, *p);
  try {
    e.run();
  } catch (const Unexpressible& u) {
    return {u.d};
  }
  return write(e);
}
[[noreturn]] void unexpressible(std::string_view format, const Node& node, const std::string& why);
// For a format that writes parameters as tensors only (NNEF, NNL): refuses a node whose parameter
// the graph computes (Node::param_values).
void require_stored_params(std::string_view format, const Graph& g, const Node& node);

// The tensor axis an axis attribute names, counted from 0 (negative axes count from the end;
// batch_axes: the leading axes the attribute does not count, spec/rules/axes.hpp).
int64_t tensor_axis(int64_t axis, size_t rank, size_t batch_axes = 0);
std::vector<int64_t> tensor_axes(const std::vector<int64_t>& axes, size_t rank, size_t batch_axes = 0);

// The permutations that move the channel axis of a rank-r channels-last tensor to axis 1, and back.
std::vector<int64_t> to_channels_first(size_t rank);
std::vector<int64_t> to_channels_last(size_t rank);
// The permutation that moves `axis` to position 1, keeping the others in order (rank >= 2; the
// identity for axis 1), and the inverse of a permutation.
std::vector<int64_t> axis_to_1(size_t rank, int64_t axis);
std::vector<int64_t> inverse(const std::vector<int64_t>& perm);
// from, from + 1, ..., to - 1.
std::vector<int64_t> iota(int64_t from, int64_t to);

// Window attributes with their defaults filled in: stride and dilation 1 per spatial axis, and the
// (before, after) padding per spatial axis that the pad mode means at input extents `spatial_in`.
std::vector<int64_t> or_ones(const std::vector<int64_t>& v, size_t n);
// ExplicitCeil's padding after as plain explicit padding reads it at input extent `in`: the last
// window's end past the input and the padding before, max((out − 1)·s + window − in − before, 0),
// so that ⌊(padded − window)/s⌋ + 1 is the rounded-up extent (the overhang is padding in both, and
// padding after that no window reaches is dropped).
int64_t ceil_padding_after(int64_t in, const window::Axis& a);
template <class A>
std::vector<std::pair<int64_t, int64_t>> explicit_padding(const A& attrs, const std::vector<int64_t>& spatial_in) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (size_t i = 0; i < attrs.kernel.size(); ++i) {
    const window::Axis a = window::axis(attrs, i);
    const int64_t in = spatial_in[i];
    if (attrs.pad_mode == PadMode::Valid) out.emplace_back(0, 0);
    else if (attrs.pad_mode == PadMode::Explicit) out.emplace_back(a.before, a.after);
    else if (attrs.pad_mode == PadMode::ExplicitCeil) out.emplace_back(a.before, ceil_padding_after(in, a));
    else {
      const int64_t before = window::pad_before(in, a, attrs.pad_mode);
      out.emplace_back(before, window::same_total(CDim(in), a).v - before);
    }
  }
  return out;
}

// An identifier of NNEF's and SkriptND's syntax for a name: letters, digits and '_', not starting
// with a digit ("t_" before it), and a trailing '_' where the format reserves the word.
std::string identifier(const std::string& name, bool (*reserved)(const std::string&));
// Ints as a bracketed list: "[1, 2, 3]".
std::string int_list(const std::vector<int64_t>& v);

// Whether s is a decimal literal as NNEF's and NNL's lexers read one:
// [-]digits[.digits][(e|E)[+-]digits]; `real` is set when it has a '.' or an exponent.
bool decimal_literal(const std::string& s, bool* real = nullptr);

// An I/O failure while writing `what` (io.write, exit code 2).
Diagnostic write_failed(const std::string& what, const std::string& why);
// A model's name, for the graph a writer writes: its file's stem, or its folder's name for a file
// a folder format names (main.sknd, graph.nnef, model.nnl); "G" when there is neither.
std::string model_name(const std::string& path);
// Makes the folder a writer writes into (its OUT); io.write when it cannot be made.
std::optional<Diagnostic> make_folder(const std::string& out_dir);
// Writes `bytes` to the file `path` (its folders made first); io.write when that fails.
std::optional<Diagnostic> write_file(const std::filesystem::path& path, const std::string& bytes);

}  // namespace nnref::convert
