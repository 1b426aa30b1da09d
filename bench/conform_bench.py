#!/usr/bin/python3
"""`nnref conform`'s time and peak memory next to the f64 oracle's on torchvision models, side by side
in one run (issue 31's speed goals): the conform table of bench/README.md.

    bench/conform_bench.py --nnref build/nnref [--ort-cache build/ort-cache] [--install]
                           [--models resnet18:112,mobilenet_v2:224,lraspp_mobilenet_v3_large:512]
                           [--with-exact] [--format text|json]

Each model (NAME:PIXELS; a segmentation model when torchvision.models.segmentation has NAME) is built
as scripts/torchvision_zoo.py builds it (random initialisation, seed 0), exported by torch.onnx at
opset 17 with batch 1, and given one seeded normal image. Then, one process after the other:
  f64            `nnref run --precision f64`, the oracle;
  conform        `nnref conform` on PyTorch's float32 answer (1 thread), as a user runs it: the
                 verdict without the runtime's intermediates (inconclusive on deep models: their
                 envelopes compound wider than their values, docs/conformance.md), the exact value
                 enclosed only if an envelope side overflows;
  at_cuts        `nnref conform --intermediates` on ONNX Runtime's answer and its values of every
                 real node output (all optimisations): the verdict that judges every op;
  exact          with --with-exact, `nnref conform --exact`: with the exact value's enclosure (MPFR
                 intervals raised until 1e-9 of max|y|; an hour or more on the 512-pixel model).
Each is timed by the wall clock and its peak resident memory read from the kernel (wait4's
ru_maxrss); the ratio is its time over the f64 oracle's. Exit 0 when every command ran (a verdict
that rejects the answer is reported, not a failure of the benchmark), 1 otherwise.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import torchvision_zoo  # noqa: E402
from ort_runtime import NotRun, ort_modules, run_ort_intermediates  # noqa: E402


# A child's peak resident memory (ru_maxrss) starts at its parent's at the fork (Linux keeps the
# high-water mark across exec): measured from this process, which has PyTorch loaded, every command
# would seem to take at least its hundreds of MB. So a small Python process runs each command and
# reports the command's own peak.
PEAK_OF = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
open(sys.argv[1], "w").write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status))
"""


def measured(cmd, work):
    """(wall seconds, peak resident MB, exit code, stdout, stderr) of one process."""
    peak = os.path.join(work, "peak.txt")
    start = time.monotonic()
    p = subprocess.run([sys.executable, "-c", PEAK_OF, peak] + cmd, capture_output=True, text=True)
    seconds = time.monotonic() - start
    with open(peak) as f:
        return seconds, int(f.read()) / 1024, p.returncode, p.stdout, p.stderr


def is_segmentation(name):
    import torchvision.models as models
    return name in models.list_models(module=models.segmentation)


def export(name, px, work):
    """The model file, its input and PyTorch's float32 answer (1 thread), as .npy paths."""
    segmentation = is_segmentation(name)
    m = torchvision_zoo.build(name, segmentation)
    path = os.path.join(work, "%s_%d.onnx" % (name, px))
    torch.onnx.export(m, (torch.randn(1, 3, px, px),), path, opset_version=17, input_names=["x"], output_names=["y"])
    torch.manual_seed(1)
    x = torch.randn(1, 3, px, px)
    torch.set_num_threads(1)
    with torch.no_grad():
        y = m(x)
    y = y["out"] if isinstance(y, dict) else y
    x_path, y_path = os.path.join(work, "x.npy"), os.path.join(work, "torch_y.npy")
    np.save(x_path, x.numpy())
    np.save(y_path, y.numpy())
    return path, x_path, y_path


def verdict_of(code, out):
    try:
        return json.loads(out)["verdict"]
    except (ValueError, KeyError):
        return "exit %d" % code


def bench(a, modules, name, px, work):
    path, x_path, y_path = export(name, px, work)
    nnref = [a.nnref]
    memory = ["--max-memory", a.max_memory]
    rows = {}
    seconds, peak, code, _, err = measured(nnref + ["run", path, "--input", x_path, "--precision", "f64", "--output",
                                                    os.path.join(work, "f64.npy"), "--quiet"] + memory, work)
    rows["f64"] = {"seconds": seconds, "peak_mb": peak, "ok": code == 0, "note": err.strip()[-200:] if code else ""}
    judged = [("conform", y_path, [])]
    if modules:
        try:
            answer, given = run_ort_intermediates(modules, path, [("x", np.load(x_path))], os.path.join(work, "ort"), "all")
            ort_y, cuts = os.path.join(work, "ort_y.npz"), os.path.join(work, "cuts.npz")
            np.savez(ort_y, **{k: v.astype(np.float32) for k, v in answer.items()})
            np.savez(cuts, **{k: v.astype(np.float32) for k, v in given.items()})
            judged.append(("at_cuts", ort_y, ["--intermediates", cuts]))
        except NotRun as e:
            rows["at_cuts"] = {"ok": False, "note": "ONNX Runtime did not run it: %s" % e}
    for label, answer, extra in judged + ([("exact", y_path, ["--exact"])] if a.with_exact else []):
        args = nnref + ["conform", path, "--input", x_path, "--actual", answer, "--format", "json"] + memory + extra
        seconds, peak, code, out, err = measured(args, work)
        rows[label] = {"seconds": seconds, "peak_mb": peak, "ok": code in (0, 1, 3), "verdict": verdict_of(code, out),
                       "note": err.strip()[-200:] if code not in (0, 1, 3) else ""}
    f64 = rows["f64"].get("seconds")
    for r in rows.values():
        if "seconds" in r and f64:
            r["over_f64"] = r["seconds"] / f64
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nnref", required=True)
    ap.add_argument("--ort-cache", default=os.path.join(ROOT, "build", "ort-cache"))
    ap.add_argument("--install", action="store_true", help="npm install onnxruntime-node if absent")
    ap.add_argument("--models", default="resnet18:112,mobilenet_v2:224,lraspp_mobilenet_v3_large:512")
    ap.add_argument("--max-memory", default="8G")
    ap.add_argument("--with-exact", action="store_true")
    ap.add_argument("--format", choices=("text", "json"), default="text")
    a = ap.parse_args()
    modules = ort_modules(a.ort_cache, a.install)
    results, ok = {}, True
    for item in a.models.split(","):
        name, px = item.split(":")
        with tempfile.TemporaryDirectory(prefix="conform_bench_") as work:
            rows = bench(a, modules, name, int(px), work)
        results[item] = rows
        ok = ok and all(r.get("ok") for r in rows.values())
        if a.format == "text":
            for label, r in rows.items():
                print("%-36s %-8s %9s s %9s MB %8s  %s%s" % (
                    item, label, "%.2f" % r["seconds"] if "seconds" in r else "-",
                    "%.0f" % r["peak_mb"] if "peak_mb" in r else "-",
                    "%.1fx" % r["over_f64"] if "over_f64" in r else "", r.get("verdict", ""),
                    ("  " + r["note"]) if r.get("note") else ""), flush=True)
    if a.format == "json":
        print(json.dumps(results, indent=1))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
