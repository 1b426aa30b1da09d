#!/usr/bin/python3
"""No false alarm on deep, real models (issue 31): float32 answers of correct runtimes, each judged by
`nnref conform` at the runtime's own intermediate values, must conform with every element judged.

Models: torchvision 0.14's classifiers as scripts/torchvision_zoo.py builds them (random
initialisation, seed 0), at --px pixels, and a 6-layer nn.TransformerEncoder (d_model 64, 8 heads,
feed-forward 128, batch_first, seed 0) on a (1, 16, 64) sequence, exported by torch.onnx at opset 17
with batch 1; the input a seeded normal draw. Peers, each giving its outputs and, where it can, its
value of every real node output:
  torch_f32_1thread, torch_f32_2threads   PyTorch float32 evaluating the file node by node
                                          (scripts/torch_onnx.py), on 1 and 2 threads: every value;
  ort_all, ort_disabled                   ONNX Runtime (npm onnxruntime-node) with all graph
                                          optimisations and with none: every value;
  module_1thread, module_2threads         the PyTorch module itself: its outputs only;
  oracle_f32                              nnref's oracle in float (conform --engine f32): every value;
  fast_AVX3, fast_AVX2, fast_SSE4,        nnref's fast path forced to each Highway target, 2 threads
  fast_SSSE3, fast_SCALAR                 (conform --engine fast --target T): every value;
  hw                                      the NAC hardware model (conform --engine hw): outputs only.
An answer with intermediates must conform, every given value and output element judged; one without
must not be rejected, and an element may be not judged only because the envelope compounded wider
than its values (docs/conformance.md). A peer that does not run a model (a target this machine
lacks, a model the hardware model's SRAM cannot hold) is reported and skipped.

    soundness_sweep.py --nnref BIN [--ort-cache DIR] [--install] [--px 64]
                       [--models resnet18,...,transformer_encoder6] [--peers torch_f32_1thread,...]
Prints a line per (model, peer) and a summary; exit 0 when nothing was rejected and every answer
with intermediates conformed, 1 otherwise, 2 for a usage error.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_judging  # noqa: E402
import torch_onnx  # noqa: E402
import torchvision_zoo  # noqa: E402
from ort_runtime import NotRun, ort_modules, run_ort_intermediates  # noqa: E402

MODELS = ("resnet18", "resnet50", "mobilenet_v2", "mobilenet_v3_large", "efficientnet_b0", "squeezenet1_1",
          "shufflenet_v2_x0_5", "transformer_encoder6")
TARGETS = ("AVX3", "AVX2", "SSE4", "SSSE3", "SCALAR")
ENGINES = ("oracle_f32",) + tuple("fast_" + t for t in TARGETS) + ("hw",)
PEERS = ("torch_f32_1thread", "torch_f32_2threads", "ort_all", "ort_disabled", "module_1thread",
         "module_2threads") + ENGINES


def build(name, px):
    """(module, input) for a model name."""
    if name == "transformer_encoder6":
        torch.manual_seed(0)
        layer = torch.nn.TransformerEncoderLayer(64, 8, 128, dropout=0.0, batch_first=True)
        module, shape = torch.nn.TransformerEncoder(layer, num_layers=6).eval(), (1, 16, 64)
    else:
        module, shape = torchvision_zoo.build(name, False), (1, 3, px, px)
    torch.manual_seed(1)
    return module, torch.randn(*shape)


def answer_of(peer, module, path, x, work, modules):
    """(outputs {name: array}, intermediates {name: array} or None) of a peer, or raises NotRun."""
    if peer.startswith("torch_f32_"):
        given = {}
        out = torch_onnx.run(path, {"x": x.numpy()}, threads=1 if peer.endswith("1thread") else 2, intermediates=given)
        return out, given
    if peer.startswith("ort_"):
        if not modules:
            raise NotRun("ONNX Runtime is not installed (--install)")
        return run_ort_intermediates(modules, path, [("x", x.numpy())], os.path.join(work, peer), peer[4:])
    if peer.startswith("module_"):
        torch.set_num_threads(1 if peer.endswith("1thread") else 2)
        with torch.no_grad():
            return {"y": module(x).numpy()}, None
    raise ValueError(peer)


def judge(a, peer, path, x_path, outputs, given, work):
    """(verdict text, problem or None) of conform on one answer."""
    args = [a.nnref, "conform", path, "--input", x_path, "--skip-exact", "--format", "json", "--max-memory",
            a.max_memory]
    if peer == "oracle_f32":
        args += ["--engine", "f32"]
    elif peer.startswith("fast_"):
        args += ["--engine", "fast", "--target", peer[5:], "--threads", "2"]
    elif peer == "hw":
        args += ["--engine", "hw"]
    else:
        actual = os.path.join(work, "actual.npz")
        np.savez(actual, **{k: v.astype(np.float32) for k, v in outputs.items()})
        args += ["--actual", actual]
    if given is not None:
        cuts = os.path.join(work, "cuts.npz")
        np.savez(cuts, **{k: v.astype(np.float32) for k, v in given.items()})
        args += ["--intermediates", cuts]
    done = subprocess.run(args, capture_output=True, text=True, timeout=a.timeout)
    try:
        report = json.loads(done.stdout)
    except ValueError:
        if peer in ENGINES and "error[" in done.stderr:  # the engine did not run it: no answer to judge
            raise NotRun(done.stderr.strip().splitlines()[0][:200])
        return "exit %d" % done.returncode, (done.stdout + done.stderr).strip()[-300:]
    verdict, cut = report["verdict"], report.get("intermediates") or {}
    text = verdict
    if cut:
        text += " (%d of %d values judged, %d elements, %d outside, %d not judged)" % (
            cut["judged"], cut["given"], cut["elements"], cut["outside"], cut["not_judged"])
    if verdict == "does not conform":
        culprit = cut.get("first_outside")
        return text, "rejected" + (": first outside %s (%s)" % (culprit["name"], culprit["op"]) if culprit else "")
    if given is not None or (peer in ENGINES and peer != "hw"):  # an engine of nnref's is judged at its own values
        judged = verdict == "conforms" and bool(cut) and cut.get("not_judged") == 0
        return text, None if judged else "not every element judged at the intermediates"
    lost = [o["first_lost_at"] for o in report["outputs"] if o["not_judged"]]
    others = [w for w in lost if torch_judging.COMPOUNDED not in ((w or {}).get("why") or "")]
    return text, ("not judged for another reason: %s" % others[0]) if others else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nnref", required=True)
    ap.add_argument("--ort-cache", default="build/ort-cache")
    ap.add_argument("--install", action="store_true", help="npm install onnxruntime-node if absent")
    ap.add_argument("--px", type=int, default=64)
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--peers", default=",".join(PEERS))
    ap.add_argument("--max-memory", default="8G")
    ap.add_argument("--timeout", type=float, default=1800)
    a = ap.parse_args()
    peers = a.peers.split(",")
    if any(p not in PEERS for p in peers):
        print("soundness_sweep: error: --peers takes %s" % ",".join(PEERS), file=sys.stderr)
        return 2
    modules = ort_modules(a.ort_cache, a.install) if any(p.startswith("ort_") for p in peers) else None
    problems, verdicts, skipped = [], 0, 0
    for name in a.models.split(","):
        with tempfile.TemporaryDirectory(prefix="soundness_") as work:
            module, x = build(name, a.px)
            path, x_path = os.path.join(work, name + ".onnx"), os.path.join(work, "x.npy")
            torch.onnx.export(module, (x,), path, opset_version=17, input_names=["x"], output_names=["y"])
            np.save(x_path, x.numpy())
            for peer in peers:
                try:
                    outputs, given = answer_of(peer, module, path, x, work, modules) if peer not in ENGINES else ({}, None)
                    text, problem = judge(a, peer, path, x_path, outputs, given, work)
                except NotRun as e:
                    skipped += 1
                    print("%-22s %-20s not run: %s" % (name, peer, e), flush=True)
                    continue
                verdicts += 1
                print("%-22s %-20s %s%s" % (name, peer, text, ("  FAIL " + problem) if problem else ""), flush=True)
                if problem:
                    problems.append("%s, %s: %s" % (name, peer, problem))
    print("%d verdicts, %d peers not run, %d problems" % (verdicts, skipped, len(problems)))
    for p in problems:
        print("FAIL " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
