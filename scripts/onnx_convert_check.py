#!/usr/bin/python3
"""onnx's own checker on every model `nnref convert --to onnx` writes.

Converts every example model, every golden case and the NNEF test models (with random
weights written by nnef_reference.py) to ONNX in a temporary folder, and runs
onnx.checker.check_model(model, full_check=True) on each: the ModelProto, the opset-17
op schemas, and shape and type inference over the whole graph must accept it.

Usage:
    onnx_convert_check.py --nnref BIN
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile

import onnx

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nnef_reference  # noqa: E402  (its .dat writer, for the NNEF models' weights)


def models(scratch):
    found = sorted(glob.glob("examples/*/model.nnl") + glob.glob("tests/data/golden/*/model.nnl"))
    for k, src in enumerate(nnef_reference.CROSSCHECK_MODELS):
        dst = os.path.join(scratch, "nnef%d" % k)
        shutil.copytree(src, dst)
        nnef_reference.write_weights(dst, k + 1)
        found.append(dst)
    return found


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--nnref", required=True)
    a = p.parse_args()
    failures = []
    with tempfile.TemporaryDirectory(prefix="nnref_onnx_convert_") as scratch:
        all_models = models(scratch)
        for k, model in enumerate(all_models):
            out = os.path.join(scratch, "m%d.onnx" % k)
            r = subprocess.run([a.nnref, "convert", model, out, "--to", "onnx"], capture_output=True, text=True)
            if r.returncode != 0:
                failures.append("%s: nnref convert exited %d: %s" % (model, r.returncode, r.stderr.strip()))
                continue
            try:
                onnx.checker.check_model(onnx.load(out), full_check=True)
            except Exception as e:  # the checker's ValidationError, inference errors
                failures.append("%s: %s" % (model, e))
        print("onnx.checker (full_check) on %d converted models: %d accepted"
              % (len(all_models), len(all_models) - len(failures)))
    for f in failures:
        print("FAIL " + f)
    return 1 if failures or len(all_models) < 18 else 0


if __name__ == "__main__":
    sys.exit(main())
