"""nnref as an ONNX backend (docs/python.md, "The ONNX backend"): ONNX's own backend tests run
through nnref's oracle, unchanged:

    import onnx.backend.test, nnref.onnx_backend
    globals().update(onnx.backend.test.BackendTest(nnref.onnx_backend, __name__).test_cases)

The module is the backend, as onnx.backend.test expects (prepare, run_model, run_node,
supports_device, is_compatible at module level); NnrefBackend is the same as a class implementing
onnx.backend.base.Backend. A model is written to a temporary folder and read by nnref.load, as
`nnref run` reads it, so its diagnostics are the command's; graph inputs that nnref reads at load
time (a weight, axes) are bound to the arrays run is given, as `nnref run` binds its --input ones
(nnref.load(..., bind_inputs=True)).

supports_model(model) is False for what nnref does not read or run (refusal(model) says why: an
nnref.Error whose code is one of UNSUPPORTED); the runner's hook is_compatible is supports_model, so
those cases are skipped. Any other nnref error on a model it reads is raised by prepare or run: it
fails the test. A tensor with an extent 0 known when the model is read (an input declaring one,
what ops make of it) is an empty value, an output that is one an empty array (docs/onnx.md, "Empty
values"); an extent 0 that only the inputs' data gives at run time (ConstantOfShape of a shape
computed to [0]) is found by run: it raises Unsupported, an nnref.Error that is also a
unittest.SkipTest.

BackendRep.run returns the outputs in the graph's output order, each with the element type the
model declares: real outputs are computed in float64 (precision="f64", or "mp": 50 digits) and
rounded once to float32 / float16; integer and bool outputs are nnref's exact values in their type.
"""

import os
import tempfile
import unittest

import numpy as np
import onnx
import onnx.backend.base
import onnx.mapping
import onnx.shape_inference

import nnref

__all__ = ["NnrefBackend", "NnrefRep", "Unsupported", "UNSUPPORTED", "refusal", "supports_model", "prepare",
           "run_model", "run_node", "supports_device", "is_compatible"]

# The codes nnref gives a valid model it does not read or run: a feature nnref lacks, not an error in
# the model nor in nnref (nnref check --explain CODE). Every other code fails the test.
UNSUPPORTED = frozenset({
    "onnx.opset-unsupported", "onnx.domain-unsupported", "onnx.op-unsupported", "onnx.attribute-unsupported",
    "onnx.input-unsupported", "onnx.type-unsupported", "onnx.shape-unsupported", "onnx.output-unsupported",
    "onnx.tensor-type-unsupported",
    "onnx.input-not-constant",     # a value read at load that is computed at run time (graph inputs are bound)
    "onnx.tensor-integer-range",   # an integer beyond 2^53 read as data
    "onnx.integer-range",          # an integer result nnref does not hold (a uint64 of 2^63 or more)
    "onnx.value-undecided",        # a count read at load that float32 runtimes need not compute alike
    "onnx.shape-unknown",          # a node needs a shape the inference rules do not give
    "onnx.input-shape",            # a graph input declaring no shape (nnref binds every extent)
    "shape.empty-extent",          # an extent 0: nnref holds no empty tensor
})

_MODEL_FILE = "model.onnx"


class Unsupported(nnref.Error, unittest.SkipTest):
    """An nnref.Error with a code of UNSUPPORTED found only when running (an extent 0 computed from
    the inputs' data); a unittest.SkipTest too, so that onnx's runner reports the case as skipped,
    naming the code, rather than as a failure."""


class _Saved:
    """A ModelProto written to a temporary folder (its own, since nnref re-reads the file, with any
    external data beside it, each time the model runs) and loaded by nnref."""

    def __init__(self, model):
        self._dir = tempfile.TemporaryDirectory(prefix="nnref-onnx-")
        self.path = os.path.join(self._dir.name, _MODEL_FILE)
        try:
            onnx.save(model, self.path)
            self.model = nnref.load(self.path, bind_inputs=True)  # inputs read at load: bound by run
        except BaseException:
            self.close()
            raise

    def close(self):
        self._dir.cleanup()


