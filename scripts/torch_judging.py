#!/usr/bin/python3
"""What the PyTorch export checks share (torch_exports_check.py, torchvision_zoo.py): nnref's command
line, and the comparison of `nnref run --precision f64` with PyTorch's float64 evaluation of the
file's own weights (torch_onnx.py in float64: torch.onnx.export folds batch norms into the
convolutions in float32, so the module itself is not the file)."""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_onnx  # noqa: E402


def nnref(binary, *rest, timeout=600):
    """nnref's completed process (its output captured as text)."""
    return subprocess.run([binary, *rest], capture_output=True, text=True, timeout=timeout)


# conform's note where an envelope compounded wider than its values (docs/conformance.md, "An envelope
# compounded wider than its values judges nothing"): the verdict of a deep model judged without its
# intermediates.
COMPOUNDED = "grew wider than its values"


def not_rejected(v):
    """Whether conform's completed process (text report) accepts the answer: it conforms, or it is
    inconclusive only because the envelope compounded wider than the values."""
    if v.returncode == 0:
        return True
    lost = [line for line in v.stdout.splitlines() if line.strip().startswith("not judged:")]
    return v.returncode == 3 and bool(lost) and all(COMPOUNDED in line for line in lost)


def relative_error(y, t):
    """max|y − t| / max|t|, the measure both checks bound."""
    return float(np.abs(np.asarray(y, np.float64) - t).max() / np.abs(t).max())


def f64_errors(binary, path, feeds, xin, yout, timeout=600, options=()):
    """`nnref run --precision f64` (with options) of the file on the input saved at xin (feeds
    {name: array} holds it for PyTorch): ({output: relative error from PyTorch float64}, PyTorch's
    float64 outputs), or (the run's error message, None)."""
    r = nnref(binary, "run", path, "--input", xin, "--precision", "f64", "--output", yout, "--quiet", *options,
              timeout=timeout)
    if r.returncode != 0:
        return r.stderr.strip()[-300:], None
    got = np.load(yout)
    want = torch_onnx.run(path, feeds, float64=True)
    return {name: relative_error(got[name], t) for name, t in want.items()}, want
