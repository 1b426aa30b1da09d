"""nnref.onnx_backend (docs/python.md, "The ONNX backend") on models built here with onnx.helper:
outputs against NumPy, in the declared dtypes and the graph's output order; supports_model's
refusals, with nnref's codes; a malformed model raising rather than refused; an empty input run to
an empty output; an extent 0 found at run time raised as Unsupported (a unittest.SkipTest); run_node;
and onnx's runner on two node tests.
The whole of onnx's backend tests is ctest onnx_backend (tests/python/onnx_backend_suite.py).
"""
import unittest

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

import nnref
import nnref.onnx_backend as backend

# onnx 1.12's runner compares dtypes with numpy.object, which NumPy 1.24 removed (onnx_backend_suite.py).
if "object" not in np.__dict__:
    np.object = object

import onnx.backend.test  # noqa: E402


def model(nodes, inputs, outputs, initializers=(), opset=13):
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info(*i) for i in inputs],
                              [helper.make_tensor_value_info(*o) for o in outputs], list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


RNG = np.random.default_rng(7)
X = RNG.standard_normal((2, 3)).astype(np.float32)
Y = RNG.standard_normal((2, 3)).astype(np.float32)


def two_outputs():
    """s = x + y and r = Relu(x), declared in the order r, s (the nodes compute s first)."""
    return model([helper.make_node("Add", ["x", "y"], ["s"]), helper.make_node("Relu", ["x"], ["r"])],
                  [("x", TensorProto.FLOAT, [2, 3]), ("y", TensorProto.FLOAT, [2, 3])],
                  [("r", TensorProto.FLOAT, [2, 3]), ("s", TensorProto.FLOAT, [2, 3])])


def test_outputs_in_graph_order_and_declared_dtype():
    r, s = backend.run_model(two_outputs(), [X, Y])
    assert r.dtype == np.float32 and s.dtype == np.float32
    # The exact sum of two float32 rounded once to float32 is NumPy's float32 sum (IEEE addition).
    np.testing.assert_array_equal(s, X + Y)
    np.testing.assert_array_equal(r, np.maximum(X, 0))


def test_inputs_as_dict_or_list_and_mp():
    rep = backend.prepare(two_outputs())
    by_name = rep.run({"y": Y, "x": X})
    np.testing.assert_array_equal(by_name[1], X + Y)
    mp = backend.prepare(two_outputs(), precision="mp").run([X, Y])
    np.testing.assert_array_equal(mp[1], X + Y)
    with pytest.raises(ValueError):
        backend.prepare(two_outputs(), precision="f32")


def test_double_and_integer_and_bool_outputs():
    m = model([helper.make_node("Mul", ["a", "b"], ["p"]), helper.make_node("Add", ["i", "j"], ["q"]),
               helper.make_node("Greater", ["a", "b"], ["g"])],
              [("a", TensorProto.DOUBLE, [4]), ("b", TensorProto.DOUBLE, [4]), ("i", TensorProto.INT32, [4]),
               ("j", TensorProto.INT32, [4])],
              [("p", TensorProto.DOUBLE, [4]), ("q", TensorProto.INT32, [4]), ("g", TensorProto.BOOL, [4])])
    a, b = np.array([0.1, -2.5, 3.0, 1e300]), np.array([3.0, 0.5, -3.0, 1e-300])
    i, j = np.array([1, -7, 2**30, 5], np.int32), np.array([2, 3, 2**30 - 1, -5], np.int32)
    p, q, g = backend.run_model(m, [a, b, i, j])
    assert (p.dtype, q.dtype, g.dtype) == (np.float64, np.int32, np.bool_)
    np.testing.assert_array_equal(p, a * b)  # one IEEE product each: the exact product rounded once
    np.testing.assert_array_equal(q, [3, -4, 2**31 - 1, 0])
    np.testing.assert_array_equal(g, [False, False, True, True])


def test_refusals_are_false_with_nnref_codes():
    bernoulli = model([helper.make_node("Bernoulli", ["x"], ["u"])], [("x", TensorProto.FLOAT, [4])],
                      [("u", TensorProto.FLOAT, [4])], opset=15)
    custom = model([helper.make_node("Foo", ["x"], ["y"], domain="com.example")], [("x", TensorProto.FLOAT, [4])],
                   [("y", TensorProto.FLOAT, [4])])
    custom.opset_import.append(helper.make_opsetid("com.example", 1))
    axes = model([helper.make_node("ReduceSum", ["x", "axes"], ["y"])],
                 [("x", TensorProto.FLOAT, [2, 3]), ("axes", TensorProto.INT64, [1])],
                 [("y", TensorProto.FLOAT, [1, 3])])
    for m, code in ((bernoulli, "onnx.op-unsupported"), (custom, "onnx.domain-unsupported")):
        assert backend.supports_model(m) is False
        assert not backend.is_compatible(m)
        assert backend.refusal(m).code == code
    assert backend.supports_model(two_outputs()) is True
    assert backend.refusal(two_outputs()) is None
    # Axes given as a graph input are read at load: run binds them to the array given, as `nnref
    # run` does (docs/onnx.md, "Inputs bound at load"): the column sums, by hand.
    assert backend.supports_model(axes) is True
    (y,) = backend.run_model(axes, [np.array([[1, 2, 3], [4, 5, 6]], np.float32), np.array([0], np.int64)])
    np.testing.assert_array_equal(y, [[5, 7, 9]])
    # An input declaring an extent 0 is an empty value: its output an empty array of the declared type
    # (docs/onnx.md, "Empty values").
    empty = model([helper.make_node("Relu", ["x"], ["y"])], [("x", TensorProto.FLOAT, [0, 3])],
                  [("y", TensorProto.FLOAT, [0, 3])])
    assert backend.supports_model(empty) is True
    (y,) = backend.run_model(empty, [np.zeros((0, 3), np.float32)])
    assert y.shape == (0, 3) and y.dtype == np.float32


