#!/usr/bin/python3
"""An answer the float32 envelope's per-op error model allows, pushed as far as it goes on one element.

`nnref conform`'s envelope (docs/conformance.md, "The error model") lets each op's result be off by
its widening w (u·Σ|x·w| + (k − 1) half ulps of about max(P, N) for a dot product whose terms and
bias hold k not exactly 0, P and N the sums of its positive and negative terms; u·|y| for a +, −,
·, ...) and
propagates those errors through the rest of the model. Whatever the propagation, a sound envelope
must contain the model's value when every op's result is perturbed by some δ with |δ| ≤ w. This
script builds the perturbation that pushes one output element furthest to first order,
δ_v = 0.99 · sign(∂y_o/∂δ_v) · w_v, evaluates the perturbed model in float64 (PyTorch over the
file's own weights, scripts/torch_onnx.py), and writes the perturbed outputs as float32: an
answer nnref conform must accept, and whose distance from the exact value is a floor under the
envelope's radius at that element for *any* propagation method under that error model
(docs/conformance.md, "How tight an envelope can be").

The widenings used here are at most nnref's (Conv, Gemm, MatMul: u·|W||x| + (k − 1)·u·2^⌊log₂ M⌋,
k the products not exactly 0 and M = max(P, N) without the bias, where nnref counts the bias too and
takes the binade of (1 + γ(k − 1))·(1 + u)·M;
Add, Sub, Mul, Div, Sigmoid, the means: u·|y|; every other op exact), so the witness lies inside
the per-op model whatever else nnref adds; the factor 0.99 leaves room for the final rounding to
float32.

  per_op_witness.py MODEL.onnx X.npy OUT.npy [--element FLAT]     (default: the largest |y|)
Prints: element, exact value, witness value, |witness − exact| / max|y|.
"""
import argparse
import os
import sys

import numpy as np
import onnx
import torch
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_onnx  # noqa: E402

U = 2.0**-24  # float32's unit roundoff


def evaluate(model, x, deltas=None):
    """The model's outputs in float64 with, for each perturbed node (in graph order), its result plus
    deltas[k]; without deltas, also the widenings and the perturbation leaves to differentiate."""
    torch_onnx.FLOAT64 = True
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 1)
    env = {t.name: torch_onnx.tensor(numpy_helper.to_array(t)) for t in model.graph.initializer}
    env[model.graph.input[0].name] = torch_onnx.tensor(x)
    leaves, widths, k = [], [], 0
    for node in model.graph.node:
        if node.op_type == "Constant":
            env[node.output[0]] = torch_onnx.tensor(numpy_helper.to_array(torch_onnx.attrs(node)["value"]))
            continue
        ins = [env[i] if i else None for i in node.input]
        y = torch_onnx.apply(node, ins, opset)
        y = y[0] if isinstance(y, list) else y
        w = own_widening(node, ins, y) if y.is_floating_point() else None
        if w is not None:
            if deltas is None:
                d = torch.zeros_like(y, requires_grad=True)
                leaves.append(d)
                widths.append(w)
                y = y + d
            else:
                y = y + deltas[k]
            k += 1
        env[node.output[0]] = y
    return [env[o.name] for o in model.graph.output], leaves, widths


def sum_widening(product, x, w):
    """u·Σ|x·w| + (k − 1)·u·2^⌊log₂ max(P, N)⌋ of the products `product` (conv or matmul) makes of x
    and w, k the products not exactly 0 (adding an exact 0 rounds nothing), P and N the sums of its
    positive terms and of its negative terms' magnitudes (x = x⁺ − x⁻, w = w⁺ − w⁻)."""
    xp, xn, wp, wn = x.clamp(min=0), (-x).clamp(min=0), w.clamp(min=0), (-w).clamp(min=0)
    positive = product(xp, wp) + product(xn, wn)
    negative = product(xp, wn) + product(xn, wp)
    rounding = (product((x != 0).to(x.dtype), (w != 0).to(w.dtype)) - 1).clamp(min=0)
    half_ulp = U * torch.exp2(torch.floor(torch.log2(torch.maximum(positive, negative).clamp(min=1e-300))))
    return U * (positive + negative) + rounding * half_ulp


def own_widening(node, ins, y):
    op = node.op_type
    with torch.no_grad():
        if op == "Conv":
            a = torch_onnx.attrs(node)
            conv = lambda x, w: torch_onnx.conv(x, w, None, a)  # noqa: E731
            return sum_widening(conv, ins[0].detach(), ins[1].detach())
        if op == "Gemm":
            a = torch_onnx.attrs(node)
            xs, ws = ins[0].detach(), ins[1].detach()
            xs = xs.t() if a.get("transA", 0) else xs
            ws = ws.t() if a.get("transB", 0) else ws
            return abs(a.get("alpha", 1.0)) * sum_widening(torch.matmul, xs, ws)
        if op == "MatMul":
            return sum_widening(torch.matmul, ins[0].detach(), ins[1].detach())
        if op in ("Add", "Sub", "Mul", "Div", "Sigmoid", "GlobalAveragePool", "ReduceMean"):
            return U * y.detach().abs()
    return None


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("model")
    p.add_argument("x")
    p.add_argument("out")
    p.add_argument("--element", type=int, help="flat index into the first output (default: its largest |y|)")
    a = p.parse_args()
    torch.set_num_threads(1)
    model = onnx.load(a.model)
    x = np.load(a.x)
    outputs, leaves, widths = evaluate(model, x)
    y = outputs[0].reshape(-1)
    o = a.element if a.element is not None else int(torch.argmax(y.detach().abs()))
    grads = torch.autograd.grad(y[o], leaves, allow_unused=True)
    deltas = [0.99 * torch.sign(g) * w if g is not None else torch.zeros_like(w) for g, w in zip(grads, widths)]
    with torch.no_grad():
        perturbed, _, _ = evaluate(model, x, deltas)
    exact = y.detach().numpy()
    witness = perturbed[0].reshape(-1).numpy()
    np.save(a.out, perturbed[0].numpy().astype(np.float32))
    scale = np.abs(exact).max()
    print("element %d: exact %.9g, witness %.9g, |witness - exact| / max|y| = %.3e"
          % (o, exact[o], witness[o], abs(witness[o] - exact[o]) / scale))


if __name__ == "__main__":
    main()
