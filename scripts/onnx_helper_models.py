#!/usr/bin/python3
"""Models built with onnx.helper as deployment tools write them, read, proved, run and judged by nnref
(docs/onnx.md, "Models built with onnx.helper"):

- qdq: a QDQ-quantised CNN as quantisation tools write it: x float32 → QuantizeLinear (uint8, zero
  point 128) → DequantizeLinear → Conv (int8 weights through DequantizeLinear with per-channel
  scales on axis 0, an int32 bias through DequantizeLinear at scale s_x·s_w) → Relu →
  QuantizeLinear/DequantizeLinear (int8) → Flatten → MatMul (int8 weights through
  DequantizeLinear) → Add; dynamic batch. ONNX Runtime's answer at optimisation level all is a kept
  finding (KNOWN_ORT_FINDINGS): the script asserts its rejection and the computation explaining it.
- qdq_qlinear: the same with h uint8 of zero point 0 and QuantizeLinear/DequantizeLinear pairs after
  the Flatten and the MatMul, as tools put them on every op's input: ONNX Runtime then fuses the
  Conv into QLinearConv and the MatMul into QLinearMatMul.
- float16: float16 input and weights: MatMul, Add, Relu, MatMul, Add, then Softmax cast to float32
  and Sigmoid left in float16; dynamic batch.
- if_data: a voice-activity-style model: h = x·W + b in the outer graph, then If(ReduceMax(x) >
  0.5): then_branch Tanh(h + c) (c its own initializer), else_branch h · gate (gate an
  initializer of the outer graph); dynamic batch and sequence.
- if_load: the same with the condition Greater(2, 1) of initializers, known when the model is read
  (the branch not taken gives another shape, which is not read).

For each: onnx.checker accepts it; `nnref check --dim batch=1..16` (and --dim seq=1..1024) proves
it; `nnref run --precision f64` matches a NumPy float64 evaluation written here from the ONNX
formulas (within 1e-12 of max|y|; for qdq the quantised activations, given as extra outputs of a
copy of the model, match exactly wherever the real x/scale is not within 1e-9 of a rounding tie);
ONNX Runtime's answer (onnxruntime-node, graph optimisations disabled and all) conforms under
`nnref conform` (the float16 model with --runtime-precision f16: ONNX Runtime computes in float16).

  /usr/bin/python3 scripts/onnx_helper_models.py --nnref build/nnref --ort-cache build/ort-cache
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ort_runtime import NotRun, ort_modules, run_ort  # noqa: E402

OPSET = 17
BATCH = 3  # the batch of the runs (check proves every batch of --dim)
SEQ = 5


def model_of(nodes, name, inputs, outputs, initializers):
    graph = helper.make_graph(nodes, name, inputs, outputs,
                              [numpy_helper.from_array(a, n) for n, a in initializers.items()])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="onnx_helper_models")
    m.ir_version = 8
    onnx.checker.check_model(m, full_check=True)
    return m


# ---- the QDQ model ----

X_SCALE, X_ZP = np.float32(0.0213), np.uint8(128)
H_SCALE = np.float32(0.0478)


def qdq_weights(fused):
    """The weights of qdq (h int8, zero point 0) or of qdq_qlinear (fused: h uint8 with zero point
    0, which makes the Relu removable and lets ONNX Runtime fuse the Conv into QLinearConv; a
    QuantizeLinear/DequantizeLinear pair after the Flatten and one, int8, after the MatMul, which
    let it fuse the MatMul into QLinearMatMul)."""
    r = np.random.RandomState(1)
    w_scale = (r.uniform(0.002, 0.01, 4)).astype(np.float32)
    fused_only = {"mm_scale": np.float32(0.05), "mm_zp": np.int8(0)} if fused else {}
    return {
        **fused_only,
        "x_scale": X_SCALE, "x_zp": X_ZP, "h_scale": H_SCALE, "h_zp": np.uint8(0) if fused else np.int8(0),
        "w_q": r.randint(-127, 128, (4, 3, 3, 3)).astype(np.int8),
        "w_scale": w_scale,
        "w_zp": np.zeros(4, np.int8),
        "b_q": r.randint(-2000, 2000, 4).astype(np.int32),
        "b_scale": (X_SCALE * w_scale).astype(np.float32),  # as the tools write it: s_x · s_w in float32
        "b_zp": np.zeros(4, np.int32),
        "w2_q": r.randint(-127, 128, (4 * 6 * 6, 10)).astype(np.int8),
        "w2_scale": np.float32(0.0031),
        "w2_zp": np.int8(0),
        "b2": r.randn(10).astype(np.float32),
    }


def qdq_model(extra_outputs, fused):
    """The QDQ model; with extra_outputs the quantised activations x_q and h_q are outputs too."""
    n = helper.make_node
    nodes = [
        n("QuantizeLinear", ["x", "x_scale", "x_zp"], ["x_q"]),
        n("DequantizeLinear", ["x_q", "x_scale", "x_zp"], ["x_dq"]),
        n("DequantizeLinear", ["w_q", "w_scale", "w_zp"], ["w"], axis=0),
        n("DequantizeLinear", ["b_q", "b_scale", "b_zp"], ["b"], axis=0),
        n("Conv", ["x_dq", "w", "b"], ["conv"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        n("Relu", ["conv"], ["relu"]),
        n("QuantizeLinear", ["relu", "h_scale", "h_zp"], ["h_q"]),
        n("DequantizeLinear", ["h_q", "h_scale", "h_zp"], ["h_dq"]),
        n("Flatten", ["h_dq"], ["flat_raw" if fused else "flat"], axis=1),
    ] + ([n("QuantizeLinear", ["flat_raw", "h_scale", "h_zp"], ["flat_q"]),
          n("DequantizeLinear", ["flat_q", "h_scale", "h_zp"], ["flat"])] if fused else []) + [
        n("DequantizeLinear", ["w2_q", "w2_scale", "w2_zp"], ["w2"]),
        n("MatMul", ["flat", "w2"], ["mm_raw" if fused else "mm"]),
    ] + ([n("QuantizeLinear", ["mm_raw", "mm_scale", "mm_zp"], ["mm_q"]),
          n("DequantizeLinear", ["mm_q", "mm_scale", "mm_zp"], ["mm"])] if fused else []) + [
        n("Add", ["mm", "b2"], ["y"]),
    ]
    outputs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 10])]
    if extra_outputs:
        outputs += [helper.make_tensor_value_info("x_q", TensorProto.UINT8, ["batch", 3, 6, 6]),
                    helper.make_tensor_value_info("h_q", TensorProto.UINT8 if fused else TensorProto.INT8,
                                                  ["batch", 4, 6, 6])]
    return model_of(nodes, "qdq_qlinear" if fused else "qdq",
                    [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3, 6, 6])], outputs,
                    qdq_weights(fused))


def quantize(x, scale, zp, lo, hi):
    """ONNX QuantizeLinear in float64: saturate(round_half_even(x / scale) + zp); also the distance
    of x / scale from the nearest rounding tie."""
    q = x / scale
    return np.clip(np.rint(q) + zp, lo, hi), np.abs(np.abs(q - np.floor(q)) - 0.5)


def conv2d(x, w, b, pad):
    """Conv of stride 1 in float64: a sum over the kernel's offsets."""
    kh, kw = w.shape[2:]
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = xp.shape[2] - kh + 1, xp.shape[3] - kw + 1
    y = np.zeros((x.shape[0], w.shape[0], oh, ow))
    for i in range(kh):
        for j in range(kw):
            y += np.einsum("nchw,mc->nmhw", xp[:, :, i:i + oh, j:j + ow], w[:, :, i, j])
    return y + b[None, :, None, None]


