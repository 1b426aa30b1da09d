#!/usr/bin/python3
"""Single-operator SkriptND graphs against an independent NumPy float64 evaluation (issue 33).

One graph per (operator, attributes, shapes) draw, for every standard operator nnref maps
natively (docs/nnef2.md, "The native mapping"): each is written to a temporary model folder
(main.sknd and its variables' .dat files), and sknd_reference.judge requires `nnref check` to
pass, `nnref run --precision f64` on random inputs to agree with the NumPy evaluation of
sknd_numpy_ops.py (written from chapter 4 of the Revision 8 draft) within 1e-12 of each output's
largest magnitude, and `nnref conform` to accept its float32 rounding. Further draws break an
operator's @assert: `nnref check` must refuse them with the code, located at the invocation.

The draws are fixed and each one's random values come from a seed derived from its name, so a
draw gives the same graph and values whatever --filter selects.

Usage:
    sknd_single_ops.py --nnref BIN [--jobs N] [--filter TEXT] [--keep DIR] [--verbose]
    sknd_single_ops.py --list
"""

import argparse
import concurrent.futures
import os
import shutil
import sys
import tempfile
import zlib
from dataclasses import dataclass

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sknd_numpy_ops as ops  # noqa: E402
from sknd_reference import judge, run, write_variables  # noqa: E402

GRAPH, OUTPUT = "Single", "out"
# The outputs of an operator of several, named as its definition names them; any other operator's is OUTPUT.
OUTPUTS = {"math.moments": ("mean", "variance")}

# ------------------------------------------------------------------ draws


@dataclass
class Operand:
    name: str
    shape: tuple
    role: str = "input"  # or "variable": a .dat file, as nnref's conv, linear and batch_norm need
    domain: str = "normal"

    @property
    def type(self):
        """The element type its domain's values have: int, bool or real."""
        return "int" if self.domain in ("ints", "nonzero_ints", "exponents") or self.domain.startswith("index") else (
            "bool" if self.domain == "bools" else "real")


@dataclass
class Draw:
    op: str
    attrs: dict
    operands: list  # Operand, None (an omitted optional input, `~`) or a list of Operands (a pack)
    refusal: str = None  # the code `nnref check` must give, or None: the graph must run and agree
    tag: str = ""  # a word saying what the draw is about, in its name
    generics: tuple = ()  # the types given between <>

    def flat(self):
        for o in self.operands:
            yield from (o if isinstance(o, list) else [] if o is None else [o])

    @property
    def name(self):
        shapes = " ".join("%s%s%s" % (o.name, "" if o.type == "real" else ":" + o.type, list(o.shape))
                          for o in self.flat())
        return "%s%s{%s} %s%s" % (self.op, generics_text(self.generics), attributes_text(self.attrs), shapes,
                                  " " + self.tag if self.tag else "")


def inp(name, *shape, domain="normal"):
    return Operand(name, shape, "input", domain)


def var(name, *shape, domain="normal"):
    return Operand(name, shape, "variable", domain)


def unary_draws():
    domains = {"math.log": "positive", "math.log2": "positive", "math.sqrt": "positive", "math.rsqrt": "positive",
               "math.rcp": "nonzero", "math.rsqr": "nonzero", "math.asin": "unit", "math.acos": "unit",
               "math.atanh": "unit", "math.acosh": "above1", "math.tan": "half", "math.floor": "wide",
               "math.ceil": "wide", "math.sign": "wide"}
    shapes = [(2, 3, 4), (5,), (2, 1, 3, 2)]
    for k, op in enumerate(ops.UNARY):
        for shape in (shapes[k % 3], shapes[(k + 1) % 3]):
            yield Draw(op, {}, [inp("x", *shape, domain=domains.get(op, "normal"))])


def binary_draws():
    y_domain = {"math.div": "nonzero"}
    x_domain = {"math.pow": "positive"}
    cases = [
        ({}, (2, 3, 4), (2, 3, 4), "input"),
        ({}, (2, 3, 4), (4,), "input"),  # trailing alignment, NumPy's
        ({}, (2, 1, 4), (3, 1), "variable"),  # both broadcast
        ({"rhs_align": 1}, (2, 3, 4), (3,), "variable"),  # batch_norm's alignment
        ({"lhs_align": 0}, (2, 3), (2, 3, 4), "input"),  # a left-aligned lhs
        ({"lhs_align": -1}, (3,), (2, 3, 4), "input"),  # one axis from the end
        ({"lhs_align": 2}, (3,), (2, 3), "input"),  # the result's rank past both operands'
        ({"lhs_align": 1, "rhs_align": 0}, (3,), (2, 3), "variable"),
    ]
    for k, op in enumerate(ops.BINARY):
        for j in (k % 8, (k + 2) % 8, (k + 4) % 8, (k + 6) % 8):
            attrs, xs, ys, role = cases[j]
            y = Operand("y", ys, role, y_domain.get(op, "normal"))
            yield Draw(op, attrs, [inp("x", *xs, domain=x_domain.get(op, "normal")), y])
    # a negative base to whole powers (0 to 3): real results
    yield Draw("math.pow", {}, [inp("x", 2, 3), var("y", 3, domain="counts")], tag="whole")


def activation_draws():
    for attrs, shape in (({}, (2, 3, 4)), ({"alpha": 0.1}, (3, 5)), ({"alpha": 1.0}, (2, 2, 2, 2)),
                         ({"alpha": 0.0}, (7,))):
        yield Draw("nn.relu", attrs, [inp("x", *shape)])
    for attrs, shape in (({}, (2, 3, 4)), ({"alpha": 0.5}, (3, 5)), ({"alpha": 2.0}, (2, 2, 3)), ({"alpha": 2}, (6,))):
        yield Draw("nn.elu", attrs, [inp("x", *shape)])
    for attrs, shape, axis in (({}, (2, 3, 4), 1), ({"axis": -1}, (2, 3, 4), 2), ({"axis": 2}, (2, 2, 5, 3), 2),
                               ({"axis": 0}, (4, 3), 0)):
        yield Draw("nn.prelu", attrs, [inp("x", *shape), var("alpha", shape[axis])])
    yield Draw("nn.prelu", {"axis": -2}, [inp("x", 2, 3, 4), inp("alpha", 3)])  # a slope computed upstream
    for attrs, shape in (({}, (2, 5)), ({"axes": [-1]}, (2, 3, 4)), ({"axes": [1, 2]}, (2, 3, 4)),
                         ({"axes": [0]}, (3, 2)), ({"axes": [3, 1]}, (2, 3, 2, 4)), ({"axes": [0, 1, 2]}, (2, 1, 3))):
        yield Draw("nn.softmax", attrs, [inp("x", *shape)])


def linear_draws():
    yield Draw("nn.linear", {}, [inp("x", 4, 6), var("w", 5, 6), var("b", 5)])
    yield Draw("nn.linear", {}, [inp("x", 2, 3), var("w", 7, 3)])
    yield Draw("nn.linear", {}, [inp("x", 1, 8), var("w", 2, 8), var("b", 2)])
    yield Draw("linalg.matmul", {}, [inp("A", 3, 4), inp("B", 4, 5)])
    yield Draw("linalg.matmul", {"transA": True}, [inp("A", 2, 4, 3), inp("B", 2, 4, 5)])
    yield Draw("linalg.matmul", {"transB": True}, [inp("A", 2, 3, 4), inp("B", 5, 4)])
    yield Draw("linalg.matmul", {"transA": True, "transB": True}, [inp("A", 4, 3), inp("B", 2, 1, 5, 4)])
    yield Draw("linalg.matmul", {}, [inp("A", 2, 1, 3, 4), var("B", 3, 4, 2)])  # batch extents broadcast
    yield Draw("linalg.matmul", {}, [inp("A", 1, 6), inp("B", 6, 1)])


