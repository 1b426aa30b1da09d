#!/usr/bin/python3
"""PyTorch's standard exports read, proved and run by nnref (docs/onnx.md, "Shapes are values").

Models as users export them with torch.onnx.export (PyTorch 1.13, random initialisation, no
download): nn.TransformerEncoderLayer (batch_first), a bare nn.MultiheadAttention, a CNN with
padding, pooling and x.view(x.size(0), -1), torchvision's resnet18 and mobilenet_v3_small, a small
torchvision VisionTransformer (its class token expanded to the batch: Expand of a computed shape),
and an x[:, 1:] model; each at opsets 14 and 17, with fixed sizes and with dynamic_axes on the batch and
on the sequence or spatial extents. For each file:
- `nnref check` proves it: fixed sizes as they are; dynamic ones over --dim batch=1..64 and
  seq=1..4096 or h, w=32..1024 (--max-memory 1T: the shapes, not the budget). The x[:, 1:] model
  is refuted at seq = 1, its smallest counterexample, where PyTorch's answer is an empty tensor
  (which nnref does not hold); it is proved from seq = 2;
- `nnref run --precision f64` at three sizes, with no --dim (the sizes are the input's), agrees
  with PyTorch's float64 evaluation of the file's own weights (scripts/torch_onnx.py in float64:
  the export folds batch norms into the convolutions in float32, so the module itself is not the
  file) within 1e-12 · max|y|;
- `nnref conform` does not reject ONNX Runtime's float32 answer (npm onnxruntime-node) nor the
  PyTorch module's own float32 answer, at the first size (it conforms, or on resnet18 and
  mobilenet_v3_small is inconclusive because the envelope compounds wider than the values without
  the runtime's intermediates: torch_judging.not_rejected), on the fixed file of opset 14 and the dynamic
  one of opset 17 (the two other files hold the same graph: judging them too doubled the test's
  time, the largest of CI's).
nn.LSTM, nn.GRU and a 2-layer bidirectional nn.LSTM (batch_first, fixed sizes, opsets 14 and 17):
checked, run in f64 within 1e-12 of the module in float64, and at opset 14 PyTorch's and ONNX
Runtime's float32 answers (every output: y, h, c) conform.
Prints one line per file and "N passed, N failed"; exits 1 on any failure.

  /usr/bin/python3 scripts/torch_exports_check.py --nnref build/nnref --ort-cache build/ort-cache
"""
import argparse
import multiprocessing
import os
import sys
import tempfile
import warnings

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_judging  # noqa: E402
from ort_runtime import NotRun, ort_modules, run_ort  # noqa: E402

warnings.filterwarnings("ignore")


class Cnn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.pool = torch.nn.MaxPool2d(2)
        self.avg = torch.nn.AdaptiveAvgPool2d(1)
        self.fc = torch.nn.Linear(8, 10)

    def forward(self, x):
        x = self.avg(self.pool(torch.relu(self.conv(x))))
        return self.fc(x.view(x.size(0), -1))


