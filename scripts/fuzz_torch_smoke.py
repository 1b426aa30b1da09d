#!/usr/bin/python3
"""The ctest fuzz_torch_adapter: `nnref fuzz` on PyTorch float32 through scripts/fuzz_torch_adapter.py
for a fixed seed and count (docs/testing.md, "nnref fuzz"):

    fuzz_torch_smoke.py --nnref build/nnref [--seed S] [--count N] [--min-asked M]

Fails unless the campaign judges N models, PyTorch answers at least M of them (the others are models
NNL cannot express, not asked) and no answer is outside the float32 envelope.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--nnref", required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=400)
    p.add_argument("--min-asked", type=int, default=10)
    a = p.parse_args()
    adapter = os.path.join(HERE, "fuzz_torch_adapter.py")
    with tempfile.TemporaryDirectory(prefix="nnref_fuzz_torch_") as out:
        # Dense layers and their activations: the ops NNL states whose generated models it expresses most often.
        run = subprocess.run([a.nnref, "fuzz", "--seed", str(a.seed), "--count", str(a.count),
                              "--ops", "linear,relu,sigmoid,add,softmax", "--runtime-format", "nnl",
                              "--runtime", "/usr/bin/python3 %s {model} {input} {output}" % adapter,
                              "--shrink-attempts", "20", "--out", out], capture_output=True, text=True)
        sys.stderr.write(run.stderr)
        with open(os.path.join(out, "summary-0-of-1.json")) as f:
            summary = json.load(f)
        print(json.dumps({k: summary[k] for k in ("models", "unexpressible", "failures")}))
        for failure in summary["failed"]:
            with open(os.path.join(out, failure["folder"], "verdict.txt")) as f:
                sys.stderr.write(f.read())
        asked = summary["models"] - summary["unexpressible"]
        ok = run.returncode == 0 and summary["models"] == a.count and summary["failures"] == 0 and asked >= a.min_asked
        if not ok:
            print("FAIL: exit %d, %d models, %d asked (at least %d wanted), %d failures"
                  % (run.returncode, summary["models"], asked, a.min_asked, summary["failures"]))
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
