#!/usr/bin/python3
"""Independent low-precision evaluations ("peers") of an NNL v0.2 model, whose results
`nnref conform` must accept: every one is a correct float32 (or float16, bfloat16) computation of
the model, each with its own order of summation, blocking and kernels.

Peers (name: runtime precision, how):
  torch_f32_1thread   f32   PyTorch float32, torch.set_num_threads(1)
  torch_f32_2threads  f32   PyTorch float32, 2 intra-op threads
  numpy_f32_reversed  f32   NumPy float32, every sum in reversed order (numpy_float_eval.py)
  numpy_f32_lanes     f32   NumPy float32, every sum in 8 strided lanes combined pairwise
  numpy_f16           f16   NumPy float16: all arithmetic, weights and input in float16
  numpy_bf16          bf16  bfloat16 emulated in NumPy: every operation rounded to bfloat16
  torch_bf16          bf16  PyTorch bfloat16 tensors; its linear and conv2d sum in float32 (256 + 256
                            ones gives 512, where bfloat16 sums would stay at 256)

Usage:
    float32_peers.py MODEL.nnl|MODEL_DIR --input X.npy --out DIR [--peers NAME,NAME...]
    float32_peers.py --list
    float32_peers.py --self-test

MODEL_DIR means MODEL_DIR/model.nnl. Writes DIR/<peer>.npz, one float32 member per output layer
(named by layer id, shape [B, *per-sample shape]), and DIR/<peer>.npy as well when the model has a
single output.
Exit 0, or 2 for a usage, I/O or model error. Runs with Debian's /usr/bin/python3 (numpy, torch);
the NumPy peers do not need torch.
"""

import argparse
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nnl_reference as ref  # noqa: E402
import numpy_float_eval as ne  # noqa: E402


def _torch_peer(dtype_name, threads):
    def run(m, weights, x):
        import torch
        import torch_float_eval
        return torch_float_eval.TorchEvaluator(getattr(torch, dtype_name), threads).evaluate(m, weights, x)
    return run


def _numpy_peer(fmt, order):
    def run(m, weights, x):
        return ne.Evaluator(fmt, order).evaluate(m, weights, x)
    return run


# name -> (runtime precision, evaluation(model, weights, x) -> {output id: array})
PEERS = {
    "torch_f32_1thread": ("f32", _torch_peer("float32", 1)),
    "torch_f32_2threads": ("f32", _torch_peer("float32", 2)),
    "numpy_f32_reversed": ("f32", _numpy_peer(ne.FLOAT32, "reversed")),
    "numpy_f32_lanes": ("f32", _numpy_peer(ne.FLOAT32, "lanes")),
    "numpy_f16": ("f16", _numpy_peer(ne.FLOAT16, "reversed")),
    "numpy_bf16": ("bf16", _numpy_peer(ne.BFLOAT16, "reversed")),
    "torch_bf16": ("bf16", _torch_peer("bfloat16", 1)),
}


def evaluate(name, m, weights, x):
    """Peer `name`'s outputs as {output id: float32 array} (float16/bfloat16 values are exact)."""
    outs = PEERS[name][1](m, weights, x)
    return {k: np.asarray(v, dtype=np.float32) for k, v in outs.items()}


def write_outputs(outs, out_dir, name):
    """DIR/<name>.npz keyed by output id, plus DIR/<name>.npy for a single output."""
    np.savez(os.path.join(out_dir, name + ".npz"), **outs)
    if len(outs) == 1:
        np.save(os.path.join(out_dir, name + ".npy"), next(iter(outs.values())))


def run_peers(model_path, x, out_dir, names):
    if os.path.isdir(model_path):
        model_path = os.path.join(model_path, "model.nnl")
    m = ref.load_model(model_path)
    weights = ref.load_weights(m)
    ref.evaluate(m, weights, x)   # the float64 reference checks the input, shapes and parameters
    os.makedirs(out_dir, exist_ok=True)
    for name in names:
        write_outputs(evaluate(name, m, weights, x), out_dir, name)


# --------------------------------------------------------------------------------------------
# Self test
# --------------------------------------------------------------------------------------------

