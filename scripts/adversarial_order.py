#!/usr/bin/python3
"""Correct float32 answers of two examples that err as much as a choice of summation order can make
them: witnesses that any sound envelope must be wide, far wider than PyTorch's own error.

A correct float32 implementation may sum each dot product in any order (the envelope of
`nnref conform` covers all of them). This script builds such implementations, for the output
element with the largest envelope radius (`nnref run --precision envelope`): every product is
rounded to float32, every addition is one float32 rounding, and each long dot product's order is
chosen to push its result one way:
  - the terms whose sign is the direction first, then the others, so partial sums stay large;
  - within each group, at every step, of the terms whose addition rounds at least half as far that
    way as the best one's, the largest while the sum grows and the smallest while it shrinks: each
    rounding goes far that way, and the partial sums, whose ulps bound the roundings, stay large
    for longer (the plain greedy choice, furthest rounding alone, errs 10 to 15 % less).
The directions of a first layer's values follow the sign of their path to the element, so that
their errors add up there.
  resnet_block      Conv2D -> BatchNorm -> ReLU -> Conv2D -> BatchNorm -> Add(input) -> ReLU: the
                    576 first-convolution values the element reads, then its second convolution;
                    BatchNorm as written, gamma * (x - mean) / sqrt(var + eps) + beta, in float32.
                    The other elements are PyTorch float32's (1 thread).
  mnist_classifier  x / 255 -> Conv2D -> MaxPool2D -> Flatten -> Dense(relu) -> Dense(softmax): the
                    convolution in float64 rounded once to float32 (a correct float32 answer), the
                    128 fc1 sums of 5,408 terms each and the 10 logits ordered, softmax as
                    exp(z - max) / sum in float32. Every element comes from this implementation.
Each answer is judged by `nnref conform`: it must conform, since every step above is a correct
float32 operation. The script prints, per model and direction, the element's error against the
exact answer (`nnref run --precision interval`), that error over PyTorch float32's largest error on
the output (a lower bound of any sound oracle's tightness ratio on this model) and the envelope's
radius over that error (how much wider nnref's envelope is than what an order reaches).

Usage:
    adversarial_order.py --nnref PATH [--models resnet_block,mnist_classifier] [--keep DIR]
Exit 0 when every answer conforms, 1 when one does not (a soundness failure of nnref), 2 for a
usage, I/O or model error.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import float32_peers as peers  # noqa: E402
import nnl_reference as ref  # noqa: E402

F32, F64 = np.float32, np.float64
EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples")


def adversarial_sum(terms, init, direction):
    """init + sum(terms) in float32, one rounding per addition, in the order described above."""
    terms = np.asarray(terms, dtype=F32)
    s = F32(init)
    for rest, growing in ((terms[np.sign(terms) == direction], True), (terms[np.sign(terms) != direction], False)):
        while rest.size:
            exact = F64(s) + rest.astype(F64)  # s + t exactly: both are float32
            gain = (exact.astype(F32).astype(F64) - exact) * direction
            near = np.flatnonzero(gain >= 0.5 * gain.max()) if gain.max() > 0 else np.arange(rest.size)
            size = np.abs(rest[near])
            k = int(near[np.argmax(size) if growing else np.argmin(size)])
            s = F32(exact[k])
            rest = np.delete(rest, k)
    return s


def sign(v):
    """+1 or -1 (+1 for 0: any direction will do there)."""
    return -1.0 if v < 0 else 1.0


class Example:
    """An example model, its float32 weights, and the layer types it must have."""
    structure = []

    def __init__(self, name):
        self.dir = os.path.join(EXAMPLES, name)
        self.m = ref.load_model(os.path.join(self.dir, "model.nnl"))
        types = [self.m.by_id[i].type for i in self.m.order]
        if types != self.structure:
            raise ref.NNLError("%s: expected layers %s, found %s" % (name, self.structure, types))
        self.weights = ref.load_weights(self.m)
        self.layers = [self.m.by_id[i] for i in self.m.order]

    def w(self, layer, param):
        return np.asarray(ref.layer_weight(self.weights, layer.id, param), dtype=F32)


class ResnetBlock(Example):
    structure = ["Input", "Conv2D", "BatchNorm", "ReLU", "Conv2D", "BatchNorm", "Add", "ReLU"]

    def __init__(self):
        super().__init__("resnet_block")
        _, conv1, bn1, _, conv2, bn2 = self.layers[:6]
        for conv in (conv1, conv2):
            if ref.pair(conv.params["kernel"], "kernel") != (3, 3) or conv.params["padding"] != "same" or \
                    ref.pair(conv.params["stride"], "stride") != (1, 1):
                raise ref.NNLError("%s: expected a 3x3 'same' convolution of stride 1" % conv.id)
        self.w1, self.b1, self.w2, self.b2 = self.w(conv1, "weight"), self.w(conv1, "bias"), self.w(conv2, "weight"), \
            self.w(conv2, "bias")
        self.bn = [{p: self.w(bn, p) for p in ("gamma", "beta", "running_mean", "running_var")} | {"eps": bn.params["epsilon"]}
                   for bn in (bn1, bn2)]

    def batchnorm(self, k, v, c):
        p = self.bn[k]
        scaled = F32(p["gamma"][c] * F32(v - p["running_mean"][c]))
        return F32(F32(scaled / F32(np.sqrt(F32(p["running_var"][c] + F32(p["eps"]))))) + p["beta"][c])

    def answer(self, x, torch_out, index, direction):
        """PyTorch's output with element index = (b, i, j, o) computed pushing it `direction`."""
        b, i, j, o = index
        sample = x[b]
        H, W, C = sample.shape
        padded = np.zeros((H + 2, W + 2, C), F32)
        padded[1:-1, 1:-1] = sample
        relu1 = np.zeros((C, 3, 3), F32)
        out_way = direction * sign(self.bn[1]["gamma"][o])
        for dy in range(3):
            for dx in range(3):
                if not (0 <= i + dy - 1 < H and 0 <= j + dx - 1 < W):
                    continue  # the padding's zeros
                # the window of first-convolution value (i + dy - 1, j + dx - 1), in padded coordinates
                window = padded[i + dy - 1:i + dy + 2, j + dx - 1:j + dx + 2, :].transpose(2, 0, 1)
                for c in range(C):
                    way = out_way * sign(self.w2[o, c, dy, dx]) * sign(self.bn[0]["gamma"][c])
                    v = adversarial_sum((window * self.w1[c]).astype(F32).ravel(), self.b1[c], way)
                    relu1[c, dy, dx] = max(self.batchnorm(0, v, c), F32(0))
        v2 = adversarial_sum((relu1 * self.w2[o]).astype(F32).ravel(), self.b2[o], out_way)
        y = torch_out.copy()
        y[index] = max(F32(self.batchnorm(1, v2, o) + sample[i, j, o]), F32(0))
        return y


