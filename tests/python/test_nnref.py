"""The Python module nnref (docs/python.md) on the example models: run against the examples'
expected outputs (computed by scripts/nnl_reference.py, not by nnref), check, conform, and every
function's bad input raising nnref.Error with the code `nnref` the command gives for the same input.

Run by ctest (test python_module) as: NNREF=build/nnref PYTHONPATH=build/python /usr/bin/python3 -m
pytest tests/python, from the source tree.
"""
import json
import os
import subprocess

import numpy as np
import pytest

import nnref
import nnref.testing

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "..", "examples")
NNREF = os.environ.get("NNREF", os.path.join(HERE, "..", "..", "build", "nnref"))
NAMES = ["mlp", "mnist_classifier", "resnet_block", "downsample_block"]


def example(name):
    d = os.path.join(EXAMPLES, name)
    expected = dict(np.load(os.path.join(d, "expected.npz")))
    return os.path.join(d, "model.nnl"), np.load(os.path.join(d, "input.npy")), expected


def cli_code(*args):
    """The code of the first error `nnref ARGS` prints, and its exit code."""
    r = subprocess.run([NNREF, *args], capture_output=True, text=True)
    for line in r.stderr.splitlines():
        if "error[" in line:
            return line.split("error[", 1)[1].split("]", 1)[0], r.returncode
    return None, r.returncode


def raised_code(f, *args, **kwargs):
    with pytest.raises(nnref.Error) as e:
        f(*args, **kwargs)
    err = e.value
    assert err.code and err.message
    assert isinstance(err.line, int) and isinstance(err.column, int)
    return err


# --- the examples of docs/python.md ---------------------------------------------------------------

def test_load_describes_inputs_and_outputs():
    path, x, expected = example("mlp")
    model = nnref.load(path)
    assert model.format == "nnl"
    assert [i.name for i in model.inputs] == ["input"]
    # model.nnl: Input(shape: [4]) with the batch axis the NNL front-end names "batch".
    assert model.inputs[0].shape == ("batch", "input.0")
    assert model.inputs[0].kind == "real"
    assert [(o.name, o.shape) for o in model.outputs] == [("output", expected["output"].shape)]


@pytest.mark.parametrize("name", NAMES)
def test_run_f64_matches_expected(name):
    path, x, expected = example(name)
    model = nnref.load(path)
    out = model.run({model.inputs[0].name: x})
    assert sorted(out) == sorted(expected)
    for k, want in expected.items():
        assert out[k].dtype == np.float64
        np.testing.assert_allclose(out[k], want, rtol=1e-9, atol=1e-12)


def test_run_f32_and_mp():
    path, x, expected = example("mlp")
    model = nnref.load(path)
    f32 = model.run({"input": x}, precision="f32")["output"]
    assert f32.dtype == np.float32
    np.testing.assert_allclose(f32, expected["output"], rtol=1e-5)
    mp = model.run({"input": x}, precision="mp")["output"]
    np.testing.assert_allclose(mp, expected["output"], rtol=1e-12)


def test_run_interval_and_envelope_enclose_the_answer():
    path, x, expected = example("mlp")
    model = nnref.load(path)
    want = expected["output"]
    lo, hi = model.run({"input": x}, precision="interval")["output"]
    # The reference computes in float64: within a few float64 roundings of the exact value.
    slack = 1e-14 * np.abs(want)
    assert np.all(lo <= want + slack) and np.all(want - slack <= hi)
    assert np.all(hi - lo <= 1e-12)
    elo, ehi = model.run({"input": x}, precision="envelope")["output"]
    assert np.all(elo <= lo) and np.all(hi <= ehi)
    f32 = want.astype(np.float32).astype(np.float64)
    assert np.all(elo <= f32) and np.all(f32 <= ehi)


def test_run_takes_any_layout():
    path, x, expected = example("mlp")
    model = nnref.load(path)
    swapped = x.astype(">f8")                            # big-endian
    strided = np.stack([x, x], axis=-1)[..., 0]          # not contiguous
    for given in (swapped, strided, x.tolist()):
        np.testing.assert_allclose(model.run({"input": given})["output"], expected["output"], rtol=1e-9)


