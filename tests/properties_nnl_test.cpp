// NNL round trip over generated models: each model the printer can state (formats/nnl/writer.hpp)
// is written with write_nnl and read back by load_model as `nnref run model.nnl` reads it, giving
// the same graph up to the order and names of nodes (a layer that is a graph output takes the
// output's name in NNL), each canonical node's weights bit for bit and bit-identical outputs of the
// f64 and f32 oracles; a model it cannot state is refused as convert.unexpressible, nothing else.
// The ops are those NNL's layers lower to, so that a fair share of the models is expressible.
#include "properties_support.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "formats/model.hpp"
#include "formats/nnl/writer.hpp"
#include "properties_compare_support.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::properties;

namespace {

// Each parameter by its node's canonical id and its role.
std::map<std::pair<int, std::string>, const HostTensor*> weights_by_node(const Model& m, const std::vector<int>& canon) {
  std::map<std::pair<int, std::string>, const HostTensor*> out;
  for (const auto& [key, entry] : m.payload.entries())
    out[{canon[static_cast<size_t>(m.graph.find(key.first)->id)], key.second}] = &entry.tensor;
  return out;
}

}  // namespace

TEST_CASE("properties: NNL print then parse gives the same graph, weights and outputs") {
  test::TempDir tmp("properties_nnl");
  GenOptions options;
  options.ops = {"linear", "relu", "sigmoid", "add", "softmax", "tanh", "concat"};
  int written = 0, refused = 0;
  check_models("NNL round trip", 2000, options, [&](const GeneratedModel& g) {
    const std::string dir = (tmp / ("m" + std::to_string(written + refused))).string();
    const std::vector<Diagnostic> errors = write_nnl(g.model, dir);
    if (!errors.empty()) {
      RC_LOG() << errors[0].code << ": " << errors[0].message << "\n";
      RC_ASSERT(errors[0].code == "convert.unexpressible");
      ++refused;
      return;
    }
    ++written;
    LoadResult loaded = load_model(dir + "/" + kNnlModelFile, LoadOptions{});
    for (const Diagnostic& d : loaded.diagnostics) RC_LOG() << d.code << ": " << d.message << "\n";
    RC_ASSERT(!loaded.has_errors());
    const Model& read = *loaded.model;
    Canon canon;
    canon.weight_names = false;
    const std::vector<int> ca = canon.ids(g.model), cb = canon.ids(read);
    RC_ASSERT(std::multiset<int>(ca.begin(), ca.end()) == std::multiset<int>(cb.begin(), cb.end()));
    const auto want = weights_by_node(g.model, ca), got = weights_by_node(read, cb);
    RC_ASSERT(got.size() == want.size());
    for (const auto& [key, t] : want) {
      RC_ASSERT(got.count(key) == 1);
      // The same values, bit for bit (the generator's weights are float32 values), in the layout of
      // NNL's layer: a Dense weight is stored transposed when the IR's is [units, in] (docs/nnl.md).
      RC_ASSERT(got.at(key)->shape.count() == t->shape.count());
      std::vector<double> a = t->values, b = got.at(key)->values;
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      RC_ASSERT(a == b);
    }
    assert_same_outputs<double>(g.model, read, g.inputs);
    assert_same_outputs<float>(g.model, read, g.inputs);
  });
  INFO(written << " models written as NNL, " << refused << " refused");
  CHECK(written >= 40);  // the round trip is exercised, not only the refusals (most generated models are not NNL)
}
