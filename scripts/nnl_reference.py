#!/usr/bin/python3
"""Independent float64 reference evaluator for NNL v0.2 model files.

Written from the NNL v0.2 language reference plus nnref's documented fixed
choices (HWC layout, leading batch axis, TF-style SAME padding, ...); it does
not share code or logic with nnref's C++ implementation.

Usage:
    nnl_reference.py MODEL.nnl --input X.npy --output OUT.npz
    nnl_reference.py --self-test

The output .npz holds one float64 member per output layer (layers that feed
no other layer), named by layer id, each with shape [B, *per_sample_shape].

Importable: parse_nnl(text), load_model(path), load_weights(model, base_dir),
layer_weight(weights, id, param, shape), check_input(model, x),
evaluate(model, weights, x), run(model_path, x) and the per-op functions
(conv2d, maxpool2d, avgpool2d, dense, batchnorm, softmax, ...).

Conventions (nnref's fixed choices):
  * per-sample tensors are HWC; arrays here carry a leading batch axis B;
  * Conv2D is cross-correlation (no kernel flip), weight [F, C, kH, kW];
  * "same" padding: total = max((ceil(H/s)-1)*s + k - H, 0), floor(total/2)
    before, rest after; pools never pad; AvgPool divides by the window size;
  * Softmax/Concat axes count in the per-sample shape (negative from end).
"""

import argparse
import math
import os
import sys

import numpy as np


class NNLError(Exception):
    pass


# --------------------------------------------------------------------------
# Lexer
# --------------------------------------------------------------------------

PUNCT2 = ("->",)
PUNCT1 = "{}()[];:,="


class Token:
    __slots__ = ("kind", "value", "line", "col")

    def __init__(self, kind, value, line, col):
        self.kind = kind      # 'ident', 'number', 'string', 'punct', 'eof'
        self.value = value
        self.line = line
        self.col = col

    def __repr__(self):
        return "Token(%s, %r, %d:%d)" % (self.kind, self.value, self.line, self.col)


def tokenize(text):
    toks = []
    i = 0
    n = len(text)
    line = 1
    line_start = 0

    def err(msg):
        raise NNLError("%d:%d: %s" % (line, i - line_start + 1, msg))

    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            line_start = i
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                err("unterminated block comment")
            seg = text[i:j + 2]
            nl = seg.count("\n")
            if nl:
                line += nl
                line_start = i + seg.rfind("\n") + 1
            i = j + 2
            continue
        col = i - line_start + 1
        if c.isalpha() or c == "_":
            j = i + 1
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            toks.append(Token("ident", text[i:j], line, col))
            i = j
            continue
        if c.isdigit() or (c in "+-." and i + 1 < n and (text[i + 1].isdigit() or
                                                          (text[i + 1] == "." and i + 2 < n and text[i + 2].isdigit()))):
            j = i
            if text[j] in "+-":
                j += 1
            while j < n and text[j].isdigit():
                j += 1
            is_float = False
            if j < n and text[j] == ".":
                is_float = True
                j += 1
                while j < n and text[j].isdigit():
                    j += 1
            if j < n and text[j] in "eE":
                k = j + 1
                if k < n and text[k] in "+-":
                    k += 1
                if k < n and text[k].isdigit():
                    is_float = True
                    j = k
                    while j < n and text[j].isdigit():
                        j += 1
            lit = text[i:j]
            if j < n and (text[j].isalpha() or text[j] == "_"):
                err("malformed number %r" % (lit + text[j]))
            try:
                val = float(lit) if is_float else int(lit)
            except ValueError:
                err("malformed number %r" % lit)
            toks.append(Token("number", val, line, col))
            i = j
            continue
        if c == '"':
            j = i + 1
            out = []
            while True:
                if j >= n or text[j] == "\n":
                    err("unterminated string")
                if text[j] == "\\" and j + 1 < n:
                    out.append(text[j + 1])
                    j += 2
                    continue
                if text[j] == '"':
                    break
                out.append(text[j])
                j += 1
            toks.append(Token("string", "".join(out), line, col))
            i = j + 1
            continue
        if text.startswith("->", i):
            toks.append(Token("punct", "->", line, col))
            i += 2
            continue
        if c in PUNCT1:
            toks.append(Token("punct", c, line, col))
            i += 1
            continue
        err("unexpected character %r" % c)
    toks.append(Token("eof", None, line, i - line_start + 1))
    return toks


# --------------------------------------------------------------------------
# Parser
# --------------------------------------------------------------------------

