// oneDNN 2.6 (Debian's libdnnl, OpenMP runtime) as the second peer of bench/fastpath_bench: the
// same kernels as oneDNN primitives, created once (weights reordered once into the format oneDNN
// chooses, as the fast path packs its own at prepare time) so that a run times execute only.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "bench/kernel_item.hpp"

namespace nnref::bench {

struct OnednnKernel {
  std::function<void()> run;  // one execute, waited for
  std::string implementation;  // oneDNN's name for the implementation it chose, e.g. "brg:avx512_core"
};

// Sets the threads oneDNN's OpenMP runtime uses from now on (call it before making kernels: a
// primitive plans its work for the thread count at creation) and returns how many threads an
// OpenMP parallel region then actually has.
int set_onednn_threads(int threads);

// gemm: dnnl::matmul, A and C row-major, B in the format oneDNN chooses ("any"). conv:
// dnnl::convolution_forward (forward inference, direct), source and destination NHWC, weights
// "any", a bias, padding on every side, stride 1, batch 1. nullopt if oneDNN refuses the shape.
std::optional<OnednnKernel> make_onednn_kernel(const KernelItem& item);

// "2.6.3" (and the CPU runtime, "OpenMP").
std::string onednn_version();

}  // namespace nnref::bench
