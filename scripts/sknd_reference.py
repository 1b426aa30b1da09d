#!/usr/bin/python3
"""Independent NumPy float64 reference for nnref's NNEF 2.0 (SkriptND) test models.

Each model of tests/data/nnef2/ in MODELS is evaluated here with the operators of sknd_numpy_ops.py,
written from their definitions in the NNEF 2.0 draft (Revision 8, chapter 4); they share no
code or logic with nnref's C++ reader. The script copies a model folder, writes random weights as
.dat files named main.<Graph>.<variable>.dat (the layout of docs/nnef2.md), runs
`nnref run --precision f64` on random inputs and requires agreement to 1e-12 relative. It
also requires `nnref check` to pass and `nnref conform` to accept the float32 rounding of
the reference's answer; an int or bool output must be written with its dtype and be equal. The
`kinds` model (int and bool tensors) must also pass `nnref check --dim batch=1..64`, and the
`undecided` one shows that conform leaves an undecided comparison not judged.

Usage:
    sknd_reference.py --check --nnref BIN [--sknd-kernels lowered]
    sknd_reference.py --self-test
"""

import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sknd_numpy_ops as ops  # noqa: E402  (the operators, written from chapter 4)
from nnef_reference import write_dat  # noqa: E402  (the .dat writer, §5.2 of NNEF 1.0)


# ------------------------------------------------------------------ the test models

def perceptron(v, inputs):
    h = ops.linear(inputs["input"], v["w1"], v["b1"])
    return ops.softmax(ops.linear(ops.UNARY["nn.sigmoid"](h), v["w2"], v["b2"]))


def cnn(v, inputs):
    c1 = ops.conv(inputs["input"], v["k1"], v["b1"], padding=1)
    p1 = ops.max_pool(ops.relu(c1), 2, stride=2)
    t2 = np.tanh(ops.conv(p1, v["k2"], groups=2, stride=2, padding=[0, 0, 1, 1]))
    p2 = ops.avg_pool(t2, 3, padding=1)
    s = ops.binary("math.add", p2, v["b2"], rhs_align=1)
    return ops.softmax(ops.linear(ops.flatten(s, axis=1), v["w"], v["b"]))


def layout(v, inputs):
    t = ops.transpose(ops.matmul(inputs["x"], inputs["y"]), perm=[0, 2, 1])
    d = ops.binary("math.div", np.exp(t), v["scale"])  # the trailing axes aligned
    q = ops.elu(t, 0.5)
    return ops.reshape(ops.concat([d, q], axis=2), [-1, 6])


def norms(v, inputs):
    x = inputs["x"]
    n = ops.batch_norm(x, v["mean"], v["variance"], scale=v["gamma"], epsilon=0.001)
    l = ops.relu(n, 0.25)
    r = ops.prelu(l, v["slope"])
    m = ops.reduce("math.mean_reduce", r, [2, 3])
    total = ops.reduce("math.sum_reduce", l, [-1, 2])
    return {"output": m - total, "peak": ops.reduce("math.max_reduce", x, [1, 2], squeeze=True)}


def windows_model(v, inputs):
    # conv: dilation 2, stride 2, padding (1, 2) per axis, ceil mode: 9 → ⌈(9 + 3 - 5) / 2⌉ + 1 = 5
    c = ops.conv(inputs["x"], v["k"], dilation=2, stride=2, padding=[1, 1, 2, 2], ceil_mode=True)
    # max_pool 2, stride 2, no padding, ceil mode: 5 → 3, the last window holding one real row
    m = ops.max_pool(c, 2, stride=2, padding=0, ceil_mode=True)
    s = ops.sum_pool(m, 2, padding=[0, 0, 1, 1])
    q = ops.squeeze(ops.unsqueeze(s, [0]), [0])
    d = np.maximum(q, m) - np.minimum(q, m)
    return (d * d + 0.5) ** 0.5