def refusal(model):
    """Why nnref does not read or run `model` (a ModelProto): an nnref.Error whose code is one of
    UNSUPPORTED, or None when nnref reads it. Never raises: a model onnx cannot write to a file (a
    protobuf beyond 2 GB) is refused as io.write; an nnref error that is not about support (a
    malformed model, a bug in nnref) gives None, so that prepare raises it and the test fails."""
    try:
        saved = _Saved(model)
    except nnref.Error as err:
        return err if err.code in UNSUPPORTED else None
    except Exception as err:  # noqa: BLE001: a model onnx cannot write is one nnref cannot read
        return nnref.Error("io.write", "the model cannot be written for nnref to read: %s" % err)
    try:
        saved.model.inputs
    except nnref.Error:  # inputs read at load wait for run's arrays
        pass
    finally:
        saved.close()
    return None


def supports_model(model):
    """Whether nnref reads and runs `model` (a ModelProto); False when refusal(model) gives a reason."""
    return refusal(model) is None


def _declared_type(value_info):
    """The ONNX element type the model declares for a value, or None when it declares none."""
    return value_info.type.tensor_type.elem_type if value_info.type.HasField("tensor_type") else None


def _numpy_type(value_info):
    """The NumPy dtype the model declares for an output, or None when it declares none."""
    elem = _declared_type(value_info)
    return np.dtype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[elem]) if elem in onnx.mapping.TENSOR_TYPE_TO_NP_TYPE else None


# NumPy has no bfloat16: ONNX's test data and runner hold a bfloat16 tensor as the uint16 array of
# its bits. A bfloat16 input given so is read as the values the bits stand for; a bfloat16 output
# is handed back so (nnref's value rounded to bfloat16, to nearest, ties to even).
def _bfloat16_values(bits):
    return (np.asarray(bits).astype(np.uint32) << 16).view(np.float32)


_BFLOAT16_MAX = float.fromhex("0x1.fep127")  # the largest finite bfloat16


def _bfloat16_bits(value):
    """value (float64) rounded to the nearest bfloat16, ties to even, as its 16 bits: the scaling by a
    power of two and np.round (halves to even) are exact in float64, as nnref's round_bf16."""
    f = np.asarray(value, dtype=np.float64)
    finite = np.isfinite(f) & (f != 0)
    e = np.frexp(np.where(finite, f, 1.0))[1]  # |f| in [2^(e−1), 2^e)
    q = np.maximum(e - 1, -126) - 7
    r = np.where(finite, np.ldexp(np.round(np.ldexp(f, -q)), q), f)
    r = np.where(np.abs(r) > _BFLOAT16_MAX, np.copysign(np.inf, f), r)
    return (r.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)


def _as_declared(name, value, dtype):
    """nnref's output `value` (float64, or float32) in the model's declared dtype: a float type by
    one rounding; an integer or bool type exactly, an output that is not exactly of that type being
    a ValueError (a wrong answer of nnref must fail, not be wrapped by a cast)."""
    if dtype is None or dtype == value.dtype:
        return value
    if dtype.kind == "f":
        return value.astype(dtype)
    cast = value.astype(dtype)
    if not np.array_equal(cast.astype(np.float64), value):
        raise ValueError("nnref: output '%s' holds values that are not %s" % (name, dtype))
    return cast


