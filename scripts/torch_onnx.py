#!/usr/bin/python3
"""An ONNX graph evaluated by PyTorch float32 functions, node by node, without torch.onnx: PyTorch as
a peer runtime on the ONNX node tests (scripts/runtime_campaign.py). Each ONNX op maps to the torch
function that computes it (Conv to F.conv*d, Softmax to torch.softmax, Erf to torch.erf, ...);
attributes are read with their ONNX defaults for the model's opset. An op, an attribute value or
an input form the map does not cover raises Unmapped: the case is not run, never guessed.

    torch_onnx.py MODEL.onnx IN.pb... OUT.npz      (inputs in graph-input order)
"""

import sys

import numpy as np
import onnx
import onnx.mapping
import torch
import torch.nn.functional as F
from onnx import numpy_helper


class Unmapped(Exception):
    pass


def attrs(node):
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


UNARY = {
    "Abs": torch.abs, "Acos": torch.acos, "Acosh": torch.acosh, "Asin": torch.asin, "Asinh": torch.asinh,
    "Atan": torch.atan, "Atanh": torch.atanh, "Ceil": torch.ceil, "Cos": torch.cos, "Cosh": torch.cosh,
    "Erf": torch.erf, "Exp": torch.exp, "Floor": torch.floor, "Identity": lambda x: x, "Log": torch.log,
    "Neg": torch.neg, "Reciprocal": torch.reciprocal, "Relu": torch.relu, "Round": torch.round,
    "Sigmoid": torch.sigmoid, "Sign": torch.sign, "Sin": torch.sin, "Sinh": torch.sinh, "Softplus": F.softplus,
    "Softsign": F.softsign, "Sqrt": torch.sqrt, "Tan": torch.tan, "Tanh": torch.tanh,
}
def divide(x, y):
    """ONNX's Div: an integer quotient truncates toward zero."""
    return torch.div(x, y, rounding_mode="trunc") if not x.is_floating_point() else torch.div(x, y)


BINARY = {"Add": torch.add, "Sub": torch.sub, "Mul": torch.mul, "Div": divide, "Pow": torch.pow,
          "Equal": torch.eq, "Less": torch.lt, "Greater": torch.gt, "LessOrEqual": torch.le, "GreaterOrEqual": torch.ge,
          "And": torch.logical_and, "Or": torch.logical_or, "Xor": torch.logical_xor}
# ONNX element types as torch dtypes (the casts torch_onnx.py maps).
DTYPES = {onnx.TensorProto.FLOAT: torch.float32, onnx.TensorProto.DOUBLE: torch.float64,
          onnx.TensorProto.FLOAT16: torch.float16, onnx.TensorProto.INT8: torch.int8, onnx.TensorProto.INT16: torch.int16,
          onnx.TensorProto.INT32: torch.int32, onnx.TensorProto.INT64: torch.int64, onnx.TensorProto.UINT8: torch.uint8,
          onnx.TensorProto.BOOL: torch.bool}
VARIADIC = {"Max": torch.maximum, "Min": torch.minimum, "Sum": torch.add}


def ints(v, name):
    return [int(i) for i in v.tolist()] if isinstance(v, torch.Tensor) else list(v)


def reduce_axes(node, a, ins, opset, rank):
    axes = a.get("axes")
    if axes is None and len(ins) > 1 and ins[1] is not None:
        axes = ints(ins[1], "axes")
    if not axes:
        if a.get("noop_with_empty_axes", 0):
            return None  # no reduction: the input itself
        axes = list(range(rank))
    return [int(x) % rank for x in axes]


def coerced_groups(x, axis, fn):
    """Before opset 13 Softmax/LogSoftmax normalise x coerced to 2-D at axis."""
    shape = x.shape
    return fn(x.reshape(int(np.prod(shape[:axis])), -1), 1).reshape(shape)