def test_run_at_another_batch():
    path, x, expected = example("mlp")
    model = nnref.load(path)
    x3 = np.concatenate([x, 2 * x, -x])
    out = model.run({"input": x3})["output"]
    assert out.shape == (3, 3)
    np.testing.assert_allclose(out[0], expected["output"][0], rtol=1e-9)
    np.testing.assert_allclose(out.sum(axis=1), np.ones(3), rtol=1e-12)  # softmax rows


def test_run_releases_the_gil():
    """While one thread runs a long evaluation (resnet_block in rigorous intervals, seconds), another
    thread keeps running Python: its longest pause is a small part of the call."""
    import threading
    import time
    path, x, _ = example("resnet_block")
    model = nnref.load(path)
    done, took = threading.Event(), []

    def work():
        start = time.monotonic()
        model.run({"input": x}, precision="interval")
        took.append(time.monotonic() - start)
        done.set()

    worker = threading.Thread(target=work)
    last, longest = time.monotonic(), 0.0
    worker.start()
    while not done.is_set():
        now = time.monotonic()
        longest, last = max(longest, now - last), now
    worker.join()
    assert took[0] > 0.5
    assert longest < took[0] / 2


def test_check_proves_every_batch():
    path, _, _ = example("mlp")
    report = nnref.load(path).check(dims={"batch": (1, 64)})
    assert bool(report) and report.refuted == 0 and report.unknown == 0
    assert report.proved == report.total > 0


def test_check_refutes_with_a_counterexample():
    path, _, _ = example("downsample_block")
    report = nnref.load(path).check(dims={"input.0": (1, 64)})
    cli = json.loads(subprocess.run([NNREF, "check", path, "--dim", "input.0=1..64", "--format", "json"],
                                    capture_output=True, text=True).stdout)
    assert (report.total, report.proved, report.refuted, report.unknown) == tuple(
        cli["obligations"][k] for k in ("total", "proved", "refuted", "unknown"))
    assert not report and report.refuted > 0
    refuted = [f for f in report.findings if f.status == "refuted"]
    assert refuted
    for f in refuted:
        assert f.code == f.code.strip() and "." in f.code
        assert f.file.endswith("model.nnl") and f.line > 0
        assert 1 <= f.counterexample["input.0"] <= 64


def test_conform_and_assert_conforms():
    path, x, expected = example("mlp")
    model = nnref.load(path)
    good = expected["output"].astype(np.float32)
    verdict = model.conform({"input": x}, good)
    assert bool(verdict) and verdict.verdict == "conforms"
    assert verdict.runtime_precision == "f32" and verdict.outputs[0]["outside"] == 0
    assert str(verdict).strip().endswith("conforms")
    nnref.testing.assert_conforms(model, {"input": x}, good)

    bad = good.copy()
    bad[0, 1] += np.float32(1e-3)
    verdict = model.conform({"input": x}, {"output": bad})
    assert not verdict and verdict.verdict == "does not conform"
    assert verdict.outputs[0]["outside"] == 1 and verdict.outputs[0]["worst"]["index"] == [0, 1]
    assert verdict.outputs[0]["worst"]["exact"] is None  # not needed: no envelope side overflows
    lo, hi = model.conform({"input": x}, {"output": bad}, exact=True).outputs[0]["worst"]["exact"]
    y = expected["output"][0, 1]  # PyTorch float64's: a few float64 roundings from the exact value
    assert lo - abs(y) * 1e-13 <= y <= hi + abs(y) * 1e-13 and hi - lo <= 1e-9 * abs(y)
    with pytest.raises(AssertionError) as e:
        nnref.testing.assert_conforms(model, {"input": x}, bad)
    text = str(e.value)
    assert "output[0, 1]" in text and "envelope [" in text and "computed by node 'output/" in text


# --- bad input: nnref.Error with the command's code -----------------------------------------------

def test_missing_file(tmp_path):
    missing = str(tmp_path / "absent.nnl")
    err = raised_code(nnref.load, missing)
    assert (err.code, 2) == cli_code("run", missing, "--input", os.path.join(EXAMPLES, "mlp", "input.npy"))
    assert err.code == cli_code("check", missing)[0]


def saved(tmp_path, name, array):
    p = str(tmp_path / name)
    np.save(p, array)
    return p


