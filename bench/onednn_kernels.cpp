#include "bench/onednn_kernels.hpp"

#include <omp.h>

#include <memory>
#include <oneapi/dnnl/dnnl.hpp>
#include <vector>

namespace nnref::bench {

namespace {

using dnnl::memory;
using dt = memory::data_type;
using tag = memory::format_tag;

dnnl::engine& cpu_engine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

// A user buffer of random values and oneDNN's view of it.
struct Buffer {
  std::vector<float> values;
  memory mem;
  Buffer(const memory::desc& md, bool random)
      : values(random ? random_values(md.get_size() / sizeof(float)) : std::vector<float>(md.get_size() / sizeof(float))),
        mem(md, cpu_engine(), values.data()) {}
};

// Weights given in `user` layout, reordered once into `chosen` (the primitive's own format).
memory reordered(const memory::desc& user, const memory::desc& chosen, dnnl::stream& stream) {
  Buffer given(user, true);
  memory out(chosen, cpu_engine());
  dnnl::reorder(given.mem, out).execute(stream, given.mem, out);
  stream.wait();
  return out;
}

}  // namespace

int set_onednn_threads(int threads) {
  omp_set_num_threads(threads);
  int used = 0;
#pragma omp parallel
  {
#pragma omp single
    used = omp_get_num_threads();
  }
  return used;
}

std::optional<OnednnKernel> make_onednn_kernel(const KernelItem& item) {
  try {
    auto stream = std::make_shared<dnnl::stream>(cpu_engine());
    if (item.kind == KernelItem::Kind::gemm) {
      const memory::dims square{item.size, item.size};
      const memory::desc row_major(square, dt::f32, tag::ab);
      const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(row_major, memory::desc(square, dt::f32, tag::any), row_major),
                                            cpu_engine());
      auto a = std::make_shared<Buffer>(row_major, true);
      auto c = std::make_shared<Buffer>(row_major, false);
      const memory b = reordered(row_major, pd.weights_desc(), *stream);
      const dnnl::matmul product(pd);
      return OnednnKernel{[=] {
                            product.execute(*stream, {{DNNL_ARG_SRC, a->mem}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, c->mem}});
                            stream->wait();
                          },
                          pd.impl_info_str()};
    }
    const memory::desc src({1, item.channels, item.height, item.width}, dt::f32, tag::nhwc);
    const memory::desc dst({1, item.filters, item.out_height(), item.out_width()}, dt::f32, tag::nhwc);
    const memory::dims weights{item.filters, item.channels, item.kernel, item.kernel};
    const memory::desc bias_md({item.filters}, dt::f32, tag::a);
    const memory::dims pad{item.padding, item.padding};
    const dnnl::convolution_forward::primitive_desc pd(
        dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, src,
                                        memory::desc(weights, dt::f32, tag::any), bias_md, dst, {1, 1}, pad, pad),
        cpu_engine());
    auto x = std::make_shared<Buffer>(src, true);
    auto y = std::make_shared<Buffer>(dst, false);
    auto bias = std::make_shared<Buffer>(bias_md, true);
    const memory w = reordered(memory::desc(weights, dt::f32, tag::oihw), pd.weights_desc(), *stream);
    const dnnl::convolution_forward conv(pd);
    return OnednnKernel{[=] {
                          conv.execute(*stream, {{DNNL_ARG_SRC, x->mem},
                                                 {DNNL_ARG_WEIGHTS, w},
                                                 {DNNL_ARG_BIAS, bias->mem},
                                                 {DNNL_ARG_DST, y->mem}});
                          stream->wait();
                        },
                        pd.impl_info_str()};
  } catch (const dnnl::error&) {
    return std::nullopt;
  }
}

std::string onednn_version() {
  const dnnl_version_t* v = dnnl_version();
  return std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch) +
         (v->cpu_runtime == DNNL_RUNTIME_OMP ? " (OpenMP)" : v->cpu_runtime == DNNL_RUNTIME_TBB ? " (TBB)" : "");
}

}  // namespace nnref::bench