class NnrefRep(onnx.backend.base.BackendRep):
    """A model prepared by nnref: run(inputs) evaluates it in `precision` ("f64" or "mp")."""

    def __init__(self, model, precision="f64"):
        if precision not in ("f64", "mp"):
            raise ValueError('precision: "f64" or "mp" (the outputs are rounded to the declared type)')
        self._saved = _Saved(model)
        self.precision = precision
        initializers = {t.name for t in model.graph.initializer}
        self.input_names = [i.name for i in model.graph.input if i.name not in initializers]
        self.outputs = [(o.name, _numpy_type(o)) for o in model.graph.output]
        bf16 = onnx.TensorProto.BFLOAT16
        self._bfloat16_inputs = {i.name for i in model.graph.input if _declared_type(i) == bf16}
        self._bfloat16_outputs = {o.name for o in model.graph.output if _declared_type(o) == bf16}

    @property
    def model(self):
        """The nnref.Model."""
        return self._saved.model

    def run(self, inputs, **kwargs):
        """The outputs, a tuple in the graph's output order, for `inputs`: arrays in the order of the
        graph's inputs (initializers left out), a dict {input name: array}, or one array."""
        if isinstance(inputs, dict):
            feeds = dict(inputs)
        else:
            arrays = [inputs] if isinstance(inputs, np.ndarray) else list(inputs)
            if len(arrays) > len(self.input_names):
                raise ValueError("nnref: %d inputs given, the model has %d" % (len(arrays), len(self.input_names)))
            feeds = dict(zip(self.input_names, arrays))
        feeds = {name: _bfloat16_values(a) if name in self._bfloat16_inputs and np.asarray(a).dtype == np.uint16 else a
                 for name, a in feeds.items()}
        try:
            got = self.model.run(feeds, precision=self.precision)
        except nnref.Error as err:
            if err.code in UNSUPPORTED:
                raise Unsupported(err.code, err.message, err.file, err.line, err.column, err.node, err.notes,
                                  str(err)) from err
            raise
        return tuple(_bfloat16_bits(got[name]) if name in self._bfloat16_outputs else _as_declared(name, got[name], dtype)
                     for name, dtype in self.outputs)


class NnrefBackend(onnx.backend.base.Backend):
    """nnref as an onnx.backend.base.Backend (the module's functions are its class methods)."""

    @classmethod
    def supports_model(cls, model):
        """Whether nnref reads and runs `model`: the module's supports_model."""
        return supports_model(model)

    @classmethod
    def is_compatible(cls, model, device="CPU", **kwargs):
        """onnx.backend.test's hook to skip a model: supports_model."""
        return supports_model(model)

    @classmethod
    def supports_device(cls, device):
        """nnref evaluates on the host: "CPU" only."""
        return onnx.backend.base.Device(device).type == onnx.backend.base.DeviceType.CPU

    @classmethod
    def prepare(cls, model, device="CPU", precision="f64", **kwargs):
        """A NnrefRep of `model` (a ModelProto). Raises nnref.Error for a model nnref does not read."""
        if not cls.supports_device(device):
            raise ValueError("nnref runs on the CPU, not on %s" % device)
        return NnrefRep(model, precision)

    @classmethod
    def run_model(cls, model, inputs, device="CPU", **kwargs):
        return cls.prepare(model, device, **kwargs).run(inputs)

    @classmethod
    def run_node(cls, node, inputs, device="CPU", outputs_info=None, **kwargs):
        """The outputs of one NodeProto on `inputs` (arrays, in the order of node.input): the node in
        a model of its own, at opset `opset_version` (default: onnx's), its outputs typed by
        `outputs_info` ([(dtype, shape)]) or by ONNX's shape inference."""
        opset = kwargs.pop("opset_version", onnx.defs.onnx_opset_version())
        arrays = [np.asarray(a) for a in inputs]
        graph_inputs = [onnx.helper.make_tensor_value_info(name, onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[a.dtype],
                                                           a.shape)
                        for name, a in zip(node.input, arrays) if name]
        if outputs_info is not None:
            graph_outputs = [onnx.helper.make_tensor_value_info(name, onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[np.dtype(t)],
                                                                shape)
                             for name, (t, shape) in zip(node.output, outputs_info)]
        else:
            probe = onnx.helper.make_model(onnx.helper.make_graph([node], "node", graph_inputs, []),
                                           opset_imports=[onnx.helper.make_opsetid("", opset)])
            inferred = {v.name: v for v in onnx.shape_inference.infer_shapes(probe, strict_mode=True).graph.value_info}
            missing = [name for name in node.output if name and name not in inferred]
            if missing:
                raise ValueError("run_node: ONNX's shape inference gives no type for %s: give outputs_info" % missing)
            graph_outputs = [inferred[name] for name in node.output if name]
        model = onnx.helper.make_model(onnx.helper.make_graph([node], "node", graph_inputs, graph_outputs),
                                       opset_imports=[onnx.helper.make_opsetid("", opset)])
        return cls.run_model(model, [a for name, a in zip(node.input, arrays) if name], device, **kwargs)


is_compatible = NnrefBackend.is_compatible
supports_device = NnrefBackend.supports_device
prepare = NnrefBackend.prepare
run_model = NnrefBackend.run_model
run_node = NnrefBackend.run_node
