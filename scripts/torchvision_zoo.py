#!/usr/bin/python3
"""torchvision 0.14's classification and semantic-segmentation models read, proved, run and judged by
nnref (docs/onnx.md, "torchvision 0.14"; issue 32).

Each architecture (torchvision.models.list_models of the classification and segmentation modules,
or --models / --filter) is built with random initialisation (weights=None, seed 0; segmentation
with aux_loss off and no backbone weights; the parameters torchvision initialises to 0, such as
ViT's head and class token, drawn from N(0, 0.02²) so that no output is identically 0), in eval
mode, and exported by torch.onnx at opset 17 with a dynamic batch axis, at the smallest of the
image sizes 64, 96, 128, 160, 224 that exports. Then:
- `nnref check --dim batch=1..16` proves it (obligations counted);
- `nnref run --precision f64` on a batch of 2 agrees with PyTorch's float64 evaluation of the
  file's own weights (scripts/torch_onnx.py) within 1e-9 · max|y|;
- `nnref conform` accepts ONNX Runtime's float32 answer (npm onnxruntime-node 1.30, all graph
  optimisations, one thread) on that batch; the envelope's largest radius ÷ max|y| is printed
  for information. Without --intermediates a deep model's envelope compounds wider than its
  values and the verdict is inconclusive, which passes when that is the only reason (conform
  names the node; docs/conformance.md); with them every element must be judged.
--until check or run stops after that step (the large models' conform takes hours: docs/onnx.md).
A model that does not export is listed with PyTorch's own message (at the largest size tried).
Prints one row per model as it goes and the totals; --out writes the table as markdown. Exits 1
when a model that exports fails a step.

  nice /usr/bin/python3 scripts/torchvision_zoo.py --nnref build/nnref --ort-cache build/ort-cache \\
      [--models squeezenet1_0,mobilenet_v3_small | --filter REGEX] [--intermediates] [--skip-exact] [--out table.md]
--intermediates judges ONNX Runtime's answer together with its values of every real node output
(conform --intermediates, docs/conformance.md "Judged at intermediate values"); --skip-exact judges
without the exact value's enclosure even where an envelope side overflows (conform --skip-exact).
"""
import argparse
import json
import os
import re
import sys
import tempfile
import time
import warnings

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_judging  # noqa: E402
import torch_onnx  # noqa: E402
from ort_runtime import NotRun, ort_modules, run_ort, run_ort_intermediates  # noqa: E402

warnings.filterwarnings("ignore")

SIZES = (64, 96, 128, 160, 224)
BATCH, BATCH_RANGE, TOLERANCE = 2, "batch=1..16", 1e-9


def architectures():
    """[(name, is segmentation)] of every torchvision 0.14 classification and segmentation model."""
    import torchvision.models as models
    return ([(n, False) for n in models.list_models(module=models)] +
            [(n, True) for n in models.list_models(module=models.segmentation)])


def build(name, segmentation):
    """The model with random initialisation, in eval mode; zero-initialised parameters redrawn."""
    import torchvision.models as models
    torch.manual_seed(0)
    extra = {"aux_loss": False, "weights_backbone": None} if segmentation else {}
    m = models.get_model(name, weights=None, **extra).eval()
    with torch.no_grad():
        for p in m.parameters():
            if not p.any():
                p.normal_(0, 0.02)
    return m


def export(name, segmentation, path):
    """(image size, None) once exported at the smallest size that exports, else (None, PyTorch's message)."""
    message = None
    for size in SIZES:
        m = build(name, segmentation)
        try:
            torch.onnx.export(m, (torch.randn(1, 3, size, size),), path, opset_version=17, input_names=["x"],
                              output_names=["y"], dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}})
            return size, None
        except Exception as e:  # PyTorch's reason, reported as it is
            message = "%s: %s" % (type(e).__name__, str(e).strip().splitlines()[0] if str(e).strip() else "")
    return None, message


class Row:
    def __init__(self, name):
        self.name, self.size, self.nodes, self.obligations = name, None, None, None
        self.times = {}
        self.error = self.radius = None
        self.verdict, self.problems = "", []

    def cells(self):
        def t(k):
            return "%.1f" % self.times[k] if k in self.times else ""
        return [self.name, str(self.size or ""), str(self.nodes or ""), str(self.obligations or ""), t("check"),
                t("run"), t("conform"), "%.1e" % self.error if self.error is not None else "", self.verdict,
                "%.1e" % self.radius if self.radius is not None else "", "; ".join(self.problems)]


