#!/usr/bin/python3
"""PyTorch's float32 matrix product timed: the peer of fastpath_bench.

    torch_gemm.py SIZE [SIZE ...] [--repeat R] [--threads T]

For each SIZE, C = A·B with A, B random float32 SIZE × SIZE, the output preallocated
(torch.matmul(out=)), run R times under torch.inference_mode() with torch.set_num_threads(T).
Prints one JSON line: {"version", "threads", "best_s": {SIZE: best wall time of one product}}.
"""

import argparse
import json
import time

import torch


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sizes", type=int, nargs="+")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    best = {}
    with torch.inference_mode():
        for s in a.sizes:
            x, y, out = torch.rand(s, s), torch.rand(s, s), torch.empty(s, s)
            torch.matmul(x, y, out=out)  # warm-up
            times = []
            for _ in range(a.repeat):
                t0 = time.perf_counter()
                torch.matmul(x, y, out=out)
                times.append(time.perf_counter() - t0)
            best[s] = min(times)
    print(json.dumps({"version": torch.__version__, "threads": torch.get_num_threads(), "best_s": best}))


if __name__ == "__main__":
    main()