def test_wrong_shape(tmp_path):
    path, x, _ = example("resnet_block")
    model = nnref.load(path)
    wrong = x[:, :, :, :10]
    err = raised_code(model.run, {"input": wrong})
    code, _ = cli_code("run", path, "--input", saved(tmp_path, "w.npy", wrong))
    assert err.code == code
    err = raised_code(model.conform, {"input": wrong}, np.zeros((1, 32, 32, 64), np.float32))
    assert err.code == code


def test_wrong_actual_shape(tmp_path):
    path, x, expected = example("mlp")
    actual = np.zeros((1, 4), np.float32)
    err = raised_code(nnref.load(path).conform, {"input": x}, actual)
    code, _ = cli_code("conform", path, "--input", os.path.join(EXAMPLES, "mlp", "input.npy"),
                       "--actual", saved(tmp_path, "a.npy", actual))
    assert err.code == code == "usage.actual-shape"


def test_wrong_dtype(tmp_path):
    path, x, _ = example("mlp")
    model = nnref.load(path)
    # A dtype nnref does not read: the command's code for an .npy file of it.
    wrong = x.astype(np.complex128)
    err = raised_code(model.run, {"input": wrong})
    assert err.code == cli_code("run", path, "--input", saved(tmp_path, "c.npy", wrong))[0] == "npy.unsupported-dtype"
    assert raised_code(model.conform, {"input": wrong}, np.zeros((1, 3), np.float32)).code == err.code
    # An integer or bool array for a real input: the command reads its values as reals, and so does
    # the module.
    for given in (np.round(3 * x).astype(np.int64), x > 0):
        assert cli_code("run", path, "--input", saved(tmp_path, "i.npy", given)) == (None, 0)
        np.testing.assert_array_equal(model.run({"input": given})["output"],
                                      model.run({"input": given.astype(np.float64)})["output"])
    # An actual output of a dtype nnref does not read.
    err = raised_code(model.conform, {"input": x}, np.zeros((1, 3), np.complex64))
    assert err.code == "npy.unsupported-dtype"


def test_unknown_size_name():
    path, x, _ = example("mlp")
    model = nnref.load(path)
    err = raised_code(model.run, {"input": x}, dims={"height": 3})
    assert err.code == cli_code("run", path, "--input", os.path.join(EXAMPLES, "mlp", "input.npy"),
                                "--dim", "height=3")[0]
    err = raised_code(model.check, dims={"height": (1, 3)})
    assert err.code == cli_code("check", path, "--dim", "height=1..3")[0]


def test_nan_input(tmp_path):
    path, x, _ = example("mlp")
    model = nnref.load(path)
    nan = x.copy()
    nan[0, 2] = np.nan
    code, exit_code = cli_code("run", path, "--input", saved(tmp_path, "n.npy", nan))
    if code is None:  # the command accepts a NaN and runs: so does the module
        assert exit_code == 0
        assert np.all(np.isnan(model.run({"input": nan})["output"]))
    else:
        assert raised_code(model.run, {"input": nan}).code == code
    # conform judges nothing it cannot bound: the command's verdict, and no error.
    actual = np.full((1, 3), np.nan, np.float32)
    r = subprocess.run([NNREF, "conform", path, "--input", saved(tmp_path, "n.npy", nan), "--actual",
                        saved(tmp_path, "a.npy", actual), "--format", "json"], capture_output=True, text=True)
    verdict = model.conform({"input": nan}, actual)
    assert verdict.json == json.loads(r.stdout)
    assert not verdict and verdict.verdict != "conforms"
    with pytest.raises(AssertionError) as e:
        nnref.testing.assert_conforms(model, {"input": nan}, actual)
    assert "not judged" in str(e.value)


def test_error_fields():
    path, x, _ = example("mlp")
    err = raised_code(nnref.load(path).run, {"input": x[:, :2]})
    assert err.code == "bind.shape-mismatch"
    assert err.file.endswith("model.nnl") and err.line == 10 and err.column > 0
    assert str(err).startswith(err.file)


ONNX_RELU = "/usr/share/libonnx-testdata/data/node/test_relu"


