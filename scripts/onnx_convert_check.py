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

# Models that ONNX, as nnref reads it, cannot hold: each must be refused with convert.unexpressible.
EXPECTED_REFUSALS = {
    "tests/data/nnef/crosscheck/logic": "comparisons and logical values: nnref's ONNX reader reads real tensors only",
    "tests/data/nnef/crosscheck/windows": "box without normalization: a sum pool, which ONNX has no pool for",
    "tests/data/nnef/crosscheck/resample": "multilinear_upsample with border 'reflect-even': ONNX's Pad has no such mode",
    "tests/data/nnef/crosscheck/borders": "conv with border 'reflect-even': ONNX's Pad has no such mode",
    "tests/data/nnef/crosscheck/roi": "avg_roi_pool: ONNX has no region-of-interest op with NNEF's formula",
    "tests/data/nnef/crosscheck/sample": "argmax_pool: ONNX's MaxPool indices count over the whole input, not the window",
}


def models(scratch):
    found = [(m, m) for m in sorted(glob.glob("examples/*/model.nnl") + glob.glob("tests/data/golden/*/model.nnl"))]
    for k, src in enumerate(nnef_reference.CROSSCHECK_MODELS):
        dst = os.path.join(scratch, "nnef%d" % k)
        shutil.copytree(src, dst)
        nnef_reference.write_weights(dst, k + 1)
        found.append((src, dst))
    return found


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--nnref", required=True)
    a = p.parse_args()
    failures, refused = [], 0
    with tempfile.TemporaryDirectory(prefix="nnref_onnx_convert_") as scratch:
        all_models = models(scratch)
        for k, (src, model) in enumerate(all_models):
            out = os.path.join(scratch, "m%d.onnx" % k)
            r = subprocess.run([a.nnref, "convert", model, out, "--to", "onnx"], capture_output=True, text=True)
            if src in EXPECTED_REFUSALS:
                if r.returncode == 1 and "convert.unexpressible" in r.stderr:
                    refused += 1
                else:
                    failures.append("%s: expected convert.unexpressible (%s), got exit %d: %s"
                                    % (src, EXPECTED_REFUSALS[src], r.returncode, r.stderr.strip()))
                continue
            if r.returncode != 0:
                failures.append("%s: nnref convert exited %d: %s" % (model, r.returncode, r.stderr.strip()))
                continue
            try:
                onnx.checker.check_model(onnx.load(out), full_check=True)
            except Exception as e:  # the checker's ValidationError, inference errors
                failures.append("%s: %s" % (model, e))
        print("onnx.checker (full_check) on %d converted models: %d accepted; %d refused as expected"
              % (len(all_models) - refused, len(all_models) - refused - len(failures), refused))
    for f in failures:
        print("FAIL " + f)
    return 1 if failures or len(all_models) < 18 else 0


if __name__ == "__main__":
    sys.exit(main())