HEADER = ["model", "px", "nodes", "obligations", "check s", "run s", "conform s", "max rel diff", "verdict",
          "radius/max|y|", "notes"]


def timed(row, step, f):
    start = time.time()
    try:
        return f()
    finally:
        row.times[step] = time.time() - start


def judge(args, modules, name, segmentation):
    """The row of one model: every step it reaches, and what failed."""
    row = Row(name)
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, name + ".onnx")
        row.size, message = export(name, segmentation, path)
        if row.size is None:
            row.verdict = "does not export"
            row.problems.append(message[:300])
            return row
        import onnx
        row.nodes = len(onnx.load(path).graph.node)
        binary, timeout = args.nnref, args.timeout
        budget = ["--max-memory", args.max_memory] if args.max_memory else []
        c = timed(row, "check", lambda: torch_judging.nnref(binary, "check", path, "--dim", BATCH_RANGE, *budget,
                                                            timeout=timeout))
        proved = re.search(r"(\d+) obligations proved", c.stdout)
        row.obligations = proved and int(proved.group(1))
        if c.returncode != 0:
            row.problems.append("check: " + (c.stdout + c.stderr).strip()[-300:])
            if not row.obligations:  # not read: nothing further can run
                row.verdict = "not read"
                return row
        if args.until == "check":
            row.verdict = "proved" if c.returncode == 0 else "not proved"
            return row
        x = np.random.RandomState(0).randn(BATCH, 3, row.size, row.size).astype(np.float32)
        xin, yout = os.path.join(work, "x.npy"), os.path.join(work, "y.npz")
        np.save(xin, x)
        try:
            errors, want = timed(row, "run", lambda: torch_judging.f64_errors(binary, path, {"x": x}, xin, yout,
                                                                              timeout, budget))
        except torch_onnx.Unmapped as e:  # the float64 reference does not cover an op: not judged, said so
            row.problems.append("PyTorch float64 reference: %s not mapped" % e)
            row.verdict = "no reference"
            return row
        if isinstance(errors, str):
            row.problems.append("run: " + errors)
            row.verdict = "run failed"
            return row
        row.error = max(errors.values())
        if not row.error <= TOLERANCE:
            row.problems.append("run: %.2e of max|y| from PyTorch float64" % row.error)
        if args.until == "run":
            row.verdict = "run" if not row.problems else "run failed"
            return row
        if not modules:
            row.verdict = "ONNX Runtime not installed"
            return row
        conform_args = ["--skip-exact"] if args.skip_exact else []
        try:
            if args.intermediates:
                answer, given = run_ort_intermediates(modules, path, [("x", x)], os.path.join(work, "ort"), "all",
                                                      cut_names(path, args.cut_filter))
                given_path = os.path.join(work, "intermediates.npz")
                conform_args += ["--intermediates", given_path]
                np.savez(given_path, **{k: v.astype(np.float32) for k, v in given.items()})
            else:
                answer = run_ort(modules, path, [("x", x)], os.path.join(work, "ort"), "all")
        except NotRun as e:
            row.problems.append("ONNX Runtime did not run it: %s" % e)
            row.verdict = "not judged"
            return row
        actual = os.path.join(work, "actual.npz")
        np.savez(actual, **{k: v.astype(np.float32) for k, v in answer.items()})
        v = timed(row, "conform", lambda: torch_judging.nnref(binary, "conform", path, "--input", xin, "--actual", actual,
                                                              *conform_args, "--format", "json", *budget,
                                                              timeout=timeout))
        try:
            report = json.loads(v.stdout)
        except ValueError:
            row.problems.append("conform: " + (v.stdout + v.stderr).strip()[-300:])
            row.verdict = "conform failed"
            return row
        row.verdict = report["verdict"]
        culprit = report.get("intermediates", {}).get("first_outside")
        if culprit:
            row.problems.append("conform: intermediate %s (%s) first outside its envelope, element %s = %g" % (
                culprit["name"], culprit["op"], culprit["index"], culprit["actual"]))
        if args.intermediates and not args.no_slip:
            row.problems += slip_not_rejected(binary, path, xin, answer, conform_args, work, budget, timeout)
        row.radius = max(o["max_radius"] / np.abs(want[o["name"]]).max() for o in report["outputs"])
        for o in report["outputs"]:
            if o["outside"]:
                row.problems.append("conform: %d elements of %s outside" % (o["outside"], o["name"]))
            lost = o["first_lost_at"] or {}
            if o["not_judged"] and not (not args.intermediates and torch_judging.COMPOUNDED in (lost.get("why") or "")):
                row.problems.append("conform: %d elements of %s not judged, a bound lost at %s (%s): %s" % (
                    o["not_judged"], o["name"], lost.get("node"), lost.get("op"), lost.get("why")))
    return row


