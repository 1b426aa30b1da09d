#!/usr/bin/python3
"""nnref convert on the ONNX backend node tests: each converted model runs as the original.

For every node-test case (libonnx-testdata) whose model `nnref run` evaluates from its
test_data_set_0 inputs, `nnref convert` writes it as ONNX, as NNEF, as NNL and as NNEF 2.0; each converted model
that is written must run on the same inputs to the same float32 outputs, bit for bit, and
the ONNX one must pass onnx.checker.check_model(full_check=True). A refusal
(convert.unexpressible, NNEF's usage.dim-required, or shape.data-dependent-size: a size the model
computes from its inputs' data, which convert, given no inputs, cannot plan) is counted, not a
failure; so is a model that `run` reads only with graph inputs bound to their values at load
(note[onnx.input-bound]), which convert, given no values, refuses by name
(onnx.input-not-constant, onnx.type-unsupported).

Usage:
    convert_node_tests.py --nnref BIN [--data DIR] [--formats onnx,nnef,nnl,nnef2] [--verbose]
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper

DEFAULT_DATA = "/usr/share/libonnx-testdata/data/node"


def run(nnref, model, inputs, out):
    cmd = [nnref, "run", model, "--precision", "f32", "--output", out, "--quiet"]
    for i in inputs:
        cmd += ["--input", i]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60)


def outputs(path):
    z = np.load(path)
    return [z[k] for k in z.files]


FORMATS = ("onnx", "nnef", "nnl", "nnef2")


def written_path(scratch, name, fmt):
    return os.path.join(scratch, name + ".onnx") if fmt == "onnx" else os.path.join(scratch, name + "_" + fmt)


def case(nnref, case_dir, scratch, counts, failures, refusals, formats):
    data = os.path.join(case_dir, "test_data_set_0")
    if not os.path.isdir(data):
        return
    inputs = sorted((os.path.join(data, f) for f in os.listdir(data) if f.startswith("input_")),
                    key=lambda f: int(os.path.basename(f)[6:-3]))
    name = os.path.basename(case_dir)
    original = os.path.join(scratch, name + ".npz")
    if not inputs:
        return
    ran = run(nnref, os.path.join(case_dir, "model.onnx"), inputs, original)
    if ran.returncode != 0:
        return
    counts["run"] += 1
    # run bound graph inputs it reads at load to their values; convert has none, and refuses them by name.
    bound = "note[onnx.input-bound]" in ran.stderr
    counts["bound"] += bound
    want = outputs(original)
    for fmt in formats:
        out = written_path(scratch, name, fmt)
        c = subprocess.run([nnref, "convert", os.path.join(case_dir, "model.onnx"), out, "--to", fmt],
                           capture_output=True, text=True, timeout=60)
        refused = re.search(r"error\[(convert\.unexpressible|usage\.dim-required|shape\.data-dependent-size)\]", c.stderr)
        if c.returncode != 0:
            if bound and re.search(r"error\[onnx\.(input-not-constant|type-unsupported)\]", c.stderr):
                counts[fmt + " refused bound"] += 1
                continue
            if refused:
                counts[fmt + " refused"] += 1
                refusals.append("%s --to %s: %s" % (name, fmt, c.stderr.strip().splitlines()[-1]))
                continue
            failures.append("%s --to %s: exit %d: %s" % (name, fmt, c.returncode, c.stderr.strip()))
            continue
        counts[fmt + " written"] += 1
        if fmt == "onnx":
            try:
                onnx.checker.check_model(onnx.load(out), full_check=True)
            except Exception as e:  # the checker's ValidationError, inference errors
                failures.append("%s --to onnx: onnx.checker: %s" % (name, str(e).splitlines()[0]))
                continue
        got_path = os.path.join(scratch, name + "_" + fmt + ".npz")
        converted = os.path.join(out, "model.nnl") if fmt == "nnl" else out
        r = run(nnref, converted, inputs, got_path)
        if r.returncode != 0 and "error[io.input-count]" in r.stderr:
            # An input declared with an extent 0 is an empty value the reader folds (docs/onnx.md,
            # "Empty values"): the converted model has no such input.
            nonempty = [i for i in inputs if numpy_helper.to_array(onnx.load_tensor(i)).size > 0]
            if len(nonempty) < len(inputs):
                r = run(nnref, converted, nonempty, got_path)
        if r.returncode != 0:
            failures.append("%s --to %s: the converted model does not run: %s" % (name, fmt, r.stderr.strip()))
            continue
        got = outputs(got_path)
        if len(got) != len(want) or any(g.shape != w.shape or g.tobytes() != w.tobytes() for g, w in zip(got, want)):
            failures.append("%s --to %s: outputs differ from the original's" % (name, fmt))
            continue
        counts[fmt + " same outputs"] += 1


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--nnref", required=True)
    p.add_argument("--data", default=DEFAULT_DATA)
    p.add_argument("--formats", default=",".join(FORMATS), help="the formats to write, of " + ",".join(FORMATS))
    p.add_argument("--verbose", action="store_true")
    a = p.parse_args()
    formats = a.formats.split(",")
    counts = collections.Counter()
    failures, refusals = [], []
    with tempfile.TemporaryDirectory(prefix="nnref_convert_node_") as scratch:
        for d in sorted(os.listdir(a.data)):
            case(a.nnref, os.path.join(a.data, d), scratch, counts, failures, refusals, formats)
    print("node-test models nnref runs: %d (%d with inputs bound at load)" % (counts["run"], counts["bound"]))
    for fmt in formats:
        print("  --to %s: %d written (%d with the same float32 outputs), %d refused, %d refused for an input "
              "bound at load" % (fmt, counts[fmt + " written"], counts[fmt + " same outputs"], counts[fmt + " refused"],
                                 counts[fmt + " refused bound"]))
    if a.verbose:
        for r in refusals:
            print("refused " + r)
    for f in failures:
        print("FAIL " + f)
    return 1 if failures or counts["run"] == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
