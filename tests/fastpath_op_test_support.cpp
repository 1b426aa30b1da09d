// The fast-path differential test of tests/fastpath_op_test_support.hpp, compiled once for every op
// rather than in each test that includes the header.
#include "fastpath_op_test_support.hpp"

#include <hwy/aligned_allocator.h>

#include <cstring>

#include "fastpath/memory_plan.hpp"
#include "fastpath/threads.hpp"

namespace nnref::test {

std::vector<Value<float>> run_fast_checked(const CheckedOp& op, const std::vector<Value<double>>& ins,
                                           const std::vector<Tensor<double>>& ps, int threads,
                                           const fastpath::Epilogue& epilogue) {
  return std::visit(
      [&](const auto& c) {
        const auto bytes = [](ElemKind k) -> int64_t { return k == ElemKind::Real ? 4 : k == ElemKind::Integer ? 8 : 1; };
        int64_t end = 0;
        const auto place = [&](const Shape& s, ElemKind k) {
          fastpath::Slot slot{end, s, k};
          end += (s.count() * bytes(k) + fastpath::kSlotAlignment) / fastpath::kSlotAlignment * fastpath::kSlotAlignment;
          return slot;
        };
        fastpath::NodeLowering node;
        for (const auto& x : ins) node.inputs.push_back(place(shape_of(x), kind_of(x)));
        for (const Shape& s : c.outputs()) node.outputs.push_back(place(s, c.output_kind()));
        if (fastpath::is_view(op)) node.outputs[0].offset = node.inputs[0].offset;
        const auto floats = params_as<float>(ps);
        for (const auto& p : floats) node.params.push_back(&p);
        while (node.params.size() < c.params().size()) node.params.push_back(nullptr);
        node.epilogue = epilogue;

        auto arena = hwy::AllocateAligned<std::byte>(static_cast<size_t>(end + 1));
        fastpath::ThreadPool pool(threads);
        const fastpath::Frame frame{arena.get(), &pool};
        for (size_t i = 0; i < ins.size(); ++i) {
          const Value<float> v = value_as<float>(ins[i]);
          std::visit([&](const auto& t) { std::memcpy(arena.get() + node.inputs[i].offset, t.data().data(), t.data().size_bytes()); }, v);
        }
        const fastpath::Step step = fastpath::lower_op(c, node);
        if (step) step(frame);
        std::vector<Value<float>> out;
        for (const fastpath::Slot& s : node.outputs) {
          Value<float> v = zeros<float>(s.kind, s.shape);
          std::visit([&](auto& t) { std::memcpy(t.data().data(), arena.get() + s.offset, t.data().size_bytes()); }, v);
          out.push_back(std::move(v));
        }
        return out;
      },
      op);
}

void check_fast_against(const CheckedOp& op, const std::vector<Value<double>>& ins,
                        const std::vector<Tensor<double>>& ps, const std::vector<Value<Envelope>>& envelope) {
  const std::string name = std::visit([](const auto& c) { return op_name(c.attrs()); }, op);
  for_each_target([&] {
    for (int threads : {1, 2}) {
      INFO(name << " on target " << fastpath::current_target() << " with " << threads << " thread(s)");
      const auto fast = run_fast_checked(op, ins, ps, threads, {});
      REQUIRE(fast.size() == envelope.size());
      for (size_t k = 0; k < fast.size(); ++k) {
        INFO("output " << k);
        REQUIRE(shape_of(fast[k]) == shape_of(envelope[k]));
        if (const auto* y = std::get_if<Tensor<float>>(&fast[k])) {
          CHECK(rejected(std::get<Tensor<Envelope>>(envelope[k]), y->values()) == 0);
        } else if (const auto* y = std::get_if<Tensor<int64_t>>(&fast[k])) {
          CHECK(y->values() == std::get<Tensor<int64_t>>(envelope[k]).values());
        } else {
          CHECK(std::get<Tensor<uint8_t>>(fast[k]).values() == std::get<Tensor<uint8_t>>(envelope[k]).values());
        }
      }
    }
  });
}

}  // namespace nnref::test
