#!/usr/bin/python3
"""Independent float64 reference for NNEF 1.0 models in flat syntax, with PyTorch.

Written from the NNEF 1.0.4 specification; it shares no code or logic with nnref's
C++ reader. It reads graph.nnef (flat syntax: one invocation per assignment, literal
arguments), writes random weights as NNEF tensor files (.dat, §5.2: 128-byte
little-endian header, float32 items), evaluates the graph in float64 with
torch.nn.functional, and compares nnref's answer with it.

Usage:
    nnef_reference.py --write-weights MODEL_DIR --seed N     # .dat files for every variable
    nnef_reference.py --eval MODEL_DIR --input X.npy --output OUT.npz
    nnef_reference.py --check --nnref BIN                    # every cross-check model
    nnef_reference.py --self-test

Conventions (the spec's): NCHW; left-aligned broadcasting (§4.2.2: the shorter shape
is padded with trailing 1s); padding [] is automatic (output ceil(X/s), the odd pixel
after); biases are [1, C]; softmax over axes [1] by default; max_pool with border
'ignore' leaves padding out, with 'constant' reads zeros; avg_pool with 'constant'
divides by the window size, with 'ignore' by the number of real elements; box, the pools
and the local normalizations window every axis, with every border of §4.3.
"""

import argparse
import itertools
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torch.nn.functional as F

CROSSCHECK_MODELS = ["tests/data/nnef/alexnet_small", "tests/data/nnef/crosscheck/mlp",
                     "tests/data/nnef/crosscheck/convnet", "tests/data/nnef/crosscheck/logic",
                     "tests/data/nnef/crosscheck/deconvnet", "tests/data/nnef/crosscheck/windows",
                     "tests/data/nnef/crosscheck/resample", "tests/data/nnef/crosscheck/roi",
                     "tests/data/nnef/crosscheck/borders", "tests/data/nnef/crosscheck/sample"]


# ---------------------------------------------------------------- flat syntax

TOKEN = re.compile(r"\s*(?:#[^\n]*\n?)*\s*(->|[A-Za-z_][A-Za-z0-9_]*|-?\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|'[^']*'|\"[^\"]*\"|[()\[\]{}:=,;<>])")


def tokens(text):
    out, pos = [], 0
    while True:
        m = TOKEN.match(text, pos)
        if not m:
            rest = text[pos:].strip()
            if rest and not rest.startswith("#"):
                raise ValueError("cannot read at %r" % text[pos:pos + 20])
            return out
        out.append(m.group(1))
        pos = m.end()


class Reader:
    def __init__(self, toks):
        self.t, self.i = toks, 0

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else None

    def take(self, want=None):
        tok = self.t[self.i]
        if want is not None and tok != want:
            raise ValueError("expected %r, found %r" % (want, tok))
        self.i += 1
        return tok

    def value(self):
        tok = self.take()
        if tok in ("[", "("):
            close = "]" if tok == "[" else ")"
            items = []
            while self.peek() != close:
                items.append(self.value())
                if self.peek() == ",":
                    self.take()
            self.take(close)
            return items if tok == "[" else tuple(items)
        if tok[0] in "'\"":
            return tok[1:-1]
        if tok in ("true", "false"):
            return tok == "true"
        if re.match(r"-?\d", tok):
            return float(tok) if re.search(r"[.eE]", tok) else int(tok)
        return ("id", tok)


def parse_graph(text):
    """[(outputs, op, positional args, named args)] and the graph's outputs."""
    r = Reader(tokens(text))
    r.take("version"), r.take(), r.take(";")
    while r.peek() == "extension":
        while r.take() != ";":
            pass
    r.take("graph"), r.take(), r.take("(")
    while r.take() != ")":
        pass
    r.take("->"), r.take("(")
    outputs = []
    while r.peek() != ")":
        outputs.append(r.take())
        if r.peek() == ",":
            r.take()
    r.take(")"), r.take("{")
    body = []
    while r.peek() != "}":
        lhs = []
        while r.peek() != "=":
            tok = r.take()
            if re.match(r"[A-Za-z_]", tok):
                lhs.append(tok)
        r.take("=")
        op = r.take()
        pos, named = [], {}
        if r.peek() == "<":  # a generic argument: constant<integer>, cast<scalar>
            r.take("<")
            named["?"] = r.take()
            r.take(">")
        r.take("(")
        while r.peek() != ")":
            if r.t[r.i + 1] == "=":
                name = r.take()
                r.take("=")
                named[name] = r.value()
            else:
                pos.append(r.value())
            if r.peek() == ",":
                r.take()
        r.take(")"), r.take(";")
        body.append((lhs, op, pos, named))
    return body, outputs


# ---------------------------------------------------------------- tensor files

def write_dat(path, array):
    """float32 items, §5.2: magic 'N' 0xEF, version 1.0, data length, rank, 8 extents, bits, item type 0."""
    a = np.ascontiguousarray(array, dtype="<f4")
    extents = list(a.shape) + [0] * (8 - a.ndim)
    header = struct.pack("<BBBBII8III", 0x4E, 0xEF, 1, 0, a.nbytes, a.ndim, *extents, 32, 0)
    header += b"\0" * (128 - len(header))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(header + a.tobytes())


def read_dat(path):
    with open(path, "rb") as f:
        data = f.read()
    magic0, magic1, major, minor, length, rank = struct.unpack_from("<BBBBII", data, 0)
    assert (magic0, magic1, major, minor) == (0x4E, 0xEF, 1, 0)
    extents = struct.unpack_from("<8I", data, 12)[:rank]
    bits, item = struct.unpack_from("<II", data, 44)
    assert bits in (32, 64) and item == 0, "this reference reads float32 and float64 files only"
    return np.frombuffer(data[128:128 + length], dtype="<f4" if bits == 32 else "<f8").reshape(extents).astype(np.float64)


