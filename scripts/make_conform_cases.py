#!/usr/bin/python3
"""Generate random, valid NNL v0.2 models with weights and inputs, their float64 reference outputs
and the outputs of every low-precision peer (float32_peers.py), for the soundness tests of
`nnref conform` (no false alarm on any correct float32 result).

Usage:
    make_conform_cases.py OUT_DIR [--count 200] [--seed 1] [--peers all|none|NAME,NAME...]
    make_conform_cases.py --self-test

OUT_DIR/case_NNN/ gets
    model.nnl        a model of 1 to 6 layers after its Input: every NNL v0.2 layer type, Dense
                     with each activation, Conv2D valid/same with strides, pools with and without
                     stride, Softmax/Concat on every per-sample axis, branches merged by Add (2 or
                     3 inputs) or Concat, sometimes a second output, batch 1 to 3, preprocessing
                     none/normalize_0_1/standardize, implicit or explicit connections;
    weights/         <id>.<param>.npy, float32;
    input.npy        float32 [batch, *input shape];
    expected.npz     float64 outputs from nnl_reference.py, keyed by output layer id;
    peers/<peer>.npz float32 outputs of each peer (and <peer>.npy for a single output).
OUT_DIR/manifest.json lists the cases: layer types, outputs and shapes, batch, preprocessing, the
longest dot product (terms, bias excluded) and each peer's runtime precision.

Case i draws everything from numpy.random.default_rng([seed, i]): the files are reproducible
byte for byte. Every float32 peer is checked against the float64 reference to a loose tolerance
(a self-check of these scripts, not a verdict); a case that fails it stops the run (exit 1). The
float16 and bfloat16 peers are not: on an ill-conditioned model (a softmax of large logits) they
are rightly far from it.
"""

import argparse
import json
import os
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import float32_peers as peers  # noqa: E402
import nnl_reference as ref  # noqa: E402

MAX_ELEMENTS = 4096      # per-sample elements of any tensor
MAX_DENSE_IN = 1536      # longest Dense dot product


class Case:
    """A model as text, its weights ({"<id>.<param>": float32 array}) and its input."""

    def __init__(self, text, weights, x):
        self.text = text
        self.weights = weights
        self.x = x


# --------------------------------------------------------------------------------------------
# Random models
# --------------------------------------------------------------------------------------------