class MnistClassifier(Example):
    structure = ["Input", "Conv2D", "MaxPool2D", "Flatten", "Dense", "Dense"]

    def __init__(self):
        super().__init__("mnist_classifier")
        _, self.conv, self.pool, _, fc1, fc2 = self.layers
        if self.m.config.get("preprocess") != "normalize_0_1" or fc1.params["activation"] != "relu" or \
                fc2.params["activation"] != "softmax":
            raise ref.NNLError("mnist_classifier: expected x / 255, a relu fc1 and a softmax output")
        self.w1, self.b1, self.w2, self.b2 = self.w(fc1, "weight"), self.w(fc1, "bias"), self.w(fc2, "weight"), \
            self.w(fc2, "bias")

    def answer(self, x, torch_out, index, direction):
        """The whole output, softmax element index = (b, k) pushed `direction`."""
        b, k = index
        scaled = (x[b:b + 1].astype(F32) / F32(255)).astype(F32)
        conv = ref.conv2d(scaled.astype(F64), self.w(self.conv, "weight").astype(F64),
                          self.w(self.conv, "bias").astype(F64), ref.pair(self.conv.params["stride"], "stride"),
                          self.conv.params["padding"]).astype(F32)
        kernel = ref.pair(self.pool.params["kernel"], "kernel")
        stride = kernel if self.pool.params["stride"] is None else ref.pair(self.pool.params["stride"], "stride")
        flat = ref.maxpool2d(conv, kernel, stride).reshape(-1).astype(F32)
        # The directions: d p_k / d h = p_k (W2[h, k] - sum_j p_j W2[h, j]) at the exact forward pass.
        h64 = np.maximum(flat.astype(F64) @ self.w1.astype(F64) + self.b1, 0)
        p64 = ref.softmax((h64 @ self.w2.astype(F64) + self.b2)[None, :], 1)[0]
        toward = direction * (self.w2[:, k].astype(F64) - self.w2.astype(F64) @ p64)
        h = np.array([max(adversarial_sum((flat * self.w1[:, u]).astype(F32), self.b1[u], sign(toward[u])), F32(0))
                      for u in range(self.w1.shape[1])], dtype=F32)
        z = np.array([adversarial_sum((h * self.w2[:, j]).astype(F32), self.b2[j], direction * (1 if j == k else -1))
                      for j in range(self.w2.shape[1])], dtype=F32)
        e = np.exp((z - z.max()).astype(F32)).astype(F32)
        total = F32(0)
        for v in e:
            total = F32(total + v)
        y = torch_out.copy()
        y[b] = (e / total).astype(F32)
        return y


