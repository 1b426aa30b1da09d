#!/usr/bin/python3
"""Verdicts of `nnref conform` on real runtimes: ONNX Runtime and PyTorch in float32 on the example
models and the ONNX backend node tests that nnref reads (issue 16).

Runtimes (--runtimes, comma-separated):
  ort            ONNX Runtime (npm onnxruntime-node, CPU, 1 thread), graph optimizations disabled
  ort_optimized  the same with every graph optimization ('all': constant folding, Conv+BatchNorm
                 folded into the weights, Conv+Add+Relu fusions, ...)
  torch          PyTorch float32 (1 thread): the examples through the project's NNL reference
                 (bench/torch_nnl.py), the node tests through an evaluation of the ONNX graph by
                 torch functions, op by op (torch_onnx.py; no torch.onnx), for the ops it maps

Models: the four examples (examples/*: ORT runs them as the ONNX files `nnref convert MODEL --to
onnx` writes, each accepted by onnx.checker, and conform judges ORT's answer against that ONNX
file; PyTorch runs the NNL model and conform judges against model.nnl), resnet_block cut after
bn1 and after bn2 (the folded convolutions without the relu after them), four Conv +
BatchNormalization models built so that folding the normalization into the weights could leave
the unfused envelope (FOLDING: large offset or mean, small inputs), and every node test
that scripts/onnx_node_tests.py finds supported and passing (the model as nnref reads it, with
the inputs nnref needs constant moved into the initializers, judged against that file).

Generated models (--generated N): `nnref fuzz --seed S --count N --runtime-format onnx` with each
runtime through onnx_fuzz_adapter.py, in --jobs shards: models 0..N-1 of the campaign, each written
by the ONNX writer (one it cannot express is not asked: "not expressible"), run by the runtime (one
it declines, a kernel ONNX Runtime lacks or an op torch_onnx.py does not map, is "declined", with
its reason) and judged as conform judges; a rejected answer is shrunk and kept by nnref fuzz as a
reproducer folder OUT/<runtime>/generated/<S>-<k>/.

Each answer is judged by `nnref conform MODEL --input ... --actual ANSWER.npz` at float32. Writes
OUT/table.md (per runtime: models run, conformant, not conformant, not run and why) and, for each
non-conformant answer, a reproducer folder OUT/<runtime>/<case>/ with the model, the inputs, the
runtime's answer (actual.npz), conform's JSON and text verdicts and the command that gives them.

ONNX Runtime is found in --ort-cache (default ~/.cache/nnref-ort/node_modules/onnxruntime-node);
with --install it is installed there first when absent and npm exists
(`npm install --ignore-scripts onnxruntime-node@1.30.0`). Without it the ort runtimes are
skipped, and the script says so.

    /usr/bin/python3 scripts/runtime_campaign.py --nnref build/nnref --out campaign [--install]
        [--runtimes ort,ort_optimized,torch] [--filter NODE_TEST_SUBSTRING] [--no-node-tests] [--no-examples]
        [--generated N [--seed S] [--shrink-attempts A]] [--missing-code 77] [--jobs 2]

Exit 0 when every judged answer conforms or is a known finding (KNOWN_ORT_FINDINGS), 1 when one
does not (each is a reproducer to read) or a known finding's case conforms,
2 for a usage error or when a runtime requested with --require is unavailable, --missing-code
when ONNX Runtime is unavailable (the rest having conformed).
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "bench"))
import onnx_node_tests  # noqa: E402
import torch_onnx  # noqa: E402
from ort_runtime import NotRun, ort_modules, run_ort  # noqa: E402

EXAMPLES = ["mlp", "mnist_classifier", "resnet_block", "downsample_block"]
RUNTIMES = ["ort", "ort_optimized", "torch"]

# ONNX Runtime's rejected answers that have been investigated (docs/onnx.md, "Verdicts on ONNX
# Runtime and PyTorch"), each kept with a reproducer in tests/data/runtime_findings/<folder>: case →
# folder. Such a rejection is reported as the known finding and does not fail the campaign; a known
# case whose answer conforms does (the runtime changed: the finding and this list are stale).
KNOWN_ORT_FINDINGS = {
    "node/test_dft": "ort_dft_non_power_of_two",
    "node/test_dft_axis": "ort_dft_non_power_of_two",
    "node/test_dft_inverse": "ort_dft_non_power_of_two",
    "node/test_maxunpool_export_with_output_shape": "ort_maxunpool_output_shape",
    "node/test_resize_downsample_scales_linear_align_corners": "ort_resize_align_corners_scales",
    "node/test_resize_downsample_scales_cubic_align_corners": "ort_resize_align_corners_scales",
}


def known_finding(runtime, name):
    return KNOWN_ORT_FINDINGS.get(name) if runtime.startswith("ort") else None


def run_torch_nnl(model_nnl, x, work):
    """PyTorch float32 on an NNL example: bench/torch_nnl.py's forward pass, once."""
    os.makedirs(work, exist_ok=True)
    out = os.path.join(work, "torch.npz")
    p = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "torch_nnl.py"), model_nnl, x, out, "--repeat", "1",
                        "--threads", "1", "--dtype", "float32"], capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise NotRun("torch_nnl.py: " + p.stderr.strip()[-200:])
    return dict(np.load(out))