def _conv_out(size, k, s, padding):
    return -(-size // s) if padding == "same" else (size - k) // s + 1


def _nnl_value(v):
    if isinstance(v, str):
        return '"%s"' % v
    if isinstance(v, (list, tuple)):
        return "[%s]" % ", ".join(_nnl_value(e) for e in v)
    if isinstance(v, float):
        return repr(v)
    return str(v)


class ModelBuilder:
    """Grows a random model layer by layer, tracking each layer's per-sample shape."""

    def __init__(self, rng):
        self.rng = rng
        self.layers = []      # (id, type, params, input ids)
        self.shape = {}       # id -> per-sample shape
        self.weights = {}
        self.counters = {}

    def pick(self, options, p=None):
        return options[self.rng.choice(len(options), p=p)]

    def coin(self, p):
        return self.rng.random() < p

    def add(self, prefix, ltype, params, inputs, shape):
        n = self.counters.get(prefix, 0) + 1
        self.counters[prefix] = n
        lid = "%s%d" % (prefix, n) if prefix != "input" else "input"
        self.layers.append((lid, ltype, params, list(inputs)))
        self.shape[lid] = tuple(shape)
        return lid

    def param(self, lid, name, a):
        self.weights["%s.%s" % (lid, name)] = np.asarray(a, dtype=np.float32)

    def gain_normal(self, fan_in, shape):
        gain = self.pick([0.5, 1.0, 2.0])
        return self.rng.normal(0.0, gain / np.sqrt(fan_in), shape)

    # -- layers with weights -------------------------------------------------------------------

    def dense(self, src, units, activation=None):
        (n,) = self.shape[src]
        if activation is None:
            activation = self.pick(["none", "relu", "sigmoid", "softmax"], p=[0.4, 0.3, 0.15, 0.15])
        params = {"units": units}
        if activation != "none" or self.coin(0.3):
            params["activation"] = activation
        lid = self.add("fc", "Dense", params, [src], (units,))
        self.param(lid, "weight", self.gain_normal(n, (n, units)))
        self.param(lid, "bias", self.rng.normal(0.0, 0.5, units) if self.coin(0.85) else np.zeros(units))
        return lid

    def conv(self, src, filters, kernel, stride, padding):
        H, W, C = self.shape[src]
        (kH, kW), (sH, sW) = kernel, stride
        params = {"filters": filters,
                  "kernel": kH if kH == kW and self.coin(0.7) else [kH, kW]}
        if (sH, sW) != (1, 1) or self.coin(0.3):
            params["stride"] = sH if sH == sW and self.coin(0.7) else [sH, sW]
        if padding == "same" or self.coin(0.4):
            params["padding"] = padding
        shape = (_conv_out(H, kH, sH, padding), _conv_out(W, kW, sW, padding), filters)
        lid = self.add("conv", "Conv2D", params, [src], shape)
        self.param(lid, "weight", self.gain_normal(C * kH * kW, (filters, C, kH, kW)))
        self.param(lid, "bias", self.rng.normal(0.0, 0.5, filters))
        return lid

    def batchnorm(self, src):
        C = self.shape[src][-1]
        params = {}
        if self.coin(0.5):
            params["epsilon"] = self.pick([1e-3, 1e-4, 1e-6, 0.01, 2.5e-5])
        lid = self.add("bn", "BatchNorm", params, [src], self.shape[src])
        self.param(lid, "gamma", self.rng.normal(1.0, 0.5, C))
        self.param(lid, "beta", self.rng.normal(0.0, 0.5, C))
        self.param(lid, "running_mean", self.rng.normal(0.0, 0.5, C))
        self.param(lid, "running_var", self.rng.uniform(0.05, 2.0, C))
        return lid

    # -- random choices -------------------------------------------------------------------------

    def random_kernel(self, H, W):
        kmax_h, kmax_w = min(H, 5), min(W, 5)
        kH = int(self.rng.integers(1, kmax_h + 1))
        kW = kH if self.coin(0.6) and kH <= kmax_w else int(self.rng.integers(1, kmax_w + 1))
        return kH, kW

    def random_conv(self, src, filters=None, stride1=False):
        H, W, C = self.shape[src]
        padding = "same" if stride1 else self.pick(["valid", "same"])
        kernel = self.random_kernel(H, W)
        stride = (1, 1)
        if not stride1 and self.coin(0.4):
            stride = (int(self.rng.integers(1, 4)),) * 2 if self.coin(0.6) else \
                     (int(self.rng.integers(1, 4)), int(self.rng.integers(1, 4)))
        if filters is None:
            Ho, Wo = _conv_out(H, kernel[0], stride[0], padding), _conv_out(W, kernel[1], stride[1], padding)
            filters = int(min(self.rng.integers(1, 25), max(1, MAX_ELEMENTS // (Ho * Wo))))
        return self.conv(src, filters, kernel, stride, padding)

    def random_pool(self, src):
        H, W, C = self.shape[src]
        kH = int(self.rng.integers(min(H, 2), min(H, 3) + 1))
        kW = kH if self.coin(0.7) and kH <= W else int(self.rng.integers(min(W, 2), min(W, 3) + 1))
        params = {"kernel": kH if kH == kW and self.coin(0.7) else [kH, kW]}
        sH, sW = kH, kW
        if self.coin(0.5):
            sH = sW = int(self.rng.integers(1, 3))
            params["stride"] = sH if self.coin(0.7) else [sH, sW]
        ltype = self.pick(["MaxPool2D", "AvgPool2D"])
        shape = ((H - kH) // sH + 1, (W - kW) // sW + 1, C)
        return self.add("pool", ltype, params, [src], shape)

    def random_axis(self, rank):
        """Any per-sample axis, counted from the front or (negative) from the back."""
        return int(self.rng.integers(-rank, rank))

    def unary(self, src, kind):
        """A layer without weights that keeps the shape."""
        shape = self.shape[src]
        if kind == "relu":
            return self.add("relu", "ReLU", {}, [src], shape)
        if kind == "sigmoid":
            return self.add("sig", "Sigmoid", {}, [src], shape)
        if kind == "dropout":
            params = {"rate": self.pick([0.25, 0.5, 0.1])} if self.coin(0.6) else {}
            return self.add("drop", "Dropout", params, [src], shape)
        if kind == "softmax":
            params = {} if self.coin(0.3) else {"axis": self.random_axis(len(shape))}
            return self.add("sm", "Softmax", params, [src], shape)
        raise ValueError(kind)

    def same_shape_op(self, src, allow_weights=True):
        """A random layer whose output shape equals its input's."""
        rank = len(self.shape[src])
        kinds = ["relu", "sigmoid", "softmax", "dropout"]
        if allow_weights:
            kinds += ["bn", "bn", "weighted", "weighted", "weighted"]
        kind = self.pick(kinds)
        if kind == "bn":
            return self.batchnorm(src)
        if kind == "weighted":
            if rank == 3:
                return self.random_conv(src, filters=self.shape[src][2], stride1=True)
            if rank == 1 and self.shape[src][0] <= 256:   # a long vector would need a huge square weight
                return self.dense(src, self.shape[src][0], activation=self.pick(["none", "relu"]))
            return self.batchnorm(src)
        return self.unary(src, kind)

    def branch_add(self, src, budget):
        b1 = self.same_shape_op(src)
        inputs = [src, b1]
        if budget >= 3 and self.coin(0.35):
            inputs.append(self.same_shape_op(self.pick([src, b1])))
        order = list(self.rng.permutation(len(inputs)))
        return self.add("add", "Add", {}, [inputs[i] for i in order], self.shape[src])

    def branch_concat(self, src):
        shape = self.shape[src]
        rank = len(shape)
        axis = self.random_axis(rank)
        a = axis % rank
        if a == rank - 1 and rank == 3 and self.coin(0.6):
            other = self.random_conv(src, filters=int(self.rng.integers(1, 9)), stride1=True)
        elif a == 0 and rank == 1 and self.coin(0.6):
            other = self.dense(src, int(self.rng.integers(1, 17)))
        else:
            other = self.same_shape_op(src)
        inputs = [src, other] if self.coin(0.5) else [other, src]
        out = list(shape)
        out[a] = shape[a] + self.shape[other][a]
        if np.prod(out) > MAX_ELEMENTS:
            return other
        params = {} if axis == -1 and self.coin(0.5) else {"axis": axis}
        return self.add("cat", "Concat", params, inputs, out)

    def step(self, src, budget):
        """Add one to three layers after src; return the new main tensor."""
        shape = self.shape[src]
        rank = len(shape)
        choices = ["relu", "sigmoid", "softmax", "dropout", "bn"]
        weights = [1, 1, 1, 0.5, 1.5]
        if budget >= 2:
            choices += ["add", "concat"]
            weights += [1.5, 1.2]
        if rank == 3:
            choices += ["conv", "pool", "flatten"]
            weights += [4, 2.5, 1 if budget > 1 else 2]
        elif rank == 1 and shape[0] <= MAX_DENSE_IN:
            choices.append("dense")
            weights.append(4)
        else:
            choices.append("flatten")
            weights.append(1.5)
        p = np.array(weights) / sum(weights)
        kind = self.pick(choices, p=p)
        if kind == "conv":
            return self.random_conv(src)
        if kind == "pool":
            return self.random_pool(src)
        if kind == "flatten":
            return self.add("flat", "Flatten", {}, [src], (int(np.prod(shape)),))
        if kind == "dense":
            return self.dense(src, int(self.rng.integers(1, 49)))
        if kind == "bn":
            return self.batchnorm(src)
        if kind == "add":
            return self.branch_add(src, budget)
        if kind == "concat":
            return self.branch_concat(src)
        return self.unary(src, kind)


def random_input(b):
    """The Input layer: [H, W, C] (some with many channels, for long dot products), [N] (some
    long) or [T, F]."""
    kind = b.pick(["hwc", "hwc_wide", "vector", "vector_long", "matrix"], p=[0.5, 0.1, 0.22, 0.08, 0.1])
    if kind == "hwc":
        shape = (int(b.rng.integers(3, 13)), int(b.rng.integers(3, 13)), int(b.rng.integers(1, 17)))
    elif kind == "hwc_wide":
        shape = (int(b.rng.integers(3, 7)), int(b.rng.integers(3, 7)), int(b.rng.integers(32, 65)))
    elif kind == "vector":
        shape = (int(b.rng.integers(2, 257)),)
    elif kind == "vector_long":
        shape = (int(b.rng.integers(500, MAX_DENSE_IN + 1)),)
    else:
        shape = (int(b.rng.integers(2, 9)), int(b.rng.integers(2, 17)))
    return b.add("input", "Input", {"shape": list(shape)}, [], shape)


def random_case(rng, name="generated"):
    b = ModelBuilder(rng)
    src = random_input(b)
    in_shape = b.shape[src]
    n_layers = int(rng.integers(1, 7))
    # Most models start with a dot product (always a long vector input: that is its point).
    if len(in_shape) == 1 and (in_shape[0] >= 500 or b.coin(0.75)):
        src = b.dense(src, int(rng.integers(1, 49)))
    elif len(in_shape) == 3 and b.coin(0.75):
        src = b.random_conv(src)
    while len(b.layers) - 1 < n_layers:
        budget = n_layers - (len(b.layers) - 1)
        src = b.step(src, budget)
    # A second output now and then: a side layer off an earlier tensor that feeds nothing.
    if 2 < len(b.layers) <= 6 and rng.random() < 0.2:
        side_src = b.layers[int(rng.integers(0, len(b.layers) - 1))][0]
        b.same_shape_op(side_src)

    batch = int(b.pick([1, 1, 1, 2, 3]))
    config = {}
    if b.coin(0.5):
        config["precision"] = "float32"
    config["weights"] = "./weights"
    if batch != 1 or b.coin(0.2):
        config["batch"] = batch
    preprocess = b.pick(["none", "normalize_0_1", "standardize"], p=[0.6, 0.2, 0.2])
    if preprocess == "standardize" and in_shape[-1] > 64:
        preprocess = "none"
    x_shape = (batch,) + in_shape
    if preprocess == "normalize_0_1":
        config["preprocess"] = preprocess
        x = rng.integers(0, 256, x_shape) if b.coin(0.6) else rng.uniform(0, 255, x_shape)
    elif preprocess == "standardize":
        C = in_shape[-1]
        config["preprocess"] = preprocess
        config["preprocess_mean"] = [round(float(v), 3) for v in rng.uniform(0.3, 0.7, C)]
        config["preprocess_std"] = [round(float(v), 3) for v in rng.uniform(0.15, 0.35, C)]
        x = rng.uniform(0, 1, x_shape)
    else:
        if b.coin(0.3):
            config["preprocess"] = "none"
        x = rng.normal(0, 1, x_shape)

    explicit = any(len(ins) != 1 or ins[0] != b.layers[i][0]
                   for i, (_, _, _, ins) in enumerate(b.layers[1:])) or b.coin(0.25)
    return Case(render(name, b.layers, config, explicit), b.weights, np.asarray(x, dtype=np.float32))


def render(name, layers, config, explicit):
    lines = ["version 0.2;", "model %s {" % name, "  config {"]
    lines += ["    %s: %s;" % (k, _nnl_value(v)) for k, v in config.items()]
    lines.append("  }")
    for lid, ltype, params, _ in layers:
        lines.append("  layer %s = %s(%s);" % (lid, ltype, ", ".join("%s: %s" % (k, _nnl_value(v))
                                                                      for k, v in params.items())))
    if explicit:
        lines.append("  connections {")
        for lid, _, _, ins in layers:
            if ins:
                src = ins[0] if len(ins) == 1 else "[%s]" % ", ".join(ins)
                lines.append("    %s -> %s;" % (src, lid))
        lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------------------------

def max_dot_terms(m, weights, x):
    """The longest dot product of the model (terms, bias excluded)."""
    vals = ref.evaluate(m, weights, x, keep_all=True)
    longest = 0
    for layer in m.layers:
        if layer.type == "Dense":
            longest = max(longest, vals[layer.inputs[0]].shape[1])
        elif layer.type == "Conv2D":
            kH, kW = ref.pair(layer.params["kernel"], "kernel")
            longest = max(longest, kH * kW * vals[layer.inputs[0]].shape[-1])
    return longest


def write_case(case_dir, case, peer_names):
    """Write the case's files, the float64 reference and the peers' outputs; self-check the
    peers. Returns the manifest entry."""
    os.makedirs(os.path.join(case_dir, "weights"), exist_ok=True)
    with open(os.path.join(case_dir, "model.nnl"), "w") as f:
        f.write(case.text)
    for key, a in case.weights.items():
        np.save(os.path.join(case_dir, "weights", key + ".npy"), a)
    np.save(os.path.join(case_dir, "input.npy"), case.x)
    m = ref.load_model(os.path.join(case_dir, "model.nnl"))
    weights = ref.load_weights(m)
    expected = ref.evaluate(m, weights, case.x)
    np.savez(os.path.join(case_dir, "expected.npz"), **expected)
    if peer_names:
        os.makedirs(os.path.join(case_dir, "peers"), exist_ok=True)
    for name in peer_names:
        outs = peers.evaluate(name, m, weights, case.x)
        peers.write_outputs(outs, os.path.join(case_dir, "peers"), name)
        if peers.PEERS[name][0] != "f32":
            continue   # float16/bfloat16 can be far off on an ill-conditioned model (a peaked softmax)
        for k, r in expected.items():
            err = peers.relative_error(outs[k], r)
            if not err <= peers.SELF_TEST_TOLERANCE["f32"]:
                raise RuntimeError("%s: peer %s output %s is %.3g from float64 (relative)"
                                   % (case_dir, name, k, err))
    return {"name": os.path.basename(case_dir),
            "layers": [l.type for l in m.layers],
            "outputs": {k: list(v.shape) for k, v in expected.items()},
            "batch": int(case.x.shape[0]),
            "preprocess": m.config.get("preprocess", "none"),
            "explicit_connections": m.has_connections,
            "max_dot_terms": max_dot_terms(m, weights, case.x),
            "peers": {name: peers.PEERS[name][0] for name in peer_names}}


def write_cases(out_dir, count, seed, peer_names=tuple(peers.PEERS)):
    """Write count cases under out_dir and its manifest.json; return the case directories."""
    os.makedirs(out_dir, exist_ok=True)
    entries, dirs = [], []
    for i in range(count):
        case_dir = os.path.join(out_dir, "case_%03d" % i)
        case = random_case(np.random.default_rng([seed, i]), os.path.basename(case_dir))
        entries.append(write_case(case_dir, case, peer_names))
        dirs.append(case_dir)
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump({"seed": seed, "count": count, "cases": entries}, f, indent=1)
    return dirs


def summarize(out_dir):
    with open(os.path.join(out_dir, "manifest.json")) as f:
        cases = json.load(f)["cases"]
    types = {}
    for c in cases:
        for t in set(c["layers"]):
            types[t] = types.get(t, 0) + 1
    terms = sorted(c["max_dot_terms"] for c in cases)
    return {"cases": len(cases), "cases_per_layer_type": dict(sorted(types.items())),
            "multi_output": sum(len(c["outputs"]) > 1 for c in cases),
            "batch_gt_1": sum(c["batch"] > 1 for c in cases),
            "preprocess": {p: sum(c["preprocess"] == p for c in cases)
                           for p in ("none", "normalize_0_1", "standardize")},
            "depth": {d: sum(len(c["layers"]) - 1 == d for c in cases) for d in range(1, 7)},
            "max_dot_terms": {"median": terms[len(terms) // 2], "max": terms[-1],
                              ">=1000": sum(t >= 1000 for t in terms), ">=300": sum(t >= 300 for t in terms)}}


# --------------------------------------------------------------------------------------------
# Self test
# --------------------------------------------------------------------------------------------

def self_test():
    check = peers.Checks()

    with tempfile.TemporaryDirectory() as tmp:
        a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
        write_cases(a, 60, seed=3, peer_names=("numpy_f32_reversed",))
        write_cases(b, 3, seed=3, peer_names=())
        same = all(open(os.path.join(a, "case_%03d" % i, f), "rb").read() ==
                   open(os.path.join(b, "case_%03d" % i, f), "rb").read()
                   for i in range(3) for f in ("model.nnl", "input.npy", "expected.npz"))
        check.check("deterministic: same seed, same files", same)
        s = summarize(a)
        print(json.dumps(s))
        all_types = set(ref.LAYER_PARAMS)
        check.check("every layer type occurs in 60 cases", set(s["cases_per_layer_type"]) == all_types,
              repr(sorted(all_types - set(s["cases_per_layer_type"]))))
        check.check("some cases have batch > 1, two outputs, each preprocessing",
              s["batch_gt_1"] > 0 and s["multi_output"] > 0 and min(s["preprocess"].values()) > 0)
        check.check("depth 1 to 6 layers after the Input, each depth occurs",
              all(s["depth"][d] > 0 for d in range(1, 7)) and sum(s["depth"].values()) == s["cases"],
              repr(s["depth"]))
        check.check("some dot products of 300+ terms", s["max_dot_terms"][">=300"] > 0)
        other = os.path.join(tmp, "c")
        write_cases(other, 3, seed=4, peer_names=())
        differs = (open(os.path.join(a, "case_000", "model.nnl")).read()
                   != open(os.path.join(other, "case_000", "model.nnl")).read())
        check.check("another seed, other models", differs)
        check.check("CLI: an unknown peer is a usage error (2)",
                    main([os.path.join(tmp, "d"), "--count", "1", "--peers", "numpy_f64"]) == 2)
    return check.passed()


def main(argv=None):
    ap = argparse.ArgumentParser(description="random NNL models, their float64 references and low-precision peers")
    ap.add_argument("out_dir", nargs="?")
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--peers", default="all", help="all, none, or comma-separated peer names")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args(argv)
    if args.self_test:
        return 0 if self_test() else 1
    if not args.out_dir:
        sys.stderr.write("make_conform_cases: error: OUT_DIR is required\n")
        return 2
    named = {"all": list(peers.PEERS), "none": []}
    names = named[args.peers] if args.peers in named else args.peers.split(",")
    unknown = [n for n in names if n not in peers.PEERS]
    if unknown:
        sys.stderr.write("make_conform_cases: error: unknown peer %s\n" % ", ".join(unknown))
        return 2
    start = time.time()
    try:
        write_cases(args.out_dir, args.count, args.seed, names)
    except RuntimeError as e:
        sys.stderr.write("make_conform_cases: self-check failed: %s\n" % e)
        return 1
    summary = summarize(args.out_dir)
    summary["seconds"] = round(time.time() - start, 1)
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
