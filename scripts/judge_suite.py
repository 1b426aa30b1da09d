#!/usr/bin/python3
"""Judge a runtime's outputs against a suite written by `nnref suite`, with NumPy alone (no nnref).

    /usr/bin/python3 scripts/judge_suite.py SUITE_DIR ACTUAL_DIR [--format text|json] [--cases A,B]

SUITE_DIR is `nnref suite --out`'s folder: manifest.json (or the shards' manifest-I-of-N.json,
merged), and per case CASE/envelope_lower/output_K.npy and envelope_upper/output_K.npy (float64),
beside the exact value's enclosure (exact_lower, exact_upper). ACTUAL_DIR holds the runtime's
answers per case: ACTUAL_DIR/CASE/actual.npz keyed by output name, or ACTUAL_DIR/CASE/output_K.npy
for output K (as ONNX's test layout numbers them). A per-sample array for an output whose axis 0
is 1 is taken with that axis, as `nnref conform` takes it.

The rule is conform's (docs/suite.md, docs/conformance.md): a finite bound rejects an answer that
fails it (a NaN answer fails any finite bound); a bound of +inf (upper) or -inf (lower) is an
overflow side, where the exact value lies past the runtime's largest finite number and any answer
beyond, infinities included, is correct; a NaN bound is a side nnref could not bound, and an element
with one is "not judged" unless its other, finite side rejects the answer. Two equal infinite bounds
are an exact infinity, which only that infinity answers; an element the output's manifest lists in
"nan" is exactly NaN, which only a NaN answers. Per case and overall:
  conforms          every element judged and inside                     (exit 0)
  does not conform  some element outside a judged side, with the worst   (exit 1)
                    element, its envelope and how far outside it lies
  inconclusive      nothing outside, some element not judged            (exit 2)
  missing           no answer (or one of the wrong shape) for an output  (exit 2)
Overall: "does not conform" when any case does, else "inconclusive" when any case is inconclusive
or missing, else "conforms". The worst element is the one conform names: farthest outside its
envelope in envelope radii or, when all lie inside, the one using most of its radius.
"""

import argparse
import glob
import json
import math
import os
import sys

import numpy as np

EXIT = {"conforms": 0, "does not conform": 1, "inconclusive": 2, "missing": 2}


def load_manifest(suite):
    """The merged manifest: the first's error model, every shard's cases in case order."""
    paths = sorted(glob.glob(os.path.join(suite, "manifest*.json")))
    if not paths:
        raise SystemExit("judge_suite.py: no manifest*.json in %s (write one with nnref suite --out)" % suite)
    merged = None
    for p in paths:
        with open(p) as f:
            m = json.load(f)
        if merged is None:
            merged = dict(m, cases=[], skipped=[])
        elif (m["runtime_precision"], m["ulps"]) != (merged["runtime_precision"], merged["ulps"]):
            raise SystemExit("judge_suite.py: %s was written for another runtime model than %s" % (p, paths[0]))
        merged["cases"] += m["cases"]
        merged["skipped"] += m["skipped"]
    merged["cases"].sort(key=lambda c: c["index"])
    return merged


def read_answers(folder, outputs):
    """{output name: array} from folder/actual.npz or folder/output_K.npy; a missing one is absent."""
    npz = os.path.join(folder, "actual.npz")
    if os.path.exists(npz):
        with np.load(npz) as z:
            return {k: z[k] for k in z.files}
    found = {}
    for o in outputs:
        path = os.path.join(folder, o["file"] + ".npy")
        if os.path.exists(path):
            found[o["name"]] = np.load(path)
    return found


def excess_in_radii(a, lo, hi):
    """conform's excess_in_radii (cli/verdict.cpp), elementwise: how far outside [lo, hi] in radii."""
    with np.errstate(invalid="ignore", over="ignore"):
        radius = np.nextafter(0.5 * hi - 0.5 * lo, np.inf)
        mid = 0.5 * lo + 0.5 * hi
        beyond = np.where(a > hi, a - hi, np.where(a < lo, lo - a, np.abs(a - mid) - radius))
        unbounded = (radius == 0) | ~np.isfinite(radius)
        excess = np.where(unbounded, np.where(beyond > 0, np.inf, -1.0), beyond / np.where(unbounded, 1.0, radius))
    return np.where(np.isnan(a), np.inf, excess)


def finite_or_none(v):
    v = float(v)
    return v if math.isfinite(v) else None


