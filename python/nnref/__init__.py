"""nnref: a reference interpreter for neural-network models, from Python (docs/python.md).

nnref.load(path) reads a model (NNL, NNEF, ONNX, NAC) as `nnref` the command does; the Model it
returns checks its obligations for every size (check), runs it in a chosen precision (run) and
judges another runtime's outputs against its float32 envelope (conform). Every diagnostic nnref
gives is raised as nnref.Error, with the code the command-line tool prints.
"""

import json as _json

import numpy as _np

__all__ = ["Error", "Model", "Input", "Output", "Report", "Obligation", "Verdict", "load"]


class Error(Exception):
    """A diagnostic of nnref: its code (as `nnref check --explain CODE` explains it), its message,
    the place in the model's source it is about (file, line, column; 0 when unknown), the node it
    names and its notes. str() is the text the command-line tool prints."""

    def __init__(self, code, message, file="", line=0, column=0, node="", notes=(), text=None):
        super().__init__(text if text is not None else "error[%s]: %s" % (code, message))
        self.code = code
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.node = node
        self.notes = list(notes)


from . import _nnref  # noqa: E402  (nnref.Error must exist before the extension raises it)


class Input:
    """A model input: its name, its shape (an extent a size name stands for is that name, a str),
    and its kind: "real", "integer" or "logical"."""

    def __init__(self, name, shape, kind):
        self.name, self.shape, self.kind = name, shape, kind

    def __repr__(self):
        return "Input(%r, shape=%r, kind=%r)" % (self.name, self.shape, self.kind)


class Output(Input):
    """A model output: its name, its shape at the model's declared sizes, and its kind."""

    def __repr__(self):
        return "Output(%r, shape=%r, kind=%r)" % (self.name, self.shape, self.kind)


class Obligation:
    """One finding of a check: an obligation refuted (with a counterexample, the sizes for which it
    fails) or not decided ("unknown"), or a warning. Fields as in `nnref check --format json`."""

    def __init__(self, d):
        self.code = d["code"]
        self.severity = d["severity"]
        self.message = d["message"]
        self.file, self.line, self.column = d["file"], d["line"], d["column"]
        self.node = d["node"]
        self.notes = d["notes"]
        self.counterexample = d.get("counterexample")
        if self.severity != "error":
            self.status = self.severity
        elif self.message.startswith("could not be decided"):
            self.status = "unknown"
        else:
            self.status = "refuted"

    def __repr__(self):
        return "Obligation(%s %s at %s:%d:%d: %s)" % (self.status, self.code, self.file, self.line, self.column,
                                                       self.message)


class Report:
    """The report of Model.check: the counts of obligations (total, proved, refuted, unknown), every
    finding that is not a proof (`findings`), and the JSON of `nnref check --format json` (`json`).
    bool(report) is true when every obligation was proved."""

    def __init__(self, text):
        self.json = _json.loads(text)
        counts = self.json["obligations"]
        self.total, self.proved = counts["total"], counts["proved"]
        self.refuted, self.unknown = counts["refuted"], counts["unknown"]
        self.bindings_checked = self.json["bindings_checked"]
        self.findings = [Obligation(d) for d in self.json["diagnostics"]]

    @property
    def errors(self):
        return [f for f in self.findings if f.severity == "error"]

    def __bool__(self):
        return self.refuted == 0 and self.unknown == 0 and not self.errors

    def __repr__(self):
        return "Report(total=%d, proved=%d, refuted=%d, unknown=%d)" % (self.total, self.proved, self.refuted,
                                                                       self.unknown)


class Verdict:
    """The verdict of Model.conform, with the fields of `nnref conform --format json` as attributes
    (verdict, runtime_precision, unit_roundoff, ulps, outputs: one dict per output). bool() is true
    only for "conforms"; str() is the explanation `nnref conform` prints."""

    def __init__(self, json_text, explanation):
        self.json = _json.loads(json_text)
        for key, value in self.json.items():
            setattr(self, key, value)
        self.explanation = explanation

    def __bool__(self):
        return self.verdict == "conforms"

    def __str__(self):
        return self.explanation

    def __repr__(self):
        return "Verdict(%r)" % self.verdict


