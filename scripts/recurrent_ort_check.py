#!/usr/bin/python3
"""ONNX LSTM, GRU and RNN with the attributes PyTorch does not write (clip, input_forget, activations
and their alphas, reverse and bidirectional under sequence_lens given at run time), nnref's f64 run
against ONNX Runtime's float32 (npm onnxruntime-node: its LSTM refuses layout 1), and `nnref conform`
of ORT's answer. Random weights, seed 0. Prints each case's largest difference relative to
max|y| per output and the verdict; exits 1 when a verdict is not "conforms" or a difference exceeds
1e-5 (float32 rounding over four steps is about 1e-7).

  /usr/bin/python3 scripts/recurrent_ort_check.py --nnref build/nnref --ort-cache build/ort-cache
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ort_runtime import ort_modules, run_ort  # noqa: E402


def case(ctx, name, op, gates, dirs, attrs, lens=None, h0=False, c0=False, peepholes=False, outs=("Y", "Y_h")):
    """One model of one node, T 4, batch 3, input 3, hidden 2: True when it agrees and conforms."""
    args, mods, work, rs = ctx
    T, B, I, H = 4, 3, 3, 2
    x = rs.randn(T, B, I).astype(np.float32)
    weights = {"W": (dirs, gates * H, I), "R": (dirs, gates * H, H), "B": (dirs, 2 * gates * H)}
    if h0:
        weights["initial_h"] = (dirs, B, H)
    if c0:
        weights["initial_c"] = (dirs, B, H)
    if peepholes:
        weights["P"] = (dirs, 3 * H)
    inits = [numpy_helper.from_array(rs.randn(*shape).astype(np.float32), n) for n, shape in weights.items()]
    feeds = [("X", x)] + ([("L", np.array(lens, np.int32))] if lens is not None else [])
    inputs = [helper.make_tensor_value_info("X", TensorProto.FLOAT, [T, B, I])]
    if lens is not None:
        inputs.append(helper.make_tensor_value_info("L", TensorProto.INT32, [B]))
    order = ["X", "W", "R", "B", "L" if lens is not None else ""] + [n if n in weights else "" for n in
                                                                      ("initial_h", "initial_c", "P")[:3 if op == "LSTM" else 1]]
    while order[-1] == "":
        order.pop()
    node = helper.make_node(op, order, list(outs), hidden_size=H, **attrs)
    graph = helper.make_graph([node], "g", inputs, [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outs],
                              inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    model.ir_version = 8
    path = os.path.join(work, name + ".onnx")
    onnx.save(model, path)
    given = []
    for n, a in feeds:
        np.save(os.path.join(work, n + ".npy"), a)
        given += ["--input", "%s=%s" % (n, os.path.join(work, n + ".npy"))]
    r = subprocess.run([args.nnref, "run", path, *given, "--precision", "f64", "--output", os.path.join(work, "y.npz"),
                        "--quiet"], capture_output=True, text=True)
    if r.returncode:
        print(name, "run failed:", r.stderr[-300:])
        return False
    got = np.load(os.path.join(work, "y.npz"))
    ort = run_ort(mods, path, feeds, os.path.join(work, "ort"), "all")
    diffs = {o: float(np.abs(got[o] - ort[o]).max() / np.abs(ort[o]).max()) for o in outs}
    actual = os.path.join(work, "actual.npz")
    np.savez(actual, **{o: ort[o].astype(np.float32) for o in outs})
    v = subprocess.run([args.nnref, "conform", path, *given, "--actual", actual], capture_output=True, text=True)
    verdict = (v.stdout + v.stderr).strip().splitlines()[-1]
    print(name, " ".join("%s %.1e" % kv for kv in diffs.items()), verdict[:200])
    return verdict == "conforms" and all(d <= 1e-5 for d in diffs.values())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nnref", required=True)
    ap.add_argument("--ort-cache", default="build/ort-cache")
    ap.add_argument("--install", action="store_true", help="npm install onnxruntime-node if absent")
    ap.add_argument("--missing-code", type=int, default=1, help="exit code when ONNX Runtime cannot be had")
    args = ap.parse_args()
    mods = ort_modules(args.ort_cache, args.install)
    if not mods:
        print("ONNX Runtime is not installed (--install)")
        sys.exit(args.missing_code)
    rs = np.random.RandomState(0)
    L3 = ("Y", "Y_h", "Y_c")
    ok = True
    with tempfile.TemporaryDirectory() as work:
        ctx = (args, mods, work, rs)
        state = dict(h0=True, c0=True, outs=L3)
        for name, op, gates, dirs, attrs, more in (
                ("lstm_clip", "LSTM", 4, 1, dict(clip=0.3), dict(state, peepholes=True)),
                ("lstm_input_forget_alphas", "LSTM", 4, 1,
                 dict(input_forget=1, activations=["LeakyRelu", "Tanh", "Elu"], activation_alpha=[0.3, 0.7]), state),
                ("lstm_bidirectional_lens", "LSTM", 4, 2, dict(direction="bidirectional"),
                 dict(state, lens=[4, 2, 1], peepholes=True)),
                ("lstm_reverse_lens", "LSTM", 4, 1, dict(direction="reverse"), dict(state, lens=[1, 4, 3])),
                ("gru_bidirectional_lens_lbr", "GRU", 3, 2, dict(direction="bidirectional", linear_before_reset=1),
                 dict(lens=[3, 4, 2], h0=True)),
                ("gru_reverse_lens_clip", "GRU", 3, 1, dict(direction="reverse", clip=0.5), dict(lens=[2, 4, 1])),
                ("rnn_bidirectional_lens", "RNN", 1, 2, dict(direction="bidirectional", activations=["Relu", "Softplus"]),
                 dict(lens=[4, 1, 3], h0=True))):
            ok = case(ctx, name, op, gates, dirs, attrs, **more) and ok
    print("all conform" if ok else "FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
