"""Loop as PyTorch exports it (docs/onnx.md, "Compositions": Loop and Scan): torch 1.13's torch.onnx.export of a
torch.jit.script module writes a Python loop as an ONNX Loop (a for loop over x.size(0), a fixed
count with fixed sizes; a while loop, M = 2^63 − 1 and the condition an integer comparison the
body computes). nnref unrolls each when it reads the model: `nnref check` proves it, `nnref run
--precision f64` agrees with the module evaluated in float64 within 1e-12 of max|y|, and `nnref
conform` accepts PyTorch's float32 answer, every element judged. With a dynamic sequence axis the
trip count is a size needed at load (onnx.size-needed-at-load): `check --dim steps=1..16` proves
the model by enumeration, `run` and `conform` read it at the input's length.

Run by ctest (test python_module) with NNREF=build/nnref, from the source tree.
"""
import os
import subprocess
import warnings

import numpy as np
import pytest
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
NNREF = os.environ.get("NNREF", os.path.join(ROOT, "build", "nnref"))


class ForLoop(torch.nn.Module):
    def forward(self, x):
        h = torch.zeros_like(x[0])
        for i in range(x.size(0)):
            h = torch.sin(h * 0.5 + x[i])
        return h


class WhileLoop(torch.nn.Module):
    def forward(self, x):
        y = x
        i = 0
        while i < 5:
            y = torch.tanh(y + x * float(i))
            i += 2
        return y


def nnref(*args):
    return subprocess.run([NNREF, *args], capture_output=True, text=True, timeout=300)


def export(module, path, dynamic):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(torch.jit.script(module), (torch.randn(3, 2),), path, opset_version=13,
                          input_names=["x"], output_names=["y"],
                          dynamic_axes={"x": {0: "steps"}} if dynamic else None)


def run_and_judge(module, path, tmp_path, x):
    """run in f64 against the module in float64, conform of its float32 answer."""
    xin, yout = str(tmp_path / "x.npy"), str(tmp_path / "y.npy")
    np.save(xin, x)
    r = nnref("run", path, "--input", xin, "--precision", "f64", "--output", yout, "--quiet")
    assert r.returncode == 0, r.stderr
    with torch.no_grad():
        expected = module(torch.from_numpy(x).double()).numpy()
        answer = module(torch.from_numpy(x)).numpy()
    y = np.load(yout)
    assert y.shape == expected.shape
    assert np.abs(y - expected).max() <= 1e-12 * np.abs(expected).max()
    actual = str(tmp_path / "actual.npy")
    np.save(actual, answer.astype(np.float32))
    v = nnref("conform", path, "--input", xin, "--actual", actual, "--format", "json")
    assert v.returncode == 0, v.stdout[-600:] + v.stderr[-300:]
    assert '"not_judged": 0' in v.stdout


@pytest.mark.parametrize("net", [ForLoop, WhileLoop])
def test_loop_export(tmp_path, net):
    torch.set_num_threads(1)
    module = net().eval()
    path = str(tmp_path / "net.onnx")
    export(module, path, False)
    c = nnref("check", path)
    assert c.returncode == 0, c.stdout + c.stderr
    run_and_judge(module, path, tmp_path, np.random.RandomState(0).randn(3, 2).astype(np.float32))


def test_loop_over_a_dynamic_axis(tmp_path):
    torch.set_num_threads(1)
    module = ForLoop().eval()
    path = str(tmp_path / "net.onnx")
    export(module, path, True)
    c = nnref("check", path)
    assert c.returncode != 0
    assert "onnx.size-needed-at-load" in c.stdout + c.stderr
    assert "Loop" in c.stdout + c.stderr
    c = nnref("check", path, "--dim", "steps=1..16")
    assert c.returncode == 0, c.stdout + c.stderr
    assert "by enumeration: 16 instantiations" in c.stdout
    run_and_judge(module, path, tmp_path, np.random.RandomState(0).randn(5, 2).astype(np.float32))