@pytest.mark.skipif(not os.path.isdir(ONNX_RELU), reason="libonnx-testdata is not installed")
def test_onnx_node_test():
    onnx = pytest.importorskip("onnx")
    from onnx import numpy_helper

    def pb(name):
        t = onnx.TensorProto()
        with open(os.path.join(ONNX_RELU, "test_data_set_0", name), "rb") as f:
            t.ParseFromString(f.read())
        return numpy_helper.to_array(t)

    model = nnref.load(os.path.join(ONNX_RELU, "model.onnx"))
    assert model.format == "onnx"
    proto = onnx.load(os.path.join(ONNX_RELU, "model.onnx"))
    assert model.opsets == {(o.domain or "ai.onnx"): o.version for o in proto.opset_import}
    assert nnref.load(os.path.join(EXAMPLES, "mlp", "model.nnl")).opsets == {}
    x, y = pb("input_0.pb"), pb("output_0.pb")
    assert [(i.name, i.shape) for i in model.inputs] == [("x", x.shape)]
    out = model.run({"x": x}, precision="f32")["y"]
    np.testing.assert_array_equal(out, y)
    assert model.conform({"x": x}, y)
    assert model.check()


def test_the_examples_of_docs_python_md(capsys):
    """Every ```python block of docs/python.md, in order, in one namespace, from the repository's root:
    a block whose comments show an AssertionError raises one."""
    root = os.path.join(HERE, "..", "..")
    with open(os.path.join(root, "docs", "python.md")) as f:
        text = f.read()
    blocks = [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]
    assert len(blocks) >= 6
    namespace = {}
    cwd = os.getcwd()
    os.chdir(root)
    try:
        for block in blocks:
            if "# AssertionError" in block:
                with pytest.raises(AssertionError):
                    exec(block, namespace)
            else:
                exec(block, namespace)
    finally:
        os.chdir(cwd)
    assert "bind.shape-mismatch 10" in capsys.readouterr().out
    assert bool(namespace["verdict"])


def test_bind_inputs_read_at_load(tmp_path):
    """An ONNX Unsqueeze whose axes are a graph input: load refuses it by name; with bind_inputs,
    run binds the axes to the array given, as `nnref run` does (docs/onnx.md, "Inputs bound at
    load"); the shapes by hand."""
    import onnx
    from onnx import TensorProto, helper
    graph = helper.make_graph([helper.make_node("Unsqueeze", ["X", "R"], ["Y"])], "g",
                              [helper.make_tensor_value_info("X", TensorProto.FLOAT, [2]),
                               helper.make_tensor_value_info("R", TensorProto.INT64, [1])],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)])
    path = str(tmp_path / "unsqueeze.onnx")
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)
    assert raised_code(nnref.load, path).code == cli_code("check", path)[0] == "onnx.input-not-constant"
    m = nnref.load(path, bind_inputs=True)
    x = np.array([1.5, -2.0])
    for axes, shape in (([0], (1, 2)), ([1], (2, 1))):
        y = m.run({"X": x, "R": np.array(axes, dtype=np.int64)})["Y"]
        assert y.shape == shape and y.ravel().tolist() == [1.5, -2.0]
    assert raised_code(lambda: m.inputs).code == "onnx.input-not-constant"  # no model until run binds