def test_a_malformed_model_is_supported_and_fails():
    # Reads a name nothing defines: an error in the model, not a feature nnref lacks; the runner must
    # report it as a failure, so supports_model lets it through and prepare raises.
    m = model([helper.make_node("Relu", ["nowhere"], ["y"])], [("x", TensorProto.FLOAT, [2])],
              [("y", TensorProto.FLOAT, [2])])
    assert backend.supports_model(m)
    with pytest.raises(nnref.Error) as err:
        backend.prepare(m)
    assert err.value.code == "onnx.value-undefined"


def test_an_empty_extent_from_data_is_unsupported_at_run():
    # The shape computed from the input (shape + 0): read at run time, where [0] is an empty tensor.
    zero = helper.make_tensor("zero", TensorProto.INT64, [1], [0])
    m = model([helper.make_node("Add", ["shape", "zero"], ["s"]), helper.make_node("ConstantOfShape", ["s"], ["y"])],
              [("shape", TensorProto.INT64, [1])], [("y", TensorProto.FLOAT, [None])], [zero])
    assert backend.supports_model(m)
    rep = backend.prepare(m)
    np.testing.assert_array_equal(rep.run([np.array([3], np.int64)])[0], np.zeros(3, np.float32))
    with pytest.raises(backend.Unsupported) as err:
        rep.run([np.array([0], np.int64)])
    assert err.value.code == "shape.empty-extent"
    assert isinstance(err.value, nnref.Error) and isinstance(err.value, unittest.SkipTest)


def test_a_shape_given_as_an_input_is_bound_and_may_be_empty():
    # ConstantOfShape's shape given as a graph input is bound at load: [0] is an empty output there.
    m = model([helper.make_node("ConstantOfShape", ["shape"], ["y"])], [("shape", TensorProto.INT64, [1])],
              [("y", TensorProto.FLOAT, [None])])
    rep = backend.prepare(m)
    np.testing.assert_array_equal(rep.run([np.array([3], np.int64)])[0], np.zeros(3, np.float32))
    y = rep.run([np.array([0], np.int64)])[0]
    assert y.shape == (0,) and y.dtype == np.float32


def test_devices():
    assert backend.supports_device("CPU") and not backend.supports_device("CUDA")
    with pytest.raises(ValueError):
        backend.prepare(two_outputs(), "CUDA")


def test_run_node():
    (s,) = backend.run_node(helper.make_node("Add", ["x", "y"], ["s"]), [X, Y])
    assert s.dtype == np.float32
    np.testing.assert_array_equal(s, X + Y)
    i = np.array([[1, 2], [3, 4]], np.int64)
    (t,) = backend.run_node(helper.make_node("Transpose", ["i"], ["t"]), [i], outputs_info=[(np.int64, (2, 2))])
    assert t.dtype == np.int64
    np.testing.assert_array_equal(t, [[1, 3], [2, 4]])


def test_onnx_runner_on_two_node_tests():
    # As a runtime's own test file would: onnx's runner, restricted to two node tests, one that nnref
    # runs (Relu) and one it refuses (StringNormalizer, of strings: skipped, not failed).
    tests = onnx.backend.test.BackendTest(backend, __name__)
    tests.include(r"^test_(relu|strnormalizer_nostopwords_nochangecase)_cpu$")
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(tests.test_cases["OnnxBackendNodeModelTest"])
    result = unittest.TestResult()
    suite.run(result)
    assert not result.failures and not result.errors
    skipped = {t._testMethodName: why for t, why in result.skipped}
    assert "test_relu_cpu" not in skipped
    assert skipped["test_strnormalizer_nostopwords_nochangecase_cpu"] == "Not compatible with backend"
    assert result.testsRun == suite.countTestCases()


def test_onnx_runner_fails_a_wrong_answer():
    # The comparison the runner makes is not vacuous here: the same backend with one output element
    # moved by 1 (beyond rtol 1e-3 of any value below 1000) fails test_relu.
    class Off(backend.NnrefRep):
        def run(self, inputs, **kwargs):
            out = super().run(inputs, **kwargs)
            out[0].flat[0] += np.float32(1)
            return out

    class OffBackend(backend.NnrefBackend):
        @classmethod
        def prepare(cls, model, device="CPU", **kwargs):
            return Off(model)

    tests = onnx.backend.test.BackendTest(OffBackend, __name__).include(r"^test_relu_cpu$")
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(tests.test_cases["OnnxBackendNodeModelTest"])
    result = unittest.TestResult()
    suite.run(result)
    assert [t._testMethodName for t, _ in result.failures] == ["test_relu_cpu"]