def _dims(dims, ranges):
    """{name: size} (run, conform) or {name: (lo, hi)} (check) as the CLI's --dim values."""
    out = []
    for name, value in (dims or {}).items():
        if ranges and isinstance(value, (tuple, list)):
            lo, hi = value
            out.append((str(name), "%d..%d" % (lo, hi)))
        else:
            out.append((str(name), "%d" % value))
    return out


def _array(value):
    """An array in the machine's byte order (the extension reads the elements as they lie)."""
    a = _np.asarray(value)
    if a.dtype.byteorder not in ("=", "|"):
        a = a.astype(a.dtype.newbyteorder("="))
    return a


def _arrays(inputs):
    if not isinstance(inputs, dict):
        raise TypeError("inputs: a dict {input name: array}")
    return {str(k): _array(v) for k, v in inputs.items()}


class Model:
    """A model loaded by nnref.load."""

    def __init__(self, path, max_memory=None, bind_inputs=False):
        self._m = _nnref.Model(str(path), _nnref.default_max_memory if max_memory is None else int(max_memory),
                               bool(bind_inputs))

    path = property(lambda self: self._m.path, doc="the model file")
    format = property(lambda self: self._m.format, doc='the front-end: "nnl", "nnef", "onnx", "nac"')
    precision = property(lambda self: self._m.precision, doc="the precision the model is meant to run in")
    weights_loaded = property(lambda self: self._m.weights_loaded, doc="whether its weights exist and were read")
    size_names = property(lambda self: self._m.size_names, doc="the names dims= gives input extents")

    @property
    def opsets(self):
        """The opsets the file imports, {domain: version} ("ai.onnx" for ONNX's default domain), for
        a format that has them (ONNX); {} for the others."""
        return self._m.opsets()

    @property
    def inputs(self):
        return [Input(*i) for i in self._m.inputs()]

    @property
    def outputs(self):
        return [Output(*o) for o in self._m.outputs()]

    def check(self, dims=None, assume=(), solver_budget=None):
        """Every obligation of the model for every size the ranges `dims` ({name: (lo, hi)}) and the
        assumptions `assume` (`nnref check --assume` expressions) admit: a Report."""
        budget = _nnref.default_solver_budget if solver_budget is None else int(solver_budget)
        return Report(self._m.check(_dims(dims, True), [str(a) for a in assume], budget))

    def run(self, inputs, precision="f64", dims=None, runtime_precision="f32", ulps=4.0):
        """The outputs {name: array} for the arrays `inputs` ({input name: array}), at the sizes
        they give (and `dims`, {name: size}). precision: "f32" (float32 arrays), "f64", "mp"
        (float64 arrays); "interval" (the exact value's enclosure) or "envelope" (every answer a
        runtime computing in `runtime_precision` may give): {name: (lower, upper)}."""
        return self._m.run(_arrays(inputs), str(precision), _dims(dims, False), str(runtime_precision), float(ulps))

    def conform(self, inputs, actual, runtime_precision="f32", ulps=4.0, dims=None, intermediates=None,
                exact=False):
        """The Verdict on a runtime's outputs `actual` (an array for a model with one output, or
        {output name: array}) for the arrays `inputs`, as `nnref conform` gives it. `intermediates`
        ({ONNX value or SkriptND component name: array}) are the runtime's values of intermediate
        values: each is judged against its op's envelope and taken downstream (conform
        --intermediates), which a deep model needs to be judged at all. `exact`: enclose the exact
        value always (conform --exact), not only where the verdict needs it; each worst element's
        "exact" is None when it was not."""
        actual = _arrays(actual) if isinstance(actual, dict) else _array(actual)
        given = None if intermediates is None else _arrays(intermediates)
        json_text, text = self._m.conform(_arrays(inputs), actual, str(runtime_precision), float(ulps),
                                          _dims(dims, False), given, bool(exact))
        return Verdict(json_text, text)

    def __repr__(self):
        return "nnref.Model(%r, format=%r)" % (self.path, self.format)


def load(path, max_memory=None, bind_inputs=False):
    """Reads the model at `path` (its weights when they exist): a Model. Raises nnref.Error.
    bind_inputs: a model that reads graph inputs at load time (an ONNX Conv weight, Unsqueeze axes
    given as inputs) loads anyway; run and conform bind those inputs to the arrays they are given,
    as `nnref run` does (docs/onnx.md, "Inputs bound at load"), and its other uses raise the load's
    error."""
    return Model(path, max_memory, bind_inputs)