def lowered(v, inputs):
    x, y = inputs["x"], inputs["y"]
    n = np.maximum.reduce([ops.silu(ops.clamp(x, -0.5, 0.75)), ops.selu(x),
                           ops.thresholded_relu(y, 0.25)])  # math.max_n
    o = n + ops.gelu(x)  # math.sum_n
    q = ops.pad_reflect(o, 2, 1, 2)[:, :, 1:6]  # layout.slice{axes=[2], begin=[1], end=[6]}
    outer = v["scale"] * np.outer(inputs["u"], inputs["w"]) + -0.5  # math.axpb, scale on the last axis
    return {"output": np.tile(q, (1, 2, 1)), "outer": outer}


def kinds(v, inputs):
    z = ops.linear(inputs["x"], v["w"], v["b"])
    above = ops.elementwise("math.gt", z, np.array(0.0))
    relu = ops.select(above, z, np.array(0.0))
    output = ops.select(ops.elementwise("math.and", inputs["mask"], v["keep"]), relu, z)
    best = ops.arg_reduce("math.argmax", output, 1, squeeze=True)
    return {"output": output, "predicted": ops.elementwise("math.add", best, v["shift"]),
            "positive": ops.logical_reduce("math.any_reduce", above, [1], squeeze=True),
            "picked": ops.gather(output, np.array([4, 0, 2]), 1), "labelled": ops.cast(inputs["labels"], "bool")}


MODELS = {
    "perceptron": ("Perceptron", perceptron, {"input": (4, 6)},
                   {"w1": (8, 6), "b1": (8,), "w2": (3, 8), "b2": (3,)}),
    "cnn": ("SmallCNN", cnn, {"input": (2, 3, 12, 12)},
            {"k1": (8, 3, 3, 3), "b1": (8,), "k2": (8, 4, 3, 3), "b2": (8,), "w": (5, 72), "b": (5,)}),
    "layout": ("Layout", layout, {"x": (2, 3, 4), "y": (2, 4, 5)}, {"scale": (3,)}),
    "windows": ("Windows", windows_model, {"x": (1, 2, 9, 9)}, {"k": (3, 2, 3, 3)}),
    "norms": ("Norms", norms, {"x": (2, 4, 3, 5)}, {"mean": (4,), "variance": (4,), "gamma": (4,), "slope": (4,)}),
    "lowered": ("Lowered", lowered, {"x": (2, 3, 4), "y": (2, 3, 4), "u": (3,), "w": (4,)}, {"scale": (4,)}),
    "kinds": ("Kinds", kinds, {"x": (4, 6), "mask": (4, 5), "labels": (4,)},
              {"w": (5, 6), "b": (5,), "keep": (5,), "shift": (1,)}),
}

# The inputs and variables that are not normal reals: bool, or ints in a range.
KINDS = {"mask": "bool", "keep": "bool", "labels": (-2, 3), "shift": (-3, 4)}
# The sizes `nnref check --dim` must prove a model for.
DIMS = {"kinds": "batch=1..64"}


def values_of(rng, name, shape, normal):
    kind = KINDS.get(name)
    if kind == "bool":
        return rng.random(shape) < 0.5
    return normal(shape) if kind is None else rng.integers(kind[0], kind[1], shape)


# ------------------------------------------------------------------ the cross-check

def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def write_typed_dat(path, array):
    """An int array as 32-bit signed items (item type 4), a bool one as 8-bit bool items (type 5): the
    header of §5.2 of NNEF 1.0 as write_dat writes it."""
    a = np.ascontiguousarray(array, dtype=np.uint8 if array.dtype == np.bool_ else "<i4")
    assert np.array_equal(a, array), path
    extents = list(a.shape) + [0] * (8 - a.ndim)
    header = struct.pack("<BBBBII8III", 0x4E, 0xEF, 1, 0, a.nbytes, a.ndim, *extents, 8 * a.itemsize,
                         5 if array.dtype == np.bool_ else 4)
    with open(path, "wb") as f:
        f.write(header + b"\0" * (128 - len(header)) + a.tobytes())