def conform(nnref, model, input_files, actual, work):
    """(exit code, json report or None, text report)."""
    base = [nnref, "conform", model, "--actual", actual, "--exact"]  # closest() reads the exact value
    for f in input_files:
        base += ["--input", f]
    p = subprocess.run(base + ["--format", "json"], capture_output=True, text=True, timeout=600)
    report = json.loads(p.stdout) if p.returncode in (0, 1) and p.stdout.strip() else None
    text = ""
    if p.returncode != 0:
        text = subprocess.run(base, capture_output=True, text=True, timeout=600).stdout
    return p.returncode, report, text or p.stderr, base


def closest(report):
    """How close a conforming answer comes to its envelope's edge: the largest share of the radius
    an output's worst element uses (1 + excess_radii; 1 is on the bound), with that element. An
    element on a bound that is also its exact value (a relu's 0) says nothing and is left out, as in
    docs/conformance.md."""
    best = None
    for o in report["outputs"]:
        w = o.get("worst")  # absent for an empty output
        if not w or w.get("excess_radii") is None:
            continue
        if w["actual"] in w["envelope"] and w["exact"][0] == w["exact"][1] == w["actual"]:
            continue
        if best is None or w["excess_radii"] + 1 > best[0]:
            best = (w["excess_radii"] + 1, o["name"], w)
    if best is None:
        return ""
    share, name, w = best
    return "%.3f of the radius at %s%s: %.9g in [%.9g, %.9g], exact [%.9g, %.9g]" % (
        share, name, w["index"], w["actual"], w["envelope"][0], w["envelope"][1], w["exact"][0], w["exact"][1])


def keep_reproducer(out, runtime, case, model, input_files, actual, report, text, cmd):
    folder = os.path.join(out, runtime, case)
    os.makedirs(folder, exist_ok=True)
    shutil.copy(model, os.path.join(folder, os.path.basename(model)))
    for f in input_files:
        shutil.copy(f, os.path.join(folder, os.path.basename(f)))
    shutil.copy(actual, os.path.join(folder, "actual.npz"))
    with open(os.path.join(folder, "verdict.json"), "w") as f:
        json.dump(report, f, indent=1)
    with open(os.path.join(folder, "verdict.txt"), "w") as f:
        f.write(text)
    rel = lambda p: os.path.basename(p)
    with open(os.path.join(folder, "README"), "w") as f:
        f.write("%s's answer on %s, rejected by nnref conform. Rerun in this folder:\n  nnref conform %s %s --actual actual.npz\n" % (
            runtime, case, rel(model), " ".join("--input " + rel(i) for i in input_files)))


# Conv 64→8 3×3 + BatchNormalization where folding the normalization into the weights (ONNX Runtime's
# 'all' optimizations) could leave the unfused envelope (docs/conformance.md, "Fusions"): an offset
# or mean large next to Σ|x·w|. (name, offset, mean, input scale)
FOLDING = [("offset1e3_x1e-3", 1e3, 0.0, 1e-3), ("mean1e3_x1e-3", 0.0, 1e3, 1e-3),
           ("offset1e3_mean1e3_x1e-3", 1e3, 1e3, 1e-3), ("offset1e4_x1e-4", 1e4, 0.0, 1e-4)]