def qdq_reference(x, fused):
    """{output: float64 array} and the smallest distance of a quantisation from a rounding tie."""
    p = {k: np.asarray(v, np.float64) for k, v in qdq_weights(fused).items()}
    x_q, tie_x = quantize(x.astype(np.float64), p["x_scale"], p["x_zp"], 0, 255)
    x_dq = (x_q - p["x_zp"]) * p["x_scale"]
    w = (p["w_q"] - p["w_zp"][:, None, None, None]) * p["w_scale"][:, None, None, None]
    b = (p["b_q"] - p["b_zp"]) * p["b_scale"]
    h_q, tie_h = quantize(np.maximum(conv2d(x_dq, w, b, 1), 0), p["h_scale"], p["h_zp"], *((0, 255) if fused else
                                                                                          (-128, 127)))
    flat = ((h_q - p["h_zp"]) * p["h_scale"]).reshape(x.shape[0], -1)
    if fused:  # flat's QuantizeLinear/DequantizeLinear pair: values on h's grid already
        flat = (quantize(flat, p["h_scale"], p["h_zp"], 0, 255)[0] - p["h_zp"]) * p["h_scale"]
    mm, tie_mm = flat @ ((p["w2_q"] - p["w2_zp"]) * p["w2_scale"]), np.array(np.inf)
    if fused:
        mm_q, tie_mm = quantize(mm, p["mm_scale"], p["mm_zp"], -128, 127)
        mm = (mm_q - p["mm_zp"]) * p["mm_scale"]
    return {"y": mm + p["b2"], "x_q": x_q, "h_q": h_q}, float(min(tie_x.min(), tie_h.min(), tie_mm.min()))


