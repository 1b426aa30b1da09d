#!/usr/bin/python3
"""Recurrent exports and a Loop with a dynamic batch and sequence (docs/onnx.md, "PyTorch's standard
exports"; docs/architecture.md, "Sizes fixed at load").

nn.LSTM, nn.GRU and nn.RNN exported by torch.onnx (PyTorch 1.13, opset 17, random initialisation)
with dynamic_axes on the batch and the sequence: each type with 1 layer and with 2 bidirectional
layers, batch_first True for one and False for the other; and the 2-layer bidirectional LSTM with
the batch alone dynamic (checked over batch=1..16, symbolically: nothing is enumerated). And a Loop built with onnx.helper whose
trip count is the sequence length Shape(x)[0]: a tiny RNN cell h <- tanh(x[t]·W + h·U) over
x [seq, 2, 4], the states stacked. For each file:
- `nnref check --dim batch=1..16 --dim seq=1..64` proves it (the sequence enumerated: the model is
  read with each length, the batch symbolic; the Loop over seq alone);
- `nnref run --precision f64` at two sizes, with no --dim (the sizes are the input's), agrees with
  the module in float64 (the file holds its float32 weights, which float64 holds exactly) on every
  output within 1e-12 · max|y|; the Loop with NumPy float64;
- `nnref conform` accepts ONNX Runtime's float32 answer (npm onnxruntime-node, all graph
  optimizations) on every output, and PyTorch's float32 answer for the exports, at the first size.
Prints one line per file and "N passed, N failed"; exits 1 on any failure.

  /usr/bin/python3 scripts/recurrent_dynamic_check.py --nnref build/nnref --ort-cache build/ort-cache
"""
import argparse
import os
import sys
import tempfile
import time
import warnings

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ort_runtime import NotRun, ort_modules, run_ort  # noqa: E402
from torch_exports_check import nnref, print_result  # noqa: E402

warnings.filterwarnings("ignore")

DIMS = ["--dim", "batch=1..16", "--dim", "seq=1..64"]
SIZES = ((2, 5), (3, 9))  # (batch, seq) of the two runs
WORST = [0.0]  # the largest difference of a run from float64, of max|y|


def modules():
    """(name, module): each type with 1 layer and with 2 bidirectional layers, batch_first both ways."""
    torch.manual_seed(0)
    out = []
    for cls in (torch.nn.LSTM, torch.nn.GRU, torch.nn.RNN):
        out.append((cls.__name__, cls(8, 16, batch_first=True)))
        out.append((cls.__name__ + "2bi", cls(8, 16, num_layers=2, bidirectional=True, batch_first=False)))
    return out


def x_of(module, batch, seq, seed):
    shape = (batch, seq, 8) if module.batch_first else (seq, batch, 8)
    return np.random.RandomState(seed).randn(*shape).astype(np.float32)


def outputs_of(module, x):
    """The module's outputs y, h (and c) for x as NumPy arrays in the module's precision."""
    with torch.no_grad():
        y, state = module(torch.from_numpy(x))
    return [a.numpy() for a in [y] + (list(state) if isinstance(state, tuple) else [state])]


def export(module, path, seq_dynamic=True):
    names = ["y", "h"] + (["c"] if isinstance(module, torch.nn.LSTM) else [])
    axes = {0: "batch", 1: "seq"} if module.batch_first else {0: "seq", 1: "batch"}
    if not seq_dynamic:
        axes = {k: v for k, v in axes.items() if v == "batch"}
    dynamic = {"x": axes, "y": axes, **{n: {1: "batch"} for n in names[1:]}}
    torch.onnx.export(module, (torch.from_numpy(x_of(module, *SIZES[0], 0)),), path, opset_version=17,
                      input_names=["x"], output_names=names, dynamic_axes=dynamic)
    return names