def mode_of(a):
    mode = a.get("auto_pad", b"NOTSET")
    return mode.decode() if isinstance(mode, bytes) else mode


def explicit_pads(x, a, kernel):
    """The pads of a window op (begins, then ends), auto_pad resolved as ONNX defines it: SAME_*
    pads so that the output extent is ceil(x / stride), the odd unit at the end (UPPER) or the
    beginning (LOWER); VALID none."""
    n = x.dim() - 2
    mode = mode_of(a)
    if mode == "NOTSET":
        return list(a.get("pads", [0] * 2 * n))
    if mode == "VALID":
        return [0] * 2 * n
    s, d = a.get("strides", [1] * n), a.get("dilations", [1] * n)
    begins, ends = [], []
    for i in range(n):
        extent = x.shape[2 + i]
        total = max((-(-extent // s[i]) - 1) * s[i] + (kernel[i] - 1) * d[i] + 1 - extent, 0)
        small = total // 2
        begins.append(small if mode == "SAME_UPPER" else total - small)
        ends.append(total - begins[-1])
    return begins + ends


def conv(x, w, b, a):
    n = x.dim() - 2
    pads = explicit_pads(x, a, list(w.shape[2:]))
    if list(pads[:n]) != list(pads[n:]):
        x = F.pad(x, [p for i in reversed(range(n)) for p in (pads[i], pads[i + n])])
        pads = [0] * 2 * n
    fn = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}.get(n)
    if fn is None:
        raise Unmapped("Conv of rank %d" % x.dim())
    return fn(x, w, b, a.get("strides", [1] * n), pads[:n], a.get("dilations", [1] * n), a.get("group", 1))


def conv_transpose(x, w, b, a):
    """ONNX's ConvTranspose: torch's without padding or bias gives the full extent s(x - 1) + fd per
    axis; the output is the window [begin, begin + X) of it, cropped by F.pad with negative amounts
    (or widened by zeros where the window passes its ends), then the bias. NOTSET: begin = pads'
    begin, X = full - begin - end + output_padding; VALID: no pads; output_shape (spatial, or with N
    and C) or SAME_* (X = x * s): total = s(x - 1) + output_padding + fd - X, begin floor(total / 2)
    under SAME_UPPER, total - floor(total / 2) otherwise, as ONNX defines it."""
    n = x.dim() - 2
    fn = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}.get(n)
    if fn is None:
        raise Unmapped("ConvTranspose of rank %d" % x.dim())
    s, d = a.get("strides", [1] * n), a.get("dilations", [1] * n)
    out_pad = a.get("output_padding", [0] * n)
    mode, out_shape = mode_of(a), list(a.get("output_shape", []))
    if len(out_shape) == n + 2:
        out_shape = out_shape[2:]
    y = fn(x, w, None, s, 0, 0, a.get("group", 1), d)
    crop = []
    for i in range(n):
        full = y.shape[2 + i]
        fd = (w.shape[2 + i] - 1) * d[i] + 1
        if out_shape or mode in ("SAME_UPPER", "SAME_LOWER"):
            extent = out_shape[i] if out_shape else x.shape[2 + i] * s[i]
            total = s[i] * (x.shape[2 + i] - 1) + out_pad[i] + fd - extent
            begin = total // 2 if mode == "SAME_UPPER" else total - total // 2
        else:
            pads = [0] * 2 * n if mode == "VALID" else a.get("pads", [0] * 2 * n)
            begin, extent = pads[i], full - pads[i] - pads[i + n] + out_pad[i]
        crop.append((-begin, begin + extent - full))
    y = F.pad(y, [p for i in reversed(range(n)) for p in crop[i]])
    return y if b is None else y + b.reshape([1, -1] + [1] * n)


def last_window_in_end_pad(x, k, s, pads, d):
    """Whether ceil_mode's last window on some axis starts in the end padding: PyTorch drops that
    window, ONNX (up to opset 18) keeps it."""
    n = x.dim() - 2
    for i in range(n):
        length = x.shape[2 + i] + pads[i] + pads[i + n]
        out = -(-(length - (k[i] - 1) * d[i] - 1) // s[i]) + 1
        if (out - 1) * s[i] >= x.shape[2 + i] + pads[i]:
            return True
    return False


def pool(op, x, a):
    n = x.dim() - 2
    ceil = bool(a.get("ceil_mode", 0))
    if a.get("storage_order", 0) or (ceil and op != "MaxPool"):
        raise Unmapped(op + " attributes")
    k = a["kernel_shape"]
    s = a.get("strides", [1] * n)
    pads = explicit_pads(x, a, k)
    if op == "MaxPool":
        d = a.get("dilations", [1] * n)
        if list(pads[:n]) != list(pads[n:]) or any(p > kk // 2 for p, kk in zip(pads[:n], k)):
            x = F.pad(x, [p for i in reversed(range(n)) for p in (pads[i], pads[i + n])], value=-float("inf"))
            pads = [0] * 2 * n
        if ceil and last_window_in_end_pad(x, k, s, pads, d):
            raise Unmapped("MaxPool ceil_mode with a last window in the end padding")
        return {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}[n](x, k, s, pads[:n], d, ceil_mode=ceil)
    if list(pads[:n]) == list(pads[n:]) and all(p <= kk // 2 for p, kk in zip(pads[:n], k)):
        return {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}[n](x, k, s, pads[:n], False, bool(a.get("count_include_pad", 0)))
    return padded_average(x, k, s, pads, bool(a.get("count_include_pad", 0)))


def padded_average(x, k, s, pads, include_pad):
    """AveragePool with pads torch's avg_pool does not take (asymmetric, or wider than half the
    kernel): x padded with zeros, each window's sum (divisor_override 1, the sum of its terms),
    divided once by the window's size (count_include_pad 1: every position counts) or by the
    number of positions inside x (0: the same sum over the padded ones)."""
    n = x.dim() - 2
    widths = [p for i in reversed(range(n)) for p in (pads[i], pads[i + n])]
    if n == 1:  # avg_pool1d has no divisor_override: the 2-D pool over [1, k]
        return padded_average(x.unsqueeze(2), [1] + list(k), [1] + list(s), [0, pads[0], 0, pads[1]], include_pad).squeeze(2)
    fn = {2: F.avg_pool2d, 3: F.avg_pool3d}[n]
    total = fn(F.pad(x, widths), k, s, 0, False, True, 1)
    if include_pad:
        return total / float(np.prod(k))
    ones = torch.ones((1, 1) + tuple(x.shape[2:]), dtype=x.dtype)
    return total / fn(F.pad(ones, widths), k, s, 0, False, True, 1)


def pad_by_index(x, pads, mode):
    """ONNX Pad in mode reflect or edge on any rank: each axis's elements read through an index
    (torch.index_select), which moves values and computes none. F.pad has these modes only on the
    last axes of 3-D to 5-D tensors."""
    n = x.dim()
    if mode not in ("reflect", "edge") or min(pads) < 0:
        raise Unmapped("Pad mode %s with pads %s" % (mode, pads))
    for axis in range(n):
        before, after, size = pads[axis], pads[axis + n], x.shape[axis]
        if before == 0 and after == 0:
            continue
        i = torch.arange(-before, size + after)
        if mode == "edge":
            i = i.clamp(0, size - 1)
        else:  # reflect about the first and the last element, as ONNX (pads below the extent)
            i = i.abs()
            i = torch.where(i > size - 1, 2 * (size - 1) - i, i)
        x = torch.index_select(x, axis, i)
    return x


def apply(node, ins, opset):
    op, a = node.op_type, attrs(node)
    x = ins[0] if ins else None
    if op in UNARY:
        return UNARY[op](x)
    if op in BINARY:
        return BINARY[op](x, ins[1])
    if op in VARIADIC:
        y = ins[0]
        for t in ins[1:]:
            y = VARIADIC[op](y, t)
        return y
    if op == "Mean":
        return sum(ins[1:], ins[0]) / len(ins)
    if op in ("Softmax", "LogSoftmax"):
        fn = torch.softmax if op == "Softmax" else torch.log_softmax
        axis = a.get("axis", 1 if opset < 13 else -1) % x.dim()
        return fn(x, axis) if opset >= 13 else coerced_groups(x, axis, fn)
    if op == "LeakyRelu":
        return F.leaky_relu(x, a.get("alpha", 0.01))
    if op == "Elu":
        return F.elu(x, a.get("alpha", 1.0))
    if op == "Selu":  # ONNX's default alpha and gamma are float32 attributes
        alpha, gamma = a.get("alpha", 1.67326319217681884765625), a.get("gamma", 1.05070102214813232421875)
        return gamma * torch.where(x > 0, x, alpha * (torch.exp(x) - 1))
    if op == "HardSigmoid":
        return torch.clamp(a.get("alpha", 0.2) * x + a.get("beta", 0.5), 0, 1)
    if op == "HardSwish":  # its function body: x * HardSigmoid(x) with alpha the float32 nearest 1/6
        return x * torch.clamp(float(np.float32(1 / 6)) * x + 0.5, 0, 1)
    if op == "PRelu":
        return torch.where(x < 0, x * ins[1], x)
    if op == "Clip":
        lo = a.get("min") if opset < 11 else (ins[1] if len(ins) > 1 else None)
        hi = a.get("max") if opset < 11 else (ins[2] if len(ins) > 2 else None)
        y = x if lo is None else torch.maximum(x, torch.as_tensor(lo, dtype=x.dtype))
        return y if hi is None else torch.minimum(y, torch.as_tensor(hi, dtype=x.dtype))
    if op.startswith("Reduce"):
        axes = reduce_axes(node, a, ins, opset, x.dim())
        keep = bool(a.get("keepdims", 1))
        fns = {"ReduceSum": lambda t: torch.sum(t, axes, keep), "ReduceMean": lambda t: torch.mean(t, axes, keep),
               "ReduceMax": lambda t: torch.amax(t, axes, keep), "ReduceMin": lambda t: torch.amin(t, axes, keep),
               "ReduceProd": lambda t: prod(t, axes, keep), "ReduceL1": lambda t: torch.sum(t.abs(), axes, keep),
               "ReduceL2": lambda t: torch.sqrt(torch.sum(t * t, axes, keep)),
               "ReduceSumSquare": lambda t: torch.sum(t * t, axes, keep),
               "ReduceLogSum": lambda t: torch.log(torch.sum(t, axes, keep)),
               "ReduceLogSumExp": lambda t: torch.logsumexp(t, axes, keep)}
        if op not in fns:
            raise Unmapped(op)
        return x if axes is None else fns[op](x)
    if op == "MatMul":
        return torch.matmul(x, ins[1])
    if op == "Gemm":
        A = x.t() if a.get("transA", 0) else x
        B = ins[1].t() if a.get("transB", 0) else ins[1]
        y = a.get("alpha", 1.0) * (A @ B)
        return y + a.get("beta", 1.0) * ins[2] if len(ins) > 2 and ins[2] is not None else y
    if op == "Conv":
        return conv(x, ins[1], ins[2] if len(ins) > 2 else None, a)
    if op == "ConvTranspose":
        return conv_transpose(x, ins[1], ins[2] if len(ins) > 2 else None, a)
    if op in ("MaxPool", "AveragePool"):
        return pool(op, x, a)
    if op in ("ArgMax", "ArgMin"):
        fn = torch.argmax if op == "ArgMax" else torch.argmin  # the first index of the extremum
        axis = a.get("axis", 0) % x.dim()
        if opset >= 12 and a.get("select_last_index", 0):  # ONNX's reference: the first in the flipped data
            return x.shape[axis] - 1 - fn(torch.flip(x, [axis]), axis, bool(a.get("keepdims", 1)))
        return fn(x, axis, bool(a.get("keepdims", 1)))
    if op in ("Cast", "CastLike"):
        to = a["to"] if op == "Cast" else onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[ins[1].numpy().dtype]
        if to not in DTYPES:
            raise Unmapped("Cast to %s" % onnx.TensorProto.DataType.Name(to))
        if FLOAT64 and x.is_floating_point() and DTYPES[to].is_floating_point:
            return x  # a float64 evaluation keeps its precision: nnref's reals are the run's
        return x.to(DTYPES[to])  # a float to an integer truncates, as ONNX's Cast
    if op == "Not":
        return torch.logical_not(x)
    if op == "Where":
        return torch.where(x, ins[1], ins[2])
    if op == "GlobalAveragePool":
        return torch.mean(x, list(range(2, x.dim())), True)
    if op == "GlobalMaxPool":
        return torch.amax(x, list(range(2, x.dim())), True)
    if op == "BatchNormalization":
        if len(node.output) > 1 or a.get("training_mode", 0):
            raise Unmapped("BatchNormalization training")
        return F.batch_norm(x, ins[3], ins[4], ins[1], ins[2], False, 0.0, a.get("epsilon", 1e-5))
    if op == "InstanceNormalization":
        return F.instance_norm(x, weight=ins[1], bias=ins[2], eps=a.get("epsilon", 1e-5))
    if op == "LRN":
        return F.local_response_norm(x, a["size"], a.get("alpha", 1e-4), a.get("beta", 0.75), a.get("bias", 1.0))
    if op == "Transpose":
        return x.permute(*(a.get("perm") or list(reversed(range(x.dim())))))
    if op == "Flatten":
        axis = a.get("axis", 1)
        axis = axis + x.dim() if axis < 0 else axis
        return x.reshape(int(np.prod(x.shape[:axis])), int(np.prod(x.shape[axis:])))
    if op == "Reshape" and opset >= 5 and not a.get("allowzero", 0):
        shape = ints(ins[1], "shape")
        return x.reshape([x.shape[i] if d == 0 else d for i, d in enumerate(shape)])
    if op == "Concat":
        return torch.cat(ins, a["axis"])
    if op == "Unsqueeze":
        axes = a.get("axes") if opset < 13 else ints(ins[1], "axes")
        rank = x.dim() + len(axes)
        for ax in sorted(int(v) % rank for v in axes):
            x = x.unsqueeze(ax)
        return x
    if op == "Squeeze":
        axes = a.get("axes") if opset < 13 else (ints(ins[1], "axes") if len(ins) > 1 else None)
        if axes is None:
            return x.squeeze()
        for ax in sorted((int(v) % x.dim() for v in axes), reverse=True):
            x = x.squeeze(ax)
        return x
    if op == "Expand":
        return x * torch.ones(ints(ins[1], "shape"), dtype=x.dtype)
    if op == "Tile":
        return x.repeat(ints(ins[1], "repeats"))
    if op == "ConstantOfShape":  # value (default float32 0) in every element of the shape x
        value = tensor(numpy_helper.to_array(a["value"])) if "value" in a else torch.zeros(1)
        return value.reshape(()).expand(ints(x, "shape")).clone()
    if op == "Shape":  # the extents from start to end, as int64
        return torch.tensor(list(x.shape)[slice(a.get("start", 0), a.get("end"))], dtype=torch.int64)
    if op == "Dropout":  # inference, or training with ratio 0 (swin's attention): x, and a mask of all true
        ratio = float(ins[1]) if len(ins) > 1 and ins[1] is not None else 0.5
        training = len(ins) > 2 and ins[2] is not None and bool(ins[2])
        if training and ratio != 0:
            raise Unmapped("Dropout in training mode with ratio %g" % ratio)
        return [x, torch.ones_like(x, dtype=torch.bool)] if len(node.output) > 1 else x
    if op == "LayerNormalization":  # Y, and the optional Mean and InvStdDev over the axes from axis on
        axis = a.get("axis", -1)
        axis = axis + x.dim() if axis < 0 else axis
        eps = a.get("epsilon", 1e-5)
        y = F.layer_norm(x, x.shape[axis:], ins[1], ins[2] if len(ins) > 2 else None, eps)
        if len(node.output) == 1:
            return y
        dims = list(range(axis, x.dim()))
        mean = torch.mean(x, dims, True)
        return [y, mean, torch.rsqrt(torch.mean((x - mean) ** 2, dims, True) + eps)]
    if op == "Split":
        axis = a.get("axis", 0) % x.dim()
        sizes = a.get("split") if opset < 13 else (ints(ins[1], "split") if len(ins) > 1 and ins[1] is not None else None)
        if not sizes:
            sizes = [x.shape[axis] // len(node.output)] * len(node.output)
        return list(torch.split(x, list(sizes), axis))
    if op == "Slice" and opset >= 10:
        starts, ends = ints(ins[1], "starts"), ints(ins[2], "ends")
        axes = ints(ins[3], "axes") if len(ins) > 3 and ins[3] is not None else list(range(len(starts)))
        steps = ints(ins[4], "steps") if len(ins) > 4 and ins[4] is not None else [1] * len(starts)
        for s, e, ax, st in zip(starts, ends, axes, steps):
            ax = ax % x.dim()  # Python's slice clamps starts and ends as ONNX does, for either sign of step
            kept = range(*slice(s, e, st).indices(x.shape[ax]))
            x = torch.index_select(x, ax, torch.tensor(list(kept), dtype=torch.long))
        return x
    if op == "Gather":
        axis = a.get("axis", 0) % x.dim()
        return torch.index_select(x, axis, ins[1].reshape(-1).long() % x.shape[axis]).reshape(
            x.shape[:axis] + ins[1].shape + x.shape[axis + 1:])
    if op == "Pad" and opset >= 11:
        pads, n = ints(ins[1], "pads"), x.dim()
        mode = a.get("mode", b"constant")
        mode = mode.decode() if isinstance(mode, bytes) else mode
        value = float(ins[2]) if len(ins) > 2 and ins[2] is not None else 0.0
        flat = [p for i in reversed(range(n)) for p in (pads[i], pads[i + n])]
        if mode == "constant":
            return F.pad(x, flat, value=value)
        return pad_by_index(x, pads, mode)
    mapped = apply_more(op, a, ins, opset)
    if mapped is None:
        raise Unmapped(op)
    return mapped


def window(op, a, size):
    """PyTorch's own window functions, in float32: Hann, Hamming with ONNX's 25/46 and 21/46, Blackman."""
    n, periodic = int(size), bool(a.get("periodic", 1))
    if op == "HannWindow":
        return torch.hann_window(n, periodic=periodic)
    if op == "HammingWindow":
        return torch.hamming_window(n, periodic=periodic, alpha=25 / 46, beta=21 / 46)
    return torch.blackman_window(n, periodic=periodic)


def text(a, name, default):
    v = a.get(name, default)
    return v.decode() if isinstance(v, bytes) else v


def resize(x, a, ins):
    """Resize of the extents after the first two, linear (F.interpolate's linear, bilinear, trilinear)
    with half_pixel, pytorch_half_pixel (an output extent above 1) or align_corners: PyTorch's
    formulas are ONNX's there (PyTorch clamps a negative source coordinate to 0, where ONNX's edge
    padding reads x[0] too). Its scale is L_in/L_out, which is ONNX's 1/s when sizes are given, or
    scales whose L_in·s is a whole number."""
    n = x.dim() - 2
    mode, coordinate = text(a, "mode", "nearest"), text(a, "coordinate_transformation_mode", "half_pixel")
    if (mode != "linear" or coordinate not in ("half_pixel", "pytorch_half_pixel", "align_corners")
            or a.get("antialias", 0) or not 1 <= n <= 3 or len(ins) > 4 and ins[4] is not None):
        raise Unmapped("Resize attributes")
    if len(ins) > 3 and ins[3] is not None and ins[3].numel():
        sizes = ints(ins[3], "sizes")
    else:
        scales = [float(v) for v in ins[2].tolist()]
        sizes = [int(np.floor(d * v)) for d, v in zip(x.shape, scales)]
        if any(d * v != o for d, v, o in zip(x.shape, scales, sizes)):
            raise Unmapped("Resize scales with a fractional L_in·s")
    if list(sizes[:2]) != list(x.shape[:2]) or (coordinate == "pytorch_half_pixel" and min(sizes[2:]) <= 1):
        raise Unmapped("Resize of the first two extents")
    kind = {1: "linear", 2: "bilinear", 3: "trilinear"}[n]
    return F.interpolate(x, size=list(sizes[2:]), mode=kind, align_corners=coordinate == "align_corners")


def apply_more(op, a, ins, opset):
    """The ops PyTorch has its own function for (or a few lines of torch), read after apply's; None
    when not mapped."""
    x = ins[0] if ins else None
    if op == "Einsum":
        eq = a["equation"].decode() if isinstance(a["equation"], bytes) else a["equation"]
        return torch.einsum(eq.replace(" ", ""), *ins)
    if op == "Resize" and opset >= 11:
        return resize(x, a, ins)
    if op == "Trilu":
        k = int(ins[1]) if len(ins) > 1 and ins[1] is not None else 0
        return torch.triu(x, k) if a.get("upper", 1) else torch.tril(x, k)
    if op == "GatherElements":
        axis = a.get("axis", 0) % x.dim()
        return torch.gather(x, axis, ins[1].long() % x.shape[axis])
    if op == "Hardmax" and opset >= 13:
        axis = a.get("axis", -1) % x.dim()
        return F.one_hot(torch.argmax(x, axis), x.shape[axis]).movedim(-1, axis).to(x.dtype)
    if op == "IsNaN":
        return torch.isnan(x)
    if op == "IsInf":
        pos, neg = a.get("detect_positive", 1), a.get("detect_negative", 1)
        return (torch.isposinf(x) & bool(pos)) | (torch.isneginf(x) & bool(neg))
    if op == "ThresholdedRelu":
        return torch.where(x > a.get("alpha", 1.0), x, torch.zeros_like(x))
    if op == "Shrink":
        lambd, bias = a.get("lambd", 0.5), a.get("bias", 0.0)
        return torch.where(x < -lambd, x + bias, torch.where(x > lambd, x - bias, torch.zeros_like(x)))
    if op == "Celu":
        return F.celu(x, a.get("alpha", 1.0))
    if op in ("NegativeLogLikelihoodLoss", "SoftmaxCrossEntropyLoss"):
        reduction = a.get("reduction", b"mean")
        reduction = reduction.decode() if isinstance(reduction, bytes) else reduction
        weight = ins[2] if len(ins) > 2 else None
        ignore = a.get("ignore_index", -100)
        if op == "NegativeLogLikelihoodLoss":
            return F.nll_loss(x, ins[1].long(), weight, ignore_index=ignore, reduction=reduction)
        return [F.cross_entropy(x, ins[1].long(), weight, ignore_index=ignore, reduction=reduction),
                torch.log_softmax(x, 1)]
    if op in ("HannWindow", "HammingWindow", "BlackmanWindow"):
        return window(op, a, x)
    if op == "ScatterND":  # data[indices[..., :]] = updates (reduction none or add); indices in range
        reduction = a.get("reduction", b"none")
        reduction = reduction.decode() if isinstance(reduction, bytes) else reduction
        if reduction not in ("none", "add"):
            raise Unmapped("ScatterND reduction " + reduction)
        i = ins[1].long()
        where = tuple(i[..., k] % x.shape[k] for k in range(i.shape[-1]))
        return x.clone().index_put_(where, ins[2], accumulate=reduction == "add")
    if op == "Range":  # start, limit, delta: scalars of one type
        return torch.arange(ins[0].item(), ins[1].item(), ins[2].item(), dtype=ins[0].dtype)
    if op == "Mod":  # fmod 1: C's fmod (the dividend's sign); 0: the divisor's sign, as Python's %
        return torch.fmod(x, ins[1]) if a.get("fmod", 0) else torch.remainder(x, ins[1])
    if op == "EyeLike":
        i = torch.arange(x.shape[0]).reshape(-1, 1)
        return (torch.arange(x.shape[1]) - i == a.get("k", 0)).to(x.dtype if x.is_floating_point() else torch.float32)
    if op == "DepthToSpace" and a.get("mode", b"DCR") in (b"CRD", "CRD"):
        return F.pixel_shuffle(x, a["blocksize"])
    if op == "MeanVarianceNormalization":
        axes = a.get("axes", [0, 2, 3])
        mean = x.mean(axes, keepdim=True)
        return (x - mean) / (torch.sqrt((x * x).mean(axes, keepdim=True) - mean * mean) + float(np.float32(1e-9)))
    return None


def prod(t, axes, keep):
    for ax in sorted(axes, reverse=True):
        t = torch.prod(t, ax, keep)
    return t


FLOAT64 = False  # set by run(float64=True)


def tensor(a):
    t = torch.from_numpy(np.asarray(a).copy())
    return t.double() if FLOAT64 and t.is_floating_point() else t


def run(model_path, feeds, float64=False, threads=1, intermediates=None):
    """{output: numpy array} for feeds {graph input: numpy array}, in float32 (float64 data stays);
    with float64, every float tensor (weights, inputs, Constants) in float64: PyTorch's float64
    evaluation of the file's own weights. PyTorch runs on `threads` threads; a dict given as
    `intermediates` receives every floating-point node output that is not a graph output."""
    global FLOAT64
    FLOAT64 = float64
    model = onnx.load(model_path)
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 1)
    env = {}
    for t in model.graph.initializer:
        env[t.name] = tensor(numpy_helper.to_array(t))
    for name, a in feeds.items():
        env[name] = tensor(a)
    torch.set_num_threads(threads)
    with torch.inference_mode():
        for node in model.graph.node:
            if node.domain not in ("", "ai.onnx"):
                raise Unmapped("domain " + node.domain)
            if node.op_type == "Constant":
                env[node.output[0]] = tensor(numpy_helper.to_array(attrs(node)["value"]))
                continue
            ins = [env[i] if i else None for i in node.input]
            y = apply(node, ins, opset)
            for name, value in zip(node.output, y if isinstance(y, list) else [y]):
                if name:
                    env[name] = value
    outputs = {o.name for o in model.graph.output}
    if intermediates is not None:
        intermediates.update({name: env[name].numpy() for node in model.graph.node if node.op_type != "Constant"
                              for name in node.output
                              if name and name not in outputs and env[name].is_floating_point()})
    return {o.name: env[o.name].numpy() for o in model.graph.output}


def main():
    from onnx_node_tests import read_pb
    model = onnx.load(sys.argv[1])
    inits = {t.name for t in model.graph.initializer}
    names = [i.name for i in model.graph.input if i.name not in inits]
    outs = run(sys.argv[1], {n: read_pb(f) for n, f in zip(names, sys.argv[2:-1])})
    np.savez(sys.argv[-1], **outs)


if __name__ == "__main__":
    main()