# Parameter type codes: 'int', 'num', 'str', 'shape', 'int_or_shape'
LAYER_PARAMS = {
    "Input": {"shape": ("shape", True, None)},
    "Dense": {"units": ("int", True, None), "activation": ("str", False, "none")},
    "Conv2D": {"filters": ("int", True, None), "kernel": ("int_or_shape", True, None),
               "stride": ("int_or_shape", False, 1), "padding": ("str", False, "valid")},
    "MaxPool2D": {"kernel": ("int_or_shape", True, None), "stride": ("int_or_shape", False, None)},
    "AvgPool2D": {"kernel": ("int_or_shape", True, None), "stride": ("int_or_shape", False, None)},
    "Flatten": {},
    "BatchNorm": {"epsilon": ("num", False, 1e-5)},
    "Dropout": {"rate": ("num", False, 0.5)},
    "Add": {},
    "Concat": {"axis": ("int", False, -1)},
    "ReLU": {},
    "Sigmoid": {},
    "Softmax": {"axis": ("int", False, -1)},
}

CONFIG_KEYS = {
    "precision": ("str", "float32"),
    "weights": ("str", None),
    "target": ("str", "generic"),
    "align": ("int", 64),
    "batch": ("int", 1),
    "preprocess": ("str", "none"),
    "preprocess_mean": ("shape", None),
    "preprocess_std": ("shape", None),
    "io": ("str", "stdio"),
}

WEIGHT_PARAMS = {
    "Dense": ("weight", "bias"),
    "Conv2D": ("weight", "bias"),
    "BatchNorm": ("gamma", "beta", "running_mean", "running_var"),
}


class Layer:
    def __init__(self, lid, ltype, params, line):
        self.id = lid
        self.type = ltype
        self.params = params
        self.line = line
        self.inputs = []   # list of layer ids, in order

    def __repr__(self):
        return "Layer(%s=%s(%r) <- %r)" % (self.id, self.type, self.params, self.inputs)


class Model:
    def __init__(self):
        self.version = None
        self.name = None
        self.config = {}
        self.layers = []          # declaration order
        self.by_id = {}
        self.has_connections = False
        self.edges = []           # (src, dst) in order of appearance
        self.outputs = []
        self.path = None

    def __repr__(self):
        return "Model(%s, %r, %r)" % (self.name, self.config, self.layers)


class Parser:
    def __init__(self, text):
        self.toks = tokenize(text)
        self.pos = 0

    def peek(self):
        return self.toks[self.pos]

    def next(self):
        t = self.toks[self.pos]
        self.pos += 1
        return t

    def err(self, tok, msg):
        raise NNLError("%d:%d: %s" % (tok.line, tok.col, msg))

    def expect_punct(self, p):
        t = self.next()
        if t.kind != "punct" or t.value != p:
            self.err(t, "expected %r, got %r" % (p, t.value))
        return t

    def expect_ident(self, word=None):
        t = self.next()
        if t.kind != "ident" or (word is not None and t.value != word):
            self.err(t, "expected %s, got %r" % (word or "identifier", t.value))
        return t

    def at_punct(self, p):
        t = self.peek()
        return t.kind == "punct" and t.value == p

    def parse_value(self):
        t = self.next()
        if t.kind in ("number", "string"):
            return t.value
        if t.kind == "ident":
            if t.value == "true":
                return True
            if t.value == "false":
                return False
            self.err(t, "unexpected identifier %r as a value" % t.value)
        if t.kind == "punct" and t.value == "[":
            vals = []
            if not self.at_punct("]"):
                while True:
                    v = self.parse_value()
                    if isinstance(v, (list, str, bool)):
                        self.err(t, "shape elements must be numbers")
                    vals.append(v)
                    if self.at_punct(","):
                        self.next()
                        continue
                    break
            self.expect_punct("]")
            return vals
        self.err(t, "expected a value, got %r" % (t.value,))

    def parse(self):
        m = Model()
        t = self.peek()
        if t.kind == "ident" and t.value == "version":
            self.next()
            v = self.next()
            if v.kind != "number":
                self.err(v, "expected version number")
            m.version = v.value
            self.expect_punct(";")
        else:
            sys.stderr.write("nnl_reference: warning: no version declaration\n")
        self.expect_ident("model")
        m.name = self.expect_ident().value
        self.expect_punct("{")
        seen_config = False
        while True:
            t = self.peek()
            if t.kind == "punct" and t.value == "}":
                self.next()
                break
            if t.kind != "ident":
                self.err(t, "expected config, layer, connections or '}', got %r" % (t.value,))
            if t.value == "config":
                if seen_config:
                    self.err(t, "duplicate config block")
                seen_config = True
                self.next()
                self.parse_config(m)
            elif t.value == "layer":
                self.next()
                self.parse_layer(m)
            elif t.value == "connections":
                if m.has_connections:
                    self.err(t, "duplicate connections block")
                self.next()
                self.parse_connections(m)
            else:
                self.err(t, "unexpected %r" % t.value)
        t = self.peek()
        if t.kind != "eof":
            self.err(t, "trailing content after model")
        if not seen_config:
            raise NNLError("missing config block")
        if not m.layers:
            raise NNLError("model has no layers")
        return m

    def parse_config(self, m):
        self.expect_punct("{")
        while not self.at_punct("}"):
            kt = self.expect_ident()
            self.expect_punct(":")
            v = self.parse_value()
            self.expect_punct(";")
            key = kt.value
            if key in m.config:
                self.err(kt, "duplicate config key %r" % key)
            if key not in CONFIG_KEYS:
                sys.stderr.write("nnl_reference: warning: unknown config key %r\n" % key)
            else:
                ty = CONFIG_KEYS[key][0]
                check_type(self, kt, key, ty, v)
            m.config[key] = v
        self.expect_punct("}")
        for k, (_, d) in CONFIG_KEYS.items():
            if k not in m.config and d is not None:
                m.config[k] = d
        if "weights" not in m.config:
            raise NNLError("config: 'weights' is required")

    def parse_layer(self, m):
        idt = self.expect_ident()
        self.expect_punct("=")
        tyt = self.expect_ident()
        if tyt.value not in LAYER_PARAMS:
            self.err(tyt, "unknown layer type %r" % tyt.value)
        spec = LAYER_PARAMS[tyt.value]
        self.expect_punct("(")
        params = {}
        if not self.at_punct(")"):
            while True:
                pt = self.expect_ident()
                self.expect_punct(":")
                v = self.parse_value()
                if pt.value not in spec:
                    self.err(pt, "%s has no parameter %r" % (tyt.value, pt.value))
                if pt.value in params:
                    self.err(pt, "duplicate parameter %r" % pt.value)
                check_type(self, pt, pt.value, spec[pt.value][0], v)
                params[pt.value] = v
                if self.at_punct(","):
                    self.next()
                    continue
                break
        self.expect_punct(")")
        self.expect_punct(";")
        for pname, (_, req, default) in spec.items():
            if pname not in params:
                if req:
                    self.err(tyt, "%s %r: missing required parameter %r" % (tyt.value, idt.value, pname))
                params[pname] = default
        if idt.value in m.by_id:
            self.err(idt, "duplicate layer id %r" % idt.value)
        layer = Layer(idt.value, tyt.value, params, idt.line)
        m.layers.append(layer)
        m.by_id[layer.id] = layer

    def parse_endpoint(self):
        if self.at_punct("["):
            self.next()
            ids = [self.expect_ident().value]
            while self.at_punct(","):
                self.next()
                ids.append(self.expect_ident().value)
            self.expect_punct("]")
            return ids
        return [self.expect_ident().value]

    def parse_connections(self, m):
        m.has_connections = True
        self.expect_punct("{")
        while not self.at_punct("}"):
            chain = [self.parse_endpoint()]
            self.expect_punct("->")
            chain.append(self.parse_endpoint())
            while self.at_punct("->"):   # a -> b -> c (accepted extension)
                self.next()
                chain.append(self.parse_endpoint())
            self.expect_punct(";")
            for srcs, dsts in zip(chain, chain[1:]):
                for d in dsts:
                    for s in srcs:
                        m.edges.append((s, d))
        self.expect_punct("}")


