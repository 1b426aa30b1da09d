#!/usr/bin/python3
"""Write the golden test cases under tests/data/golden/<case>/.

Each case directory gets:
    model.nnl      the NNL v0.2 model
    weights/       one <id>.<param>.npy per parameter (or weights.npz)
    input.npy      [B, *input_shape]
    expected.npz   float64 outputs computed by scripts/nnl_reference.py,
                   one member per output layer id

All random data comes from numpy.random.default_rng with a fixed seed per
case, so re-running this script reproduces byte-identical arrays.

Usage:  /usr/bin/python3 scripts/make_golden_cases.py [--out DIR] [case ...]
"""

import argparse
import os
import shutil
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nnl_reference as ref  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(REPO, "tests", "data", "golden")


def conv_w(rng, f, c, kh, kw, dtype=np.float64):
    return {"weight": rng.normal(0, 0.5, (f, c, kh, kw)).astype(dtype),
            "bias": rng.normal(0, 0.5, (f,)).astype(dtype)}


def dense_w(rng, i, u, dtype=np.float64):
    return {"weight": rng.normal(0, 0.5, (i, u)).astype(dtype),
            "bias": rng.normal(0, 0.5, (u,)).astype(dtype)}


def bn_w(rng, c, dtype=np.float64):
    return {"gamma": rng.normal(1.0, 0.5, (c,)).astype(dtype),
            "beta": rng.normal(0, 0.5, (c,)).astype(dtype),
            "running_mean": rng.normal(0, 0.5, (c,)).astype(dtype),
            "running_var": rng.uniform(0.2, 2.0, (c,)).astype(dtype)}


# --------------------------------------------------------------------------
# Cases: each returns (model_text, {layer_id: {param: array}}, input,
#        weights_kind 'dir'|'npz', {output_id: expected per-sample shape})
# --------------------------------------------------------------------------

def case_conv_same_odd(rng):
    model = """version 0.2;
// Conv2D "same" on a non-square 7x6 input.
// conv1: kernel [3,2], stride 2 -> out 4x3; H total pad (4-1)*2+3-7 = 2 (1 before, 1 after),
//        W total pad (3-1)*2+2-6 = 0.
// conv2: kernel 3, stride 2 on 4x3 -> 2x2; H total 1 (0 before, 1 after: odd, asymmetric),
//        W total 2 (1/1).
// conv_s1: kernel [3,2], stride 1 on 7x6 -> 7x6; H total 2 (1/1), W total 1 (0 before, 1 after).
model conv_same_odd {
    config {
        weights: "./weights";
        batch: 2;
    }
    layer input = Input(shape: [7, 6, 2]);
    layer conv1 = Conv2D(filters: 3, kernel: [3, 2], stride: 2, padding: "same");
    layer relu1 = ReLU();
    layer conv2 = Conv2D(filters: 4, kernel: 3, stride: 2, padding: "same");
    layer flat = Flatten();
    layer fc = Dense(units: 3);
    layer conv_s1 = Conv2D(filters: 2, kernel: [3, 2], padding: "same");
    connections {
        input -> conv1;
        conv1 -> relu1;
        relu1 -> conv2;
        conv2 -> flat;
        flat -> fc;
        input -> conv_s1;   /* fan-out of the input */
    }
}
"""
    w = {"conv1": conv_w(rng, 3, 2, 3, 2), "conv2": conv_w(rng, 4, 3, 3, 3),
         "fc": dense_w(rng, 16, 3), "conv_s1": conv_w(rng, 2, 2, 3, 2)}
    x = rng.normal(0, 1, (2, 7, 6, 2))
    return model, w, x, "dir", {"fc": (3,), "conv_s1": (7, 6, 2)}


def case_conv_valid_stride3(rng):
    model = """version 0.2;
/* Conv2D "valid" with stride 3 and a non-square kernel, batch 2.
   conv1: 11x10 input, kernel [2,3], stride 3 -> [floor(9/3)+1, floor(7/3)+1] = [4, 3]
   conv2: kernel 2, stride [2, 1] -> [2, 2] */
model conv_valid_stride3 {
    config {
        precision: "float32";
        weights: "./weights";
        batch: 2;
    }
    layer input = Input(shape: [11, 10, 3]);
    layer conv1 = Conv2D(filters: 4, kernel: [2, 3], stride: 3, padding: "valid");
    layer conv2 = Conv2D(filters: 2, kernel: 2, stride: [2, 1]);
    layer flat = Flatten();
    layer fc = Dense(units: 3, activation: "relu");
}
"""
    w = {"conv1": conv_w(rng, 4, 3, 2, 3), "conv2": conv_w(rng, 2, 4, 2, 2),
         "fc": dense_w(rng, 8, 3)}
    x = rng.normal(0, 1, (2, 11, 10, 3))
    return model, w, x, "dir", {"fc": (3,)}


