#!/usr/bin/python3
"""An NNL example model (examples/*/model.nnl and its weights) written as an ONNX model with the onnx
package's helper API, for runtimes that read ONNX (scripts/runtime_campaign.py). Used while
`nnref convert --to onnx` has not landed on this branch.

    example_onnx.py MODEL.nnl OUT.onnx

The graph is the model's, op for op, nothing folded: the NHWC input ([1, H, W, C], as nnref and
the example's input.npy hold it) is transposed to NCHW, each layer becomes its ONNX op (Conv2D:
Conv with the explicit pads of NNL's "same", BatchNorm: BatchNormalization with its four
statistics, Dense: Gemm and its activation, MaxPool2D/AvgPool2D: MaxPool/AveragePool, Flatten:
a transpose back to NHWC and Flatten, as NNL flattens row-major over H, W, C), the preprocessing
(normalize_0_1: Div by 255; standardize: Sub mean, Div std) comes first, and NCHW outputs are
transposed back to NHWC. Weights are float32 initializers: the weight files' values.
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nnl_reference as ref  # noqa: E402

OPSET = 13


class Builder:
    def __init__(self):
        self.nodes, self.inits = [], []

    def const(self, name, array):
        self.inits.append(numpy_helper.from_array(np.asarray(array, dtype=np.float32), name))
        return name

    def node(self, op, inputs, name, **attrs):
        self.nodes.append(helper.make_node(op, inputs, [name], name=name, **attrs))
        return name


def conv_pads(size, k, s, padding):
    if padding != "same":
        return 0, 0
    before, after, _ = ref.same_padding(size, k, s)
    return before, after


def layer(b, lay, xs, w, spatial):
    """The ONNX nodes of one layer on NCHW (or [N, features]) inputs; returns the output name."""
    t, p, name = lay.type, lay.params, lay.id
    param = lambda role: w[(lay.id, role)]
    if t == "Conv2D":
        k, s = ref.pair(p["kernel"], "kernel"), ref.pair(p["stride"], "stride")
        (top, bottom), (left, right) = (conv_pads(spatial[xs[0]][i], k[i], s[i], p["padding"]) for i in range(2))
        return b.node("Conv", [xs[0], b.const(name + ".weight", param("weight")), b.const(name + ".bias", param("bias"))],
                      name, kernel_shape=list(k), strides=list(s), pads=[top, left, bottom, right])
    if t == "BatchNorm":
        ins = [xs[0]] + [b.const(name + "." + r, param(r)) for r in ("gamma", "beta", "running_mean", "running_var")]
        return b.node("BatchNormalization", ins, name, epsilon=float(p["epsilon"]))
    if t in ("MaxPool2D", "AvgPool2D"):
        k = ref.pair(p["kernel"], "kernel")
        s = k if p["stride"] is None else ref.pair(p["stride"], "stride")
        return b.node("MaxPool" if t == "MaxPool2D" else "AveragePool", [xs[0]], name, kernel_shape=list(k), strides=list(s))
    if t == "Flatten":
        nhwc = b.node("Transpose", [xs[0]], name + ".nhwc", perm=[0, 2, 3, 1]) if xs[0] in spatial else xs[0]
        return b.node("Flatten", [nhwc], name, axis=1)
    if t == "Dense":
        act = p["activation"]
        y = b.node("Gemm", [xs[0], b.const(name + ".weight", param("weight")), b.const(name + ".bias", param("bias"))],
                   name if act == "none" else name + ".linear")
        if act == "none":
            return y
        op = {"relu": "Relu", "sigmoid": "Sigmoid", "softmax": "Softmax"}[act]
        return b.node(op, [y], name, **({"axis": -1} if op == "Softmax" else {}))
    if t == "Add":
        y = xs[0]
        for k, x in enumerate(xs[1:]):
            y = b.node("Add", [y, x], name if k == len(xs) - 2 else "%s.%d" % (name, k))
        return y
    if t in ("ReLU", "Sigmoid", "Dropout"):
        return b.node({"ReLU": "Relu", "Sigmoid": "Sigmoid", "Dropout": "Identity"}[t], [xs[0]], name)
    if t == "Softmax" and p["axis"] == -1:
        return b.node("Softmax", [xs[0]], name, axis=1 if xs[0] in spatial else -1)
    raise SystemExit("example_onnx.py: layer %s (%s) is not supported" % (lay.id, t))


def out_spatial(lay, xs, spatial):
    """The output's [H, W] for a 4-D result, None otherwise (shape bookkeeping for SAME pads)."""
    t, p = lay.type, lay.params
    if t in ("Flatten", "Dense") or xs[0] not in spatial:
        return None
    h, w = spatial[xs[0]]
    if t == "Conv2D":
        k, s = ref.pair(p["kernel"], "kernel"), ref.pair(p["stride"], "stride")
        if p["padding"] == "same":
            return [-(-h // s[0]), -(-w // s[1])]
        return [(h - k[0]) // s[0] + 1, (w - k[1]) // s[1] + 1]
    if t in ("MaxPool2D", "AvgPool2D"):
        k = ref.pair(p["kernel"], "kernel")
        s = k if p["stride"] is None else ref.pair(p["stride"], "stride")
        return [(h - k[0]) // s[0] + 1, (w - k[1]) // s[1] + 1]
    return [h, w]


def build(model_path):
    m = ref.load_model(model_path)
    w = {k: v.astype(np.float32) for k, v in ref.load_weights(m).items()}
    b = Builder()
    (in_id,) = [lid for lid in m.order if m.by_id[lid].type == "Input"]
    shape = [1] + list(m.by_id[in_id].params["shape"])
    x = "input"
    spatial = {}
    if len(shape) == 4:
        x = b.node("Transpose", [x], "input.nchw", perm=[0, 3, 1, 2])
        spatial[x] = shape[1:3]
    mode = m.config.get("preprocess", "none")
    if mode == "normalize_0_1":
        x = b.node("Div", [x, b.const("preprocess.scale", 255.0)], "preprocess")
    elif mode == "standardize":
        view = (1, -1, 1, 1) if len(shape) == 4 else (1, -1)
        mean = np.array(m.config["preprocess_mean"], dtype=np.float32).reshape(view)
        std = np.array(m.config["preprocess_std"], dtype=np.float32).reshape(view)
        x = b.node("Div", [b.node("Sub", [x, b.const("preprocess.mean", mean)], "preprocess.centred"),
                           b.const("preprocess.std", std)], "preprocess")
    elif mode != "none":
        raise SystemExit("example_onnx.py: preprocess %r is not supported" % mode)
    if len(shape) == 4:
        spatial[x] = shape[1:3]
    names = {in_id: x}
    for lid in m.order:
        lay = m.by_id[lid]
        if lay.type == "Input":
            continue
        xs = [names[s] for s in lay.inputs]
        names[lid] = layer(b, lay, xs, w, spatial)
        sp = out_spatial(lay, xs, spatial)
        if sp:
            spatial[names[lid]] = sp
    outputs = []
    for o in m.outputs:
        if names[o] in spatial:  # the layer's NCHW result renamed, its NHWC transpose named as the output
            for n in b.nodes:
                n.input[:] = [v + ".nchw" if v == o else v for v in n.input]
                n.output[:] = [v + ".nchw" if v == o else v for v in n.output]
            b.nodes.append(helper.make_node("Transpose", [o + ".nchw"], [o], name=o + ".to_nhwc", perm=[0, 2, 3, 1]))
        outputs.append(helper.make_tensor_value_info(o, TensorProto.FLOAT, None))
    graph = helper.make_graph(b.nodes, m.name, [helper.make_tensor_value_info("input", TensorProto.FLOAT, shape)],
                              outputs, b.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="nnref example_onnx.py")
    model.ir_version = 7  # readable by ONNX 1.12 and ONNX Runtime
    g = onnx.shape_inference.infer_shapes(model).graph
    inferred = {v.name: v for v in list(g.value_info) + list(g.output)}
    for out in model.graph.output:  # the output shapes, as ONNX's shape inference gives them
        out.type.CopyFrom(inferred[out.name].type)
    onnx.checker.check_model(model)
    return model


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    onnx.save(build(sys.argv[1]), sys.argv[2])


if __name__ == "__main__":
    main()
