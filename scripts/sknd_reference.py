#!/usr/bin/python3
"""Independent NumPy float64 reference for nnref's NNEF 2.0 (SkriptND) test models.

Each model of tests/data/nnef2/ is evaluated here by a NumPy function written from the
operators' definitions in the NNEF 2.0 draft (Revision 8, chapter 4); it shares no code or
logic with nnref's C++ reader. The script copies a model folder, writes random weights as
.dat files named main.<Graph>.<variable>.dat (the layout of docs/nnef2.md), runs
`nnref run --precision f64` on random inputs and requires agreement to 1e-12 relative. It
also requires `nnref check` to pass and `nnref conform` to accept the float32 rounding of
the reference's answer.

Usage:
    sknd_reference.py --check --nnref BIN [--sknd-kernels lowered]
    sknd_reference.py --self-test
"""

import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nnef_reference import write_dat  # noqa: E402  (the .dat writer, §5.2 of NNEF 1.0)


# ------------------------------------------------------------------ operators (chapter 4)

def linear(x, w, b):
    """nn.linear: output[b, n] = bias[n] + sum_c input[b, c] * filter[n, c]."""
    return x @ w.T + b


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def softmax(x, axis=1):
    """nn.softmax: exp(x - max) / sum exp(x - max) over the axes (default [1])."""
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def padded(x, before, after, value):
    pads = [(0, 0), (0, 0)] + list(zip(before, after))
    return np.pad(x, pads, constant_values=value)


