#!/usr/bin/python3
"""An NNL model evaluated by PyTorch and timed: the peer of oracle_bench (float64) and of the model
benchmark of the fast path (bench/models.py, float32).

    torch_nnl.py MODEL.nnl INPUT.npy OUTPUT.npz [--repeat R] [--threads T] [--dtype float64|float32]

Parses the model and reads its weights with scripts/nnl_reference.py, converts the parameters and
the input to tensors of --dtype in PyTorch's NCHW layout once, then runs the forward pass (the
model's preprocessing included, as nnref runs it) R times under torch.inference_mode() with
torch.set_num_threads(T). Prints one JSON line with the best CPU time of the process, the best and
the median wall time of a forward pass (seconds), the thread count and PyTorch's version, and
writes the outputs (NHWC, as nnref writes them) to OUTPUT.npz. Layers: Input, Conv2D, BatchNorm,
ReLU, Add, MaxPool2D, AvgPool2D, Flatten, Dense, Dropout, Sigmoid and Softmax on the last axis;
preprocessing normalize_0_1 and standardize.
"""

import argparse
import json
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import nnl_reference as ref  # noqa: E402


def pair(v):
    return ref.pair(v, "kernel or stride")


def same_pads(size, k, s):
    """TensorFlow SAME (nnref's "same"): the odd unit of padding goes after."""
    before, after, _ = ref.same_padding(size, k, s)
    return before, after


def preprocess_fn(m, dtype):
    """The model's preprocessing of an NCHW (or [N, features]) input, as scripts/nnl_reference.py."""
    mode = m.config.get("preprocess", "none")
    if mode == "none":
        return lambda x: x
    if mode == "normalize_0_1":
        return lambda x: x / 255.0
    if mode == "standardize":
        mean, std = (torch.tensor(m.config["preprocess_" + k], dtype=dtype) for k in ("mean", "std"))
        shape = lambda x: (1, -1, 1, 1) if x.dim() == 4 else (1, -1)
        return lambda x: (x - mean.view(shape(x))) / std.view(shape(x))
    raise SystemExit("torch_nnl.py: preprocess %r is not supported" % mode)


def layer_fn(layer, w):
    """A function of the layer's input tensors (NCHW, float64) that applies it."""
    t, p = layer.type, layer.params
    param = lambda role: torch.from_numpy(w[(layer.id, role)])
    if t == "Conv2D":
        weight, bias = param("weight"), param("bias")
        k, s = pair(p["kernel"]), pair(p["stride"])

        def conv(xs):
            x = xs[0]
            if p["padding"] != "same":
                return F.conv2d(x, weight, bias, s)
            (top, bottom), (left, right) = (same_pads(x.shape[2 + i], k[i], s[i]) for i in range(2))
            if top == bottom and left == right:
                return F.conv2d(x, weight, bias, s, (top, left))
            return F.conv2d(F.pad(x, (left, right, top, bottom)), weight, bias, s)

        return conv
    if t == "BatchNorm":
        mean, var, gamma, beta = (param(r) for r in ("running_mean", "running_var", "gamma", "beta"))
        return lambda xs: F.batch_norm(xs[0], mean, var, gamma, beta, False, 0.0, float(p["epsilon"]))
    if t in ("MaxPool2D", "AvgPool2D"):
        k = pair(p["kernel"])
        s = k if p["stride"] is None else pair(p["stride"])
        pool = F.max_pool2d if t == "MaxPool2D" else F.avg_pool2d
        return lambda xs: pool(xs[0], k, s)
    if t == "Flatten":  # NNL flattens row-major over HWC
        return lambda xs: xs[0].permute(0, 2, 3, 1).flatten(1) if xs[0].dim() == 4 else xs[0].flatten(1)
    if t == "Dense":
        weight, bias = param("weight"), param("bias")
        act = {"none": lambda y: y, "relu": F.relu, "sigmoid": torch.sigmoid,
               "softmax": lambda y: F.softmax(y, dim=-1)}[p["activation"]]
        return lambda xs: act(torch.addmm(bias, xs[0], weight))
    if t == "Add":
        return lambda xs: sum(xs[1:], xs[0])
    simple = {"ReLU": F.relu, "Sigmoid": torch.sigmoid, "Dropout": lambda x: x}
    if t in simple:
        return lambda xs: simple[t](xs[0])
    if t == "Softmax" and p["axis"] == -1:
        return lambda xs: F.softmax(xs[0], dim=1 if xs[0].dim() == 4 else -1)
    raise SystemExit("torch_nnl.py: layer %s (%s) is not supported" % (layer.id, t))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model")
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--dtype", choices=("float64", "float32"), default="float64")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    dtype, np_dtype = getattr(torch, a.dtype), getattr(np, a.dtype)

    m = ref.load_model(a.model)
    pre = preprocess_fn(m, dtype)
    w = {k: v.astype(np_dtype) for k, v in ref.load_weights(m).items()}
    fns = {lid: layer_fn(m.by_id[lid], w) for lid in m.order if m.by_id[lid].type != "Input"}
    x = np.load(a.input).astype(np_dtype)
    x = torch.from_numpy(x.transpose(0, 3, 1, 2).copy() if x.ndim == 4 else x)

    def forward():
        vals = {}
        for lid in m.order:
            layer = m.by_id[lid]
            vals[lid] = pre(x) if layer.type == "Input" else fns[lid]([vals[s] for s in layer.inputs])
        return {o: vals[o] for o in m.outputs}

    best_cpu = float("inf")
    walls = []
    with torch.inference_mode():
        forward()  # warm-up, not counted
        for _ in range(a.repeat):
            c0, t0 = time.process_time(), time.perf_counter()
            out = forward()
            best_cpu = min(best_cpu, time.process_time() - c0)
            walls.append(time.perf_counter() - t0)
    np.savez(a.output, **{k: (v.permute(0, 2, 3, 1) if v.dim() == 4 else v).numpy() for k, v in out.items()})
    print(json.dumps({"cpu_s": best_cpu, "wall_s": min(walls), "median_wall_s": float(np.median(walls)),
                      "threads": torch.get_num_threads(), "version": torch.__version__}))


if __name__ == "__main__":
    main()