def window_draws():
    # conv, NCX: 1-, 2- and 3-dimensional windows
    conv = [
        ({}, (2, 3, 7), (4, 3, 3), True),  # automatic padding, stride 1: the same extent
        ({"padding": 0}, (1, 2, 6, 5), (3, 2, 3, 2), True),
        ({"stride": 2, "padding": [1, 0, 1, 2]}, (2, 3, 7, 8), (4, 3, 3, 3), False),
        ({"dilation": 2}, (1, 2, 9, 8), (2, 2, 3, 3), True),
        ({"dilation": [1, 2], "stride": [2, 1]}, (1, 2, 8, 9), (3, 2, 2, 3), False),
        ({"groups": 2}, (2, 4, 5, 5), (6, 2, 3, 3), True),
        ({"groups": 0}, (1, 3, 6, 6), (6, 1, 3, 3), True),  # depthwise, two filters a channel
        ({"padding_align": "LOWER"}, (1, 2, 6, 6), (2, 2, 2, 4), True),  # an odd total: the extra one before
        ({"padding_align": "UPPER"}, (1, 2, 6, 6), (2, 2, 2, 4), False),
        ({"stride": 2, "ceil_mode": True}, (1, 2, 7, 6), (3, 2, 3, 3), True),
        # the last window of each axis reads one row of the input, one of padding and one past the padding
        ({"stride": 3, "padding": [1, 1, 1, 1], "ceil_mode": True}, (2, 1, 9, 9), (2, 1, 3, 3), False),
        ({"stride": [1, 2, 2], "padding": 1}, (1, 2, 4, 5, 5), (3, 2, 3, 3, 3), True),
        ({"stride": [2, 1], "padding_align": "LOWER"}, (3, 2, 8, 1), (2, 2, 4, 1), True),  # batch 3, width 1
        ({"dilation": 3, "stride": 2, "padding": [3, 0], "ceil_mode": True}, (1, 2, 10), (2, 2, 3), False),
        ({"padding": [3, 1, 0, 3]}, (1, 2, 4, 4), (2, 2, 3, 3), True),  # first rows, last columns: padding only
        ({"stride": 1, "dilation": 1, "padding_align": "UPPER", "ceil_mode": False, "groups": 1, "data_format": "NCX",
          "filter_format": "NCX"}, (2, 3, 5, 4), (2, 3, 2, 3), True),  # every default given
    ]
    for attrs, xs, ws, bias in conv:
        yield Draw("nn.conv", attrs, [inp("x", *xs), var("w", *ws)] + ([var("b", ws[0])] if bias else []))
    pools = [
        ({"size": 2, "stride": 2}, (2, 3, 6, 6)),
        ({"size": 3}, (1, 2, 5, 7)),  # automatic padding, stride 1
        ({"size": [3, 2], "stride": [2, 1], "padding": [1, 0, 1, 1]}, (2, 2, 7, 6)),
        ({"size": 3, "stride": 2, "ceil_mode": True, "padding": 0}, (1, 2, 8, 8)),
        ({"size": 2, "dilation": 2, "padding": [0, 1, 1, 0]}, (1, 1, 6, 6)),
        ({"size": 3, "stride": 2}, (2, 3, 9)),  # one spatial axis
        ({"size": [2, 2, 3], "padding": 0, "stride": [1, 2, 2]}, (1, 2, 3, 6, 7)),
        ({"size": 2, "padding_align": "LOWER"}, (1, 2, 5, 5)),
        ({"size": 2, "stride": 3, "padding": 0}, (3, 2, 8, 7)),  # a stride past the window skips elements
        ({"size": 1}, (2, 3, 4, 1)),
        ({"size": 3, "stride": 2, "dilation": 2, "padding": [2, 1, 2, 1], "ceil_mode": True}, (1, 2, 9, 8)),
    ]
    for k, (attrs, shape) in enumerate(pools):
        for op in ("nn.max_pool", "nn.sum_pool", "nn.avg_pool")[k % 3:] + ("nn.max_pool", "nn.sum_pool")[:k % 3]:
            yield Draw(op, attrs, [inp("x", *shape)])
    yield Draw("nn.avg_pool", {"size": 3, "padding": 1, "ignore_border": False}, [inp("x", 2, 2, 5, 5)])
    yield Draw("nn.avg_pool", {"size": [3, 2], "stride": 2, "ignore_border": False}, [inp("x", 1, 3, 7, 6)])
    yield Draw("nn.avg_pool", {"size": 3, "stride": 2, "padding": 1, "ceil_mode": True, "ignore_border": False},
               [inp("x", 1, 2, 6, 6)])
    yield Draw("nn.max_pool", {"size": 2, "axes": [2, 3]}, [inp("x", 1, 2, 4, 4)])
    # windows of padding only: a sum of nothing is 0 (a max of nothing is unspecified, §2.12)
    yield Draw("nn.sum_pool", {"size": 2, "padding": [2, 0, 0, 2]}, [inp("x", 1, 2, 4, 4)])


def reduce_draws():
    cases = [({}, (2, 3, 4)), ({"axes": [1]}, (2, 3, 4)), ({"axes": [0, 2], "squeeze": True}, (2, 3, 4)),
             ({"axes": [-1]}, (3, 5)), ({"axes": [-2, 0], "squeeze": True}, (2, 2, 3, 2)), ({"axes": [2]}, (4, 1, 3))]
    domain = {"math.prod_reduce": "near1"}
    for k, op in enumerate(("math.sum_reduce", "math.mean_reduce", "math.max_reduce", "math.min_reduce",
                            "math.prod_reduce")):
        for j in range(3):
            attrs, shape = cases[(2 * k + j) % len(cases)]
            yield Draw(op, attrs, [inp("x", *shape, domain=domain.get(op, "normal"))])
    for attrs, shape in (({"squeeze": True}, (2, 3)), ({"axes": [0, 1], "squeeze": True}, (3, 2))):
        yield Draw("math.sum_reduce", attrs, [inp("x", *shape)], tag="to-rank-0")
    for op in ("math.sum_reduce", "math.mean_reduce", "layout.squeeze", "layout.unsqueeze"):
        yield Draw(op, {"axes": []}, [inp("x", 2, 3)], tag="no-axes")
    yield Draw("nn.elu", {"alpha": -0.5}, [inp("x", 2, 3)], tag="negative-alpha")
    for attrs, bias, scale, shape in (({}, True, True, (2, 3, 4, 4)), ({"epsilon": 0.01}, False, True, (2, 4, 3)),
                                      ({"epsilon": 2.5e-05}, True, True, (4, 3)),
                                      ({"channel_axis": -1}, True, False, (3, 2, 5)),
                                      ({"channel_axis": 2, "epsilon": 0.0}, False, False, (2, 3, 4, 2)),
                                      ({"channel_axis": 0}, True, True, (3, 4))):
        c = shape[attrs.get("channel_axis", 1)]
        yield Draw("nn.batch_norm", attrs,
                   [inp("x", *shape), var("mean", c), var("variance", c, domain="positive"),
                    var("bias", c) if bias else None, var("scale", c) if scale else None])


