#!/usr/bin/python3
"""ONNX Runtime or PyTorch as a runtime under `nnref fuzz --runtime ... --runtime-format onnx`
(docs/onnx.md, "Generated models"; docs/testing.md, "nnref fuzz"):

    onnx_fuzz_adapter.py ort|ort_optimized|torch [--ort-modules DIR] [--declined-log FILE]
        MODEL.onnx INPUT.npy|INPUT.npz OUTPUT.npz

Runs the ONNX model that `nnref fuzz` wrote, in float32 as runtime_campaign.py runs the node
tests: ort (onnxruntime-node through ort_run.js, graph optimizations disabled), ort_optimized (all
of them) or torch (torch_onnx.py, the ONNX graph node by node with torch functions). The input is
an .npy (a model with one graph input) or an .npz keyed by input name; each is passed in the
element type the model declares for it. The outputs are written as an .npz keyed by output name,
as nnref conform reads them.

Exits 77 when the runtime declines the model: ONNX Runtime refuses it (a kernel it lacks, such as
a Conv with dilations under auto_pad SAME_*) or torch_onnx.py does not map an op or attribute;
nnref fuzz counts it as declined, not as a failure, and the reason goes to stderr and is appended
as one line to --declined-log. Exits 2 when the model or input cannot be read (a failure: the
adapter must read every model nnref writes).
"""

import argparse
import os
import sys
import tempfile

import numpy as np
import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from ort_runtime import NotRun, run_ort  # noqa: E402

RUNTIMES = ("ort", "ort_optimized", "torch")
DECLINED = 77

# ONNX element types of graph inputs as NumPy's (what the ONNX writer declares: float, double,
# int64, bool).
INPUT_TYPES = {onnx.TensorProto.FLOAT: np.float32, onnx.TensorProto.DOUBLE: np.float64,
               onnx.TensorProto.INT64: np.int64, onnx.TensorProto.BOOL: np.bool_}


def graph_inputs(model_path):
    """[(name, NumPy type)] of the graph inputs that are not initializers, in graph order."""
    m = onnx.load(model_path)
    inits = {t.name for t in m.graph.initializer}
    out = []
    for i in m.graph.input:
        if i.name in inits:
            continue
        t = i.type.tensor_type.elem_type
        if t not in INPUT_TYPES:
            raise ValueError("graph input %s has element type %s" % (i.name, onnx.TensorProto.DataType.Name(t)))
        out.append((i.name, INPUT_TYPES[t]))
    return out


def read_inputs(model_path, input_path):
    """[(graph input name, array in its declared type)]."""
    names = graph_inputs(model_path)
    if input_path.endswith(".npz"):
        with np.load(input_path, allow_pickle=False) as z:
            missing = [n for n, _ in names if n not in z.files]
            if missing:
                raise ValueError("%s has no array for input %s" % (input_path, ", ".join(missing)))
            return [(n, z[n].astype(t)) for n, t in names]
    if len(names) != 1:
        raise ValueError("%s is one array, the model has %d inputs" % (input_path, len(names)))
    return [(names[0][0], np.load(input_path, allow_pickle=False).astype(names[0][1]))]


def answer(runtime, modules, model_path, inputs):
    if runtime == "torch":
        import torch_onnx  # torch only here: it takes seconds to import
        try:
            return torch_onnx.run(model_path, dict(inputs))
        except torch_onnx.Unmapped as e:
            raise NotRun("torch_onnx.py does not map %s" % e)
    with tempfile.TemporaryDirectory() as work:
        return run_ort(modules, model_path, inputs, work, "disabled" if runtime == "ort" else "all")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runtime", choices=RUNTIMES)
    ap.add_argument("model")
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--ort-modules", help="the node_modules folder holding onnxruntime-node")
    ap.add_argument("--declined-log", help="a file to which the reason of a declined model is appended")
    args = ap.parse_args(argv[1:])
    if args.runtime != "torch" and not args.ort_modules:
        ap.error("ort and ort_optimized need --ort-modules")
    try:
        inputs = read_inputs(args.model, args.input)
    except (OSError, ValueError) as e:
        sys.stderr.write("onnx_fuzz_adapter (%s): %s\n" % (args.runtime, e))
        return 2
    try:
        outs = answer(args.runtime, args.ort_modules, args.model, inputs)
    except NotRun as e:
        reason = " ".join(str(e).split())
        sys.stderr.write("onnx_fuzz_adapter (%s) declines: %s\n" % (args.runtime, reason))
        if args.declined_log:
            with open(args.declined_log, "a") as f:
                f.write(reason + "\n")
        return DECLINED
    np.savez(args.output, **outs)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
