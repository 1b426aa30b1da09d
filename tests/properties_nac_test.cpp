// NAC round trip over generated models: nac::encode, written to a file and read by load_model as a
// user's `nnref run model.nac` reads it, gives the same graph (ops, edges, outputs, every node's
// shapes, up to the order of nodes), bit-identical weights and bit-identical outputs of the f64 and f32 oracles.
#include "properties_support.hpp"

#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <variant>

#include "formats/model.hpp"
#include "formats/nac/encode.hpp"
#include "semantics/evaluate.hpp"
#include "semantics/wellformed.hpp"
#include "nac_weights_support.hpp"
#include "properties_compare_support.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::properties;

TEST_CASE("properties: NAC write then read gives the same graph, weights and outputs") {
  test::TempDir tmp("properties_nac");
  int written = 0;
  check_models("NAC round trip", 300, GenOptions{}, [&](const GeneratedModel& g) {
    auto encoded = nac::encode(g.model, nac::WriteOptions{});
    if (const auto* e = std::get_if<nac::FormatError>(&encoded)) RC_LOG() << e->message << "\n";
    RC_ASSERT(std::holds_alternative<nac::Encoded>(encoded));
    const std::string path = (tmp / ("m" + std::to_string(written++) + ".nac")).string();
    std::ofstream(path, std::ios::binary) << std::get<nac::Encoded>(encoded).nac;
    LoadResult loaded = load_model(path, LoadOptions{});
    for (const Diagnostic& d : loaded.diagnostics) RC_LOG() << d.code << ": " << d.message << "\n";
    RC_ASSERT(!loaded.has_errors());
    const Model& read = *loaded.model;

    // The same graph up to the order of its nodes (the writer places a Const just before its first
    // reader, and the reader names nodes after instructions): the same multiset of canonical
    // nodes and the same outputs.
    Canon canon;
    const std::vector<int> ca = canon.ids(g.model), cb = canon.ids(read);
    RC_ASSERT(std::multiset<int>(ca.begin(), ca.end()) == std::multiset<int>(cb.begin(), cb.end()));
    const Graph &a = g.model.graph, &b = read.graph;
    RC_ASSERT(b.outputs.size() == a.outputs.size());
    for (size_t k = 0; k < a.outputs.size(); ++k) {
      RC_ASSERT(b.outputs[k].name == a.outputs[k].name);
      RC_ASSERT(cb[static_cast<size_t>(b.outputs[k].value.node)] == ca[static_cast<size_t>(a.outputs[k].value.node)]);
      RC_ASSERT(b.outputs[k].value.output == a.outputs[k].value.output);
    }
    const auto want = test::weights_by_name(g.model), got = test::weights_by_name(read);
    RC_ASSERT(got.size() == want.size());
    for (const auto& [name, t] : want) {
      RC_ASSERT(got.count(name) == 1);
      RC_ASSERT(got.at(name)->shape == t->shape);
      RC_ASSERT(got.at(name)->values == t->values);  // the generator's weights are float32 values: exact
    }
    assert_same_outputs<double>(g.model, read, g.inputs);
    assert_same_outputs<float>(g.model, read, g.inputs);
  });
}