def layout_draws():
    for attrs, shape in (({"shape": [4, 6]}, (2, 3, 4)), ({"shape": [-1, 2]}, (2, 3, 4)),
                         ({"shape": [3, 2], "axis": 1, "rank": 1}, (4, 6, 5)),
                         ({"shape": [-1], "axis": -2}, (2, 3, 4, 5)),
                         ({"shape": [1], "axis": 1, "rank": 0}, (2, 3)),  # an extent inserted
                         ({"shape": [2, 1, 3], "axis": 1, "rank": 2}, (4, 2, 3, 2))):
        yield Draw("layout.reshape", attrs, [inp("x", *shape)])
    for attrs, shape in (({}, (2, 3, 4)), ({"axis": 1}, (2, 3, 4, 5)), ({"axis": 1, "rank": 2}, (2, 3, 4, 5)),
                         ({"axis": 1, "rank": 0}, (2, 3)), ({"axis": -1, "rank": 1}, (2, 3))):
        yield Draw("layout.flatten", attrs, [inp("x", *shape)])
    for attrs, shape in (({"axis": 1, "shape": [2, 3]}, (4, 6)), ({"axis": -1, "shape": [5, 1, 2]}, (2, 3, 10))):
        yield Draw("layout.unflatten", attrs, [inp("x", *shape)])
    for attrs, shape in (({"axes": [1]}, (2, 1, 3)), ({"axes": [0, -1]}, (1, 4, 3, 1)), ({"axes": [2, 0]}, (1, 5, 1)),
                         ({"axes": [0, 1]}, (1, 1))):
        yield Draw("layout.squeeze", attrs, [inp("x", *shape)])
    for attrs, shape in (({"axes": [0]}, (3, 4)), ({"axes": [1, -1]}, (2, 3)), ({"axes": [3, 0]}, (2, 5))):
        yield Draw("layout.unsqueeze", attrs, [inp("x", *shape)])
    for attrs, shape in (({}, (2, 3, 4)), ({"perm": [0, 2, 1]}, (2, 3, 4)), ({"axis": 1, "perm": [3, 1, 2]},
                                                                              (2, 3, 4, 5)),
                         ({"perm": [-1, 0, -2]}, (3, 2, 4)), ({"axis": -2, "perm": [3, 2]}, (2, 3, 4, 5)),
                         ({}, (5,))):
        yield Draw("layout.transpose", attrs, [inp("x", *shape)])
    yield Draw("layout.concat", {"axis": 1}, [[inp("a", 2, 3, 4), inp("b", 2, 1, 4), var("c", 2, 2, 4)]])
    yield Draw("layout.concat", {"axis": 0}, [[inp("a", 2, 5), inp("b", 2, 5)]])
    yield Draw("layout.concat", {"axis": 0}, [[inp("a", 3)]])
    yield Draw("layout.concat", {"axis": -1}, [[inp("a", 2, 3, 1), inp("b", 2, 3, 4)]])
    yield Draw("layout.concat", {"axis": 2}, [[inp("a", 1, 2, 3, 2), inp("b", 1, 2, 1, 2), inp("c", 1, 2, 2, 2)]])


def refusal_draws():
    """Attributes or shapes that an @assert of the definition refuses."""
    failed = "nnef2.assert.failed"
    yield Draw("nn.conv", {}, [inp("x", 1, 3, 6, 6), var("w", 4, 2, 3, 3)], failed, "input-channels")
    yield Draw("nn.conv", {"groups": 2}, [inp("x", 1, 4, 6, 6), var("w", 3, 2, 3, 3)], failed, "groups")
    yield Draw("nn.conv", {"padding": 0}, [inp("x", 1, 2, 2, 2), var("w", 1, 2, 3, 3)], failed, "small")
    yield Draw("nn.conv", {"stride": 0}, [inp("x", 1, 2, 5, 5), var("w", 1, 2, 3, 3)], failed, "stride")
    yield Draw("nn.conv", {}, [inp("x", 1, 2, 5, 5), var("w", 3, 2, 3, 3), var("b", 4)], failed, "bias")
    yield Draw("nn.max_pool", {"size": 0}, [inp("x", 1, 2, 5, 5)], failed, "size")
    yield Draw("nn.avg_pool", {"size": 3, "padding_align": "MIDDLE"}, [inp("x", 1, 2, 5, 5)], failed, "align")
    yield Draw("nn.sum_pool", {"size": 2, "axes": [2, 2]}, [inp("x", 1, 2, 5, 5)], failed, "axes")
    yield Draw("math.sum_reduce", {"axes": [3]}, [inp("x", 2, 3, 4)], failed, "range")
    yield Draw("math.max_reduce", {"axes": [1, 1]}, [inp("x", 2, 3, 4)], failed, "distinct")
    # The draft's `axes != ..` compares the axes as given: 1 and -2 pass it though both name axis 1 of a
    # rank 3. The definition reduces axis 1 (its mask), but mean_reduce divides by s[axes] * .. = 9, so
    # nnref's reduce refuses the repeated axis.
    yield Draw("math.mean_reduce", {"axes": [1, -2]}, [inp("x", 2, 3, 4)], "shape.axis.duplicate", "normalized")
    yield Draw("nn.softmax", {"axes": [-4]}, [inp("x", 2, 3, 4)], failed, "range")
    yield Draw("math.add", {}, [inp("x", 2, 3), inp("y", 4, 3)], failed, "broadcast")
    yield Draw("math.mul", {"rhs_align": 0}, [inp("x", 2, 3), inp("y", 3)], failed, "align")
    yield Draw("linalg.matmul", {}, [inp("A", 2, 3), inp("B", 4, 5)], failed, "inner")
    yield Draw("linalg.matmul", {"transB": True}, [inp("A", 2, 3, 4), inp("B", 3, 5, 4)], failed, "batch")
    yield Draw("nn.relu", {"alpha": 1.5}, [inp("x", 3, 4)], failed, "alpha")
    yield Draw("nn.batch_norm", {"epsilon": -0.001}, [inp("x", 2, 3, 4), var("mean", 3), var("variance", 3)],
               failed, "epsilon")
    yield Draw("nn.batch_norm", {"channel_axis": 2}, [inp("x", 2, 3, 4), var("mean", 3), var("variance", 3)],
               failed, "channels")
    yield Draw("layout.squeeze", {"axes": [1]}, [inp("x", 2, 3, 1)], failed, "extent")
    yield Draw("layout.unsqueeze", {"axes": [1, 1]}, [inp("x", 2, 3)], failed, "distinct")
    yield Draw("layout.reshape", {"shape": [-1, -1]}, [inp("x", 2, 3, 4)], failed, "two-unknowns")
    yield Draw("layout.reshape", {"shape": [5, 5]}, [inp("x", 2, 3, 4)], failed, "volume")
    yield Draw("layout.unflatten", {"axis": 1, "shape": [2, 2]}, [inp("x", 2, 6)], failed, "volume")
    yield Draw("layout.transpose", {"perm": [0, 0, 1]}, [inp("x", 2, 3, 4)], failed, "distinct")
    # perm's default [d-1:-1:-1] counts from 0, not from `axis`: with axis 1 it names axis 0
    yield Draw("layout.transpose", {"axis": 1}, [inp("x", 2, 3, 4)], failed, "default-perm")
    # the binding of the inputs' shapes, `s..(axis)` then an extent, fails before the @assert is reached
    yield Draw("layout.concat", {"axis": 3}, [[inp("a", 2, 3, 4), inp("b", 2, 3, 4)]], "nnef2.compose.shape", "range")
    yield Draw("layout.unflatten", {"axis": 1, "shape": [-1, 2]}, [inp("x", 2, 6)], failed, "positive")
    # an unknown format reads the channels as XCN does (s[-2]), so they match and the format is what fails
    yield Draw("nn.conv", {"data_format": "NHWC"}, [inp("x", 1, 2, 2, 5), var("w", 3, 2, 1, 1)], failed, "format")
    yield Draw("nn.relu", {"max": -1.0}, [inp("x", 3, 4)], failed, "max")
    yield Draw("layout.squeeze", {"axes": [3]}, [inp("x", 2, 3, 1)], failed, "range")
    yield Draw("layout.transpose", {"axis": 1, "perm": [2, 0]}, [inp("x", 2, 3, 4)], failed, "before-axis")
    # shapes the inputs' declarations refuse before any @assert
    shape = "nnef2.compose.shape"
    yield Draw("nn.linear", {}, [inp("x", 2, 3), var("w", 4, 5)], shape, "channels")
    yield Draw("layout.reshape", {"shape": [6], "axis": 3}, [inp("x", 2, 3)], shape, "axis")
    yield Draw("nn.prelu", {}, [inp("x", 2, 3, 4), var("alpha", 4)], shape, "slope")
    # what the definition allows and nnref's native mapping does not take yet, refused by name
    native = "nnef2.native.attribute"
    yield Draw("nn.relu", {"max": 6.0}, [inp("x", 3, 4)], native, "max")
    yield Draw("nn.max_pool", {"size": 2, "axes": [1]}, [inp("x", 2, 6, 3)], native, "axes")
    yield Draw("linalg.matmul", {}, [inp("A", 2, 3), inp("B", 3, 4), inp("C", 2, 4)], native, "C")
    yield Draw("nn.conv", {"data_format": "NXC"}, [inp("x", 1, 5, 5, 2), var("w", 3, 2, 3, 3)], native, "NXC")
    # softmax over no axes is 1 everywhere by its @compose (a max and a sum over nothing); nnref's
    # softmax requires an axis
    yield Draw("nn.softmax", {"axes": []}, [inp("x", 2, 3)], "attr.axes.empty", "no-axes")
    computed = "nnef2.native.computed-parameter"
    yield Draw("nn.linear", {}, [inp("x", 2, 3), inp("w", 4, 3)], computed, "filter")
    yield Draw("nn.batch_norm", {}, [inp("x", 2, 3), inp("mean", 3), var("variance", 3)], computed, "mean")
    yield Draw("nn.conv", {"stride": 3}, [inp("x", 1, 1, 10, 10), var("w", 1, 1, 3, 3)], "nnef2.native.cropping",
               "auto-padding")
    yield Draw("nn.avg_pool", {"size": 3, "stride": 3, "padding": 1, "ceil_mode": True}, [inp("x", 1, 1, 8, 8)],
               "nnef2.native.ceil-window", "last-window")


