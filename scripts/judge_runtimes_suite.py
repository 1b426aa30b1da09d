#!/usr/bin/python3
"""Real runtimes judged against a suite written by `nnref suite`, by scripts/judge_suite.py (NumPy):
ONNX Runtime (npm onnxruntime-node, graph optimizations disabled and all) and PyTorch float32.

With --make-suite (the default when SUITE has no manifest), the suite is written first from:
  - every ONNX backend node test that scripts/onnx_node_tests.py finds supported and passing, as
    nnref reads it (the inputs nnref needs constant moved into the initializers), each written as a
    test folder OUT/sources/node/<test>/ (model.onnx, test_data_set_0/input_K.pb);
  - the four examples as NNL (examples/*/model.nnl: judged with PyTorch through bench/torch_nnl.py,
    as runtime_campaign.py runs them; ONNX Runtime does not read NNL), and
  - the same examples as ONNX (`nnref convert --to onnx`, as runtime_campaign.py converts them:
    OUT/sources/examples_onnx/<example>_onnx/model.onnx with input.npy beside it), which ONNX Runtime
    and PyTorch (scripts/torch_onnx.py) run;
and the command's wall time and the suite's size on disk are reported.

Each runtime's answers are written as ANSWERS/<runtime>/<case>/actual.npz (keyed by output name) and
judged by judge_suite.py on the cases it ran; a case a runtime does not run (an op ORT lacks, one
torch_onnx.py does not map, NNL for ORT) is counted "not run" with its reason. Writes OUT/table.md.

    /usr/bin/python3 scripts/judge_runtimes_suite.py --nnref build/nnref --out OUT [--suite SUITE]
        [--runtimes ort,ort_optimized,torch] [--ort-cache DIR] [--install] [--filter SUBSTRING] [--jobs 2]

Exit 0 when no judged answer is rejected, 1 when one is (a false alarm to investigate, or a
runtime bug), 2 for a usage error.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "bench"))
import onnx_node_tests  # noqa: E402
import torch_onnx  # noqa: E402
from ort_runtime import NotRun, ort_modules, run_ort  # noqa: E402
from runtime_campaign import EXAMPLES, RUNTIMES, converted, run_torch_nnl  # noqa: E402


def node_test_sources(args, scratch, out):
    """A test folder per supported, passing node test, as nnref reads it (onnx_node_tests.run_case)."""
    names = sorted(d for d in os.listdir(args.data) if args.filter in d) if os.path.isdir(args.data) else []
    folders = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(onnx_node_tests.run_case, args.nnref, os.path.join(args.data, n), scratch, False): n
                   for n in names}
        for fut in concurrent.futures.as_completed(futures):
            status, _, _, case = fut.result()
            if status != "passed":
                continue
            folder = os.path.join(out, futures[fut])
            os.makedirs(os.path.join(folder, "test_data_set_0"), exist_ok=True)
            shutil.copy(case["model"], os.path.join(folder, "model.onnx"))
            for k, (_, f) in enumerate(case["inputs"]):
                shutil.copy(f, os.path.join(folder, "test_data_set_0", "input_%d.pb" % k))
            folders.append(folder)
    return sorted(folders)


def example_sources(args, scratch, out):
    """The examples as NNL, and as ONNX with their input beside (case names <example>_onnx)."""
    sources = [os.path.join(ROOT, "examples", e, "model.nnl") for e in EXAMPLES]
    for e in EXAMPLES:
        folder = os.path.join(out, e + "_onnx")
        os.makedirs(folder, exist_ok=True)
        shutil.copy(converted(args.nnref, e, scratch), os.path.join(folder, "model.onnx"))
        shutil.copy(os.path.join(ROOT, "examples", e, "input.npy"), folder)
        sources.append(os.path.join(folder, "model.onnx"))
    return sources


def make_suite(args, suite):
    sources_dir = os.path.join(args.out, "sources")
    shutil.rmtree(sources_dir, ignore_errors=True)
    with tempfile.TemporaryDirectory() as scratch:
        sources = node_test_sources(args, scratch, os.path.join(sources_dir, "node"))
        if args.examples:
            sources += example_sources(args, scratch, os.path.join(sources_dir, "examples_onnx"))
    shutil.rmtree(suite, ignore_errors=True)
    start = time.monotonic()
    p = subprocess.run([args.nnref, "suite", "--out", suite] + sources, capture_output=True, text=True)
    seconds = time.monotonic() - start
    if p.returncode != 0:
        raise SystemExit("nnref suite failed (exit %d): %s" % (p.returncode, p.stderr.strip()[-500:]))
    size = subprocess.run(["du", "-sh", suite], capture_output=True, text=True).stdout.split()[0]
    return "nnref suite on %d sources: %.1f s wall, %s on disk (du -sh)" % (len(sources), seconds, size)


def feeds(suite, case):
    """[(input name, array)] as the runtime is fed: an array of another type for a float32 input as
    float32, as runtime_campaign.py feeds the examples (mnist's input.npy is uint8, converted exactly;
    a float64 one is rounded once, which the envelope allows: inputs are read in the runtime's
    precision)."""
    folder = os.path.join(suite, case["name"])
    arrays = [(i["name"], np.load(os.path.join(folder, i["file"] + ".npy"))) for i in case["inputs"]]
    if case["model"]["format"] != "onnx":
        return arrays
    declared = {i.name: i.type.tensor_type.elem_type for i in
                onnx.load(os.path.join(folder, case["model"]["file"]), load_external_data=False).graph.input}
    return [(n, a.astype(np.float32) if declared.get(n) == onnx.TensorProto.FLOAT else a)
            for n, a in arrays]


def answer(runtime, modules, suite, case, work):
    """The runtime's outputs {name: array}; NotRun or torch_onnx.Unmapped when it does not run the case."""
    folder = os.path.join(suite, case["name"])
    model = os.path.join(folder, case["model"]["file"])
    if case["model"]["format"] == "nnl":
        if runtime != "torch":
            raise NotRun("NNL model (ONNX Runtime runs the example's ONNX conversion, case EXAMPLE_onnx)")
        return run_torch_nnl(model, os.path.join(folder, case["inputs"][0]["file"] + ".npy"), work)
    if runtime in ("ort", "ort_optimized"):
        return run_ort(modules, model, feeds(suite, case), work, "disabled" if runtime == "ort" else "all")
    try:
        return torch_onnx.run(model, dict(feeds(suite, case)))
    except (RuntimeError, TypeError) as e:
        # A type torch lacks (torch.from_numpy of a uint16, uint32 or uint64 input or initializer:
        # TypeError) or a kernel it lacks for a type ("max_pool2d" not implemented for 'Byte').
        raise NotRun("torch: " + str(e).splitlines()[0][:120]) from e


