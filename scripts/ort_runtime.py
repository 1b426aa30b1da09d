#!/usr/bin/python3
"""ONNX Runtime (npm onnxruntime-node, CPU) run from Python through ort_run.js: its installation
and one run of a model, for runtime_campaign.py and onnx_fuzz_adapter.py (no torch import here, so
that the adapter starts quickly)."""

import json
import os
import shutil
import subprocess

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ORT_VERSION = "1.30.0"


class NotRun(Exception):
    """The runtime does not run this model (an op it lacks, a type): counted, not judged."""


def ort_modules(cache, install):
    """The node_modules folder holding onnxruntime-node, or None (installed with --install)."""
    modules = os.path.join(cache, "node_modules")
    if os.path.isdir(os.path.join(modules, "onnxruntime-node")):
        return modules
    if install and shutil.which("npm") and shutil.which("node"):
        os.makedirs(cache, exist_ok=True)
        p = subprocess.run(["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund",
                            "onnxruntime-node@" + ORT_VERSION], cwd=cache, capture_output=True, text=True)
        if p.returncode == 0 and os.path.isdir(os.path.join(modules, "onnxruntime-node")):
            return modules
        print("npm install of onnxruntime-node failed: " + p.stderr.strip()[-300:])
    return None


# The element types ort_run.js passes and hands back (its names are NumPy's).
ORT_TYPES = ("float32", "float64", "float16", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "bool")


def run_ort(modules, model, inputs, work, optimization):
    """ORT's outputs {name: array} for inputs [(name, array)], through scripts/ort_run.js."""
    os.makedirs(work, exist_ok=True)
    feeds = []
    for k, (name, a) in enumerate(inputs):
        if str(a.dtype) not in ORT_TYPES:
            raise NotRun("input %s of type %s" % (name, a.dtype))
        f = os.path.join(work, "in%d.bin" % k)
        np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tofile(f)
        feeds.append({"name": name, "type": str(a.dtype), "dims": list(a.shape), "file": f})
    job = os.path.join(work, "job.json")
    with open(job, "w") as f:
        json.dump({"model": model, "optimization": optimization, "threads": 1, "inputs": feeds, "out_dir": work}, f)
    p = subprocess.run(["node", os.path.join(HERE, "ort_run.js"), job], capture_output=True, text=True,
                       env=dict(os.environ, NODE_PATH=modules), timeout=300)
    if p.returncode != 0:
        raise NotRun("ONNX Runtime: " + p.stderr.strip().splitlines()[-1][:200] if p.stderr.strip() else "failed")
    outs = {}
    with open(os.path.join(work, "outputs.json")) as f:
        for o in json.load(f):
            if o["type"] not in ORT_TYPES:
                raise NotRun("output %s of type %s" % (o["name"], o["type"]))
            outs[o["name"]] = np.fromfile(o["file"], dtype=np.dtype(o["type"]).newbyteorder("<")).reshape(o["dims"])
    return outs


def with_intermediates(model, work, names=None):
    """A copy of `model` in `work` whose graph also outputs the values `names` (default: every
    real-valued node output), typed by onnx.shape_inference; returns the copy's path and the names
    added. conform --intermediates judges ONNX Runtime's values of them (docs/conformance.md,
    "Judged at intermediate values")."""
    import onnx
    # The initializers' bytes are not needed: a model over protobuf's 2 GB, whose weights lie in
    # files beside it, is typed like any other, and its copy goes beside it (the files are named
    # relative to the model's folder).
    m = onnx.load(model, load_external_data=False)
    external = any(t.data_location == onnx.TensorProto.EXTERNAL for t in m.graph.initializer)
    path = os.path.join(os.path.dirname(os.path.abspath(model)) if external else work, "with_intermediates.onnx")
    m = onnx.shape_inference.infer_shapes(m)
    real = (onnx.TensorProto.FLOAT, onnx.TensorProto.DOUBLE, onnx.TensorProto.FLOAT16)
    types = {v.name: v.type.tensor_type.elem_type for v in m.graph.value_info}
    outputs = {o.name for o in m.graph.output}
    if names is None:
        names = [o for n in m.graph.node for o in n.output if types.get(o) in real]
    added = [n for n in names if n and n not in outputs]
    for n in added:
        m.graph.output.append(onnx.helper.make_tensor_value_info(n, types.get(n, onnx.TensorProto.FLOAT), None))
    onnx.save(m, path)
    return path, added


def run_ort_intermediates(modules, model, inputs, work, optimization, names=None):
    """ORT's outputs and its values of the intermediates `names` (with_intermediates), from one run
    of the copy: ({output: array}, {intermediate: array})."""
    os.makedirs(work, exist_ok=True)
    copy, added = with_intermediates(model, work, names)
    added = set(added)
    every = run_ort(modules, copy, inputs, work, optimization)
    return ({k: v for k, v in every.items() if k not in added}, {k: v for k, v in every.items() if k in added})
