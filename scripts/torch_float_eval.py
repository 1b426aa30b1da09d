#!/usr/bin/python3
"""PyTorch evaluation of an NNL v0.2 model in float32 or bfloat16, with the number of intra-op
threads given: what a user porting an NNL model to PyTorch would write (nn.functional on NCHW,
F.linear, F.batch_norm in inference mode, torch.softmax), so its float32 results are those of a
real runtime, summation orders, blocking and vector kernels included.

Layout (see docs/porting-from-pytorch.md): tensors stay [B, *per-sample] as in NNL (HWC), and each
spatial op permutes to NCHW and back. "same" padding is TF's, applied with F.pad (floor(total/2)
before, the rest after) ahead of an unpadded conv2d. BatchNorm moves the channel axis (the last) to
dim 1 for F.batch_norm, which folds it, not the form the NNL reference writes: in float32,
a = gamma * (1 / sqrt(var + eps)), b' = fma(-mean, a, beta), y = fma(x, a, b') (reproduced bit for
bit on torch 1.13's AVX2 kernels), so where x is close to mean its error is relative to |x * a|,
not to |(x - mean) * a|.

Weights, inputs and preprocessing constants are converted to the dtype first (bfloat16: from
float32, round to nearest even), as a runtime that stores them in that dtype does.
"""

import os
import sys

import numpy as np

# Idle OpenMP threads sleep instead of spinning: on a machine shared with other jobs (ctest -j2
# on two cores) a spinning thread takes the core its partner needs, and the 2-thread peer ran 5x
# slower. The wait policy changes no result. Read when torch starts OpenMP, so set before import.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nnl_reference as ref  # noqa: E402
import nnl_walk  # noqa: E402


def _nchw(x):
    return x.permute(0, 3, 1, 2)


def _nhwc(x):
    return x.permute(0, 2, 3, 1)


class TorchEvaluator(nnl_walk.Backend):
    """`evaluate(m, weights, x)` (nnl_walk.Backend) with torch tensors of `dtype` and `threads`
    intra-op threads; outputs are float32 arrays."""

    def __init__(self, dtype, threads):
        self.dtype = dtype
        self.threads = threads

    def tensor(self, a):
        return torch.from_numpy(np.ascontiguousarray(a, dtype=np.float32)).to(self.dtype)

    def numpy(self, v):
        return v.to(torch.float32).contiguous().numpy()

    def sub(self, a, b):
        return a - b

    def div(self, a, b):
        return a / b

    def dense(self, x, w, b):
        return F.linear(x, w.T, b)

    def conv2d(self, x, w, b, stride, pads):
        (pt, pb), (pl, pr) = pads
        return _nhwc(F.conv2d(F.pad(_nchw(x), (pl, pr, pt, pb)), w, b, stride=stride))

    def maxpool2d(self, x, kernel, stride):
        return _nhwc(F.max_pool2d(_nchw(x), kernel, stride))

    def avgpool2d(self, x, kernel, stride):
        return _nhwc(F.avg_pool2d(_nchw(x), kernel, stride))

    def batchnorm(self, x, gamma, beta, mean, var, eps):
        y = F.batch_norm(x.movedim(-1, 1), mean, var, gamma, beta, training=False, eps=float(eps))
        return y.movedim(1, -1)

    def relu(self, x):
        return torch.relu(x)

    def sigmoid(self, x):
        return torch.sigmoid(x)

    def softmax(self, x, axis):
        return torch.softmax(x, dim=axis)

    def add(self, xs):
        acc = xs[0]
        for a in xs[1:]:
            acc = acc + a
        return acc

    def concat(self, xs, axis):
        return torch.cat(xs, dim=axis)

    def evaluate(self, m, weights, x, same_padding=ref.same_padding):
        saved = torch.get_num_threads()
        torch.set_num_threads(self.threads)
        try:
            with torch.no_grad():
                return super().evaluate(m, weights, x, same_padding)
        finally:
            torch.set_num_threads(saved)