def case_pools(rng):
    model = """version 0.2;
// Pools on a 9x8 input (sizes not divisible by kernel/stride).
model pools {
    config { weights: "./weights"; batch: 2; }
    layer input = Input(shape: [9, 8, 3]);
    layer mp1 = MaxPool2D(kernel: [2, 3], stride: 1);   // -> [8, 6, 3]
    layer ap1 = AvgPool2D(kernel: 3, stride: 2);        // -> [3, 2, 3]
    layer mp2 = MaxPool2D(kernel: 2);                   // stride defaults to 2 -> [4, 4, 3]
    layer ap2 = AvgPool2D(kernel: [3, 2], stride: 2);   // -> [4, 4, 3]
    layer ap3 = AvgPool2D(kernel: 3, stride: 2);        // directly on input -> [4, 3, 3]
    connections {
        input -> mp1;
        mp1 -> ap1;
        input -> mp2;
        input -> ap2;
        input -> ap3;
    }
}
"""
    x = rng.normal(0, 1, (2, 9, 8, 3))
    return model, {}, x, "dir", {"ap1": (3, 2, 3), "mp2": (4, 4, 3), "ap2": (4, 4, 3), "ap3": (4, 3, 3)}


def case_fanout_concat(rng):
    model = """version 0.2;
// c1 fans out to three branches; Concat with default and explicit axes; Add of three inputs.
model fanout_concat {
    config { weights: "./weights"; }
    layer input = Input(shape: [5, 4, 3]);
    layer c1 = Conv2D(filters: 4, kernel: 3, padding: "same");   // [5, 4, 4]
    layer b1 = ReLU();
    layer b2 = Conv2D(filters: 4, kernel: 1);                    // [5, 4, 4]
    layer b3 = Sigmoid();
    layer cat_default = Concat();            // [b1, input] -> [5, 4, 7]
    layer cat_axis1 = Concat(axis: 1);       // [b2, c1, b1] -> [5, 12, 4]
    layer cat_axis0 = Concat(axis: 0);       // [b1, b3] -> [10, 4, 4]
    layer add3 = Add();                      // [b1, b2, b3] -> [5, 4, 4]
    connections {
        input -> c1;
        c1 -> b1;
        c1 -> b2;
        c1 -> b3;
        [b1, input] -> cat_default;
        [b2, c1, b1] -> cat_axis1;
        [b1, b3] -> cat_axis0;
        [b1, b2, b3] -> add3;
    }
}
"""
    w = {"c1": conv_w(rng, 4, 3, 3, 3), "b2": conv_w(rng, 4, 4, 1, 1)}
    x = rng.normal(0, 1, (1, 5, 4, 3))
    return model, w, x, "dir", {"cat_default": (5, 4, 7), "cat_axis1": (5, 12, 4),
                                "cat_axis0": (10, 4, 4), "add3": (5, 4, 4)}


def case_dense_mlp(rng):
    model = """version 0.2;
// MLP: relu, sigmoid, none (default), softmax; implicit sequential connections; batch 3.
model dense_mlp {
    config {
        weights: "./weights";
        batch: 3;
    }
    layer input = Input(shape: [6]);
    layer fc1 = Dense(units: 10, activation: "relu");
    layer fc2 = Dense(units: 8, activation: "sigmoid");
    layer fc3 = Dense(units: 5);
    layer out = Dense(units: 4, activation: "softmax");
}
"""
    w = {"fc1": dense_w(rng, 6, 10), "fc2": dense_w(rng, 10, 8), "fc3": dense_w(rng, 8, 5),
         "out": dense_w(rng, 5, 4)}
    x = rng.normal(0, 1.5, (3, 6))
    return model, w, x, "dir", {"out": (4,)}


