// The fast path's engine over whole models: every golden case and example, on every Highway target
// and with 1 and 2 threads, inside the float32 envelope of nnref conform and bitwise the same for
// both thread counts; the memory plan never lets two live values share bytes; the fusions it makes
// on resnet_block, counted by hand; a run allocates nothing; and its errors.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <new>

#include "fastpath/engine.hpp"
#include "fastpath/fusion.hpp"
#include "fastpath/gemm.hpp"
#include "fastpath/memory_plan.hpp"
#include "fastpath_test_support.hpp"
#include "formats/model.hpp"
#include "formats/tensor_files/npy.hpp"
#include "semantics/evaluate.hpp"

using namespace nnref;
namespace fs = std::filesystem;

// Counts the allocations of this test binary, so that a test can see that a run makes none.
namespace {
std::atomic<int64_t> g_allocations{0};
}
[[gnu::noinline]] void* operator new(size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, size_t) noexcept { std::free(p); }

namespace {

struct Case {
  fs::path dir;
  Model model;
  std::vector<HostTensor> inputs;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const char* root : {"tests/data/golden", "examples"})
    for (const auto& e : fs::directory_iterator(fs::path(NNREF_SOURCE_DIR) / root)) {
      if (!fs::exists(e.path() / "input.npy")) continue;
      LoadResult r = load_model((e.path() / "model.nnl").string(), {});
      REQUIRE_FALSE(r.has_errors());
      auto input = read_npy((e.path() / "input.npy").string());
      REQUIRE(input.ok());
      out.push_back({e.path(), std::move(*r.model), {*input}});
    }
  std::sort(out.begin(), out.end(), [](const Case& a, const Case& b) { return a.dir < b.dir; });
  return out;
}

Plan<float> plan_of(const Model& m) {
  auto plan = make_plan<float>(m.graph, m.payload, PlanOptions{int64_t{4} << 30, m.param_keys});
  REQUIRE(plan.ok());
  return std::move(plan).value();
}

std::vector<Tensor<float>> run_fast(const Plan<float>& plan, const std::vector<HostTensor>& inputs, int threads) {
  auto engine = fastpath::Engine::prepare(plan, {threads, int64_t{4} << 30});
  REQUIRE(engine.ok());
  auto out = (*engine)->run(inputs);
  INFO((out ? std::string() : out.error().code + ": " + out.error().message));
  REQUIRE(out.ok());
  return **out;
}

}  // namespace

TEST_CASE("fast engine: every golden case and example inside the float32 envelope, the same for 1 and 2 threads") {
  const auto all = cases();
  REQUIRE(all.size() >= 15);
  for (const Case& c : all) {
    INFO("model " << c.dir.string());
    auto envelope = evaluate<Envelope>(c.model.graph, c.model.payload, c.inputs, EvalOptions{int64_t{4} << 30, c.model.param_keys});
    REQUIRE(envelope.ok());
    const Plan<float> plan = plan_of(c.model);
    test::for_each_target([&] {
      INFO("target " << fastpath::current_target());
      const auto one = run_fast(plan, c.inputs, 1), two = run_fast(plan, c.inputs, 2);
      REQUIRE(one.size() == envelope->size());
      for (size_t k = 0; k < one.size(); ++k) {
        INFO("output " << k);
        CHECK(test::rejected((*envelope)[k], one[k].values()) == 0);
        CHECK(std::memcmp(one[k].data().data(), two[k].data().data(), one[k].data().size_bytes()) == 0);
      }
    });
  }
}

TEST_CASE("fast engine: the memory plan gives values that are live at once disjoint bytes") {
  for (const Case& c : cases()) {
    INFO("model " << c.dir.string());
    const Plan<float> plan = plan_of(c.model);
    const auto groups = fastpath::fuse(plan);
    const auto memory = fastpath::plan_memory(plan, groups);
    // Each stored value: its bytes, and the steps from its birth to the step that frees its last view.
    struct Stored {
      int64_t begin = 0, end = 0;
      size_t born = 0, dies = 0;
    };
    std::map<std::pair<int64_t, int>, std::pair<int64_t, int>> root;
    std::map<std::pair<int64_t, int>, Stored> stored;
    std::map<int64_t, size_t> step_of;  // node id → the step (group) that computes it
    for (size_t g = 0; g < groups.size(); ++g)
      for (auto i : {std::optional(groups[g].head), groups[g].batch_norm, groups[g].relu})
        if (i) step_of[plan.nodes[*i].node->id] = g;
    for (size_t g = 0; g < groups.size(); ++g) {
      const auto& last = plan.nodes[groups[g].last()];
      for (size_t k = 0; k < outputs_of(last.op).size(); ++k) {
        const std::pair<int64_t, int> v{last.node->id, static_cast<int>(k)};
        const auto& slot = memory.slots[static_cast<size_t>(v.first)][k];
        if (fastpath::is_view(plan.nodes[groups[g].head].op)) {
          const ValueRef in = plan.nodes[groups[g].head].node->inputs[0];
          root[v] = root.at({in.node, in.output});
          CHECK(slot.offset == memory.slots[static_cast<size_t>(in.node)][static_cast<size_t>(in.output)].offset);
        } else {
          root[v] = v;
          const int64_t bytes = slot.shape.count() * (slot.kind == ElemKind::Real ? 4 : slot.kind == ElemKind::Integer ? 8 : 1);
          // Inputs are copied in before the first step, whatever their place in the graph.
          const bool input = std::holds_alternative<Checked<InputAttrs>>(last.op);
          stored[v] = {slot.offset, slot.offset + bytes, input ? 0 : g, groups.size()};  // until freed, or the end
          CHECK(slot.offset % fastpath::kSlotAlignment == 0);
          CHECK(slot.offset + bytes <= memory.arena_bytes);
        }
      }
    }
    // A root dies at the latest step that frees it or one of its views; graph outputs never do.
    std::map<std::pair<int64_t, int>, size_t> freed_at;
    for (const auto& p : plan.nodes)
      for (const ValueRef& v : p.frees)
        if (root.count({v.node, v.output})) {
          auto& d = freed_at[root.at({v.node, v.output})];
          d = std::max(d, step_of.at(p.node->id));
        }
    for (auto& [v, s] : stored)
      if (freed_at.count(v) && std::none_of(c.model.graph.outputs.begin(), c.model.graph.outputs.end(), [&](const GraphOutput& o) {
            return root.at({o.value.node, o.value.output}) == v;
          }))
        s.dies = freed_at.at(v);
    for (const auto& [a, sa] : stored)
      for (const auto& [b, sb] : stored) {
        if (!(a < b)) continue;
        const bool live_together = sa.born <= sb.dies && sb.born <= sa.dies;
        const bool bytes_overlap = sa.begin < sb.end && sb.begin < sa.end;
        INFO("values " << a.first << ":" << a.second << " and " << b.first << ":" << b.second);
        CHECK_FALSE((live_together && bytes_overlap));
      }
    CHECK(memory.live_peak_bytes <= memory.arena_bytes);
  }
}