def write_variables(folder, graph, values):
    """Each variable as main.<Graph>.<name>.dat (docs/nnef2.md): a real one as float32 items (`values` must
    hold float32-representable numbers, so the reference reads what nnref reads), an int or bool one as
    int32 or bool items."""
    for var, value in values.items():
        path = os.path.join(folder, "main.%s.%s.dat" % (graph, var))
        if value.dtype.kind in "biu":
            write_typed_dat(path, value)
            continue
        assert np.array_equal(value.astype(np.float32), value), var
        write_dat(path, value)


def relative_difference(got, want):
    """The largest difference over the largest magnitude of the expected output (NaN if either holds
    a NaN: a comparison with it fails). An int or bool output must be written with its dtype (int64,
    bool) and equal: 0, else infinity."""
    if want.dtype.kind in "biu":
        same_type = got.dtype == (np.bool_ if want.dtype == np.bool_ else np.int64)
        return 0.0 if same_type and np.array_equal(got, want) else float("inf")
    scale = max(float(np.abs(want).max()), np.finfo(np.float64).tiny)
    return float(np.abs(got - want).max()) / scale


def judge(nnref, folder, work, inputs, expected, rtol, kernels="native", actual=None, intermediates=None, slip=None):
    """`nnref check` passes, `nnref run --precision f64 --sknd-kernels KERNELS` agrees with `expected` (name -> array)
    within rtol of each output's largest magnitude, and `nnref conform` accepts `actual` (name ->
    a float32 answer; by default the float32 rounding of `expected`), given the runtime's
    `intermediates` (component name -> array) if any, and rejects it with its largest element
    `slip` (relative) off if slip is given. Returns the problems found and the largest relative
    difference (None if nnref did not run)."""
    args = []
    for inp, value in inputs.items():
        path = os.path.join(work, inp + ".npy")
        np.save(path, value)
        args += ["--input", "%s=%s" % (inp, path)]
    out = os.path.join(work, "out.npz")
    problems = []
    r = run([nnref, "check", folder])
    if r.returncode != 0:
        problems.append("check: exit %d\n%s%s" % (r.returncode, r.stdout, r.stderr))
    r = run([nnref, "run", folder, *args, "--precision", "f64", "--sknd-kernels", kernels, "--output", out])
    if r.returncode != 0:
        return problems + ["run: exit %d\n%s%s" % (r.returncode, r.stdout, r.stderr)], None
    got = np.load(out)
    errors = [0.0]
    for key, want in expected.items():
        if got[key].shape != want.shape:
            problems.append("run: output %s has shape %s, not %s" % (key, got[key].shape, want.shape))
            continue
        errors.append(relative_difference(got[key], want))
    error = float(np.max(errors))  # NaN if any is
    if not error <= rtol:
        problems.append("run: the largest difference is %.3g of max|y| (allowed %g)" % (error, rtol))
    if actual is None:
        actual = {key: want.astype(np.float32) for key, want in expected.items()}
    conform = [nnref, "conform", folder, *args]
    if intermediates:
        given = os.path.join(work, "intermediates.npz")
        np.savez(given, **intermediates)
        conform += ["--intermediates", given]
    answers = os.path.join(work, "actual.npz")
    np.savez(answers, **actual)
    r = run(conform + ["--actual", answers])
    if r.returncode != 0 or "conforms" not in r.stdout:
        problems.append("conform: exit %d\n%s%s" % (r.returncode, r.stdout, r.stderr))
    if slip:
        problems += slip_not_rejected(conform, actual, slip, work)
    return problems, error


def slip_not_rejected(conform, actual, slip, work):
    """The `conform` command (without --actual) must reject `actual` with the largest element of its
    first output `slip` relative off: the problem, if it does not."""
    slipped = {key: np.array(value, dtype=np.float32) for key, value in actual.items()}
    flat = next(iter(slipped.values())).reshape(-1)
    flat[np.abs(flat).argmax()] *= np.float32(1 + slip)
    path = os.path.join(work, "slipped.npz")
    np.savez(path, **slipped)
    r = run(conform + ["--actual", path])
    if r.returncode == 1:
        return []
    return ["conform: an answer off by %g relative is not rejected (exit %d)\n%s" % (slip, r.returncode, r.stdout)]