class Attention(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.m = torch.nn.MultiheadAttention(16, 4, batch_first=True)

    def forward(self, x):
        return self.m(x, x, x, need_weights=False)[0]


class Tail(torch.nn.Module):
    def forward(self, x):
        return x[:, 1:] * 2


def models():
    """(name, module, first input shape, {axis: size name}, --dim ranges)."""
    import torchvision
    seq = ["--dim", "batch=1..64", "--dim", "seq=1..4096"]
    image = ["--dim", "batch=1..64", "--dim", "h=32..1024", "--dim", "w=32..1024"]
    torch.manual_seed(0)
    tel = torch.nn.TransformerEncoderLayer(16, 4, 32, dropout=0.0, batch_first=True)
    # One encoder layer: with two, conform's float32 envelope of the module's answer loses its bounds
    # (inconclusive); read, check and run are the same.
    vit = torchvision.models.VisionTransformer(image_size=32, patch_size=8, num_layers=1, num_heads=2, hidden_dim=16,
                                               mlp_dim=32)
    torch.nn.init.normal_(vit.heads.head.weight)  # torchvision zeroes the head (and the class token): y would be 0
    torch.nn.init.normal_(vit.class_token)
    return [
        ("transformer_layer", tel, (2, 5, 16), {0: "batch", 1: "seq"}, seq),
        ("attention", Attention(), (2, 5, 16), {0: "batch", 1: "seq"}, seq),
        ("cnn", Cnn(), (2, 3, 32, 32), {0: "batch", 2: "h", 3: "w"}, image),
        ("tail", Tail(), (2, 5, 3), {0: "batch", 1: "seq"}, ["--dim", "batch=1..64", "--dim", "seq=2..4096"]),
        ("resnet18", torchvision.models.resnet18(), (1, 3, 32, 32), {0: "batch"}, ["--dim", "batch=1..64"]),
        ("mobilenet_v3_small", torchvision.models.mobilenet_v3_small(), (1, 3, 64, 64), {0: "batch"},
         ["--dim", "batch=1..64"]),
        ("vit", vit, (2, 3, 32, 32), {0: "batch"}, ["--dim", "batch=1..64"]),
    ]


def nnref(args, *rest):
    return torch_judging.nnref(args.nnref, *rest)


def check_file(args, work, path, module, shape, dyn, dims, dynamic, modules, judge):
    """The failures of one exported file (empty: it passed)."""
    failures = []
    c = nnref(args, "check", path, *(dims + ["--max-memory", "1T"] if dynamic else []))
    if c.returncode != 0:
        failures.append("check: " + (c.stdout + c.stderr).strip()[-300:])
    sizes = [shape] if not dynamic else [tuple(s + k if i in dyn else s for i, s in enumerate(shape)) for k in (0, 1, 3)]
    for n, size in enumerate(sizes):
        x = np.random.RandomState(n).randn(*size).astype(np.float32)
        xin, yout = os.path.join(work, "x.npy"), os.path.join(work, "y.npz")
        np.save(xin, x)
        # No --dim: run takes the sizes from the input array.
        errors, _ = torch_judging.f64_errors(args.nnref, path, {"x": x}, xin, yout)
        if isinstance(errors, str):
            failures.append("run at %s: %s" % (size, errors))
            continue
        err = max(errors.values())
        if not err <= 1e-12:
            failures.append("run at %s: %.2e of max|y| from PyTorch float64" % (size, err))
        if n > 0 or not judge:
            continue
        answers = []
        with torch.no_grad():
            answers.append(("pytorch", module(torch.from_numpy(x)).numpy()))
        if modules:
            try:
                answers.append(("ort", list(run_ort(modules, path, [("x", x)], os.path.join(work, "ort"), "all").values())[0]))
            except NotRun as e:
                failures.append("ONNX Runtime did not run it: %s" % e)
        for peer, a in answers:
            actual = os.path.join(work, "actual_%s.npy" % peer)
            np.save(actual, a.astype(np.float32))
            v = nnref(args, "conform", path, "--input", xin, "--actual", actual)
            if not torch_judging.not_rejected(v):
                failures.append("conform rejects %s's float32 answer: %s" % (peer, (v.stdout + v.stderr).strip()[-300:]))
    return failures


def tail_counterexample(args, path):
    """The x[:, 1:] file refuted at seq = 1, where PyTorch's answer is empty."""
    c = nnref(args, "check", path, "--dim", "batch=1..64", "--dim", "seq=1..4096")
    if c.returncode != 1 or "seq = 1" not in c.stdout + c.stderr:
        return ["check over seq=1..4096 should be refuted at seq = 1: " + (c.stdout + c.stderr).strip()[-300:]]
    if Tail()(torch.zeros(1, 1, 3)).numel() != 0:
        return ["PyTorch's x[:, 1:] at seq = 1 should be empty"]
    return []


def recurrent_exports(args, modules):
    """nn.LSTM, nn.GRU and a 2-layer bidirectional nn.LSTM at fixed sizes, opsets 14 and 17: checked,
    run in f64 within 1e-12 of the module in float64 (the file holds its float32 weights, which
    float64 holds exactly), and at opset 14 PyTorch's and ONNX Runtime's float32 answers conform."""
    failures = []
    recurrent = (("LSTM", torch.nn.LSTM(8, 16, batch_first=True)), ("GRU", torch.nn.GRU(8, 16, batch_first=True)),
                 ("LSTM2bi", torch.nn.LSTM(8, 16, num_layers=2, bidirectional=True, batch_first=True)))
    x = np.random.RandomState(0).randn(2, 5, 8).astype(np.float32)
    with tempfile.TemporaryDirectory() as work:
        xin, yout = os.path.join(work, "x.npy"), os.path.join(work, "y.npz")
        np.save(xin, x)
        for op, module in recurrent:
            names = ["y", "h"] + (["c"] if "LSTM" in op else [])
            with torch.no_grad():
                y, state = module.double()(torch.from_numpy(x).double())
                want = [y] + (list(state) if isinstance(state, tuple) else [state])
                module.float()
                y32, state32 = module(torch.from_numpy(x))
                pytorch = [y32] + (list(state32) if isinstance(state32, tuple) else [state32])
            for opset in (14, 17):
                path = os.path.join(work, "%s_opset%d.onnx" % (op, opset))
                torch.onnx.export(module, (torch.from_numpy(x),), path, opset_version=opset, input_names=["x"],
                                  output_names=names)
                where = "%s at opset %d" % (op, opset)
                c = nnref(args, "check", path)
                if c.returncode != 0:
                    failures.append("%s: check: %s" % (where, (c.stdout + c.stderr).strip()[-300:]))
                r = nnref(args, "run", path, "--input", xin, "--precision", "f64", "--output", yout, "--quiet")
                if r.returncode != 0:
                    failures.append("%s: run: %s" % (where, r.stderr.strip()[-300:]))
                    continue
                got = np.load(yout)
                for name, t in zip(names, want):
                    err = torch_judging.relative_error(got[name], t.numpy())
                    if not err <= 1e-12:
                        failures.append("%s: %s %.2e of max|y| from PyTorch float64" % (where, name, err))
                if opset != 14:
                    continue
                answers = [("pytorch", {n: a.numpy() for n, a in zip(names, pytorch)})]
                if modules:
                    try:
                        answers.append(("ort", run_ort(modules, path, [("x", x)], os.path.join(work, "ort"), "all")))
                    except NotRun as e:
                        failures.append("%s: ONNX Runtime did not run it: %s" % (where, e))
                for peer, a in answers:
                    actual = os.path.join(work, "actual_%s.npz" % peer)
                    np.savez(actual, **{n: v.astype(np.float32) for n, v in a.items()})
                    v = nnref(args, "conform", path, "--input", xin, "--actual", actual)
                    if not torch_judging.not_rejected(v):
                        failures.append("%s: conform rejects %s's float32 answer: %s"
                                        % (where, peer, (v.stdout + v.stderr).strip()[-300:]))
    return failures


def print_result(label, failures):
    """Prints "label passed" or "label FAILED" and each failure; whether it failed."""
    print("%s %s" % (label, "passed" if not failures else "FAILED"), flush=True)
    for f in failures:
        print("  " + f)
    return bool(failures)


def one_file(job):
    """Exports one model at one opset, fixed or dynamic, and checks it: (file name, failures)."""
    args, modules, index, opset, dynamic = job
    torch.set_num_threads(1)
    name, module, shape, dyn, dims = models()[index]
    module.eval()
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "%s_opset%d_%s.onnx" % (name, opset, "dynamic" if dynamic else "fixed"))
        axes = {"x": dyn, "y": {0: "batch"}} if dynamic else None
        torch.onnx.export(module, (torch.randn(*shape),), path, opset_version=opset, input_names=["x"],
                          output_names=["y"], dynamic_axes=axes)
        judge = (opset, dynamic) in ((14, False), (17, True))
        failures = check_file(args, work, path, module, shape, dyn, dims, dynamic, modules, judge)
        if name == "tail" and dynamic:
            failures += tail_counterexample(args, path)
    return os.path.basename(path), failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nnref", required=True)
    ap.add_argument("--ort-cache", default="build/ort-cache")
    ap.add_argument("--install", action="store_true", help="npm install onnxruntime-node if absent")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    modules = ort_modules(args.ort_cache, args.install)
    if not modules:
        print("ONNX Runtime is not installed: its answers are not judged (--install)")
    jobs = [(args, modules, i, opset, dynamic) for i in range(len(models())) for opset in (14, 17)
            for dynamic in (False, True)]
    passed = failed = 0
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        for name, failures in pool.imap(one_file, jobs):
            bad = print_result(name, failures)
            passed, failed = passed + (not bad), failed + bad
    bad = print_result("LSTM, GRU, 2-layer bidirectional LSTM:", recurrent_exports(args, modules))
    passed, failed = passed + (not bad), failed + bad
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
