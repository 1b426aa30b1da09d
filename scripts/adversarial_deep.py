#!/usr/bin/python3
"""A correct float32 answer of a deep network that errs as much as a choice of summation order can
make it: the witness, on torchvision's resnet18, that bounds from below the envelope radius of any
sound oracle (issue 31), as scripts/adversarial_order.py does on the shallow examples.

The model is torchvision 0.14's resnet18 (random initialisation, seed 0) exported by torch.onnx at
opset 17 (batch 1, --px square images: the batch norms folded into the convolutions), the input a
seeded normal draw. The element judged is the output of largest magnitude. The answer is computed
node by node in float32 (scripts/torch_onnx.py's map of each ONNX op to PyTorch), except that every
Conv and Gemm sums each output's products (each rounded to float32) with one float32 rounding per
addition, in an order chosen to push that output's error along the sign of d y / d output at the
exact network (PyTorch float64 on the file's weights), times the sign of y, so that the errors add up
at the element, away from zero:
  - the products of that sign first, largest first, then the others, so partial sums stay large;
  - within blocks of --block terms, at every step the term whose addition rounds furthest that way.
Every step is a correct float32 operation, so `nnref conform` must not reject the answer: without its
intermediates the envelope compounds too wide to judge resnet18 (inconclusive), and given every Conv
and Gemm value so summed (--intermediates) each is judged against its own sum's envelope, and the
answer must conform with every element judged. The script
prints the element's error against its exact value (`nnref run --precision interval`) relative to
max|y|, PyTorch float32's largest error, the envelope's radius over the error, and the first-order
worst case of the dot products' error bound at the element, sum over every Conv and Gemm output of
|d y / d output| times its sum's rounding bound in conform's error model (u·Σ|terms| plus k − 1 half
ulps of (1 + u)(1 + gamma(k − 1))·max(P, N), k the terms and bias not exactly 0, docs/conformance.md
"Sums in any order"): what an envelope that kept every correlation would still allow under that
per-op error model.

Usage:
    adversarial_deep.py --nnref PATH [--px 64] [--block 64] [--at-least R] [--keep DIR]
Exit 0 when the answer is not rejected and conforms at its intermediates, every element judged (and
errs by at least R·max|y| when --at-least is given), 1 when it is rejected (a soundness failure of
nnref), not judged at its intermediates, or errs less, 2 for a usage or model error.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_onnx  # noqa: E402
from adversarial_order import nnref_run  # noqa: E402

U = 2.0 ** -24  # float32's unit roundoff


def export(path, px):
    import torchvision
    torch.manual_seed(0)
    model = torchvision.models.resnet18(weights=None).eval()
    x = torch.randn(1, 3, px, px)
    torch.onnx.export(model, x, path, opset_version=17, input_names=["x"], output_names=["y"])
    return x.numpy()


def nodes_of(path):
    model = onnx.load(path)
    opset = next(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
    weights = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    return model.graph.node, weights, opset, model.graph.output[0].name


def evaluate(path, x, dtype, dot=None, grad=False):
    """The graph's output in `dtype`, node by node; `dot(node, inputs)` computes Conv and Gemm when
    given; with grad, every value records its gradient graph from x. Returns the output and
    {Conv/Gemm output name: its tensor}."""
    nodes, weights, opset, out = nodes_of(path)
    env = {k: torch.from_numpy(v.copy()).to(dtype) if v.dtype.kind == "f" else torch.from_numpy(v.copy())
           for k, v in weights.items()}
    env["x"] = torch.from_numpy(x).to(dtype).requires_grad_(grad)
    dots = {}
    for node in nodes:
        ins = [env[i] if i else None for i in node.input]
        if node.op_type == "Constant":
            v = numpy_helper.to_array(torch_onnx.attrs(node)["value"])
            y = torch.from_numpy(v.copy()).to(dtype) if v.dtype.kind == "f" else torch.from_numpy(v.copy())
        elif node.op_type in ("Conv", "Gemm"):
            y = dot(node, ins) if dot else torch_onnx.apply(node, ins, opset)
            dots[node.output[0]] = y
        else:
            y = torch_onnx.apply(node, ins, opset)
        env[node.output[0]] = y
    return env[out], dots


def terms_of(node, ins):
    """The products of each output of a Conv or Gemm (batch 1) as [outputs, n] in float64 (exact
    for float32 operands), its bias per output, and the output's shape."""
    a = torch_onnx.attrs(node)
    x, w = ins[0], ins[1]
    b = ins[2] if len(ins) > 2 and ins[2] is not None else None
    if node.op_type == "Gemm":
        if a.get("transA", 0) or not a.get("transB", 0) or a.get("alpha", 1.0) != 1.0 or a.get("beta", 1.0) != 1.0:
            raise ValueError("Gemm other than x @ W^T + b")
        terms = w.double() * x.double()  # [out, in]
        bias = b if b is not None else torch.zeros(w.shape[0], dtype=w.dtype)
        return terms, bias, (1, w.shape[0])
    k = list(w.shape[2:])
    pads = torch_onnx.explicit_pads(x, a, k)
    x = F.pad(x, [pads[1], pads[3], pads[0], pads[2]])
    stride, dilation, g = a.get("strides", [1, 1]), a.get("dilations", [1, 1]), a.get("group", 1)
    cols = F.unfold(x, k, dilation, 0, stride)  # [1, C_in·kh·kw, L]
    ho = (x.shape[2] - dilation[0] * (k[0] - 1) - 1) // stride[0] + 1
    cout, length = w.shape[0], cols.shape[-1]
    cols = cols.view(g, -1, length).double()
    wg = w.reshape(g, cout // g, -1).double()
    terms = (wg[:, :, None, :] * cols.transpose(1, 2)[:, None, :, :]).reshape(cout * length, -1)
    bias = (b if b is not None else torch.zeros(cout, dtype=w.dtype))[:, None].expand(cout, length).reshape(-1)
    return terms, bias, (1, cout, ho, length // ho)


def pushed_sum(terms, bias, way, block):
    """bias + the sum of each row of terms (float32), in float32, ordered to push the result along
    way (±1 per row): the terms of that sign first, largest first; within blocks of `block`, greedily
    the term whose addition rounds furthest that way."""
    magnitude = terms.abs() / (terms.abs().max(1, keepdim=True).values + 1e-300)
    ahead = (terms * way[:, None] >= 0).double()
    ordered = torch.gather(terms, 1, torch.argsort(ahead * 2 + magnitude, dim=1, descending=True))
    s, w = bias.clone(), way[:, None]
    for start in range(0, ordered.shape[1], block):
        part = ordered[:, start:start + block]
        used = torch.zeros(part.shape, dtype=torch.bool)
        for _ in range(part.shape[1]):
            exact = s.double()[:, None] + part.double()
            gain = ((exact.float().double() - exact) * w).masked_fill(used, -float("inf"))
            k = gain.argmax(1, keepdim=True)
            s = s + torch.gather(part, 1, k)[:, 0]  # one float32 rounding
            used.scatter_(1, k, True)
    return s


def witness(a, work):
    model = os.path.join(work, "resnet18.onnx")
    x = export(model, a.px)
    x_path = os.path.join(work, "x.npy")
    np.save(x_path, x)
    exact, _ = nnref_run(a.nnref, model, x_path, "interval", os.path.join(work, "exact.npz"))
    _, radius = nnref_run(a.nnref, model, x_path, "envelope", os.path.join(work, "envelope.npz"),
                          os.path.join(work, "radius.npz"))
    index = tuple(int(v) for v in np.unravel_index(int(np.argmax(np.abs(exact))), exact.shape))
    # The exact network in float64: the direction of every Conv and Gemm output, and the first-order
    # worst case of the dot products' error bound at the element.
    with torch.enable_grad():
        y64, dots = evaluate(model, x, torch.float64, grad=True)
        for t in dots.values():
            t.retain_grad()
        y64[index].backward()
    away = 1.0 if y64[index] >= 0 else -1.0
    ways = {k: torch.where(t.grad * away >= 0, 1.0, -1.0).reshape(-1).double() for k, t in dots.items()}
    first_order = 0.0

    def pushed(node, ins):
        nonlocal first_order
        terms, bias, shape = terms_of(node, ins)
        b = bias.double()
        most = torch.maximum(terms.clamp(min=0).sum(1) + b.clamp(min=0), (-terms).clamp(min=0).sum(1) + (-b).clamp(min=0))
        rounding = ((terms != 0).sum(1) + (b != 0)).double().sub(1).clamp(min=0)  # additions that may round
        partial = most * (1 + U) * (1 + rounding * U / (1 - rounding * U))
        half_ulp = U * torch.exp2(torch.floor(torch.log2(partial.clamp(min=1e-300))))
        bound = U * (terms.abs().sum(1) + b.abs()) + rounding * half_ulp
        first_order += float((dots[node.output[0]].grad.abs().reshape(-1) * bound).sum())
        return pushed_sum(terms.float(), bias.float(), ways[node.output[0]], a.block).view(shape)

    with torch.no_grad():
        y32, pushed_dots = evaluate(model, x, torch.float32, pushed)
        plain, _ = evaluate(model, x, torch.float32)
    answer = y32.numpy()
    torch_error = np.abs(plain.numpy().astype(np.float64) - exact).max()
    error = float(answer[index]) - exact[index]
    scale = np.abs(exact).max()
    path = os.path.join(work, "answer.npy")
    np.save(path, answer)
    cuts = os.path.join(work, "intermediates.npz")
    np.savez(cuts, **{k: v.numpy() for k, v in pushed_dots.items()})
    whole, whole_report = conform(a.nnref, model, x_path, path)
    judged, report = conform(a.nnref, model, x_path, path, cuts)
    given = report.get("intermediates", {})
    print("resnet18 at %d px, element %s: exact %.9g, max|y| %.4g; PyTorch float32's largest error %.3g (%.2e of max|y|)"
          % (a.px, list(index), exact[index], scale, torch_error, torch_error / scale))
    print("  pushed away from 0 in blocks of %d: float32 %.9g, error %.3g = %.2e of max|y| = %.0f x PyTorch's largest"
          % (a.block, answer[index], error, abs(error) / scale, abs(error) / torch_error))
    print("  envelope radius %.3g (%.2e of max|y|), radius / error %.3g; first-order worst case of the per-op dot "
          "product bound %.3g (%.2e of max|y|)"
          % (radius[index], radius[index] / scale, radius[index] / abs(error), first_order, first_order / scale))
    print("  conform: %s; at the %d Conv and Gemm values summed so (--intermediates): %s, %s of %s given values "
          "judged, %s elements, %s outside, %s not judged"
          % (whole_report.get("verdict", "exit %d" % whole.returncode), len(pushed_dots),
             report.get("verdict", "exit %d" % judged.returncode), given.get("judged"), given.get("given"),
             given.get("elements"), given.get("outside"), given.get("not_judged")))
    if abs(error) < a.at_least * scale:
        print("adversarial_deep: the witness errs by less than %g of max|y|" % a.at_least, file=sys.stderr)
        return False
    # Without its intermediates the envelope of so deep a network is not judged (its width compounds),
    # and must not reject; at them, every sum is judged against its own envelope and must conform.
    outputs_judged = all(o.get("not_judged", 1) == 0 for o in report.get("outputs", []))
    return whole.returncode in (0, 3) and judged.returncode == 0 and given.get("not_judged") == 0 and outputs_judged


def conform(nnref, model, x_path, answer, intermediates=None):
    """nnref conform's process and its JSON report, judging `answer`, at `intermediates` if given."""
    extra = ["--intermediates", intermediates] if intermediates else []
    done = subprocess.run([nnref, "conform", model, "--input", x_path, "--actual", answer, "--format", "json",
                           "--skip-exact"] + extra, capture_output=True, text=True)
    return done, json.loads(done.stdout) if done.stdout else {}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nnref", required=True)
    ap.add_argument("--px", type=int, default=64)
    ap.add_argument("--block", type=int, default=64)
    ap.add_argument("--at-least", type=float, default=0.0, help="fail when the error is below this fraction of max|y|")
    ap.add_argument("--keep", help="write the files here and keep them (default: a temporary folder)")
    a = ap.parse_args(argv)
    if a.px < 32 or a.block < 1:
        print("adversarial_deep: error: --px must be at least 32 and --block at least 1", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="adversarial_deep_") as tmp:
        work = a.keep or tmp
        os.makedirs(work, exist_ok=True)
        try:
            return 0 if witness(a, work) else 1
        except (ValueError, subprocess.CalledProcessError, OSError) as e:
            print("adversarial_deep: error: %s" % e, file=sys.stderr)
            return 2


if __name__ == "__main__":
    sys.exit(main())
