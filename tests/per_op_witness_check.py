#!/usr/bin/python3
"""The per-op error model's own witnesses (scripts/per_op_witness.py) on torchvision's resnet18 and
shufflenet_v2_x0_5 (random initialisation, torch.onnx at opset 17): `nnref conform` must not reject
either (its envelope is sound for the model it states; on resnet18 its width compounds past the
values, and the verdict is inconclusive), and on resnet18 the witness lies more than
1e-3 · max|y| from the exact value, so no envelope under that model can have the radius issue 31
asks for there (docs/conformance.md, "How tight an envelope can be").

  per_op_witness_check.py --nnref BIN
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torchvision

HERE = os.path.dirname(os.path.abspath(__file__))
WITNESS = os.path.join(HERE, "..", "scripts", "per_op_witness.py")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--nnref", required=True)
    a = p.parse_args()
    torch.manual_seed(0)
    failures = []
    models = [("resnet18", torchvision.models.resnet18(), 32, 1e-3), ("shufflenet", torchvision.models.shufflenet_v2_x0_5(), 64, None)]
    with tempfile.TemporaryDirectory() as work:
        for name, module, size, floor in models:
            module.eval()
            x = torch.randn(1, 3, size, size)
            path, xin, out = (os.path.join(work, name + s) for s in (".onnx", "_x.npy", "_witness.npy"))
            torch.onnx.export(module, (x,), path, opset_version=17, input_names=["x"], output_names=["y"])
            np.save(xin, x.numpy())
            w = subprocess.run([sys.executable, WITNESS, path, xin, out], capture_output=True, text=True, timeout=300)
            if w.returncode != 0:
                failures.append("%s: per_op_witness.py failed: %s" % (name, w.stderr.strip()[-300:]))
                continue
            print("%s: %s" % (name, w.stdout.strip()))
            distance = float(re.search(r"max\|y\| = (\S+)", w.stdout).group(1))
            if floor is not None and not distance > floor:
                failures.append("%s: the witness is %.3e of max|y| from the exact value, not beyond %g" % (name, distance, floor))
            c = subprocess.run([a.nnref, "conform", path, "--input", xin, "--actual", out], capture_output=True, text=True,
                               timeout=300)
            verdict = c.stdout.strip().splitlines()[-1] if c.stdout.strip() else ""
            print("%s: conform: %s" % (name, verdict))
            if (c.returncode, verdict) not in ((0, "conforms"), (3, "inconclusive: no element outside, but not every element judged")):
                failures.append("%s: conform rejects the per-op witness: %s" % (name, (c.stdout + c.stderr)[-400:]))
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
