#!/usr/bin/python3
"""NumPy float64 operators of the NNEF 2.0 standard library, written from the draft's definitions.

Each function follows the text of its operator in chapter 4 of the Revision 8 draft
(../shared/seeds/nnef-2.0-draft-rev8.txt): the attributes' defaults, the @using's shape and
padding arithmetic (`/` floors, `\\` rounds up), the @assert's conditions where they shape the
result, and the @lower's scalar formula or the @compose's steps. They share no code or logic
with nnref's C++ reader; scripts/sknd_reference.py and scripts/sknd_single_ops.py evaluate
SkriptND graphs with them.

Usage:
    sknd_numpy_ops.py --self-test      # the operators against values worked out by hand
"""

import math
import sys

import numpy as np


def ceil_div(a, b):
    """SkriptND's `a \\ b` of ints."""
    return -(-a // b)


def uniform(value, k):
    """An int..(k) attribute given one value, made uniform (§2.6: `stride=2` is [2, 2])."""
    return list(value) if isinstance(value, (list, tuple)) else [value] * k


# ------------------------------------------------------------------ element-wise (§4.2)

UNARY = {
    "math.iden": lambda x: x.copy(),
    "math.neg": lambda x: -x,
    "math.rcp": lambda x: 1.0 / x,
    "math.sqr": lambda x: x * x,
    "math.sqrt": np.sqrt,
    "math.rsqr": lambda x: 1.0 / (x * x),
    "math.rsqrt": lambda x: 1.0 / np.sqrt(x),
    "math.exp": np.exp,
    "math.log": np.log,
    "math.log2": np.log2,
    "math.sin": np.sin,
    "math.cos": np.cos,
    "math.tan": np.tan,
    "math.sinh": np.sinh,
    "math.cosh": np.cosh,
    "math.tanh": np.tanh,
    "math.asin": np.arcsin,
    "math.acos": np.arccos,
    "math.atan": np.arctan,
    "math.asinh": np.arcsinh,
    "math.acosh": np.arccosh,
    "math.atanh": np.arctanh,
    "math.abs": lambda x: np.where(x < 0.0, -x, x),
    "math.sign": lambda x: np.where(x > 0, 1, np.where(x < 0, -1, 0)).astype(x.dtype),  # of its type (T: num)
    "math.floor": np.floor,
    "math.ceil": np.ceil,
    "nn.sigmoid": lambda x: 1.0 / (1.0 + np.exp(-x)),
    "nn.softplus": lambda x: np.log(np.exp(x) + 1.0),
    "nn.erf": np.vectorize(math.erf, otypes=[float]),
}

BINARY = {
    "math.add": np.add,
    "math.sub": np.subtract,
    "math.mul": np.multiply,
    "math.div": np.divide,
    "math.pow": np.power,
    "math.min": np.minimum,
    "math.max": np.maximum,
}


def aligned_extents(x_shape, y_shape, lhs_align=None, rhs_align=None):
    """The @using of math.add and its kin: each operand's extents at the result's rank, placed at
    its alignment (a negative one counts from the end), 1s around them."""
    rx, ry = len(x_shape), len(y_shape)
    qx, qy = rx + abs(lhs_align or 0), ry + abs(rhs_align or 0)
    rz = max(qx, qy)
    px = rz - rx if lhs_align is None else (rz - qx if lhs_align < 0 else lhs_align)
    py = rz - ry if rhs_align is None else (rz - qy if rhs_align < 0 else rhs_align)
    ex = [1] * px + list(x_shape) + [1] * (rz - rx - px)
    ey = [1] * py + list(y_shape) + [1] * (rz - ry - py)
    return ex, ey


def binary(op, x, y, lhs_align=None, rhs_align=None):
    """z[zi..] = x[...] op y[...]: an operand's extent 1 is read at index 0 (broadcast)."""
    ex, ey = aligned_extents(x.shape, y.shape, lhs_align, rhs_align)
    assert all(a == b or a == 1 or b == 1 for a, b in zip(ex, ey)), (ex, ey)
    return BINARY[op](x.reshape(ex), y.reshape(ey))


# ------------------------------------------------------------------ activations (§4.4)

def relu(x, alpha=None):
    """(x <? max ?? x) >? (alpha * x ?? 0.0), without max."""
    return np.maximum(x, 0.0 if alpha is None else alpha * x)


def prelu(x, alpha, axis=1):
    axis = axis + x.ndim if axis < 0 else axis
    slope = alpha.reshape([-1 if k == axis else 1 for k in range(x.ndim)])
    return np.where(x < 0.0, slope * x, x)


def elu(x, alpha=1.0):
    return np.where(x < 0.0, alpha * (np.exp(x) - 1.0), x)


def softmax(x, axes=(1,)):
    """@compose: max_reduce, sub, exp, sum_reduce, div, the reductions keeping their axes."""
    axes = tuple(axes)
    e = np.exp(x - x.max(axis=axes, keepdims=True))
    return e / e.sum(axis=axes, keepdims=True)


def linear(x, w, b=None):
    """output[bi, ni] = (bias[ni] ?? 0) + sum_ci input[bi, ci] * filter[ni, ci]."""
    y = x @ w.T
    return y if b is None else y + b


def batch_norm(x, mean, variance, bias=None, scale=None, epsilon=1e-5, channel_axis=1):
    """@compose: sub, add epsilon, sqrt, div, then mul by scale and add bias where given, each
    rank-1 operand aligned at the channel axis."""
    align = x.ndim + channel_axis if channel_axis < 0 else channel_axis
    y = binary("math.div", binary("math.sub", x, mean, rhs_align=align), np.sqrt(variance + epsilon), rhs_align=align)
    if scale is not None:
        y = binary("math.mul", y, scale, rhs_align=align)
    return y if bias is None else binary("math.add", y, bias, rhs_align=align)


# ------------------------------------------------------------------ windows (conv and the pools)

def window_geometry(extents, size, stride, dilation, padding, padding_align, ceil_mode):
    """The @using of nn.conv and the pools: the total padding (given, or the automatic one), the
    offset (the given padding before, or half the total: floored if 'UPPER', rounded up if
    'LOWER') and the output extents (floored or, in ceil mode, rounded up)."""
    k = len(extents)
    out, offset = [], []
    for a in range(k):
        ix, s = extents[a], stride[a]
        fd = (size[a] - 1) * dilation[a] + 1
        if padding is None:
            paddings = ((ceil_div(ix, s) if ceil_mode else ix // s) - 1) * s + fd - ix
            offset.append(paddings // 2 if padding_align == "UPPER" else ceil_div(paddings, 2))
        else:
            paddings = padding[a] + padding[k + a]
            offset.append(padding[a])
        assert ix + paddings >= fd, "padded input-size must be greater than (dilated) filter-size"
        out.append((ceil_div(ix + paddings - fd, s) if ceil_mode else (ix + paddings - fd) // s) + 1)
    return out, offset


def guarded_windows(x, axes, size, stride, dilation, offset, out):
    """x read at the guarded indices |stride * i + dilation * j - offset| of `axes`: the values,
    [..., out at each axis, ..., size...] (the window's axes last), and where the index is in
    the input (a guarded index outside reads nothing)."""
    values, inside = x, np.ones(x.shape, dtype=bool)
    for a, n, k, s, dl, off in zip(axes, out, size, stride, dilation, offset):
        index = s * np.arange(n)[:, None] + dl * np.arange(k)[None, :] - off
        valid = (index >= 0) & (index < x.shape[a])
        clipped = np.clip(index, 0, x.shape[a] - 1)
        values = np.moveaxis(np.take(values, clipped, axis=a), a + 1, -1)
        inside = np.moveaxis(np.take(inside, clipped, axis=a), a + 1, -1)
        shape = [1] * values.ndim
        shape[a], shape[-1] = n, k
        inside = inside & valid.reshape(shape)
    return values, inside


def windowed(x, axes, size, stride=1, dilation=1, padding=None, padding_align="UPPER", ceil_mode=False):
    k = len(axes)
    size, stride, dilation = uniform(size, k), uniform(stride, k), uniform(dilation, k)
    padding = None if padding is None else uniform(padding, 2 * k)
    out, offset = window_geometry([x.shape[a] for a in axes], size, stride, dilation, padding, padding_align,
                                  ceil_mode)
    return guarded_windows(x, axes, size, stride, dilation, offset, out)


def conv(x, w, b=None, groups=1, data_format="NCX", filter_format="NCX", **window):
    """nn.conv, NCX layouts: output[bi, gi*m + mi, i..] = (bias ?? 0) + sum over ci < fc and the
    window j of input[bi, gi*fc + ci, |stride*i + dilation*j - offset|..] * filter[gi*m + mi, ci, j..]."""
    assert data_format == filter_format == "NCX", "only the NCX layouts are written here"
    d = x.ndim - 2
    spatial = list(range(2, 2 + d))
    values, inside = windowed(x, spatial, list(w.shape[2:]), **window)
    values = np.where(inside, values, 0.0)
    g = x.shape[1] if groups == 0 else groups
    fc, m = w.shape[1], w.shape[0] // g
    window_axes = list(range(2 + d, 2 + 2 * d))
    parts = [np.moveaxis(np.tensordot(values[:, gi * fc:(gi + 1) * fc], w[gi * m:(gi + 1) * m],
                                      axes=([1] + window_axes, [1] + spatial)), -1, 1) for gi in range(g)]
    y = np.concatenate(parts, axis=1)
    return y if b is None else y + b.reshape([1, -1] + [1] * d)


def deconv(x, w, b=None, stride=1, dilation=1, padding=None, padding_align="UPPER", output_size=None, groups=1,
           data_format="NCX", filter_format="NCX"):
    """nn.deconv, NCX layouts: output[bi, ci, i..] = bias[ci] ?? 0, then output[bi, gi*fc + ci,
    |stride*i + dilation*j - offset|..] += input[bi, gi*m + mi, i..] * filter[gi*m + mi, ci, j..] (a
    target outside the output skipped); paddings, offset and ox as its @using gives them."""
    assert data_format == filter_format == "NCX", "only the NCX layouts are written here"
    d = x.ndim - 2
    ix, fx = list(x.shape[2:]), list(w.shape[2:])
    s, dl = uniform(stride, d), uniform(dilation, d)
    fd = [(f - 1) * q + 1 for f, q in zip(fx, dl)]
    if padding is None:
        total = [(i - 1) * st + f - i * st for i, st, f in zip(ix, s, fd)]
        offset = [t // 2 if padding_align == "UPPER" else -(-t // 2) for t in total]  # `/` floors, `\` rounds up
    else:
        p = uniform(padding, 2 * d)
        total, offset = [p[k] + p[d + k] for k in range(d)], p[:d]
    ox = uniform(output_size, d) if output_size is not None else [
        (i - 1) * st + f - t for i, st, f, t in zip(ix, s, fd, total)]
    g = x.shape[1] if groups == 0 else groups
    fc, m = w.shape[1], w.shape[0] // g
    y = np.zeros([x.shape[0], fc * g] + ox)
    if b is not None:
        y += b.reshape([1, -1] + [1] * d)
    for i in np.ndindex(*ix):
        for j in np.ndindex(*fx):
            o = [st * a + q * c - off for st, a, q, c, off in zip(s, i, dl, j, offset)]
            if all(0 <= v < n for v, n in zip(o, ox)):
                for gi in range(g):
                    y[(slice(None), slice(gi * fc, (gi + 1) * fc)) + tuple(o)] += (
                        x[(slice(None), slice(gi * m, (gi + 1) * m)) + i] @ w[(slice(gi * m, (gi + 1) * m), slice(None)) + j])
    return y


def cumsum(x, axis, exclusive=False, reverse=False):
    """math.cumsum's @compose: the items along the axis added one by one onto 0.0 (last first when
    reverse), each output the sum after its item, or before it when exclusive."""
    a = axis + x.ndim if axis < 0 else axis
    items = np.flip(x, a) if reverse else x
    sums = np.cumsum(items, axis=a)
    if exclusive:
        zero = np.zeros_like(np.take(sums, [0], axis=a))
        sums = np.concatenate([zero, np.delete(sums, -1, axis=a)], axis=a)
    return np.flip(sums, a) if reverse else sums


def pool_axes(x, axes):
    return list(range(2, x.ndim)) if axes is None else [a + x.ndim if a < 0 else a for a in axes]


def max_pool(x, size, axes=None, **window):
    """output[i..] >?= input[guarded window]: a read outside the input is omitted."""
    axes = pool_axes(x, axes)
    values, inside = windowed(x, axes, size, **window)
    return np.where(inside, values, -np.inf).max(axis=tuple(range(x.ndim, values.ndim)))


def sum_pool(x, size, axes=None, **window):
    """output[i..] += input[guarded window]: a read outside the input adds nothing."""
    axes = pool_axes(x, axes)
    values, inside = windowed(x, axes, size, **window)
    return np.where(inside, values, 0.0).sum(axis=tuple(range(x.ndim, values.ndim)))


def avg_pool(x, size, axes=None, ignore_border=True, **window):
    """@compose: sum_pool of the input over, with ignore_border, sum_pool of ones (the number of
    real elements in each window), else the window's volume."""
    total = sum_pool(x, size, axes, **window)
    if ignore_border:
        return total / sum_pool(np.ones_like(x), size, axes, **window)
    return total / float(np.prod(uniform(size, len(pool_axes(x, axes)))))


# ------------------------------------------------------------------ reductions (§4.2)

REDUCE = {
    "math.sum_reduce": np.sum,
    "math.max_reduce": np.max,
    "math.min_reduce": np.min,
    "math.prod_reduce": np.prod,
}


def reduce(op, x, axes=None, squeeze=False):
    """The axes default to [0:d]; a reduced axis is kept as extent 1 unless squeezed. mean_reduce
    is @compose: sum_reduce, then div by the reduced extents' product."""
    axes = tuple(range(x.ndim)) if axes is None else tuple(a + x.ndim if a < 0 else a for a in axes)
    if op == "math.mean_reduce":
        return np.sum(x, axis=axes, keepdims=not squeeze) / float(np.prod([x.shape[a] for a in axes]))
    return REDUCE[op](x, axis=axes, keepdims=not squeeze)


# ------------------------------------------------------------------ linear algebra (§4.3)

def matmul(a, b, transA=False, transB=False):
    """Z[l.., i, j] = sum_k A[l.., i, k] * B[l.., k, j] (each transposed as asked), the batch
    extents aligned on the right and broadcast."""
    a = np.swapaxes(a, -1, -2) if transA else a
    b = np.swapaxes(b, -1, -2) if transB else b
    return np.matmul(a, b)


# ------------------------------------------------------------------ layout (§4.1)

def reshape(x, shape, axis=0, rank=None):
    """The `rank` extents from `axis` become `shape`, whose one -1 takes the rest of the volume."""
    axis = axis + x.ndim if axis < 0 else axis
    rank = x.ndim - axis if rank is None else rank
    volume = int(np.prod(x.shape[axis:axis + rank]))
    known = int(np.prod([1 if e == -1 else e for e in shape]))
    new = [volume // known if e == -1 else e for e in shape]
    return x.reshape(list(x.shape[:axis]) + new + list(x.shape[axis + rank:]))


def flatten(x, axis=0, rank=None):
    axis = axis + x.ndim if axis < 0 else axis
    rank = x.ndim - axis if rank is None else rank
    return reshape(x, [-1], axis, rank)


def unflatten(x, axis, shape):
    return reshape(x, shape, axis, 1)


def squeeze(x, axes):
    return np.squeeze(x, axis=tuple(axes))


def unsqueeze(x, axes):
    """The axes count in the output's rank (d + k)."""
    rank = x.ndim + len(axes)
    return np.expand_dims(x, tuple(a + rank if a < 0 else a for a in axes))


def transpose(x, perm=None, axis=0):
    """The axes before `axis` stay; the rest are permuted by `perm`, absolute axes (a negative one
    counts from the end), by default [d-1:-1:-1] with d the number of permuted axes."""
    axis = axis + x.ndim if axis < 0 else axis
    perm = list(range(x.ndim - axis - 1, -1, -1)) if perm is None else [p + x.ndim if p < 0 else p for p in perm]
    return np.transpose(x, list(range(axis)) + perm)


def arg_n(op, xs):
    """math.argmax_n / argmin_n: y[i..] = 0, then y[i..] := k where xs[k][i..] is beyond xs[y[i..]][i..]
    (strictly: a tie keeps the earlier item)."""
    stacked = np.stack(xs)
    return (np.argmax if op == "math.argmax_n" else np.argmin)(stacked, axis=0)


def concat(xs, axis):
    return np.concatenate(xs, axis=axis)


# ------------------------------------------------------------------ self-test

def clamp(x, a, b):
    """math.clamp: y = x < a ? a : x > b ? b : x (the definition's order: b where x >= a > b)."""
    return np.where(x < a, a, np.where(x > b, b, x))


def silu(x):
    """nn.silu: x / (1 + exp(-x))."""
    return x / (1.0 + np.exp(-x))


def selu(x, alpha=1.67326319, lam=1.05070102):
    """nn.selu: lambda * (x < 0 ? alpha * (exp(x) - 1) : x), the draft's default attributes."""
    return lam * np.where(x < 0.0, alpha * (np.exp(x) - 1.0), x)


def thresholded_relu(x, theta):
    return np.where(x > theta, x, 0.0)


def gelu(x):
    """nn.gelu without an approximation: 0.5 * x * (1 + erf(x / sqrt(2)))."""
    return 0.5 * x * (1.0 + np.vectorize(math.erf)(x / math.sqrt(2.0)))


def pad_reflect(x, axis, before, after):
    """layout.pad REFLECT: |zi <> -zi : 2 (s - 1) - zi|, the mirror that leaves out the edge element."""
    pads = [(0, 0)] * x.ndim
    pads[axis] = (before, after)
    return np.pad(x, pads, mode="reflect")


# ------------------------------------------------------------------ int and bool tensors (§4.1, §4.2)

# The comparisons' and the logical operators' @lower: z = x op y with the operands aligned as math.add's.
COMPARE = {"math.lt": np.less, "math.gt": np.greater, "math.le": np.less_equal, "math.ge": np.greater_equal,
           "math.eq": np.equal, "math.ne": np.not_equal}
LOGICAL = {"math.and": np.logical_and, "math.or": np.logical_or, "math.xor": np.logical_xor}
# math.add sub mul min max mod of int tensors (T = int): SkriptND's int is a mathematical integer, its `%`
# the floor remainder (the divisor's sign, §2.4), Python's and NumPy's %.
INTEGER = {"math.add": np.add, "math.sub": np.subtract, "math.mul": np.multiply, "math.min": np.minimum,
           "math.max": np.maximum, "math.mod": np.mod}
# math.div and math.pow of int tensors: §2.4's `/` floors (NumPy's //), `**` of ints is an int
INTEGER_LOWERED = {"math.div": np.floor_divide, "math.pow": np.power}


def elementwise(op, x, y, lhs_align=None, rhs_align=None):
    """A comparison, a logical or an int operator with math.add's alignment."""
    ex, ey = aligned_extents(x.shape, y.shape, lhs_align, rhs_align)
    assert all(a == b or a == 1 or b == 1 for a, b in zip(ex, ey)), (ex, ey)
    return {**COMPARE, **LOGICAL, **INTEGER, **INTEGER_LOWERED}[op](x.reshape(ex), y.reshape(ey))


def logical_not(x):
    return np.logical_not(x)


def select(c, x, y, cond_align=None, lhs_align=None, rhs_align=None):
    """z = c ? x : y, the three operands aligned as math.select's @using: each at the largest rank."""
    ranks = [len(v.shape) + abs(a or 0) for v, a in ((c, cond_align), (x, lhs_align), (y, rhs_align))]
    rz = max(ranks)

    def placed(v, align, q):
        p = rz - v.ndim if align is None else (rz - q if align < 0 else align)
        return v.reshape([1] * p + list(v.shape) + [1] * (rz - v.ndim - p))
    return np.where(placed(c, cond_align, ranks[0]), placed(x, lhs_align, ranks[1]), placed(y, rhs_align, ranks[2]))


def arg_reduce(op, x, axis, squeeze=False):
    """argmax/argmin's @lower, step by step: output = 0, then for zi in order, output := zi where
    x[zi] is strictly beyond x[output] (ties keep the first index)."""
    axis = axis + x.ndim if axis < 0 else axis
    beyond = np.greater if op == "math.argmax" else np.less
    moved = np.moveaxis(x, axis, -1)
    out = np.zeros(moved.shape[:-1], dtype=np.int64)
    for zi in range(moved.shape[-1]):
        current = np.take_along_axis(moved, out[..., None], -1)[..., 0]
        out = np.where(beyond(moved[..., zi], current), zi, out)
    return out if squeeze else np.expand_dims(out, axis)


def arg_nd(op, x, axes=None, squeeze=False):
    """argmax_nd/argmin_nd: over the axes at once, the first element in the input's row-major order
    (its loop runs over all of x) that no later one strictly beats; the output row lists its
    coordinates in the order of `axes`."""
    axes = list(range(x.ndim)) if axes is None else [a + x.ndim if a < 0 else a for a in axes]
    reduced = sorted(axes)
    kept = [a for a in range(x.ndim) if a not in axes]
    flat = np.transpose(x, kept + reduced).reshape([x.shape[a] for a in kept] + [-1])
    first = (np.argmax if op == "math.argmax_nd" else np.argmin)(flat, axis=-1)  # first of the ties
    at = dict(zip(reduced, np.unravel_index(first, [x.shape[a] for a in reduced])))
    rows = np.stack([at[a] for a in axes], axis=-1).astype(np.int64)
    if squeeze:
        return rows
    return rows.reshape([1 if a in axes else x.shape[a] for a in range(x.ndim)] + [len(axes)])


def logical_reduce(op, x, axes=None, squeeze=False):
    """any_reduce |= (false initially), all_reduce &= (true initially) over the axes."""
    axes = tuple(range(x.ndim)) if axes is None else tuple(a + x.ndim if a < 0 else a for a in axes)
    return (np.any if op == "math.any_reduce" else np.all)(x, axis=axes, keepdims=not squeeze)


def gather(data, index, axis):
    """output[si.., ni.., ti..] = data[si.., index[ni..], ti..]."""
    return np.take(data, index, axis=axis + data.ndim if axis < 0 else axis)


def scatter(data, indices, updates, axis):
    """output = data, then output[si.., indices[si.., mi, ti..], ti..] := updates[si.., mi, ti..] in loop
    order (row-major over indices): an element two updates name keeps the later one."""
    a = axis + data.ndim if axis < 0 else axis
    out = data.copy()
    for at in np.ndindex(*indices.shape):
        target = list(at)
        target[a] = indices[at]
        out[tuple(target)] = updates[at]
    return out


def gather_nd(data, indices, batch_dims=0):
    """output[bi.., zi.., ti..] = data[bi.., indices[bi.., zi.., :].., ti..]."""
    out = np.empty(indices.shape[:-1] + data.shape[batch_dims + indices.shape[-1]:], data.dtype)
    for at in np.ndindex(*indices.shape[:-1]):
        out[at] = data[at[:batch_dims] + tuple(indices[at])]
    return out


def scatter_nd(data, indices, updates, batch_dims=0):
    """output = data, then output[bi.., indices[bi.., zi.., :].., ti..] := updates[bi.., zi.., ti..] in loop
    order: a slice two index rows name keeps the later one."""
    out = data.copy()
    for at in np.ndindex(*indices.shape[:-1]):
        out[at[:batch_dims] + tuple(indices[at])] = updates[at]
    return out


def cast(x, to):
    """R(x) of §2.4: to real, true is 1 and false 0; to bool, nonzero is true; a bool to int is 1 or 0,
    a real to int truncated toward 0 (docs/nnef2.md: the draft does not say how a real rounds)."""
    if to == "real":
        return x.astype(np.float64)
    return x != 0 if to == "bool" else np.trunc(x).astype(np.int64)


# ------------------------------------------------------------------ operators defined by @compose alone

def lp_reduce(x, p, axes=None, squeeze=False):
    """math.lp_reduce's @compose: (sum_reduce of |x| ** p) ** (1 / p)."""
    return reduce("math.sum_reduce", np.abs(x) ** p, axes, squeeze) ** (1.0 / p)


def capped_div(x, norm, bias, epsilon):
    """The last steps of l1_norm's and l2_norm's @compose: x / ((norm + bias) >? epsilon), bias and
    epsilon each where given."""
    biased = norm if bias is None else norm + bias
    return x / (biased if epsilon is None else np.maximum(biased, epsilon))


def l1_norm(x, axes, bias=None, epsilon=None):
    """nn.l1_norm's @compose: the norm is sum_reduce of |x| over the axes, kept as extent 1."""
    return capped_div(x, reduce("math.sum_reduce", np.abs(x), axes), bias, epsilon)


def l2_norm(x, axes, bias=None, epsilon=None):
    """nn.l2_norm's @compose: the norm is sqrt of sum_reduce of x^2 over the axes, kept as extent 1."""
    return capped_div(x, np.sqrt(reduce("math.sum_reduce", x * x, axes)), bias, epsilon)


def moments(x, axes=None, squeeze=False):
    """math.moments' @compose: the mean, mean_reduce over the axes ([0:d] by default), and the variance,
    mean_reduce of (x - mean)^2 with the mean kept as extent 1; each squeezed or kept as asked."""
    centered = x - reduce("math.mean_reduce", x, axes)
    return reduce("math.mean_reduce", x, axes, squeeze), reduce("math.mean_reduce", centered * centered, axes, squeeze)


def mean_variance_norm(x, bias=None, scale=None, axes=None, epsilon=1e-5):
    """nn.mean_variance_norm's @compose: (x - mean) / sqrt(variance + epsilon), math.moments' mean and
    variance (mean_reduce of (x - mean)^2) over the axes ([2:rank] by default) kept as extent 1, then
    mul by scale and add bias where given, each aligned at axis 1."""
    mean, variance = moments(x, list(range(2, x.ndim)) if axes is None else axes)
    y = (x - mean) / np.sqrt(variance + epsilon)
    if scale is not None:
        y = binary("math.mul", y, scale, rhs_align=1)
    return y if bias is None else binary("math.add", y, bias, rhs_align=1)


def local_response_norm(x, size, axes=(1,), alpha=1.0, beta=0.5, bias=1.0):
    """nn.local_response_norm's @compose: x / (mean * alpha + bias) ** beta, the mean of x^2 an avg_pool
    over the axes (stride 1) with padding (size - 1) / 2 before and (size - 1) \\ 2 after, divided by
    the window's volume (ignore_border=false)."""
    size = uniform(size, len(axes))
    padding = [(z - 1) // 2 for z in size] + [ceil_div(z - 1, 2) for z in size]
    mean = avg_pool(x * x, size, list(axes), ignore_border=False, padding=padding)
    return x / (mean * alpha + bias) ** beta


def rms_pool(x, size, axes=None, ignore_border=True, **window):
    """nn.rms_pool's @compose: sqrt of avg_pool of x^2, the window and ignore_border as given."""
    return np.sqrt(avg_pool(x * x, size, axes, ignore_border, **window))


def lp_pool(x, size, p, axes=None, **window):
    """nn.lp_pool's @compose: (sum_pool of |x| ** p) ** (1 / p)."""
    return sum_pool(np.abs(x) ** p, size, axes, **window) ** (1.0 / p)


def shuffle(x, axis, groups):
    """layout.shuffle's @compose: the axis reshaped to [groups, c / groups], the two transposed, and
    reshaped back to [c]: output index j * groups + g reads input index g * (c / groups) + j."""
    a = axis + x.ndim if axis < 0 else axis
    split = x.reshape(x.shape[:a] + (groups, x.shape[a] // groups) + x.shape[a + 1:])
    return np.swapaxes(split, a, a + 1).reshape(x.shape)


def area_downsample(x, factor, axes=None):
    """image.area_downsample's @compose: sum_pool of size and stride `factor` over the axes ([0:d] by
    default; its automatic padding is 0, the extents being multiples of the factors), divided by the
    factors' product."""
    axes = list(range(x.ndim)) if axes is None else axes
    return sum_pool(x, factor, axes, stride=factor) / float(np.prod(factor))


# ------------------------------------------------------------------ space and depth (§4.1), by their @compose

def split_spatial(x, axis, block):
    """The first reshape of space_to_batch and space_to_depth: each spatial extent s from `axis` becomes
    [s / block, block]. Returns it, the outer axes and the block axes."""
    d = len(block)
    pairs = [e for s, b in zip(x.shape[axis:axis + d], block) for e in (s // b, b)]
    outer = [axis + 2 * k for k in range(d)]
    return x.reshape(x.shape[:axis] + tuple(pairs) + x.shape[axis + d:]), outer, [a + 1 for a in outer]


def merge_pairs(x, axis, d):
    """The last reshape of batch_to_space and depth_to_space: the 2d axes from `axis`, in pairs (s, block),
    become [s * block..]."""
    merged = [x.shape[axis + 2 * k] * x.shape[axis + 2 * k + 1] for k in range(d)]
    return x.reshape(x.shape[:axis] + tuple(merged) + x.shape[axis + 2 * d:])


def space_to_batch(x, block_size, blocks_first=True, data_format="NCX"):
    """layout.space_to_batch's @compose: split_spatial, the block axes moved before the batch (blocks_first)
    or after it, and these d + 1 axes flattened: NCX output[(by.., bi) or (bi, by..), ci, yi..] =
    input[bi, ci, yi * block + by..]."""
    d, ncx = x.ndim - 2, data_format == "NCX"
    split, outer, blocks = split_spatial(x, 2 if ncx else 1, uniform(block_size, d))
    batch = blocks + [0] if blocks_first else [0] + blocks
    perm = batch + [1] + outer if ncx else batch + outer + [2 * d + 1]
    moved = np.transpose(split, perm)
    return moved.reshape((-1,) + moved.shape[d + 1:])


def batch_to_space(x, block_size, blocks_first=True, data_format="NCX"):
    """layout.batch_to_space's @compose: the batch split into [block.., b / (block * ..)] (blocks_first) or
    [b / (block * ..), block..], each block axis moved after its spatial axis, and the pairs merged: NCX
    output[bi, ci, yi * block + by..] = input[(by.., bi) or (bi, by..), ci, yi..]."""
    d, ncx = x.ndim - 2, data_format == "NCX"
    block = uniform(block_size, d)
    rest = x.shape[0] // int(np.prod(block))
    split = x.reshape(tuple(block + [rest] if blocks_first else [rest] + block) + x.shape[1:])
    batch, blocks = (d, list(range(d))) if blocks_first else (0, list(range(1, d + 1)))
    spatial = list(range(d + 2, 2 * d + 2)) if ncx else list(range(d + 1, 2 * d + 1))
    pairs = [a for pair in zip(spatial, blocks) for a in pair]
    perm = [batch, d + 1] + pairs if ncx else [batch] + pairs + [2 * d + 1]
    return merge_pairs(np.transpose(split, perm), 2 if ncx else 1, d)


def space_to_depth(x, block_size, blocks_first=True, data_format="NCX"):
    """layout.space_to_depth's @compose: split_spatial, the block axes moved before the channel axis
    (blocks_first) or after it, and these d + 1 axes flattened in the channel's place: NCX
    output[bi, (by.., ci) or (ci, by..), yi..] = input[bi, ci, yi * block + by..]."""
    d, ncx = x.ndim - 2, data_format == "NCX"
    split, outer, blocks = split_spatial(x, 2 if ncx else 1, uniform(block_size, d))
    channel = 1 if ncx else 2 * d + 1
    depth = blocks + [channel] if blocks_first else [channel] + blocks
    moved = np.transpose(split, [0] + depth + outer if ncx else [0] + outer + depth)
    at = 1 if ncx else d + 1
    return moved.reshape(moved.shape[:at] + (-1,) + moved.shape[at + d + 1:])


def depth_to_space(x, block_size, blocks_first=True, data_format="NCX"):
    """layout.depth_to_space's @compose: the channel axis split into [block.., c / (block * ..)] (blocks_first)
    or [c / (block * ..), block..], each block axis moved after its spatial axis, and the pairs merged:
    NCX output[bi, ci, yi * block + by..] = input[bi, (by.., ci) or (ci, by..), yi..]."""
    d, ncx = x.ndim - 2, data_format == "NCX"
    block = uniform(block_size, d)
    at = 1 if ncx else d + 1
    rest = x.shape[at] // int(np.prod(block))
    split = x.reshape(x.shape[:at] + tuple(block + [rest] if blocks_first else [rest] + block) + x.shape[at + 1:])
    channel = at + (d if blocks_first else 0)
    blocks = [at + k + (0 if blocks_first else 1) for k in range(d)]
    spatial = list(range(d + 2, 2 * d + 2)) if ncx else list(range(1, d + 1))
    pairs = [a for pair in zip(spatial, blocks) for a in pair]
    perm = [0, channel] + pairs if ncx else [0] + pairs + [channel]
    return merge_pairs(np.transpose(split, perm), 2 if ncx else 1, d)


# ------------------------------------------------------------------ image resize (§4.5.2), mode 'NEAREST'

ROUNDING = {"FLOOR": np.floor, "CEIL": np.ceil, "ROUND_PREFER_FLOOR": lambda x: np.ceil(x - 0.5),
            "ROUND_PREFER_CEIL": lambda x: np.floor(x + 0.5)}


def nearest_resize(x, size, axes=None, coordinate_transform="SYMMETRIC", rounding_method="ROUND_PREFER_FLOOR"):
    """image.nearest_resize's @lower: output[i..] = input[i[axes] <- (int(r) <? s - 1)..], r the
    rounding of real(i) * scale + offset; scale s / size, or if 'ALIGNED' (s - 1) / (size - 1) (0.0 if
    size <= 1); offset 0.5 * scale - 0.5 if 'SYMMETRIC', else 0.0."""
    axes = list(range(x.ndim)) if axes is None else [a + x.ndim if a < 0 else a for a in axes]
    for a, n in zip(axes, uniform(size, len(axes))):
        s = x.shape[a]
        if coordinate_transform == "ALIGNED":
            scale = 0.0 if n <= 1 else float(s - 1) / float(n - 1)
        else:
            scale = float(s) / float(n)
        offset = 0.5 * scale - 0.5 if coordinate_transform == "SYMMETRIC" else 0.0
        index = np.minimum(ROUNDING[rounding_method](np.arange(n) * scale + offset).astype(np.int64), s - 1)
        assert index.min() >= 0, "a read before the input"
        x = np.take(x, index, axis=a)
    return x


def linear_resize(x, size, axes=None, coordinate_transform="SYMMETRIC"):
    """image.linear_resize's @lower: output[i..] += Π_axes |(1 − j) − frac(|r|)| · input[⌊r⌋ + j clamped to
    [0, s − 1]] over j in {0, 1}^k, r = real(i) · scale + offset as nearest_resize's (the weights of |r|'s
    fraction, as the draft writes them, also where r < 0)."""
    axes = list(range(x.ndim)) if axes is None else [a + x.ndim if a < 0 else a for a in axes]
    sizes = uniform(size, len(axes))
    out_shape = list(x.shape)
    for a, n in zip(axes, sizes):
        out_shape[a] = n
    out = np.zeros(out_shape)
    for i in np.ndindex(*out_shape):
        for j in np.ndindex(*([2] * len(axes))):
            weight, at = 1.0, list(i)
            for a, n, q in zip(axes, sizes, j):
                s = x.shape[a]
                scale = (0.0 if n <= 1 else (s - 1) / (n - 1)) if coordinate_transform == "ALIGNED" else s / n
                offset = 0.5 * scale - 0.5 if coordinate_transform == "SYMMETRIC" else 0.0
                r = i[a] * scale + offset
                weight *= abs((1 - q) - (abs(r) - math.floor(abs(r))))
                at[a] = min(max(math.floor(r) + q, 0), s - 1)
            out[i] += weight * x[tuple(at)]
    return out


def resize(x, size, axes=None, mode="NEAREST", coordinate_transform="SYMMETRIC",
           rounding_method="ROUND_PREFER_FLOOR", antialias=True, cubic_coeff_a=-0.75):
    """image.resize's @compose: nearest_resize, or linear_resize in mode 'LINEAR' (CUBIC is not written
    here)."""
    if mode == "LINEAR":
        return linear_resize(x, size, axes, coordinate_transform)
    assert mode == "NEAREST", "the modes 'NEAREST' and 'LINEAR' are written here"
    return nearest_resize(x, size, axes, coordinate_transform, rounding_method)


def rescale(x, factor, axes=None, **attrs):
    """image.rescale's @compose: resize to size = int(round(real(s[axes]) * factor)) (the draft does not
    say how round breaks a tie, so none is taken)."""
    axes = list(range(x.ndim)) if axes is None else axes
    scaled = [x.shape[a] * f for a, f in zip(axes, uniform(factor, len(axes)))]
    assert all(abs(v - math.floor(v) - 0.5) > 1e-9 for v in scaled), "round of a tie"
    return resize(x, [int(math.floor(v + 0.5)) for v in scaled], axes, **attrs)


def self_test():
    """The operators against values worked out by hand."""
    # linear_resize of [1, 2, 4] to 5 (scale 0.6, offset -0.2): r = -0.2 reads index 0 with weights 0.8 and
    # 0.2; r = 0.4: 0.6 · 1 + 0.4 · 2; r = 1: 2; r = 1.6: 0.4 · 2 + 0.6 · 4; r = 2.2: index 2 (and 3 clamped)
    assert np.allclose(linear_resize(np.array([1.0, 2.0, 4.0]), 5), [1.0, 1.4, 2.0, 3.2, 4.0], rtol=0, atol=1e-15)
    x = np.arange(16.0).reshape(1, 1, 4, 4)
    assert np.array_equal(max_pool(x, 2, stride=2)[0, 0], [[5, 7], [13, 15]])
    # a corner window of size 3 with padding 1 holds 4 real elements: (0 + 1 + 4 + 5) / 4
    assert avg_pool(x, 3, padding=1)[0, 0, 0, 0] == 2.5
    # without ignore_border the padding counts: (0 + 1 + 4 + 5) / 9
    assert avg_pool(x, 3, padding=1, ignore_border=False)[0, 0, 0, 0] == 10.0 / 9.0
    w = np.ones((1, 1, 3, 3))
    # zero padding: the corner sums 0 + 1 + 4 + 5
    assert conv(x, w, np.array([1.0]), padding=1)[0, 0, 0, 0] == 11.0
    two = np.stack([x[0, 0], 2 * x[0, 0]])[None]
    assert np.array_equal(conv(two, np.ones((2, 1, 1, 1)), groups=2)[0, 1], 2 * x[0, 0])
    assert np.array_equal(conv(two, np.ones((2, 1, 1, 1)), groups=0)[0, 1], 2 * x[0, 0])
    # automatic padding of a 3-window on 4, stride 1: total 2, offset 1 either way
    assert window_geometry([4], [3], [1], [1], None, "UPPER", False) == ([4], [1])
    # a 2-window on 4, stride 1: total 1, offset 0 if 'UPPER', 1 if 'LOWER'
    assert window_geometry([4], [2], [1], [1], None, "UPPER", False) == ([4], [0])
    assert window_geometry([4], [2], [1], [1], None, "LOWER", False) == ([4], [1])
    assert sum_pool(x, 2, padding_align="LOWER")[0, 0, 0, 0] == 0.0
    assert sum_pool(x, 2)[0, 0, 0, 0] == 0 + 1 + 4 + 5
    # ceil mode, 5 by 5, window 2, stride 2: 3 by 3, the last row and column windows of one element
    five = np.arange(25.0).reshape(1, 1, 5, 5)
    assert np.array_equal(max_pool(five, 2, stride=2, padding=0, ceil_mode=True)[0, 0],
                          [[6, 8, 9], [16, 18, 19], [21, 23, 24]])
    # dilation 2: a 3 by 3 window spans 5 by 5
    assert sum_pool(five, 3, dilation=2, padding=0)[0, 0, 0, 0] == five[0, 0, ::2, ::2].sum()
    # a pool over axis 1 only
    assert np.array_equal(sum_pool(np.arange(6.0).reshape(1, 6), 2, axes=[1], stride=2, padding=0), [[1, 5, 9]])
    assert np.allclose(softmax(np.array([[0.0, np.log(3.0)]])), [[0.25, 0.75]])
    assert np.allclose(linear(np.array([[1.0, 2.0]]), np.array([[3.0, 4.0]]), np.array([0.5])), [[11.5]])
    # alignment: rank 1 at axis 1 of rank 3; a left-aligned rank 1 past the other operand's rank
    assert aligned_extents((2, 3, 4), (3,), rhs_align=1) == ([2, 3, 4], [1, 3, 1])
    assert aligned_extents((5,), (2, 3), lhs_align=2) == ([1, 1, 5], [1, 2, 3])
    assert aligned_extents((5,), (2, 5), lhs_align=-1) == ([5, 1], [2, 5])
    assert binary("math.sub", np.array([1.0, 2.0]), np.array([[1.0], [3.0]]), lhs_align=1).shape == (2, 2)
    assert relu(np.array([-2.0, 3.0]), 0.5).tolist() == [-1.0, 3.0]
    assert reduce("math.mean_reduce", np.arange(6.0).reshape(2, 3), [-1], True).tolist() == [1.0, 4.0]
    assert reshape(np.zeros((2, 3, 4)), [-1, 2], axis=1).shape == (2, 6, 2)
    assert flatten(np.zeros((2, 3, 4, 5)), axis=1, rank=2).shape == (2, 12, 5)
    assert unsqueeze(np.zeros((2, 3)), [0, -1]).shape == (1, 2, 3, 1)
    assert transpose(np.zeros((2, 3, 4, 5)), axis=1, perm=[3, 1, 2]).shape == (2, 5, 3, 4)
    assert transpose(np.zeros((2, 3, 4))).shape == (4, 3, 2)
    assert batch_norm(np.ones((1, 2, 1)), np.zeros(2), np.full(2, 4.0), np.ones(2), np.full(2, 3.0),
                      epsilon=0.0).ravel().tolist() == [2.5, 2.5]
    assert np.array_equal(clamp(np.array([-2.0, 0.0, 3.0]), -1.0, 2.0), [-1.0, 0.0, 2.0])
    assert np.array_equal(pad_reflect(np.array([1.0, 2.0, 3.0, 4.0]), 0, 2, 2), [3, 2, 1, 2, 3, 4, 3, 2])
    assert gelu(np.array([0.0]))[0] == 0.0 and abs(gelu(np.array([1.0]))[0] - 0.8413447460685429) < 1e-15
    # ties keep the first index; argmin's strict < as well
    assert arg_reduce("math.argmax", np.array([[1.0, 3.0, 3.0], [2.0, 0.0, 2.0]]), 1).tolist() == [[1], [0]]
    assert arg_reduce("math.argmin", np.array([[1.0, 3.0], [0.5, 4.0]]), 0, squeeze=True).tolist() == [1, 0]
    # x[a, b, c] over axes [2, 0] (rows [c, a]), b kept: b = 0 has its 5 at (a, c) = (1, 2); b = 1 ties 4 at
    # (0, 1) and (1, 0), and the first in row-major order wins. argmin: the 0s at (0, 0) and (0, 2) come first.
    x = np.array([[[0.0, 1.0, 2.0], [3.0, 4.0, 0.0]], [[1.0, 0.0, 5.0], [4.0, 0.0, 0.0]]])
    assert arg_nd("math.argmax_nd", x, [2, 0], squeeze=True).tolist() == [[2, 1], [1, 0]]
    assert arg_nd("math.argmin_nd", x, [0, 2]).tolist() == [[[[0, 0]], [[0, 2]]]]
    assert elementwise("math.xor", np.array([True, False]), np.array([[True], [False]])).tolist() == [
        [False, True], [True, False]]
    assert elementwise("math.mod", np.array([-7, 7]), np.array([3, -3])).tolist() == [2, -2]
    assert select(np.array([True, False]), np.array([[1.0], [2.0]]), np.array(0.0)).tolist() == [[1, 0], [2, 0]]
    assert gather(np.array([[1.0, 2.0, 3.0]]), np.array([[2, 0]]), -1).tolist() == [[[3.0, 1.0]]]
    assert logical_reduce("math.all_reduce", np.array([[True, False], [True, True]]), [1]).tolist() == [[False], [True]]
    # (9 + 16) ** (1/2) kept as [[5]]; p = 1 over axis 0, squeezed: |3|, |-4|
    assert lp_reduce(np.array([[3.0, -4.0]]), 2.0).tolist() == [[5.0]]
    assert lp_reduce(np.array([[3.0, -4.0]]), 1.0, [0], squeeze=True).tolist() == [3.0, 4.0]
    # l1: |1| + |-3| = 4; with bias 1 and epsilon 6: 5 >? 6 = 6
    assert l1_norm(np.array([[1.0, -3.0], [2.0, 2.0]]), [1]).tolist() == [[0.25, -0.75], [0.5, 0.5]]
    assert np.allclose(l1_norm(np.array([[1.0, -3.0]]), [-1], bias=1.0, epsilon=6.0), [[1.0 / 6.0, -0.5]])
    # l2: sqrt(9 + 16) = 5; 5 + 5 = 10; 5 >? 8 = 8
    assert l2_norm(np.array([[3.0, -4.0]]), [1]).tolist() == [[0.6, -0.8]]
    assert l2_norm(np.array([[3.0, -4.0]]), [1], bias=5.0).tolist() == [[0.3, -0.4]]
    assert l2_norm(np.array([[3.0, -4.0]]), [0, 1], epsilon=8.0).tolist() == [[0.375, -0.5]]
    # mean 3, variance (4 + 1 + 0 + 9) / 4 = 3.5, + 0.5 = 4: (x - 3) / 2, then * 2 + 1
    row = np.array([[[1.0, 2.0, 3.0, 6.0]]])
    assert mean_variance_norm(row, epsilon=0.5).ravel().tolist() == [-1.0, -0.5, 0.0, 1.5]
    assert mean_variance_norm(row, np.array([1.0]), np.array([2.0]), epsilon=0.5).ravel().tolist() == [-1, 0, 1, 4]
    # channels 1, 2, 2 (squares 1, 4, 4). Size 3: padding 1 and 1, window sums 5, 9, 8, / 3, * 3 + 1 = 6, 10, 9.
    # Size 2: padding 0 before, 1 after, sums 5, 8, 4, / 2, * 2 + 1 = 6, 9, 5. beta = 1: x divided by them.
    lrn = np.array([[1.0, 2.0, 2.0]])
    assert np.allclose(local_response_norm(lrn, 3, alpha=3.0, beta=1.0), [[1 / 6, 2 / 10, 2 / 9]])
    assert np.allclose(local_response_norm(lrn, 2, alpha=2.0, beta=1.0), [[1 / 6, 2 / 9, 2 / 5]])
    # (1 + 1 + 9 + 25) / 4 = 9; windows [3, 4] and [4, padding]: 12.5, then 16 / 1, or 16 / 2 counting the padding
    assert rms_pool(np.array([[[[1.0, 1.0], [3.0, -5.0]]]]), 2, stride=2).tolist() == [[[[3.0]]]]
    assert rms_pool(np.array([[3.0, 4.0]]), 2, axes=[1], padding=[0, 1]).tolist() == [[12.5 ** 0.5, 4.0]]
    assert rms_pool(np.array([[3.0, 4.0]]), 2, axes=[1], padding=[0, 1], ignore_border=False).tolist() == [
        [12.5 ** 0.5, 8.0 ** 0.5]]
    # p = 2: sqrt(9 + 16); p = 1 with one padding after: 3 + 4, then 4
    assert lp_pool(np.array([[3.0, -4.0]]), 2, 2.0, axes=[1], padding=0).tolist() == [[5.0]]
    assert lp_pool(np.array([[3.0, -4.0]]), 2, 1.0, axes=[-1], padding=[0, 1]).tolist() == [[7.0, 4.0]]
    # [[0, 1, 2], [3, 4, 5]] transposed, and [[0, 1], [2, 3], [4, 5]] transposed
    assert shuffle(np.arange(6), 0, 2).tolist() == [0, 3, 1, 4, 2, 5]
    assert shuffle(np.arange(12).reshape(2, 6), -1, 3)[1].tolist() == [6, 8, 10, 7, 9, 11]
    # 2 by 2 blocks of [[0 1 2 3], [4 5 6 7]]: (0 + 1 + 4 + 5) / 4 and (2 + 3 + 6 + 7) / 4; rows of 4: 6 / 4, 22 / 4
    assert area_downsample(np.arange(8.0).reshape(2, 4), [2, 2]).tolist() == [[2.5, 4.5]]
    assert area_downsample(np.arange(8.0).reshape(2, 4), [4], axes=[1]).tolist() == [[1.5], [5.5]]
    # mean 3 and variance (4 + 1 + 0 + 9) / 4 over axis 1, kept or squeezed; over all axes by default
    assert [v.tolist() for v in moments(row[0], [1])] == [[[3.0]], [[3.5]]]
    assert [v.tolist() for v in moments(row[0], [-1], squeeze=True)] == [[3.0], [3.5]]
    assert [v.tolist() for v in moments(np.array([1.0, 3.0]))] == [[2.0], [1.0]]
    # 2 by 2 blocks of 2 channels, x[0, c, y, x] = 4c + 2y + x: channels (by, bx, c) or (c, by, bx)
    cube = np.arange(8).reshape(1, 2, 2, 2)
    assert space_to_depth(cube, 2).ravel().tolist() == [0, 4, 1, 5, 2, 6, 3, 7]
    assert space_to_depth(cube, [2, 2], blocks_first=False).ravel().tolist() == list(range(8))
    # NXC, x[0, y, x, c] = 4y + 2x + c: channels (by, bx, c) or (c, by, bx)
    assert space_to_depth(cube, 2, data_format="NXC").ravel().tolist() == list(range(8))
    assert space_to_depth(cube, 2, False, "NXC").ravel().tolist() == [0, 2, 4, 6, 1, 3, 5, 7]
    # back: channel (by, bx, c) to x[0, c, y, x]; one channel of 4 to a 2 by 2 block
    assert np.array_equal(depth_to_space(np.array([0, 4, 1, 5, 2, 6, 3, 7]).reshape(1, 8, 1, 1), 2), cube)
    assert depth_to_space(np.arange(4).reshape(1, 4, 1, 1), 2).tolist() == [[[[0, 1], [2, 3]]]]
    assert np.array_equal(depth_to_space(np.arange(8).reshape(1, 8, 1, 1), 2, blocks_first=False), cube)
    nxc = np.array([0, 2, 4, 6, 1, 3, 5, 7]).reshape(1, 1, 1, 8)
    assert depth_to_space(nxc, 2, False, "NXC").ravel().tolist() == list(range(8))
    # [0 1 2 3] in blocks of 2: batch by * 1 + bi reads x[2 yi + by]; two batches: by * 2 + bi or bi * 2 + by
    assert space_to_batch(np.arange(4).reshape(1, 1, 4), 2).tolist() == [[[0, 2]], [[1, 3]]]
    assert space_to_batch(np.arange(4).reshape(1, 4, 1), [2], data_format="NXC").tolist() == [[[0], [2]], [[1], [3]]]
    assert space_to_batch(np.arange(4).reshape(2, 1, 2), 2).ravel().tolist() == [0, 2, 1, 3]
    assert space_to_batch(np.arange(4).reshape(2, 1, 2), 2, blocks_first=False).ravel().tolist() == [0, 1, 2, 3]
    batches = np.array([0, 2, 1, 3]).reshape(4, 1, 1)
    assert batch_to_space(batches, 2).tolist() == [[[0, 1]], [[2, 3]]]
    assert batch_to_space(batches, 2, blocks_first=False).tolist() == [[[0, 2]], [[1, 3]]]
    # 4 to 8, scale 0.5: 'ASYMMETRIC' reads 0, .5, 1, ..., 3.5, a tie at every other one; 'SYMMETRIC' -.25, .25, ...
    four = np.arange(4.0)
    assert nearest_resize(four, 8, coordinate_transform="ASYMMETRIC").tolist() == [0, 0, 1, 1, 2, 2, 3, 3]
    assert nearest_resize(four, [8], [0], "ASYMMETRIC", "ROUND_PREFER_CEIL").tolist() == [0, 1, 1, 2, 2, 3, 3, 3]
    assert nearest_resize(four, 8, coordinate_transform="ASYMMETRIC", rounding_method="FLOOR").tolist() == [
        0, 0, 1, 1, 2, 2, 3, 3]
    assert nearest_resize(four, 8).tolist() == [0, 0, 1, 1, 2, 2, 3, 3]
    assert nearest_resize(four, 8, rounding_method="CEIL").tolist() == [0, 1, 1, 2, 2, 3, 3, 3]
    # 3 to 5 'ALIGNED': scale 2 / 4, reads 0, .5, 1, 1.5, 2; 5 to 2 'SYMMETRIC': scale 2.5, offset .75: 0.75, 3.25
    assert nearest_resize(np.arange(3.0), 5, coordinate_transform="ALIGNED").tolist() == [0, 0, 1, 1, 2]
    assert nearest_resize(np.arange(3.0), 5, None, "ALIGNED", "ROUND_PREFER_CEIL").tolist() == [0, 1, 1, 2, 2]
    assert nearest_resize(np.arange(5.0), 2, rounding_method="FLOOR").tolist() == [0, 3]
    # 2 to 1: scale 2, offset .5, reads .5; 3 to 2: scale 1.5, offset .25, reads .25, 1.75; floored
    assert resize(np.arange(6.0).reshape(2, 3), [1, 2], rounding_method="FLOOR").tolist() == [[0, 1]]
    # 4 * 0.5 = 2: scale 2, 'ASYMMETRIC' reads 0, 2
    assert rescale(four, [0.5], coordinate_transform="ASYMMETRIC").tolist() == [0.0, 2.0]
    print("self-test: ok")
    return 0


if __name__ == "__main__":
    sys.exit(self_test() if sys.argv[1:] == ["--self-test"] else print(__doc__) or 2)
