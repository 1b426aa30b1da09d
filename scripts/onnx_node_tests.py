#!/usr/bin/python3
"""The ONNX backend node tests (Debian's libonnx-testdata) through nnref's f64 oracle.

For every case folder (model.onnx, test_data_set_0/input_*.pb, output_*.pb): `nnref run` the model
in f64 on the inputs and compare each output with the expected one at rtol 1e-3 / atol 1e-7
(numpy.allclose, NaN equal to NaN, shapes equal). A case whose model the front-end refuses with
an onnx.* code (an op, attribute or type nnref does not read) is unsupported, and so is one whose
run fails with shape.empty-extent (a size computed at run time from the inputs' data is 0, an
empty tensor, which nnref's values do not hold; an empty tensor whose shape is known when the model
is read is an empty value, and an output that is one an empty output: docs/onnx.md, "Empty
values"); every other case is
supported and either passes or fails. Prints the counts and each failure; exits 1 when any
supported case fails (or when the data is missing); a case of KNOWN_DISAGREEMENTS (each explained
there and in docs/onnx.md: test data that disagree with the specification) is counted apart.

Each case that passes is then judged by `nnref conform` with the suite's expected outputs as the
runtime's answer at float32 (`--actual`, an .npz keyed by output name): data computed in float64
and rounded to float32 is a correct float32 answer, so every such verdict should be "conforms".
A rejection is printed with conform's worst element and, since it is either a finding about the
test data or a bug in nnref, fails the run unless the case is one of KNOWN_REJECTIONS (each
explained in docs/onnx.md, "Conform verdicts on the node tests"). So does an inconclusive verdict
(some element not judged: its envelope has a side nnref could not bound), printed with the node
where the bound was lost, unless the case is one of KNOWN_INCONCLUSIVE.

The node tests feed every operand as a graph input, weights, shapes and axes included, and every one
is given as an --input. nnref reads some at load time (Conv's weight is a parameter, a Slice's starts
an attribute of the IR op): `run` and `conform` bind those to the values given and say so
(note[onnx.input-bound], docs/onnx.md "Inputs bound at load"); such cases are counted as "passed
with inputs bound at load".

  /usr/bin/python3 scripts/onnx_node_tests.py --nnref build/nnref [--data DIR] [--filter SUBSTRING] [--jobs 2]
      [--no-conform] [--verbose]
"""
import argparse
import collections
import json
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import numpy_helper

DEFAULT_DATA = "/usr/share/libonnx-testdata/data/node"
RTOL, ATOL = 1e-3, 1e-7
CONFORM_TIMEOUT = 120  # seconds per verdict; the largest node test takes a few

# Cases whose expected output conform rejects for a reason docs/onnx.md explains (a finding about
# the test data): case -> the reason, printed with the verdict.
# The window functions' expected outputs are computed with π = 3.1415 (onnx/backend/test/case/node/
# *window.py: np.cos(2 * 3.1415 * n / N)), about 9·10⁻⁵ of π short: far outside float32's envelope.
_WINDOW_PI = ("the expected outputs use pi = 3.1415 (ONNX's test generator), not pi; nnref computes the "
              "definition's 2*pi*n/N (docs/onnx.md, window functions)")
KNOWN_REJECTIONS = {case: _WINDOW_PI for case in
                    (base + suffix for base in ("test_blackmanwindow", "test_blackmanwindow_symmetric",
                                                "test_hammingwindow", "test_hammingwindow_symmetric",
                                                "test_hannwindow", "test_hannwindow_symmetric")
                     for suffix in ("", "_expanded"))}  # the _expanded bodies: their size input bound at load
# GridSample's bicubic expected output is written in the test generator (onnx/backend/test/case/node/
# gridsample.py) as literals of 4 decimals (-0.1406 for the exact -0.140625): 2·10⁻⁵ off, far outside
# float32's envelope; nnref's f64 output is the reference formula's exact value.
KNOWN_REJECTIONS["test_gridsample_bicubic"] = (
    "the expected output is written with 4 decimals (ONNX's test generator), -0.1406 for the exact -0.140625 "
    "(docs/onnx.md, GridSample)")
# The bilinear case's literals too: 0.1500 where the grid's -0.6, read as float32, makes every
# operation exact and the answer 0.149999976 (ONNX Runtime's and PyTorch's), 2 float32 ulps away.
KNOWN_REJECTIONS["test_gridsample"] = (
    "the expected output is written with 4 decimals (ONNX's test generator), 0.1500 for the exact 0.149999976 "
    "over the float32 grid (docs/onnx.md, GridSample)")