def cut_names(path, regex):
    """The node outputs whose names match regex (None: every real one, with_intermediates' default)."""
    if not regex:
        return None
    import onnx
    m = onnx.load(path, load_external_data=False)
    return [o for n in m.graph.node for o in n.output if o and re.search(regex, o)]


def slip_not_rejected(binary, path, xin, answer, conform_args, work, budget, timeout):
    """With the intermediates, the answer with its largest element off by 1e-3 relative must be rejected:
    the problem, if it is not."""
    slipped = {k: v.astype(np.float32) for k, v in answer.items()}
    first = next(iter(slipped.values()))
    flat = first.reshape(-1)
    flat[np.abs(flat).argmax()] *= np.float32(1 + 1e-3)
    actual = os.path.join(work, "slipped.npz")
    np.savez(actual, **slipped)
    v = torch_judging.nnref(binary, "conform", path, "--input", xin, "--actual", actual, *conform_args, *budget,
                            timeout=timeout)
    return [] if v.returncode == 1 else ["conform: an answer off by 1e-3 relative is not rejected (exit %d)" % v.returncode]


def failed(row, until):
    """Inconclusive passes only without problems: without intermediates, a deep model's envelope
    compounds wider than its values (not a problem: conform names it and rejects nothing)."""
    passed = {"check": ("proved",), "run": ("run",), "conform": ("conforms", "inconclusive")}[until]
    return row.verdict != "does not export" and (row.verdict not in passed or bool(row.problems))


def markdown(rows):
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in r.cells()) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nnref", required=True)
    ap.add_argument("--ort-cache", default="build/ort-cache")
    ap.add_argument("--install", action="store_true", help="npm install onnxruntime-node if absent")
    ap.add_argument("--models", help="comma-separated names (default: every architecture)")
    ap.add_argument("--filter", help="a regular expression the names must match")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds per nnref command")
    ap.add_argument("--out", help="write the table as markdown here")
    ap.add_argument("--max-memory", help="nnref's --max-memory for every step (its default is 4 GiB; the largest models' weights need more)")
    ap.add_argument("--skip-exact", action="store_true",
                    help="conform never encloses the exact value (conform --skip-exact), not even where an "
                         "envelope side overflows")
    ap.add_argument("--intermediates", action="store_true",
                    help="judge ONNX Runtime's answer with its values of every real intermediate (conform --intermediates)")
    ap.add_argument("--cut-filter", help="with --intermediates, give only the values whose names match this regular "
                                         "expression (each judged from the previous ones through the ops between: "
                                         "the largest models' every value does not fit in memory)")
    ap.add_argument("--no-slip", action="store_true",
                    help="with --intermediates, do not also require that an answer off by 1e-3 is rejected "
                         "(a second conform: halves the time of the largest models)")
    ap.add_argument("--until", choices=("check", "run", "conform"), default="conform",
                    help="the last step: check (export and check only), run (and the f64 run), conform (every step)")
    args = ap.parse_args()
    torch.set_num_threads(1)
    every = architectures()
    chosen = every
    if args.models:
        known = dict(every)
        wanted = args.models.split(",")
        unknown = [n for n in wanted if n not in known]
        if unknown:
            sys.exit("not torchvision 0.14 architectures: " + ", ".join(unknown))
        chosen = [(n, known[n]) for n in wanted]
    if args.filter:
        chosen = [(n, s) for n, s in chosen if re.search(args.filter, n)]
    modules = ort_modules(args.ort_cache, args.install)
    if not modules:
        print("ONNX Runtime is not installed: its answers are not judged (--install)")
    rows = []
    print(" | ".join(HEADER), flush=True)
    for name, segmentation in chosen:
        rows.append(judge(args, modules, name, segmentation))
        print(" | ".join(rows[-1].cells()), flush=True)
        if args.out:
            with open(args.out, "w") as f:
                f.write(markdown(rows))
    exported = [r for r in rows if r.verdict != "does not export"]
    bad = [r for r in rows if failed(r, args.until)]
    print("%d models: %d export, %d pass every step, %d fail (%s)" % (
        len(rows), len(exported), len(exported) - len(bad), len(bad), ", ".join(r.name for r in bad)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