def deconv_cumsum_draws():
    """nn.deconv (stride, dilation, groups, explicit and automatic padding of either sign, output_size,
    bias) and math.cumsum (axis, exclusive, reverse), both mapped natively."""
    deconv = [
        ({}, (1, 2, 4, 4), (2, 3, 3, 3), True),
        ({"stride": 2}, (2, 2, 3, 3), (2, 2, 3, 3), False),
        ({"stride": 2, "padding": [1, 0, 1, 2]}, (1, 1, 4, 3), (1, 2, 3, 3), True),
        ({"stride": [1, 3], "dilation": 2, "padding_align": "LOWER"}, (1, 2, 3, 4), (2, 1, 2, 2), True),
        ({"groups": 2, "stride": 2}, (1, 4, 3, 3), (4, 2, 2, 2), True),
        ({"stride": 2, "output_size": [8]}, (2, 3, 4), (3, 2, 3), False),  # one more than computed
        ({"padding": [-1, 2]}, (1, 2, 5), (2, 2, 3), True),  # a padding below 0 widens the output
        ({"stride": 4}, (1, 1, 3, 2), (1, 1, 2, 2), False),  # a stride above the window: automatic padding below 0
    ]
    for attrs, xs, ws, bias in deconv:
        groups = attrs.get("groups", 1)
        yield Draw("nn.deconv", attrs, [inp("x", *xs), var("w", *ws)] + ([var("b", ws[1] * groups)] if bias else []))
    for attrs, shape in (({"axis": 0}, (5,)), ({"axis": 1}, (2, 4, 3)), ({"axis": -1, "exclusive": True}, (3, 4)),
                         ({"axis": 0, "reverse": True}, (4, 2)), ({"axis": 1, "exclusive": True, "reverse": True}, (2, 5))):
        yield Draw("math.cumsum", attrs, [inp("x", *shape)])


def ints(name, *shape, role="input", domain="ints"):
    return Operand(name, shape, role, domain)


def bools(name, *shape, role="input"):
    return Operand(name, shape, role, "bools")