def folding_case(name, offset, mean, scale, scratch):
    rng = np.random.default_rng(len(name))
    c, k, h = 64, 8, 16
    arrays = {"w": rng.standard_normal((k, c, 3, 3)) * 0.1, "b": np.zeros(k), "scale": np.ones(k),
              "offset": np.full(k, offset), "mean": np.full(k, mean), "var": np.ones(k)}
    inits = [numpy_helper.from_array(a.astype(np.float32), n) for n, a in arrays.items()]
    nodes = [onnx.helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
             onnx.helper.make_node("BatchNormalization", ["c", "scale", "offset", "mean", "var"], ["y"], name="bn",
                                   epsilon=1e-5)]
    graph = onnx.helper.make_graph(nodes, "fold_" + name, [onnx.helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1, c, h, h])],
                                   [onnx.helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1, k, h, h])], inits)
    model = onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", 13)])
    model.ir_version = 7
    path = os.path.join(scratch, "fold_%s.onnx" % name)
    onnx.save(model, path)
    x = (rng.uniform(-1, 1, (1, c, h, h)) * scale).astype(np.float32)
    xf = os.path.join(scratch, "fold_%s_x.npy" % name)
    np.save(xf, x)
    return {"onnx": path, "nnl": None, "inputs": [("x", xf)], "arrays": [("x", x)]}