def qdq_ort_block_int8(x):
    """The qdq model's y as ONNX Runtime 1.30 computes it at optimisation level extended and above
    (tests/data/runtime_findings/ort_qdq_matmulnbits): DequantizeLinear → MatMul rewritten as
    MatMulNBits (bits 8, block_size 32, accuracy_level 4), whose float activation is quantised
    again to int8 per block of 32 along K, at the float32 scale max|a|/127 (round(a · float32(1 /
    scale))), before the integer product."""
    p = {k: np.asarray(v, np.float64) for k, v in qdq_weights(False).items()}
    h_q = qdq_reference(x, False)[0]["h_q"]
    flat = ((h_q - p["h_zp"]) * p["h_scale"]).reshape(x.shape[0], -1)
    y = np.zeros((x.shape[0], p["w2_q"].shape[1]))
    for j in range(0, flat.shape[1], 32):
        a = flat[:, j:j + 32]
        scale = (np.abs(a).max(axis=1, keepdims=True) / 127).astype(np.float32).astype(np.float64)
        inverse = np.where(scale == 0, 0, (1 / np.where(scale == 0, 1, scale)).astype(np.float32))
        y += (np.rint(a * inverse) @ (p["w2_q"][j:j + 32] - p["w2_zp"])) * scale
    return y * p["w2_scale"] + p["b2"]


# ONNX Runtime's answers known not to conform (kept findings): (model, optimisation level) → the
# function giving the answer ORT computes instead, which its answer must match within 1e-5 of max|y|.
KNOWN_ORT_FINDINGS = {("qdq", "all"): qdq_ort_block_int8}


def qdq_input(r):
    return (r.randn(BATCH, 3, 6, 6) * 1.5).astype(np.float32)  # some past 127·s_x: saturated


# ---- the float16 model ----

def float16_weights():
    r = np.random.RandomState(2)
    return {"w1": (r.randn(16, 32) / 4).astype(np.float16), "b1": (r.randn(32) / 4).astype(np.float16),
            "w2": (r.randn(32, 10) / 4).astype(np.float16), "b2": (r.randn(10) / 4).astype(np.float16)}


def float16_model():
    n = helper.make_node
    nodes = [n("MatMul", ["x", "w1"], ["mm1"]), n("Add", ["mm1", "b1"], ["a1"]), n("Relu", ["a1"], ["h"]),
             n("MatMul", ["h", "w2"], ["mm2"]), n("Add", ["mm2", "b2"], ["logits"]),
             n("Softmax", ["logits"], ["p16"], axis=-1), n("Cast", ["p16"], ["p"], to=TensorProto.FLOAT),
             n("Sigmoid", ["logits"], ["s"])]
    return model_of(nodes, "float16", [helper.make_tensor_value_info("x", TensorProto.FLOAT16, ["batch", 16])],
                    [helper.make_tensor_value_info("p", TensorProto.FLOAT, ["batch", 10]),
                     helper.make_tensor_value_info("s", TensorProto.FLOAT16, ["batch", 10])], float16_weights())


def float16_reference(x):
    """The real-number meaning: the float16 inputs and weights are exact reals, the rest float64."""
    p = {k: v.astype(np.float64) for k, v in float16_weights().items()}
    logits = np.maximum(x.astype(np.float64) @ p["w1"] + p["b1"], 0) @ p["w2"] + p["b2"]
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return {"p": e / e.sum(axis=-1, keepdims=True), "s": 1 / (1 + np.exp(-logits))}


def float16_input(r):
    return r.randn(BATCH, 16).astype(np.float16)


# ---- the If-wrapped models ----

def if_weights(cond_at_load):
    r = np.random.RandomState(3)
    w = {"W": (r.randn(8, 4) / 2).astype(np.float32), "b": r.randn(4).astype(np.float32),
         "gate": np.float32(0.25)}
    if cond_at_load:
        w.update(two=np.float32(2), one=np.float32(1))
    else:
        w["threshold"] = np.float32(0.5)
    return w