def judge_output(o, lo, hi, exact_lo, exact_hi, a):
    """One output's counts and worst element; every array flat, in the output's row-major order."""
    exact_nan = np.zeros(a.shape, dtype=bool)
    exact_nan[np.asarray(o.get("nan", []), dtype=np.int64)] = True
    exact_inf = np.isinf(lo) & (lo == hi)
    special = exact_nan | exact_inf
    with np.errstate(invalid="ignore"):
        rejected = np.where(special, np.where(exact_nan, ~np.isnan(a), a != lo),
                            (np.isfinite(lo) & ~(a >= lo)) | (np.isfinite(hi) & ~(a <= hi)))
    not_judged = ~special & ~rejected & (np.isnan(lo) | np.isnan(hi))
    bounded = np.isfinite(lo) & np.isfinite(hi)
    candidates = ~not_judged & ((bounded & ~special) | rejected)
    r = {"name": o["name"], "shape": o["shape"], "elements": int(a.size), "outside": int(rejected.sum()),
         "not_judged": int(not_judged.sum()), "worst": None}
    if candidates.any():
        excess = np.where(candidates, np.where(special, np.inf, excess_in_radii(a, lo, hi)), -np.inf)
        w = int(np.argmax(excess))
        dist = (np.inf if special[w] else
                a[w] - hi[w] if a[w] > hi[w] else lo[w] - a[w] if a[w] < lo[w] else 0.0)
        r["worst"] = {"index": [int(i) for i in np.unravel_index(w, tuple(o["shape"]))],
                      "actual": finite_or_none(a[w]), "exact": [finite_or_none(exact_lo[w]), finite_or_none(exact_hi[w])],
                      "envelope": [finite_or_none(lo[w]), finite_or_none(hi[w])], "distance": finite_or_none(dist),
                      "excess_radii": finite_or_none(excess[w])}
    return r


def judge_case(suite, actual_dir, case):
    folder = os.path.join(suite, case["name"])
    answers = read_answers(os.path.join(actual_dir, case["name"]), case["outputs"])
    result = {"name": case["name"], "outputs": []}
    for o in case["outputs"]:
        arrays = [np.load(os.path.join(folder, part, o["file"] + ".npy")).reshape(-1)
                  for part in ("envelope_lower", "envelope_upper", "exact_lower", "exact_upper")]
        shape = tuple(o["shape"])
        if o["name"] not in answers:
            return dict(result, verdict="missing", why="no answer for output '%s'" % o["name"])
        a = np.asarray(answers[o["name"]])
        if a.shape != shape and not (len(shape) == a.ndim + 1 and shape[0] == 1 and a.shape == shape[1:]):
            return dict(result, verdict="missing", why="output '%s' has shape %s, the answer %s" % (
                o["name"], list(shape), list(a.shape)))
        result["outputs"].append(judge_output(o, *arrays, a.astype(np.float64).reshape(-1)))
    outs = result["outputs"]
    verdict = ("does not conform" if any(r["outside"] for r in outs) else
               "inconclusive" if any(r["not_judged"] for r in outs) else "conforms")
    return dict(result, verdict=verdict)


def overall(cases):
    verdicts = {c["verdict"] for c in cases}
    if "does not conform" in verdicts:
        return "does not conform"
    if verdicts & {"inconclusive", "missing"}:
        return "inconclusive"
    return "conforms"


def text(report):
    lines = []
    for c in report["cases"]:
        if c["verdict"] == "missing":
            lines.append("MISSING %s: %s" % (c["name"], c["why"]))
            continue
        mark = {"conforms": "ok     ", "does not conform": "FAIL   ", "inconclusive": "??     "}[c["verdict"]]
        lines.append("%s%s: %s" % (mark, c["name"], c["verdict"]))
        for o in c["outputs"]:
            if o["outside"]:
                w = o["worst"]
                lines.append("  %s: %d of %d outside; worst %s = %r, envelope %s, exact %s, outside by %r (%s radii)" % (
                    o["name"], o["outside"], o["elements"], w["index"], w["actual"], w["envelope"], w["exact"],
                    w["distance"], w["excess_radii"]))
            elif o["not_judged"]:
                lines.append("  %s: %d of %d not judged" % (o["name"], o["not_judged"], o["elements"]))
    counts = report["counts"]
    lines.append("%s: %s" % (report["verdict"], ", ".join("%d %s" % (n, v) for v, n in counts.items())))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("suite")
    ap.add_argument("actual")
    ap.add_argument("--format", choices=("text", "json"), default="text")
    ap.add_argument("--cases", default="", help="comma-separated case names: judge only these")
    args = ap.parse_args()
    manifest = load_manifest(args.suite)
    wanted = set(filter(None, args.cases.split(",")))
    cases = [judge_case(args.suite, args.actual, c) for c in manifest["cases"] if not wanted or c["name"] in wanted]
    counts = {v: sum(c["verdict"] == v for c in cases) for v in ("conforms", "does not conform", "inconclusive", "missing")}
    report = {"verdict": overall(cases), "runtime_precision": manifest["runtime_precision"],
              "unit_roundoff": manifest["unit_roundoff"], "ulps": manifest["ulps"], "counts": counts, "cases": cases}
    sys.stdout.write(json.dumps(report, indent=1) + "\n" if args.format == "json" else text(report))
    return EXIT[report["verdict"]]


if __name__ == "__main__":
    sys.exit(main())