def case_batchnorm_residual(rng):
    model = """version 0.2;
// ResNet-style block: conv-bn-relu-conv-bn + identity skip, then relu.
model batchnorm_residual {
    config {
        precision: "float32";
        weights: "./weights";
        target: "generic";
        batch: 2;
    }
    layer input = Input(shape: [8, 8, 4]);
    layer conv1 = Conv2D(filters: 4, kernel: 3, stride: 1, padding: "same");
    layer bn1 = BatchNorm();
    layer relu1 = ReLU();
    layer conv2 = Conv2D(filters: 4, kernel: 3, stride: 1, padding: "same");
    layer bn2 = BatchNorm(epsilon: 1e-3);
    layer res = Add();
    layer relu2 = ReLU();
    connections {
        input -> conv1;
        conv1 -> bn1;
        bn1 -> relu1;
        relu1 -> conv2;
        conv2 -> bn2;
        [input, bn2] -> res;   // skip connection
        res -> relu2;
    }
}
"""
    w = {"conv1": conv_w(rng, 4, 4, 3, 3), "bn1": bn_w(rng, 4),
         "conv2": conv_w(rng, 4, 4, 3, 3), "bn2": bn_w(rng, 4)}
    x = rng.normal(0, 1, (2, 8, 8, 4))
    return model, w, x, "dir", {"relu2": (8, 8, 4)}


def case_preprocess_normalize(rng):
    model = """version 0.2;
// normalize_0_1 on a uint8 input.
model preprocess_normalize {
    config {
        weights: "./weights";
        batch: 2;
        preprocess: "normalize_0_1";
        io: "stdio";
    }
    layer input = Input(shape: [6, 5, 2]);
    layer conv1 = Conv2D(filters: 3, kernel: 2);   // [5, 4, 3]
    layer pool1 = MaxPool2D(kernel: 2);            // [2, 2, 3]
    layer flatten = Flatten();                     // [12]
    layer output = Dense(units: 4, activation: "softmax");
    layer raw = Dropout();                         // exposes the preprocessed input
    connections {
        input -> conv1;
        conv1 -> pool1;
        pool1 -> flatten;
        flatten -> output;
        input -> raw;
    }
}
"""
    w = {"conv1": conv_w(rng, 3, 2, 2, 2), "output": dense_w(rng, 12, 4)}
    x = rng.integers(0, 256, (2, 6, 5, 2), dtype=np.uint8)
    x[0, 0, 0, 0] = 0
    x[0, 0, 0, 1] = 255
    return model, w, x, "dir", {"output": (4,), "raw": (6, 5, 2)}


def case_preprocess_standardize(rng):
    model = """version 0.2;
// standardize with per-channel mean/std (3 channels); float32 input file.
model preprocess_standardize {
    config {
        weights: "./weights";
        preprocess: "standardize";
        preprocess_mean: [0.485, 0.456, 0.406];
        preprocess_std: [0.229, 0.224, 0.225];
    }
    layer input = Input(shape: [4, 4, 3]);
    layer std_in = Dropout(rate: 0.1);   // identity: exposes the standardized input
    layer conv1 = Conv2D(filters: 2, kernel: 3, padding: "same");
    layer relu1 = ReLU();
    connections {
        input -> std_in;
        input -> conv1;
        conv1 -> relu1;
    }
}
"""
    w = {"conv1": conv_w(rng, 2, 3, 3, 3)}
    x = rng.uniform(0, 1, (1, 4, 4, 3)).astype(np.float32)
    return model, w, x, "dir", {"std_in": (4, 4, 3), "relu1": (4, 4, 2)}


def case_softmax_axis(rng):
    model = """version 0.2;
// Softmax over per-sample axes of a [2, 3] tensor; sample 1 is offset by +100
// (exp overflows in float32 unless the max is subtracted).
model softmax_axis {
    config { weights: "./weights"; batch: 2; }
    layer input = Input(shape: [2, 3]);
    layer sm0 = Softmax(axis: 0);
    layer sm_default = Softmax();
    layer sm1 = Softmax(axis: 1);
    layer sm_neg2 = Softmax(axis: -2);
    connections {
        input -> sm0;
        input -> sm_default;
        input -> sm1;
        input -> sm_neg2;
    }
}
"""
    x = rng.normal(0, 2.0, (2, 2, 3))
    x[1] += 100.0
    return model, {}, x, "dir", {"sm0": (2, 3), "sm_default": (2, 3), "sm1": (2, 3), "sm_neg2": (2, 3)}