def kinds_draws():
    """The operators of int and bool tensors (§4.2, §4.1), mapped onto nnref's compare, logical, select,
    arg_reduce, logical_reduce, gather, cast and integer ops; and scatter, gather_nd, scatter_nd, argmax_n,
    argmin_n, argmax_nd and argmin_nd, run from their @lower bodies."""
    aligns = [({}, (2, 3, 4), (2, 3, 4)), ({}, (2, 3, 4), (4,)), ({}, (2, 1, 4), (3, 1)), ({"rhs_align": 1}, (2, 3, 4), (3,)),
              ({"lhs_align": 0}, (2, 3), (2, 3, 4)), ({"lhs_align": -1}, (3,), (2, 3, 4))]
    for k, op in enumerate(ops.COMPARE):
        for j in (k % 6, (k + 2) % 6, (k + 4) % 6):
            attrs, xs, ys = aligns[j]
            yield Draw(op, attrs, [inp("x", *xs, domain="quarters"), inp("y", *ys, domain="quarters")])
    for k, op in enumerate(ops.LOGICAL):
        for j in (k % 6, (k + 2) % 6, (k + 4) % 6):
            attrs, xs, ys = aligns[j]
            yield Draw(op, attrs, [bools("x", *xs), bools("y", *ys)])
    for shape in ((2, 3), (4,), (1, 2, 1, 3)):
        yield Draw("math.not", {}, [bools("x", *shape)])
    yield Draw("math.and", {}, [bools("x", 2, 3), bools("y", 2, 3, role="variable")], tag="variable")
    for op in ("math.eq", "math.ne"):  # of bools: x ? y : !y, x ? !y : y
        for attrs, xs, ys in (aligns[0], aligns[2], aligns[4]):
            yield Draw(op, attrs, [bools("x", *xs), bools("y", *ys)])
    for op, shape in (("math.neg", (2, 3)), ("math.abs", (5,)), ("math.sqr", (2, 1, 3))):  # 0 − x, x >? 0 − x, x · x
        yield Draw(op, {}, [ints("x", *shape)])
    yield Draw("math.iden", {}, [ints("x", 2, 3)])
    yield Draw("math.iden", {}, [bools("x", 4)])
    for k, op in enumerate(ops.INTEGER):
        for j in (k % 6, (k + 2) % 6, (k + 4) % 6):
            attrs, xs, ys = aligns[j]
            y_domain = "nonzero_ints" if op == "math.mod" else "ints"
            yield Draw(op, attrs, [ints("x", *xs), ints("y", *ys, domain=y_domain)])
    yield Draw("math.add", {}, [ints("x", 2, 3), ints("y", 3, role="variable")], tag="variable")
    # select of each type, the condition broadcast and aligned
    yield Draw("math.select", {}, [bools("c", 2, 3), inp("x", 2, 3), inp("y", 2, 3)])
    yield Draw("math.select", {}, [bools("c", 3), ints("x", 2, 3), ints("y", 2, 1)])
    yield Draw("math.select", {"cond_align": 0}, [bools("c", 2), bools("x", 2, 3), bools("y", 3)])
    yield Draw("math.select", {"lhs_align": 1, "rhs_align": 0}, [bools("c", 2, 3, 4), inp("x", 3), inp("y", 2)])
    # argmax, argmin: each axis, kept or squeezed; quarters make ties
    for op in ("math.argmax", "math.argmin"):
        for attrs, shape in (({"axis": 0}, (5,)), ({"axis": 1}, (3, 4)), ({"axis": -1, "squeeze": True}, (2, 3, 4)),
                             ({"axis": 0, "squeeze": True}, (6, 2)), ({"axis": 1, "squeeze": True}, (2, 5, 3))):
            yield Draw(op, attrs, [inp("x", *shape, domain="quarters")])
    for op in ("math.any_reduce", "math.all_reduce"):
        for attrs, shape in (({}, (2, 3)), ({"axes": [1]}, (2, 3, 4)), ({"axes": [-1, 0], "squeeze": True}, (3, 2, 4)),
                             ({"axes": []}, (2, 3)), ({"axes": [2], "squeeze": True}, (2, 3, 2))):
            yield Draw(op, attrs, [bools("x", *shape)])
    # gather: the axis (negative too), indices of rank 0 to 2, indices a variable
    for attrs, data, index in (({"axis": 0}, (5, 3), (4,)), ({"axis": 1}, (2, 4, 3), (2, 2)), ({"axis": -1}, (2, 3), ()),
                               ({"axis": -2}, (3, 4, 2), (5,))):
        extent = data[attrs["axis"]]
        yield Draw("layout.gather", attrs, [inp("data", *data), ints("index", *index, domain="index:%d" % extent)])
    yield Draw("layout.gather", {"axis": 1}, [inp("data", 2, 6), ints("index", 3, role="variable", domain="index:6")],
               tag="variable")
    # scatter (run from its @lower: the update's target moved by the indices), duplicates included
    for attrs, data, index in (({"axis": 1}, (2, 4, 3), (2, 2, 3)), ({"axis": 0}, (5, 2), (3, 2)),
                               ({"axis": -1}, (3, 4), (3, 6))):
        extent = data[attrs["axis"]]
        yield Draw("layout.scatter", attrs, [inp("data", *data), ints("indices", *index, domain="index:%d" % extent),
                                             inp("updates", *index)])
    # argmax_n, argmin_n (from their @lower: the pack item a read takes chosen by the data); quarters make ties
    for op in ("math.argmax_n", "math.argmin_n"):
        for shape, n in (((4,), 3), ((2, 3), 2), ((2, 2, 3), 4)):
            yield Draw(op, {}, [[inp("x%d" % k, *shape, domain="quarters") for k in range(n)]])
    # argmax_nd, argmin_nd (from their @lower: a packed update of the output row `output[…, :] := i[axes]`, its
    # condition reading input[i[axes] <- output[…, :]..]); quarters make ties
    for op in ("math.argmax_nd", "math.argmin_nd"):
        for attrs, shape in (({"axes": [0, 2]}, (2, 3, 4)), ({}, (3, 4)), ({"axes": [2, 0], "squeeze": True}, (2, 3, 4)),
                             ({"axes": [-1]}, (4, 2, 3)), ({"axes": [3, 1], "squeeze": True}, (2, 2, 3, 2))):
            yield Draw(op, attrs, [inp("x", *shape, domain="quarters")])
    # gather_nd and scatter_nd (from their @lower: one index per element of an index row, `k[…, :]..`)
    for attrs, data, index, extent in (({}, (3, 3, 2), (5, 2), 3), ({"batch_dims": 1}, (2, 4, 3), (2, 5, 1), 4),
                                       ({}, (2, 2, 2), (4, 3), 2)):
        yield Draw("layout.gather_nd", attrs, [inp("data", *data), ints("indices", *index, domain="index:%d" % extent)])
    for attrs, data, index, updates, extent in (({}, (3, 3, 2), (4, 2), (4, 2), 3),
                                                ({"batch_dims": 1}, (2, 4, 3), (2, 3, 1), (2, 3, 3), 4)):
        yield Draw("layout.scatter_nd", attrs, [inp("data", *data), ints("indices", *index, domain="index:%d" % extent),
                                                inp("updates", *updates)])
    # casts between bool, int and real (a real to int refused below)
    yield Draw("layout.cast", {}, [bools("x", 2, 3)], generics=("real",))
    yield Draw("layout.cast", {}, [ints("x", 4)], generics=("real",))
    yield Draw("layout.cast", {}, [inp("x", 2, 3, domain="quarters")], generics=("bool",))
    yield Draw("layout.cast", {}, [ints("x", 3, 2)], generics=("bool",))
    yield Draw("layout.cast", {}, [bools("x", 5)], generics=("int", "bool"))
    # views of int and bool tensors
    yield Draw("layout.reshape", {"shape": [3, -1]}, [ints("x", 2, 3)])
    yield Draw("layout.transpose", {}, [bools("x", 2, 3, 4)])
    yield Draw("layout.concat", {"axis": 1}, [[ints("a", 2, 1), ints("b", 2, 3)]])


def lowered_kinds_draws():
    """Int tensors nnref's ops do not take, run from the operators' @lower bodies instead (the native
    mapping refuses their kinds): comparisons of ints (exact), §2.4's floor division and int power,
    a real cast to int (truncated), int gather, sign and reductions."""
    aligns = [((2, 3), (2, 3)), ((2, 3, 4), (4,)), ((2, 1, 4), (3, 1))]
    for k, op in enumerate(("math.lt", "math.gt", "math.le", "math.ge", "math.eq", "math.ne")):
        xs, ys = aligns[k % 3]
        yield Draw(op, {}, [ints("x", *xs), ints("y", *ys)], tag="ints")
    for xs, ys in aligns:
        yield Draw("math.div", {}, [ints("x", *xs), ints("y", *ys, domain="nonzero_ints")], tag="floor")
        yield Draw("math.pow", {}, [ints("x", *xs), ints("y", *ys, domain="exponents")], tag="ints")
    for shape in ((2, 3), (5,)):
        yield Draw("layout.cast", {}, [inp("x", *shape, domain="tenths")], tag="real-to-int", generics=("int",))
    yield Draw("layout.gather", {"axis": 0}, [ints("data", 3, 2), ints("index", 2, domain="index:3")], tag="ints")
    yield Draw("layout.gather", {"axis": -1}, [bools("data", 2, 4), ints("index", 3, domain="index:4")], tag="bools")
    yield Draw("math.sign", {}, [ints("x", 2, 5)], tag="ints")
    for op, attrs, shape in (("math.sum_reduce", {}, (4,)), ("math.sum_reduce", {"axes": [1]}, (2, 3, 2)),
                             ("math.prod_reduce", {"axes": [0], "squeeze": True}, (3, 4)),
                             ("math.max_reduce", {"axes": [-1]}, (2, 5)), ("math.min_reduce", {}, (3, 3))):
        yield Draw(op, attrs, [ints("x", *shape)], tag="ints")


def kinds_refusal_draws():
    """Type errors of the definitions, refused by name."""
    yield Draw("math.eq", {}, [bools("x", 2, 3), inp("y", 2, 3)], "nnef2.lower.unsupported", "bool-real")
    yield Draw("math.argmax", {"axis": 0}, [bools("x", 4)], "nnef2.compose.type", "bools")
    yield Draw("math.and", {}, [bools("x", 3), inp("y", 3)], "nnef2.compose.type", "real")
    yield Draw("math.select", {}, [bools("c", 3), inp("x", 3), ints("y", 3)], "nnef2.compose.type", "two-types")
    yield Draw("math.add", {}, [bools("x", 3), bools("y", 3)], "nnef2.compose.type", "bools")
    yield Draw("math.neg", {}, [inp("x", 3)], "nnef2.compose.generic", "bool", generics=("bool",))
    yield Draw("math.any_reduce", {"axes": [2]}, [bools("x", 2, 3)], "nnef2.assert.failed", "range")
    yield Draw("math.argmin", {"axis": 2}, [inp("x", 2, 3)], "nnef2.compose.shape", "axis")
    yield Draw("layout.gather", {"axis": 2}, [inp("data", 2, 3), ints("index", 2, domain="index:2")],
               "nnef2.compose.shape", "axis")


