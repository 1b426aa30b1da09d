#!/usr/bin/python3
"""--max-memory bounds what nnref holds (docs/cli.md, --max-memory; docs/onnx.md, "What the reader reads").

Builds with onnx.helper a model of large float32 weights: x [1, n] → (MatMul by an n×n initializer,
Add of an n-vector, Relu) × layers, its weights in the file's raw_data (and, as torch.onnx.export
writes a model over 2 GB, in a file beside it: --external). N parameters, 4·N bytes of file.

By hand, `run --precision f64` holds 8·N bytes of parameters for the whole run (each value as read,
a double: a plan run once converts a node's parameters while the node runs, semantics/memory.hpp
ParamHolding) and, while the const node that gives a MatMul its weight runs, that weight converted
(8·n²) and its output (8·n², read by the MatMul next), with an n-vector; reading the model holds
less (the file and its parse, 8·N; the parse and the values as read, each initializer freed once
read). So:
- at --max-memory 8·N + 16·n² + 1 MiB, run and check fit: run exits 0 and matches a NumPy float64
  evaluation within 1e-12 of max|y|; check proves the model (exit 0); run --precision envelope,
  whose converted weight and its output take 24 bytes a value, is refused by name (size.budget);
- at --max-memory 8·N + 8·n² (the weights as read fit, with the file, but not with one weight
  converted and its output) run and check are refused by name (size.budget, exit 1), before they
  allocate;
- at --max-memory 6·N the reading itself is refused by name (the file and its parse need 8·N).
Each nnref's peak resident memory (the kernel's, os.wait4's ru_maxrss) must stay within the budget
plus a fixed allowance for the binary, its libraries and small structures (ALLOWANCE, measured on
a model of 6 parameters: about 15 MiB for run, 41 MiB for check, which makes Z3's context).
Prints one line per case and "N passed, N failed"; exits 1 on any failure.

  /usr/bin/python3 scripts/memory_budget_check.py --nnref build/nnref [--n 2048] [--layers 4] [--external]
"""
import argparse
import multiprocessing
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ALLOWANCE = 64 << 20  # bytes beyond the budget: code, libraries, the graph's small structures
MIB = 1 << 20


def make_model(n, layers, path, external):
    """The model, its input x.npy and NumPy's float64 answer want.npy beside it."""
    rng = np.random.default_rng(0)
    nodes, inits, prev = [], [], "x"
    x = rng.standard_normal((1, n)).astype(np.float32)
    y = x.astype(np.float64)
    for k in range(layers):
        w = (rng.standard_normal((n, n)) / np.sqrt(n)).astype(np.float32)
        b = rng.standard_normal(n).astype(np.float32)
        y = np.maximum(y @ w.astype(np.float64) + b.astype(np.float64), 0.0)
        inits += [numpy_helper.from_array(w, f"w{k}"), numpy_helper.from_array(b, f"b{k}")]
        nodes += [helper.make_node("MatMul", [prev, f"w{k}"], [f"m{k}"]),
                  helper.make_node("Add", [f"m{k}", f"b{k}"], [f"a{k}"]),
                  helper.make_node("Relu", [f"a{k}"], [f"y{k}"])]
        prev = f"y{k}"
    nodes.append(helper.make_node("Identity", [prev], ["y"]))
    graph = helper.make_graph(nodes, "weights", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, n])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, n])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    if external:
        onnx.save_model(model, path, save_as_external_data=True, all_tensors_to_one_file=True,
                        location=os.path.basename(path) + ".data")
    else:
        onnx.save_model(model, path)
    np.save(os.path.join(os.path.dirname(path), "x.npy"), x)
    np.save(os.path.join(os.path.dirname(path), "want.npy"), y)


def run(nnref, args):
    """(exit code, stderr text, peak resident bytes) of one nnref command."""
    p = subprocess.Popen([nnref] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read().decode()
    _, status, usage = os.wait4(p.pid, 0)
    return os.waitstatus_to_exitcode(status), err, usage.ru_maxrss * 1024


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nnref", required=True)
    ap.add_argument("--n", type=int, default=2048)
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--external", action="store_true")
    a = ap.parse_args()
    passed = failed = 0
    with tempfile.TemporaryDirectory() as d:
        model = os.path.join(d, "m.onnx")
        # In a child process: a process forked from this one would start with this one's memory,
        # which its peak (ru_maxrss) counts.
        maker = multiprocessing.get_context("fork").Process(target=make_model, args=(a.n, a.layers, model, a.external))
        maker.start()
        maker.join()
        count = a.layers * (a.n * a.n + a.n)
        want = np.load(os.path.join(d, "want.npy"))
        out = os.path.join(d, "y.npy")
        # The peak while the const node that gives a MatMul its weight runs: every parameter as read,
        # that weight converted and as the node's output (two n×n values), and an n-vector.
        fits = 8 * count + 16 * a.n * a.n + MIB
        over, unread = 8 * count + 8 * a.n * a.n, 6 * count
        cases = [  # (what, args, budget, expected exit, expected code in stderr)
            ("run f64 fits", ["run", model, "--input", f"x={d}/x.npy", "--precision", "f64", "--output", out],
             fits, 0, None),
            ("check fits", ["check", model], fits, 0, None),
            ("run f64 over", ["run", model, "--input", f"x={d}/x.npy", "--precision", "f64"], over, 1, "size.budget"),
            ("check over", ["check", model], over, 1, "size.budget"),
            ("run envelope over", ["run", model, "--input", f"x={d}/x.npy", "--precision", "envelope"], fits, 1,
             "size.budget"),
        ]
        if not a.external:  # the file itself is small then
            cases.append(("read over", ["check", model], unread, 1, "size.budget"))
        for what, args, budget, code, diag in cases:
            rc, err, peak = run(a.nnref, args + ["--max-memory", str(budget)])
            ok = rc == code and (diag is None or f"error[{diag}]" in err) and peak <= budget + ALLOWANCE
            if ok and what == "run f64 fits":
                got = np.load(out)
                ok = float(np.max(np.abs(got - want))) <= 1e-12 * float(np.max(np.abs(want)))
            passed, failed = passed + ok, failed + (not ok)
            print(f"{'ok  ' if ok else 'FAIL'} {what}: --max-memory {budget / MIB:.0f} MiB, exit {rc}, "
                  f"peak {peak / MIB:.0f} MiB ({count} parameters)")
            if not ok:
                print(err[-800:])
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