TEST_CASE("fast engine: an input placed after a computed value keeps its own bytes") {
  // Found by the engine property (tests/properties_engines_test.cpp): a dead copy computed before
  // the later inputs took the integer index's bytes, so the gather read -0.0f's bits as an index.
  Graph g;
  g.add("x0", InputAttrs{{1}});
  g.add("n1", UnaryAttrs{UnaryOp::Copy}, {{0, 0}});
  g.add("x2", InputAttrs{{3}});
  g.add("x3", InputAttrs{{}, ElemKind::Integer});
  const int64_t gather = g.add("n4", GatherAttrs{0}, {{2, 0}, {3, 0}});
  g.outputs = {{"y", {gather, 0}}};
  Model m;
  m.graph = g;
  const std::vector<HostTensor> inputs = {{DType::F32, Shape::of({1}), {-0.0}},
                                          {DType::F32, Shape::of({3}), {5, 6, 7}},
                                          {DType::I64, Shape(), {2}}};
  const auto y = run_fast(plan_of(m), inputs, 1);
  REQUIRE(y.size() == 1);
  CHECK(y[0].values() == std::vector<float>{7.0f});  // x2[2]
}

TEST_CASE("fast engine: resnet_block runs as 4 steps, each conv with its batch norm (and the first relu) fused") {
  // input → conv1 → bn1 → relu1 → conv2 → bn2 → add(input, bn2) → relu2: the input needs no step,
  // conv1+bn1+relu1 and conv2+bn2 are one step each, then the add and the last relu.
  const auto all = cases();
  const auto it = std::find_if(all.begin(), all.end(), [](const Case& c) { return c.dir.filename() == "resnet_block"; });
  REQUIRE(it != all.end());
  const Plan<float> plan = plan_of(it->model);
  const auto groups = fastpath::fuse(plan);
  int fused_bn = 0, fused_relu = 0;
  for (const auto& g : groups) {
    fused_bn += g.batch_norm ? 1 : 0;
    fused_relu += g.relu ? 1 : 0;
  }
  CHECK(fused_bn == 2);
  CHECK(fused_relu == 1);
  auto engine = fastpath::Engine::prepare(plan, {1, int64_t{4} << 30});
  REQUIRE(engine.ok());
  CHECK((*engine)->step_count() == 4);
}

TEST_CASE("fast engine: after the first run, a run allocates nothing") {
  for (const Case& c : cases()) {
    INFO("model " << c.dir.string());
    const Plan<float> plan = plan_of(c.model);
    for (int threads : {1, 2}) {
      auto engine = fastpath::Engine::prepare(plan, {threads, int64_t{4} << 30});
      REQUIRE(engine.ok());
      REQUIRE((*engine)->run(c.inputs).ok());
      const int64_t before = g_allocations.load();
      const bool ok = (*engine)->run(c.inputs).ok();
      const int64_t made = g_allocations.load() - before;
      CHECK(ok);
      CHECK(made == 0);
    }
  }
}

TEST_CASE("fast engine: inputs that do not match the plan, and an arena over the budget, are errors") {
  const auto all = cases();
  const Case& c = all.front();
  const Plan<float> plan = plan_of(c.model);
  auto engine = fastpath::Engine::prepare(plan, {1, int64_t{4} << 30});
  REQUIRE(engine.ok());
  HostTensor wrong = c.inputs[0];
  wrong.shape = *Shape::make({static_cast<int64_t>(wrong.values.size())});
  auto bad = (*engine)->run({wrong});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code == "input.shape-mismatch");
  auto none = (*engine)->run({});
  REQUIRE_FALSE(none.ok());
  CHECK(none.error().code == "input.count");
  auto small = fastpath::Engine::prepare(plan, {1, 16});
  REQUIRE_FALSE(small.ok());
  CHECK(small.error().code == "fast.memory");
}
