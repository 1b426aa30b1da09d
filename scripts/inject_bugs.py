#!/usr/bin/python3
"""Wrong float32 outputs of an NNL model, one per kind of bug, for the detection tests of
`nnref conform`: a runtime with that bug would print them.

Bugs (each computed by the NumPy float32 evaluator, numpy_float_eval.py, sums in reversed order,
so that the bug is the only departure from a correct float32 run):
  bn_epsilon       every BatchNorm uses epsilon 1e-3 (1e-5 where the file says 1e-3)
  conv_flip        the first Conv2D with a kernel larger than 1x1 is flipped in both spatial axes
                   (convolution instead of cross-correlation)
  float16          all arithmetic, weights and input in float16 (the numpy_f16 peer)
  same_pad_swapped "same" padding puts the larger half before (top/left) instead of after, in
                   every Conv2D whose total padding on an axis is odd
  one_off          the correct float32 output with one element, the largest in magnitude of all
                   outputs, multiplied by 1 + 1e-3 (rounded to float32)
A bug applies when the model has what it changes (a BatchNorm, a Conv2D with a kernel > 1x1, an
odd "same" padding); the others always apply.

Usage:
    inject_bugs.py CASE_DIR [--out DIR]     a case as make_conform_cases.py writes it
                                            (model.nnl, weights/, input.npy, expected.npz)
    inject_bugs.py --make-cases OUT_DIR     write cases built so that every bug applies
                                            (make_conform_cases.py's layout, with all peers),
                                            then inject the bugs into each
    inject_bugs.py --self-test

Writes DIR/<bug>.npz (float32, keyed by output layer id; and <bug>.npy for a single output) for
each bug that applies, DIR/bugs.json with the figures below, and prints per bug the largest
|bug output - float64 reference| and, for scale, the largest |correct float32 output - float64
reference| and their ratio. DIR defaults to CASE_DIR/bugs. Exit 0, 1 if a self-test fails, 2 for
a usage, I/O or model error.
"""

import argparse
import copy
import json
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import float32_peers as peers  # noqa: E402
import make_conform_cases as cases  # noqa: E402
import nnl_reference as ref  # noqa: E402
import numpy_float_eval as ne  # noqa: E402

BUGS = ("bn_epsilon", "conv_flip", "float16", "same_pad_swapped", "one_off")
ONE_OFF_RELATIVE = 1e-3


def correct_float32(m, weights, x):
    return ne.Evaluator(ne.FLOAT32, "reversed").evaluate(m, weights, x)


def bn_epsilon(m, weights, x):
    bns = [l for l in m.layers if l.type == "BatchNorm"]
    if not bns:
        return None
    m = copy.deepcopy(m)
    for layer in bns:
        layer = m.by_id[layer.id]
        layer.params["epsilon"] = 1e-5 if float(layer.params["epsilon"]) == 1e-3 else 1e-3
    return correct_float32(m, weights, x)


def conv_flip(m, weights, x):
    convs = [l for l in m.layers if l.type == "Conv2D" and ref.pair(l.params["kernel"], "kernel") != (1, 1)]
    if not convs:
        return None
    key = (convs[0].id, "weight")
    flipped = dict(weights)
    flipped[key] = weights[key][:, :, ::-1, ::-1]
    return correct_float32(m, flipped, x)


def float16(m, weights, x):
    return ne.Evaluator(ne.FLOAT16, "reversed").evaluate(m, weights, x)


def same_pad_swapped(m, weights, x):
    odd = []

    def swapped(size, k, s):
        before, after, out = ref.same_padding(size, k, s)
        odd.append(before != after)
        return after, before, out
    outs = ne.Evaluator(ne.FLOAT32, "reversed").evaluate(m, weights, x, same_padding=swapped)
    return outs if any(odd) else None


def one_off(m, weights, x):
    outs = {k: v.copy() for k, v in correct_float32(m, weights, x).items()}
    name = max(outs, key=lambda k: float(np.max(np.abs(outs[k]))))
    y = outs[name].reshape(-1)
    i = int(np.argmax(np.abs(y)))
    y[i] = np.float32(y[i] * np.float32(1 + ONE_OFF_RELATIVE))
    return outs


INJECT = {"bn_epsilon": bn_epsilon, "conv_flip": conv_flip, "float16": float16,
          "same_pad_swapped": same_pad_swapped, "one_off": one_off}


def _largest_difference(outs, expected):
    """(max |outs - expected| over all outputs, output id, flat index)."""
    best = (-1.0, None, None)
    for k, r in expected.items():
        d = np.abs(np.asarray(outs[k], dtype=np.float64) - r).reshape(-1)
        i = int(np.argmax(d))
        if d[i] > best[0]:
            best = (float(d[i]), k, i)
    return best