def converted(nnref, example, scratch):
    """examples/<example>/model.nnl as ONNX, written by `nnref convert --to onnx` and accepted by
    onnx.checker (full_check)."""
    path = os.path.join(scratch, example + ".onnx")
    if not os.path.exists(path):
        p = subprocess.run([nnref, "convert", os.path.join(ROOT, "examples", example, "model.nnl"), path, "--to", "onnx"],
                           capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            raise SystemExit("nnref convert %s --to onnx failed: %s" % (example, p.stderr.strip()))
        onnx.checker.check_model(path, full_check=True)
    return path


def cut_case(nnref, example, value, scratch):
    """The converted example up to `value` (an intermediate value, made the output): resnet_block
    cut after its batch normalizations judges the folded conv without the relu that follows."""
    m = onnx.load(converted(nnref, example, scratch))
    shapes = {v.name: v for v in onnx.shape_inference.infer_shapes(m).graph.value_info}
    kept = []
    for n in m.graph.node:
        kept.append(n)
        if value in n.output:
            break
    del m.graph.node[:]
    m.graph.node.extend(kept)
    del m.graph.output[:]
    m.graph.output.append(shapes[value])
    path = os.path.join(scratch, "%s_%s.onnx" % (example, value))
    onnx.save(m, path)
    x = os.path.join(ROOT, "examples", example, "input.npy")
    return {"onnx": path, "nnl": None, "inputs": [("input", x)], "arrays": [("input", np.load(x).astype(np.float32))]}


def cases(args, scratch):
    """[(case, {'onnx': model file, 'nnl': model.nnl or None, 'inputs': [(name, file)], 'arrays': [(name, array)]})]"""
    out = []
    for m in EXAMPLES if args.examples else []:
        onnx_path = converted(args.nnref, m, scratch)
        x = os.path.join(ROOT, "examples", m, "input.npy")
        out.append(("example/" + m, {"onnx": onnx_path, "nnl": os.path.join(ROOT, "examples", m, "model.nnl"),
                                     "inputs": [("input", x)], "arrays": [("input", np.load(x).astype(np.float32))]}))
    for value in ("bn1", "bn2") if args.examples else []:
        out.append(("cut/resnet_block_" + value, cut_case(args.nnref, "resnet_block", value, scratch)))
    for name, offset, mean, scale in FOLDING if args.examples else []:
        out.append(("fold/" + name, folding_case(name, offset, mean, scale, scratch)))
    if args.node_tests:
        data = args.data
        names = sorted(d for d in os.listdir(data) if args.filter in d) if os.path.isdir(data) else []
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = {pool.submit(onnx_node_tests.run_case, args.nnref, os.path.join(data, c), scratch, False): c for c in names}
            for fut in concurrent.futures.as_completed(futures):
                status, _, _, case = fut.result()
                if status == "passed":
                    out.append(("node/" + futures[fut], {
                        "onnx": case["model"], "nnl": None, "inputs": case["inputs"],
                        "arrays": [(n, onnx_node_tests.read_pb(f)) for n, f in case["inputs"]]}))
    return sorted(out)


def answer(runtime, modules, case, work):
    if runtime in ("ort", "ort_optimized"):
        return run_ort(modules, case["onnx"], case["arrays"], work, "disabled" if runtime == "ort" else "all"), case["onnx"]
    if case["nnl"]:
        return run_torch_nnl(case["nnl"], case["inputs"][0][1], work), case["nnl"]
    return torch_onnx.run(case["onnx"], dict(case["arrays"])), case["onnx"]


def judge_one(args, runtime, modules, name, case, scratch):
    """('conforms' | 'rejected' | 'not-run' | 'error', detail)."""
    work = os.path.join(scratch, runtime, name.replace("/", "_"))
    try:
        outs, model = answer(runtime, modules, case, work)
    except (NotRun, torch_onnx.Unmapped) as e:
        return "not-run", str(e)
    except subprocess.TimeoutExpired:
        return "not-run", "timed out"
    actual = os.path.join(work, "actual.npz")
    os.makedirs(work, exist_ok=True)
    np.savez(actual, **outs)
    inputs = [f for _, f in case["inputs"]]
    code, report, text, cmd = conform(args.nnref, model, inputs, actual, work)
    if code == 0:
        return "conforms", closest(report)
    if code == 1:
        keep_reproducer(args.out, runtime, name, model, inputs, actual, report, text, cmd)
        worst = [o for o in report["outputs"] if o["outside"]]
        return "rejected", "; ".join("%s: %d of %d outside, worst %s = %.9g, envelope [%.9g, %.9g], %s radii" % (
            o["name"], o["outside"], o["elements"], o["worst"]["index"], o["worst"]["actual"], o["worst"]["envelope"][0],
            o["worst"]["envelope"][1], o["worst"]["excess_radii"]) for o in worst)
    return "error", text.strip()[:300]


def generated(args, runtime, modules):
    """nnref fuzz on `runtime` through onnx_fuzz_adapter.py, in args.jobs shards: {models,
    unexpressible, declined, failures, folders, reasons}."""
    out = os.path.join(args.out, runtime, "generated")
    os.makedirs(out, exist_ok=True)
    declined_log = os.path.join(out, "declined.txt")
    adapter = [sys.executable, os.path.join(HERE, "onnx_fuzz_adapter.py"), runtime, "--declined-log", declined_log]
    if modules:
        adapter += ["--ort-modules", modules]
    command = " ".join(shlex.quote(a) for a in adapter) + " {model} {input} {output}"
    shards = max(1, args.jobs)
    procs = [subprocess.Popen([args.nnref, "fuzz", "--seed", str(args.seed), "--count", str(args.generated),
                               "--shard", "%d/%d" % (i, shards), "--runtime-format", "onnx", "--runtime", command,
                               "--shrink-attempts", str(args.shrink_attempts), "--out", out],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in range(shards)]
    total = collections.Counter()
    folders, errors = [], []
    for i, p in enumerate(procs):
        _, err = p.communicate()
        if p.returncode not in (0, 1):
            errors.append("nnref fuzz shard %d/%d: exit code %d: %s" % (i, shards, p.returncode, err.strip()[-300:]))
            continue
        with open(os.path.join(out, "summary-%d-of-%d.json" % (i, shards))) as f:
            summary = json.load(f)
        for key in ("models", "unexpressible", "declined", "failures"):
            total[key] += summary[key]
        folders += [os.path.join(out, e["folder"]) for e in summary["failed"]]
    reasons = collections.Counter()
    if os.path.exists(declined_log):
        with open(declined_log) as f:
            reasons.update(re.sub(r"Name:'[^']*'\s*", "", line.strip())[:160] for line in f if line.strip())
    return dict(total, folders=sorted(folders), reasons=reasons, errors=errors)


def generated_table(results):
    lines = ["| runtime | generated models | run | conformant | not conformant | declined | not expressible |",
             "|---|---|---|---|---|---|---|"]
    detail = []
    for r, g in results.items():
        run = g["models"] - g["unexpressible"] - g["declined"]
        lines.append("| %s | %d | %d | %d | %d | %d | %d |" % (r, g["models"], run, run - g["failures"], g["failures"],
                                                                g["declined"], g["unexpressible"]))
        detail += ["- REJECTED %s generated: %s (reproduce.sh there)" % (r, f) for f in g["folders"]]
        detail += ["- ERROR %s generated: %s" % (r, e) for e in g["errors"]]
        if g["reasons"]:
            detail.append("- %s declined: %s" % (r, ", ".join("%s %d" % kv for kv in g["reasons"].most_common())))
    return lines + [""] + detail


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nnref", required=True)
    ap.add_argument("--out", required=True, help="folder for table.md and the reproducers")
    ap.add_argument("--runtimes", default=",".join(RUNTIMES))
    ap.add_argument("--require", default="", help="runtimes whose absence is an error (exit 2)")
    ap.add_argument("--ort-cache", default=os.path.expanduser("~/.cache/nnref-ort"))
    ap.add_argument("--install", action="store_true", help="npm install onnxruntime-node into --ort-cache when absent")
    ap.add_argument("--data", default=onnx_node_tests.DEFAULT_DATA)
    ap.add_argument("--filter", default="", help="only the node tests whose name holds this")
    ap.add_argument("--missing-code", type=int, default=0,
                    help="exit code when ONNX Runtime is unavailable and every other verdict conforms (ctest: 77, a skip)")
    ap.add_argument("--no-node-tests", dest="node_tests", action="store_false")
    ap.add_argument("--no-examples", dest="examples", action="store_false")
    ap.add_argument("--generated", type=int, default=0, help="judge models 0..N-1 of an nnref fuzz campaign too")
    ap.add_argument("--seed", type=int, default=1, help="the nnref fuzz campaign's seed (--generated)")
    ap.add_argument("--shrink-attempts", type=int, default=100, help="nnref fuzz's rebuilds per rejected model")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    args.nnref = os.path.abspath(args.nnref)
    runtimes = [r for r in args.runtimes.split(",") if r]
    if any(r not in RUNTIMES for r in runtimes):
        print("unknown runtime in %s (known: %s)" % (args.runtimes, ", ".join(RUNTIMES)))
        return 2
    modules = None
    missing = False
    if any(r.startswith("ort") for r in runtimes):
        modules = ort_modules(args.ort_cache, args.install)
        if modules is None:
            print("SKIPPED ort, ort_optimized: onnxruntime-node is not installed in %s (use --install with npm)" % args.ort_cache)
            if any(r.startswith("ort") for r in args.require.split(",") if r):
                return 2
            runtimes = [r for r in runtimes if not r.startswith("ort")]
            missing = True
    os.makedirs(args.out, exist_ok=True)
    for r in runtimes:
        shutil.rmtree(os.path.join(args.out, r), ignore_errors=True)
    results = collections.defaultdict(dict)
    with tempfile.TemporaryDirectory() as scratch:
        pending = cases(args, scratch)
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = {pool.submit(judge_one, args, r, modules, name, case, scratch): (r, name)
                       for r in runtimes for name, case in pending}
            for fut in concurrent.futures.as_completed(futures):
                r, name = futures[fut]
                status, why = fut.result()
                finding = known_finding(r, name)
                if finding and status == "rejected":
                    status, why = "known", "tests/data/runtime_findings/%s: %s" % (finding, why)
                elif finding and status == "conforms":
                    status, why = "stale", "conforms, but is listed as the finding %s (KNOWN_ORT_FINDINGS)" % finding
                results[r][name] = status, why
    lines = ["| runtime | models | run | conformant | not conformant (known findings) | not run |",
             "|---|---|---|---|---|---|"]
    bad = 0
    for r in runtimes:
        c = collections.Counter(v[0] for v in results[r].values())
        conforming = c["conforms"] + c["stale"]
        run = conforming + c["rejected"] + c["known"]
        bad += c["rejected"] + c["error"] + c["stale"]
        lines.append("| %s | %d | %d | %d | %d (%d) | %d |" % (r, len(results[r]), run, conforming,
                                                               c["rejected"] + c["known"] + c["error"], c["known"],
                                                               c["not-run"]))
    detail = []
    for r in runtimes:
        shares = [(float(why.split()[0]), name, why) for name, (status, why) in results[r].items() if status == "conforms" and why]
        if shares:
            top = max(shares)
            detail.append("- %s closest to an edge: %s, %s" % (r, top[1], top[2]))
        for name, (status, why) in sorted(results[r].items()):
            if status in ("rejected", "error", "known", "stale"):
                detail.append("- %s %s %s: %s" % (status.upper(), r, name, why))
            elif status == "conforms" and not name.startswith("node/"):
                detail.append("- %s %s: conforms, %s" % (r, name, why))
        not_run = collections.defaultdict(list)
        for name, (status, why) in sorted(results[r].items()):
            if status == "not-run":
                not_run[why].append(name)
        for why, names in sorted(not_run.items(), key=lambda kv: -len(kv[1])):
            detail.append("- %s not run (%d): %s: %s" % (r, len(names), why, ", ".join(names)))
    generated_results = {r: generated(args, r, modules) for r in runtimes} if args.generated > 0 else {}
    for g in generated_results.values():
        bad += g["failures"] + len(g["errors"])
    extra = [""] + generated_table(generated_results) if generated_results else []
    table = "\n".join(lines + [""] + detail + extra) + "\n"
    with open(os.path.join(args.out, "table.md"), "w") as f:
        f.write(table)
    print(table, end="")
    if bad:
        return 1
    return args.missing_code if missing else 0


if __name__ == "__main__":
    sys.exit(main())