def composed_draws():
    """Operators with neither a native mapping nor a @lower body, run from their @compose bodies:
    math.lp_reduce, nn.l1_norm and l2_norm (bias and epsilon, an epsilon above some of the norms),
    mean_variance_norm (moments' two outputs inside), rms_pool and lp_pool (windows as the pools'
    draws), layout.shuffle and image.area_downsample (over the spatial axes: nnref maps its sum_pool
    over them only); then the layout operators space_to_batch, batch_to_space, space_to_depth and
    depth_to_space (both data formats, blocks first or not), image.resize and rescale in mode 'NEAREST'
    (every coordinate transform and rounding method; sizes whose reads fall on a tie exactly or
    well away from one), nn.local_response_norm and rms_pool with ignore_border=false (avg_pool
    dividing by a number, `real(size * ..)`) and math.moments (its two outputs, squeezed or kept).
    Then resize in mode 'LINEAR'. Not drawn: resize's CUBIC mode, which nnref refuses."""
    for attrs, shape in (({"p": 2.0}, (2, 3, 4)), ({"p": 1.0, "axes": [1]}, (2, 3, 4)),
                         ({"p": 3.0, "axes": [-1, 0], "squeeze": True}, (2, 3, 4)),
                         ({"p": 0.5, "axes": [1], "squeeze": True}, (3, 5))):
        yield Draw("math.lp_reduce", attrs, [inp("x", *shape)])
    norms = [({"axes": [1]}, (2, 3, 4)), ({"axes": [-1], "bias": 0.5}, (3, 5)),
             ({"axes": [0, 2], "epsilon": 3.0}, (2, 3, 2)),  # norms of 4 elements, some below 3
             ({"axes": [-1], "bias": 0.25, "epsilon": 1.0}, (4, 6, 1)),  # norms of 1 element: some capped
             ({"axes": [0, 1, 2]}, (2, 2, 3))]
    for op in ("nn.l1_norm", "nn.l2_norm"):
        for attrs, shape in norms:
            yield Draw(op, attrs, [inp("x", *shape)])
    for attrs, bias, scale, shape in (({}, False, False, (2, 3, 4, 4)), ({"epsilon": 0.01}, True, True, (2, 4, 5)),
                                      ({"axes": [1, -1]}, False, True, (2, 3, 4)),
                                      ({"axes": [0], "epsilon": 0.0}, True, False, (3, 2, 2))):
        yield Draw("nn.mean_variance_norm", attrs,
                   [inp("x", *shape), var("bias", shape[1]) if bias else None,
                    var("scale", shape[1]) if scale else None])
    for attrs, shape in (({"size": 2, "stride": 2}, (1, 2, 4, 6)), ({"size": 3, "padding": 1}, (2, 2, 5, 5)),
                         ({"size": [3, 2], "stride": [2, 1], "padding": [1, 0, 1, 1], "ignore_border": True},
                          (1, 2, 7, 6)),
                         ({"size": 3, "stride": 2, "axes": [-1]}, (2, 3, 7))):
        yield Draw("nn.rms_pool", attrs, [inp("x", *shape)])
    for attrs, shape in (({"size": 2, "stride": 2, "p": 2.0}, (1, 2, 4, 4)), ({"size": 3, "p": 1.0}, (2, 2, 5, 5)),
                         ({"size": [2, 3], "dilation": [1, 2], "padding": [0, 1, 1, 0], "p": 3.0}, (1, 2, 6, 7)),
                         ({"size": 3, "stride": 2, "ceil_mode": True, "padding": 0, "p": 0.5}, (1, 1, 7, 8))):
        yield Draw("nn.lp_pool", attrs, [inp("x", *shape)])
    for attrs, x in (({"axis": 1, "groups": 2}, inp("x", 2, 6, 3)), ({"axis": -1, "groups": 3}, inp("x", 2, 6)),
                     ({"axis": 0, "groups": 4}, inp("x", 8, 2)), ({"axis": -2, "groups": 2}, ints("x", 1, 3, 4, 2))):
        yield Draw("layout.shuffle", attrs, [x])
    for attrs, shape in (({"factor": [2, 2], "axes": [2, 3]}, (1, 2, 4, 6)), ({"factor": [3], "axes": [-1]}, (2, 3, 6)),
                         ({"factor": [3, 2, 2], "axes": [2, 3, -1]}, (1, 1, 3, 4, 2)),
                         ({"factor": [1, 3], "axes": [-2, -1]}, (2, 2, 4, 3))):
        yield Draw("image.area_downsample", attrs, [inp("x", *shape)])
    for attrs, x in (({"block_size": 2}, inp("x", 1, 3, 4, 6)),
                     ({"block_size": [2, 3], "blocks_first": False}, inp("x", 2, 2, 4, 6)),
                     ({"block_size": [2, 1], "data_format": "NXC"}, ints("x", 1, 4, 2, 3)),
                     ({"block_size": 3, "blocks_first": False, "data_format": "NXC"}, inp("x", 2, 6, 3))):
        yield Draw("layout.space_to_depth", attrs, [x])
    for attrs, x in (({"block_size": 2}, inp("x", 1, 8, 2, 3)),
                     ({"block_size": [1, 2], "blocks_first": False}, inp("x", 2, 6, 3, 2)),
                     ({"block_size": [2, 3], "data_format": "NXC"}, inp("x", 1, 2, 3, 12)),
                     ({"block_size": 3, "blocks_first": False, "data_format": "NXC"}, ints("x", 2, 4, 6))):
        yield Draw("layout.depth_to_space", attrs, [x])
    for attrs, x in (({"block_size": 2}, inp("x", 1, 2, 4, 6)),
                     ({"block_size": [3, 2], "blocks_first": False}, inp("x", 2, 3, 6, 4)),
                     ({"block_size": [2, 4], "data_format": "NXC"}, inp("x", 2, 4, 4, 3)),
                     ({"block_size": 3, "blocks_first": False, "data_format": "NXC"}, ints("x", 3, 6, 2))):
        yield Draw("layout.space_to_batch", attrs, [x])
    for attrs, x in (({"block_size": 2}, inp("x", 4, 2, 3, 2)),
                     ({"block_size": [3, 1], "blocks_first": False}, ints("x", 6, 2, 2, 3)),
                     ({"block_size": [2, 2], "data_format": "NXC"}, inp("x", 8, 2, 3, 2)),
                     ({"block_size": 2, "blocks_first": False, "data_format": "NXC"}, inp("x", 6, 3, 2))):
        yield Draw("layout.batch_to_space", attrs, [x])
    # reads per axis, (extent, size): (3, 6), (4, 8) at .25 + .5 i - .5; (4, 8) at .5 i, a tie every other one;
    # (5, 3), (7, 4) at 2 i; (2, 4), (6, 3) at -.25 + .5 i, .5 + 2 i; (5, 1) at 0, (7, 4) at 2 i
    for attrs, shape in (({"axes": [2, 3], "size": [6, 8]}, (1, 2, 3, 4)),
                         ({"axes": [-1], "size": 8, "coordinate_transform": "ASYMMETRIC",
                           "rounding_method": "ROUND_PREFER_CEIL"}, (2, 3, 4)),
                         ({"axes": [2, 3], "size": [3, 4], "coordinate_transform": "ALIGNED",
                           "rounding_method": "FLOOR"}, (1, 1, 5, 7)),
                         ({"size": [4, 3], "rounding_method": "CEIL"}, (2, 6)),
                         ({"axes": [1, 2], "size": [1, 4], "mode": "NEAREST", "coordinate_transform": "ALIGNED",
                           "rounding_method": "ROUND_PREFER_CEIL", "antialias": False}, (2, 5, 7))):
        yield Draw("image.resize", attrs, [inp("x", *shape)])
    # sizes 8 and 3 (reads .5 i and 2 i); 7 * 0.6 rounds to 4 (.375 + 1.75 i, floored); 6 and 3
    # (-1/6 + 2/3 i and .5 + 2 i, rounded up); 5 (.25 i, a tie at i = 2)
    for attrs, shape in (({"axes": [2, 3], "factor": [2.0, 0.5], "coordinate_transform": "ASYMMETRIC"}, (1, 2, 4, 6)),
                         ({"axes": [-1], "factor": [0.6], "rounding_method": "FLOOR"}, (3, 7)),
                         ({"factor": [1.5, 0.5], "rounding_method": "CEIL"}, (4, 6)),
                         ({"axes": [1], "factor": 2.5, "coordinate_transform": "ALIGNED",
                           "rounding_method": "ROUND_PREFER_CEIL"}, (2, 2, 3))):
        yield Draw("image.rescale", attrs, [inp("x", *shape)])
    for attrs, shape in (({"size": 3}, (2, 5, 3, 3)), ({"size": 4, "alpha": 0.5, "beta": 0.75, "bias": 2.0}, (1, 6, 4)),
                         ({"axes": [2, 3], "size": [3, 2], "beta": 1.0}, (1, 2, 4, 5)),
                         ({"axes": [-1], "size": 5, "alpha": 2.0, "bias": 0.5}, (3, 7))):
        yield Draw("nn.local_response_norm", attrs, [inp("x", *shape)])
    for attrs, shape in (({"size": 3, "padding": 1, "ignore_border": False}, (1, 2, 5, 5)),
                         ({"size": [2, 3], "stride": 2, "padding": [0, 1, 1, 1], "ignore_border": False}, (2, 2, 5, 6)),
                         ({"size": 3, "stride": 2, "padding": 1, "ceil_mode": True, "ignore_border": False},
                          (1, 2, 6, 7)),
                         ({"size": 2, "axes": [-1], "ignore_border": False}, (2, 3, 5))):
        yield Draw("nn.rms_pool", attrs, [inp("x", *shape)])
    for attrs, shape in (({}, (2, 3)), ({"axes": [1]}, (2, 3, 4)), ({"axes": [0, 2], "squeeze": True}, (2, 3, 4)),
                         ({"axes": [-1, 0, 1], "squeeze": True}, (2, 2, 3)), ({"axes": [-2]}, (3, 4, 2))):
        yield Draw("math.moments", attrs, [inp("x", *shape)])
    # image.resize in mode 'LINEAR' (linear_resize's @lower, a fold of the weights over the axes):
    # up and down, each coordinate transform, one axis and two
    for attrs, shape in (({"axes": [2, 3], "size": [4, 5]}, (1, 2, 2, 3)),
                         ({"axes": [-1], "size": 3, "coordinate_transform": "ASYMMETRIC"}, (2, 7)),
                         ({"axes": [1, 2], "size": [5, 2], "coordinate_transform": "ALIGNED"}, (2, 3, 4)),
                         ({"size": [3, 6]}, (4, 4))):
        yield Draw("image.resize", dict(attrs, mode="LINEAR"), [inp("x", *shape)])