def inject(case_dir, out_dir=None):
    """Write each applicable bug's outputs under out_dir (default case_dir/bugs) and bugs.json;
    return {bug: figures} (figures None when the bug does not apply)."""
    out_dir = out_dir or os.path.join(case_dir, "bugs")
    m = ref.load_model(os.path.join(case_dir, "model.nnl"))
    weights = ref.load_weights(m)
    x = np.load(os.path.join(case_dir, "input.npy"), allow_pickle=False)
    expected = ref.evaluate(m, weights, x)
    noise = _largest_difference(correct_float32(m, weights, x), expected)[0]
    os.makedirs(out_dir, exist_ok=True)
    report = {}
    for bug in BUGS:
        outs = INJECT[bug](m, weights, x)
        if outs is None:
            report[bug] = None
            continue
        outs = {k: np.asarray(v, dtype=np.float32) for k, v in outs.items()}
        peers.write_outputs(outs, out_dir, bug)
        diff, output, index = _largest_difference(outs, expected)
        report[bug] = {"max_abs_diff": diff, "output": output, "flat_index": index,
                       "max_abs_reference": max(float(np.max(np.abs(r))) for r in expected.values()),
                       "correct_float32_max_abs_diff": noise,
                       "ratio_to_correct_float32": diff / noise if noise > 0 else None}
    with open(os.path.join(out_dir, "bugs.json"), "w") as f:
        json.dump(report, f, indent=1)
    return report


def print_report(case_dir, report):
    print(case_dir)
    print("  %-17s %-11s %-13s %-9s %s" % ("bug", "max|diff|", "f32 max|diff|", "ratio", "where"))
    for bug, r in report.items():
        if r is None:
            print("  %-17s does not apply" % bug)
        else:
            ratio = "-" if r["ratio_to_correct_float32"] is None else "%.3g" % r["ratio_to_correct_float32"]
            print("  %-17s %-11.3e %-13.3e %-9s %s[%d]"
                  % (bug, r["max_abs_diff"], r["correct_float32_max_abs_diff"], ratio, r["output"], r["flat_index"]))


# --------------------------------------------------------------------------------------------
# Cases where every bug applies
# --------------------------------------------------------------------------------------------

def _build(name, seed, grow, input_shape, batch):
    b = cases.ModelBuilder(np.random.default_rng(seed))
    grow(b, b.add("input", "Input", {"shape": list(input_shape)}, [], input_shape))
    config = {"weights": "./weights", "batch": batch}
    x = np.random.default_rng([seed, 1]).normal(0, 1, (batch,) + tuple(input_shape)).astype(np.float32)
    return name, cases.Case(cases.render(name, b.layers, config, explicit=True), b.weights, x)


def _conv_bn(b, src):
    # 6x5 input; kernel [4, 2] "same": totals 3 and 1, both odd. kernel 3 stride 2 "same" on 6x5:
    # totals 1 (odd) and 2.
    h = b.conv(src, 4, (4, 2), (1, 1), "same")
    h = b.unary(b.batchnorm(h), "relu")
    h = b.conv(h, 3, (3, 3), (2, 2), "same")
    b.dense(b.add("flat", "Flatten", {}, [h], (int(np.prod(b.shape[h])),)), 5, activation="none")


def _mlp_bn(b, src):
    h = b.dense(src, 64, activation="none")
    h = b.unary(b.batchnorm(h), "relu")
    b.dense(h, 10, activation="softmax")


def _resnet_down(b, src):
    # 8x8x16, kernel 3 stride 2 "same": total 1 on each axis (odd); a 144-term dot product.
    h = b.unary(b.batchnorm(b.conv(src, 16, (3, 3), (2, 2), "same")), "relu")
    h = b.batchnorm(b.conv(h, 16, (3, 3), (1, 1), "same"))
    pool = b.add("pool", "MaxPool2D", {"kernel": 2}, [src], (4, 4, 16))
    b.unary(b.add("add", "Add", {}, [pool, h], (4, 4, 16)), "relu")


def bug_cases():
    return [_build("bug_conv_bn", 11, _conv_bn, (6, 5, 3), 2),
            _build("bug_mlp_bn", 12, _mlp_bn, (40,), 1),
            _build("bug_resnet_down", 13, _resnet_down, (8, 8, 16), 1)]