# Loose agreement with the float64 reference, relative to max|reference| per output: a check
# that the peers compute the model, not a verdict on their rounding (that is nnref's job).
SELF_TEST_TOLERANCE = {"f32": 1e-4, "f16": 3e-2, "bf16": 2e-1}


def relative_error(got, want):
    """max|got - want| / max|want| over one output (0 when both are all zeros)."""
    err = float(np.max(np.abs(np.asarray(got, dtype=np.float64) - want), initial=0.0))
    scale = float(np.max(np.abs(want), initial=0.0))
    return err / scale if scale > 0 else (0.0 if err == 0 else float("inf"))


class Checks:
    """The self-tests' bookkeeping: one line per check, a verdict at the end."""

    def __init__(self):
        self.failures = 0

    def check(self, name, ok, detail=""):
        print("%-4s %s %s" % ("ok" if ok else "FAIL", name, detail))
        if not ok:
            self.failures += 1

    def passed(self):
        print("self-test: %s (%d failures)" % ("PASS" if self.failures == 0 else "FAIL", self.failures))
        return self.failures == 0


def _hand_checks(c):
    f32 = np.float32
    u = 2.0 ** -24
    terms = [f32(1), f32(u), f32(u), f32(u)]
    # reversed: u + u = 2u, + u = 3u, + 1 = 1 + 1.5 ulp -> ties to even: 1 + 2 ulp = 1 + 2^-22.
    # lanes (4 lanes): (1 + u) -> 1 (a tie, to even), (u + u) = 2u, then 1 + 2u = 1 + 2^-23.
    for order, want in (("reversed", 1 + 2.0 ** -22), ("lanes", 1 + 2.0 ** -23)):
        got = ne.ordered_sum(ne.FLOAT32, order, 4, lambda k: terms[k])
        c.check("ordered_sum %s of [1, u, u, u] = %r" % (order, want), float(got) == want, repr(float(got)))
    # nine terms, 1 then eight u: lanes put 1 and the ninth u together (1 + u -> 1), the other
    # seven pair up to 2u, 2u, 2u -> 1 + 2u + 4u = 1 + 3*2^-23; reversed: 8u = 2^-21 exactly, + 1.
    nine = [f32(1)] + [f32(u)] * 8
    for order, want in (("reversed", 1 + 2.0 ** -21), ("lanes", 1 + 3 * 2.0 ** -23)):
        got = ne.ordered_sum(ne.FLOAT32, order, 9, lambda k: nine[k], init=f32(0))
        c.check("ordered_sum %s of [1, 8 x u] = %r" % (order, want), float(got) == want, repr(float(got)))
    # bfloat16 has 8 significant bits: ulp(1) = 2^-7.
    cases = [(1 + 2.0 ** -8, 1.0), (1 + 3 * 2.0 ** -8, 1 + 2.0 ** -6),
             (1 + 2.0 ** -8 + 2.0 ** -20, 1 + 2.0 ** -7), (-(1 + 2.0 ** -8 + 2.0 ** -20), -(1 + 2.0 ** -7)),
             (2.0 ** -133, 2.0 ** -133), (2.0 ** -140, 0.0), (3.4e38, np.inf), (np.inf, np.inf)]
    got = ne.round_to_bfloat16(np.array([a for a, _ in cases], dtype=np.float32))
    want = np.array([b for _, b in cases], dtype=np.float32)
    c.check("round_to_bfloat16 ties to even, subnormals, overflow", np.array_equal(got, want),
            repr(got.tolist()))
    c.check("round_to_bfloat16 keeps NaN", bool(np.isnan(ne.round_to_bfloat16(np.float32(np.nan)))))
    # A Dense layer whose one dot product is [1, u, u, u]: the two NumPy peers give the two sums
    # above, not the exact 1 + 3u (which float32 cannot hold).
    m = ref.parse_nnl('version 0.2; model d { config { weights: "w"; } layer input = Input(shape: [4]); '
                      'layer fc = Dense(units: 1); }')
    w = {("fc", "weight"): np.array([[1.0], [u], [u], [u]]), ("fc", "bias"): np.zeros(1)}
    x = np.ones((1, 4), dtype=np.float32)
    for name, want in (("numpy_f32_reversed", 1 + 2.0 ** -22), ("numpy_f32_lanes", 1 + 2.0 ** -23)):
        got = float(evaluate(name, m, w, x)["fc"][0, 0])
        c.check("%s on Dense [1, u, u, u] = %r" % (name, want), got == want, repr(got))


