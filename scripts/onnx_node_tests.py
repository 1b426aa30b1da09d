#!/usr/bin/python3
"""The ONNX backend node tests (Debian's libonnx-testdata) through nnref's f64 oracle.

For every case folder (model.onnx, test_data_set_0/input_*.pb, output_*.pb): `nnref run` the model
in f64 on the inputs and compare each output with the expected one at rtol 1e-3 / atol 1e-7
(numpy.allclose, NaN equal to NaN, shapes equal). A case whose model the front-end refuses with
an onnx.* code (an op, attribute or type nnref does not read) is unsupported; every other case is
supported and either passes or fails. Prints the counts and each failure; exits 1 when any
supported case fails (or when the data is missing).

The node tests feed every operand as a graph input, weights, shapes and axes included; nnref reads
those at load time (Conv's weight is a parameter, Reshape's shape an attribute of the IR op). When
the reader refuses a case because such an input is not constant (onnx.input-not-constant) or not
a float tensor (onnx.type-unsupported on a graph input), the input named in the message is moved,
with the test's own value, into the model's initializers, and the case runs again: the same
computation on the same numbers. Those cases are counted as "with constant inputs".

  /usr/bin/python3 scripts/onnx_node_tests.py --nnref build/nnref [--data DIR] [--filter SUBSTRING] [--jobs 2]
"""
import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper

DEFAULT_DATA = "/usr/share/libonnx-testdata/data/node"
RTOL, ATOL = 1e-3, 1e-7


def read_pb(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def constant_input(message, model):
    """The graph input a refusal asks to be constant, or None."""
    names = set(re.findall(r"'([^']*)'", message))
    inits = {i.name for i in model.graph.initializer}
    for i in model.graph.input:
        if i.name in names and i.name not in inits and i.type.HasField("tensor_type"):
            return i.name
    return None


def run_case(nnref, case_dir, scratch):
    """('unsupported', code detail) | ('skipped', why) | ('passed', note) | ('failed', why); note says when
    inputs became constants"""
    data = os.path.join(case_dir, "test_data_set_0")
    inputs = sorted((f for f in os.listdir(data) if f.startswith("input_")), key=lambda f: int(f[6:-3]))
    outputs = sorted((f for f in os.listdir(data) if f.startswith("output_")), key=lambda f: int(f[7:-3]))
    model = onnx.load(os.path.join(case_dir, "model.onnx"), load_external_data=False)
    path = os.path.join(case_dir, "model.onnx")
    graph_inputs = [i.name for i in model.graph.input if i.name not in {t.name for t in model.graph.initializer}]
    if not graph_inputs:
        return "skipped", "no graph input (nnref run requires at least one --input)"
    feeds = dict(zip(graph_inputs, (os.path.join(data, f) for f in inputs)))
    made_constant = []
    out = os.path.join(scratch, os.path.basename(case_dir) + ".npz")
    while True:
        cmd = [nnref, "run", path, "--precision", "f64", "--output", out, "--quiet"]
        for name in graph_inputs:
            if name in feeds:
                cmd += ["--input", feeds[name]]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            return "failed", "timed out"
        refused = re.search(r"error\[(onnx\.[a-z-]+)\]: ([^\n]*)", p.stderr)
        if p.returncode == 0 or not refused:
            break
        name = None
        if refused.group(1) in ("onnx.input-not-constant", "onnx.type-unsupported"):
            name = constant_input(refused.group(2), model)
        if name is None or name not in feeds or len(graph_inputs) == 1:
            return "unsupported", refused.group(1) + ": " + refused.group(2)
        model.graph.initializer.append(numpy_helper.from_array(read_pb(feeds.pop(name)), name))
        graph_inputs.remove(name)
        made_constant.append(name)
        path = os.path.join(scratch, os.path.basename(case_dir) + ".onnx")
        onnx.save(model, path)
    if p.returncode != 0:
        return "failed", "exit %d: %s" % (p.returncode, p.stderr.strip().splitlines()[0] if p.stderr else "")
    got = np.load(out)
    for k, f in enumerate(outputs):
        name = model.graph.output[k].name
        want = read_pb(os.path.join(data, f))
        if name not in got:
            return "failed", "no output %s" % name
        have = got[name]
        if have.shape != want.shape:
            return "failed", "output %s: shape %s, expected %s" % (name, have.shape, want.shape)
        if not np.allclose(have, want.astype(np.float64), rtol=RTOL, atol=ATOL, equal_nan=True):
            bad = np.argmax(np.abs(have - want) - (ATOL + RTOL * np.abs(want)))
            return "failed", "output %s: element %d is %r, expected %r" % (
                name, bad, have.flat[bad], want.flat[bad])
    return "passed", ("constant inputs: " + ", ".join(made_constant)) if made_constant else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nnref", required=True)
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--filter", default="")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--list-unsupported", action="store_true", help="print each unsupported case and why")
    args = ap.parse_args()
    if not os.path.isdir(args.data):
        print("no node tests at %s (Debian package libonnx-testdata)" % args.data)
        return 1
    cases = sorted(d for d in os.listdir(args.data) if args.filter in d)
    results = {}
    with tempfile.TemporaryDirectory() as scratch, concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(run_case, args.nnref, os.path.join(args.data, c), scratch): c for c in cases}
        for fut in concurrent.futures.as_completed(futures):
            results[futures[fut]] = fut.result()
    counts = collections.Counter(r[0] for r in results.values())
    reasons = collections.Counter(r[1].split(":")[0] for r in results.values() if r[0] == "unsupported")
    for c in sorted(results):
        status, why = results[c]
        if status in ("failed", "skipped") or (status == "unsupported" and args.list_unsupported):
            print("%s %s: %s" % (status.upper(), c, why))
    supported = counts["passed"] + counts["failed"]
    constant = sum(1 for r in results.values() if r[0] == "passed" and r[1])
    print("unsupported by code: " + ", ".join("%s %d" % kv for kv in sorted(reasons.items())))
    print("node tests: %d cases, %d supported, %d unsupported, %d skipped" % (
        len(cases), supported, counts["unsupported"], counts["skipped"]))
    print("passed with constant inputs: %d" % constant)
    print("%d passed, %d failed" % (counts["passed"], counts["failed"]))
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