WITNESSES = {"resnet_block": ResnetBlock, "mnist_classifier": MnistClassifier}


def nnref_run(nnref, model, x_path, precision, out, radius=None):
    cmd = [nnref, "run", model, "--input", x_path, "--precision", precision, "--output", out, "--quiet"]
    subprocess.run(cmd + (["--radius-output", radius] if radius else []), check=True)
    return only(out), (only(radius) if radius else None)


def only(path):
    with np.load(path) as z:
        return z[z.files[0]].astype(F64)


def witness(nnref, example, work):
    """Prints the example's figures; True when both answers conform."""
    model, x_path = os.path.join(example.dir, "model.nnl"), os.path.join(example.dir, "input.npy")
    x = np.load(x_path).astype(F32)
    exact, _ = nnref_run(nnref, model, x_path, "interval", os.path.join(work, "exact.npz"))
    _, radius = nnref_run(nnref, model, x_path, "envelope", os.path.join(work, "envelope.npz"),
                          os.path.join(work, "radius.npz"))
    name, torch_out = next(iter(peers.PEERS["torch_f32_1thread"][1](example.m, example.weights, x).items()))
    torch_error = np.abs(torch_out.astype(F64) - exact).max()
    index = tuple(int(v) for v in np.unravel_index(int(np.argmax(radius)), radius.shape))
    print("%s, element %s of %s: exact %.9g, envelope radius %.3g; PyTorch float32's largest error %.3g"
          % (os.path.basename(example.dir), list(index), name, exact[index], radius[index], torch_error))
    ok = True
    for direction in (1, -1):
        y = example.answer(x, torch_out, index, direction)
        error = float(y[index]) - exact[index]
        path = os.path.join(work, "answer.npy")
        np.save(path, y)
        verdict = subprocess.run([nnref, "conform", model, "--input", x_path, "--actual", path, "--format", "json"],
                                 capture_output=True, text=True)
        report = json.loads(verdict.stdout) if verdict.stdout else {}
        print("  pushed %s: float32 %.9g, error %.3g = %.0f x PyTorch's largest; radius / error %.1f; conform: %s"
              % ("up  " if direction > 0 else "down", y[index], error, abs(error) / torch_error,
                 radius[index] / abs(error), report.get("verdict", "exit %d" % verdict.returncode)))
        ok &= verdict.returncode == 0
    return ok


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nnref", required=True)
    ap.add_argument("--models", default=",".join(WITNESSES))
    ap.add_argument("--keep", help="write the files here and keep them (default: a temporary folder)")
    a = ap.parse_args(argv)
    try:
        examples = [WITNESSES[n]() for n in a.models.split(",")]
    except KeyError as e:
        print("adversarial_order: error: unknown model %s (known: %s)" % (e, ", ".join(WITNESSES)), file=sys.stderr)
        return 2
    except (ref.NNLError, OSError) as e:
        print("adversarial_order: error: %s" % e, file=sys.stderr)
        return 2
    ok = True
    with tempfile.TemporaryDirectory(prefix="adversarial_order_") as tmp:
        for example in examples:
            work = os.path.join(a.keep or tmp, os.path.basename(example.dir))
            os.makedirs(work, exist_ok=True)
            ok &= witness(a.nnref, example, work)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