def _model_checks(c, label, model_path, x):
    m = ref.load_model(model_path)
    weights = ref.load_weights(m)
    want = ref.evaluate(m, weights, x)
    outs = {name: evaluate(name, m, weights, x) for name in PEERS}
    for name, got in outs.items():
        tol = SELF_TEST_TOLERANCE[PEERS[name][0]]
        for k, r in want.items():
            err = relative_error(got[k], r)
            c.check("%s %s/%s vs float64" % (label, name, k), got[k].shape == r.shape and err <= tol,
                    "rel %.2e (tolerance %.0e)" % (err, tol))
    for name in ("numpy_f32_reversed", "numpy_f32_lanes"):
        for k, r in want.items():
            err = relative_error(outs[name][k], outs["torch_f32_1thread"][k])
            c.check("%s %s/%s vs torch_f32_1thread" % (label, name, k), err <= SELF_TEST_TOLERANCE["f32"],
                    "rel %.2e" % err)


def self_test():
    import make_conform_cases
    c = Checks()
    _hand_checks(c)
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    examples = os.path.join(repo, "examples")
    for name in sorted(os.listdir(examples)):
        model = os.path.join(examples, name, "model.nnl")
        if os.path.isfile(model):
            _model_checks(c, "examples/" + name, model, np.load(os.path.join(examples, name, "input.npy")))
    with tempfile.TemporaryDirectory() as tmp:
        for case in make_conform_cases.write_cases(tmp, count=12, seed=7, peer_names=()):
            _model_checks(c, os.path.basename(case), os.path.join(case, "model.nnl"),
                          np.load(os.path.join(case, "input.npy")))
        # the CLI writes one .npz per peer, and an .npy for a single output
        case = os.path.join(tmp, "case_000")
        rc = main([os.path.join(case, "model.nnl"), "--input", os.path.join(case, "input.npy"),
                   "--out", os.path.join(tmp, "cli"), "--peers", "numpy_f32_lanes"])
        files = sorted(os.listdir(os.path.join(tmp, "cli")))
        c.check("CLI writes numpy_f32_lanes.npz (+ .npy for one output)",
                rc == 0 and "numpy_f32_lanes.npz" in files, repr(files))
        c.check("CLI: unknown peer is a usage error (2)",
                main([os.path.join(case, "model.nnl"), "--input", os.path.join(case, "input.npy"),
                      "--out", tmp, "--peers", "numpy_f64"]) == 2)
        c.check("CLI: missing input file is an I/O error (2)",
                main([os.path.join(case, "model.nnl"), "--input", os.path.join(tmp, "absent.npy"),
                      "--out", tmp]) == 2)
    return c.passed()


# --------------------------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description="independent float32, float16, bfloat16 evaluations of an NNL model")
    ap.add_argument("model", nargs="?")
    ap.add_argument("--input")
    ap.add_argument("--out", help="directory for <peer>.npz (and <peer>.npy)")
    ap.add_argument("--peers", default=",".join(PEERS), help="comma-separated peer names (default: all)")
    ap.add_argument("--list", action="store_true", help="print each peer's name and runtime precision")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args(argv)
    if args.self_test:
        return 0 if self_test() else 1
    if args.list:
        for name, (precision, _) in PEERS.items():
            print("%s %s" % (name, precision))
        return 0
    if not (args.model and args.input and args.out):
        sys.stderr.write("float32_peers: error: MODEL, --input and --out are required\n")
        return 2
    names = [n for n in args.peers.split(",") if n]
    unknown = [n for n in names if n not in PEERS]
    if unknown:
        sys.stderr.write("float32_peers: error: unknown peer %s (known: %s)\n"
                         % (", ".join(unknown), ", ".join(PEERS)))
        return 2
    try:
        x = np.load(args.input, allow_pickle=False)
        run_peers(args.model, x, args.out, names)
    except (OSError, ValueError, ref.NNLError) as e:
        sys.stderr.write("float32_peers: error: %s\n" % e)
        return 2
    for name in names:
        print("%s %s %s" % (name, PEERS[name][0], os.path.join(args.out, name + ".npz")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
