"""Resize as PyTorch exports it (docs/onnx.md, "Resize and Upsample"): a small conv net with
nn.Upsample(scale_factor=2, mode='nearest') and F.interpolate bilinear (scale 0.5 with
align_corners=False, then 2 with align_corners=True), exported by torch.onnx at opset 17 with fixed
sizes and with dynamic batch, h and w. `nnref check` proves each (the dynamic one over batch 1..64,
h, w 32..1024); `nnref run --precision f64` agrees with the module evaluated in float64 (no batch
norm folded: the file's weights are the module's) within 1e-12 of max|y|, at an even and an odd
size; `nnref conform` accepts PyTorch's float32 answer and ONNX Runtime's (npm onnxruntime-node in
build/ort-cache, when installed), every element judged.

Run by ctest (test python_module) with NNREF=build/nnref, from the source tree.
"""
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
NNREF = os.environ.get("NNREF", os.path.join(ROOT, "build", "nnref"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import ort_runtime  # noqa: E402


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.up = torch.nn.Upsample(scale_factor=2, mode="nearest")
        self.c2 = torch.nn.Conv2d(4, 4, 3, padding=1)

    def forward(self, x):
        y = self.up(torch.relu(self.c1(x)))
        y = F.interpolate(y, scale_factor=0.5, mode="bilinear", align_corners=False)
        return F.interpolate(self.c2(y), scale_factor=2, mode="bilinear", align_corners=True)


def nnref(*args):
    return subprocess.run([NNREF, *args], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("dynamic", [False, True])
def test_resize_export(tmp_path, dynamic):
    torch.manual_seed(0)
    torch.set_num_threads(1)
    module = Net().eval()
    path = str(tmp_path / "net.onnx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(module, (torch.randn(2, 3, 32, 32),), path, opset_version=17, input_names=["x"],
                          output_names=["y"],
                          dynamic_axes={"x": {0: "batch", 2: "h", 3: "w"}, "y": {0: "batch"}} if dynamic else None)
    dims = ["--dim", "batch=1..64", "--dim", "h=32..1024", "--dim", "w=32..1024", "--max-memory", "1T"]
    c = nnref("check", path, *(dims if dynamic else []))
    assert c.returncode == 0, c.stdout + c.stderr
    sizes = [(2, 3, 32, 32), (1, 3, 33, 35)] if dynamic else [(2, 3, 32, 32)]
    modules = ort_runtime.ort_modules(os.path.join(ROOT, "build", "ort-cache"), False)
    for n, size in enumerate(sizes):
        x = np.random.RandomState(n).randn(*size).astype(np.float32)
        xin, yout = str(tmp_path / "x.npy"), str(tmp_path / "y.npy")
        np.save(xin, x)
        r = nnref("run", path, "--input", xin, "--precision", "f64", "--output", yout, "--quiet")
        assert r.returncode == 0, r.stderr
        with torch.no_grad():
            expected = module.double()(torch.from_numpy(x).double()).numpy()
            module.float()
            answers = [("pytorch", module(torch.from_numpy(x)).numpy())]
        y = np.load(yout)
        assert y.shape == expected.shape
        assert np.abs(y - expected).max() <= 1e-12 * np.abs(expected).max()
        if modules:
            answers.append(("ort", list(ort_runtime.run_ort(modules, path, [("x", x)], str(tmp_path / "ort"),
                                                            "all").values())[0]))
        for peer, a in answers:
            actual = str(tmp_path / ("actual_%s.npy" % peer))
            np.save(actual, a.astype(np.float32))
            v = nnref("conform", path, "--input", xin, "--actual", actual, "--format", "json")
            assert v.returncode == 0, peer + ": " + v.stdout[-600:] + v.stderr[-300:]
            assert '"not_judged": 0' in v.stdout, peer