def loop_model(path):
    """The Loop over Shape(x)[0] with onnx.helper; its weights W [4, 3] and U [3, 3]."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.RandomState(7)
    w, u = rng.randn(4, 3).astype(np.float32), rng.randn(3, 3).astype(np.float32) / 2
    body = helper.make_graph(
        [helper.make_node("Gather", ["x", "i"], ["x_t"]),
         helper.make_node("MatMul", ["x_t", "W"], ["xw"]),
         helper.make_node("MatMul", ["h", "U"], ["hu"]),
         helper.make_node("Add", ["xw", "hu"], ["pre"]),
         helper.make_node("Tanh", ["pre"], ["h_out"]),
         helper.make_node("Identity", ["cond"], ["cond_out"]),
         helper.make_node("Identity", ["h_out"], ["h_scan"])],
        "cell",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond", TensorProto.BOOL, []),
         helper.make_tensor_value_info("h", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("h_out", TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("h_scan", TensorProto.FLOAT, [2, 3])])
    graph = helper.make_graph(
        [helper.make_node("Shape", ["x"], ["shape"]),
         helper.make_node("Gather", ["shape", "zero"], ["M"]),
         helper.make_node("Loop", ["M", "", "h0"], ["h", "hs"], body=body)],
        "loop_rnn",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["seq", 2, 4])],
        [helper.make_tensor_value_info("h", TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("hs", TensorProto.FLOAT, ["seq", 2, 3])],
        [numpy_helper.from_array(np.array(0, np.int64), "zero"), numpy_helper.from_array(w, "W"),
         numpy_helper.from_array(u, "U"), numpy_helper.from_array(np.zeros((2, 3), np.float32), "h0")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, path)

    def reference(x):  # NumPy float64 of the same formula
        h, hs = np.zeros((2, 3)), []
        for t in range(x.shape[0]):
            h = np.tanh(x[t].astype(np.float64) @ w.astype(np.float64) + h @ u.astype(np.float64))
            hs.append(h)
        return [h, np.stack(hs)]
    return ["h", "hs"], reference


def judge(args, work, path, x, names, peers, ort):
    """conform of each peer's float32 answer (ONNX Runtime's too when installed), every output."""
    failures = []
    xin = os.path.join(work, "x.npy")
    np.save(xin, x)
    if ort:
        try:
            peers = peers + [("ort", [a for a in run_ort(ort, path, [("x", x)], os.path.join(work, "ort"), "all").values()])]
        except NotRun as e:
            failures.append("ONNX Runtime did not run it: %s" % e)
    for peer, answer in peers:
        actual = os.path.join(work, "actual_%s.npz" % peer)
        np.savez(actual, **{n: a.astype(np.float32) for n, a in zip(names, answer)})
        v = nnref(args, "conform", path, "--input", xin, "--actual", actual)
        if v.returncode != 0:
            failures.append("conform rejects %s's float32 answer: %s" % (peer, (v.stdout + v.stderr).strip()[-300:]))
    return failures


def check_file(args, work, path, names, dims, xs, reference, peers, ort):
    """The failures of one file: check over the ranges (by enumeration where seq is one of them, the
    batch symbolic alone otherwise), run at each x, conform at the first."""
    failures = []
    c = nnref(args, "check", path, *dims)
    if c.returncode != 0 or ("by enumeration" in c.stdout) != ("seq=1..64" in dims):
        failures.append("check: " + (c.stdout + c.stderr).strip()[-300:])
    for x in xs:
        xin, yout = os.path.join(work, "x.npy"), os.path.join(work, "y.npz")
        np.save(xin, x)
        r = nnref(args, "run", path, "--input", xin, "--precision", "f64", "--output", yout, "--quiet")
        if r.returncode != 0:
            failures.append("run at %s: %s" % (x.shape, r.stderr.strip()[-300:]))
            continue
        got = np.load(yout)
        for name, want in zip(names, reference(x)):
            err = float(np.abs(got[name] - want).max() / np.abs(want).max())
            WORST[0] = max(WORST[0], err)
            if not err <= 1e-12:
                failures.append("run at %s: %s %.2e of max|y| from float64" % (x.shape, name, err))
    return failures + judge(args, work, path, xs[0], names, peers, ort)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nnref", required=True)
    ap.add_argument("--ort-cache", default="build/ort-cache")
    ap.add_argument("--install", action="store_true", help="npm install onnxruntime-node if absent")
    args = ap.parse_args()
    torch.set_num_threads(1)
    ort = ort_modules(args.ort_cache, args.install)
    if not ort:
        print("ONNX Runtime is not installed: its answers are not judged (--install)")
    passed = failed = 0
    with tempfile.TemporaryDirectory() as work:
        files = []
        for name, module in modules():
            path = os.path.join(work, name + "_dynamic.onnx")
            names = export(module.float(), path)
            xs = [x_of(module, b, s, k) for k, (b, s) in enumerate(SIZES)]
            pytorch = [("pytorch", outputs_of(module, xs[0]))]
            reference = lambda x, m=module: outputs_of(m.double(), x.astype(np.float64))  # noqa: E731
            files.append((path, names, DIMS, xs, reference, pytorch))
            if name == "LSTM2bi":  # a dynamic batch alone: proved symbolically, nothing enumerated
                path = os.path.join(work, name + "_dynamic_batch.onnx")
                export(module.float(), path, seq_dynamic=False)
                xs = [x_of(module, b, SIZES[0][1], k) for k, (b, _) in enumerate(SIZES)]
                files.append((path, names, DIMS[:2], xs, reference, [("pytorch", outputs_of(module, xs[0]))]))
        path = os.path.join(work, "loop_rnn_cell.onnx")
        names, reference = loop_model(path)
        xs = [np.random.RandomState(k).randn(s, 2, 4).astype(np.float32) for k, (_, s) in enumerate(SIZES)]
        files.append((path, names, ["--dim", "seq=1..64"], xs, reference, []))
        for path, names, dims, xs, reference, peers in files:
            start = time.time()
            failures = check_file(args, work, path, names, dims, xs, reference, peers, ort)
            bad = print_result("%s (%.1f s)" % (os.path.basename(path), time.time() - start), failures)
            passed, failed = passed + (not bad), failed + bad
    print("largest difference of a run from float64: %.1e of max|y|" % WORST[0])
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
