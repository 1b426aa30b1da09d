#!/usr/bin/python3
"""The exact value's width on deep models (docs/conformance.md, "The exact value").

Exports torchvision's resnet18, resnet50, mobilenet_v2, mobilenet_v3_small/large, efficientnet_b0,
squeezenet1_1 and shufflenet_v2_x0_5 (random initialisation, seed 1; no download) and a 6-layer
nn.TransformerEncoder (d_model 64) with torch.onnx (opset 17), runs
`nnref run --precision interval --radius-output` on each, and prints per model: the largest, over
its outputs, of max radius / max|y| (y the midpoints), the precision the exact value took (nnref's
"exact value:" line), and its time beside `nnref run --precision f64` on the same input (one run
after the other). A model nnref does not read is reported with its error and skipped. Exits 1 when
some model read misses the target (radius ≤ 0.5e-9 · max|y|, width ≤ 1e-9 · max|y|).

  /usr/bin/python3 scripts/exact_width_check.py --nnref build/nnref [--size 64] [--only resnet18] [--max-memory 8G]

--max-memory goes to the interval run: a re-evaluation's budget shrinks as its endpoints grow, and
resnet50's 25.6 million weights, held as Intervals, need 3.3 GB at 61 bits (the default budget is 4 GiB).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import warnings

import numpy as np
import torch
import torchvision


def models(size):
    """(name, module, input shape) of each model, at `size` pixels for the images."""
    tv = torchvision.models
    image = (1, 3, size, size)
    encoder = torch.nn.TransformerEncoder(
        torch.nn.TransformerEncoderLayer(64, 8, 128, dropout=0.0, batch_first=True), num_layers=6)
    return [
        ("resnet18", tv.resnet18(), image),
        ("resnet50", tv.resnet50(), image),
        ("mobilenet_v2", tv.mobilenet_v2(), image),
        ("mobilenet_v3_small", tv.mobilenet_v3_small(), image),
        ("mobilenet_v3_large", tv.mobilenet_v3_large(), image),
        ("efficientnet_b0", tv.efficientnet_b0(), image),
        ("squeezenet1_1", tv.squeezenet1_1(), image),
        ("shufflenet_v2_x0_5", tv.shufflenet_v2_x0_5(), image),
        ("transformer_encoder6", encoder, (1, 16, 64)),
    ]


def run(nnref, path, xin, precision, *extra):
    r = subprocess.run([nnref, "run", path, "--input", xin, "--precision", precision, *extra],
                       capture_output=True, text=True, timeout=3600)
    ms = re.search(r"^time: ([0-9.]+) ms", r.stdout, re.M)
    return r, float(ms.group(1)) / 1000 if ms else float("nan")


def check(args, work, name, module, shape):
    """One row: (name, ratio, bits, interval s, f64 s, note), or None when nnref does not read it."""
    path = os.path.join(work, name + ".onnx")
    x = np.random.RandomState(0).randn(*shape).astype(np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(module.eval(), (torch.from_numpy(x),), path, opset_version=17, input_names=["x"])
    xin, yout, rout = (os.path.join(work, name + s) for s in ("_x.npy", "_y.npz", "_r.npz"))
    np.save(xin, x)
    f64, f64_s = run(args.nnref, path, xin, "f64")
    if f64.returncode != 0:
        return (name, None, None, None, None, "not read: " + f64.stderr.strip().splitlines()[0][:160])
    memory = ["--max-memory", args.max_memory] if args.max_memory else []
    r, interval_s = run(args.nnref, path, xin, "interval", "--output", yout, "--radius-output", rout, *memory)
    if r.returncode != 0:
        return (name, None, None, None, f64_s, "interval run failed: " + r.stderr.strip()[-200:])
    exact = re.search(r"^exact value: (\d+)-bit endpoints; (.*)$", r.stdout, re.M)
    ys, radii = np.load(yout), np.load(rout)
    ratio = max(float(np.max(radii[k]) / np.max(np.abs(ys[k]))) for k in ys.files)
    if not exact:  # a binary before the adaptive precision: 61 bits throughout
        return (name, ratio, 61, interval_s, f64_s, "(no 'exact value:' line)")
    return (name, ratio, int(exact.group(1)), interval_s, f64_s, exact.group(2))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--nnref", default="build/nnref")
    p.add_argument("--size", type=int, default=64, help="image height and width (64 to 112)")
    p.add_argument("--only", action="append", help="a model's name (repeatable); default: all")
    p.add_argument("--max-memory", help="nnref's --max-memory for the interval runs (e.g. 8G)")
    args = p.parse_args()
    torch.manual_seed(1)
    failed = False
    print("%-22s %14s %5s %10s %9s %7s  %s" % ("model", "max r/max|y|", "bits", "interval s", "f64 s", "ratio", "exact value"))
    with tempfile.TemporaryDirectory() as work:
        for name, module, shape in models(args.size):
            if args.only and name not in args.only:
                continue
            name, ratio, bits, t_int, t_f64, note = check(args, work, name, module, shape)
            if ratio is None:
                print("%-22s %s" % (name, note))
                continue
            failed |= not ratio <= 0.5e-9
            print("%-22s %14.3g %5d %10.2f %9.3f %7.1f  %s" % (name, ratio, bits, t_int, t_f64, t_int / t_f64, note),
                  flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