# RoiAlign's expected outputs are likewise 4-decimal literals (onnx/backend/test/case/node/roialign.py),
# up to 8·10⁻⁵ from the reference formula's exact value over the X the test gives.
_ROI_DECIMALS = ("the expected output is written with 4 decimals (ONNX's test generator), up to 8e-5 from the "
                 "formula's exact value (docs/onnx.md, RoiAlign)")
KNOWN_REJECTIONS.update({case: _ROI_DECIMALS for case in ("test_roialign_aligned_false", "test_roialign_aligned_true")})
# Cases whose expected outputs nnref cannot judge on every element (conform's "inconclusive", exit
# 3), each with its reason, as docs/onnx.md lists them; any other inconclusive verdict fails the run.
# None today: the NaN and infinite inputs of IsNaN, IsInf and Cast are exact values, and the integer
# truncation of an integer base's float Pow is judged by its integer range (docs/conformance.md).
KNOWN_INCONCLUSIVE = {}



# ONNX 1.12 wrote its bfloat16 cast tests with truncation (the float32's upper 16 bits); nnref
# rounds to nearest, ties to even, as ONNX Runtime 1.30 does (docs/onnx.md, Cast). Where the two
# differ the expected output is off by one bfloat16 ulp, beyond the suite's rtol 1e-3: those cases
# are reported as known disagreements.
_BF16_TRUNCATED = ("the expected output truncates float32 to bfloat16 (ONNX 1.12's test generator); Cast rounds to "
                   "nearest, ties to even (docs/onnx.md, Cast)")
# ONNX 1.12's CastLike tests of bfloat16 give the `like` input shape [1] where their model declares
# [3, 4]; nnref checks every input against the model's declared shape (input.shape-mismatch).
_LIKE_SHAPE = ("the test data's `like` input has shape [1], the model declares [3, 4] (ONNX 1.12's bfloat16 CastLike "
               "tests): nnref refuses the input with input.shape-mismatch")
KNOWN_DISAGREEMENTS = {"test_cast_FLOAT_to_BFLOAT16": _BF16_TRUNCATED}
KNOWN_DISAGREEMENTS.update({case: _LIKE_SHAPE for case in
                            ("test_castlike_FLOAT_to_BFLOAT16", "test_castlike_FLOAT_to_BFLOAT16_expanded",
                             "test_castlike_BFLOAT16_to_FLOAT", "test_castlike_BFLOAT16_to_FLOAT_expanded")})
# A float32 intermediate at an exact tie: the expected output is a float32 evaluation's, and conform
# accepts it (checked with nnref conform; docs/onnx.md, DynamicQuantizeLinear).
_FLOAT32_SCALE_TIE = ("-2.5 / (5/255) is -127.5 exactly, which rounds to -128 (y = 25); the expected 26 divides by "
                      "y_scale rounded to float32 (-127.49999...); conform accepts both (docs/onnx.md, "
                      "DynamicQuantizeLinear)")
KNOWN_DISAGREEMENTS.update({case: _FLOAT32_SCALE_TIE for case in
                            ("test_dynamicquantizelinear", "test_dynamicquantizelinear_expanded")})


def read_pb(path, declared=None):
    """The tensor as an array; a bfloat16 tensor as float32. ONNX 1.12's test data store bfloat16
    values as UINT16 tensors of their bits (`declared` is the model's type for the value)."""
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    a = numpy_helper.to_array(t)
    if t.data_type == onnx.TensorProto.BFLOAT16 or (declared == onnx.TensorProto.BFLOAT16 and a.dtype == np.uint16):
        return (a.astype(np.uint32) << 16).view(np.float32)
    return a


def bfloat16_input(path, declared, scratch):
    """The .pb file to give nnref: a bfloat16 input that ONNX 1.12 stored as UINT16 bits, retyped
    BFLOAT16 (the same bytes) in a copy under scratch; any other file itself."""
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    if declared != onnx.TensorProto.BFLOAT16 or t.data_type != onnx.TensorProto.UINT16:
        return path
    t.data_type = onnx.TensorProto.BFLOAT16
    fixed = os.path.join(scratch, os.path.basename(os.path.dirname(os.path.dirname(path))) + "." + os.path.basename(path))
    with open(fixed, "wb") as f:
        f.write(t.SerializeToString())
    return fixed


