#!/usr/bin/python3
"""`nnref convert --to nnef2` round trips: the written SkriptND folder reads back as the same model.

For every example (examples/*/model.nnl), golden case (tests/data/golden), NNEF 1.0 test model
(tests/data/nnef, with random weights written by nnef_reference.py), NNEF 2.0 test model
(tests/data/nnef2, random float32 variables) and ONNX test model (tests/data/onnx): convert it to
NNEF 2.0, require `nnref check` of the written folder to pass, and run the source and the written
model with `run --precision f64` on the same inputs: every output must be the same, bit for bit.
A model whose ops NNEF 2.0 cannot express must be refused with convert.unexpressible located at the
node named in REFUSED, at its line and column. An NNEF 1.0 graph, an ONNX LogSoftmax and ONNX views, PRelu, Split, Expand and Cast written here make round trips of the ops the test models leave out, and so do two ONNX models of the ops written as nn.deconv, math.cumsum, a composition (layer norm) and operators of the document (round to even, leaky relu with alpha 2, prelu along two axes, argmax and argmin with ties to the last index, range, int division and fmod). Then models written for refusals: ONNX models
each with one op NNEF 2.0 cannot express, refused with convert.unexpressible at that node and nothing
written, an open size without --dim (usage.dim-required), and an ONNX dim_param kept as an int graph
attribute, which `check --dim N=1..64` proves for every size.

Usage:
    sknd_convert_check.py --nnref BIN [--keep DIR] [--verbose]
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nnef_reference  # noqa: E402  (NNEF 1.0's graph reader and .dat writer)

# Source models of tests/data that NNEF 2.0 (as nnref reads it) cannot express: the node refused,
# and where the source states it.
REFUSED = {
    "nnef/crosscheck/roi": ("ap", "graph.nnef:13:10"),  # avg_roi_pool
    "nnef/crosscheck/sample": ("j1", "graph.nnef:10:14"),  # argmax_pool
    "nnef2/lowered": ("a", "main.sknd:25:13"),  # a contraction program (math.clamp's @lower, as run)
}
# Source models nnref itself refuses to read: nothing to convert.
UNREAD = {"nnef2/alexnet_draft"}  # the draft's AlexNet, linear on a rank-4 input (nnef2.compose.shape)
# Source models whose int and bool variables this script does not write (scripts/sknd_reference.py
# runs them).
UNWRITTEN_DATA = {"nnef2/kinds"}


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def input_shapes(nnref, model):
    """The inputs' names and shapes, as `nnref inspect` lists them."""
    r = run([nnref, "inspect", model])
    if r.returncode != 0:
        raise RuntimeError("inspect %s: %s" % (model, r.stderr))
    shapes = []
    for line in r.stdout.splitlines():
        m = re.match(r"(\S+)\s+input\s+\[([0-9, ]*)\]", line)
        if m:
            shapes.append((m.group(1), [int(e) for e in m.group(2).split(",") if e.strip()]))
    return shapes


def random_inputs(nnref, model, work, seed):
    rng = np.random.default_rng(seed)
    paths = []
    for k, (name, shape) in enumerate(input_shapes(nnref, model)):
        path = os.path.join(work, "input%d.npy" % k)
        np.save(path, rng.standard_normal(shape))
        paths.append(path)
    return paths


def nnef2_with_variables(source, work, seed):
    """A copy of an NNEF 2.0 test folder with random float32 variables (main.<Graph>.<name>.dat)."""
    folder = os.path.join(work, "source")
    os.makedirs(folder)
    text = open(os.path.join(source, "main.sknd")).read()
    shutil.copy(os.path.join(source, "main.sknd"), folder)
    graph = re.search(r"graph\s+(\w+)", text).group(1)
    sizes = dict(re.findall(r"(\w+)\s*:\s*int\s*=\s*(\d+)\s*;", text))  # the graph's int attributes
    block = re.search(r"@variable\s*\{(.*?)\}", text, re.S)
    rng = np.random.default_rng(seed)
    for name, extents in re.findall(r"(\w+)\s*:\s*real\[([\w, ]*)\]", block.group(1) if block else ""):
        shape = [int(sizes.get(e.strip(), e)) for e in extents.split(",")]
        values = rng.uniform(0.5, 1.5, size=shape)  # positive: variances among them
        nnef_reference.write_dat(os.path.join(folder, "main.%s.%s.dat" % (graph, name)), values)
    return folder