DRAWS = [*unary_draws(), *binary_draws(), *activation_draws(), *linear_draws(), *window_draws(), *reduce_draws(),
         *layout_draws(), *refusal_draws(), *kinds_draws(), *kinds_refusal_draws(), *deconv_cumsum_draws(),
         *lowered_kinds_draws(), *composed_draws()]

# ------------------------------------------------------------------ the reference


def reference(draw, values):
    """The NumPy evaluation of the draw's operator at its attributes."""
    op, attrs = draw.op, draw.attrs
    if op in ops.UNARY:
        return ops.UNARY[op](*values)
    integer = op in ops.INTEGER or op in ops.INTEGER_LOWERED
    if op in ops.COMPARE or op in ops.LOGICAL or (integer and values[0].dtype.kind == "i"):
        return ops.elementwise(op, *values, **attrs)
    if op in ("math.argmax", "math.argmin"):
        return ops.arg_reduce(op, *values, **attrs)
    if op in ("math.argmax_n", "math.argmin_n"):
        return ops.arg_n(op, *values)
    if op in ("math.argmax_nd", "math.argmin_nd"):
        return ops.arg_nd(op, *values, **attrs)
    if op in ("math.any_reduce", "math.all_reduce"):
        return ops.logical_reduce(op, *values, **attrs)
    if op == "layout.cast":
        return ops.cast(*values, to=draw.generics[0])
    if op in ops.BINARY:
        return ops.binary(op, *values, **attrs)
    if op in ops.REDUCE or op == "math.mean_reduce":
        return ops.reduce(op, *values, **attrs)
    functions = {
        "nn.relu": ops.relu, "nn.elu": ops.elu, "nn.prelu": ops.prelu, "nn.softmax": ops.softmax,
        "nn.linear": ops.linear, "nn.conv": ops.conv, "nn.deconv": ops.deconv, "math.cumsum": ops.cumsum, "nn.max_pool": ops.max_pool, "nn.sum_pool": ops.sum_pool,
        "nn.avg_pool": ops.avg_pool, "nn.batch_norm": ops.batch_norm, "linalg.matmul": ops.matmul,
        "layout.reshape": ops.reshape, "layout.flatten": ops.flatten, "layout.unflatten": ops.unflatten,
        "layout.squeeze": ops.squeeze, "layout.unsqueeze": ops.unsqueeze, "layout.transpose": ops.transpose,
        "layout.concat": ops.concat, "math.not": ops.logical_not, "math.select": ops.select, "layout.gather": ops.gather,
        "layout.scatter": ops.scatter, "layout.gather_nd": ops.gather_nd, "layout.scatter_nd": ops.scatter_nd,
        "math.lp_reduce": ops.lp_reduce, "nn.l1_norm": ops.l1_norm, "nn.l2_norm": ops.l2_norm,
        "nn.mean_variance_norm": ops.mean_variance_norm, "nn.rms_pool": ops.rms_pool, "nn.lp_pool": ops.lp_pool,
        "layout.shuffle": ops.shuffle, "image.area_downsample": ops.area_downsample,
        "layout.space_to_batch": ops.space_to_batch, "layout.batch_to_space": ops.batch_to_space,
        "layout.space_to_depth": ops.space_to_depth, "layout.depth_to_space": ops.depth_to_space,
        "image.resize": ops.resize, "image.rescale": ops.rescale, "nn.local_response_norm": ops.local_response_norm,
        "math.moments": ops.moments,
    }
    return functions[op](*values, **attrs)