def check_type(parser, tok, name, ty, v):
    def is_int(x):
        return isinstance(x, int) and not isinstance(x, bool)

    def is_num(x):
        return isinstance(x, (int, float)) and not isinstance(x, bool)

    ok = {
        "int": is_int(v),
        "num": is_num(v),
        "str": isinstance(v, str),
        "shape": isinstance(v, list) and all(is_num(e) for e in v),
        "int_or_shape": is_int(v) or (isinstance(v, list) and len(v) > 0 and all(is_int(e) for e in v)),
    }[ty]
    if not ok:
        parser.err(tok, "parameter %r: expected %s, got %r" % (name, ty, v))


def parse_nnl(text):
    """Parse NNL source text into a Model with resolved inputs and outputs."""
    m = Parser(text).parse()
    resolve_graph(m)
    return m


def resolve_graph(m):
    ids = [l.id for l in m.layers]
    if m.has_connections:
        for s, d in m.edges:
            for x in (s, d):
                if x not in m.by_id:
                    raise NNLError("connections: unknown layer %r" % x)
            m.by_id[d].inputs.append(s)
    else:
        for prev, cur in zip(m.layers, m.layers[1:]):
            cur.inputs.append(prev.id)
    feeds = set()
    for l in m.layers:
        feeds.update(l.inputs)
    m.outputs = [i for i in ids if i not in feeds]
    # arity checks
    for l in m.layers:
        k = len(l.inputs)
        if l.type == "Input":
            if k:
                raise NNLError("Input layer %r cannot have inputs" % l.id)
        elif l.type in ("Add", "Concat"):
            if k < 2:
                raise NNLError("%s %r needs at least 2 inputs, has %d" % (l.type, l.id, k))
        elif k != 1:
            raise NNLError("%s %r needs exactly 1 input, has %d" % (l.type, l.id, k))
    if sum(1 for l in m.layers if l.type == "Input") != 1:
        raise NNLError("model must have exactly one Input layer")
    # topological order (stable: declaration order preference), cycle check
    order = []
    done = set()
    visiting = set()

    def visit(lid):
        if lid in done:
            return
        if lid in visiting:
            raise NNLError("cycle in connections at %r" % lid)
        visiting.add(lid)
        for s in m.by_id[lid].inputs:
            visit(s)
        visiting.discard(lid)
        done.add(lid)
        order.append(lid)

    for lid in ids:
        visit(lid)
    m.order = order