def nnef_with_weights(source, work, seed):
    folder = os.path.join(work, "source")
    shutil.copytree(source, folder)
    nnef_reference.write_weights(folder, seed)
    return folder


def outputs(path):
    z = np.load(path)
    return [(k, z[k]) for k in z.files]


def round_trip(nnref, name, model, inputs, work, result, convert_args=()):
    """Converts `model`; a refusal must be the expected one, a written model must check and agree."""
    out = os.path.join(work, "written")
    c = run([nnref, "convert", model, out, "--to", "nnef2"] + list(convert_args))
    if name in REFUSED:
        node, where = REFUSED[name]
        want = "%s: error[convert.unexpressible]: NNEF 2.0 cannot express node '%s'" % (where, node)
        if c.returncode == 1 and want in c.stderr:
            result["refused"].append("%s: %s" % (name, next(l for l in c.stderr.splitlines() if want in l)))
        else:
            result["failures"].append("%s: expected convert.unexpressible at %s, got exit %d: %s" %
                                      (name, want, c.returncode, c.stderr.strip()))
        return
    if c.returncode != 0:
        result["failures"].append("%s: convert exited %d: %s" % (name, c.returncode, c.stderr.strip()))
        return
    ck = run([nnref, "check", out])
    if ck.returncode != 0:
        result["failures"].append("%s: check of the written model: %s" % (name, (ck.stdout + ck.stderr).strip()))
        return
    answers = []
    for tag, m in (("source", model), ("written", out)):
        path = os.path.join(work, tag + ".npz")
        cmd = [nnref, "run", m, "--precision", "f64", "--quiet", "--output", path]
        for i in inputs:
            cmd += ["--input", i]
        r = run(cmd)
        if r.returncode != 0:
            result["failures"].append("%s: run of the %s model: %s" % (name, tag, r.stderr.strip()))
            return
        answers.append(outputs(path))
    source, written = answers
    if [k for k, _ in source] != [k for k, _ in written]:
        result["failures"].append("%s: outputs %s, written %s" % (name, [k for k, _ in source], [k for k, _ in written]))
        return
    for (k, a), (_, b) in zip(source, written):
        if a.shape != b.shape or a.tobytes() != b.tobytes():
            worst = float(np.max(np.abs(a - b))) if a.shape == b.shape else float("nan")
            result["failures"].append("%s: output %s differs (largest difference %.3g)" % (name, k, worst))
            return
    result["same"].append(name)


# The ops the test models above leave out, as NNEF 1.0 writes them: round, clamp with a > b (NNEF's
# clamp gives a there), pad in every border, slice (with negative strides too), a max pool and an average pool over a border of
# zeros, add_n of three, elu, leaky_relu, prelu, min_reduce, argmax over two axes (x in halves: ties).
OPS_GRAPH = """version 1.0;

graph Ops( x, y ) -> ( r, c, p1, p2, p3, s1, s2, m, a, q, e, l, v, n, t, i )
{
    x = external(shape = [1, 2, 5, 6]);
    y = external(shape = [1, 2, 5, 6]);
    r = round(x);
    c = clamp(x, 0.5, -0.5);
    p1 = pad(x, padding = [(0, 0), (0, 0), (1, 2), (2, 1)], border = 'reflect');
    p2 = pad(x, padding = [(0, 0), (1, 0), (2, 2), (0, 3)], border = 'replicate');
    p3 = pad(x, padding = [(0, 0), (0, 0), (1, 2), (3, 1)], border = 'reflect-even');
    s1 = slice(x, axes = [2, 3], begin = [1, -5], end = [5, 5], stride = [2, 1]);
    s2 = slice(x, axes = [2, 3], begin = [-1, 4], end = [-6, 0], stride = [-2, -1]);
    m = max_pool(x, size = [1, 1, 3, 3], border = 'constant', padding = [(0, 0), (0, 0), (1, 1), (1, 1)],
                 stride = [1, 1, 2, 2]);
    a = add_n([x, y, x]);
    q = avg_pool(y, size = [1, 1, 2, 3], border = 'constant', padding = [(0, 0), (0, 0), (1, 0), (1, 1)]);
    e = elu(x, alpha = 0.7);
    l = leaky_relu(y, alpha = 0.3);
    w = variable(shape = [1, 2], label = 'slope');
    v = prelu(x, w);
    n = min_reduce(x, axes = [1, 3]);
    t = pad(y, padding = [(0, 0), (0, 0), (1, 1), (2, 0)], border = 'constant', value = 1.5);
    k = argmax_reduce(x, axes = [1, 3]);
    i = cast<scalar>(k);
}
"""