# Where the operators are defined and, for conform, away from a discontinuity.
DOMAINS = {
    "normal": lambda rng, shape: rng.normal(0.0, 1.0, shape),
    "wide": lambda rng, shape: rng.uniform(-4.0, 4.0, shape),
    "positive": lambda rng, shape: rng.uniform(0.2, 3.0, shape),
    "nonzero": lambda rng, shape: rng.choice([-1.0, 1.0], shape) * rng.uniform(0.3, 2.0, shape),
    "unit": lambda rng, shape: rng.uniform(-0.9, 0.9, shape),
    "above1": lambda rng, shape: rng.uniform(1.1, 3.0, shape),
    "half": lambda rng, shape: rng.uniform(-1.2, 1.2, shape),
    "near1": lambda rng, shape: rng.choice([-1.0, 1.0], shape) * rng.uniform(0.6, 1.6, shape),
    "counts": lambda rng, shape: rng.integers(0, 4, shape).astype(np.float64),
    # quarters from -2 to 2: ties for the comparisons and argmax, float32 values a runtime reads exactly
    "quarters": lambda rng, shape: rng.integers(-8, 9, shape) / 4.0,
    "ints": lambda rng, shape: rng.integers(-9, 10, shape),
    "nonzero_ints": lambda rng, shape: rng.choice([-1, 1], shape) * rng.integers(1, 7, shape),
    "exponents": lambda rng, shape: rng.integers(0, 6, shape),
    # reals of either sign with a fraction, none within 0.05 of an integer (a cast truncates them)
    "tenths": lambda rng, shape: rng.choice([-1, 1], shape) * (rng.integers(0, 40, shape) + rng.integers(1, 10, shape) / 10),
    "bools": lambda rng, shape: rng.random(shape) < 0.5,
}


def domain_values(rng, domain, shape):
    """index:N draws indices in [0, N), as gather's index takes them."""
    if domain.startswith("index:"):
        return rng.integers(0, int(domain.split(":")[1]), shape)
    return DOMAINS[domain](rng, shape)


def random_values(rng, operand):
    """Values of the operand's domain; a variable's are float32, the items of its .dat file."""
    v = np.asarray(domain_values(rng, operand.domain, operand.shape))
    return v.astype(np.float32).astype(np.float64) if operand.role == "variable" and operand.type == "real" else v


# ------------------------------------------------------------------ the graph's text


def generics_text(generics):
    return "<%s>" % ", ".join(generics) if generics else ""


def type_of(array):
    """The SkriptND type of an expected output: bool, int or real."""
    return "bool" if array.dtype == np.bool_ else "int" if array.dtype.kind in "iu" else "real"


def literal(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return "'%s'" % value
    if isinstance(value, list):
        return "[%s]" % ", ".join(literal(v) for v in value)
    return repr(value)


def attributes_text(attrs):
    return ", ".join("%s=%s" % (k, literal(v)) for k, v in attrs.items())


def argument_text(operand):
    if operand is None:
        return "~"
    if isinstance(operand, list):
        return "[%s]" % ", ".join(o.name for o in operand)
    return operand.name


def extents(shape):
    return "[%s]" % ", ".join(str(e) for e in shape)


def graph_text(draw, outputs):
    """main.sknd: the draw's operands as @input and @variable tensors, one invocation of the outputs
    (name -> an array of their shape and type). Returns the text and where the invocation is (line,
    column of the operator's name), for the diagnostics."""
    def block(name, lines):
        return ["    %s {" % name] + ["        " + line for line in lines] + ["    }"] if lines else []

    def declared(role):
        return ["%s: %s%s;" % (o.name, o.type, extents(o.shape)) for o in draw.flat() if o.role == role]

    attributes = "{%s}" % attributes_text(draw.attrs) if draw.attrs else ""  # the grammar has no empty `{}`
    call = "%s%s%s(%s)" % (draw.op, generics_text(draw.generics), attributes,
                           ", ".join(argument_text(o) for o in draw.operands))
    lines = ["version 2.0;", "import %s;" % draw.op.split(".")[0], "", "graph %s {" % GRAPH]
    lines += block("@input", declared("input"))
    lines += block("@output", ["%s: %s%s;" % (name, type_of(v), extents(v.shape)) for name, v in outputs.items()])
    lines += block("@variable", declared("variable"))
    results = ", ".join(outputs)
    lines += block("@compose", ["%s = %s;" % (results, call)])
    lines += ["}", ""]
    return "\n".join(lines), (len(lines) - 3, len("        %s = " % results) + 1)


# ------------------------------------------------------------------ running a draw


def seed_of(draw, seed):
    return zlib.crc32(draw.name.encode()) ^ seed


def check_draw(nnref, draw, seed, rtol, keep):
    """(problems, largest relative difference, or None for a refusal or a graph nnref did not run)."""
    rng = np.random.default_rng(seed_of(draw, seed))
    work = tempfile.mkdtemp(prefix="sknd_single_")
    try:
        folder = os.path.join(work, "model")
        os.mkdir(folder)
        values = {o.name: random_values(rng, o) for o in draw.flat()}
        args = [None if o is None else [values[p.name] for p in o] if isinstance(o, list) else values[o.name]
                for o in draw.operands]
        names = OUTPUTS.get(draw.op, (OUTPUT,))
        if draw.refusal:  # refused before the outputs' declared shapes matter
            text, (line, column) = graph_text(draw, {name: np.zeros(1) for name in names})
        else:
            results = reference(draw, args)
            expected = dict(zip(names, results if len(names) > 1 else [results]))
            assert all(np.all(np.isfinite(v)) for v in expected.values()), draw.name
            text, _ = graph_text(draw, expected)
        with open(os.path.join(folder, "main.sknd"), "w") as f:
            f.write(text)
        write_variables(folder, GRAPH, {o.name: values[o.name] for o in draw.flat() if o.role == "variable"})
        if keep:
            shutil.copytree(folder, os.path.join(keep, "%03d" % DRAWS.index(draw)), dirs_exist_ok=True)
        if draw.refusal:
            return refused(nnref, folder, draw.refusal, line, column), None
        inputs = {o.name: values[o.name] for o in draw.flat() if o.role == "input"}
        return judge(nnref, folder, work, inputs, expected, rtol)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def refused(nnref, folder, code, line, column):
    """`nnref check` exits 1 with `code`, located at the invocation in main.sknd."""
    r = run([nnref, "check", folder])
    where = "main.sknd:%d:%d: error[%s]" % (line, column, code)
    if r.returncode == 1 and where in r.stdout + r.stderr:
        return []
    return ["check: expected exit 1 and '%s'; exit %d\n%s%s" % (where, r.returncode, r.stdout, r.stderr)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nnref", default="build/nnref")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--filter", default="", help="only the draws whose name holds this text")
    ap.add_argument("--list", action="store_true", help="print the draws and exit")
    ap.add_argument("--keep", help="copy each draw's model folder under this folder")
    ap.add_argument("--verbose", action="store_true", help="a line for every draw")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rtol", type=float, default=1e-12)
    a = ap.parse_args()
    draws = [d for d in DRAWS if a.filter in d.name]
    if a.list:
        for d in draws:
            print("%s%s" % (d.name, "  -> " + d.refusal if d.refusal else ""))
        return 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        results = list(pool.map(lambda d: check_draw(a.nnref, d, a.seed, a.rtol, a.keep), draws))
    agreed, refusals = 0, 0
    for d, (problems, error) in zip(draws, results):
        for p in problems:
            print("FAIL %s: %s" % (d.name, p))
        if a.verbose and not problems:
            print("ok   %s: %s" % (d.name, "refused, " + d.refusal if d.refusal else "%.2g of max|y|" % error))
        if not problems:
            agreed += d.refusal is None
            refusals += d.refusal is not None
    largest = float(np.max([0.0] + [error for _, error in results if error is not None]))  # NaN if any is
    graphs = sum(d.refusal is None for d in draws)
    print("%d graphs, %d agreed, largest difference %.3g of max|y|; %d refusals, %d refused as expected" %
          (graphs, agreed, largest, len(draws) - graphs, refusals))
    return 0 if agreed + refusals == len(draws) else 1


if __name__ == "__main__":
    sys.exit(main())