def test_bind_inputs_sizes_needed_at_load(tmp_path):
    """An ONNX Loop whose trip count is Shape(X)[0], X [T, 2]: load refuses it by name (the count is
    needed when the model is read); with bind_inputs, each run reads it at its array's T
    (docs/architecture.md, "Sizes fixed at load"); the running sums by hand."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    body = helper.make_graph(
        [helper.make_node("Gather", ["X", "i"], ["x_i"]), helper.make_node("Add", ["s", "x_i"], ["s_out"]),
         helper.make_node("Identity", ["c"], ["c_out"])], "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("c", TensorProto.BOOL, []),
         helper.make_tensor_value_info("s", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("c_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("s_out", TensorProto.FLOAT, [2])])
    graph = helper.make_graph(
        [helper.make_node("Shape", ["X"], ["shape"]), helper.make_node("Gather", ["shape", "zero"], ["M"]),
         helper.make_node("Loop", ["M", "", "s0"], ["Y"], body=body)], "g",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, ["T", 2])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [2])],
        [numpy_helper.from_array(np.array(0, np.int64), "zero"), numpy_helper.from_array(np.zeros(2, np.float32), "s0")])
    path = str(tmp_path / "loop.onnx")
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)
    assert raised_code(nnref.load, path).code == cli_code("check", path)[0] == "onnx.size-needed-at-load"
    m = nnref.load(path, bind_inputs=True)
    assert m.run({"X": np.array([[1.0, 2.0], [3.0, 4.0]])})["Y"].tolist() == [4.0, 6.0]
    assert m.run({"X": np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])})["Y"].tolist() == [9.0, 12.0]


def test_empty_outputs(tmp_path):
    """An ONNX Slice past the end of x [4, 3]: an empty output [0, 3] beside Relu(x) (docs/onnx.md,
    "Empty values"): listed after the graph's outputs, run as an empty array, judged by its shape."""
    import onnx
    from onnx import TensorProto, helper
    ints = [helper.make_tensor(n, TensorProto.INT64, [1], [v]) for n, v in (("s", 5), ("e", 9), ("a", 0))]
    nodes = [helper.make_node("Relu", ["x"], ["y"]), helper.make_node("Slice", ["x", "s", "e", "a"], ["z"])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 3])],
                              [helper.make_tensor_value_info("z", TensorProto.FLOAT, None),
                               helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], ints)
    path = str(tmp_path / "slice.onnx")
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)
    m = nnref.load(path)
    assert [(o.name, tuple(o.shape)) for o in m.outputs] == [("y", (4, 3)), ("z", (0, 3))]
    x = np.arange(-6, 6, dtype=np.float32).reshape(4, 3)
    out = m.run({"x": x})
    np.testing.assert_array_equal(out["y"], np.maximum(x, 0))
    assert out["z"].shape == (0, 3)
    lo, hi = m.run({"x": x}, precision="interval")["z"]
    assert lo.shape == hi.shape == (0, 3)
    assert bool(m.conform({"x": x}, {"y": np.maximum(x, 0), "z": np.zeros((0, 3), np.float32)}))
    assert raised_code(m.conform, {"x": x}, {"y": np.maximum(x, 0), "z": np.zeros((1, 3), np.float32)}).code == \
        "usage.actual-shape"


def test_conform_at_intermediates(tmp_path):
    """Model.conform(..., intermediates=) as conform --intermediates (docs/python.md): a chain of 40
    Hadamard layers x·H (H·H = I, so with x = [1, 2, 3, 4] the values alternate between x and
    x·H = [5, -1, -2, 0], exact in float32). Without intermediates its envelope compounds wider than
    its values and nothing is judged; given every layer's value it conforms, every element judged;
    one layer's value off by 1 is named first."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    h = 0.5 * np.array([[1, 1, 1, 1], [1, -1, 1, -1], [1, 1, -1, -1], [1, -1, -1, 1]], dtype=np.float32)
    names = ["h%d" % k for k in range(1, 40)] + ["y"]
    nodes = [helper.make_node("MatMul", [a, "H"], [b], name="mm%d" % (k + 1))
             for k, (a, b) in enumerate(zip(["x"] + names[:-1], names))]
    graph = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])],
                              [numpy_helper.from_array(h, "H")])
    path = str(tmp_path / "chain.onnx")
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)
    x = np.array([[1, 2, 3, 4]], dtype=np.float32)
    value = {k: (x if k % 2 == 0 else x @ h) for k in range(41)}
    m = nnref.load(path)
    loose = m.conform({"x": x}, value[40])
    assert loose.verdict == "inconclusive" and loose.outputs[0]["not_judged"] == 4
    assert "grew wider than its values" in loose.outputs[0]["first_lost_at"]["why"]
    given = {"h%d" % k: value[k] for k in range(1, 40)}
    verdict = nnref.testing.assert_conforms(m, {"x": x}, value[40], intermediates=given)
    assert verdict.intermediates["judged"] == 39 and verdict.intermediates["not_judged"] == 0
    given["h7"] = given["h7"] + np.float32(1)
    with pytest.raises(AssertionError) as failed:
        nnref.testing.assert_conforms(m, {"x": x}, value[40], intermediates=given)
    assert "intermediate 'h7' (matmul) first outside its envelope" in str(failed.value)
    with pytest.raises(nnref.Error) as unknown:
        m.conform({"x": x}, value[40], intermediates={"nowhere": x})
    assert unknown.value.code == "usage.intermediate-unknown"
