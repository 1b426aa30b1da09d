// SkriptND graphs checked for ranges of sizes (docs/nnef2.md, "Sizes"): composition runs at the
// declared sizes, and what it computed from extents keeps its term, so that the conditions the
// definitions state (shape.source-condition) and the numbers nnref used (shape.composed-size) are
// proved by Z3 for every size. Each verdict is compared with the concrete reading at single sizes,
// and the sizes where a condition fails are worked out by hand from the text.
#include <catch2/catch.hpp>

#include "checker_sizes_support.hpp"
#include "formats/nnef2_model/nnef2_model.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

Subject compose(const std::string& text) {
  LoadResult lr = load_nnef2_text(text, "main.sknd", ".", LoadOptions{WeightsPolicy::Skip, int64_t{1} << 30});
  std::string diags;
  for (const auto& d : lr.diagnostics) diags += format_diagnostic(d) + "\n";
  INFO(diags);
  REQUIRE(lr.model.has_value());
  return Subject{lr.model->graph, lr.model->payload, lr.model->param_keys, lr.model->size_names};
}

Subject from_folder(const std::string& name) {
  const std::string path = std::string(NNREF_SOURCE_DIR) + "/tests/data/nnef2/" + name;
  LoadResult lr = load_model(path, LoadOptions{WeightsPolicy::Skip, int64_t{1} << 30});
  REQUIRE(lr.model.has_value());
  return Subject{lr.model->graph, lr.model->payload, lr.model->param_keys, lr.model->size_names};
}

// Only the structure: the variables have no data in these tests.
CheckReport check_sizes(const Subject& s, const std::vector<DimRange>& dims) {
  CheckSettings settings;
  settings.dims = dims;
  settings.scalar_size = kScalar;
  settings.size_names = s.size_names;
  settings.check_bindings = false;
  auto r = check_model(s.graph, s.payload, s.names, settings);
  if (!r) FAIL("check_model usage error: " << format_diagnostic(r.error()));
  return *r;
}

// The concrete reading of the graph at one size (the shapes only): "" or its first error's code.
std::string concrete_error(const Subject& s, const std::string& name, int64_t value) {
  z3::context ctx;
  auto bound = SizeSymbols::bind(ctx, s.graph, s.size_names, {{name, value, value}});
  if (!bound) FAIL("bind: " << format_diagnostic(bound.error()));
  const auto info = infer_shapes(bound->instantiate(s.graph, {{name, value}}));
  return info ? std::string() : info.error().code;
}

// Two inputs whose extents are graph attributes, a graph @assert on one, an add that broadcasts
// (math.add's @using aligns the operands and picks each result extent with `ex is 1 ? ey : ex`)
// and a flatten (the reshape's target computed from the batch).
const char* kSized = R"(version 2.0;
import math;
import layout;

graph Sized {
    @attrib {
        batch: int = 3;
        width: int = 4;
    }
    @input {
        x: real[batch, width];
        y: real[1, width];
    }
    @output {
        z: real[batch * width];
    }
    @assert {
        batch <= 16: "at most 16 rows";
    }
    @compose {
        s = math.add(x, y);
        z = layout.flatten{axis=0}(s);
    }
}
)";

}  // namespace

TEST_CASE("sknd sizes: the test models whose batch is a graph attribute hold for every batch", "[sknd][sizes]") {
  for (const char* name : {"perceptron", "cnn"}) {
    INFO(name);
    const Subject s = from_folder(name);
    const CheckReport r = check_sizes(s, {{"batch", 1, 64}});
    CHECK(r.counts.refuted == 0);
    CHECK(r.counts.unknown == 0);
    CHECK(r.counts.proved > 50);
    for (int64_t batch : {1, 5, 64}) CHECK(concrete_error(s, "batch", batch).empty());
  }
}

TEST_CASE("sknd sizes: a graph assertion, broadcasting and a computed flatten, at every size", "[sknd][sizes]") {
  const Subject s = compose(kSized);
  // batch <= 16 is the only condition that depends on the batch; width 1 broadcasts against y.
  CHECK(check_sizes(s, {{"batch", 1, 16}, {"width", 1, 9}}).counts.refuted == 0);
  const CheckReport over = check_sizes(s, {{"batch", 1, 40}, {"width", 4, 4}});
  const Diagnostic* d = first_error(over, "shape.source-condition");
  REQUIRE(d != nullptr);
  CHECK(d->message.find("@assert") != std::string::npos);
  CHECK(concrete_error(s, "batch", 16).empty());
  CHECK(concrete_error(s, "batch", 17) == "shape.source-condition");
  // y is [1, width] and x [batch, width]: the add needs nothing of width; the flatten's extent,
  // batch * width, is computed by the reshape, and the output declared [batch * width] agrees.
  CHECK(concrete_error(s, "width", 1).empty());
  CHECK(concrete_error(s, "width", 7).empty());
}

TEST_CASE("sknd sizes: an output declared with a literal extent holds at that size only", "[sknd][sizes]") {
  std::string text = kSized;
  text.replace(text.find("z: real[batch * width]"), 22, "z: real[12]");
  const Subject s = compose(text);
  const CheckReport r = check_sizes(s, {{"batch", 1, 8}});
  const Diagnostic* d = first_error(r, "shape.source-condition");
  REQUIRE(d != nullptr);
  CHECK(d->message.find("declares extent 0 of output 'z' as 12") != std::string::npos);
  CHECK(concrete_error(s, "batch", 3).empty());  // 3 · 4 = 12
  CHECK(concrete_error(s, "batch", 2) == "shape.source-condition");
}

TEST_CASE("sknd sizes: an extent a definition requires of an input is a condition", "[sknd][sizes]") {
  // nn.linear's filter is [n, c] for an input [b, c]: a filter [5, 4] needs width = 4.
  const std::string text = R"(version 2.0;
import nn;
graph Linear {
    @attrib { batch: int = 2; width: int = 4; }
    @input { x: real[batch, width]; }
    @output { y: real[batch, 5]; }
    @variable { w: real[5, 4]; }
    @compose { y = nn.linear(x, w); }
}
)";
  const Subject s = compose(text);
  CHECK(check_sizes(s, {{"batch", 1, 64}}).counts.refuted == 0);
  const CheckReport r = check_sizes(s, {{"width", 3, 5}});
  const Diagnostic* d = first_error(r, "shape.source-condition");
  REQUIRE(d != nullptr);
  CHECK(d->message.find("nn.linear: extent 1 of input 'filter' equals 'c'") != std::string::npos);
  CHECK(concrete_error(s, "width", 4).empty());
  CHECK(concrete_error(s, "width", 5) == "shape.source-condition");
}

TEST_CASE("sknd sizes: a number the mapping read at the declared sizes holds there only", "[sknd][sizes]") {
  // The native conv reads its input's spatial extents ('ix') to place the padding: nnref's IR conv
  // holds them as numbers, so a height other than the declared 12 is not what was composed.
  const Subject s = from_folder("cnn");
  const CheckReport r = check_sizes(s, {{"input.2", 10, 14}});
  const Diagnostic* d = first_error(r, "shape.composed-size");
  REQUIRE(d != nullptr);
  CHECK(d->message.find("'ix' is 12 as composed at the declared sizes") != std::string::npos);
  CHECK(concrete_error(s, "input.2", 12).empty());
  CHECK(concrete_error(s, "input.2", 11) == "shape.composed-size");
}