def make_cases(out_dir, peer_names=tuple(peers.PEERS)):
    """Write the bug cases under out_dir and inject every bug; return {case dir: report}."""
    reports = {}
    for name, case in bug_cases():
        case_dir = os.path.join(out_dir, name)
        cases.write_case(case_dir, case, peer_names)
        reports[case_dir] = inject(case_dir)
    return reports


# --------------------------------------------------------------------------------------------
# Self test
# --------------------------------------------------------------------------------------------

def _check_bug_case(check, case_dir, report):
    """Every bug that applies moves the output far beyond float32 rounding; one_off moves exactly
    the one element it names."""
    name = os.path.basename(case_dir)
    correct = dict(np.load(os.path.join(case_dir, "peers", "numpy_f32_reversed.npz")))
    for bug, r in report.items():
        if r is None:
            continue
        got = dict(np.load(os.path.join(case_dir, "bugs", bug + ".npz")))
        changed = sum(int(np.sum(got[k] != correct[k])) for k in correct)
        check.check("%s %s: 10x beyond the correct float32 run's error, %d elements changed"
                    % (name, bug, changed),
                    changed >= 1 and r["max_abs_diff"] > 10 * r["correct_float32_max_abs_diff"],
                    "%.3g vs %.3g" % (r["max_abs_diff"], r["correct_float32_max_abs_diff"]))
        if bug == "one_off":
            k, i = r["output"], r["flat_index"]
            want = np.float32(correct[k].reshape(-1)[i] * np.float32(1 + ONE_OFF_RELATIVE))
            check.check("%s one_off: exactly that element, times 1 + 1e-3" % name,
                        changed == 1 and got[k].reshape(-1)[i] == want)


def self_test():
    check = peers.Checks()
    with tempfile.TemporaryDirectory() as tmp:
        reports = make_cases(tmp, peer_names=("numpy_f32_reversed",))
        for case_dir, report in reports.items():
            print_report(case_dir, report)
            _check_bug_case(check, case_dir, report)
        applies = {os.path.basename(d): [b for b in BUGS if rep[b] is not None] for d, rep in reports.items()}
        check.check("bugs apply where the cases were built for them", applies == {
            "bug_conv_bn": list(BUGS), "bug_resnet_down": list(BUGS),
            "bug_mlp_bn": ["bn_epsilon", "float16", "one_off"]}, repr(applies))
        # A Dense layer by hand: y = [1 - 3 + 10 + 0.5, 2 - 4 + 12 - 0.5] = [8.5, 9.5], exact in
        # float32 and float16; one_off multiplies 9.5 by 1.001.
        plain = os.path.join(tmp, "plain")
        weights = {"fc.weight": np.float32([[1, 2], [3, 4], [5, 6]]), "fc.bias": np.float32([0.5, -0.5])}
        text = ('version 0.2; model plain { config { weights: "./weights"; } '
                'layer input = Input(shape: [3]); layer fc = Dense(units: 2); }')
        cases.write_case(plain, cases.Case(text, weights, np.float32([[1, -1, 2]])), ())
        rep = inject(plain)
        check.check("plain Dense: only float16 and one_off apply",
                    [b for b in BUGS if rep[b] is not None] == ["float16", "one_off"], repr(rep))
        got = {bug: np.load(os.path.join(plain, "bugs", bug + ".npy")) for bug in ("float16", "one_off")}
        check.check("plain Dense: float16 by hand", np.array_equal(got["float16"], np.float32([[8.5, 9.5]])),
                    repr(got["float16"]))
        check.check("plain Dense: one_off by hand",
                    np.array_equal(got["one_off"], np.float32([[8.5, np.float32(9.5) * np.float32(1.001)]])),
                    repr(got["one_off"]))
        check.check("CLI: a missing case is an I/O error (2)", main([os.path.join(tmp, "absent")]) == 2)
    return check.passed()


def main(argv=None):
    ap = argparse.ArgumentParser(description="wrong float32 outputs of an NNL model, one per kind of bug")
    ap.add_argument("case_dir", nargs="?")
    ap.add_argument("--out")
    ap.add_argument("--make-cases", metavar="OUT_DIR")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args(argv)
    if args.self_test:
        return 0 if self_test() else 1
    try:
        if args.make_cases:
            for case_dir, report in make_cases(args.make_cases).items():
                print_report(case_dir, report)
            return 0
        if not args.case_dir:
            sys.stderr.write("inject_bugs: error: CASE_DIR or --make-cases OUT_DIR is required\n")
            return 2
        print_report(args.case_dir, inject(args.case_dir, args.out))
    except (OSError, ValueError, ref.NNLError) as e:
        sys.stderr.write("inject_bugs: error: %s\n" % e)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