def if_model(cond_at_load):
    """The body inside If, both branches reading the outer h; else_branch reads the outer gate too."""
    n = helper.make_node
    then_branch = helper.make_graph(
        [n("Add", ["h", "c"], ["t"]), n("Tanh", ["t"], ["then_y"])], "then_branch", [],
        [helper.make_tensor_value_info("then_y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(np.array([0.5, -0.5, 1.0, 0.0], np.float32), "c")])
    else_nodes = [n("Mul", ["h", "gate"], ["else_y"])]
    if cond_at_load:  # the branch not taken has another shape: not read
        else_nodes = [n("ReduceMean", ["h"], ["else_y"], axes=[-1], keepdims=0)]
    else_branch = helper.make_graph(else_nodes, "else_branch", [],
                                    [helper.make_tensor_value_info("else_y", TensorProto.FLOAT, None)])
    cond = ([n("Greater", ["two", "one"], ["cond"])] if cond_at_load else
            [n("ReduceMax", ["x"], ["peak"], keepdims=0), n("Greater", ["peak", "threshold"], ["cond"])])
    nodes = [n("MatMul", ["x", "W"], ["xw"]), n("Add", ["xw", "b"], ["h"])] + cond + [
        n("If", ["cond"], ["y"], then_branch=then_branch, else_branch=else_branch)]
    return model_of(nodes, "if_load" if cond_at_load else "if_data",
                    [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "seq", 8])],
                    [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", "seq", 4])],
                    if_weights(cond_at_load))


def if_reference(x, cond_at_load):
    p = {k: np.asarray(v, np.float64) for k, v in if_weights(cond_at_load).items()}
    h = x.astype(np.float64) @ p["W"] + p["b"]
    taken = True if cond_at_load else x.max() > p["threshold"]
    return {"y": np.tanh(h + np.array([0.5, -0.5, 1.0, 0.0])) if taken else h * p["gate"]}


# ---- the checks ----

IMAGE_DIMS = ["--dim", "batch=1..16"]
SEQUENCE_DIMS = ["--dim", "batch=1..16", "--dim", "seq=1..1024"]


def cases():
    """(name, model, (the model with the quantised activations as outputs too, their reference) or None, dims
    for check, [(input label, x)], reference(x), precision)."""
    r = np.random.RandomState(0)
    loud, quiet = r.randn(BATCH, SEQ, 8).astype(np.float32), (r.randn(BATCH, SEQ, 8) * 0.05).astype(np.float32)
    return [
        ("qdq", qdq_model(False, False), (qdq_model(True, False), lambda x: qdq_reference(x, False)), IMAGE_DIMS,
         [("", qdq_input(r))], lambda x: {"y": qdq_reference(x, False)[0]["y"]}, "f32"),
        ("qdq_qlinear", qdq_model(False, True), (qdq_model(True, True), lambda x: qdq_reference(x, True)), IMAGE_DIMS,
         [("", qdq_input(r))], lambda x: {"y": qdq_reference(x, True)[0]["y"]}, "f32"),
        ("float16", float16_model(), None, IMAGE_DIMS, [("", float16_input(r))], float16_reference, "f16"),
        ("if_data", if_model(False), None, SEQUENCE_DIMS, [("loud", loud), ("quiet", quiet)],
         lambda x: if_reference(x, False), "f32"),
        ("if_load", if_model(True), None, SEQUENCE_DIMS, [("", loud)], lambda x: if_reference(x, True), "f32"),
    ]


def nnref(args, *rest):
    return subprocess.run([args.nnref, *rest], capture_output=True, text=True, timeout=600)


def compare_run(args, path, xin, want, work):
    """The failures of `nnref run --precision f64` against the NumPy float64 outputs `want`."""
    out = os.path.join(work, "run.npz")
    r = nnref(args, "run", path, "--input", "x=" + xin, "--precision", "f64", "--output", out, "--quiet")
    if r.returncode != 0:
        return ["run: " + r.stderr.strip()[-300:]]
    got = np.load(out)
    failures = []
    for name, y in want.items():
        err = float(np.abs(got[name] - y).max() / np.abs(y).max())
        print("  run: %s %.1e of max|y| from NumPy float64" % (name, err))
        if not err <= 1e-12:
            failures.append("run: %s %.2e of max|y| from NumPy float64" % (name, err))
    return failures


def exact_quantised(args, path, reference, x, xin, work):
    """The qdq copy with x_q and h_q as outputs: nnref's integers equal NumPy's, no tie being near."""
    want, tie = reference(x)
    if tie < 1e-9:
        return ["the input puts a quantisation within %.1e of a rounding tie: choose another" % tie]
    out = os.path.join(work, "exact.npz")
    r = nnref(args, "run", path, "--input", "x=" + xin, "--precision", "f64", "--output", out, "--quiet")
    if r.returncode != 0:
        return ["run with x_q, h_q: " + r.stderr.strip()[-300:]]
    got = np.load(out)
    return ["run: %s differs from NumPy's at %d elements" % (q, int((got[q] != want[q]).sum()))
            for q in ("x_q", "h_q") if not np.array_equal(got[q], want[q])]


def known_finding(finding, x, answer, v):
    """The failures of a known ONNX Runtime finding: rejected, and the answer the one it explains."""
    if v.returncode != 1:
        return ["ONNX Runtime's answer, a kept finding, is no longer rejected: %s" % (v.stdout + v.stderr)[-300:]]
    explained = finding(x)
    err = float(np.abs(list(answer.values())[0] - explained).max() / np.abs(explained).max())
    print("  known finding: ONNX Runtime's answer rejected, %.1e of max|y| from the computation that explains it"
          % err)
    return [] if err <= 1e-5 else ["ONNX Runtime's rejected answer is %.2e of max|y| from its finding's" % err]


def closest_share(conform_text):
    """The largest share of an envelope's radius an answer uses, from conform's text report."""
    shares = [float(line.split("uses ")[1].split()[0]) for line in conform_text.splitlines() if "uses " in line]
    return "at most %.3f of an envelope's radius" % max(shares) if shares else "no element near a bound"


def judge_ort(args, modules, path, x, xin, precision, work):
    """The failures of conform on ONNX Runtime's answers at both optimisation levels."""
    failures = []
    name = os.path.basename(path)[:-len(".onnx")]
    for level in ("disabled", "all"):
        try:
            answer = run_ort(modules, path, [("x", x)], os.path.join(work, "ort_" + level), level)
        except NotRun as e:
            failures.append("ONNX Runtime (%s) did not run it: %s" % (level, e))
            continue
        actual = os.path.join(work, "actual_%s.npz" % level)
        np.savez(actual, **answer)
        v = nnref(args, "conform", path, "--input", "x=" + xin, "--actual", actual, "--runtime-precision", precision)
        if (name, level) in KNOWN_ORT_FINDINGS:
            failures += known_finding(KNOWN_ORT_FINDINGS[(name, level)], x, answer, v)
        elif v.returncode == 0:
            print("  ONNX Runtime (%s): conforms, %s" % (level, closest_share(v.stdout)))
        else:
            failures.append("conform rejects ONNX Runtime's answer (optimisations %s): %s"
                            % (level, (v.stdout + v.stderr).strip()[-400:]))
    return failures


def check_case(args, modules, case, work):
    name, model, exact, dims, inputs, reference, precision = case
    path = os.path.join(work, name + ".onnx")
    onnx.save(model, path)
    c = nnref(args, "check", path, *dims)
    print("  check %s: %s" % (" ".join(dims[1::2]), c.stdout.strip().splitlines()[-1].split(": ", 1)[-1]))
    failures = [] if c.returncode == 0 else ["check: " + (c.stdout + c.stderr).strip()[-300:]]
    for label, x in inputs:
        xin = os.path.join(work, "%s_x%s.npy" % (name, label))
        np.save(xin, x)
        if label:
            print("  %s input:" % label)
        where = len(failures)
        failures += compare_run(args, path, xin, reference(x), work)
        if exact is not None:
            extra_path = os.path.join(work, name + "_extra.onnx")
            onnx.save(exact[0], extra_path)
            failures += exact_quantised(args, extra_path, exact[1], x, xin, work)
        if modules:
            failures += judge_ort(args, modules, path, x, xin, precision, work)
        failures[where:] = ["%s%s" % ("%s input: " % label if label else "", f) for f in failures[where:]]
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nnref", required=True)
    ap.add_argument("--ort-cache", default="build/ort-cache")
    ap.add_argument("--install", action="store_true", help="npm install onnxruntime-node if absent")
    args = ap.parse_args()
    modules = ort_modules(args.ort_cache, args.install)
    if not modules:
        print("ONNX Runtime is not installed: its answers are not judged (--install)")
    failed = 0
    with tempfile.TemporaryDirectory() as work:
        for case in cases():
            failures = check_case(args, modules, case, work)
            print("%s %s" % (case[0], "passed" if not failures else "FAILED"), flush=True)
            for f in failures:
                print("  " + f)
            failed += bool(failures)
    print("%d passed, %d failed" % (len(cases()) - failed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