def run_case(nnref, case_dir, scratch, conform=True):
    """(status, why, verdict, case): status 'unsupported' (why: code detail), 'disagrees' (a
    KNOWN_DISAGREEMENTS case whose output differs as listed there), 'passed' (why
    names the inputs bound at load) or 'failed'; verdict is conform's on the expected outputs of
    a passed case (see judge), else None; case, for a passed case, what nnref ran: {'model': the
    model file, 'inputs': [(graph input, .pb file)],
    'expected': {output: array}} (scripts/runtime_campaign.py runs runtimes on it)"""
    data = os.path.join(case_dir, "test_data_set_0")
    inputs = sorted((f for f in os.listdir(data) if f.startswith("input_")), key=lambda f: int(f[6:-3]))
    outputs = sorted((f for f in os.listdir(data) if f.startswith("output_")), key=lambda f: int(f[7:-3]))
    model = onnx.load(os.path.join(case_dir, "model.onnx"), load_external_data=False)
    path = os.path.join(case_dir, "model.onnx")
    graph_inputs = [i.name for i in model.graph.input if i.name not in {t.name for t in model.graph.initializer}]
    declared = {v.name: v.type.tensor_type.elem_type for v in list(model.graph.input) + list(model.graph.output)}
    feeds = {name: bfloat16_input(os.path.join(data, f), declared.get(name), scratch)
             for name, f in zip(graph_inputs, inputs)}
    out = os.path.join(scratch, os.path.basename(case_dir) + ".npz")
    cmd = [nnref, "run", path, "--precision", "f64", "--output", out, "--quiet"]
    for name in graph_inputs:
        if name in feeds:
            cmd += ["--input", feeds[name]]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return "failed", "timed out", None, None
    refused = re.search(r"error\[(onnx\.[a-z-]+)\]: ([^\n]*)", p.stderr)
    if p.returncode != 0 and refused:
        return "unsupported", refused.group(1) + ": " + refused.group(2), None, None
    bound = re.findall(r"note\[onnx\.input-bound\]: input '([^']*)'", p.stderr)
    empty = re.search(r"error\[(shape\.empty-extent)\]: ([^\n]*)", p.stderr)
    if p.returncode != 0 and empty:  # a size computed from the inputs' data is 0: an empty tensor
        return "unsupported", empty.group(1) + ": " + empty.group(2), None, None
    if p.returncode != 0:
        status = "disagrees" if os.path.basename(case_dir) in KNOWN_DISAGREEMENTS else "failed"
        return status, "exit %d: %s" % (p.returncode, p.stderr.strip().splitlines()[0] if p.stderr else ""), None, None
    got = np.load(out)
    expected = {}
    for k, f in enumerate(outputs):
        name = model.graph.output[k].name
        want = read_pb(os.path.join(data, f), declared.get(name))
        expected[name] = want
        if name not in got:
            return "failed", "no output %s" % name, None, None
        have = got[name]
        if have.shape != want.shape:
            return "failed", "output %s: shape %s, expected %s" % (name, have.shape, want.shape), None, None
        if not np.allclose(have, want.astype(np.float64), rtol=RTOL, atol=ATOL, equal_nan=True):
            with np.errstate(invalid="ignore"):  # inf − inf where both are infinite: NaN, skipped below
                excess = np.abs(have - want) - (ATOL + RTOL * np.abs(want))
            bad = np.argmax(np.where(np.isnan(have) & np.isnan(want), -np.inf, np.nan_to_num(excess, nan=np.inf)))
            status = "disagrees" if os.path.basename(case_dir) in KNOWN_DISAGREEMENTS else "failed"
            return status, "output %s: element %d is %r, expected %r" % (
                name, bad, have.flat[bad], want.flat[bad]), None, None
    note = ("inputs bound at load: " + ", ".join(bound)) if bound else ""
    case = {"model": path, "inputs": [(name, feeds[name]) for name in graph_inputs if name in feeds], "expected": expected}
    if not conform:
        return "passed", note, None, case
    verdict = judge(nnref, path, [f for _, f in case["inputs"]], expected, os.path.join(scratch, os.path.basename(case_dir)))
    return "passed", note, verdict, case


# An envelope whose radius exceeds this fraction of its output's largest exact magnitude judges
# little: an answer that far off conforms. Reported (not a failure): it shows where compositions or
# the error model leave the verdict without teeth.
LOOSE = 1e-3


def loose_verdict(detail):
    return float(detail.split()[2]) > LOOSE


