#!/usr/bin/python3
"""The example models timed on nnref's fast path and on PyTorch, float32, batch 1, side by side in
one run: the model table of bench/README.md.

    bench/models.py --nnref build/nnref [--threads 2] [--repeat 50] [--models DIR ...] [--format text|json]

For each example (examples/*/ with model.nnl and input.npy, or the --models directories), runs
`nnref bench MODEL --input input.npy --engine fast --threads T --repeat R --format json` and
`bench/torch_nnl.py MODEL input.npy OUT.npz --dtype float32 --threads T --repeat R`, and prints the
median latency of each, the fast path's GFLOP/s and share of the float32 peak (from nnref bench),
and the fast path's median over PyTorch's. Exit 0 when every model ran, 1 when a run failed.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_json(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write("models.py: %s failed (exit %d):\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
        return None
    return json.loads(p.stdout.strip().splitlines()[-1] if cmd[0].endswith("python3") else p.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nnref", required=True)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=50)
    ap.add_argument("--models", nargs="*")
    ap.add_argument("--format", choices=("text", "json"), default="text")
    a = ap.parse_args()
    dirs = a.models or sorted(os.path.join(ROOT, "examples", d) for d in os.listdir(os.path.join(ROOT, "examples")))
    dirs = [d for d in dirs if all(os.path.isfile(os.path.join(d, f)) for f in ("model.nnl", "input.npy"))]
    rows, failed = [], False
    with tempfile.TemporaryDirectory(prefix="nnref_models_") as tmp:
        for d in dirs:
            model, x = os.path.join(d, "model.nnl"), os.path.join(d, "input.npy")
            fast = run_json([a.nnref, "bench", model, "--input", x, "--engine", "fast", "--threads", str(a.threads),
                             "--repeat", str(a.repeat), "--format", "json"])
            torch = run_json(["/usr/bin/python3", os.path.join(ROOT, "bench", "torch_nnl.py"), model, x,
                              os.path.join(tmp, "out.npz"), "--dtype", "float32", "--threads", str(a.threads),
                              "--repeat", str(a.repeat)])
            if fast is None or torch is None:
                failed = True
                continue
            torch_ms = 1e3 * torch["median_wall_s"]
            rows.append({"model": os.path.basename(d), "fast_median_ms": fast["median_ms"],
                         "fast_gflops": fast["gflops"], "fast_percent_of_peak": fast["percent_of_peak"],
                         "target": fast["target"], "torch_median_ms": torch_ms,
                         "ratio": fast["median_ms"] / torch_ms, "threads": a.threads, "torch": torch["version"]})
    if a.format == "json":
        print(json.dumps(rows, indent=1))
    else:
        print("float32, batch 1, %d thread(s), median of %d runs after a warm-up" % (a.threads, a.repeat))
        print("| model | fast path | GFLOP/s | % of peak | PyTorch | fast / PyTorch |")
        print("|---|---|---|---|---|---|")
        for r in rows:
            print("| %s | %.3f ms | %.1f | %.1f %% | %.3f ms | %.2f |" % (
                r["model"], r["fast_median_ms"], r["fast_gflops"], r["fast_percent_of_peak"], r["torch_median_ms"],
                r["ratio"]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