def check_model(nnref, name, root, seed, rtol, kernels):
    graph, forward, input_shapes, variable_shapes = MODELS[name]
    rng = np.random.default_rng(seed)
    work = tempfile.mkdtemp(prefix="sknd_")
    try:
        folder = os.path.join(work, name)
        shutil.copytree(os.path.join(root, "tests/data/nnef2", name), folder)
        variables = {}
        for var, shape in variable_shapes.items():
            positive = var in ("scale", "variance")
            normal = lambda shape: (rng.uniform(0.1, 1.0, shape) if positive else rng.normal(0.0, 0.5, shape)).astype(
                np.float32).astype(np.float64)
            variables[var] = values_of(rng, var, shape, normal)
        write_variables(folder, graph, variables)
        inputs = {inp: values_of(rng, inp, shape, lambda shape: rng.normal(0.0, 1.0, shape))
                  for inp, shape in input_shapes.items()}
        expected = forward(variables, inputs)
        if not isinstance(expected, dict):
            expected = {"output": expected}
        problems, error = judge(nnref, folder, work, inputs, expected, rtol, kernels)
        if name in DIMS:
            r = run([nnref, "check", folder, "--dim", DIMS[name]])
            if r.returncode != 0:
                problems.append("check --dim %s: exit %d\n%s%s" % (DIMS[name], r.returncode, r.stdout, r.stderr))
        agreement = "did not run" if error is None else "run (%s kernels) agrees to %.2g of max|y|" % (kernels, error)
        print("%-11s %s; check and conform %s" % (name, agreement, "pass" if not problems else "FAIL"))
        return problems
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check_undecided(nnref, root):
    """tests/data/nnef2/undecided: x[0] = 1 + 2^-30 > y[0] = 1 and argmax [1 + 2^-30, 2, 2 + 2^-40] = 2 hold, but a
    float32 runtime reads 1 > 1 and a tie at 2: conform must leave element 0 of each output not judged
    (inconclusive, exit 3), whether the answer is the exact one or the float32 one."""
    work = tempfile.mkdtemp(prefix="sknd_undecided_")
    try:
        args = []
        for name, value in (("x", [1.0 + 2.0 ** -30, 2.0, 2.0 + 2.0 ** -40]), ("y", [1.0, 1.0, 5.0])):
            np.save(os.path.join(work, name + ".npy"), np.array(value))
            args += ["--input", "%s=%s" % (name, os.path.join(work, name + ".npy"))]
        problems = []
        for above, first in (([True, True, False], 2), ([False, True, False], 1)):
            answer = os.path.join(work, "answer.npz")
            np.savez(answer, above=np.array(above), first=np.array([first]))
            r = run([nnref, "conform", os.path.join(root, "tests/data/nnef2/undecided"), *args, "--actual", answer])
            judged = r.stdout.count("1 not judged") == 2 and "not judged: element [0]" in r.stdout
            if r.returncode != 3 or not judged:
                problems.append("conform of %s: exit %d, expected 3 with element 0 of each output not judged\n%s"
                                % (answer, r.returncode, r.stdout))
        print("undecided   conform leaves the undecided elements not judged: %s" % ("pass" if not problems else "FAIL"))
        return problems
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check(nnref, root, kernels, seed=1, rtol=1e-12):
    failed = False
    for name in MODELS:
        for p in check_model(nnref, name, root, seed, rtol, kernels):
            print("%s: %s" % (name, p))
            failed = True
    for p in check_undecided(nnref, root):
        print("undecided: %s" % p)
        failed = True
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--nnref", default="build/nnref")
    ap.add_argument("--root", default=".")
    ap.add_argument("--sknd-kernels", default="native", choices=["native", "lowered"],
                    help="run's kernels: native, or every standard operator from its @lower body")
    a = ap.parse_args()
    if a.self_test:
        return ops.self_test()
    if a.check:
        return check(a.nnref, a.root, a.sknd_kernels)
    ap.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
