#!/usr/bin/python3
"""NumPy evaluation of an NNL v0.2 model in a low-precision floating-point format, with every
operation's result rounded to that format and every sum taken in an explicit order.

It is one of the independent "peers" whose results `nnref conform` must accept (see
float32_peers.py). It shares no code with nnref's C++; the walk over the model (nnl_walk.py)
reads layers as nnl_reference.py does: per-sample HWC with a leading batch axis, Conv2D weight
[F, C, kH, kW] applied as a cross-correlation, TF "same" padding (floor(total/2) before).

Formats (every + - * / sqrt result is correctly rounded to the format):
  float32, float16  NumPy's own dtypes. NumPy computes float16 in float32 and rounds the result;
                    that double rounding is innocuous for + - * / sqrt since 24 >= 2*11 + 2.
  bfloat16          emulated: values held in float32, each result rounded to 8 significant bits,
                    ties to even (innocuous again: 24 >= 2*8 + 2).
  exp is NumPy's float32 exp (its SIMD version errs by up to 2.35 ulp, measured on an AVX-512
  machine), rounded to the format. Weights, inputs and the preprocessing constants are rounded
  to the format first (bfloat16: via float32).

Orders of a sum init + t_0 + ... + t_{n-1} (each product t_k already rounded):
  reversed  init, then t_{n-1}, t_{n-2}, ..., t_0: one rounding per addition;
  lanes     8 strided partial sums (lane l adds t_l, t_{l+8}, ... in turn) combined pairwise, then
            init: the order of an 8-wide SIMD loop.
Dot products (Dense, Conv2D), AvgPool2D's window sum, Softmax's denominator and Add's inputs all
go through one function, `ordered_sum`.

BatchNorm is computed as written, gamma * (x - mean) / sqrt(var + eps) + beta, four roundings;
Softmax as exp(x - max) / sum; Sigmoid as 1 / (1 + exp(-x)).
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nnl_walk  # noqa: E402

ORDERS = ("reversed", "lanes")
LANES = 8


def round_to_bfloat16(a):
    """Round float32 values to the nearest bfloat16 (ties to even), kept as float32; NaN stays."""
    a = np.asarray(a, dtype=np.float32)
    bits = a.reshape(-1).view(np.uint32)
    odd = (bits >> np.uint32(16)) & np.uint32(1)
    rounded = ((bits + np.uint32(0x7FFF) + odd) & np.uint32(0xFFFF0000)).view(np.float32)
    return np.where(np.isnan(a), a, rounded.reshape(a.shape))


class Format:
    """A floating-point format: the NumPy dtype that holds its values and, when that dtype is
    wider than the format, the function that rounds a result to it."""

    def __init__(self, name, dtype, narrow=None):
        self.name = name
        self.dtype = np.dtype(dtype)
        self.narrow = narrow

    def round(self, a):
        """a (already of self.dtype, rounded once to it) rounded to the format."""
        return a if self.narrow is None else self.narrow(a)

    def cast(self, a):
        """Any numeric value or array, rounded to the format."""
        return self.round(np.asarray(a).astype(self.dtype))


FLOAT32 = Format("float32", np.float32)
FLOAT16 = Format("float16", np.float16)
BFLOAT16 = Format("bfloat16", np.float32, round_to_bfloat16)


def ordered_sum(fmt, order, n, term, init=None):
    """init + term(0) + ... + term(n-1), each addition rounded to fmt, in the given order."""
    if order == "reversed":
        acc = init
        for k in range(n - 1, -1, -1):
            t = term(k)
            acc = t if acc is None else fmt.round(acc + t)
        return acc
    if order == "lanes":
        lanes = []
        for k in range(n):
            t = term(k)
            if k < LANES:
                lanes.append(t)
            else:
                lanes[k % LANES] = fmt.round(lanes[k % LANES] + t)
        while len(lanes) > 1:
            paired = [fmt.round(a + b) for a, b in zip(lanes[0::2], lanes[1::2])]
            lanes = paired + lanes[len(paired) * 2:]
        return lanes[0] if init is None else fmt.round(lanes[0] + init)
    raise ValueError("unknown summation order %r" % order)


class Evaluator(nnl_walk.Backend):
    """Evaluates a parsed NNL model (`evaluate(m, weights, x)`, from nnl_walk.Backend) in `fmt`
    with every sum in `order`; outputs are arrays of fmt.dtype."""

    def __init__(self, fmt, order="reversed"):
        if order not in ORDERS:
            raise ValueError("unknown summation order %r" % order)
        self.fmt = fmt
        self.order = order

    def tensor(self, a):
        return self.fmt.cast(a)

    def numpy(self, v):
        return v

    def sum(self, n, term, init=None):
        return ordered_sum(self.fmt, self.order, n, term, init)

    def mul(self, a, b):
        return self.fmt.round(a * b)

    def sub(self, a, b):
        return self.fmt.round(a - b)

    def div(self, a, b):
        return self.fmt.round(a / b)

    def dense(self, x, w, b):
        """x [B, I], w [I, U], b [U] -> [B, U]."""
        return self.sum(x.shape[1], lambda i: self.mul(x[:, i:i + 1], w[i]), init=b)

    def conv2d(self, x, w, b, stride, pads):
        """x [B, H, W, C], w [F, C, kH, kW] -> [B, Ho, Wo, F]; terms ordered (i, j, c)."""
        x = np.pad(x, ((0, 0),) + tuple(pads) + ((0, 0),))
        _, H, W, C = x.shape
        _, _, kH, kW = w.shape
        sH, sW = stride
        Ho, Wo = (H - kH) // sH + 1, (W - kW) // sW + 1

        def term(k):
            i, rest = divmod(k, kW * C)
            j, c = divmod(rest, C)
            patch = x[:, i:i + sH * (Ho - 1) + 1:sH, j:j + sW * (Wo - 1) + 1:sW, c, None]
            return self.mul(patch, w[:, c, i, j])
        return self.sum(kH * kW * C, term, init=b)

    @staticmethod
    def windows(x, kernel, stride):
        """The kH*kW strided views of x [B, H, W, C], one per window tap, row-major."""
        _, H, W, _ = x.shape
        (kH, kW), (sH, sW) = kernel, stride
        Ho, Wo = (H - kH) // sH + 1, (W - kW) // sW + 1
        return [x[:, i:i + sH * (Ho - 1) + 1:sH, j:j + sW * (Wo - 1) + 1:sW, :]
                for i in range(kH) for j in range(kW)]

    def maxpool2d(self, x, kernel, stride):
        taps = self.windows(x, kernel, stride)
        out = taps[0]
        for t in taps[1:]:
            out = np.maximum(out, t)   # exact; NaN propagates from either side
        return out

    def avgpool2d(self, x, kernel, stride):
        taps = self.windows(x, kernel, stride)
        return self.div(self.sum(len(taps), lambda k: taps[k]), self.fmt.cast(len(taps)))

    def batchnorm(self, x, gamma, beta, mean, var, eps):
        r = self.fmt.round
        scale = r(np.sqrt(r(var + self.fmt.cast(eps))))
        return r(r(r(gamma * r(x - mean)) / scale) + beta)

    def relu(self, x):
        return np.maximum(x, np.zeros((), x.dtype))   # NaN propagates

    def exp(self, x):
        with np.errstate(over="ignore"):
            return self.fmt.round(np.exp(x))

    def sigmoid(self, x):
        one = self.fmt.cast(1.0)
        return self.div(one, self.fmt.round(one + self.exp(-x)))

    def softmax(self, x, axis):
        e = self.exp(self.sub(x, np.max(x, axis=axis, keepdims=True)))
        return self.div(e, self.sum(x.shape[axis], lambda k: np.take(e, [k], axis=axis)))

    def add(self, xs):
        return self.sum(len(xs), lambda k: xs[k])

    def concat(self, xs, axis):
        return np.concatenate(xs, axis=axis)