def windows(x, size, stride, dilation=(1, 1), out=None):
    """Every window of the (already padded) spatial axes, [N, C, o1, o2, k1, k2]: `out` windows per
    axis, or as many as fit."""
    n, c, h, w = x.shape
    span = [(size[a] - 1) * dilation[a] + 1 for a in range(2)]
    oh, ow = out or ((h - span[0]) // stride[0] + 1, (w - span[1]) // stride[1] + 1)
    result = np.empty((n, c, oh, ow, size[0], size[1]))
    for i in range(size[0]):
        for j in range(size[1]):
            r, q = i * dilation[0], j * dilation[1]
            result[..., i, j] = x[:, :, r:r + stride[0] * (oh - 1) + 1:stride[0], q:q + stride[1] * (ow - 1) + 1:stride[1]]
    return result


def ceil_windows(x, size, stride, dilation, before, after, fill):
    """The windows of ceil mode: (in + before + after - span) rounded up over the stride, plus one; a
    read past the padding after reads nothing (the guarded index), here `fill`."""
    spans = [(size[a] - 1) * dilation[a] + 1 for a in range(2)]
    out = [-(-(x.shape[2 + a] + before[a] + after[a] - spans[a]) // stride[a]) + 1 for a in range(2)]
    reach = [(out[a] - 1) * stride[a] + spans[a] - x.shape[2 + a] - before[a] for a in range(2)]
    return windows(padded(x, before, reach, fill), size, stride, dilation, out)


def conv(x, w, b, before, after, stride, groups):
    """nn.conv, NCX layouts: the guarded input reads nothing outside, as zero padding does."""
    xp = padded(x, before, after, 0.0)
    g_in, m = x.shape[1] // groups, w.shape[0] // groups
    parts = []
    for g in range(groups):
        win = windows(xp[:, g * g_in:(g + 1) * g_in], w.shape[2:], stride)
        parts.append(np.einsum("ncxykl,mckl->nmxy", win, w[g * m:(g + 1) * m]))
    y = np.concatenate(parts, axis=1)
    return y if b is None else y + b.reshape(1, -1, 1, 1)


def max_pool(x, size, stride, before, after):
    """nn.max_pool: positions outside the input are omitted."""
    return windows(padded(x, before, after, -np.inf), size, stride).max(axis=(4, 5))


def avg_pool(x, size, stride, before, after):
    """nn.avg_pool with ignore_border: the window's sum over the number of real elements in it."""
    total = windows(padded(x, before, after, 0.0), size, stride).sum(axis=(4, 5))
    count = windows(padded(np.ones_like(x), before, after, 0.0), size, stride).sum(axis=(4, 5))
    return total / count


def elu(x, alpha):
    return np.where(x < 0.0, alpha * (np.exp(x) - 1.0), x)


# ------------------------------------------------------------------ the test models

def perceptron(v, inputs):
    h = linear(inputs["input"], v["w1"], v["b1"])
    return softmax(linear(sigmoid(h), v["w2"], v["b2"]))


def cnn(v, inputs):
    c1 = conv(inputs["input"], v["k1"], v["b1"], [1, 1], [1, 1], [1, 1], 1)
    # size 2, stride 2 on 12: the automatic total padding ((12 / 2) - 1) * 2 + 2 - 12 = 0
    p1 = max_pool(np.maximum(c1, 0.0), [2, 2], [2, 2], [0, 0], [0, 0])
    t2 = np.tanh(conv(p1, v["k2"], None, [0, 0], [1, 1], [2, 2], 2))
    # size 3, padding 1 on every side
    p2 = avg_pool(t2, [3, 3], [1, 1], [1, 1], [1, 1])
    s = p2 + v["b2"].reshape(1, -1, 1, 1)  # rhs_align = 1: the bias on axis 1
    return softmax(linear(s.reshape(s.shape[0], -1), v["w"], v["b"]))


def layout(v, inputs):
    t = np.transpose(inputs["x"] @ inputs["y"], (0, 2, 1))
    d = np.exp(t) / v["scale"]  # the trailing axes aligned
    q = elu(t, 0.5)
    return np.concatenate([d, q], axis=2).reshape(-1, 6)


def norms(v, inputs):
    x = inputs["x"]
    per_channel = lambda a: a.reshape(1, -1, 1, 1)  # noqa: E731  (channel_axis 1)
    n = (x - per_channel(v["mean"])) / np.sqrt(per_channel(v["variance"]) + 0.001) * per_channel(v["gamma"])
    l = np.maximum(n, 0.25 * n)  # nn.relu with alpha: (x) >? (alpha * x)
    r = np.where(l < 0.0, per_channel(v["slope"]) * l, l)  # nn.prelu, axis 1
    m = r.mean(axis=(2, 3), keepdims=True)
    total = l.sum(axis=(3, 2), keepdims=True)
    return {"output": m - total, "peak": x.max(axis=(1, 2))}


def windows_model(v, inputs):
    # conv: dilation 2, stride 2, padding (1, 2) per axis, ceil mode: 9 → ⌈(9 + 3 - 5) / 2⌉ + 1 = 5
    c = np.einsum("ncxykl,mckl->nmxy", ceil_windows(inputs["x"], [3, 3], [2, 2], [2, 2], [1, 1], [2, 2], 0.0), v["k"])
    # max_pool 2, stride 2, no padding, ceil mode: 5 → 3, the last window holding one real row
    m = ceil_windows(c, [2, 2], [2, 2], [1, 1], [0, 0], [0, 0], -np.inf).max(axis=(4, 5))
    s = windows(padded(m, [0, 0], [1, 1], 0.0), [2, 2], [1, 1]).sum(axis=(4, 5))
    d = np.maximum(s, m) - np.minimum(s, m)
    return (d * d + 0.5) ** 0.5


def clamp(x, a, b):
    """math.clamp: y = x < a ? a : x > b ? b : x (the definition's order: b where x >= a > b)."""
    return np.where(x < a, a, np.where(x > b, b, x))


def silu(x):
    """nn.silu: x / (1 + exp(-x))."""
    return x / (1.0 + np.exp(-x))


def selu(x, alpha=1.67326319, lam=1.05070102):
    """nn.selu: lambda * (x < 0 ? alpha * (exp(x) - 1) : x), the draft's default attributes."""
    return lam * np.where(x < 0.0, alpha * (np.exp(x) - 1.0), x)


def thresholded_relu(x, theta):
    return np.where(x > theta, x, 0.0)


def gelu(x):
    """nn.gelu without an approximation: 0.5 * x * (1 + erf(x / sqrt(2)))."""
    return 0.5 * x * (1.0 + np.vectorize(math.erf)(x / math.sqrt(2.0)))


def pad_reflect(x, axis, before, after):
    """layout.pad REFLECT: |zi <> -zi : 2 (s - 1) - zi|, the mirror that leaves out the edge element."""
    pads = [(0, 0)] * x.ndim
    pads[axis] = (before, after)
    return np.pad(x, pads, mode="reflect")


def lowered(v, inputs):
    x, y = inputs["x"], inputs["y"]
    n = np.maximum.reduce([silu(clamp(x, -0.5, 0.75)), selu(x), thresholded_relu(y, 0.25)])  # math.max_n
    o = n + gelu(x)  # math.sum_n
    q = pad_reflect(o, 2, 1, 2)[:, :, 1:6]  # layout.slice{axes=[2], begin=[1], end=[6]}
    outer = v["scale"] * np.outer(inputs["u"], inputs["w"]) + -0.5  # math.axpb, scale on the last axis
    return {"output": np.tile(q, (1, 2, 1)), "outer": outer}


MODELS = {
    "perceptron": ("Perceptron", perceptron, {"input": (4, 6)},
                   {"w1": (8, 6), "b1": (8,), "w2": (3, 8), "b2": (3,)}),
    "cnn": ("SmallCNN", cnn, {"input": (2, 3, 12, 12)},
            {"k1": (8, 3, 3, 3), "b1": (8,), "k2": (8, 4, 3, 3), "b2": (8,), "w": (5, 72), "b": (5,)}),
    "layout": ("Layout", layout, {"x": (2, 3, 4), "y": (2, 4, 5)}, {"scale": (3,)}),
    "windows": ("Windows", windows_model, {"x": (1, 2, 9, 9)}, {"k": (3, 2, 3, 3)}),
    "norms": ("Norms", norms, {"x": (2, 4, 3, 5)}, {"mean": (4,), "variance": (4,), "gamma": (4,), "slope": (4,)}),
    "lowered": ("Lowered", lowered, {"x": (2, 3, 4), "y": (2, 3, 4), "u": (3,), "w": (4,)}, {"scale": (4,)}),
}


# ------------------------------------------------------------------ the cross-check

def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def check_model(nnref, name, root, seed, rtol, kernels):
    graph, forward, input_shapes, variable_shapes = MODELS[name]
    rng = np.random.default_rng(seed)
    work = tempfile.mkdtemp(prefix="sknd_")
    try:
        folder = os.path.join(work, name)
        shutil.copytree(os.path.join(root, "tests/data/nnef2", name), folder)
        variables = {}
        for var, shape in variable_shapes.items():
            # float32 items in the file: the reference reads the same rounded values
            positive = var in ("scale", "variance")
            value = rng.uniform(0.1, 1.0, shape) if positive else rng.normal(0.0, 0.5, shape)
            variables[var] = value.astype(np.float32).astype(np.float64)
            write_dat(os.path.join(folder, "main.%s.%s.dat" % (graph, var)), variables[var])
        inputs, args = {}, []
        for inp, shape in input_shapes.items():
            inputs[inp] = rng.normal(0.0, 1.0, shape)
            path = os.path.join(work, inp + ".npy")
            np.save(path, inputs[inp])
            args += ["--input", "%s=%s" % (inp, path)]
        expected = forward(variables, inputs)
        if not isinstance(expected, dict):
            expected = {"output": expected}
        out = os.path.join(work, "out.npz")
        problems = []
        r = run([nnref, "check", folder])
        if r.returncode != 0:
            problems.append("check: exit %d\n%s%s" % (r.returncode, r.stdout, r.stderr))
        r = run([nnref, "run", folder, *args, "--precision", "f64", "--sknd-kernels", kernels, "--output", out])
        if r.returncode != 0:
            return problems + ["run: exit %d\n%s%s" % (r.returncode, r.stdout, r.stderr)]
        got = np.load(out)
        error = 0.0
        for key, want in expected.items():
            if got[key].shape != want.shape:
                problems.append("run: output %s has shape %s, not %s" % (key, got[key].shape, want.shape))
                continue
            error = max(error, np.abs(got[key] - want).max() / np.abs(want).max())
        if error > rtol:
            problems.append("run: the largest difference is %.3g of max|y| (allowed %g)" % (error, rtol))
        actual = os.path.join(work, "actual.npz")
        np.savez(actual, **{key: want.astype(np.float32) for key, want in expected.items()})
        r = run([nnref, "conform", folder, *args, "--actual", actual])
        if r.returncode != 0 or "conforms" not in r.stdout:
            problems.append("conform: exit %d\n%s%s" % (r.returncode, r.stdout, r.stderr))
        print("%-11s run (%s kernels) agrees to %.2g of max|y|; check and conform %s" %
              (name, kernels, error, "pass" if not problems else "FAIL"))
        return problems
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check(nnref, root, kernels, seed=1, rtol=1e-12):
    failed = False
    for name in MODELS:
        for p in check_model(nnref, name, root, seed, rtol, kernels):
            print("%s: %s" % (name, p))
            failed = True
    return 1 if failed else 0


def self_test():
    """The reference's operators against values worked out by hand."""
    x = np.arange(16.0).reshape(1, 1, 4, 4)
    assert np.array_equal(max_pool(x, [2, 2], [2, 2], [0, 0], [0, 0])[0, 0], [[5, 7], [13, 15]])
    # a corner window of size 3 with padding 1 holds 4 real elements: (0 + 1 + 4 + 5) / 4
    assert avg_pool(x, [3, 3], [1, 1], [1, 1], [1, 1])[0, 0, 0, 0] == 2.5
    w = np.ones((1, 1, 3, 3))
    # zero padding: the corner sums 0 + 1 + 4 + 5
    assert conv(x, w, np.array([1.0]), [1, 1], [1, 1], [1, 1], 1)[0, 0, 0, 0] == 11.0
    two = np.stack([x[0, 0], 2 * x[0, 0]])[None]
    y = conv(two, np.ones((2, 1, 1, 1)), None, [0, 0], [0, 0], [1, 1], 2)
    assert np.array_equal(y[0, 1], 2 * x[0, 0])
    assert np.allclose(softmax(np.array([[0.0, np.log(3.0)]])), [[0.25, 0.75]])
    # ceil mode, 5 by 5, window 2, stride 2: 3 by 3, the last row and column windows of one element
    five = np.arange(25.0).reshape(1, 1, 5, 5)
    assert np.array_equal(ceil_windows(five, [2, 2], [2, 2], [1, 1], [0, 0], [0, 0], -np.inf).max(axis=(4, 5))[0, 0],
                          [[6, 8, 9], [16, 18, 19], [21, 23, 24]])
    # dilation 2: a 3 by 3 window spans 5 by 5
    assert windows(five, [3, 3], [1, 1], [2, 2]).sum() == five[0, 0, ::2, ::2].sum()
    assert np.allclose(linear(np.array([[1.0, 2.0]]), np.array([[3.0, 4.0]]), np.array([0.5])), [[11.5]])
    assert np.array_equal(clamp(np.array([-2.0, 0.0, 3.0]), -1.0, 2.0), [-1.0, 0.0, 2.0])
    assert np.array_equal(pad_reflect(np.array([1.0, 2.0, 3.0, 4.0]), 0, 2, 2), [3, 2, 1, 2, 3, 4, 3, 2])
    assert gelu(np.array([0.0]))[0] == 0.0 and abs(gelu(np.array([1.0]))[0] - 0.8413447460685429) < 1e-15
    print("self-test: ok")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--nnref", default="build/nnref")
    ap.add_argument("--root", default=".")
    ap.add_argument("--sknd-kernels", default="native", choices=["native", "lowered"],
                    help="run's kernels: native, or every standard operator from its @lower body")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if a.check:
        return check(a.nnref, a.root, a.sknd_kernels)
    ap.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
