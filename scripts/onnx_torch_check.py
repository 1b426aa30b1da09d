#!/usr/bin/python3
"""PyTorch models exported with torch.onnx.export, run by nnref's f64 oracle, against PyTorch in float64.

Each model is built in float64 with fixed random weights, exported (opset 13, a dynamic batch
axis named N), and checked three ways:
- `nnref run --precision f64` on a .pb input of batch 3 (N taken from the input, no --dim)
  agrees with PyTorch's float64 output at the ONNX suite's rtol 1e-3 / atol 1e-7 (the largest
  relative difference is printed: two double evaluations in different summation orders, about
  1e-11 here);
- `nnref conform` on the same batch accepts PyTorch's float64 answer rounded to float32: it is
  within a float64 evaluation's error of the real value, far inside the envelope of every correct
  float32 evaluation, which ends with the same rounding to float32; a rejection is a false alarm;
- `nnref check --dim N=1..64` proves the exported model for every batch.
The models: a CNN, an MLP, a transformer-style block and a decoder of transposed convolutions.
Prints "N passed, N failed"; exits 1 on any failure.

  /usr/bin/python3 scripts/onnx_torch_check.py --nnref build/nnref
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import torch
from onnx import numpy_helper


class Cnn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = torch.nn.BatchNorm2d(8)
        self.conv2 = torch.nn.Conv2d(8, 8, 3, stride=2, padding=1, groups=2, dilation=1)
        self.pool = torch.nn.MaxPool2d(2)
        self.avg = torch.nn.AvgPool2d(2, count_include_pad=True, padding=1)
        self.fc = torch.nn.Linear(8 * 2 * 2, 5)

    def forward(self, x):
        x = torch.relu(self.bn1(self.conv1(x)))
        x = torch.nn.functional.leaky_relu(self.conv2(x), 0.1)
        x = self.avg(self.pool(x))
        x = torch.flatten(x, 1)
        return torch.softmax(self.fc(x), dim=1)


class Mlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(6, 16)
        self.ln = torch.nn.LayerNorm(16)
        self.fc2 = torch.nn.Linear(16, 4)

    def forward(self, x):
        h = torch.nn.functional.elu(self.ln(self.fc1(x)))
        h = torch.sigmoid(h) * torch.tanh(h) + torch.nn.functional.softplus(h)
        return torch.clamp(self.fc2(h), -0.5, 0.5) + h.mean(dim=1, keepdim=True)


class Block(torch.nn.Module):
    """A transformer-style block: attention over a fixed sequence, then a feed-forward layer."""

    def __init__(self):
        super().__init__()
        self.q = torch.nn.Linear(8, 8)
        self.k = torch.nn.Linear(8, 8)
        self.v = torch.nn.Linear(8, 8)
        self.ff = torch.nn.Linear(8, 8)

    def forward(self, x):  # [N, 4, 8]
        q, k, v = self.q(x), self.k(x), self.v(x)
        a = torch.softmax(torch.matmul(q, k.transpose(1, 2)) / 8 ** 0.5, dim=-1)
        h = x + torch.matmul(a, v)
        return h + torch.relu(self.ff(h))


class Decoder(torch.nn.Module):
    """Transposed convolutions (ONNX ConvTranspose): stride, padding, output_padding, dilation,
    groups, with and without bias."""

    def __init__(self):
        super().__init__()
        self.up1 = torch.nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1)
        self.up2 = torch.nn.ConvTranspose2d(6, 4, (2, 3), stride=(1, 2), padding=(0, 2), groups=2, dilation=(2, 1),
                                            bias=False)
        self.up3 = torch.nn.ConvTranspose2d(4, 4, 3, stride=3, groups=4, output_padding=2)

    def forward(self, x):
        return self.up3(torch.tanh(self.up2(torch.relu(self.up1(x)))))


CASES = [("cnn", Cnn, [3, 8, 8]), ("mlp", Mlp, [6]), ("block", Block, [4, 8]), ("decoder", Decoder, [4, 3, 4])]


def write_pb(path, array):
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(array).SerializeToString())


def check(nnref, name, cls, shape, scratch, batch=3):
    torch.manual_seed(1)
    model = cls().double().eval()
    for p in model.parameters():  # away from the initial 1s and 0s of the norms
        torch.nn.init.uniform_(p, -0.8, 0.8)
    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 1.5)
    x = torch.randn([batch] + shape, dtype=torch.float64)
    path = os.path.join(scratch, name + ".onnx")
    torch.onnx.export(model, x, path, opset_version=13, input_names=["x"], output_names=["y"],
                      dynamic_axes={"x": {0: "N"}, "y": {0: "N"}})
    with torch.no_grad():
        want = model(x).numpy()
    write_pb(os.path.join(scratch, name + "_x.pb"), x.numpy())
    out = os.path.join(scratch, name + "_y.npy")
    r = subprocess.run([nnref, "run", path, "--input", os.path.join(scratch, name + "_x.pb"),
                        "--precision", "f64", "--output", out, "--quiet"], capture_output=True, text=True)
    if r.returncode != 0:
        return "run failed: " + r.stderr.strip()
    have = np.load(out)
    if have.shape != want.shape:
        return "shape %s, PyTorch %s" % (have.shape, want.shape)
    print("%s: largest relative difference from PyTorch float64: %.2g" % (
        name, np.max(np.abs(have - want) / np.maximum(np.abs(want), 1e-300))))
    if not np.allclose(have, want, rtol=1e-3, atol=1e-7):
        return "nnref f64 and PyTorch f64 differ beyond rtol 1e-3 / atol 1e-7"
    # conform judges at the input's batch too.
    write_pb(os.path.join(scratch, name + "_torch.pb"), want.astype(np.float32))
    j = subprocess.run([nnref, "conform", path, "--input", os.path.join(scratch, name + "_x.pb"),
                        "--actual", os.path.join(scratch, name + "_torch.pb")], capture_output=True, text=True)
    if j.returncode != 0:
        return "conform rejected PyTorch's answer (exit %d): %s" % (j.returncode, (j.stdout + j.stderr).strip()[:500])
    c = subprocess.run([nnref, "check", path, "--dim", "N=1..64"], capture_output=True, text=True)
    if c.returncode != 0:
        return "check --dim N=1..64 exited %d: %s" % (c.returncode, c.stderr.strip())
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nnref", required=True)
    args = ap.parse_args()
    failed = 0
    with tempfile.TemporaryDirectory() as scratch:
        for name, cls, shape in CASES:
            why = check(args.nnref, name, cls, shape, scratch)
            print("%s %s%s" % ("FAILED" if why else "ok", name, ": " + why if why else ""))
            failed += bool(why)
    print("%d passed, %d failed" % (len(CASES) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
