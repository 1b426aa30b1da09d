#!/usr/bin/python3
"""ctest suite_judge_agrees: scripts/judge_suite.py (NumPy, no nnref) gives `nnref conform`'s verdict.

Writes a suite (`nnref suite`) for two examples and node tests with float, int64 and bool outputs,
an int64 output judged by the range of its truncations (test_pow_types_float) and exact NaN and
infinite elements (test_cast_BFLOAT16_to_FLOAT, docs/conformance.md), then builds
answers per case and judges each both ways, asserting the same verdict, counts (outside, not judged)
and worst element (index, distance outside, excess in radii):
  f32        nnref's f64 answer rounded to float32 (ints and bools as they are): a correct answer
  shift      one element moved by 1e-3 relative (an int +1, a bool flipped)
  above      one element at the double just above its envelope's finite upper bound
  below      one element at the double just below its finite lower bound
  at_upper   one element exactly at its upper bound (accepted: the bound belongs to the envelope)
  inf, nan   one element +inf, NaN
Beyond agreement, the verdicts the rule itself fixes are asserted: f32 conforms, above and below and nan do not conform where the side is finite, and the kept
ONNX Runtime Sigmoid finding (tests/data/runtime_findings/ort_sigmoid, ORT's actual.npz) does not
conform. The ONNX-layout .pb copies of inputs and bounds are checked against the .npy files with
onnx's own parser.

    /usr/bin/python3 tests/suite_judge_agrees.py --nnref build/nnref
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NODE = "/usr/share/libonnx-testdata/data/node"
EXAMPLES = ["mlp", "downsample_block"]
NODE_TESTS = ["test_sigmoid", "test_exp", "test_div_example", "test_greater", "test_argmax_default_axis_random",
              "test_pow_types_float", "test_cast_BFLOAT16_to_FLOAT"]
FINDING = os.path.join(ROOT, "tests", "data", "runtime_findings", "ort_sigmoid")
VARIANTS = ["f32", "shift", "above", "below", "at_upper", "inf", "nan"]
JUDGE_EXIT = {"conforms": 0, "does not conform": 1, "inconclusive": 2}
CONFORM_EXIT = {"conforms": 0, "does not conform": 1, "inconclusive": 3}


def sh(cmd, ok=(0,)):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode not in ok:
        raise SystemExit("FAIL: %s: exit %d\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return p


def pb_matches_npy(suite, case):
    """The ONNX-layout copies (.pb, read by onnx's own parser) hold the .npy arrays: a list of problems."""
    import onnx
    from onnx import numpy_helper
    folder = os.path.join(suite, case["name"])
    pairs = [(os.path.join(folder, "test_data_set_0", i["file"]), i["name"]) for i in case["inputs"]]
    pairs += [(os.path.join(folder, part, o["file"]), o["name"]) for o in case["outputs"]
              for part in ("exact_lower", "exact_upper", "envelope_lower", "envelope_upper")]
    problems = []
    for stem, name in pairs:
        t = onnx.TensorProto()
        with open(stem + ".pb", "rb") as f:
            t.ParseFromString(f.read())
        a, b = numpy_helper.to_array(t), np.load(stem + ".npy")
        if t.name != name or a.dtype != b.dtype or a.shape != b.shape or not np.array_equal(a, b, equal_nan=a.dtype.kind == "f"):
            problems.append("%s.pb differs from its .npy" % stem)
    return problems


def f64_answer(nnref, suite, case, work):
    """nnref's f64 outputs {name: array} on the case's model and inputs, as the suite stores them."""
    folder = os.path.join(suite, case["name"])
    out = os.path.join(work, case["name"] + ".f64.npz")
    cmd = [nnref, "run", os.path.join(folder, case["model"]["file"]), "--precision", "f64", "--output", out, "--quiet"]
    for i in case["inputs"]:
        cmd += ["--input", os.path.join(folder, i["file"] + ".npy")]
    sh(cmd)
    with np.load(out) as z:
        return {k: z[k] for k in z.files}


def bounds(suite, case, o):
    folder = os.path.join(suite, case["name"])
    return (np.load(os.path.join(folder, "envelope_lower", o["file"] + ".npy")).reshape(-1),
            np.load(os.path.join(folder, "envelope_upper", o["file"] + ".npy")).reshape(-1))


def variant(name, base, lo, hi):
    """The answer of one variant for one output (float64, or None when the variant does not apply),
    and the flat index of the element it changes."""
    a = base.astype(np.float64).reshape(-1).copy()
    k = a.size // 2
    integral = base.dtype.kind in "biu"
    if name == "f32":
        return (base if integral else base.astype(np.float32)), k
    if name == "shift":
        a[k] = (1 - a[k]) if base.dtype == bool else a[k] + 1 if integral else (a[k] * (1 + 1e-3) if a[k] else 1e-3)
    elif name == "above" or name == "at_upper":
        if not np.isfinite(hi[k]):
            return None, k
        a[k] = np.nextafter(hi[k], np.inf) if name == "above" else hi[k]
    elif name == "below":
        if not np.isfinite(lo[k]):
            return None, k
        a[k] = np.nextafter(lo[k], -np.inf)
    elif name in ("inf", "nan"):
        a[k] = np.inf if name == "inf" else np.nan
    return a.reshape(base.shape), k


def conform_json(nnref, suite, case, actual):
    folder = os.path.join(suite, case["name"])
    cmd = [nnref, "conform", os.path.join(folder, case["model"]["file"]), "--actual", actual, "--format", "json"]
    for i in case["inputs"]:
        cmd += ["--input", os.path.join(folder, i["file"] + ".npy")]
    p = sh(cmd, ok=(0, 1, 3))
    report = json.loads(p.stdout)
    if CONFORM_EXIT[report["verdict"]] != p.returncode:
        raise SystemExit("FAIL: conform's exit %d for verdict %s" % (p.returncode, report["verdict"]))
    return report


def same_number(x, y):
    return (x is None and y is None) or (x is not None and y is not None and (x == y or abs(x - y) <= 1e-15 * abs(y)))


def compare(label, mine, theirs):
    """judge_suite.py's case result against conform's JSON; a list of differences."""
    diffs = []
    if mine["verdict"] != theirs["verdict"]:
        diffs.append("verdict %s, conform %s" % (mine["verdict"], theirs["verdict"]))
    for m, t in zip(mine["outputs"], theirs["outputs"]):
        for key in ("outside", "not_judged", "elements"):
            if m[key] != t[key]:
                diffs.append("%s %s %s, conform %s" % (m["name"], key, m[key], t[key]))
        mw, tw = m["worst"], t.get("worst")
        if (mw is None) != (tw is None):
            diffs.append("%s worst %s, conform %s" % (m["name"], mw, tw))
        elif mw is not None:
            if mw["index"] != tw["index"]:
                diffs.append("%s worst index %s, conform %s" % (m["name"], mw["index"], tw["index"]))
            for key in ("distance", "excess_radii"):
                if not same_number(mw[key], tw[key]):
                    diffs.append("%s worst %s %r, conform %r" % (m["name"], key, mw[key], tw[key]))
    return ["%s: %s" % (label, d) for d in diffs]


def judge(suite, actual_dir):
    p = sh([sys.executable, os.path.join(ROOT, "scripts", "judge_suite.py"), suite, actual_dir, "--format", "json"],
           ok=(0, 1, 2))
    report = json.loads(p.stdout)
    if JUDGE_EXIT[report["verdict"]] != p.returncode:
        raise SystemExit("FAIL: judge_suite.py's exit %d for verdict %s" % (p.returncode, report["verdict"]))
    return {c["name"]: c for c in report["cases"]}


def expected(name, changed_side_finite):
    """The verdict the rule fixes for a variant, or None when only agreement is asserted."""
    if name == "f32":
        return "conforms"
    if name in ("above", "below") or (name == "nan" and changed_side_finite):
        return "does not conform"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nnref", required=True)
    args = ap.parse_args()
    nnref = os.path.abspath(args.nnref)
    sources = [os.path.join(ROOT, "examples", e, "model.nnl") for e in EXAMPLES]
    sources += [os.path.join(NODE, t) for t in NODE_TESTS if os.path.isdir(os.path.join(NODE, t))]
    sources.append(os.path.join(FINDING, "model.onnx"))
    failures, verdicts = [], 0
    with tempfile.TemporaryDirectory() as work:
        suite = os.path.join(work, "suite")
        sh([nnref, "suite", "--out", suite] + sources)
        with open(os.path.join(suite, "manifest.json")) as f:
            manifest = json.load(f)
        if manifest["skipped"]:
            failures.append("skipped cases: %s" % manifest["skipped"])
        for c in manifest["cases"]:
            if c["model"]["format"] == "onnx":
                failures += pb_matches_npy(suite, c)
        cases = [c for c in manifest["cases"] if c["name"] != "ort_sigmoid"]
        answers = {c["name"]: f64_answer(nnref, suite, c, work) for c in cases}
        for name in VARIANTS:
            actual_dir = os.path.join(work, "actual", name)
            asked = {}
            for c in cases:
                outs, finite = {}, True
                for o in c["outputs"]:
                    lo, hi = bounds(suite, c, o)
                    a, k = variant(name, answers[c["name"]][o["name"]], lo, hi)
                    if a is None:
                        break
                    outs[o["name"]] = a
                    finite = finite and bool(np.isfinite(lo[k]) or np.isfinite(hi[k]))
                if len(outs) < len(c["outputs"]):
                    continue
                os.makedirs(os.path.join(actual_dir, c["name"]), exist_ok=True)
                np.savez(os.path.join(actual_dir, c["name"], "actual.npz"), **outs)
                asked[c["name"]] = (c, finite)
            mine = judge(suite, actual_dir)
            for case_name, (c, finite) in asked.items():
                theirs = conform_json(nnref, suite, c, os.path.join(actual_dir, case_name, "actual.npz"))
                label = "%s/%s" % (name, case_name)
                failures += compare(label, mine[case_name], theirs)
                want = expected(name, finite)
                if want is not None and theirs["verdict"] != want:
                    failures.append("%s: conform says %s, the rule %s" % (label, theirs["verdict"], want))
                verdicts += 1
                print("%-10s %-34s %s" % (name, case_name, mine[case_name]["verdict"]))
        # The kept ORT Sigmoid finding: its actual.npz is rejected by both.
        finding_dir = os.path.join(work, "actual", "finding", "ort_sigmoid")
        os.makedirs(finding_dir)
        shutil.copy(os.path.join(FINDING, "actual.npz"), finding_dir)
        mine = judge(suite, os.path.dirname(finding_dir))["ort_sigmoid"]
        c = next(c for c in manifest["cases"] if c["name"] == "ort_sigmoid")
        theirs = conform_json(nnref, suite, c, os.path.join(finding_dir, "actual.npz"))
        failures += compare("finding/ort_sigmoid", mine, theirs)
        if mine["verdict"] != "does not conform":
            failures.append("finding/ort_sigmoid: judge_suite.py says %s, not 'does not conform'" % mine["verdict"])
        print("%-10s %-34s %s" % ("finding", "ort_sigmoid", mine["verdict"]))
        verdicts += 1
    for f in failures:
        print("FAIL " + f)
    print("%d verdicts compared, %d disagreements or wrong verdicts" % (verdicts, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