def case_dropout_sigmoid(rng):
    model = """version 0.2;
// Dropout is the identity at inference; standalone Sigmoid (incl. large |x|).
model dropout_sigmoid {
    config { weights: "./weights"; }
    layer input = Input(shape: [3, 4]);
    layer drop = Dropout(rate: 0.25);
    layer sig = Sigmoid();
    layer drop2 = Dropout();
}
"""
    x = rng.normal(0, 3.0, (1, 3, 4))
    x[0, 0, 0] = 0.0
    x[0, 0, 1] = -40.0
    x[0, 0, 2] = 40.0
    x[0, 0, 3] = -80.0
    return model, {}, x, "dir", {"drop2": (3, 4)}


def case_weights_npz(rng):
    model = """version 0.2;
// Weights from an .npz archive (float32 members named <id>.<param>).
model weights_npz {
    config {
        weights: "./weights.npz";
        batch: 1;
    }
    layer input = Input(shape: [6, 6, 2]);
    layer conv1 = Conv2D(filters: 4, kernel: 3, stride: 1, padding: "valid");  // [4, 4, 4]
    layer bn1 = BatchNorm(epsilon: 1e-3);
    layer relu1 = ReLU();
    layer pool = AvgPool2D(kernel: 2);    // [2, 2, 4]
    layer flat = Flatten();               // [16]
    layer fc = Dense(units: 3, activation: "sigmoid");
}
"""
    f32 = np.float32
    w = {"conv1": conv_w(rng, 4, 2, 3, 3, f32), "bn1": bn_w(rng, 4, f32), "fc": dense_w(rng, 16, 3, f32)}
    x = rng.normal(0, 1, (1, 6, 6, 2))
    return model, w, x, "npz", {"fc": (3,)}


CASES = [
    ("conv_same_odd", case_conv_same_odd),
    ("conv_valid_stride3", case_conv_valid_stride3),
    ("pools", case_pools),
    ("fanout_concat", case_fanout_concat),
    ("dense_mlp", case_dense_mlp),
    ("batchnorm_residual", case_batchnorm_residual),
    ("preprocess_normalize", case_preprocess_normalize),
    ("preprocess_standardize", case_preprocess_standardize),
    ("softmax_axis", case_softmax_axis),
    ("dropout_sigmoid", case_dropout_sigmoid),
    ("weights_npz", case_weights_npz),
]


def write_case(out_root, idx, name, fn):
    rng = np.random.default_rng(20240 + idx)
    model, weights, x, kind, want_shapes = fn(rng)
    d = os.path.join(out_root, name)
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)
    with open(os.path.join(d, "model.nnl"), "w") as f:
        f.write(model)
    flat = {"%s.%s" % (lid, p): a for lid, ps in weights.items() for p, a in ps.items()}
    if kind == "npz":
        np.savez(os.path.join(d, "weights.npz"), **flat)
    else:
        wd = os.path.join(d, "weights")
        os.makedirs(wd)
        if not flat:
            # weightless model: the config still names a weights directory
            open(os.path.join(wd, ".gitkeep"), "w").close()
        for k, a in flat.items():
            np.save(os.path.join(wd, k + ".npy"), a)
    np.save(os.path.join(d, "input.npy"), x)

    # Expected outputs: run the reference on the files exactly as written.
    outs = ref.run(os.path.join(d, "model.nnl"), np.load(os.path.join(d, "input.npy")))
    B = x.shape[0]
    got_shapes = {k: v.shape[1:] for k, v in outs.items()}
    if got_shapes != want_shapes or any(v.shape[0] != B for v in outs.values()):
        raise SystemExit("%s: output shapes %r, expected %r" % (name, got_shapes, want_shapes))
    np.savez(os.path.join(d, "expected.npz"), **{k: np.asarray(v, np.float64) for k, v in outs.items()})
    size = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(d) for f in fs)
    print("%-24s input %s %-8s -> %s  (%d bytes)" % (
        name, list(x.shape), x.dtype, ", ".join("%s%s" % (k, list(v.shape)) for k, v in outs.items()), size))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("cases", nargs="*")
    args = ap.parse_args()
    names = [n for n, _ in CASES]
    for c in args.cases:
        if c not in names:
            raise SystemExit("unknown case %r (have: %s)" % (c, ", ".join(names)))
    for idx, (name, fn) in enumerate(CASES):
        if args.cases and name not in args.cases:
            continue
        write_case(args.out, idx, name, fn)


if __name__ == "__main__":
    main()