def judge(nnref, model_path, inputs, expected, stem):
    """conform's verdict on the expected outputs: ('conforms' | 'rejected' | 'error', detail, seconds)."""
    actual = stem + ".expected.npz"
    np.savez(actual, **expected)
    cmd = [nnref, "conform", model_path, "--actual", actual, "--exact", "--format", "json"]  # widths: max|exact|
    for f in inputs:
        cmd += ["--input", f]
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=CONFORM_TIMEOUT)
    except subprocess.TimeoutExpired:
        return "error", "conform timed out after %d s" % CONFORM_TIMEOUT, CONFORM_TIMEOUT
    seconds = time.monotonic() - start
    if p.returncode not in (0, 1, 3):
        return "error", "conform exit %d: %s" % (p.returncode, p.stderr.strip()[:300]), seconds
    report = json.loads(p.stdout)
    if p.returncode == 0:  # the detail: the widest envelope relative to its output (see `loose`)
        widths = [o["max_radius"] / max(o["max_exact_magnitude"], 1e-30) for o in report["outputs"]]
        return "conforms", "largest radius %.3g of max|y|" % max(widths, default=0.0), seconds
    if p.returncode == 3:
        lost = []
        for o in report["outputs"]:
            if o["not_judged"]:
                at = o["first_lost_at"]
                lost.append("%s: %d of %d not judged, first %s; bound lost at %s" % (
                    o["name"], o["not_judged"], o["elements"], o["first_not_judged"],
                    "%s (%s): %s" % (at["node"], at["op"], at["why"]) if at else "?"))
        return "inconclusive", "; ".join(lost), seconds
    worst = []
    for o in report["outputs"]:
        if o["outside"]:
            w = o["worst"]
            worst.append("%s: %d of %d outside; worst [%s] = %.9g, envelope [%.9g, %.9g], exact [%.9g, %.9g], "
                         "%s radii outside" % (o["name"], o["outside"], o["elements"],
                                               ", ".join(map(str, w["index"])), w["actual"], w["envelope"][0],
                                               w["envelope"][1], w["exact"][0], w["exact"][1], w["excess_radii"]))
    return "rejected", "; ".join(worst), seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nnref", required=True)
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--filter", default="")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--list-unsupported", action="store_true", help="print each unsupported case and why")
    ap.add_argument("--no-conform", action="store_true", help="only the f64 oracle, no conform verdicts")
    ap.add_argument("--verbose", action="store_true", help="print every conform verdict and its time")
    args = ap.parse_args()
    if not os.path.isdir(args.data):
        print("no node tests at %s (Debian package libonnx-testdata)" % args.data)
        return 1
    cases = sorted(d for d in os.listdir(args.data) if args.filter in d)
    results = {}
    with tempfile.TemporaryDirectory() as scratch, concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(run_case, args.nnref, os.path.join(args.data, c), scratch, not args.no_conform): c
                   for c in cases}
        for fut in concurrent.futures.as_completed(futures):
            results[futures[fut]] = fut.result()
    counts = collections.Counter(r[0] for r in results.values())
    reasons = collections.Counter(r[1].split(":")[0] for r in results.values() if r[0] == "unsupported")
    constant = sum(1 for r in results.values() if r[0] == "passed" and r[1])
    unexpected = 0
    for c in sorted(results):
        status, why, verdict, _ = results[c]
        if status == "failed" or (status == "unsupported" and args.list_unsupported):
            print("%s %s: %s" % (status.upper(), c, why))
        if status == "disagrees":
            print("DISAGREES %s: %s -- known: %s" % (c, why, KNOWN_DISAGREEMENTS[c]))
        if verdict and (verdict[0] != "conforms" or args.verbose):
            known = {"rejected": KNOWN_REJECTIONS, "inconclusive": KNOWN_INCONCLUSIVE}.get(verdict[0], {}).get(c)
            unexpected += verdict[0] != "conforms" and not known
            print("CONFORM %s %s (%.1f s): %s%s" % (verdict[0].upper(), c, verdict[2], verdict[1],
                                                   " -- known: " + known if known else ""))
    supported = counts["passed"] + counts["failed"] + counts["disagrees"]
    print("unsupported by code: " + ", ".join("%s %d" % kv for kv in sorted(reasons.items())))
    print("node tests: %d cases, %d supported, %d unsupported" % (len(cases), supported, counts["unsupported"]))
    print("passed with inputs bound at load: %d" % constant)
    print("%d passed, %d failed, %d known disagreements" % (counts["passed"], counts["failed"], counts["disagrees"]))
    verdicts = [r[2] for r in results.values() if r[2]]
    if verdicts:
        vc = collections.Counter(v[0] for v in verdicts)
        known = sum(1 for c, r in results.items() if r[2] and (
            (r[2][0] == "rejected" and c in KNOWN_REJECTIONS) or (r[2][0] == "inconclusive" and c in KNOWN_INCONCLUSIVE)))
        print("conform on the expected outputs: %d verdicts, %d conform, %d inconclusive, %d rejected (%d of these "
              "two known), %d errors; slowest %.1f s, total %.0f s" % (
                  len(verdicts), vc["conforms"], vc["inconclusive"], vc["rejected"], known, vc["error"],
                  max(v[2] for v in verdicts), sum(v[2] for v in verdicts)))
        loose = sorted(c for c, r in results.items() if r[2] and r[2][0] == "conforms" and loose_verdict(r[2][1]))
        print("conforming with an envelope wider than %g of the output's largest exact magnitude: %d%s" % (
            LOOSE, len(loose), (" (" + ", ".join(loose) + ")") if loose else ""))
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