def run_one(runtime, modules, suite, case, answers, scratch):
    """None when the answer was written, else why the case was not run."""
    work = os.path.join(scratch, runtime, case["name"])
    try:
        outs = answer(runtime, modules, suite, case, work)
    except (NotRun, torch_onnx.Unmapped) as e:
        return str(e) or type(e).__name__
    except subprocess.TimeoutExpired:
        return "timed out"
    folder = os.path.join(answers, runtime, case["name"])
    os.makedirs(folder, exist_ok=True)
    np.savez(os.path.join(folder, "actual.npz"), **{k: np.asarray(v) for k, v in outs.items()})
    return None


def judge(suite, answers, runtime, names):
    if not names:
        return {"counts": {}, "cases": []}
    p = subprocess.run([sys.executable, os.path.join(HERE, "judge_suite.py"), suite, os.path.join(answers, runtime),
                        "--format", "json", "--cases", ",".join(names)], capture_output=True, text=True)
    if p.returncode not in (0, 1, 2) or not p.stdout.strip():
        raise SystemExit("judge_suite.py failed (exit %d): %s" % (p.returncode, p.stderr.strip()[-500:]))
    return json.loads(p.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nnref", required=True)
    ap.add_argument("--out", required=True, help="folder for table.md, the answers and (by default) the suite")
    ap.add_argument("--suite", help="an existing suite (default: OUT/suite, written first)")
    ap.add_argument("--runtimes", default=",".join(RUNTIMES))
    ap.add_argument("--ort-cache", default=os.path.expanduser("~/.cache/nnref-ort"))
    ap.add_argument("--install", action="store_true", help="npm install onnxruntime-node into --ort-cache when absent")
    ap.add_argument("--data", default=onnx_node_tests.DEFAULT_DATA)
    ap.add_argument("--filter", default="", help="only the node tests whose name holds this")
    ap.add_argument("--no-examples", dest="examples", action="store_false")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    args.nnref = os.path.abspath(args.nnref)
    runtimes = [r for r in args.runtimes.split(",") if r]
    if any(r not in RUNTIMES for r in runtimes):
        print("unknown runtime in %s (known: %s)" % (args.runtimes, ", ".join(RUNTIMES)))
        return 2
    os.makedirs(args.out, exist_ok=True)
    lines = []
    suite = args.suite or os.path.join(args.out, "suite")
    if not args.suite:
        lines.append(make_suite(args, suite))
    modules = None
    if any(r.startswith("ort") for r in runtimes):
        modules = ort_modules(args.ort_cache, args.install)
        if modules is None:
            lines.append("SKIPPED ort, ort_optimized: onnxruntime-node is not installed in %s (--install)" % args.ort_cache)
            runtimes = [r for r in runtimes if not r.startswith("ort")]
    with open(os.path.join(suite, "manifest.json")) as f:
        cases = json.load(f)["cases"]
    answers = os.path.join(args.out, "answers")
    shutil.rmtree(answers, ignore_errors=True)
    not_run = collections.defaultdict(dict)
    with tempfile.TemporaryDirectory() as scratch, concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(run_one, r, modules, suite, c, answers, scratch): (r, c["name"]) for r in runtimes for c in cases}
        for fut in concurrent.futures.as_completed(futures):
            r, name = futures[fut]
            why = fut.result()
            if why is not None:
                not_run[r][name] = why
    lines += ["", "| runtime | cases | run | conforms | does not conform | inconclusive | missing | not run |",
              "|---|---|---|---|---|---|---|---|"]
    detail, rejected = [], 0
    for r in runtimes:
        names = [c["name"] for c in cases if c["name"] not in not_run[r]]
        report = judge(suite, answers, r, names)
        n = collections.Counter(c["verdict"] for c in report["cases"])
        rejected += n["does not conform"]
        lines.append("| %s | %d | %d | %d | %d | %d | %d | %d |" % (r, len(cases), len(names), n["conforms"],
                                                                    n["does not conform"], n["inconclusive"],
                                                                    n["missing"], len(not_run[r])))
        for c in report["cases"]:
            if c["verdict"] == "does not conform":
                for o in c["outputs"]:
                    if o["outside"]:
                        w = o["worst"]
                        detail.append("- REJECTED %s %s: %s: %d of %d outside, worst %s = %r, envelope %s, exact %s, "
                                      "outside by %r (%s radii)" % (r, c["name"], o["name"], o["outside"], o["elements"],
                                                                    w["index"], w["actual"], w["envelope"], w["exact"],
                                                                    w["distance"], w["excess_radii"]))
            elif c["verdict"] in ("inconclusive", "missing"):
                detail.append("- %s %s %s%s" % (c["verdict"], r, c["name"], ": " + c["why"] if "why" in c else ""))
        reasons = collections.Counter(why[:100] for why in not_run[r].values())
        if reasons:
            detail.append("- %s not run: %s" % (r, ", ".join("%s %d" % kv for kv in reasons.most_common())))
    table = "\n".join(lines + [""] + detail) + "\n"
    with open(os.path.join(args.out, "table.md"), "w") as f:
        f.write(table)
    print(table, end="")
    return 1 if rejected else 0


if __name__ == "__main__":
    sys.exit(main())
