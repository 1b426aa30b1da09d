#!/usr/bin/python3
"""The NNEF that `nnref convert --to nnef` writes, evaluated by an independent reference.

Converts every example model and golden case (NNL, with their weights) to NNEF, evaluates the
graph.nnef and .dat files with nnef_reference.py (PyTorch float64, written from the NNEF spec,
sharing nothing with nnref's reader), and compares each output with the case's expected.npz
(nnl_reference.py's float64 answer on the NNL model) at rtol 1e-9 / atol 1e-12: the written
NNEF means, by the spec, what the NNL model means.

Usage:
    nnef_convert_check.py --nnref BIN
"""

import argparse
import glob
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nnef_reference  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--nnref", required=True)
    a = p.parse_args()
    cases = sorted(glob.glob("examples/*/model.nnl") + glob.glob("tests/data/golden/*/model.nnl"))
    failures = []
    worst = 0.0
    with tempfile.TemporaryDirectory(prefix="nnref_nnef_convert_") as scratch:
        for k, model in enumerate(cases):
            case = os.path.dirname(model)
            out = os.path.join(scratch, "m%d" % k)
            r = subprocess.run([a.nnref, "convert", model, out, "--to", "nnef"], capture_output=True, text=True)
            if r.returncode != 0:
                failures.append("%s: nnref convert exited %d: %s" % (model, r.returncode, r.stderr.strip()))
                continue
            body, _ = nnef_reference.parse_graph(open(os.path.join(out, "graph.nnef")).read())
            external = [lhs[0] for lhs, op, _, _ in body if op == "external"]
            got = nnef_reference.evaluate(out, {external[0]: np.load(os.path.join(case, "input.npy"))})
            want = np.load(os.path.join(case, "expected.npz"))
            if len(got) != len(want.files):
                failures.append("%s: %d outputs, expected %d" % (model, len(got), len(want.files)))
                continue
            for (name, y), key in zip(got.items(), want.files):
                e = want[key]
                if y.shape != e.shape or not np.allclose(y, e, rtol=1e-9, atol=1e-12):
                    failures.append("%s: output %s differs from expected %s" % (model, name, key))
                else:
                    worst = max(worst, float(np.max(np.abs(y - e) / np.maximum(np.abs(e), 1e-12))))
    print("NNEF written from %d NNL models, evaluated by nnef_reference.py: %d agree with expected.npz "
          "(largest relative difference %.3g)" % (len(cases), len(cases) - len(failures), worst))
    for f in failures:
        print("FAIL " + f)
    return 1 if failures or len(cases) < 15 else 0


if __name__ == "__main__":
    sys.exit(main())