def write_weights(model_dir, seed):
    body, _ = parse_graph(open(os.path.join(model_dir, "graph.nnef")).read())
    rng = np.random.default_rng(seed)
    for lhs, op, pos, named in body:
        if op == "variable":
            shape = named["shape"]
            fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else 1
            values = rng.uniform(-1.0, 1.0, size=shape) / np.sqrt(fan_in)
            write_dat(os.path.join(model_dir, named["label"] + ".dat"), values)


# ---------------------------------------------------------------- evaluation

def left_aligned(x, rank):
    """§4.2.2: a shape is padded with trailing singleton dimensions."""
    return x.reshape(tuple(x.shape) + (1,) * (rank - x.dim()))


def broadcast_pair(x, y):
    rank = max(x.dim(), y.dim())
    return left_aligned(x, rank), left_aligned(y, rank)


def auto_padding(extents, size, stride, dilation):
    pads = []
    for X, k, s, d in zip(extents, size, stride, dilation):
        out = -(-X // s)
        total = max((out - 1) * s + (k - 1) * d + 1 - X, 0)
        pads.append((total // 2, total - total // 2))
    return pads


def pad_nd(x, pads, value=0.0):
    flat = []
    for before, after in reversed(pads):
        flat += [before, after]
    return F.pad(x, flat, value=value)


def slice_indices(extent, begin, end, step, unit_strides):
    """The indices slice keeps on one axis (§4.5.4): negative bounds count from the end; values
    above the extent are the extent, below 0 are -1; end 0 is the end when every stride is 1. A
    negative stride walks backwards from begin, so there the bounds cannot pass extent - 1."""
    if end == 0 and unit_strides:
        end = extent
    b, e = [v + extent if v < 0 else v for v in (begin, end)]
    top = extent if step > 0 else extent - 1
    bottom = 0 if step > 0 else -1
    b, e = [min(max(v, bottom), top) for v in (b, e)]
    return list(range(b, e, step))


# §4.3's replicate, reflect and reflect-even are NumPy's pad modes edge, reflect and symmetric.
NUMPY_BORDER = {"replicate": "edge", "reflect": "reflect", "reflect-even": "symmetric"}


def extended_index(k, extent, border):
    """§4.3's ĩ[k] as the input position it reads (reflecting once), or None for the zero border."""
    if 0 <= k < extent:
        return k
    if border == "replicate":
        return min(max(k, 0), extent - 1)
    if border == "reflect":
        r = -k if k < 0 else 2 * extent - 2 - k
    elif border == "reflect-even":
        r = -k - 1 if k < 0 else 2 * extent - 1 - k
    else:
        return None
    assert 0 <= r < extent, "reflected more than once"
    return r


def conv(x, w, b, named):
    """§4.3.1: the input extended by its border over the spatial padding (NumPy's pad modes), then
    PyTorch's conv with no padding."""
    n = x.dim() - 2
    stride = named.get("stride") or [1] * n
    dilation = named.get("dilation") or [1] * n
    padding = named.get("padding", [])
    if not padding:
        padding = auto_padding(x.shape[2:], w.shape[2:], stride, dilation)
    groups = named.get("groups", 1) or x.shape[1]
    border = named.get("border", "constant")
    if border in NUMPY_BORDER:
        x = torch.from_numpy(np.pad(x.numpy(), [(0, 0), (0, 0)] + list(padding), mode=NUMPY_BORDER[border]))
    else:
        x = pad_nd(x, padding)
    y = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[n](x, w, None, stride, 0, dilation, groups)
    return y + left_aligned(b, y.dim())


def deconv(x, w, b, named):
    """§4.3.1: PyTorch's transposed conv gives the full extent (x - 1)*s + fd; the output is its
    positions [p, p + X), zeros outside, where X is output_shape's, or x*s under automatic padding
    (padding then as conv's automatic padding from X down to x), or (x - 1)*s + fd - p - q."""
    n = x.dim() - 2
    stride = named.get("stride") or [1] * n
    dilation = named.get("dilation") or [1] * n
    padding = named.get("padding", [])
    output_shape = named.get("output_shape", [])
    groups = named.get("groups", 1) or (output_shape[1] if output_shape else x.shape[1])
    transposed = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}[n]
    full = transposed(x, w, None, stride, 0, 0, groups, dilation)
    crops, ups, pads = [], [], []
    for i in range(n):
        xi, k, s, d = x.shape[2 + i], w.shape[2 + i], stride[i], dilation[i]
        fd = (k - 1) * d + 1
        if output_shape:
            up = output_shape[2 + i]
        elif padding:
            up = (xi - 1) * s + fd - padding[i][0] - padding[i][1]
        else:
            up = xi * s
        p = padding[i][0] if padding else max((xi - 1) * s + fd - up, 0) // 2
        crops.append((-p, up + p - full.shape[2 + i]))
        ups.append(up)
        pads.append(p)
    border = named.get("border", "constant")
    if border in NUMPY_BORDER:
        y = deconv_written_out(x, w, stride, dilation, pads, ups, groups, border)
    else:
        y = pad_nd(full, crops)
    return y + left_aligned(b, y.dim())


def deconv_written_out(x, w, stride, dilation, pads, extents, groups, border):
    """§4.3.1's deconv formula term by term over the extended input: output[b][o][i...] =
    Σ_{c in o's group, j...} ĩ[b][c][(i + p − j·d)/s ...]·w[c][o mod (C_out/G)][j...], over the terms where
    every s divides i + p − j·d; ĩ read through extended_index."""
    a, f = x.numpy(), w.numpy()
    n = a.ndim - 2
    per_in, per_out = a.shape[1] // groups, f.shape[1]
    y = np.zeros([a.shape[0], per_out * groups] + list(extents))
    for out in np.ndindex(*extents):
        for taps in np.ndindex(*f.shape[2:]):
            src = []
            for i in range(n):
                k = out[i] + pads[i] - taps[i] * dilation[i]
                if k % stride[i] != 0:
                    break
                src.append(extended_index(k // stride[i], a.shape[2 + i], border))
            else:
                for g in range(groups):
                    patch = a[(slice(None), slice(g * per_in, (g + 1) * per_in)) + tuple(src)]
                    y[(slice(None), slice(g * per_out, (g + 1) * per_out)) + out] += \
                        patch @ f[(slice(g * per_in, (g + 1) * per_in), slice(None)) + taps]
    return torch.from_numpy(y)


def window(x, named, kind):
    """box, max_pool and avg_pool (§4.3.2, §4.9.3): a window over every axis. The input is extended
    by its border (constant: zeros; ignore: zeros marked invalid), every axis unfolded into windows
    of the dilated size at the stride, the dilation's positions of each window kept, and those
    reduced: a sum, the sum over the kernel volume (over the valid count with 'ignore'), or the
    maximum (the valid elements only with 'ignore')."""
    size = named["size"]
    n = len(size)
    stride = named.get("stride") or [1] * n
    dilation = named.get("dilation") or [1] * n
    padding = named.get("padding") or auto_padding(x.shape, size, stride, dilation)
    border = named.get("border", "constant")
    a = x.numpy()
    if border in NUMPY_BORDER:
        ext, valid = np.pad(a, padding, mode=NUMPY_BORDER[border]), np.ones(np.add(a.shape, [sum(p) for p in padding]))
    else:
        ext, valid = np.pad(a, padding), np.pad(np.ones_like(a), padding)
    t, v = torch.from_numpy(ext), torch.from_numpy(valid)
    for i in range(n):
        fd = (size[i] - 1) * dilation[i] + 1
        t, v = t.unfold(i, fd, stride[i]), v.unfold(i, fd, stride[i])
    taps = (Ellipsis,) + tuple(slice(None, None, d) for d in dilation)
    t, v = t[taps], v[taps]
    dims = tuple(range(n, 2 * n))
    if kind == "max":
        if border == "ignore":
            t = torch.where(v > 0, t, torch.tensor(float("-inf"), dtype=t.dtype))
        return t.amax(dims)
    total = t.sum(dims)
    if kind == "sum":
        return total
    return total / (v.sum(dims) if border == "ignore" else float(np.prod(size)))


def window_attributes(extents, named):
    """size, stride, dilation and padding of a window over every axis, defaults filled in (§4.3)."""
    size = named["size"]
    n = len(size)
    stride = named.get("stride") or [1] * n
    dilation = named.get("dilation") or [1] * n
    padding = named.get("padding") or auto_padding(extents, size, stride, dilation)
    return size, stride, dilation, padding


def extended(x, padding, border):
    """§4.3's extended input: NumPy's pad modes for the extending borders, zeros for 'constant',
    -inf for 'ignore' (which then never wins a maximum)."""
    a = x.numpy()
    if border in NUMPY_BORDER:
        return torch.from_numpy(np.pad(a, padding, mode=NUMPY_BORDER[border]))
    return torch.from_numpy(np.pad(a, padding, constant_values=-np.inf if border == "ignore" else 0.0))


def unfolded(x, named):
    """x's extended input unfolded along every axis into its windows: [outputs..., Π size], each
    window row-major."""
    size, stride, dilation, padding = window_attributes(x.shape, named)
    t = extended(x, padding, named.get("border", "constant"))
    n = len(size)
    for i in range(n):
        t = t.unfold(i, (size[i] - 1) * dilation[i] + 1, stride[i])
    t = t[(Ellipsis,) + tuple(slice(None, None, d) for d in dilation)]
    return t.reshape(*t.shape[:n], -1)


def max_pool_with_index(x, named):
    """§4.9.3. A window over the spatial axes alone goes through PyTorch's own max_pool1d/2d/3d
    with return_indices: x extended by its border first, pooled with no
    padding, and PyTorch's flat index into the extended plane turned into the row-major position
    within the window. A window on the batch or channel axis (no PyTorch pool has one) is every
    window unfolded and torch.argmax's position in it. Both keep the first of equal maxima, as
    §4.3.3."""
    size, stride, dilation, padding = window_attributes(x.shape, named)
    if size[:2] != [1, 1] or stride[:2] != [1, 1] or dilation[:2] != [1, 1] or list(padding[:2]) != [(0, 0), (0, 0)]:
        windows = unfolded(x, named)
        index = windows.argmax(-1)
        return torch.gather(windows, windows.dim() - 1, index.unsqueeze(-1)).squeeze(-1), index
    t = extended(x, padding, named.get("border", "constant"))
    r = t.dim() - 2
    pool = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}[r]
    y, flat = pool(t, size[2:], stride[2:], 0, dilation[2:], return_indices=True)
    rest, pos = flat, [None] * r
    for i in reversed(range(r)):
        pos[i], rest = rest % t.shape[2 + i], rest // t.shape[2 + i]
    index = torch.zeros_like(flat)
    for i in range(r):
        o = torch.arange(y.shape[2 + i]).reshape([-1 if k == i else 1 for k in range(r)])
        index = index * size[2 + i] + (pos[i] - o * stride[2 + i]) // dilation[2 + i]
    return y, index


def sample(x, index, named):
    """§4.3.3: the element at each window's row-major position `index` of the unfolded input."""
    flat = unfolded(x, named)
    return torch.gather(flat, flat.dim() - 1, index.unsqueeze(-1)).squeeze(-1)


def desample(x, index, named):
    """§4.3.3, as sample's adjoint: each element of x added at the up-scaled position o*s + j*d - p
    its index j names, when that lies inside the output. An empty output_shape is (x - 1)*s + fd -
    p - q with explicit padding, x*s with automatic padding (as deconv's)."""
    size = named["size"]
    n = len(size)
    stride = named.get("stride") or [1] * n
    dilation = named.get("dilation") or [1] * n
    up = named.get("output_shape") or (
        [(x.shape[i] - 1) * stride[i] + (size[i] - 1) * dilation[i] + 1 - sum(named["padding"][i]) for i in range(n)]
        if named.get("padding") else [x.shape[i] * stride[i] for i in range(n)])
    padding = named.get("padding") or auto_padding(up, size, stride, dilation)
    a, idx = x.numpy(), index.numpy()
    y = np.zeros(up)
    for o in np.ndindex(*a.shape):
        j = np.unravel_index(idx[o], size)
        p = tuple(o[i] * stride[i] + j[i] * dilation[i] - padding[i][0] for i in range(n))
        if all(0 <= p[i] < up[i] for i in range(n)):
            y[p] += a[o]
    return torch.from_numpy(y)


def local_normalization(op, x, named):
    """§4.9.4, each written out: box means with the default border ('constant') and automatic padding."""
    def mean(t):
        return window(t, {"size": named["size"]}, "avg")
    if op == "local_response_normalization":
        alpha, beta, bias = named.get("alpha", 1.0), named.get("beta", 0.5), named.get("bias", 1.0)
        return x / (bias + alpha * mean(x * x)) ** beta
    if op == "local_mean_normalization":
        return x - mean(x)
    if op == "local_contrast_normalization":
        x = x - mean(x)
    bias, epsilon = named.get("bias", 0.0), named.get("epsilon", 0.0)
    return x / torch.clamp(torch.sqrt(mean(x * x)) + bias, min=epsilon)


def downsample(op, x, factor):
    """§4.3.4: nearest keeps every factor-th element of each spatial axis; area averages each block
    of factor elements (the axis split into (extent / factor, factor), the block axes averaged)."""
    if op == "nearest_downsample":
        return x[(slice(None), slice(None)) + tuple(slice(None, None, f) for f in factor)]
    blocks = list(x.shape[:2])
    for extent, f in zip(x.shape[2:], factor):
        blocks += [extent // f, f]
    return x.reshape(blocks).mean(tuple(range(3, len(blocks), 2)))


def debox(x, named):
    """§4.3.2, written out: output[i] = Σ_{j<f} ĩ[(i + p − j·d)/s] over the terms where s divides
    i + p − j·d, ĩ the input extended by the border (zero for 'constant' and 'ignore'), on every
    axis; X from output_shape, or (x − 1)·s + fd − p − q, or x·s under automatic padding (p then as
    box's automatic padding of X). Normalized, the sum is divided by the kernel volume, less (with
    'ignore') the terms that read the border, which take no part."""
    size = named["size"]
    n = len(size)
    stride = named.get("stride") or [1] * n
    dilation = named.get("dilation") or [1] * n
    padding = named.get("padding", [])
    output_shape = named.get("output_shape", [])
    a = x.numpy()
    extents, pads = [], []
    for i in range(n):
        fd = (size[i] - 1) * dilation[i] + 1
        if output_shape:
            up = output_shape[i]
        elif padding:
            up = (a.shape[i] - 1) * stride[i] + fd - padding[i][0] - padding[i][1]
        else:
            up = a.shape[i] * stride[i]
        extents.append(up)
        pads.append(padding[i][0] if padding else max((a.shape[i] - 1) * stride[i] + fd - up, 0) // 2)
    border = named.get("border", "constant")
    y = np.zeros(extents)
    divisor = np.full(extents, float(np.prod(size)))
    for out in np.ndindex(*extents):
        total = 0.0
        for taps in np.ndindex(*size):
            src = []
            for i in range(n):
                k = out[i] + pads[i] - taps[i] * dilation[i]
                if k % stride[i] != 0:
                    break
                src.append(extended_index(k // stride[i], a.shape[i], border))
            else:
                if None not in src:
                    total += a[tuple(src)]
                elif border == "ignore":
                    divisor[out] -= 1
        y[out] = total
    if named.get("normalize"):
        y = y / divisor
    return torch.from_numpy(y)


def multilinear_upsample(x, named):
    """§4.3.4, written out one spatial axis at a time: output i interpolates at v = (i − f0)/f
    (f0 = (f − 1)/2 symmetric, 0 asymmetric), (1 − u)·ĩ[j] + u·ĩ[j + 1], j = floor(v), u = v − j;
    ĩ is the input extended by one element each side by the border (NumPy's pad modes)."""
    method, border = named.get("method", "symmetric"), named.get("border", "replicate")
    if method == "aligned":  # v = i/g, g = (x·f − 1)/(x − 1): PyTorch's align_corners (the self-test checks it)
        mode = {1: "linear", 2: "bilinear", 3: "trilinear"}[x.dim() - 2]
        return F.interpolate(x, scale_factor=tuple(named["factor"]), mode=mode, align_corners=True)
    y = x.numpy()
    for axis, f in enumerate(named["factor"], start=2):
        pads = [(0, 0)] * y.ndim
        pads[axis] = (1, 1)
        ext = np.pad(y, pads, mode=NUMPY_BORDER[border]) if border in NUMPY_BORDER else np.pad(y, pads)
        f0 = (f - 1) / 2 if method == "symmetric" else 0.0
        rows = []
        for i in range(y.shape[axis] * f):
            v = (i - f0) / f
            j = int(np.floor(v))
            u = v - j
            rows.append((1 - u) * np.take(ext, j + 1, axis=axis) + u * np.take(ext, j + 2, axis=axis))
        y = np.stack(rows, axis=axis)
    return torch.from_numpy(y)


def roi(op, x, rois, index, named):
    """§4.6 for one operation, one region and one output cell at a time. The pools round each
    coordinate to floor(v + 1/2); along an axis of rounded region [s, e), r = e - s, cell i of p
    starts at s + i*floor(r/p) and spans ceil(r/p) positions; positions outside the input read 0
    (avg_pool's and max_pool's default border 'constant'); a cell with no position is 0.
    roi_resample samples cell i of p at v = s + (i + 1/2)(e - s)/p - 1/2 (symmetric),
    s + i(e - s)/p (asymmetric) or s + i(e - s - 1)/(p - 1) (aligned; s when p = 1) and
    interpolates multilinearly, indices clamped to the input. A batch index (R, 1) is read as [R]."""
    x, rois, index = x.numpy(), rois.numpy(), index.numpy().reshape(-1)
    size = named["output_size"]
    m = len(size)
    extents = x.shape[2:]
    y = np.zeros((rois.shape[0], x.shape[1]) + tuple(size))
    for r in range(rois.shape[0]):
        img = x[index[r]]
        start, end = rois[r, :m], rois[r, m:]
        for cell in itertools.product(*[range(p) for p in size]):
            if op == "roi_resample":
                total = np.zeros(x.shape[1])
                points = []
                method = named.get("method", "symmetric")
                for k in range(m):
                    step = (end[k] - start[k]) / size[k]
                    if method == "symmetric":
                        points.append(start[k] + (cell[k] + 0.5) * step - 0.5)
                    elif method == "asymmetric":
                        points.append(start[k] + cell[k] * step)
                    else:  # aligned: the first and last samples on the region's first and last points
                        points.append(start[k] + (cell[k] * (end[k] - start[k] - 1) / (size[k] - 1) if size[k] > 1 else 0))
                for corner in itertools.product((0, 1), repeat=m):
                    weight, at = 1.0, []
                    for k, v in enumerate(points):
                        j = math.floor(v)
                        weight *= (v - j) if corner[k] else 1 - (v - j)
                        at.append(min(max(j + corner[k], 0), extents[k] - 1))
                    total += weight * img[(slice(None),) + tuple(at)]
                y[(r, slice(None)) + cell] = total
                continue
            axes = []
            for k in range(m):
                s, e = math.floor(start[k] + 0.5), math.floor(end[k] + 0.5)
                first = s + cell[k] * ((e - s) // size[k])
                axes.append(range(first, first + max(-((s - e) // size[k]), 0)))
            values = [img[(slice(None),) + pos] if all(0 <= q < n for q, n in zip(pos, extents))
                      else np.zeros(x.shape[1]) for pos in itertools.product(*axes)]
            if values:
                y[(r, slice(None)) + cell] = np.mean(values, axis=0) if op == "avg_roi_pool" else np.max(values, axis=0)
    return torch.from_numpy(y)


def roi_align(op, x, rois, index, named):
    """§4.6.2's compounds: roi_resample to output_size * sampling_rate, then a pool of window and
    stride sampling_rate over the spatial axes."""
    rate = named["sampling_rate"]
    size = [p * s for p, s in zip(named["output_size"], rate)]
    resized = roi("roi_resample", x, rois, index, {"output_size": size, "method": named.get("resize_method", "symmetric")})
    pool = F.avg_pool3d if len(rate) == 3 else F.avg_pool2d if len(rate) == 2 else F.avg_pool1d
    if op == "max_roi_align":
        pool = F.max_pool3d if len(rate) == 3 else F.max_pool2d if len(rate) == 2 else F.max_pool1d
    return pool(resized, kernel_size=rate, stride=rate)


def evaluate(model_dir, inputs):
    body, outputs = parse_graph(open(os.path.join(model_dir, "graph.nnef")).read())
    env = {}

    def arg(v):
        if isinstance(v, tuple) and len(v) == 2 and v[0] == "id":
            return env[v[1]]
        if isinstance(v, list):  # concat's array of identifiers, read by the op itself
            return None
        return torch.tensor([float(v)], dtype=torch.float64)

    compare = {"lt": torch.lt, "gt": torch.gt, "le": torch.le, "ge": torch.ge, "eq": torch.eq, "ne": torch.ne,
               "and": torch.logical_and, "or": torch.logical_or}
    binary = {"add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div, "pow": torch.pow,
              "min": torch.minimum, "max": torch.maximum}
    unary = {"relu": F.relu, "sigmoid": torch.sigmoid, "tanh": torch.tanh, "exp": torch.exp, "log": torch.log,
             "abs": torch.abs, "neg": torch.neg, "sqrt": torch.sqrt, "copy": lambda t: t.clone()}
    for lhs, op, pos, named in body:
        a = [arg(p) for p in pos]
        if op == "external":
            y = torch.from_numpy(inputs[lhs[0]]).to(torch.float64)
        elif op == "variable":
            y = torch.from_numpy(read_dat(os.path.join(model_dir, named["label"] + ".dat")))
        elif op == "constant":
            dtype = {"integer": torch.int64, "logical": torch.bool}.get(named.get("?"), torch.float64)
            y = torch.tensor(named["value"], dtype=dtype).expand(int(np.prod(named["shape"]))).reshape(named["shape"])
        elif op == "conv":
            y = conv(a[0], a[1], a[2] if len(a) > 2 else torch.zeros(1, dtype=torch.float64), named)
        elif op == "deconv":
            y = deconv(a[0], a[1], a[2] if len(a) > 2 else torch.zeros(1, dtype=torch.float64), named)
        elif op in ("max_pool", "avg_pool"):
            y = window(a[0], named, op[:3])
        elif op == "box":
            y = window(a[0], named, "avg" if named.get("normalize") else "sum")
        elif op == "max_pool_with_index":
            y, env[lhs[1]] = max_pool_with_index(a[0], named)
        elif op == "argmax_pool":
            y = max_pool_with_index(a[0], named)[1]
        elif op == "sample":
            y = sample(a[0], a[1], named)
        elif op == "desample":
            y = desample(a[0], a[1], named)
        elif op.startswith("local_") and op.endswith("_normalization"):
            y = local_normalization(op, a[0], named)
        elif op == "debox":
            y = debox(a[0], named)
        elif op == "nearest_upsample":  # each element repeated factor times along its spatial axis
            y = a[0]
            for axis, f in enumerate(named["factor"], start=2):
                y = y.repeat_interleave(f, dim=axis)
        elif op == "multilinear_upsample":
            y = multilinear_upsample(a[0], named)
        elif op in ("avg_roi_pool", "max_roi_pool", "roi_resample"):
            y = roi(op, a[0], a[1], a[2], named)
        elif op in ("avg_roi_align", "max_roi_align"):
            y = roi_align(op, a[0], a[1], a[2], named)
        elif op in ("nearest_downsample", "area_downsample"):
            y = downsample(op, a[0], named["factor"])
        elif op in unary:
            y = unary[op](a[0])
        elif op in binary:
            y = binary[op](*broadcast_pair(a[0], a[1]))
        elif op in compare:
            y = compare[op](*broadcast_pair(a[0], a[1]))
        elif op == "not":
            y = torch.logical_not(a[0])
        elif op == "select":
            r = max(t.dim() for t in a)
            y = torch.where(*(left_aligned(t, r) for t in a))
        elif op in ("argmax_reduce", "argmin_reduce"):  # one axis: the index along it
            (axis,) = named["axes"]
            y = (torch.argmax if op == "argmax_reduce" else torch.argmin)(a[0], dim=axis, keepdim=True)
        elif op in ("all_reduce", "any_reduce"):
            y = a[0]
            for axis in named["axes"]:
                y = y.all(axis, keepdim=True) if op == "all_reduce" else y.any(axis, keepdim=True)
        elif op == "slice":
            y = a[0]
            strides = named.get("stride") or [1] * len(named["axes"])
            for i, axis in enumerate(named["axes"]):
                keep = slice_indices(y.shape[axis], named["begin"][i], named["end"][i], strides[i], set(strides) == {1})
                y = y.index_select(axis, torch.tensor(keep, dtype=torch.int64))
        elif op == "gather":
            y = torch.from_numpy(np.take(a[0].numpy(), a[1].numpy(), axis=named.get("axis", 0)))
        elif op == "cast":
            to = named["?"]
            if to == "scalar":
                y = a[0].to(torch.float64)
            elif to == "integer":
                y = torch.floor(a[0]).to(torch.int64) if a[0].is_floating_point() else a[0].to(torch.int64)
            else:
                y = a[0] != 0
        elif op == "softmax":
            y = F.softmax(a[0], dim=tuple(named.get("axes", [1]))[0])
        elif op == "linear":
            y = a[0] @ a[1].T + left_aligned(a[2], 2)
        elif op == "matmul":
            A = a[0].transpose(-1, -2) if named.get("transposeA") else a[0]
            B = a[1].transpose(-1, -2) if named.get("transposeB") else a[1]
            y = A @ B
        elif op == "batch_normalization":
            x, mean, var, offset, scale = a[:5]
            r = x.dim()
            y = left_aligned(offset, r) + left_aligned(scale, r) * (x - left_aligned(mean, r)) / torch.sqrt(
                left_aligned(var, r) + named["epsilon"])
        elif op == "clamp":
            x, lo, hi = a
            r = max(x.dim(), lo.dim(), hi.dim())
            y = torch.maximum(torch.minimum(left_aligned(x, r), left_aligned(hi, r)), left_aligned(lo, r))
        elif op in ("mean_reduce", "sum_reduce", "max_reduce"):
            dims = tuple(named["axes"])
            y = {"mean_reduce": lambda t: t.mean(dims, keepdim=True), "sum_reduce": lambda t: t.sum(dims, keepdim=True),
                 "max_reduce": lambda t: t.amax(dims, keepdim=True)}[op](a[0])
        elif op == "reshape":
            shape = [a[0].shape[i] if s == 0 else s for i, s in enumerate(named["shape"])]
            y = a[0].reshape(shape)
        elif op == "transpose":
            axes = named["axes"]
            y = a[0].permute(*(axes + list(range(len(axes), a[0].dim()))))
        elif op == "unsqueeze":
            y = a[0]
            for axis in sorted(named["axes"]):
                y = y.unsqueeze(axis)
        elif op == "add_n":
            y = sum(env[v[1]] for v in pos[0])
        elif op == "concat":
            y = torch.cat([env[v[1]] for v in pos[0]], dim=named["axis"])
        elif op == "pad":
            pads = named["padding"]
            mode = named.get("border", "constant")
            flat = []
            for before, after in reversed(pads):
                flat += [before, after]
            if mode == "constant":
                y = F.pad(a[0], flat, value=named.get("value", 0.0))
            elif mode == "reflect-even":  # the edge repeated: NumPy's 'symmetric'
                y = torch.from_numpy(np.pad(a[0].numpy(), pads, mode="symmetric"))
            else:  # torch pads the spatial axes only: the leading pairs must be (0, 0)
                assert all(p == (0, 0) for p in pads[:2])
                y = F.pad(a[0], flat[: 2 * (len(pads) - 2)], mode=mode)
        else:
            raise ValueError("the reference has no operation %r" % op)
        env[lhs[0]] = y
    return {name: env[name].numpy() for name in outputs}


# ---------------------------------------------------------------- cross-check

def check(nnref, root, seed=1, rtol=1e-12):
    failures = 0
    for rel in CROSSCHECK_MODELS:
        with tempfile.TemporaryDirectory() as tmp:
            model = os.path.join(tmp, "model")
            os.makedirs(model)
            shutil.copy(os.path.join(root, rel, "graph.nnef"), model)
            write_weights(model, seed)
            body, _ = parse_graph(open(os.path.join(model, "graph.nnef")).read())
            rng = np.random.default_rng(seed + 1)
            inputs, args = {}, []
            for lhs, op, pos, named in body:
                if op == "external":
                    inputs[lhs[0]] = rng.uniform(-1.0, 1.0, size=named["shape"])
                    path = os.path.join(tmp, lhs[0] + ".npy")
                    np.save(path, inputs[lhs[0]])
                    args += ["--input", "%s=%s" % (lhs[0], path)]
            out = os.path.join(tmp, "out.npz")
            run = subprocess.run([nnref, "run", model, "--precision", "f64", "--output", out, "--quiet"] + args,
                                 capture_output=True, text=True)
            if run.returncode != 0:
                print("FAIL %s: nnref exited %d\n%s" % (rel, run.returncode, run.stderr))
                failures += 1
                continue
            got = np.load(out)
            for name, want in evaluate(model, inputs).items():
                diff = np.max(np.abs(got[name] - want) / np.maximum(np.abs(want), 1e-300 + np.abs(want).max()))
                ok = got[name].shape == want.shape and diff <= rtol
                print("%s %s %s: shape %s, max relative difference %.3g (bound %g)"
                      % ("ok  " if ok else "FAIL", rel, name, list(want.shape), diff, rtol))
                failures += not ok
    return failures


def self_test():
    with tempfile.TemporaryDirectory() as tmp:
        values = np.arange(6.0).reshape(2, 3) / 4
        write_dat(os.path.join(tmp, "a/b.dat"), values)
        assert os.path.getsize(os.path.join(tmp, "a/b.dat")) == 128 + 24
        assert np.array_equal(read_dat(os.path.join(tmp, "a/b.dat")), values)
    x = torch.arange(16.0, dtype=torch.float64).reshape(1, 1, 4, 4) - 8
    # 'ignore' leaves the padding out of the max; 'constant' reads zeros there.
    ignore = window(x, {"size": [1, 1, 2, 2], "stride": [1, 1, 2, 2], "padding": [(0, 0), (0, 0), (1, 0), (1, 0)],
                      "border": "ignore"}, "max")
    assert ignore[0, 0, 0, 0].item() == -8.0
    zero = window(x, {"size": [1, 1, 2, 2], "stride": [1, 1, 2, 2], "padding": [(0, 0), (0, 0), (1, 0), (1, 0)],
                    "border": "constant"}, "max")
    assert zero[0, 0, 0, 0].item() == 0.0
    # box over x = [1, 2, 3] extended by 2 each side, sums of 5: reflect 3 2 | 1 2 3 | 2 1 and
    # reflect-even 2 1 | 1 2 3 | 3 2.
    x = torch.tensor([[[1.0, 2.0, 3.0]]], dtype=torch.float64)
    wide = {"size": [1, 1, 5], "padding": [(0, 0), (0, 0), (2, 2)]}
    assert window(x, dict(wide, border="reflect"), "sum").flatten().tolist() == [11, 10, 9]
    assert window(x, dict(wide, border="reflect-even"), "sum").flatten().tolist() == [9, 10, 11]
    # 'ignore' averages the valid elements of windows of 3: (1 + 2)/2, 6/3, (2 + 3)/2.
    narrow = {"size": [1, 1, 3], "padding": [(0, 0), (0, 0), (1, 1)], "border": "ignore"}
    assert window(x, narrow, "avg").flatten().tolist() == [1.5, 2, 2.5]
    assert auto_padding([5], [3], [2], [1]) == [(1, 1)] and auto_padding([6], [3], [2], [1]) == [(0, 1)]
    # deconv, 1-D, stride 2: x = [1, 2, 3], w = [1, 10, 100] gives 1, 10, 2 + 100, 20, 3 + 200, 30, 300;
    # automatic padding: X = 3*2 = 6, t = max(2*2 + 3 - 6, 0) = 1, p = 0: the first six; padding (1, 1)
    # keeps the middle five, and output_shape 6 with it (which down-scales to 3) the last six.
    x = torch.tensor([[[1.0, 2.0, 3.0]]], dtype=torch.float64)
    w = torch.tensor([[[1.0, 10.0, 100.0]]], dtype=torch.float64)
    b = torch.zeros(1, dtype=torch.float64)
    assert deconv(x, w, b, {"stride": [2]}).flatten().tolist() == [1, 10, 102, 20, 203, 30]
    assert deconv(x, w, b, {"stride": [2], "padding": [(0, 0)]}).flatten().tolist() == [1, 10, 102, 20, 203, 30, 300]
    assert deconv(x, w, b, {"stride": [2], "padding": [(1, 1)]}).flatten().tolist() == [10, 102, 20, 203, 30]
    assert deconv(x, w, b, {"stride": [2], "padding": [(1, 1)], "output_shape": [1, 1, 6]}).flatten().tolist() == \
        [10, 102, 20, 203, 30, 300]
    # debox, 1-D, stride 2, size 3, padding (1, 1): X = 5, x = [1, 2, 3] gives 1, 1 + 2, 2, 2 + 3, 3.
    x = torch.tensor([[[1.0, 2.0, 3.0]]], dtype=torch.float64)
    assert debox(x, {"size": [1, 1, 3], "stride": [1, 1, 2], "padding": [(0, 0), (0, 0), (1, 1)]}).flatten().tolist() == \
        [1, 3, 2, 5, 3]
    # symmetric bilinear with replicate is PyTorch's half-pixel interpolation (align_corners=False).
    img = torch.arange(12.0, dtype=torch.float64).reshape(1, 1, 3, 4)
    assert torch.allclose(multilinear_upsample(img, {"factor": [2, 2]}),
                          F.interpolate(img, scale_factor=2, mode="bilinear", align_corners=False), rtol=0, atol=1e-14)
    # roi_resample of the whole image, symmetric, to twice its size is the same half-pixel
    # interpolation; the pools of the whole image in cells of one position are the image itself.
    whole = torch.tensor([[0.0, 0.0, 3.0, 4.0]], dtype=torch.float64)
    first = torch.zeros(1, dtype=torch.int64)
    assert torch.allclose(roi("roi_resample", img, whole, first, {"output_size": [6, 8]}),
                          F.interpolate(img, scale_factor=2, mode="bilinear", align_corners=False), rtol=0, atol=1e-14)
    assert torch.equal(roi("max_roi_pool", img, whole, first, {"output_size": [3, 4]}), img)
    # aligned over the whole image to f times its size is PyTorch's align_corners interpolation
    # (v = i(x - 1)/(xf - 1), §4.3.4's i/g).
    assert torch.allclose(roi("roi_resample", img, whole, first, {"output_size": [6, 8], "method": "aligned"}),
                          F.interpolate(img, scale_factor=2, mode="bilinear", align_corners=True), rtol=0, atol=1e-14)
    # avg_roi_pool by hand over img[h][w] = 4h + w: (0.5, 0, 2.5, 1) rounds to rows 1-2 of column 0: (4 + 8)/2;
    # (2, 2, 4, 6) in one cell: 2 x 4 positions, 4 inside ({10, 11}), 4 outside (0): 21/8.
    two = torch.tensor([[0.5, 0.0, 2.5, 1.0], [2.0, 2.0, 4.0, 6.0]], dtype=torch.float64)
    pooled = roi("avg_roi_pool", img, two, torch.zeros(2, dtype=torch.int64), {"output_size": [1, 1]})
    assert pooled.flatten().tolist() == [6.0, 21.0 / 8]
    # 'aligned' is align_corners: §4.3.4's v = i/g, g = (x·f − 1)/(x − 1), written out on a random line.
    line = torch.from_numpy(np.random.default_rng(0).uniform(-1, 1, (1, 2, 5)))
    aligned = multilinear_upsample(line, {"factor": [3], "method": "aligned"})
    for i in range(15):
        v = i * (5 - 1) / (5 * 3 - 1)
        j = min(int(np.floor(v)), 3)
        u = v - j
        assert torch.allclose(aligned[..., i], (1 - u) * line[..., j] + u * line[..., j + 1], rtol=0, atol=1e-14)
    # The hand values of tests/nnef_test_borders.cpp: x = [1, 2, 3], w = [1, 10, 100]; conv, padding
    # (1, 1): replicate 211 321 332, reflect 212 321 232; deconv, reflect-even, s = 1, p = 0, ĩ[-2..4] =
    # 2 1 | 1 2 3 | 3 2: 211 112 123 233 332; debox 'ignore' normalized over 3: 1 1.5 2 2.5 3.
    w = torch.tensor([[[1.0, 10.0, 100.0]]], dtype=torch.float64)
    same = {"padding": [(1, 1)]}
    assert conv(x, w, b, dict(same, border="replicate")).flatten().tolist() == [211, 321, 332]
    assert conv(x, w, b, dict(same, border="reflect")).flatten().tolist() == [212, 321, 232]
    assert deconv(x, w, b, {"padding": [(0, 0)], "border": "reflect-even"}).flatten().tolist() == [211, 112, 123, 233, 332]
    assert debox(x, {"size": [1, 1, 3], "padding": [(0, 0)] * 3, "border": "ignore", "normalize": True}).flatten().tolist() == \
        [1, 1.5, 2, 2.5, 3]
    # max_pool_with_index over [-2, -5, -1, -4], windows of 3 with padding (1, 1): 'constant' reads
    # the padded zeros (maxima 0, -1, -1, 0 at 0, 2, 1, 2); 'ignore' leaves them out (at 1, 2, 1, 0).
    x = torch.tensor([[[-2.0, -5.0, -1.0, -4.0]]], dtype=torch.float64)
    attrs = {"size": [1, 1, 3], "padding": [(0, 0), (0, 0), (1, 1)]}
    y, i = max_pool_with_index(x, dict(attrs, border="constant"))
    assert y.flatten().tolist() == [0, -1, -1, 0] and i.flatten().tolist() == [0, 2, 1, 2]
    assert max_pool_with_index(x, dict(attrs, border="ignore"))[1].flatten().tolist() == [1, 2, 1, 0]
    assert sample(x, i, attrs).flatten().tolist() == [0, -1, -1, 0]
    # A window over the channel axis, [1, 2, 1] of stride 2, over channels (1, 5), (3, 2), (-1, -4),
    # (0, -6): maxima 3, 5, 0, -4 at window positions 1, 0, 1, 0 (the hand values of
    # tests/nnef_test_sample.cpp); desample puts [10, 20, 30, 40] back at those positions.
    x = torch.tensor([[[1.0, 5.0], [3.0, 2.0], [-1.0, -4.0], [0.0, -6.0]]], dtype=torch.float64)
    across = {"size": [1, 2, 1], "stride": [1, 2, 1]}
    y, i = max_pool_with_index(x, across)
    assert y.flatten().tolist() == [3, 5, 0, -4] and i.flatten().tolist() == [1, 0, 1, 0]
    assert desample(torch.tensor([[[10.0, 20.0], [30.0, 40.0]]], dtype=torch.float64), i, across).flatten().tolist() == \
        [0, 20, 10, 0, 0, 40, 30, 0]
    # desample of [10, 20, 40] at indices 1, 0, 1 of pairs: positions 1, 2, 5 of 6.
    d = desample(torch.tensor([[[10.0, 20.0, 40.0]]], dtype=torch.float64), torch.tensor([[[1, 0, 1]]]),
                 {"size": [1, 1, 2], "stride": [1, 1, 2]})
    assert d.flatten().tolist() == [0, 10, 20, 0, 0, 40]
    print("self-test ok")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--write-weights")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--eval")
    p.add_argument("--input", action="append", default=[])
    p.add_argument("--output")
    p.add_argument("--check", action="store_true")
    p.add_argument("--nnref")
    p.add_argument("--self-test", action="store_true")
    a = p.parse_args()
    if a.self_test:
        return self_test()
    if a.write_weights:
        write_weights(a.write_weights, a.seed)
        return 0
    if a.eval:
        inputs = {}
        for item in a.input:
            name, path = item.split("=", 1)
            inputs[name] = np.load(path)
        np.savez(a.output, **evaluate(a.eval, inputs))
        return 0
    if a.check:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        return 1 if check(a.nnref, root) else 0
    p.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