def load_model(path):
    with open(path, "r", encoding="utf-8") as f:
        m = parse_nnl(f.read())
    m.path = os.path.abspath(path)
    return m


# --------------------------------------------------------------------------
# Weights
# --------------------------------------------------------------------------

def load_weights(m, base_dir=None):
    """Return {(layer_id, param): float64 array} for all layers that need weights."""
    if base_dir is None:
        base_dir = os.path.dirname(m.path) if m.path else "."
    wpath = os.path.join(base_dir, m.config["weights"])
    needed = [(l.id, p) for l in m.layers for p in WEIGHT_PARAMS.get(l.type, ())]
    out = {}
    if not needed:
        return out
    if os.path.isdir(wpath):
        for lid, p in needed:
            f = os.path.join(wpath, "%s.%s.npy" % (lid, p))
            if not os.path.exists(f):
                raise NNLError("missing weight file %s" % f)
            out[(lid, p)] = np.asarray(np.load(f, allow_pickle=False), dtype=np.float64)
    elif wpath.endswith(".npz") and os.path.isfile(wpath):
        with np.load(wpath, allow_pickle=False) as z:
            for lid, p in needed:
                key = "%s.%s" % (lid, p)
                if key not in z.files:
                    raise NNLError("missing member %s in %s" % (key, wpath))
                out[(lid, p)] = np.asarray(z[key], dtype=np.float64)
    else:
        raise NNLError("weights path %s is neither a directory nor an .npz file" % wpath)
    return out


# --------------------------------------------------------------------------
# Operators (all on batched float64 arrays, batch axis first)
# --------------------------------------------------------------------------

def pair(v, name):
    if isinstance(v, list):
        if len(v) == 1:
            return int(v[0]), int(v[0])
        if len(v) != 2:
            raise NNLError("%s must be an integer or [h, w]" % name)
        return int(v[0]), int(v[1])
    return int(v), int(v)