def ops_model(work):
    """OPS_GRAPH with a random slope, and inputs: x in halves (round's ties among them), y normal."""
    folder = os.path.join(work, "source")
    os.makedirs(folder)
    with open(os.path.join(folder, "graph.nnef"), "w") as f:
        f.write(OPS_GRAPH)
    nnef_reference.write_weights(folder, 3)
    rng = np.random.default_rng(1)
    inputs = [os.path.join(work, "x.npy"), os.path.join(work, "y.npy")]
    np.save(inputs[0], np.round(rng.standard_normal((1, 2, 5, 6)) * 4) / 2)
    np.save(inputs[1], rng.standard_normal((1, 2, 5, 6)))
    return folder, inputs


def onnx_model(path, nodes, inputs, outputs, initializers=()):
    """An ONNX model of `nodes` (opset 17): inputs and outputs as (name, dims), dims ints or names."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    def info(name, dims):
        return helper.make_tensor_value_info(name, TensorProto.FLOAT, dims)
    graph = helper.make_graph(nodes, "g", [info(*i) for i in inputs], [info(*o) for o in outputs],
                              [numpy_helper.from_array(np.asarray(v, dtype=np.float32), n) for n, v in initializers])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)


def log_softmax_model(work_root):
    """LogSoftmax over axis 1 of [2, 5, 3], which the writer composes of standard operators."""
    from onnx import helper
    work = os.path.join(work_root, "log_softmax")
    os.makedirs(work)
    path = os.path.join(work, "log_softmax.onnx")
    onnx_model(path, [helper.make_node("LogSoftmax", ["x"], ["y"], name="lsm", axis=1)], [("x", [2, 5, 3])],
               [("y", [2, 5, 3])])
    inputs = [os.path.join(work, "x.npy")]
    np.save(inputs[0], np.random.default_rng(4).standard_normal((2, 5, 3)) * 30)  # exp underflows at some
    return path, inputs


def views_model(work_root):
    """Flatten of a rank-1 input, Reshape of a scalar and PRelu with one slope, which layout.flatten,
    layout.reshape and nn.prelu take only through another form (unsqueeze, a rank-1 slope); Split
    (slices), Expand (layout.broadcast) and Cast to double (a copy)."""
    from onnx import TensorProto, helper, numpy_helper
    work = os.path.join(work_root, "views")
    os.makedirs(work)
    path = os.path.join(work, "views.onnx")
    nodes = [helper.make_node("Flatten", ["v"], ["f"], name="flat", axis=1),
             helper.make_node("Reshape", ["s", "dims"], ["r"], name="grown"),
             helper.make_node("PRelu", ["x", "slope"], ["p"], name="leaky"),
             helper.make_node("Split", ["x", "parts"], ["a", "b"], name="halves", axis=1),
             helper.make_node("Expand", ["v", "wide"], ["e"], name="rows"),
             helper.make_node("Cast", ["v"], ["c"], name="widened", to=TensorProto.DOUBLE)]
    onnx_model(path, nodes, [("v", [5]), ("s", []), ("x", [2, 3, 4])],
               [("f", [5, 1]), ("r", [1, 1]), ("p", [2, 3, 4]), ("a", [2, 2, 4]), ("b", [2, 1, 4]), ("e", [3, 5])],
               [("slope", np.float32(0.25))])
    import onnx
    m = onnx.load(path)
    for name, values in (("dims", [1, 1]), ("parts", [2, 1]), ("wide", [3, 1])):
        m.graph.initializer.append(numpy_helper.from_array(np.array(values, dtype=np.int64), name))
    m.graph.output.append(helper.make_tensor_value_info("c", TensorProto.DOUBLE, [5]))
    onnx.save(m, path)
    rng = np.random.default_rng(6)
    inputs = []
    for name, shape in (("v", (5,)), ("s", ()), ("x", (2, 3, 4))):
        inputs.append(os.path.join(work, name + ".npy"))
        np.save(inputs[-1], rng.standard_normal(shape))
    return path, inputs


def typed_model(path, nodes, inputs, outputs, initializers=()):
    """An ONNX model (opset 17) whose inputs and outputs are (name, dims, TensorProto type) and whose
    initializers are (name, NumPy array of its own dtype)."""
    import onnx
    from onnx import helper, numpy_helper
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info(n, t, d) for n, d, t in inputs],
                              [helper.make_tensor_value_info(n, t, d) for n, d, t in outputs],
                              [numpy_helper.from_array(v, n) for n, v in initializers])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)


def new_ops_model(work_root):
    """The ops the writer writes as standard operators mapped natively (ConvTranspose as nn.deconv,
    CumSum as math.cumsum), composes (LayerNormalization), or defines in the document (Round to even,
    LeakyRelu with alpha 2, PRelu with a slope along two axes, ArgMax and ArgMin with ties to the last
    index, Range of reals): x in halves, so that Round meets ties and ArgMax equal values."""
    from onnx import TensorProto, helper
    F = TensorProto.FLOAT
    work = os.path.join(work_root, "new_ops")
    os.makedirs(work)
    path = os.path.join(work, "new_ops.onnx")
    rng = np.random.default_rng(8)
    nodes = [helper.make_node("Round", ["x"], ["r"], name="rnd"),
             helper.make_node("LeakyRelu", ["x"], ["l"], name="leaky", alpha=2.0),
             helper.make_node("PRelu", ["x", "slope"], ["p"], name="prelu2"),
             helper.make_node("ArgMax", ["x"], ["ai"], name="am", axis=1, select_last_index=1),
             helper.make_node("Cast", ["ai"], ["a"], name="am_real", to=F),
             helper.make_node("ArgMin", ["x"], ["bi"], name="an", axis=2, keepdims=0, select_last_index=1),
             helper.make_node("Cast", ["bi"], ["b"], name="an_real", to=F),
             helper.make_node("CumSum", ["y", "axis"], ["c"], name="cs", exclusive=1, reverse=1),
             helper.make_node("CumSum", ["y", "axis0"], ["c0"], name="cs0"),
             helper.make_node("LayerNormalization", ["y", "gamma", "beta"], ["n"], name="ln", axis=-2,
                              epsilon=1e-3),
             helper.make_node("ConvTranspose", ["z", "w", "bias"], ["d"], name="up", strides=[2, 1],
                              pads=[1, 0, 0, 1], output_padding=[1, 0], group=2),
             helper.make_node("ConvTranspose", ["z", "w1"], ["d1"], name="up1", dilations=[2, 1]),
             helper.make_node("Range", ["start", "limit", "delta"], ["g"], name="rg")]
    inits = [("slope", rng.standard_normal((3, 4)).astype(np.float32)),
             ("axis", np.array(2, dtype=np.int64)), ("axis0", np.array(0, dtype=np.int64)),
             ("gamma", rng.standard_normal((3, 4)).astype(np.float32)),
             ("beta", rng.standard_normal((3, 4)).astype(np.float32)),
             ("w", rng.standard_normal((4, 3, 3, 2)).astype(np.float32)),
             ("bias", rng.standard_normal((6,)).astype(np.float32)),
             ("w1", rng.standard_normal((4, 2, 2, 3)).astype(np.float32)),
             ("start", np.array(0.1, dtype=np.float32)), ("limit", np.array(2.3, dtype=np.float32)),
             ("delta", np.array(0.3, dtype=np.float32))]
    typed_model(path, nodes, [("x", [2, 3, 4], F), ("y", [2, 3, 4], F), ("z", [1, 4, 3, 4], F)],
                [("r", [2, 3, 4], F), ("l", [2, 3, 4], F), ("p", [2, 3, 4], F), ("a", [2, 1, 4], F),
                 ("b", [2, 3], F), ("c", [2, 3, 4], F), ("c0", [2, 3, 4], F), ("n", [2, 3, 4], F),
                 ("d", [1, 6, 7, 4], F), ("d1", [1, 2, 5, 6], F), ("g", [8], F)], inits)
    inputs = []
    for name, shape, values in (("x", (2, 3, 4), lambda s: np.round(rng.standard_normal(s) * 3) / 2),
                                ("y", (2, 3, 4), rng.standard_normal), ("z", (1, 4, 3, 4), rng.standard_normal)):
        inputs.append(os.path.join(work, name + ".npy"))
        np.save(inputs[-1], values(shape))
    return path, inputs


def integer_ops_model(work_root):
    """Int division (truncating) and fmod of ints (the dividend's sign), broadcast, a Range of ints
    and reductions of ints (a sum, squeezed, and a max), written as operators of the document; a pad
    of ints (layout.pad of T = int)."""
    from onnx import TensorProto, helper
    I, F = TensorProto.INT64, TensorProto.FLOAT
    work = os.path.join(work_root, "integer_ops")
    os.makedirs(work)
    path = os.path.join(work, "integer_ops.onnx")
    nodes = [helper.make_node("Div", ["i", "j"], ["q"], name="quotient"),
             helper.make_node("Mod", ["i", "j"], ["m"], name="remainder", fmod=1),
             helper.make_node("Range", ["first", "last", "step"], ["s"], name="steps"),
             helper.make_node("Pad", ["i", "pads", "fill"], ["t"], name="padded"),
             helper.make_node("ReduceSum", ["i", "raxes"], ["rs"], name="total", keepdims=0),
             helper.make_node("ReduceMax", ["i"], ["rm"], name="largest", axes=[0])]
    inits = [("first", np.array(7, dtype=np.int64)), ("last", np.array(-6, dtype=np.int64)),
             ("step", np.array(-3, dtype=np.int64)), ("pads", np.array([0, 1, 1, 2], dtype=np.int64)),
             ("fill", np.array(-4, dtype=np.int64)), ("raxes", np.array([1], dtype=np.int64))]
    typed_model(path, nodes, [("i", [2, 5], I), ("j", [5], I)],
                [("q", [2, 5], I), ("m", [2, 5], I), ("s", [5], I), ("t", [3, 8], I), ("rs", [2], I),
                 ("rm", [1, 5], I)], inits)
    rng = np.random.default_rng(9)
    inputs = [os.path.join(work, "i.npy"), os.path.join(work, "j.npy")]
    np.save(inputs[0], rng.integers(-20, 21, (2, 5)))
    np.save(inputs[1], np.array([3, -3, 7, -1, 2]))
    return path, inputs


def int32_model(work_root):
    """A sum, a division, an fmod and a product of int32 that overflow it (3 · 2^30, −2^31 / −1,
    3 · 2^30): the operators of the document wrap to int32 as the IR does."""
    from onnx import TensorProto, helper
    I = TensorProto.INT32
    work = os.path.join(work_root, "int32")
    os.makedirs(work)
    path = os.path.join(work, "int32.onnx")
    nodes = [helper.make_node("ReduceSum", ["a", "axes"], ["s"], name="total", keepdims=0),
             helper.make_node("Div", ["a", "b"], ["q"], name="quotient"),
             helper.make_node("Mod", ["a", "b"], ["m"], name="remainder", fmod=1),
             helper.make_node("Mul", ["a", "b"], ["p"], name="product")]
    typed_model(path, nodes, [("a", [2, 3], I), ("b", [2, 3], I)],
                [("s", [2], I), ("q", [2, 3], I), ("m", [2, 3], I), ("p", [2, 3], I)],
                [("axes", np.array([1], dtype=np.int64))])
    inputs = [os.path.join(work, "a.npy"), os.path.join(work, "b.npy")]
    np.save(inputs[0], np.array([[2**30, 2**30, 2**30], [-2**31, 5, -7]], dtype=np.int32))
    np.save(inputs[1], np.array([[3, -3, 1], [-1, 2, 2]], dtype=np.int32))
    return path, inputs


def refusal_models(work):
    """(name, model, extra convert arguments, exit code, the first error line's start): ONNX models
    with one op NNEF 2.0 cannot express, each refused at its node (an ONNX node is located by its
    position in the graph, from 1), and an open size without --dim."""
    from onnx import helper
    relu = helper.make_node("Relu", ["x"], ["r"], name="first")
    cases = [
        ("fmod", helper.make_node("Mod", ["r", "r"], ["y"], name="rem", fmod=1), "node 'rem' (fmod)"),
        ("round_f16", helper.make_node("Cast", ["r"], ["y"], name="half", to=10), "node 'half' (round_f16)"),
    ]
    for name, node, message in cases:
        path = os.path.join(work, name + ".onnx")
        onnx_model(path, [relu, node], [("x", [2, 3])], [("y", [2, 3])])
        yield name, path, [], 1, "%s:2: error[convert.unexpressible]: NNEF 2.0 cannot express %s" % (path, message)
    # Conv's weight computed in the graph (Neg of an initializer): nn.conv takes it as a variable.
    path = os.path.join(work, "computed_weight.onnx")
    onnx_model(path, [helper.make_node("Neg", ["w0"], ["w"], name="negate"),
                      helper.make_node("Conv", ["x", "w"], ["y"], name="conv")],
               [("x", [1, 2, 5, 5])], [("y", [1, 3, 3, 3])], [("w0", np.ones((3, 2, 3, 3)))])
    yield ("computed_weight", path, [], 1, "%s:2: error[convert.unexpressible]: NNEF 2.0 cannot express node 'conv' "
           "(conv): its parameter 'weight' is computed in the graph (by 'negate')" % path)
    path = os.path.join(work, "open_size.onnx")
    onnx_model(path, [relu], [("x", ["N", 3])], [("r", ["N", 3])])
    yield "open_size", path, [], 2, "error[usage.dim-required]: NNEF 2.0 declares every input extent, and size 'N'"


def check_refusals(nnref, work, result):
    for name, model, args, code, want in refusal_models(work):
        c = run([nnref, "convert", model, os.path.join(work, name), "--to", "nnef2"] + args)
        first = c.stderr.strip().splitlines()[0] if c.stderr.strip() else ""
        if c.returncode == code and first.startswith(want) and not os.path.exists(os.path.join(work, name)):
            result["refused"].append("%s: %s" % (name, first))
        else:
            result["failures"].append("%s: expected exit %d and '%s', nothing written; got exit %d: %s" %
                                      (name, code, want, c.returncode, c.stderr.strip()))


def check_size_names(nnref, work, result):
    """An ONNX dim_param written as an int graph attribute: the written graph declares the input and
    the output extent as that name, and check --dim proves it for a range of sizes."""
    from onnx import helper
    path = os.path.join(work, "sized.onnx")
    onnx_model(path, [helper.make_node("Relu", ["x"], ["r"], name="first"),
                      helper.make_node("ReduceMax", ["r"], ["y"], name="peak", axes=[1], keepdims=0)],
               [("x", ["N", 3, 4])], [("y", ["N", 4])])
    out = os.path.join(work, "sized")
    c = run([nnref, "convert", path, out, "--to", "nnef2", "--dim", "N=3"])
    text = open(os.path.join(out, "main.sknd")).read() if c.returncode == 0 else ""
    declared = ["N: int = 3;", "x: real[N, 3, 4];", "y: real[N, 4];"]
    missing = [d for d in declared if d not in text]
    ck = run([nnref, "check", out, "--dim", "N=1..64"])
    if c.returncode != 0 or missing or ck.returncode != 0:
        result["failures"].append("size names: convert exit %d, missing %s, check --dim N=1..64: %s" %
                                  (c.returncode, missing, (ck.stdout + ck.stderr).strip()))
        return
    inputs = [os.path.join(work, "sized_x.npy")]
    np.save(inputs[0], np.random.default_rng(5).standard_normal((3, 3, 4)))
    round_trip(nnref, "size names", path, inputs, work, result, ["--dim", "N=3"])


def sources(root, nnref, work_root):
    """(name, model, inputs) for every source model, its weights and inputs made in work_root."""
    for model in sorted(glob.glob(os.path.join(root, "examples/*/model.nnl")) +
                        glob.glob(os.path.join(root, "tests/data/golden/*/model.nnl"))):
        case = os.path.dirname(model)
        yield os.path.relpath(case, root), model, [os.path.join(case, "input.npy")]
    data = os.path.join(root, "tests/data")
    for k, graph in enumerate(sorted(glob.glob(os.path.join(data, "nnef/**/graph.nnef"), recursive=True))):
        name = os.path.relpath(os.path.dirname(graph), data)
        work = os.path.join(work_root, name.replace("/", "_"))
        os.makedirs(work)
        model = nnef_with_weights(os.path.dirname(graph), work, k + 1)
        yield name, model, random_inputs(nnref, model, work, k + 1)
    for k, main in enumerate(sorted(glob.glob(os.path.join(data, "nnef2/*/main.sknd")))):
        name = os.path.relpath(os.path.dirname(main), data)
        if name in UNREAD or name in UNWRITTEN_DATA:
            continue
        work = os.path.join(work_root, name.replace("/", "_"))
        os.makedirs(work)
        model = nnef2_with_variables(os.path.dirname(main), work, k + 1)
        yield name, model, random_inputs(nnref, model, work, k + 1)
    work = os.path.join(work_root, "ops")
    os.makedirs(work)
    yield ("ops written here",) + ops_model(work)
    yield ("log_softmax written here",) + log_softmax_model(work_root)
    yield ("views written here",) + views_model(work_root)
    yield ("new ops written here",) + new_ops_model(work_root)
    yield ("integer ops written here",) + integer_ops_model(work_root)
    yield ("int32 written here",) + int32_model(work_root)
    for model in sorted(glob.glob(os.path.join(data, "onnx/*/model.onnx"))):
        case = os.path.dirname(model)
        yield os.path.relpath(case, data), model, sorted(glob.glob(os.path.join(case, "x.npy")))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--nnref", required=True)
    p.add_argument("--keep", help="keep the written models in this folder")
    p.add_argument("--verbose", action="store_true")
    a = p.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    result = {"same": [], "refused": [], "failures": []}
    scratch = a.keep or tempfile.mkdtemp(prefix="nnref_sknd_convert_")
    try:
        for name, model, inputs in sources(root, a.nnref, os.path.join(scratch, "sources")):
            work = os.path.join(scratch, "round_trips", name.replace("/", "_"))
            os.makedirs(work)
            round_trip(a.nnref, name, model, inputs, work, result)
        os.makedirs(os.path.join(scratch, "refusals"))
        check_refusals(a.nnref, os.path.join(scratch, "refusals"), result)
        check_size_names(a.nnref, os.path.join(scratch, "refusals"), result)
    finally:
        if not a.keep:
            shutil.rmtree(scratch)
    print("round trips: %d written, checked and bit-identical under run --precision f64; %d refused as expected"
          % (len(result["same"]), len(result["refused"])))
    if a.verbose:
        for line in result["same"]:
            print("same     " + line)
        for line in result["refused"]:
            print("refused  " + line)
    for f in result["failures"]:
        print("FAIL " + f)
    return 1 if result["failures"] or len(result["same"]) < 39 or len(result["refused"]) < 7 else 0


if __name__ == "__main__":
    sys.exit(main())