def same_padding(size, k, s):
    """TF SAME: (pad_before, pad_after, out_size) for one spatial axis."""
    out = -(-size // s)  # ceil
    total = max((out - 1) * s + k - size, 0)
    return total // 2, total - total // 2, out


def conv2d(x, w, b, stride=(1, 1), padding="valid"):
    """x [B,H,W,C], w [F,C,kH,kW], b [F] -> [B,Ho,Wo,F].

    Cross-correlation formulated as a sum over kernel offsets (i, j): for each
    offset, the strided input slice [B,Ho,Wo,C] is contracted with w[:,:,i,j].
    """
    B, H, W, C = x.shape
    F, Cw, kH, kW = w.shape
    if Cw != C:
        raise NNLError("conv2d: weight has %d input channels, input has %d" % (Cw, C))
    sH, sW = stride
    if padding == "same":
        pt, pb, Ho = same_padding(H, kH, sH)
        pl, pr, Wo = same_padding(W, kW, sW)
        x = np.pad(x, ((0, 0), (pt, pb), (pl, pr), (0, 0)))
    elif padding == "valid":
        if H < kH or W < kW:
            raise NNLError("conv2d: kernel larger than input")
        Ho = (H - kH) // sH + 1
        Wo = (W - kW) // sW + 1
    else:
        raise NNLError("conv2d: unknown padding %r" % padding)
    out = np.zeros((B, Ho, Wo, F), dtype=np.float64)
    for i in range(kH):
        for j in range(kW):
            patch = x[:, i:i + sH * (Ho - 1) + 1:sH, j:j + sW * (Wo - 1) + 1:sW, :]
            out += np.einsum("bhwc,fc->bhwf", patch, w[:, :, i, j])
    return out + b


def conv2d_direct(x, w, b, stride=(1, 1), padding="valid"):
    """Second, independent formulation (for self-test): loop over every output
    pixel and every kernel tap, mapping back to input coordinates and treating
    out-of-range taps as zero (no padded array)."""
    B, H, W, C = x.shape
    F, _, kH, kW = w.shape
    sH, sW = stride
    if padding == "same":
        Ho, Wo = math.ceil(H / sH), math.ceil(W / sW)
        tot_h = max((Ho - 1) * sH + kH - H, 0)
        tot_w = max((Wo - 1) * sW + kW - W, 0)
        off_h, off_w = tot_h // 2, tot_w // 2
    else:
        Ho, Wo = (H - kH) // sH + 1, (W - kW) // sW + 1
        off_h = off_w = 0
    out = np.zeros((B, Ho, Wo, F))
    for n in range(B):
        for oh in range(Ho):
            for ow in range(Wo):
                for f in range(F):
                    acc = float(b[f])
                    for i in range(kH):
                        ih = oh * sH + i - off_h
                        if ih < 0 or ih >= H:
                            continue
                        for j in range(kW):
                            iw = ow * sW + j - off_w
                            if iw < 0 or iw >= W:
                                continue
                            for c in range(C):
                                acc += x[n, ih, iw, c] * w[f, c, i, j]
                    out[n, oh, ow, f] = acc
    return out


def _pool_windows(x, kernel, stride):
    B, H, W, C = x.shape
    kH, kW = kernel
    sH, sW = stride
    if H < kH or W < kW:
        raise NNLError("pool: kernel larger than input")
    Ho = (H - kH) // sH + 1
    Wo = (W - kW) // sW + 1
    for i in range(kH):
        for j in range(kW):
            yield x[:, i:i + sH * (Ho - 1) + 1:sH, j:j + sW * (Wo - 1) + 1:sW, :]


def maxpool2d(x, kernel, stride):
    out = None
    for p in _pool_windows(x, kernel, stride):
        out = p.copy() if out is None else np.maximum(out, p)
    return out


def avgpool2d(x, kernel, stride):
    out = None
    for p in _pool_windows(x, kernel, stride):
        out = p.copy() if out is None else out + p
    return out / float(kernel[0] * kernel[1])


def pool2d_direct(x, kernel, stride, mode):
    B, H, W, C = x.shape
    kH, kW = kernel
    sH, sW = stride
    Ho, Wo = (H - kH) // sH + 1, (W - kW) // sW + 1
    out = np.zeros((B, Ho, Wo, C))
    for n in range(B):
        for oh in range(Ho):
            for ow in range(Wo):
                for c in range(C):
                    vals = [x[n, oh * sH + i, ow * sW + j, c] for i in range(kH) for j in range(kW)]
                    out[n, oh, ow, c] = max(vals) if mode == "max" else sum(vals) / len(vals)
    return out


def relu(x):
    return np.maximum(x, 0.0)


def sigmoid(x):
    # numerically stable 1/(1+exp(-x))
    out = np.empty_like(x)
    pos = x >= 0
    out[pos] = 1.0 / (1.0 + np.exp(-x[pos]))
    e = np.exp(x[~pos])
    out[~pos] = e / (1.0 + e)
    return out


def softmax(x, axis):
    m = np.max(x, axis=axis, keepdims=True)
    e = np.exp(x - m)
    return e / np.sum(e, axis=axis, keepdims=True)


def dense(x, w, b, activation="none"):
    if x.ndim != 2:
        raise NNLError("Dense expects a 1-D per-sample input, got per-sample shape %r" % (x.shape[1:],))
    if w.shape != (x.shape[1], b.shape[0]):
        raise NNLError("Dense weight shape %r does not match input %d / bias %r"
                       % (w.shape, x.shape[1], b.shape))
    y = x @ w + b
    return apply_activation(y, activation)


def apply_activation(y, activation):
    if activation == "none":
        return y
    if activation == "relu":
        return relu(y)
    if activation == "sigmoid":
        return sigmoid(y)
    if activation == "softmax":
        return softmax(y, -1)
    raise NNLError("unknown activation %r" % activation)


def batchnorm(x, gamma, beta, mean, var, eps):
    return gamma * (x - mean) / np.sqrt(var + eps) + beta


def sample_axis(axis, rank):
    """Map a per-sample axis (no batch) to an axis of the batched array."""
    a = axis + rank if axis < 0 else axis
    if a < 0 or a >= rank:
        raise NNLError("axis %d out of range for per-sample rank %d" % (axis, rank))
    return a + 1


# --------------------------------------------------------------------------
# Evaluation
# --------------------------------------------------------------------------

def preprocess(m, x):
    mode = m.config.get("preprocess", "none")
    x = np.asarray(x, dtype=np.float64)
    if mode == "none":
        return x
    if mode == "normalize_0_1":
        return x / 255.0
    if mode == "standardize":
        mean = m.config.get("preprocess_mean")
        std = m.config.get("preprocess_std")
        if mean is None or std is None:
            raise NNLError("standardize needs preprocess_mean and preprocess_std")
        mean = np.asarray(mean, dtype=np.float64)
        std = np.asarray(std, dtype=np.float64)
        if mean.shape != (x.shape[-1],) or std.shape != (x.shape[-1],):
            raise NNLError("preprocess_mean/std length must equal the channel count %d" % x.shape[-1])
        return (x - mean) / std
    raise NNLError("unknown preprocess %r" % mode)


def layer_weight(weights, lid, p, shape=None):
    """The parameter (lid, p), checked against the expected shape when one is given."""
    a = weights[(lid, p)]
    if shape is not None and tuple(a.shape) != tuple(shape):
        raise NNLError("weight %s.%s has shape %r, expected %r" % (lid, p, a.shape, tuple(shape)))
    return a


def eval_layer(layer, ins, weights):
    t = layer.type
    p = layer.params
    lid = layer.id
    if t in ("Add", "Concat"):
        xs = ins
    else:
        x = ins[0]
    if t == "Dense":
        if x.ndim != 2:
            raise NNLError("Dense %r: expects 1-D per-sample input, got %r" % (lid, x.shape[1:]))
        w = layer_weight(weights, lid, "weight", (x.shape[1], p["units"]))
        b = layer_weight(weights, lid, "bias", (p["units"],))
        return dense(x, w, b, p["activation"])
    if t == "Conv2D":
        if x.ndim != 4:
            raise NNLError("Conv2D %r: expects HWC input, got %r" % (lid, x.shape[1:]))
        kH, kW = pair(p["kernel"], "kernel")
        w = layer_weight(weights, lid, "weight", (p["filters"], x.shape[3], kH, kW))
        b = layer_weight(weights, lid, "bias", (p["filters"],))
        return conv2d(x, w, b, pair(p["stride"], "stride"), p["padding"])
    if t in ("MaxPool2D", "AvgPool2D"):
        if x.ndim != 4:
            raise NNLError("%s %r: expects HWC input" % (t, lid))
        k = pair(p["kernel"], "kernel")
        s = k if p["stride"] is None else pair(p["stride"], "stride")
        return maxpool2d(x, k, s) if t == "MaxPool2D" else avgpool2d(x, k, s)
    if t == "Flatten":
        return x.reshape(x.shape[0], -1)
    if t == "BatchNorm":
        C = x.shape[-1]
        return batchnorm(x, layer_weight(weights, lid, "gamma", (C,)), layer_weight(weights, lid, "beta", (C,)),
                         layer_weight(weights, lid, "running_mean", (C,)), layer_weight(weights, lid, "running_var", (C,)),
                         float(p["epsilon"]))
    if t == "Dropout":
        return x
    if t == "ReLU":
        return relu(x)
    if t == "Sigmoid":
        return sigmoid(x)
    if t == "Softmax":
        return softmax(x, sample_axis(p["axis"], x.ndim - 1))
    if t == "Add":
        for a in xs[1:]:
            if a.shape != xs[0].shape:
                raise NNLError("Add %r: input shapes differ %r vs %r" % (lid, xs[0].shape[1:], a.shape[1:]))
        acc = xs[0].copy()
        for a in xs[1:]:
            acc = acc + a
        return acc
    if t == "Concat":
        rank = xs[0].ndim - 1
        ax = sample_axis(p["axis"], rank)
        for a in xs[1:]:
            if a.ndim != xs[0].ndim or any(a.shape[d] != xs[0].shape[d]
                                           for d in range(a.ndim) if d != ax):
                raise NNLError("Concat %r: incompatible shapes" % lid)
        return np.concatenate(xs, axis=ax)
    raise NNLError("cannot evaluate layer type %r" % t)


def check_input(m, x):
    """Raise NNLError unless x is [batch, *input shape] for the model's Input and config batch."""
    inp = next(l for l in m.layers if l.type == "Input")
    shape = tuple(int(d) for d in inp.params["shape"])
    if x.shape[1:] != shape or x.ndim != len(shape) + 1:
        raise NNLError("input has shape %r, expected [B, %s]" % (x.shape, ", ".join(map(str, shape))))
    batch = m.config.get("batch", 1)
    if x.shape[0] != batch:
        raise NNLError("input batch %d does not match config batch %d" % (x.shape[0], batch))


def evaluate(m, weights, x, keep_all=False):
    """Evaluate model on batched input x [B, *shape]. Returns {output_id: array}
    (or all layer values if keep_all)."""
    x = np.asarray(x)
    check_input(m, x)
    vals = {}
    for lid in m.order:
        layer = m.by_id[lid]
        if layer.type == "Input":
            vals[lid] = preprocess(m, x)
        else:
            vals[lid] = eval_layer(layer, [vals[s] for s in layer.inputs], weights)
    if keep_all:
        return vals
    return {o: vals[o] for o in m.outputs}


def run(model_path, x):
    m = load_model(model_path)
    w = load_weights(m)
    return evaluate(m, w, x)


# --------------------------------------------------------------------------
# Self test
# --------------------------------------------------------------------------

def self_test():
    rng = np.random.default_rng(12345)
    failures = 0

    def check(name, got, want, tol=1e-12):
        nonlocal failures
        got = np.asarray(got, dtype=np.float64)
        want = np.asarray(want, dtype=np.float64)
        ok = got.shape == want.shape and np.allclose(got, want, rtol=tol, atol=tol)
        err = float(np.max(np.abs(got - want))) if got.shape == want.shape and got.size else float("nan")
        print("%-4s %-62s max|diff|=%.3g" % ("ok" if ok else "FAIL", name, err))
        if not ok:
            failures += 1
            print("   got ", got.ravel()[:12], got.shape)
            print("   want", want.ravel()[:12], want.shape)

    # 1. hand-computed convolutions
    x = np.arange(16, dtype=np.float64).reshape(1, 4, 4, 1)
    ones = np.ones((1, 1, 3, 3))
    check("hand: 4x4 arange, 3x3 ones, valid, bias 0.5",
          conv2d(x, ones, np.array([0.5])).reshape(2, 2), [[45.5, 54.5], [81.5, 90.5]])
    # same, stride 1: out[0,0] = x[0:2,0:2] sum = 0+1+4+5 = 10, out[3,3] = 10+11+14+15 = 50
    y = conv2d(x, ones, np.zeros(1), padding="same").reshape(4, 4)
    check("hand: same s1 corners/centre", [y[0, 0], y[0, 3], y[3, 3], y[1, 1]], [10, 18, 50, 45])
    # same, stride 2: Ho=2, total pad = 1*2+3-4 = 1 -> 0 before, 1 after
    # out[0,0] = rows0-2 x cols0-2 = 45 ; out[1,1] = rows2-3 x cols2-3 = 50
    # out[0,1] = rows0-2 x cols2-3 = 2+3+6+7+10+11 = 39 ; out[1,0] = rows2-3 x cols0-2 = 8+9+10+12+13+14 = 66
    check("hand: same s2 (pad 0 before / 1 after)",
          conv2d(x, ones, np.zeros(1), (2, 2), "same").reshape(2, 2), [[45, 39], [66, 50]])
    # no kernel flip: single tap at (0, 2) picks x[oh, ow+2]
    tap = np.zeros((1, 1, 3, 3))
    tap[0, 0, 0, 2] = 1.0
    check("hand: cross-correlation (tap at kernel (0,2))",
          conv2d(x, tap, np.zeros(1)).reshape(2, 2), [[2, 3], [6, 7]])
    # 2 channels, 2 filters, kernel [1,2], stride [1,2]
    x2 = np.array([[1., 2.], [3., 4.], [5., 6.], [7., 8.]]).reshape(1, 1, 4, 2)  # H=1, W=4, C=2
    w2 = np.zeros((2, 2, 1, 2))
    w2[0, 0, 0, 0] = 1; w2[0, 1, 0, 1] = 10     # f0 = x[w,c0] + 10*x[w+1,c1]
    w2[1, 1, 0, 0] = -1                           # f1 = -x[w,c1]
    check("hand: 2ch 2filt kernel [1,2] stride [1,2]",
          conv2d(x2, w2, np.array([0., 1.]), (1, 2)).reshape(2, 2),
          [[1 + 40, -2 + 1], [5 + 80, -6 + 1]])
    # 7x6 same, kernel [3,2], stride 2: H total 2 -> (1,1), W total 0
    check("pad: same_padding(7,3,2)", same_padding(7, 3, 2), (1, 1, 4))
    check("pad: same_padding(6,2,2)", same_padding(6, 2, 2), (0, 0, 3))
    check("pad: same_padding(4,3,2) odd", same_padding(4, 3, 2), (0, 1, 2))
    check("pad: same_padding(6,2,1) odd", same_padding(6, 2, 1), (0, 1, 6))
    check("pad: same_padding(5,1,3) none", same_padding(5, 1, 3), (0, 0, 2))

    # 2. offset-einsum form vs direct per-pixel loops, random cases
    cases = [
        (1, 4, 4, 1, 2, (3, 3), (1, 1), "valid"),
        (2, 7, 6, 3, 4, (3, 2), (2, 2), "same"),
        (1, 7, 6, 2, 3, (3, 2), (1, 1), "same"),
        (2, 8, 9, 2, 3, (2, 3), (3, 3), "valid"),
        (1, 5, 5, 3, 2, (4, 4), (2, 3), "same"),
        (1, 5, 4, 2, 2, (5, 1), (1, 2), "same"),
        (3, 6, 7, 1, 2, (1, 1), (2, 1), "valid"),
        (1, 3, 3, 2, 2, (5, 5), (1, 1), "same"),
        (1, 9, 8, 3, 2, (3, 3), (4, 2), "same"),
        (2, 6, 6, 4, 3, (3, 3), (1, 1), "valid"),
    ]
    for (B, H, W, C, F, k, s, pad) in cases:
        x = rng.normal(size=(B, H, W, C))
        w = rng.normal(0, 0.5, size=(F, C) + k)
        b = rng.normal(size=F)
        check("conv offset-einsum vs direct B%d %dx%dx%d F%d k%s s%s %s" % (B, H, W, C, F, k, s, pad),
              conv2d(x, w, b, s, pad), conv2d_direct(x, w, b, s, pad))

    # 3. pools vs direct
    for (B, H, W, C, k, s) in [(1, 9, 8, 3, (2, 3), (1, 1)), (2, 9, 8, 3, (3, 3), (2, 2)),
                               (1, 5, 7, 2, (2, 2), (2, 2)), (1, 6, 5, 1, (3, 2), (2, 3))]:
        x = rng.normal(size=(B, H, W, C))
        check("maxpool vs direct %dx%d k%s s%s" % (H, W, k, s), maxpool2d(x, k, s), pool2d_direct(x, k, s, "max"))
        check("avgpool vs direct %dx%d k%s s%s" % (H, W, k, s), avgpool2d(x, k, s), pool2d_direct(x, k, s, "avg"))
    xp = np.array([[1., -2., 3., 0.], [4., 5., -6., 7.], [8., 9., 10., -11.]]).reshape(1, 3, 4, 1)
    check("hand: maxpool k[2,3] s1 on 3x4", maxpool2d(xp, (2, 3), (1, 1)).reshape(2, 2), [[5, 7], [10, 10]])
    check("hand: avgpool k2 s2 on 3x4", avgpool2d(xp, (2, 2), (2, 2)).reshape(1, 2), [[2.0, 1.0]])

    # 4. misc ops by hand
    check("hand: softmax of 1000+[0, ln2, ln5] = [1,2,5]/8",
          softmax(np.array([[1000.0, 1000.0 + math.log(2), 1000.0 + math.log(5)]]), -1), [[1 / 8, 2 / 8, 5 / 8]])
    check("hand: sigmoid(0, ln3, -ln3, -800)",
          sigmoid(np.array([0.0, math.log(3), -math.log(3), -800.0])), [0.5, 0.75, 0.25, 0.0])
    check("hand: batchnorm", batchnorm(np.array([[3.0, -1.0]]), np.array([2.0, 1.0]), np.array([0.5, 0.0]),
                                       np.array([1.0, 1.0]), np.array([3.0, 0.25]), 1.0),
          [[2 * 2 / 2 + 0.5, -2 / math.sqrt(1.25)]])

    # 5. parser + evaluator end to end
    src = """
    version 0.2; /* block
    comment */
    model t { // trailing
      config { weights: "./none"; batch: 2; preprocess: "standardize";
               preprocess_mean: [1, 2]; preprocess_std: [2.0, 4e0]; }
      layer input = Input(shape: [2, 3, 2]);
      layer a = ReLU();
      layer b = Softmax(axis: 0);
      layer c = Concat(axis: -2);
      layer d = Add();
      layer e = Flatten();
      connections { input -> a; input -> b; [a, b] -> c; [a, b, a] -> d; d -> e; }
    }"""
    m = parse_nnl(src)
    check("parse: outputs in declaration order", len(m.outputs) == 2 and m.outputs == ["c", "e"], True)
    check("parse: d inputs order", m.by_id["d"].inputs == ["a", "b", "a"], True)
    x = rng.normal(size=(2, 2, 3, 2))
    out = evaluate(m, {}, x)
    z = (x - np.array([1, 2])) / np.array([2.0, 4.0])
    a = np.maximum(z, 0)
    bb = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    check("eval: concat axis -2", out["c"], np.concatenate([a, bb], axis=2))
    check("eval: add3 + flatten", out["e"], (a + bb + a).reshape(2, 12))
    m2 = parse_nnl('model s { config { weights: "w"; } layer i = Input(shape: [3]); '
                   'layer f = Dense(units: 2, activation: "sigmoid"); layer r = ReLU(); }')
    W = np.array([[1.0, -1.0], [2.0, 0.0], [0.0, 3.0]])
    bias = np.array([0.0, -1.0])
    o = evaluate(m2, {("f", "weight"): W, ("f", "bias"): bias}, np.array([[1.0, 1.0, 1.0]]))
    check("eval: implicit chain dense(sigmoid)->relu, hand", o["r"],
          [[1 / (1 + math.exp(-3.0)), 1 / (1 + math.exp(-1.0))]])
    for bad in ['model x { config { weights: "w"; } layer i = Input(shape: [3]); layer d = Dense(unit: 3); }',
                'model x { config { weights: "w"; } layer i = Input(shape: [3]) }',
                'model x { layer i = Input(shape: [3]); }',
                'model x { config { weights: "w"; } layer i = Input(shape: [3]); /* x }']:
        try:
            parse_nnl(bad)
            ok = False
        except NNLError:
            ok = True
        check("parse: rejects malformed model", ok, True)

    print("self-test: %s (%d failures)" % ("PASS" if failures == 0 else "FAIL", failures))
    return failures == 0


# --------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description="float64 reference evaluator for NNL v0.2")
    ap.add_argument("model", nargs="?")
    ap.add_argument("--input")
    ap.add_argument("--output")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args(argv)
    if args.self_test:
        return 0 if self_test() else 1
    if not (args.model and args.input and args.output):
        ap.error("MODEL, --input and --output are required")
    try:
        x = np.load(args.input, allow_pickle=False)
        outs = run(args.model, x)
    except NNLError as e:
        sys.stderr.write("nnl_reference: error: %s\n" % e)
        return 2
    np.savez(args.output, **{k: np.asarray(v, dtype=np.float64) for k, v in outs.items()})
    for k, v in outs.items():
        print("%s %s" % (k, list(v.shape)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
